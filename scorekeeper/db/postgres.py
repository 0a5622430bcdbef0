"""PostgreSQL connection settings.

- ``plan_cache_mode=force_generic_plan``: the driver prepares a statement once it has run
  a few times on a connection, and the app's frequent statements (an evening's news, the
  insert of a hand) have one good plan whatever evening they are run for. Left to choose,
  the server planned the hand's insert anew for every hand (it judged the plan for the
  values given cheaper than the generic one): about 0.15 to 0.3 ms of its processor time
  per hand, a fifth of what the server spends on a recorded hand (``docs/decisions.md``).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine

SETTINGS = "SET plan_cache_mode = force_generic_plan"


def configure(engine: Engine) -> None:
    """Apply :data:`SETTINGS` to every new PostgreSQL connection of ``engine``, outside any
    transaction (a setting made inside one would end with it if it rolled back)."""

    @event.listens_for(engine, "connect")
    def _on_connect(dbapi_connection: Any, _record: Any) -> None:
        autocommit = dbapi_connection.autocommit
        dbapi_connection.autocommit = True
        try:
            dbapi_connection.execute(SETTINGS)
        finally:
            dbapi_connection.autocommit = autocommit
