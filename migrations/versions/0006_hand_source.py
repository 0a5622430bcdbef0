"""Where a hand was recorded, on the hand's row

A hand as recorded is one row: its first version is stored as a revision only once the
hand is changed. The hand's row keeps where it was recorded for that revision.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-24
"""

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("hand", schema=None) as batch_op:
        batch_op.add_column(sa.Column("source", sa.String(length=40), nullable=True))


def downgrade():
    # The schema before kept every hand's first version as a revision: write those missing.
    op.execute(
        "INSERT INTO hand_revision (hand_id, version, input, void_reason, at, source, reason)"
        " SELECT id, 1, input, NULL, created_at, coalesce(source, ''), NULL FROM hand"
        " WHERE NOT EXISTS (SELECT 1 FROM hand_revision WHERE hand_revision.hand_id = hand.id)"
    )
    with op.batch_alter_table("hand", schema=None) as batch_op:
        batch_op.drop_column("source")
