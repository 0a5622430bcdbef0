"""Tests of the tournaments feature (``scorekeeper/web/tournaments``)."""
