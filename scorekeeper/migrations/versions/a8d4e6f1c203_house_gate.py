"""The house gate: a club's version, members' folded names unique per club, a creation's
token unique in the database, and the history of clubs' and events' changes (issue 38)

Revision ID: a8d4e6f1c203
Revises: f3c8d1e5a7b2
Create Date: 2026-11-27 10:10:00

"""

import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "a8d4e6f1c203"
down_revision = "f3c8d1e5a7b2"
branch_labels = None
depends_on = None


def fold(name: str) -> str:
    # models.folded, copied: a migration keeps the rule of its day.
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def upgrade():
    with op.batch_alter_table("club", schema=None) as batch_op:
        batch_op.add_column(sa.Column("version", sa.Integer(), nullable=False, server_default="1"))

    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.add_column(sa.Column("folded", sa.String(length=200), nullable=True))
    conn = op.get_bind()
    member = sa.table(
        "member", sa.column("id", sa.Integer), sa.column("club_id", sa.Integer), sa.column("name", sa.String)
    )
    seen: set[tuple[int, str]] = set()
    for row in conn.execute(sa.select(member.c.id, member.c.club_id, member.c.name).order_by(member.c.id)):
        value = fold(row.name)
        if (row.club_id, value) in seen:
            # Two members the old checks let in (Zoe and zoe): both stay, the later one's folded
            # name marked with its id so the constraint holds; a new Zoe still meets the first.
            value = f"{value}#{row.id}"
        seen.add((row.club_id, value))
        conn.execute(member.update().where(member.c.id == row.id).values(folded=value))
    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.alter_column("folded", existing_type=sa.String(length=200), nullable=False)
        batch_op.create_unique_constraint("uq_member_club_folded", ["club_id", "folded"])

    # A creation's token, unique among creations: the copies the old check let through (four
    # games of one form) keep their games, only the first keeps the token.
    conn.execute(
        sa.text(
            "UPDATE game_change SET token = NULL WHERE kind = 'create' AND token IS NOT NULL "
            "AND id NOT IN (SELECT min(id) FROM game_change WHERE kind = 'create' "
            "AND token IS NOT NULL GROUP BY token)"
        )
    )
    op.create_index(
        "uq_game_change_create_token",
        "game_change",
        ["token"],
        unique=True,
        sqlite_where=sa.text("kind = 'create'"),
        postgresql_where=sa.text("kind = 'create'"),
    )

    op.create_table(
        "house_change",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=True),
        sa.Column("event_id", sa.String(length=32), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=30), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=True),
        sa.Column("token", sa.String(length=64), nullable=True),
        sa.Column("by", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token"),
    )
    op.create_index("ix_house_change_club", "house_change", ["club_id"])
    op.create_index("ix_house_change_event", "house_change", ["event_id"])


def downgrade():
    op.drop_index("ix_house_change_event", table_name="house_change")
    op.drop_index("ix_house_change_club", table_name="house_change")
    op.drop_table("house_change")
    op.drop_index("uq_game_change_create_token", table_name="game_change")
    with op.batch_alter_table("member", schema=None) as batch_op:
        batch_op.drop_constraint("uq_member_club_folded", type_="unique")
        batch_op.drop_column("folded")
    with op.batch_alter_table("club", schema=None) as batch_op:
        batch_op.drop_column("version")
