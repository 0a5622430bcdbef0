"""Tests of the club feature (``scorekeeper/web/club``): table groups, members, seasons and
carried pots."""
