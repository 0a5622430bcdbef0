"""Tests of the installation feature (``scorekeeper/web/installation``)."""
