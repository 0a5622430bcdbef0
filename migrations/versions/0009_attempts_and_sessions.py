"""Wrong tries stay counted for the whole installation; sessions ended by a logout

A right try from an address clears that address's wrong ones only for the address's own
limit (``cleared``); the installation's count of wrong tries keeps them. A logout stores
the session's id until its grants would have expired anyway (docs/hall-safety.md).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-26
"""

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("login_attempt", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("cleared", sa.Boolean(), nullable=False, server_default=sa.false())
        )
    op.create_table(
        "revoked_session",
        sa.Column("session_id", sa.String(length=32), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("session_id", name=op.f("pk_revoked_session")),
    )


def downgrade():
    op.drop_table("revoked_session")
    # The schema before forgot an address's wrong tries after a right one: so do they now.
    op.execute("DELETE FROM login_attempt WHERE cleared")
    with op.batch_alter_table("login_attempt", schema=None) as batch_op:
        batch_op.drop_column("cleared")
