"""Scorekeeper: score and settlement companion for tarock games at a real table."""
