"""Names compared by their folded form; member names unique in their group

Group and member names are stored composed (NFC) without invisible characters, and
compared by ``names.fold``, which takes names that look alike for one (docs/limits.md
"Names that look alike"). Members get a folded name of their own, unique in their group,
so that two renames at once cannot both take one name (the database holds it). Where two
stored names already fold alike, the later one (by id) gets " (2)" (or the next free
number), and the upgrade lists it on standard error. Players' names are quoted by their
hands, so they are renamed after the upgrade, by the app (``operations.stored_names``).
A kept answer's key gets room for a page form's token as long as an API's key, after its
"page:" (``idempotency.MAX_KEY_LENGTH``).

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-28
"""

import sys

import sqlalchemy as sa
from alembic import op

from scorekeeper.core.names import clean_text, fold

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None

GROUP = sa.table(
    "table_group", sa.column("id", sa.Integer), sa.column("name"), sa.column("name_key")
)
MEMBER = sa.table(
    "member",
    sa.column("id", sa.Integer),
    sa.column("group_id", sa.Integer),
    sa.column("name"),
    sa.column("name_key"),
)


def unique_name(name: str, taken: set[str]) -> str:
    """``name``, or with the first free " (n)" when its folded form is taken."""
    wanted, n = name, 2
    while fold(wanted) in taken:
        wanted = f"{name} ({n})"
        n += 1
    return wanted


def renamed(kind: str, old: str, new: str) -> None:
    print(f"{kind} {old!r} is now called {new!r}: its name looked like another's.", file=sys.stderr)


def upgrade():
    bind = op.get_bind()
    groups = bind.execute(sa.select(GROUP.c.id, GROUP.c.name).order_by(GROUP.c.id)).all()
    # Keys are first set apart (the new key of one group may be the old key of a later
    # one, and the column is unique), then written anew.
    for row in groups:
        bind.execute(GROUP.update().where(GROUP.c.id == row.id).values(name_key=f"\x01{row.id}"))
    taken: set[str] = set()
    for row in groups:
        name = unique_name(clean_text(row.name) or "?", taken)
        taken.add(fold(name))
        if name != row.name:
            renamed("The group", row.name, name)
        bind.execute(
            GROUP.update().where(GROUP.c.id == row.id).values(name=name, name_key=fold(name))
        )

    with op.batch_alter_table("member") as batch:
        batch.add_column(sa.Column("name_key", sa.String(80), nullable=True))
    by_group: dict[int, set[str]] = {}
    rows = bind.execute(
        sa.select(MEMBER.c.id, MEMBER.c.group_id, MEMBER.c.name).order_by(MEMBER.c.id)
    ).all()
    for row in rows:
        taken = by_group.setdefault(row.group_id, set())
        name = unique_name(clean_text(row.name) or "?", taken)
        taken.add(fold(name))
        if name != row.name:
            renamed("The member", row.name, name)
        bind.execute(
            MEMBER.update().where(MEMBER.c.id == row.id).values(name=name, name_key=fold(name))
        )
    with op.batch_alter_table("member") as batch:
        batch.alter_column("name_key", existing_type=sa.String(80), nullable=False)
        batch.create_unique_constraint(op.f("uq_member_group_id"), ["group_id", "name_key"])

    # A page form's key is "page:" and its token, which may be as long as an API's key.
    with op.batch_alter_table("idempotent_response") as batch:
        batch.alter_column("key", existing_type=sa.String(200), type_=sa.String(210))


def downgrade():
    with op.batch_alter_table("idempotent_response") as batch:
        batch.alter_column("key", existing_type=sa.String(210), type_=sa.String(200))
    with op.batch_alter_table("member") as batch:
        batch.drop_constraint(op.f("uq_member_group_id"), type_="unique")
        batch.drop_column("name_key")
