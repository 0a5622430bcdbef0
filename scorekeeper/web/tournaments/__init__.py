"""Tournaments in the web: the organiser's pages (``pages``), the JSON API (``api``), the
printouts (``printouts``, with their helpers in ``printing``), the table codes' pages
(``tables``), the set-up forms (``forms``), the API's shapes (``shapes``) and the log
(``logbook``) (docs/tournaments.md)."""
