"""Tournaments: set-up, entrants, rounds, tables, their log; login attempts; correction reasons

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-22
"""

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "login_attempt",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("scope", sa.String(length=60), nullable=False),
        sa.Column("remote", sa.String(length=60), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_login_attempt")),
    )
    with op.batch_alter_table("login_attempt", schema=None) as batch_op:
        batch_op.create_index("ix_login_attempt_scope_at", ["scope", "at"], unique=False)

    op.create_table(
        "tournament",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=200), nullable=False),
        sa.Column("place", sa.String(length=200), nullable=False),
        sa.Column("date", sa.Date(), nullable=True),
        sa.Column("game", sa.String(length=40), nullable=False),
        sa.Column("variant", sa.String(length=40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("rounds", sa.Integer(), nullable=False),
        sa.Column("deals_per_player", sa.Integer(), nullable=False),
        sa.Column("scoring", sa.String(length=10), nullable=False),
        sa.Column("language", sa.String(length=5), nullable=False),
        sa.Column("password_hash", sa.String(length=200), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("frozen_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("deals_per_player >= 1", name=op.f("ck_tournament_deals_positive")),
        sa.CheckConstraint("rounds >= 1", name=op.f("ck_tournament_rounds_positive")),
        sa.CheckConstraint("version >= 1", name=op.f("ck_tournament_version_positive")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament")),
    )
    op.create_table(
        "entrant",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("club", sa.String(length=200), nullable=False),
        sa.Column("present", sa.Boolean(), nullable=False),
        sa.Column("joins_round", sa.Integer(), nullable=False),
        sa.Column("left_after", sa.Integer(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("joins_round >= 1", name=op.f("ck_entrant_joins_round_positive")),
        sa.CheckConstraint("number >= 1", name=op.f("ck_entrant_number_positive")),
        sa.ForeignKeyConstraint(
            ["tournament_id"], ["tournament.id"], name=op.f("fk_entrant_tournament_id_tournament")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_entrant")),
        sa.UniqueConstraint("tournament_id", "number", name=op.f("uq_entrant_tournament_id")),
    )
    op.create_table(
        "tournament_event",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=True),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_tournament_event_tournament_id_tournament"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_event")),
    )
    with op.batch_alter_table("tournament_event", schema=None) as batch_op:
        batch_op.create_index("ix_tournament_event_tournament", ["tournament_id"], unique=False)

    op.create_table(
        "tournament_round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("tournament_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("draw", sa.JSON(), nullable=False),
        sa.Column("repeated_pairs", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("closed_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("number >= 1", name=op.f("ck_tournament_round_number_positive")),
        sa.ForeignKeyConstraint(
            ["tournament_id"],
            ["tournament.id"],
            name=op.f("fk_tournament_round_tournament_id_tournament"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_round")),
        sa.UniqueConstraint(
            "tournament_id", "number", name=op.f("uq_tournament_round_tournament_id")
        ),
    )
    op.create_table(
        "tournament_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(length=12), nullable=False),
        sa.Column("evening_id", sa.Integer(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(
            ["evening_id"], ["evening.id"], name=op.f("fk_tournament_table_evening_id_evening")
        ),
        sa.ForeignKeyConstraint(
            ["round_id"],
            ["tournament_round.id"],
            name=op.f("fk_tournament_table_round_id_tournament_round"),
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tournament_table")),
        sa.UniqueConstraint("code", name=op.f("uq_tournament_table_code")),
        sa.UniqueConstraint("evening_id", name=op.f("uq_tournament_table_evening_id")),
        sa.UniqueConstraint("round_id", "number", name=op.f("uq_tournament_table_round_id")),
    )
    with op.batch_alter_table("hand_revision", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reason", sa.Text(), nullable=True))
    with op.batch_alter_table("evening", schema=None) as batch_op:
        batch_op.add_column(sa.Column("hands_due", sa.Integer(), nullable=True))


def downgrade():
    with op.batch_alter_table("evening", schema=None) as batch_op:
        batch_op.drop_column("hands_due")
    with op.batch_alter_table("hand_revision", schema=None) as batch_op:
        batch_op.drop_column("reason")

    op.drop_table("tournament_table")
    op.drop_table("tournament_round")
    with op.batch_alter_table("tournament_event", schema=None) as batch_op:
        batch_op.drop_index("ix_tournament_event_tournament")

    op.drop_table("tournament_event")
    op.drop_table("entrant")
    op.drop_table("tournament")
    with op.batch_alter_table("login_attempt", schema=None) as batch_op:
        batch_op.drop_index("ix_login_attempt_scope_at")

    op.drop_table("login_attempt")
