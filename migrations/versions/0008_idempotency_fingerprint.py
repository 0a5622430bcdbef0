"""Request keys belong to their requester and remember the request they answered

A key already used with another request is refused instead of answered with the first
request's answer; another requester's key is another key (docs/recording.md).

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-25
"""

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("idempotent_response", schema=None) as batch_op:
        batch_op.add_column(
            sa.Column("requester", sa.String(length=64), nullable=False, server_default="")
        )
        batch_op.add_column(sa.Column("fingerprint", sa.String(length=64), nullable=True))
        batch_op.drop_constraint("uq_idempotent_response_scope", type_="unique")
        batch_op.create_unique_constraint(
            "uq_idempotent_response_scope", ["scope", "requester", "key"]
        )


def downgrade():
    # Keys of several requesters collapse into one: keep each key's first answer.
    op.execute(
        "DELETE FROM idempotent_response WHERE id NOT IN"
        " (SELECT min(id) FROM idempotent_response GROUP BY scope, key)"
    )
    with op.batch_alter_table("idempotent_response", schema=None) as batch_op:
        batch_op.drop_constraint("uq_idempotent_response_scope", type_="unique")
        batch_op.create_unique_constraint("uq_idempotent_response_scope", ["scope", "key"])
        batch_op.drop_column("fingerprint")
        batch_op.drop_column("requester")
