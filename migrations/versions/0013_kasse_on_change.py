"""Doppen evenings stored before the house rule ``kasse_on_change`` keep their Kasse

The rule settles what a change of players does to the Pagatkasse (docs/doppen.md "A
player joins or leaves"). New evenings share it out (``split``); an evening stored before
the rule existed was scored with the notes staying with each player, so it is given
``stays`` explicitly, with its settings revisions and Doppen tournaments, and no amount
already stored changes. Going back removes the key again (the code before it knows only
``stays``).

Revision ID: 0013
Revises: 0012
Create Date: 2026-11-28
"""

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None

KEY = "kasse_on_change"
EVENING = sa.table(
    "evening", sa.column("id", sa.Integer), sa.column("game"), sa.column("options", sa.JSON)
)
REVISION = sa.table(
    "evening_revision",
    sa.column("id", sa.Integer),
    sa.column("evening_id", sa.Integer),
    sa.column("settings", sa.JSON),
)
TOURNAMENT = sa.table(
    "tournament", sa.column("id", sa.Integer), sa.column("game"), sa.column("options", sa.JSON)
)


def with_key(options: Any) -> Any:
    """``options`` read as before the rule: the notes stay."""
    if isinstance(options, dict) and KEY not in options:
        return {**options, KEY: "stays"}
    return options


def without_key(options: Any) -> Any:
    if isinstance(options, dict) and KEY in options:
        return {k: v for k, v in options.items() if k != KEY}
    return options


def rewrite(change) -> None:
    bind = op.get_bind()
    for table in (EVENING, TOURNAMENT):
        rows = bind.execute(
            sa.select(table.c.id, table.c.options).where(table.c.game == "doppen")
        ).all()
        for row in rows:
            new = change(row.options)
            if new != row.options:
                bind.execute(table.update().where(table.c.id == row.id).values(options=new))
    doppen = sa.select(EVENING.c.id).where(EVENING.c.game == "doppen")
    revisions = bind.execute(
        sa.select(REVISION.c.id, REVISION.c.settings).where(REVISION.c.evening_id.in_(doppen))
    ).all()
    for row in revisions:
        settings = row.settings
        if isinstance(settings, dict) and "options" in settings:
            new = change(settings["options"])
            if new != settings["options"]:
                bind.execute(
                    REVISION.update()
                    .where(REVISION.c.id == row.id)
                    .values(settings={**settings, "options": new})
                )


def upgrade():
    rewrite(with_key)


def downgrade():
    rewrite(without_key)
