"""An index of seatings by evening

Every request that reads an evening counts or reads its seatings; without an index that
read went through every evening's seatings, and grew with every evening ever played.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade():
    op.create_index("ix_seating_evening", "seating", ["evening_id", "from_hand"], unique=False)


def downgrade():
    op.drop_index("ix_seating_evening", table_name="seating")
