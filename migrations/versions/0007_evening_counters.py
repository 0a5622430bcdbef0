"""The evening's row counts its hands and the edits of its hands and seatings

Every request that records a hand or shows a table compares the evening's stamp: until
now it was worked out from the evening's hands (their count, the sum of their versions,
the latest time) and the count of its seatings, so it grew with the evening and read
every hand's row. Triggers now keep two counters in the evening's row, in the same
transaction as the write that changes them:

- ``hand_count``: the evening's hands (one more for each hand stored);
- ``edit_count``: one more for every change to a hand, a seating or a seat.

A rebuilt table loses its triggers: a later migration that recreates ``hand``,
``seating``, ``seat`` or ``evening`` (SQLite's batch mode does when it must) has to
create them again (``tests/operations/test_stamp.py`` checks that every write moves the stamp).

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

#: The evening of a seat's row (``seat`` names only its seating).
SEAT_EVENING = "(SELECT evening_id FROM seating WHERE seating.id = {row}.seating_id)"

#: What each write does to the evening's counters: the table, the operation, the row that
#: names the evening (NEW or OLD), the assignments.
EFFECTS = [
    ("hand", "INSERT", "NEW", "hand_count = hand_count + 1"),
    ("hand", "UPDATE", "NEW", "edit_count = edit_count + 1"),
    ("hand", "DELETE", "OLD", "hand_count = hand_count - 1, edit_count = edit_count + 1"),
    ("seating", "INSERT", "NEW", "edit_count = edit_count + 1"),
    ("seating", "UPDATE", "NEW", "edit_count = edit_count + 1"),
    ("seating", "DELETE", "OLD", "edit_count = edit_count + 1"),
    ("seat", "INSERT", "NEW", "edit_count = edit_count + 1"),
    ("seat", "UPDATE", "NEW", "edit_count = edit_count + 1"),
    ("seat", "DELETE", "OLD", "edit_count = edit_count + 1"),
]


def evening_of(table, row):
    """The SQL naming the evening of ``row`` (NEW or OLD) of ``table``."""
    if table == "seat":
        return SEAT_EVENING.format(row=row)
    return f"{row}.evening_id"


def name(table, operation):
    """The trigger's (and on PostgreSQL its function's) name."""
    return f"evening_counts_{table}_{operation.lower()}"


def upgrade():
    op.add_column(
        "evening", sa.Column("hand_count", sa.Integer(), nullable=False, server_default="0")
    )
    op.add_column(
        "evening", sa.Column("edit_count", sa.Integer(), nullable=False, server_default="0")
    )
    op.execute(
        "UPDATE evening SET hand_count ="
        " (SELECT count(*) FROM hand WHERE hand.evening_id = evening.id)"
    )
    postgres = op.get_bind().dialect.name == "postgresql"
    for table, operation, row, change in EFFECTS:
        update = f"UPDATE evening SET {change} WHERE id = {evening_of(table, row)};"
        trigger = name(table, operation)
        if postgres:
            op.execute(
                f"CREATE FUNCTION {trigger}() RETURNS trigger LANGUAGE plpgsql AS"
                f" $$ BEGIN {update} RETURN NULL; END $$"
            )
            op.execute(
                f"CREATE TRIGGER {trigger} AFTER {operation} ON {table}"
                f" FOR EACH ROW EXECUTE FUNCTION {trigger}()"
            )
        else:
            op.execute(
                f"CREATE TRIGGER {trigger} AFTER {operation} ON {table}"
                f" FOR EACH ROW BEGIN {update} END"
            )


def downgrade():
    postgres = op.get_bind().dialect.name == "postgresql"
    for table, operation, _row, _change in EFFECTS:
        trigger = name(table, operation)
        if postgres:
            op.execute(f"DROP TRIGGER {trigger} ON {table}")
            op.execute(f"DROP FUNCTION {trigger}()")
        else:
            op.execute(f"DROP TRIGGER {trigger}")
    with op.batch_alter_table("evening", schema=None) as batch_op:
        batch_op.drop_column("edit_count")
        batch_op.drop_column("hand_count")
