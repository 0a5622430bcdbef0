"""Initial schema

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "evening",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("variant", sa.String(length=40), nullable=False),
        sa.Column("title", sa.String(length=200), nullable=False),
        sa.Column("place", sa.String(length=200), nullable=False),
        sa.Column("date", sa.Date(), nullable=True),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("version >= 1", name=op.f("ck_evening_version_positive")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evening")),
    )
    op.create_table(
        "idempotent_response",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=40), nullable=False),
        sa.Column("key", sa.String(length=200), nullable=False),
        sa.Column("status", sa.Integer(), nullable=False),
        sa.Column("body", sa.JSON(), nullable=False),
        sa.Column("location", sa.String(length=200), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_idempotent_response")),
        sa.UniqueConstraint("scope", "key", name=op.f("uq_idempotent_response_scope")),
    )
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("name_key", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player")),
        sa.UniqueConstraint("name_key", name=op.f("uq_player_name_key")),
    )
    op.create_table(
        "evening_revision",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["evening_id"], ["evening.id"], name=op.f("fk_evening_revision_evening_id_evening")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_evening_revision")),
        sa.UniqueConstraint("evening_id", "version", name=op.f("uq_evening_revision_evening_id")),
    )
    op.create_table(
        "hand",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("dealer_id", sa.Integer(), nullable=False),
        sa.Column("input", sa.JSON(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("void_reason", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("number >= 1", name=op.f("ck_hand_number_positive")),
        sa.CheckConstraint("version >= 1", name=op.f("ck_hand_version_positive")),
        sa.ForeignKeyConstraint(
            ["dealer_id"], ["player.id"], name=op.f("fk_hand_dealer_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["evening_id"], ["evening.id"], name=op.f("fk_hand_evening_id_evening")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand")),
        sa.UniqueConstraint("evening_id", "number", name=op.f("uq_hand_evening_id")),
    )
    op.create_table(
        "seating",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("from_hand", sa.Integer(), nullable=False),
        sa.Column("dealer_id", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("from_hand >= 1", name=op.f("ck_seating_from_hand_positive")),
        sa.ForeignKeyConstraint(
            ["dealer_id"], ["player.id"], name=op.f("fk_seating_dealer_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["evening_id"], ["evening.id"], name=op.f("fk_seating_evening_id_evening")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seating")),
    )
    op.create_table(
        "hand_revision",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("hand_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("input", sa.JSON(), nullable=False),
        sa.Column("void_reason", sa.Text(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("source", sa.String(length=40), nullable=False),
        sa.ForeignKeyConstraint(
            ["hand_id"], ["hand.id"], name=op.f("fk_hand_revision_hand_id_hand")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_hand_revision")),
        sa.UniqueConstraint("hand_id", "version", name=op.f("uq_hand_revision_hand_id")),
    )
    op.create_table(
        "seat",
        sa.Column("seating_id", sa.Integer(), nullable=False),
        sa.Column("position", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["player.id"], name=op.f("fk_seat_player_id_player")
        ),
        sa.ForeignKeyConstraint(
            ["seating_id"], ["seating.id"], name=op.f("fk_seat_seating_id_seating")
        ),
        sa.PrimaryKeyConstraint("seating_id", "position", name=op.f("pk_seat")),
        sa.UniqueConstraint("seating_id", "player_id", name=op.f("uq_seat_seating_id")),
    )


def downgrade():
    op.drop_table("seat")
    op.drop_table("hand_revision")
    op.drop_table("seating")
    op.drop_table("hand")
    op.drop_table("evening_revision")
    op.drop_table("player")
    op.drop_table("idempotent_response")
    op.drop_table("evening")
