"""An invite's role holds a device link's member id: 'device:<id>' outgrew 10 characters at
member 1000 (PostgreSQL refused the link; SQLite never checks a length)

Revision ID: c9a1f4e2b7d3
Revises: b7e2c4a9d016
Create Date: 2026-11-29 10:15:00

"""

import sqlalchemy as sa
from alembic import op

revision = "c9a1f4e2b7d3"
down_revision = "b7e2c4a9d016"
branch_labels = None
depends_on = None


def upgrade():
    with op.batch_alter_table("invite") as batch:
        batch.alter_column("role", existing_type=sa.String(10), type_=sa.String(32), existing_nullable=False)


def downgrade():
    with op.batch_alter_table("invite") as batch:
        batch.alter_column("role", existing_type=sa.String(32), type_=sa.String(10), existing_nullable=False)
