"""archived games

A game can be archived: it leaves the home page and the ratings without
being deleted, and stays listed under /games. Every stored game starts
unarchived.

Revision ID: 7c3e5a1f2d64
Revises: 5d1c0a7e9b21
Create Date: 2026-11-22 14:20:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "7c3e5a1f2d64"
down_revision = "5d1c0a7e9b21"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.add_column(sa.Column("archived", sa.Boolean(), nullable=False, server_default=sa.false()))
        batch_op.create_index(batch_op.f("ix_game_archived"), ["archived"], unique=False)


def downgrade():
    with op.batch_alter_table("game", schema=None) as batch_op:
        batch_op.drop_index(batch_op.f("ix_game_archived"))
        batch_op.drop_column("archived")
