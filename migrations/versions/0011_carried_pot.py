"""The pot an evening carries into a later one of its group

A table of its own beside the evening, so the evening's row and its triggers are
untouched (docs/troggen.md §8, docs/club.md).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "carried_pot",
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("from_evening_id", sa.Integer(), nullable=True),
        sa.Column("pot", sa.Integer(), nullable=False),
        sa.CheckConstraint("pot >= 0", name=op.f("ck_carried_pot_pot_not_negative")),
        sa.ForeignKeyConstraint(
            ["evening_id"], ["evening.id"], name=op.f("fk_carried_pot_evening_id_evening")
        ),
        sa.ForeignKeyConstraint(
            ["from_evening_id"],
            ["evening.id"],
            name=op.f("fk_carried_pot_from_evening_id_evening"),
        ),
        sa.PrimaryKeyConstraint("evening_id", name=op.f("pk_carried_pot")),
        sa.UniqueConstraint("from_evening_id", name=op.f("uq_carried_pot_from_evening_id")),
    )


def downgrade():
    op.drop_table("carried_pot")
