"""Tests of the evenings feature (``scorekeeper/web/evenings``): pages, hands, the settlement,
exports and the JSON API."""
