"""Game summaries for the lists: each game's public totals, leader, winners and deal count at a version

The lists (home, all games, players) read these rows instead of replaying every
game. The write gate keeps them in the change's transaction; existing games get
theirs from ``scorekeeper db rescore`` (until then a list replays them, as before).

Revision ID: 7c3e5a1f2b90
Revises: 7c3e91b0d4a2
Create Date: 2026-11-22 14:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "7c3e5a1f2b90"
down_revision = "7c3e91b0d4a2"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "game_summary",
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("deals", sa.Integer(), nullable=False),
        sa.Column("finished", sa.Boolean(), nullable=False),
        sa.Column("tiebreak", sa.Boolean(), nullable=False),
        sa.Column("planned", sa.Integer(), nullable=True),
        sa.Column("next_dealer", sa.Integer(), nullable=True),
        sa.Column("sides", sa.JSON(), nullable=False),
        sa.Column("totals", sa.JSON(), nullable=False),
        sa.Column("leaders", sa.JSON(), nullable=False),
        sa.Column("winners", sa.JSON(), nullable=False),
        sa.Column("last_activity", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("game_id"),
    )


def downgrade():
    op.drop_table("game_summary")
