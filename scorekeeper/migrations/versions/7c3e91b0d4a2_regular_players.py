"""Regular players: the club's list of names, and who is private

Revision ID: 7c3e91b0d4a2
Revises: 7c3e5a1f2d64
Create Date: 2026-11-22 14:30:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "7c3e91b0d4a2"
down_revision = "7c3e5a1f2d64"
branch_labels = None
depends_on = None


def upgrade():
    op.create_table(
        "player",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("name"),
    )


def downgrade():
    op.drop_table("player")
