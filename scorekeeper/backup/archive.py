"""``scorekeeper export`` and ``scorekeeper import``: backups written and restored.

``export --all`` and ``export --club SLUG`` write the whole server (or one club) in format
``scorekeeper-backup/2``, table by table (:mod:`scorekeeper.backup.snapshot`, docs/backup.md).

``export ID...`` writes the games named in the older game-records format, which is also what
``export --all`` wrote before clubs and events were kept, and still restores::

    {"format": "scorekeeper-backup/1", "exported_at": "...", "games": [record, ...]}

Each record is the game record of ``shared/spec/game-record.md`` (facts plus
derived fields) with what a restore needs to give the game back as it was:
``edit_key_hash`` (the SHA-256 of the edit key: the key itself is never
stored, so never exported; the scorer's cookie and scoring link keep
working after a restore), ``created_at``, ``updated_at``, ``version`` and
``draft`` (a deal half entered). A restore checks every record through the
rules before it writes anything, recomputes every score, keeps each game's
id, and skips games whose id is already there.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import IO, Any

import click
from flask import Flask, current_app
from flask.cli import with_appcontext
from sqlalchemy import select

from .. import read, rules, service
from ..clubs.service import find_club
from ..db import db
from ..games import GAMES
from ..i18n import counted
from ..models import Club, Deal, Game, Player, Seat
from ..rules import Game as Rules
from ..rules import InvalidFacts, Setup
from . import snapshot
from .jsonstream import CHUNK
from .restore_checks import check_draft, first_problem
from .snapshot import BackupError

BACKUP_FORMAT = "scorekeeper-backup/1"
KEY_HASH = re.compile(r"[0-9a-f]{64}")
# The database's version column is a 32-bit integer.
MAX_VERSION = 2**31 - 1
ID = re.compile(r"[A-Za-z0-9_-]{1,32}")


def backup_record(game: Game) -> dict[str, Any]:
    """A game's full record for a backup: the export plus its key hash, dates, version and draft."""
    record = read.export_record(game)
    # A backup restores the facts exactly, so it carries the stored options even
    # where a public record would withhold one (Hidden Secrets' values).
    record["options"] = dict(game.options)
    record.update(
        edit_key_hash=game.edit_key_hash,
        created_at=game.created_at.isoformat(),
        updated_at=game.updated_at.isoformat(),
        version=game.version,
        draft=game.draft,
    )
    if hasattr(game, "deleted_at"):  # a game its scorer deleted stays deleted after a restore
        record["deleted_at"] = game.deleted_at.isoformat() if game.deleted_at else None
    record["archived"] = bool(game.archived)  # an archived game stays off the home page after a restore
    return record


def dump(games: Iterable[Game], club: Club | None = None) -> dict[str, Any]:
    games = list(games)
    out: dict[str, Any] = {
        "format": BACKUP_FORMAT,
        "exported_at": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "games": [backup_record(game) for game in games],
        "players": players_of(games, club),
    }
    if club is not None:
        # One club's backup says whose it is: a restore puts it back into that club.
        out["club"] = {"slug": club.slug, "name": club.name}
    return out


def players_of(games: Sequence[Game], club: Club | None = None) -> list[dict[str, Any]]:
    """The club's players rows for the names in ``games``: a restore keeps who is private."""
    names = {name for game in games for name in game.players}
    query = select(Player).order_by(Player.name)
    if club is not None:
        query = query.where(Player.club_id == club.id)
    rows = db.session.scalars(query).all()
    seen: set[str] = set()
    out = []
    for p in rows:
        if p.name in names and p.name not in seen:
            seen.add(p.name)
            out.append({"name": p.name, "private": p.private})
    return out


def restore_players(entries: Any, club: Club | None) -> int:
    """Add the backup's players rows that are not in the club yet (a name already listed keeps its
    row). Without a club there is no players list to restore into."""
    if not isinstance(entries, list) or club is None:
        return 0
    present = set(db.session.scalars(select(Player.name).where(Player.club_id == club.id)))
    added = 0
    for entry in entries:
        if not isinstance(entry, Mapping):
            continue
        name, private = entry.get("name"), entry.get("private")
        if (
            isinstance(name, str)
            and 0 < len(name) <= 40
            and isinstance(private, bool)
            and name not in present
        ):
            db.session.add(Player(club_id=club.id, name=name, private=private))
            present.add(name)
            added += 1
    db.session.commit()
    return added


def all_games() -> list[Game]:
    """Every game with its seats and deals, oldest first (three queries)."""
    return list(db.session.scalars(select(Game).order_by(Game.created_at, Game.id)))


@dataclass(frozen=True)
class Restore:
    """One checked game of a backup, ready to write."""

    rules: Rules
    setup: Setup
    deals: list[dict[str, Any]]
    game_id: str
    edit_key_hash: str
    created_at: datetime
    updated_at: datetime
    version: int
    draft: dict[str, Any] | None
    totals_changed: bool
    deleted_at: datetime | None = None
    archived: bool = False


def is_backup(data: Any) -> bool:
    return isinstance(data, Mapping) and (data.get("format") == BACKUP_FORMAT or "games" in data)


def kind_of(record: Any) -> Rules | None:
    """The registered game a record names, if it names one."""
    name = record.get("game") if isinstance(record, Mapping) else None
    return GAMES.get(name) if isinstance(name, str) else None


def parse_time(value: Any, what: str) -> datetime:
    if not isinstance(value, str):
        raise ValueError(f"{what} must be an ISO date and time")
    stamp = datetime.fromisoformat(value)
    if stamp.tzinfo is not None:
        stamp = stamp.astimezone(UTC).replace(tzinfo=None)
    return stamp


def check_backup(data: Any) -> list[Restore]:
    """Every game of a backup checked through the rules; :class:`BackupError` names the first problem."""
    if not is_backup(data):
        raise BackupError(f"not a backup: the format must be “{BACKUP_FORMAT}” with a list of games")
    if data.get("format") != BACKUP_FORMAT:
        raise BackupError(f"only “{BACKUP_FORMAT}” backups can be restored")
    games = data.get("games")
    if not isinstance(games, list):
        raise BackupError("“games” must be a list of game records")
    checked: list[Restore] = []
    seen: set[str] = set()
    for i, record in enumerate(games):
        label = f"game {i + 1}"
        if isinstance(record, Mapping) and isinstance(record.get("id"), str):
            label += f" (id {record['id']})"
        try:
            checked.append(check_one(record, seen))
        except InvalidFacts as exc:
            raise BackupError(f"{label}: {first_problem(exc.errors, kind_of(record))}") from None
        except ValueError as exc:
            raise BackupError(f"{label}: {exc}") from None
    return checked


def parse_with_upgrades(record: Mapping[str, Any]) -> tuple[Rules, Setup, list[dict[str, Any]]]:
    """The record through the rules, upgraded as the database's migrations upgrade stored games.

    A Secrets game saved before every free spy had to be sent carries no
    ``spies_may_stay``; if it left a spy at home, it comes back with the option
    on (as revision 5d1c0a7e9b21 does for stored games), so nothing is lost.
    """
    try:
        return service.parse_record(record, waiting_ok=True)
    except InvalidFacts:
        options = record.get("options")
        if record.get("game") != "secrets" or not isinstance(options, Mapping) or "spies_may_stay" in options:
            raise
        try:
            return service.parse_record(
                {**record, "options": {**options, "spies_may_stay": True}}, waiting_ok=True
            )
        except InvalidFacts:
            pass
        raise


def check_totals(totals: Any, n: int, result: rules.GameResult) -> bool:
    """Whether the file's totals differ from the rules'; only totals the file gives can differ.

    A Hidden Secrets game still being played has public totals in its record:
    a total that would reveal a hidden value is null, and cannot be compared.
    """
    if totals is None:
        return False
    if not isinstance(totals, list) or len(totals) != n or not all(t is None or is_int(t) for t in totals):
        raise ValueError(f"“totals” must be a list of {n} whole numbers (null where hidden)")
    return any(t is not None and t != r for t, r in zip(totals, result.totals, strict=True))


def totals_differ(totals: Any, result: rules.GameResult) -> bool:
    """Whether a record's totals, where it gives them, differ from the rules' (any shape tolerated)."""
    try:
        return check_totals(totals, result.setup.n, result)
    except ValueError:
        return totals is not None


def is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def check_one(record: Mapping[str, Any], seen: set[str]) -> Restore:
    game_rules, setup, deals = parse_with_upgrades(record)
    game_id = record.get("id")
    if not isinstance(game_id, str) or not ID.fullmatch(game_id):
        raise ValueError("“id” must be the game's id (letters, digits, - and _; at most 32)")
    if game_id in seen:
        raise ValueError("this id appears twice in the backup")
    seen.add(game_id)
    key_hash = record.get("edit_key_hash")
    if not isinstance(key_hash, str) or not KEY_HASH.fullmatch(key_hash):
        raise ValueError("“edit_key_hash” must be the 64 hex digits of the edit key's SHA-256")
    created = parse_time(record.get("created_at"), "“created_at”")
    updated = parse_time(record.get("updated_at", record.get("created_at")), "“updated_at”")
    version = record.get("version", 1)
    if not is_int(version) or not 1 <= version <= MAX_VERSION:
        raise ValueError(f"“version” must be a whole number from 1 to {MAX_VERSION}")
    deleted = record.get("deleted_at")
    deleted = parse_time(deleted, "“deleted_at”") if deleted is not None else None
    archived = record.get("archived", False)
    if not isinstance(archived, bool):
        raise ValueError("“archived” must be true or false")
    result = rules.play(game_rules, setup, deals)
    draft = record.get("draft")
    check_draft(game_rules, result, draft)
    changed = check_totals(record.get("totals"), setup.n, result)
    return Restore(
        game_rules,
        setup,
        deals,
        game_id,
        key_hash,
        created,
        updated,
        version,
        draft,
        changed,
        deleted,
        archived,
    )


def existing_ids(ids: Sequence[str]) -> set[str]:
    found: set[str] = set()
    for start in range(0, len(ids), 500):
        chunk = ids[start : start + 500]
        found.update(db.session.scalars(select(Game.id).where(Game.id.in_(chunk))))
    return found


def restore(games: Sequence[Restore], club: Club | None = None) -> tuple[list[Restore], list[Restore]]:
    """Write the checked games in one transaction, into ``club`` (None: personal games); return
    (restored, skipped because the id exists)."""
    present = existing_ids([g.game_id for g in games])
    todo = [g for g in games if g.game_id not in present]
    for g in todo:
        game = Game(
            id=g.game_id,
            kind=g.rules.key,
            options=dict(g.setup.options),
            first_dealer=g.setup.first_dealer,
            edit_key_hash=g.edit_key_hash,
            version=g.version,
            draft=g.draft,
            created_at=g.created_at,
            updated_at=g.updated_at,
            seats=[Seat(position=i, name=name) for i, name in enumerate(g.setup.players)],
            deals=[Deal(position=k, facts=dict(facts)) for k, facts in enumerate(g.deals)],
        )
        if g.deleted_at is not None and hasattr(game, "deleted_at"):
            game.deleted_at = g.deleted_at
        game.archived = g.archived
        game.club_id = club.id if club is not None else None
        db.session.add(game)
    try:
        db.session.commit()
    except Exception:
        db.session.rollback()
        raise
    return todo, [g for g in games if g.game_id in present]


# -- the commands --------------------------------------------------------------


@click.command("export")
@click.option("--all", "everything", is_flag=True, help="The whole server: every club, event and game.")
@click.option("--club", "club_slug", default=None, help="One club: its members, events, games and players.")
@click.option(
    "-o",
    "--output",
    type=click.File("w", encoding="utf-8"),
    default="-",
    help="Write here (default: stdout).",
)
@click.argument("ids", nargs=-1)
@with_appcontext
def export_command(everything: bool, club_slug: str | None, output, ids: tuple[str, ...]) -> None:
    """Write a backup (JSON) of the whole server (--all), of one club (--club SLUG), or the game
    records of the games named by id (the older game-records format, for moving single games)."""
    if sum((everything, bool(ids), club_slug is not None)) != 1:
        raise click.UsageError("Give --all, --club SLUG or one or more game ids (one of them).")
    if output.name != "<stdout>":
        # A backup holds every game and key hash: its owner's only, from before its first byte
        # (click opens the file only when it is first written).
        with contextlib.suppress(OSError):
            os.close(os.open(output.name, os.O_CREAT | os.O_WRONLY, 0o600))
            os.chmod(output.name, 0o600)
    if not ids:
        club = None
        if club_slug is not None:
            club = find_club(club_slug)
            if club is None:
                raise click.ClickException(f"No club {club_slug!r} (scorekeeper clubs list names them).")
        counts = snapshot.write(output, club)
        if output.name != "<stdout>":
            click.echo(f"Exported {describe(counts)} to {output.name}.", err=True)
        return
    games = list(db.session.scalars(select(Game).where(Game.id.in_(ids)).order_by(Game.created_at)))
    missing = set(ids) - {g.id for g in games}
    if missing:
        raise click.ClickException(f"No game with id {', '.join(sorted(missing))}.")
    unknown = [g.id for g in games if GAMES.get(g.kind) is None]
    if unknown:
        click.echo(
            counted(
                "Left out %(num)s game of a kind no rules score: %(ids)s.",
                "Left out %(num)s games of a kind no rules score: %(ids)s.",
                len(unknown),
                ids=", ".join(unknown),
            ),
            err=True,
        )
        games = [g for g in games if GAMES.get(g.kind) is not None]
    clubs_named = {g.club_id for g in games}
    club = None
    if len(clubs_named) == 1 and None not in clubs_named:
        # Games of one club: the backup says whose, so a restore puts them back there.
        club = db.session.get(Club, clubs_named.pop())
    json.dump(dump(games, club), output, ensure_ascii=False, indent=1)
    output.write("\n")
    if output.name != "<stdout>":
        click.echo(
            counted(
                "Exported %(num)s game to %(file)s.",
                "Exported %(num)s games to %(file)s.",
                len(games),
                file=output.name,
            ),
            err=True,
        )


def describe(counts: Mapping[str, int]) -> str:
    """Rows per table in words: "1 club, 3 member, 40 game, ..." (the tables' own names)."""
    return ", ".join(f"{n} {name}" for name, n in counts.items() if n) or "nothing"


@click.command("import")
@click.argument("file", type=click.File("rb"))
@click.option("--dry-run", is_flag=True, help="Check the file and report; write nothing.")
@click.option(
    "--club",
    "club_slug",
    default=None,
    help="Restore into this club (default: the club the backup names, if it is here; else DEFAULT_CLUB's).",
)
@with_appcontext
def import_command(file, dry_run: bool, club_slug: str | None) -> None:
    """Restore a backup (everything keeps its id; credentials their hashes), or import one game
    record as a new game."""
    text = io.TextIOWrapper(file, encoding="utf-8-sig")
    try:
        start = text.read(CHUNK)
        if snapshot.is_snapshot(start):
            if club_slug is not None:
                raise click.UsageError(
                    "--club is for a backup of games: this one restores its clubs as they were."
                )
            import_snapshot(text, start, dry_run)
            return
        data = json.loads(start + text.read())
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise click.ClickException(f"{file.name} is not a JSON file: {exc}") from None
    except RecursionError:
        raise click.ClickException(
            f"{file.name} is nested too deeply to be a backup or a game record."
        ) from None
    if isinstance(data, Mapping) and "tables" in data:
        raise click.ClickException(f"Nothing restored: “format” must come first, as “{snapshot.FORMAT}”.")
    if not is_backup(data):
        import_one(data, dry_run)
        return
    try:
        games = check_backup(data)
    except BackupError as exc:
        raise click.ClickException(f"Nothing restored: {exc}.") from None
    changed = [g.game_id for g in games if g.totals_changed]
    if changed:
        click.echo(
            counted(
                "Note: the rules give other totals than the file for %(num)s game (%(ids)s); the rules' totals are kept.",
                "Note: the rules give other totals than the file for %(num)s games (%(ids)s); the rules' totals are kept.",
                len(changed),
                ids=", ".join(changed[:5]) + ("…" if len(changed) > 5 else ""),
            ),
            err=True,
        )
    if dry_run:
        click.echo(
            counted(
                "%(num)s game checked; nothing written (--dry-run).",
                "%(num)s games checked; nothing written (--dry-run).",
                len(games),
            )
        )
        return
    club = restore_club(club_slug, data.get("club"))
    restored, skipped = restore(games, club)
    restore_players(data.get("players"), club)
    click.echo(counted("Restored %(num)s game.", "Restored %(num)s games.", len(restored)))
    if skipped:
        click.echo(
            counted(
                "Skipped %(num)s game already there: %(ids)s.",
                "Skipped %(num)s games already there: %(ids)s.",
                len(skipped),
                ids=", ".join(g.game_id for g in skipped),
            )
        )


def import_snapshot(text: IO[str], start: str, dry_run: bool) -> None:
    """A whole-server (or one club's) backup: restored in one transaction, or, for a dry run,
    into a scratch database in a temporary folder (every check but the clashes with this
    server's own rows, which the real restore checks before it commits anything)."""
    if dry_run:
        import tempfile

        snapshot.tables()  # every model's table known to create_all
        with tempfile.TemporaryDirectory() as folder:
            # A bare app holding only the scratch database: the restore needs the session and this
            # app's settings, not its pages (and backup.py stays below the app factory).
            scratch = Flask(__name__)
            scratch.config.update(
                current_app.config,
                SQLALCHEMY_DATABASE_URI=f"sqlite:///{folder}/dry-run.sqlite",
                SQLALCHEMY_ENGINE_OPTIONS={},
                SQLALCHEMY_BINDS={},
            )
            db.init_app(scratch)
            with scratch.app_context():
                db.create_all()
                try:
                    done = snapshot.restore(text, start)
                except BackupError as exc:
                    raise click.ClickException(f"Nothing restored: {exc}.") from None
                finally:
                    db.session.rollback()
                    db.engine.dispose()
        click.echo(f"Checked {describe(done.written)}; nothing written (--dry-run).")
        return
    from ..db import one_writer

    with one_writer():
        try:
            done = snapshot.restore(text, start)
            db.session.commit()
        except BackupError as exc:
            db.session.rollback()
            raise click.ClickException(f"Nothing restored: {exc}.") from None
        except Exception:
            db.session.rollback()
            raise
    click.echo(f"Restored {describe(done.written)}.")
    there = {name: n for name, n in done.there.items() if n}
    if there:
        click.echo(f"Already there, kept as they were: {describe(there)}.")


def restore_club(slug: str | None, named: Any) -> Club | None:
    """Where a restore goes: the club asked for, else the one the backup names, else the default
    club (an install's games before clubs went there); None (personal games) if none is here."""
    from flask import current_app

    if slug is not None:
        club = find_club(slug)
        if club is None:
            raise click.ClickException(f"No club {slug!r} (scorekeeper clubs list names them).")
        return club
    if isinstance(named, Mapping) and isinstance(named.get("slug"), str):
        club = find_club(named["slug"])
        if club is not None:
            return club
    return find_club(str(current_app.config.get("DEFAULT_CLUB") or "Home"))


def import_one(data: Any, dry_run: bool) -> None:
    """A single game record: a new game with a new id and edit key (the record carries no key)."""
    try:
        game_rules, setup, deals = service.parse_record(data)
    except InvalidFacts as exc:
        raise click.ClickException(f"Nothing imported: {first_problem(exc.errors, kind_of(data))}.") from None
    if dry_run:
        click.echo(
            counted(
                "One %(kind)s game with %(num)s deal checked; nothing written (--dry-run).",
                "One %(kind)s game with %(num)s deals checked; nothing written (--dry-run).",
                len(deals),
                kind=game_rules.key,
            )
        )
        return
    game, key = service.create_game(game_rules, setup, deals)
    click.echo(f"Imported as game {game.id}. Its scoring link: /g/{game.id}?key={key}")
