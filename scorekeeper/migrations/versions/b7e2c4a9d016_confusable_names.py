"""Members' folded names fold look-alike letters too (Unicode's confusable skeleton, issue 57 P15)

Revision ID: b7e2c4a9d016
Revises: a8d4e6f1c203
Create Date: 2026-11-29 08:00:00

"""

import unicodedata

import sqlalchemy as sa
from alembic import op

from scorekeeper.confusables import skeleton

revision = "b7e2c4a9d016"
down_revision = "a8d4e6f1c203"
branch_labels = None
depends_on = None


def fold(name: str) -> str:
    # models.folded, copied: a migration keeps the rule of its day.
    cased = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return unicodedata.normalize("NFKC", skeleton(cased).casefold())[:200]


def old_fold(name: str) -> str:
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def refold(rule) -> None:
    conn = op.get_bind()
    member = sa.table(
        "member",
        sa.column("id", sa.Integer),
        sa.column("club_id", sa.Integer),
        sa.column("name", sa.String),
        sa.column("folded", sa.String),
    )
    rows = list(conn.execute(sa.select(member.c.id, member.c.club_id, member.c.name).order_by(member.c.id)))
    # Every row moved aside first, so no new value meets an old one under the unique constraint.
    for row in rows:
        conn.execute(member.update().where(member.c.id == row.id).values(folded=f"#{row.id}"))
    seen: set[tuple[int, str]] = set()
    for row in rows:
        value = rule(row.name)
        if (row.club_id, value) in seen:
            # Two members who look the same (Own and Оwn) both stay, the later one's folded name
            # marked with its id so the constraint holds; a new look-alike still meets the first.
            value = f"{value[:190]}#{row.id}"
        seen.add((row.club_id, value))
        conn.execute(member.update().where(member.c.id == row.id).values(folded=value))


def upgrade():
    refold(fold)


def downgrade():
    refold(old_fold)
