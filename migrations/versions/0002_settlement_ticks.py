"""Settlement ticks

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "settlement_tick",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("payer", sa.String(length=80), nullable=False),
        sa.Column("payee", sa.String(length=80), nullable=False),
        sa.Column("amount", sa.Integer(), nullable=False),
        sa.Column("ticked_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("amount > 0", name=op.f("ck_settlement_tick_amount_positive")),
        sa.ForeignKeyConstraint(
            ["evening_id"], ["evening.id"], name=op.f("fk_settlement_tick_evening_id_evening")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_settlement_tick")),
        sa.UniqueConstraint(
            "evening_id", "payer", "payee", name=op.f("uq_settlement_tick_evening_id")
        ),
    )


def downgrade():
    op.drop_table("settlement_tick")
