"""Museum tournaments: set-up, registration, rounds with their draw, tables, standings.

The shell around the pure draw (``scorekeeper.draw``) and standings
(``scorekeeper.standings``): it loads rows, calls them and stores the facts. Each table of a
round is an evening, so hands are entered, checked and replayed as everywhere else.
"""
