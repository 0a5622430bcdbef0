"""Serving the app: the command-line tools, the nginx front and gunicorn's settings that
``scripts/start`` uses (docs/server.md).
"""
