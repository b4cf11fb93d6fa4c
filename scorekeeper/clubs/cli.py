"""``scorekeeper clubs``: the operator's commands (clubs.md, Operator settings)."""

from __future__ import annotations

import sys

import click
from flask import Blueprint, current_app
from sqlalchemy import func, select

from ..db import db
from ..models import Club, Game, Member
from ..refusals import Refusal
from . import service

bp = Blueprint("clubs_cli", __name__, cli_group="clubs")


def club_or_fail(slug: str) -> Club:
    club = service.find_club(slug)
    if club is None:
        raise click.ClickException(f"No club {slug!r} (scorekeeper clubs list names them).")
    return club


def base_url(given: str | None) -> str:
    return (given or current_app.config.get("BASE_URL") or "http://127.0.0.1:8000").rstrip("/")


@bp.cli.command("list")
def list_command() -> None:
    """Every club: its slug, name, members and games."""
    members = dict(
        db.session.execute(select(Member.club_id, func.count(Member.id)).group_by(Member.club_id)).all()
    )
    games = dict(db.session.execute(select(Game.club_id, func.count(Game.id)).group_by(Game.club_id)).all())
    clubs = db.session.scalars(select(Club).order_by(Club.slug)).all()
    if not clubs:
        click.echo("No club yet: scorekeeper clubs create NAME")
    for club in clubs:
        click.echo(
            f"{club.slug}\t{club.name}\t{members.get(club.id, 0)} members\t{games.get(club.id, 0)} games"
        )


@bp.cli.command("create")
@click.argument("name")
@click.option("--url", default=None, help="The server's address for the invite link (default: BASE_URL).")
def create_command(name: str, url: str | None) -> None:
    """Make a club; prints an admin's invite link (the club has no member until someone joins)."""
    try:
        # The command line holds no device: the club starts with no member, and its first admin
        # joins by the link printed here.
        club = service.new_club(name)
    except Refusal as exc:
        raise click.ClickException(exc.message.render()) from None
    click.echo(f"Made {club.name} ({club.slug}). Its first admin joins with:")
    _print_invite(club, service.make_invite(club, "admin"), url)


@bp.cli.command("invite")
@click.argument("slug")
@click.option("--admin", is_flag=True, help="Whoever joins with it is an admin.")
@click.option("--expires", type=click.IntRange(1, 3650), default=None, help="Days until it stops working.")
@click.option("--url", default=None, help="The server's address for the link (default: BASE_URL).")
def invite_command(slug: str, admin: bool, expires: int | None, url: str | None) -> None:
    """Print an invite link to the club, and its QR code."""
    club = club_or_fail(slug)
    _print_invite(club, service.make_invite(club, "admin" if admin else "member", expires), url)


def _print_invite(club: Club, token: str, url: str | None) -> None:
    link = f"{base_url(url)}/c/{club.slug}/join/{token}"
    click.echo(link)
    import segno

    # Compact block characters, no colour codes: it scans from a terminal and reads in a file.
    segno.make(link, error="m").terminal(out=sys.stdout, compact=True)


@bp.cli.command("delete")
@click.argument("slug")
@click.option("--yes", is_flag=True, help="Do not ask.")
def delete_command(slug: str, yes: bool) -> None:
    """Delete a club with its games, events, players and members."""
    club = club_or_fail(slug)
    if not yes:
        click.confirm(f"Delete {club.name} and everything of it?", abort=True)
    gone = service.delete_club(club)
    click.echo(f"Deleted {slug}: {gone['games']} games, {gone['events']} events, {gone['players']} players.")
