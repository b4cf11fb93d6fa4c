"""Pending seat entries: orders and allotments sent from the seats before a turn resolves

Revision ID: c5e8a1d3f027
Revises: e7a1c3d5f920
Create Date: 2026-11-25 06:10:00

"""

import sqlalchemy as sa
from alembic import op

revision = "c5e8a1d3f027"
down_revision = "e7a1c3d5f920"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "pending_entry",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("turn", sa.Integer(), nullable=False),
        sa.Column("facts", sa.JSON(), nullable=False),
        sa.Column("sent_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("game_id", "seat", "kind", "turn", name="uq_pending_entry"),
    )
    with op.batch_alter_table("pending_entry", schema=None) as batch_op:
        batch_op.create_index("ix_pending_entry_game_id", ["game_id"], unique=False)


def downgrade():
    with op.batch_alter_table("pending_entry", schema=None) as batch_op:
        batch_op.drop_index("ix_pending_entry_game_id")
    op.drop_table("pending_entry")
