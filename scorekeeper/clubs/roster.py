"""A club across its games: ratings derived from its finished games, and its regular players.

Ratings are never stored. :func:`club_ratings` derives them from the games
through :mod:`scorekeeper.clubs.ratings` (pure) and keeps them in a per-process
store (``club_ratings``, per club) whose key is cheap to read (:func:`ratings_key`: the count, the newest
``updated_at`` and the sum of ``version`` over the counted games). Every
write to a game goes through the write gate, which bumps its version and
``updated_at``: any change, deletion, restore or import changes the key, and
the next read derives again. Below that, each game's :class:`~scorekeeper.clubs.ratings.Match`
is kept by ``(game id, version, updated_at)``, so a new key re-scores only the games that
changed. :func:`rebuild` derives everything from scratch, ignoring both caches
(``scorekeeper ratings rebuild``; the property test checks the two agree).

Games count in the order they finished (their last change), then by id, so a
restored backup's old game (its dates kept) slots into its place in time.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import func, select

from .. import read, service, stores
from ..access import of_club
from ..db import db
from ..games import GAMES
from ..models import Change, Club, Game, Member, Player, Seat
from ..refusals import Refusal
from ..rules import N_, InvalidFacts, msg
from ..service import house_gate
from . import ratings
from .ratings import Match, Ratings


def counted(query, club_id: int):
    """Only the games that may count for the club: its own, not deleted, not archived.

    This is the one place the ratings leave games out: the archive's filter belongs here.
    """
    return of_club(query, club_id).where(Game.deleted_at.is_(None), Game.archived.is_(False))


def ratings_key(club_id: int) -> tuple[Any, ...]:
    """What the cached ratings depend on, in one small query: changes whenever a counted game does."""
    count, newest, versions = db.session.execute(
        counted(select(func.count(Game.id), func.max(Game.updated_at), func.sum(Game.version)), club_id)
    ).one()
    return (count, newest, versions)


def match_of(game: Game) -> Match | None:
    """The match a stored game counts as (None while unfinished, or if its rules refuse it now)."""
    kind = GAMES.get(game.kind)
    if kind is None:
        return None
    try:
        # The read side's result: a page that also shows the game scores it once.
        result = read.result(game)
    except (InvalidFacts, LookupError):
        return None
    return ratings.match_from(game.kind, game.id, game.updated_at, game.players, game.options, result)


def _matches_from_scratch(club_id: int) -> list[Match]:
    games = db.session.scalars(counted(select(Game), club_id).order_by(Game.updated_at, Game.id)).all()
    return [m for m in (match_of(g) for g in games) if m is not None]


@dataclass(frozen=True)
class _Kept:
    """One club's ratings as derived at ``key`` (:func:`ratings_key`, read before the games were):
    never changed once kept, only replaced whole under the club's lock."""

    key: tuple[Any, ...]
    # Per counted game: its stamp (version, updated_at) and its match.
    matches: dict[str, tuple[tuple[Any, ...], Match | None]]
    all_matches: list[Match]
    scopes: dict[str | None, Ratings]


# Each club's ratings, derived once per change of its games (a few hundred clubs per process).
RATINGS = stores.store("club_ratings", 512, doc="each club's ratings at its games' key")
# Each club's lock, held only to swap in a result (never across a query or a re-scoring).
_LOCKS = stores.store("club_ratings_locks", 512, doc="a lock per club for swapping its ratings in")


def _lock(club_id: int) -> threading.Lock:
    return _LOCKS().setdefault(club_id, threading.Lock)


def _current_matches(known: _Kept | None, club_id: int) -> dict[str, tuple[tuple[Any, ...], Match | None]]:
    """Every counted game's match, re-scoring only the games whose version changed since ``known``."""
    before = known.matches if known is not None else {}
    # A game's time is part of its stamp: a restored backup's dates place its games, version or not.
    rows = db.session.execute(counted(select(Game.id, Game.version, Game.updated_at), club_id)).all()
    stale = [gid for gid, *stamp in rows if before.get(gid, (None,))[0] != tuple(stamp)]
    fresh = {gid: before[gid] for gid, *_stamp in rows if gid not in stale}
    for start in range(0, len(stale), 200):
        for game in db.session.scalars(select(Game).where(Game.id.in_(stale[start : start + 200]))):
            fresh[game.id] = ((game.version, game.updated_at), match_of(game))
    return fresh


def _swap_in(club_id: int, made: _Kept) -> None:
    """Keep ``made`` unless the club's entry already holds the same key (then add its scopes)."""
    with _lock(club_id):
        kept = RATINGS().get(club_id)
        if kept is not None and kept.key == made.key:
            made = _Kept(kept.key, kept.matches, kept.all_matches, {**made.scopes, **kept.scopes})
        RATINGS().put(club_id, made)


def club_ratings(club_id: int, game: str | None = None) -> Ratings:
    """The club's ratings of one game kind (or of every game, with None), from the store when current.

    The key is read first, then the games: what is kept under a key was derived from games at
    least as new as it, so a change after the key was read makes the next key differ (derived
    again), and no stale ratings are ever answered. No lock is held while the database is read
    or the games re-scored; two clubs never wait for each other.
    """
    key = ratings_key(club_id)
    kept = RATINGS().get(club_id)
    if kept is not None and kept.key == key:
        found = kept.scopes.get(game, _NONE)
        if found is not _NONE:
            return found
        board = ratings.rate(kept.all_matches, game)
        _swap_in(club_id, _Kept(kept.key, kept.matches, kept.all_matches, {game: board}))
        return board
    matches = _current_matches(kept, club_id)
    all_matches = [match for _stamp, match in matches.values() if match is not None]
    scopes: dict[str | None, Ratings] = {None: ratings.rate(all_matches)}
    if game is not None:
        scopes[game] = ratings.rate(all_matches, game)
    _swap_in(club_id, _Kept(key, matches, all_matches, scopes))
    return scopes[game]


_NONE: Any = object()


def from_scratch(club_id: int, scopes: Iterable[str | None] | None = None) -> dict[str | None, Ratings]:
    """Every scope's ratings derived from the club's games alone, neither reading nor filling a store."""
    matches = _matches_from_scratch(club_id)
    wanted = list(scopes) if scopes is not None else [None, *sorted(GAMES)]
    return {scope: ratings.rate(matches, scope) for scope in wanted}


def rebuild(club_id: int, scopes: Iterable[str | None] | None = None) -> dict[str | None, Ratings]:
    """Drop the club's kept ratings and derive from scratch (``scorekeeper ratings rebuild``)."""
    with _lock(club_id):
        RATINGS().pop(club_id)
    return from_scratch(club_id, scopes)


# -- regular players ------------------------------------------------------------------


def private_names(club_id: int) -> set[str]:
    return set(
        db.session.scalars(select(Player.name).where(Player.club_id == club_id, Player.private.is_(True)))
    )


def seatable_names(club_id: int | None) -> list[str]:
    """Everyone of the club an evening may seat (the new event's chips, late arrivals): its
    players (seated at its games, or kept) and its members, each name once whatever its case."""
    if club_id is None:
        return []
    found = {n.casefold(): n for n in regular_names(club_id)}
    for name in db.session.scalars(select(Member.name).where(Member.club_id == club_id)):
        found.setdefault(name.casefold(), name)
    return sorted(found.values(), key=str.casefold)


def regular_names(club_id: int | None, limit: int = 300) -> list[str]:
    """The names a club's new game offers: everyone who has sat at one of its games, and its kept
    list. A personal game offers none (nobody's names are shown to a stranger)."""
    if club_id is None:
        return []
    seated = set(
        db.session.scalars(
            of_club(select(Seat.name).distinct().join(Game, Game.id == Seat.game_id), club_id).limit(limit)
        )
    )
    kept = set(db.session.scalars(select(Player.name).where(Player.club_id == club_id).limit(limit)))
    return sorted(seated | kept, key=str.casefold)[:limit]


def _players_change(club_id: int, kind: str, write: Callable[[], Any], by: str = "") -> None:
    """A change to the club's kept players list, through the house gate (the club's version):
    two admins marking one name at once make one row."""
    club = db.session.get(Club, club_id)
    if club is None:
        return

    def plan() -> house_gate.Step[None]:
        return house_gate.Step(None, write, kind)

    house_gate.change(club, plan, by=by)


def set_private(club_id: int, name: str, private: bool, by: str = "") -> None:
    def write() -> Any:
        row = db.session.scalar(select(Player).where(Player.club_id == club_id, Player.name == name))
        if row is None:
            row = Player(club_id=club_id, name=name)
            db.session.add(row)
        row.private = private
        return {"player": name, "private": private}

    _players_change(club_id, "private", write, by)


class NameClash(Refusal):
    """The new name already sits in a game beside the old one: one person cannot play two seats
    (422, at the new name). The club's page words it with the games it names."""

    def __init__(self, games: list[Game], new: str):
        super().__init__("new", msg(N_("Each player may be listed once: {name} is listed twice."), name=new))
        self.games = games


@dataclass(frozen=True)
class Renamed:
    group: str  # the token every game's change carries: the whole rename is undone by it
    games: int


def games_with(club_id: int, name: str) -> list[Game]:
    """Every club game with a seat called ``name``, deleted ones included (a restored game keeps the club's names)."""
    return list(
        db.session.scalars(
            of_club(select(Game), club_id)
            .where(Game.id.in_(select(Seat.game_id).where(Seat.name == name)))
            .order_by(Game.id)
        )
    )


def rename_everywhere(club_id: int, old: str, new: str, via: service.Via, by: str = "") -> Renamed:
    """Rename ``old`` to ``new`` in every game, through the write gate: one change per game,
    all carrying one group token. When ``new`` is already a player this merges two spellings.

    Refused as a whole (:class:`NameClash`, nothing written) when a game seats both names;
    a game's own checks (a name of 1-40 characters) refuse with :class:`InvalidFacts`.
    """
    new = new.strip()
    games = games_with(club_id, old)
    clash = [
        g
        for g in games
        if new in g.players or new.casefold() in {p.casefold() for p in g.players if p != old}
    ]
    if clash:
        raise NameClash(clash, new)
    group = service.new_token(12)
    for game in games:
        seat = game.players.index(old)
        try:
            service.rename_seat(game, seat, old, new, service.Via(None, group, via.device_id, via.device))
        except service.AlreadyDone:
            continue

    def write() -> Any:
        rows = {
            p.name: p
            for p in db.session.scalars(
                select(Player).where(Player.club_id == club_id, Player.name.in_([old, new]))
            )
        }
        if old in rows:
            if new in rows:
                # Merging: private if either spelling was, so nobody shows up who asked not to.
                rows[new].private = rows[new].private or rows[old].private
                db.session.delete(rows[old])
            else:
                rows[old].name = new
        return {"old": old, "new": new, "games": len(games)}

    _players_change(club_id, "rename", write, by)
    return Renamed(group, len(games))


def rename_groups(club_id: int, limit: int = 1) -> list[tuple[str, str, str, int]]:
    """The club's latest renames that can still be undone: (group, old name, new name, games)."""
    changes = db.session.scalars(
        of_club(select(Change).join(Game, Game.id == Change.game_id), club_id)
        .where(Change.kind == "rename", Change.undoes.is_(None))
        .order_by(Change.id.desc())
        .limit(500)
    ).all()
    out: list[tuple[str, str, str, int]] = []
    seen: set[str] = set()
    for change in changes:
        if change.token in seen or change.token is None:
            continue
        seen.add(change.token)
        group = [c for c in changes if c.token == change.token]
        games = [(db.session.get(Game, c.game_id), c) for c in group]
        if any(game is not None and service.can_undo(game, c) for game, c in games):
            out.append((change.token, change.before["name"], change.after["name"], len(group)))
        if len(out) >= limit:
            break
    return out


def undo_rename(club_id: int, group: str, via: service.Via, by: str = "") -> int:
    """Put back every club game's name that the rename ``group`` changed; returns how many games."""
    changes = db.session.scalars(
        of_club(select(Change).join(Game, Game.id == Change.game_id), club_id).where(
            Change.kind == "rename",
            Change.token == group,
            Change.undoes.is_(None),
        )
    ).all()
    undone = 0
    for change in changes:
        game = db.session.get(Game, change.game_id)
        if game is None or not service.can_undo(game, change):
            continue
        try:
            service.undo(game, change, service.Via(None, f"undo-{group}", via.device_id, via.device))
        except service.AlreadyDone:
            continue
        undone += 1
    if undone and changes:
        old, new = changes[0].before["name"], changes[0].after["name"]

        def write() -> Any:
            row = db.session.scalar(select(Player).where(Player.club_id == club_id, Player.name == new))
            if (
                row is not None
                and row.private
                and db.session.scalar(select(Player).where(Player.club_id == club_id, Player.name == old))
                is None
            ):
                db.session.add(Player(club_id=club_id, name=old, private=True))
            return {"undone": group}

        _players_change(club_id, "undo_rename", write, by)
    return undone
