"""What an app keeps in memory between requests, in one place, so it can all be forgotten.

Several parts of the app remember what they read or derived from the database: evenings
replayed (``operations.snapshots``), evenings known to be casual ones
(``web.tournament_tables``), tournament tables replayed (``operations.tournament_results``)
and blank hand forms (``web.evenings.hands``). Each keeps its store here under its own
name: a ``cachetools.LRUCache`` where only the most recently used are kept. When the
database is replaced under a running app (restoring a database file), everything
remembered of the old one must go at once, since an id may now name another evening:
``forget_all`` empties every store, whoever made it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar, cast

from flask import Flask

#: The key in ``app.extensions`` under which the stores are found, by name.
KEPT = "scorekeeper.kept"


class Store(Protocol):
    """Anything kept that can be emptied: a dict, a set, an ``LRUCache``…"""

    def clear(self) -> None:
        """Forget everything in it."""


S = TypeVar("S", bound=Store)


def store(app: Flask, name: str, make: Callable[[], S]) -> S:
    """``app``'s store called ``name``, made by ``make`` on first use."""
    stores: dict[str, Store] = app.extensions.setdefault(KEPT, {})
    found = stores.get(name)
    if found is None:
        found = stores.setdefault(name, make())
    return cast(S, found)


def forget_all(app: Flask) -> None:
    """Empty every store of ``app`` (the database under it was replaced)."""
    for kept in app.extensions.get(KEPT, {}).values():
        kept.clear()
