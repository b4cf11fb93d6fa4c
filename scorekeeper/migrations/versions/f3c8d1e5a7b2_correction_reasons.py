"""A change's reason and who gave it: a director's correction at an event's table after its
round closed (events.md, Rounds)

Revision ID: f3c8d1e5a7b2
Revises: d7f2b9c4e1a0
Create Date: 2026-11-26 13:40:00

"""

import sqlalchemy as sa
from alembic import op

revision = "f3c8d1e5a7b2"
down_revision = "d7f2b9c4e1a0"
branch_labels = None
depends_on = None


def upgrade():
    # Nullable columns with no default: every existing change simply has none (SQLite adds
    # them in place, no table copy).
    with op.batch_alter_table("game_change", schema=None) as batch_op:
        batch_op.add_column(sa.Column("reason", sa.String(length=200), nullable=True))
        batch_op.add_column(sa.Column("given_by", sa.String(length=40), nullable=True))


def downgrade():
    with op.batch_alter_table("game_change", schema=None) as batch_op:
        batch_op.drop_column("given_by")
        batch_op.drop_column("reason")
