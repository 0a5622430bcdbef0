"""Closing evenings and their language

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("evening", schema=None) as batch_op:
        # Evenings started before printouts existed print in German, the default.
        batch_op.add_column(
            sa.Column("language", sa.String(length=5), nullable=False, server_default="de")
        )
        batch_op.add_column(sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True))


def downgrade():
    with op.batch_alter_table("evening", schema=None) as batch_op:
        batch_op.drop_column("closed_at")
        batch_op.drop_column("language")
