"""The club in the web: table groups, their members and seasons (docs/club.md): the pages
(``pages``), the JSON API (``api``), their forms (``forms``), what a season is asked for
(``queries``), what the pages show beside the numbers (``presenting``) and the API's shapes
(``shapes``)."""
