"""Change history indexed by game and position, and by game and version

The write gate reads the highest position a game's history has used on every
append, and a worker that missed versions reads the changes since the one it
knows: with these indexes each is one index lookup, not a scan of the game's history.

Revision ID: b41d2f7a9c15
Revises: 7c3e5a1f2b90
Create Date: 2026-11-22 19:40:00

"""

from alembic import op

# revision identifiers, used by Alembic.
revision = "b41d2f7a9c15"
down_revision = "7c3e5a1f2b90"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("game_change", schema=None) as batch_op:
        batch_op.create_index("ix_game_change_game_position", ["game_id", "position"], unique=False)
        batch_op.create_index("ix_game_change_game_version", ["game_id", "version"], unique=False)


def downgrade():
    with op.batch_alter_table("game_change", schema=None) as batch_op:
        batch_op.drop_index("ix_game_change_game_version")
        batch_op.drop_index("ix_game_change_game_position")
