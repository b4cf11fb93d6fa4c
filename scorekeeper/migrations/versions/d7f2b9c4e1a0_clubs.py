"""Clubs: many groups on one server, each apart (clubs.md)

Every existing game, player (with its private mark) and event goes into one club,
``DEFAULT_CLUB`` ("Home" unless configured), so an upgraded install loses and renames
nothing: its ratings, derived from its games, are that club's. A new install gets no club
until someone makes one.

Revision ID: d7f2b9c4e1a0
Revises: c5e8a1d3f027
Create Date: 2026-11-25 11:10:00

"""

import re
import unicodedata

import sqlalchemy as sa
from alembic import op

revision = "d7f2b9c4e1a0"
down_revision = "c5e8a1d3f027"
branch_labels = None
depends_on = None


def default_club_name() -> str:
    try:
        from flask import current_app

        return str(current_app.config.get("DEFAULT_CLUB") or "Home")[:80]
    except RuntimeError:  # alembic run without the app
        return "Home"


def slug_of(name: str) -> str:
    # The same as scorekeeper.clubs.service.slugify, frozen here as a migration must be.
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:40] or "club"


def upgrade():
    op.create_table(
        "club",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("slug", sa.String(length=40), nullable=False),
        sa.Column("name", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("slug"),
    )
    op.create_table(
        "member",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("role", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["club.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("club_id", "name", name="uq_member_club_name"),
    )
    op.create_index("ix_member_club_id", "member", ["club_id"])
    op.create_table(
        "member_key",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("member_id", sa.Integer(), nullable=False),
        sa.Column("key_hash", sa.String(length=64), nullable=False),
        sa.Column("label", sa.String(length=80), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("used_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["member_id"], ["member.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("key_hash"),
    )
    op.create_index("ix_member_key_member_id", "member_key", ["member_id"])
    op.create_table(
        "invite",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("token_hash", sa.String(length=64), nullable=False),
        sa.Column("role", sa.String(length=10), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("expires_at", sa.DateTime(), nullable=True),
        sa.Column("revoked_at", sa.DateTime(), nullable=True),
        sa.ForeignKeyConstraint(["club_id"], ["club.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("token_hash"),
    )
    op.create_index("ix_invite_club", "invite", ["club_id"])
    op.create_table(
        "device_game",
        sa.Column("device_hash", sa.String(length=64), nullable=False),
        sa.Column("game_id", sa.String(length=32), nullable=False),
        sa.Column("seen_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["game_id"], ["game.id"], ondelete="CASCADE"),
        sa.PrimaryKeyConstraint("device_hash", "game_id"),
    )
    op.create_index("ix_device_game_game_id", "device_game", ["game_id"])

    with op.batch_alter_table("game") as batch:
        batch.add_column(sa.Column("club_id", sa.Integer(), nullable=True))
        batch.create_index("ix_game_club_id", ["club_id"])
        batch.create_foreign_key("fk_game_club", "club", ["club_id"], ["id"], ondelete="CASCADE")
    with op.batch_alter_table("event") as batch:
        batch.add_column(sa.Column("club_id", sa.Integer(), nullable=True))
        batch.create_index("ix_event_club_id", ["club_id"])
        batch.create_foreign_key("fk_event_club", "club", ["club_id"], ["id"], ondelete="CASCADE")

    conn = op.get_bind()
    has_data = any(
        conn.execute(sa.text(f"SELECT 1 FROM {table} LIMIT 1")).first() is not None
        for table in ("game", "player", "event")
    )
    home = None
    if has_data:
        name = default_club_name()
        conn.execute(
            sa.text("INSERT INTO club (slug, name, created_at) VALUES (:slug, :name, CURRENT_TIMESTAMP)"),
            {"slug": slug_of(name), "name": name},
        )
        home = conn.execute(sa.text("SELECT id FROM club WHERE slug = :slug"), {"slug": slug_of(name)}).scalar()
        conn.execute(sa.text("UPDATE game SET club_id = :c"), {"c": home})
        conn.execute(sa.text("UPDATE event SET club_id = :c"), {"c": home})

    # A player is a club's now: the one-name-per-server rule becomes one name per club. A new
    # table, copied over: the old UNIQUE(name) is anonymous in SQLite and cannot be dropped alone.
    op.create_table(
        "player_new",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("club_id", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(length=40), nullable=False),
        sa.Column("private", sa.Boolean(), nullable=False, server_default=sa.false()),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.ForeignKeyConstraint(["club_id"], ["club.id"], ondelete="CASCADE", name="fk_player_club"),
        sa.PrimaryKeyConstraint("id"),
        sa.UniqueConstraint("club_id", "name", name="uq_player_club_name"),
    )
    if home is not None:
        conn.execute(
            sa.text(
                "INSERT INTO player_new (id, club_id, name, private, created_at)"
                " SELECT id, :c, name, private, created_at FROM player"
            ),
            {"c": home},
        )
    op.drop_table("player")
    op.rename_table("player_new", "player")
    op.create_index("ix_player_club_id", "player", ["club_id"])
    if conn.dialect.name == "postgresql":
        # The copied ids keep counting where the old table left off.
        conn.execute(
            sa.text(
                "SELECT setval(pg_get_serial_sequence('player', 'id'),"
                " COALESCE((SELECT MAX(id) FROM player), 0) + 1, false)"
            )
        )


def downgrade():
    op.drop_index("ix_player_club_id", "player")
    with op.batch_alter_table("player", recreate="always") as batch:
        batch.drop_constraint("uq_player_club_name", type_="unique")
        batch.drop_constraint("fk_player_club", type_="foreignkey")
        batch.drop_column("club_id")
        batch.create_unique_constraint("uq_player_name", ["name"])
    with op.batch_alter_table("event") as batch:
        batch.drop_constraint("fk_event_club", type_="foreignkey")
        batch.drop_index("ix_event_club_id")
        batch.drop_column("club_id")
    with op.batch_alter_table("game") as batch:
        batch.drop_constraint("fk_game_club", type_="foreignkey")
        batch.drop_index("ix_game_club_id")
        batch.drop_column("club_id")
    for table in ("device_game", "invite", "member_key", "member", "club"):
        op.drop_table(table)
