"""The installation's own pages: the PIN (``access_pages``), the backup and its restore
(``backups``), the players (``players``, anonymising a guest) and the tools page
(``tools``)."""
