"""Events: an evening of several tables (events.md): the event, its started rounds and tables

Revision ID: e7a1c3d5f920
Revises: b41d2f7a9c15
Create Date: 2026-11-25 05:10:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "e7a1c3d5f920"
down_revision = "b41d2f7a9c15"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "event",
        sa.Column("id", sa.String(length=32), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("format", sa.String(length=20), nullable=False),
        sa.Column("kind", sa.String(length=40), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("entrants", sa.JSON(), nullable=False),
        sa.Column("withdrawn", sa.JSON(), nullable=False),
        sa.Column("schedule", sa.JSON(), nullable=False),
        sa.Column("director_key_hash", sa.String(length=64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
    )
    op.create_table(
        "event_round",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("event_id", sa.String(length=32), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
        sa.Column("ends_at", sa.DateTime(), nullable=True),
        sa.Column("closed_at", sa.DateTime(), nullable=True),
        sa.Column("sitting_out", sa.JSON(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["event.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("event_id", "number"),
    )
    op.create_index("ix_event_round_event_id", "event_round", ["event_id"])
    op.create_table(
        "event_table",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("round_id", sa.Integer(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("confirmed_by", sa.String(length=40), nullable=True),
        sa.ForeignKeyConstraint(["round_id"], ["event_round.id"], ondelete="CASCADE"),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"]),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("round_id", "number"),
        sa.UniqueConstraint("game_id"),
    )
    op.create_index("ix_event_table_round_id", "event_table", ["round_id"])


def downgrade():
    op.drop_index("ix_event_table_round_id", table_name="event_table")
    op.drop_table("event_table")
    op.drop_index("ix_event_round_event_id", table_name="event_round")
    op.drop_table("event_round")
    op.drop_table("event")
