"""Table groups: a Stammtisch's evenings belong to it, its members are persons

Evenings stored before have no group and stay as they are; which group an evening
belongs to is a table of its own, so the evening's row and its triggers are untouched
(docs/club.md).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "table_group",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("name_key", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_table_group")),
        sa.UniqueConstraint("name_key", name=op.f("uq_table_group_name_key")),
    )
    op.create_table(
        "member",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"], ["table_group.id"], name=op.f("fk_member_group_id_table_group")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member")),
    )
    op.create_table(
        "member_name",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["group_id"], ["table_group.id"], name=op.f("fk_member_name_group_id_table_group")
        ),
        sa.ForeignKeyConstraint(
            ["member_id"], ["member.id"], name=op.f("fk_member_name_member_id_member")
        ),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_member_name_player_id_player")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_member_name")),
        sa.UniqueConstraint("group_id", "player_id", name=op.f("uq_member_name_group_id")),
    )
    op.create_table(
        "group_evening",
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("group_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["evening_id"], ["evening.id"], name=op.f("fk_group_evening_evening_id_evening")
        ),
        sa.ForeignKeyConstraint(
            ["group_id"], ["table_group.id"], name=op.f("fk_group_evening_group_id_table_group")
        ),
        sa.PrimaryKeyConstraint("evening_id", name=op.f("pk_group_evening")),
    )
    op.create_index(op.f("ix_group_evening_group_id"), "group_evening", ["group_id"])


def downgrade():
    op.drop_index(op.f("ix_group_evening_group_id"), table_name="group_evening")
    op.drop_table("group_evening")
    op.drop_table("member_name")
    op.drop_table("member")
    op.drop_table("table_group")
