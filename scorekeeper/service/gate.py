"""The write gate: every change to a game passes through ``_write``.

One place for the version check (no lost update), the idempotency token (no
double deal) and the history (what changed, when, from which device; undo
reads it back). A change is judged by replaying the whole game through the
rules before anything is written, so a refused entry leaves the record as it was.
"""

from __future__ import annotations

import copy
import logging
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Generic, NamedTuple, TypeVar, cast

from sqlalchemy import Table, bindparam, case, delete, func, insert, null, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.exc import ObjectDeletedError

from .. import read, rules
from ..db import Prepared, db, one_writer
from ..models import ORDERS, AnyGame, Change, Deal, Game, GameSummary, PendingEntry, utcnow
from ..read import summarize
from ..read.pending import orders_row
from ..refusals import CannotUndo as CannotUndo
from ..refusals import DealGone as DealGone
from ..refusals import GameGone as GameGone
from ..refusals import Repeat, Retry, Stale
from ..rules import FieldError, GameResult, InvalidFacts, Setup, msg
from ..rules.base import N_, check_setup
from ..scoring import game_rules, known_result, remember, replay
from .locks import correction_at, directors_act

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Via:
    """What a write was based on and where it comes from; every part is optional.

    ``version``: the game's version the writer saw; if the game has changed
    since, the write is refused with :class:`Conflict`. Without it a write
    applies to the newest state (the JSON API without ``If-Match``).
    ``token``: the submission's idempotency token; a submission whose token is
    already recorded raises :class:`AlreadyDone` and writes nothing.
    """

    version: int | None = None
    token: str | None = None
    device_id: str | None = None
    device: str = ""
    # Who corrects an event's table as its director ("director", or an owner or admin's name;
    # the web's auth decides, from the request's credentials), and why: what a table whose
    # round is closed (or whose result is confirmed) needs for any change.
    by: str | None = None
    reason: str | None = None


# The gate's outcomes are of the house's one refusal family (scorekeeper.refusals): a stale write
# (Conflict, 409), a game or deal gone (404), an undo the game moved past (409), and the two that
# are no refusal: a repeated submission (AlreadyDone) and a lost race (_Raced).
Conflict = Stale
AlreadyDone = Repeat
_Raced = Retry


# A write without a version retries on a newer state; each round one writer wins.
RETRIES = 24

# Called with a game's id and new version once each write to it has committed (issue 40: the web layer draws the
# game's followers' live answer then, once per change, instead of on their polls). A hook that
# fails never fails the write: it was saved.
AFTER_COMMIT: list[Callable[[str, int], None]] = []


@dataclass
class Entry:
    """A change's line in the history, as a plan's ``apply`` returns it (``_write`` stores it)."""

    kind: str
    deal_index: int | None = None
    position: int | None = None
    before: Any = None
    after: Any = None
    # The change this one undid, if it is an undo.
    undoes: int | None = None


# What a write hands back: the game's result when the change scores, else None.
R = TypeVar("R", covariant=True)


class Plan(NamedTuple, Generic[R]):
    """A judged change: the result to hand back, and the function that applies it (returns its history).

    A user action that makes several changes at once (Tally's *End game* with the last deal's
    points typed: that deal, then the end) returns one entry per change: each takes its own
    version and history line, all in the one transaction."""

    result: R
    apply: Callable[[], Entry | list[Entry]]
    # An append: the half-entered deal is now a whole one, and the version claim clears it.
    clears_draft: bool = False
    # A change that leaves every recorded deal and the set-up as they were (a draft, archiving, a
    # seat's orders): the result known at the old version is the result at the new one.
    quiet: bool = False


# A planner gets the highest deal position the game's history has used (read by ``_guard``).
Planner = Callable[[int | None], Plan[R]]


# The hot path's statements, built once: a write executes them with its values as parameters
# (building a statement per write cost more than running it).
# A mapped class's __table__ is its Table (SQLAlchemy declares the wider FromClause).
_GAME, _DEAL, _CHANGE, _SUMMARY = (
    cast(Table, model.__table__) for model in (Game, Deal, Change, GameSummary)
)
_GUARD = select(
    func.max(_CHANGE.c.position),
    # A token never matches NULL: without one, nothing is "already done".
    func.max(case((_CHANGE.c.token == bindparam("token"), _CHANGE.c.id))),
    # The deals' own positions too: a game's first deals (an import) have no history of their own.
    select(func.max(_DEAL.c.position)).where(_DEAL.c.game_id == bindparam("game_id")).scalar_subquery(),
).where(_CHANGE.c.game_id == bindparam("game_id"))
_CLAIM = update(_GAME).where(_GAME.c.id == bindparam("game_id"), _GAME.c.version == bindparam("old"))
_CLAIMS = {
    False: Prepared(_CLAIM, ("version", "updated_at")),
    # SQL NULL, as the ORM writes a None draft (not JSON 'null').
    True: Prepared(_CLAIM.values(draft=null()), ("version", "updated_at")),
}
_SUMMARY_COLUMNS = [c.key for c in _SUMMARY.c if c.key != "game_id"]
_KEEP_SUMMARY = Prepared(
    update(_SUMMARY).where(_SUMMARY.c.game_id == bindparam("game_key")), _SUMMARY_COLUMNS
)
_MOVE_SUMMARY = Prepared(
    update(_SUMMARY).where(
        _SUMMARY.c.game_id == bindparam("game_key"), _SUMMARY.c.version == bindparam("old")
    ),
    ("version", "last_activity"),
)
_INSERT_SUMMARY = Prepared(insert(_SUMMARY), [c.key for c in _SUMMARY.c])
_INSERT_DEAL = Prepared(insert(_DEAL), ("game_id", "position", "facts", "created_at"))
_HISTORY_COLUMNS = [c.key for c in _CHANGE.c if c.key != "id"]
_INSERT_CHANGE = Prepared(insert(_CHANGE), _HISTORY_COLUMNS)


def _run(statement: Any, params: dict[str, Any]) -> Any:
    """A statement built once, run by SQLAlchemy Core on the session's connection (its transaction)."""
    return db.session.connection().execute(statement, params)


def _guard(game: AnyGame, via: Via, deleted_ok: bool = False) -> int | None:
    """Refuse a replayed, stale or deleted write; return the highest deal position ever used.

    One query reads all three: whether this token is recorded, the highest position in the
    history and the highest among the game's deals.
    """
    try:
        version, deleted_at = game.version, game.deleted_at
    except ObjectDeletedError:
        raise GameGone(game.id) from None
    if game.top_known and via.token is None:
        # Nothing to look up: the highest positions came with the game's row, at its version.
        top, done_id, top_dealt = game.top_position, None, None
    else:
        top, done_id, top_dealt = _run(_GUARD, {"game_id": game.id, "token": via.token}).one()
    top = max((p for p in (top, top_dealt) if p is not None), default=None)
    if done_id is not None:
        done = db.session.get(Change, done_id)
        assert done is not None  # the guard's query just read its id, in this transaction
        raise AlreadyDone(done)
    if deleted_at is not None and not deleted_ok:
        raise GameGone(game.id)
    if via.version is not None and via.version != version:
        raise Conflict(game, via.version)
    return top


def _claim(game: AnyGame, now: datetime, clear_draft: bool = False) -> None:
    """Take the next version, if nobody took it since ``game`` was read: the gate every write passes.

    A conditional UPDATE is the first statement of the write: on PostgreSQL it
    waits for a concurrent writer of the same game and then matches no row; on
    SQLite it takes the database's write lock. Either way one writer per
    version gets through, and the other sees the newer state and is judged again.
    """
    old = game.version
    claimed = _CLAIMS[clear_draft].run(
        {"game_id": game.id, "old": old, "version": old + 1, "updated_at": now}
    )
    if claimed != 1:
        raise _Raced
    game.written(version=old + 1, updated_at=now, **({"draft": None} if clear_draft else {}))


def _write(
    game: AnyGame,
    via: Via | None,
    plan: Planner[R],
    deleted_ok: bool = False,
    touch: bool = True,
    lockable: bool = True,
) -> R:
    """Judge ``plan`` on the game as stored, then apply it and record it, exactly once.

    ``plan(top)`` checks the change against the rules (raising what refuses it)
    and returns the result to hand back and the function that applies it.
    ``touch=False`` keeps ``updated_at`` (a rename is no play: the game still finished when it did).
    ``lockable=False``: a change that is not play (the club's rename, the archive), allowed at a
    locked event table too.
    """
    via = via or Via()
    for attempt in range(RETRIES):
        top = _guard(game, via, deleted_ok)
        # Judged again on every attempt: the round may have closed while this write waited.
        corrected = lockable and correction_at(game.id, via.by, via.reason)
        result, apply, clears_draft, quiet = plan(top)
        # What this request scored the game at before the change, if anything: a quiet change
        # hands it on to the new version.
        before = known_result(game) if quiet else None
        # Everything that needs no lock is done before taking SQLite's write turn: a writer
        # holding it while it computes would hold up every other writer of every process.
        now = utcnow() if touch else game.updated_at
        summary = summary_columns(game, result)
        try:
            with one_writer():
                _claim(game, now, clear_draft=clears_draft)
                applied = apply()
                changes = applied if isinstance(applied, list) else [applied]
                for i, change in enumerate(changes):
                    if i:
                        _claim(game, now)  # the next change's own version, in this transaction
                    # The history row by one INSERT: no ORM unit of work for a row nobody reads back here.
                    _INSERT_CHANGE.run(
                        {
                            "game_id": game.id,
                            "version": game.version,
                            "kind": change.kind,
                            "deal_index": change.deal_index,
                            "position": change.position,
                            "before": change.before,
                            "after": change.after,
                            "undoes": change.undoes,
                            "token": via.token if i == 0 else None,
                            "device_id": via.device_id,
                            "device": (via.device or "")[:80],
                            "created_at": utcnow(),
                            "reason": (via.reason or "").strip() if corrected else None,
                            "given_by": (via.by or "")[:40] if corrected else None,
                        },
                    )
                keep_summary(game, summary)
                db.session.commit()
        except (_Raced, IntegrityError):
            # Someone else changed the game meanwhile: read it again and judge anew.
            db.session.rollback()
            try:
                game.reread()
            except LookupError:
                raise GameGone(game.id) from None
            time.sleep(random.uniform(0, 0.002 * (attempt + 1)))
            continue
        except BaseException:
            db.session.rollback()
            raise
        # The gate computed the result at the new version: it keeps it, so the answer, the next
        # page and the next write start from it (no caller needs to remember it).
        kept = result if isinstance(result, GameResult) else before
        if kept is not None:
            remember(game, kept)
        _committed(game.id, game.version)
        return result
    _guard(game, via, deleted_ok)
    raise Conflict(game, via.version)


def _committed(game_id: str, version: int) -> None:
    for hook in AFTER_COMMIT:
        try:
            hook(game_id, version)
        except Exception:  # the write is saved whatever a follower's drawing does
            log.warning("after-commit hook failed", exc_info=True)


def summary_columns(game: AnyGame, result: Any) -> dict[str, Any] | None:
    """The list summary's columns for a change that scores (``result``, the game's full result at
    the new version); None for one that changes no score. Version and time are the claim's."""
    return summarize(game, result) if isinstance(result, GameResult) else None


def keep_summary(game: AnyGame, columns: dict[str, Any] | None) -> None:
    """Write the game's list summary at its new version, in the change's transaction.

    A change that scores (``columns``, from :func:`summary_columns`) rewrites it; one that changes
    no score (a draft, deleting or restoring the game) only moves an up-to-date summary to
    the new version. A missing or stale one stays so: lists replay that game until
    ``scorekeeper db rescore`` or its next scored change.
    """
    if columns is not None:
        columns = {**columns, "version": game.version, "last_activity": game.updated_at}
        # One statement for a game that has its summary (the usual case): the version claim
        # already holds this game's row, so nobody else writes its summary meanwhile.
        if _KEEP_SUMMARY.run({"game_key": game.id, **columns}) == 0:
            _INSERT_SUMMARY.run({"game_id": game.id, **columns})
        return
    _MOVE_SUMMARY.run(
        {
            "game_key": game.id,
            "old": game.version - 1,
            "version": game.version,
            "last_activity": game.updated_at,
        },
    )


def _next_position(game: AnyGame, top: int | None) -> int:
    """A position no deal of this game has had: a deleted deal's place stays free for its undo.

    ``top``, the highest position in the history and the deals, was read by ``_guard``
    before the version was claimed: a change recorded since would have made the claim fail.
    The deals themselves are not loaded for this (an append never reads a long game's deals).
    """
    return (top if top is not None else -1) + 1


def _deal_at(game: Game, k: int) -> Deal:
    if not 0 <= k < len(game.deals):
        raise DealGone(k)
    return game.deals[k]


def _plan_append_all(game: AnyGame, deals: list[dict[str, Any]], top: int | None) -> Plan[GameResult]:
    """Several deals appended by one action (each its own change); refused whole if one is."""
    # Scored on from the game's result at its version (kept once per version): no replay.
    result = read.result(game, deals)
    seat_orders = game_rules(game).takes_seat_orders(result.setup)
    first = len(result.deals) - len(deals)

    def apply() -> list[Entry]:
        entries = []
        for i, facts in enumerate(deals):
            position = _next_position(game, top) + i
            if game.top_known:
                game.written(top_position=position)  # the snapshot stays true for a next write
            if not game.deals_loaded:
                # The deals are not read for an append: one INSERT, and a later read finds the row.
                _INSERT_DEAL.run(
                    {"game_id": game.id, "position": position, "facts": facts, "created_at": game.updated_at},
                )
            else:
                assert isinstance(game, Game)  # only the ORM's game has its deals loaded
                game.deals.append(Deal(game_id=game.id, position=position, facts=copy.deepcopy(facts)))
            entries.append(Entry(kind="append", deal_index=first + i, position=position, after=facts))
        if seat_orders:
            # The turn is in (from the seats, or the scorer's whole turn): what the seats had
            # sent for it goes (spec "Seat entry": a whole turn replaces anything pending).
            _drop_pending(game)
        return entries

    return Plan(result, apply, clears_draft=True)


def _plan_replace(game: Game, k: int, facts: dict[str, Any]) -> Plan[GameResult]:
    deal = _deal_at(game, k)
    candidate = game.facts
    candidate[k] = facts
    result = replay(game, candidate)

    seat_orders = game_rules(game).takes_seat_orders(result.setup)

    def apply() -> Entry:
        before = copy.deepcopy(deal.facts)
        deal.facts = copy.deepcopy(facts)
        if seat_orders:  # the pending orders were judged on the state this changes: sent again
            _drop_pending(game)
        return Entry(kind="replace", deal_index=k, position=deal.position, before=before, after=facts)

    return Plan(result, apply)


def _plan_correct_end(game: Game, k: int, facts: dict[str, Any], keep: int) -> Plan[GameResult]:
    """Deal ``k`` corrected and the deals from ``keep`` on (after the end it now brings) deleted:
    one change, undone as one (``before`` holds the old deal and every deal removed)."""
    if not 0 <= k < keep < len(game.deals):
        raise DealGone(keep)
    deal = _deal_at(game, k)
    candidate = game.facts[:keep]
    candidate[k] = facts
    result = replay(game, candidate)

    def apply() -> Entry:
        removed = game.deals[keep:]
        before = {
            "deal": copy.deepcopy(deal.facts),
            "removed": [[d.position, copy.deepcopy(d.facts)] for d in removed],
        }
        deal.facts = copy.deepcopy(facts)
        for gone in removed:
            db.session.delete(gone)
        del game.deals[keep:]
        return Entry(kind="correct_end", deal_index=k, position=deal.position, before=before, after=facts)

    return Plan(result, apply)


def _plan_uncorrect_end(game: Game, change: Change) -> Plan[GameResult]:
    """Undo of :func:`_plan_correct_end`: the old deal back, and the deals it removed."""
    k = next(k for k, d in enumerate(game.deals) if d.position == change.position)
    removed = change.before["removed"]
    candidate = game.facts
    candidate[k] = copy.deepcopy(change.before["deal"])
    candidate += [copy.deepcopy(f) for _p, f in removed]
    result = replay(game, candidate)

    def apply() -> Entry:
        game.deals[k].facts = copy.deepcopy(change.before["deal"])
        for position, facts in removed:
            game.deals.append(Deal(position=position, facts=copy.deepcopy(facts)))
        return Entry(kind="restore_end", deal_index=k, position=change.position, after=len(removed))

    return Plan(result, apply)


def _plan_delete(game: Game, k: int) -> Plan[GameResult]:
    deal = _deal_at(game, k)
    candidate = game.facts
    del candidate[k]
    result = replay(game, candidate)

    seat_orders = game_rules(game).takes_seat_orders(result.setup)

    def apply() -> Entry:
        before = copy.deepcopy(deal.facts)
        db.session.delete(deal)
        game.deals.pop(k)
        if seat_orders:  # the pending orders were judged on the state this changes: sent again
            _drop_pending(game)
        return Entry(kind="delete", deal_index=k, position=deal.position, before=before)

    return Plan(result, apply)


def _drop_pending(game: AnyGame) -> None:
    """Within the change's transaction: what the seats had sent for the next turn goes."""
    db.session.execute(delete(PendingEntry).where(PendingEntry.game_id == game.id))


def _plan_restore(game: Game, position: int, facts: dict[str, Any]) -> Plan[GameResult]:
    if any(d.position == position for d in game.deals):
        raise CannotUndo(position)
    k = sum(1 for d in game.deals if d.position < position)
    candidate = game.facts
    candidate.insert(k, facts)
    result = replay(game, candidate)

    def apply() -> Entry:
        game.deals.insert(k, Deal(position=position, facts=copy.deepcopy(facts)))
        return Entry(kind="restore", deal_index=k, position=position, after=facts)

    return Plan(result, apply)


def _plan_draft(game: Game, draft: dict[str, Any] | None) -> Plan[None]:
    def apply() -> Entry:
        before = copy.deepcopy(game.draft)
        game.draft = copy.deepcopy(draft)
        return Entry(kind="draft", before=before, after=draft)

    return Plan(None, apply, quiet=True)


def _plan_game_deleted(game: Game, deleted: bool) -> Plan[None]:
    if (game.deleted_at is not None) == deleted:
        raise CannotUndo(game.id)

    def apply() -> Entry:
        game.deleted_at = utcnow() if deleted else None
        return Entry(kind="delete_game" if deleted else "restore_game")

    return Plan(None, apply)


def _plan_archived(game: Game, archived: bool) -> Plan[None]:
    if game.archived == archived:
        raise CannotUndo(game.id)

    def apply() -> Entry:
        game.archived = archived
        return Entry(kind="archive" if archived else "unarchive")

    return Plan(None, apply, quiet=True)


def _plan_rename(game: Game, seat: int, old: str, new: str) -> Plan[None]:
    """Seat ``seat``'s name from ``old`` to ``new``; the set-up's checks judge the new names."""
    players = game.players
    if not 0 <= seat < len(players) or players[seat] != old:
        raise CannotUndo(seat)
    players[seat] = new
    errors, _setup = check_setup(game_rules(game), players, dict(game.options), game.first_dealer, True)
    if errors:
        raise InvalidFacts(errors)

    def apply() -> Entry:
        game.seats[seat].name = new
        return Entry(kind="rename", before={"seat": seat, "name": old}, after={"seat": seat, "name": new})

    return Plan(None, apply)


def append_deal(game: AnyGame, facts: Mapping[str, Any], via: Via | None = None) -> GameResult:
    """Add the next deal; raise :class:`InvalidFacts` (deal index set) and change nothing if refused.

    The new deal is scored on from the game's result as stored (scored once per version),
    not by replaying the game.
    """
    stored = copy.deepcopy(dict(facts))
    return _write(game, via, lambda top: _plan_append_all(game, [stored], top))


def append_deals(game: AnyGame, deals: Sequence[Mapping[str, Any]], via: Via | None = None) -> GameResult:
    """Add several deals by one action, in one transaction, each its own change (so undone one at
    a time); raise :class:`InvalidFacts` and change nothing if any is refused."""
    stored = [copy.deepcopy(dict(facts)) for facts in deals]
    return _write(game, via, lambda top: _plan_append_all(game, stored, top))


def save_draft(game: Game, draft: Mapping[str, Any] | None, via: Via | None = None) -> None:
    """Keep (or with None, drop) the next deal's half-entered facts, checked by the caller."""
    kept = copy.deepcopy(dict(draft)) if draft is not None else None
    _write(game, via, lambda top: _plan_draft(game, kept))


def replace_deal(game: Game, k: int, facts: Mapping[str, Any], via: Via | None = None) -> GameResult:
    """Correct deal ``k``; every later deal is rescored and must still be legal."""
    stored = copy.deepcopy(dict(facts))
    return _write(game, via, lambda top: _plan_replace(game, k, stored))


def correct_to_end(
    game: Game, k: int, facts: Mapping[str, Any], keep: int, via: Via | None = None
) -> GameResult:
    """Correct deal ``k`` and delete the deals from ``keep`` on, which would follow the end: one change."""
    stored = copy.deepcopy(dict(facts))
    return _write(game, via, lambda top: _plan_correct_end(game, k, stored, keep))


def delete_deal(game: Game, k: int, via: Via | None = None) -> GameResult:
    """Remove deal ``k``; refused when a later deal would become illegal."""
    return _write(game, via, lambda top: _plan_delete(game, k))


def delete_game(game: Game, via: Via | None = None) -> None:
    """Delete the game: it leaves the lists, and its scorer can restore it (undo). An event
    table's game only by its director (locks.directors_act)."""
    directors_act(game.id, via.by if via else None, "delete")
    _write(game, via, lambda top: _plan_game_deleted(game, True))


def restore_game(game: Game, via: Via | None = None) -> None:
    """Bring a deleted game back."""
    _write(game, via, lambda top: _plan_game_deleted(game, False), deleted_ok=True)


def archive_game(game: Game, archived: bool = True, via: Via | None = None) -> None:
    """Archive (or bring back) a game: it leaves the home page and the ratings, and is kept.

    Raises :class:`CannotUndo` when the game already is so; :class:`TableLocked` to a scorer
    archiving a locked event table (locks.directors_act).
    """
    if archived:
        directors_act(game.id, via.by if via else None, "archive")
    _write(game, via, lambda top: _plan_archived(game, archived), lockable=False)


def rename_seat(game: Game, seat: int, old: str, new: str, via: Via | None = None) -> None:
    """Rename the player at ``seat`` (named ``old``) to ``new`` in this game: the club's rename and merge.

    Refused (:class:`InvalidFacts`) when ``new`` already sits at another seat of the game:
    one person cannot play two seats. Undo puts the old name back.
    """
    # No play changed: the game keeps its place in time (lists, the ratings' order).
    _write(
        game,
        via,
        lambda top: _plan_rename(game, seat, old, new),
        deleted_ok=True,
        touch=False,
        lockable=False,
    )


def set_options(
    game: Game,
    revise: Callable[[dict[str, Any]], dict[str, Any]],
    via: Via | None = None,
) -> GameResult:
    """Change a game's options after creation: Hidden Secrets' allotments, given before turn 1.

    ``revise(options)`` gets the options as stored (again after a concurrent
    write) and returns the new ones. The rules' set-up check judges them;
    before the first deal the parts of the seats still waiting may be missing
    (``read.result`` then takes no deal until none is). Raises :class:`InvalidFacts`.
    The history notes the change without the options: they may be private.
    """
    kind = game_rules(game)

    def plan(top: int | None) -> Plan[GameResult]:
        options = revise(copy.deepcopy(dict(game.options)))
        errors, _checked = check_setup(kind, game.players, options, game.first_dealer, not game.deals)
        if errors:
            raise InvalidFacts(errors)
        result = rules.play(kind, Setup(tuple(game.players), options, game.first_dealer), game.facts)

        def apply() -> Entry:
            game.options = copy.deepcopy(options)
            return Entry(kind="options")

        return Plan(result, apply)

    return _write(game, via, plan)


def set_allotment(game: Game, seat: int, row: list[Any], via: Via | None = None) -> GameResult:
    """Hidden Secrets: store ``seat``'s allotment (his ten values), only before turn 1.

    Raises :class:`InvalidFacts` naming the field: the rules' refusal of the row,
    or the allotments being fixed once a turn is resolved.
    """

    def revise(options: dict[str, Any]) -> dict[str, Any]:
        if game.deals:
            raise InvalidFacts(
                [
                    FieldError(
                        "values", msg(N_("The allotments are fixed once turn 1 is resolved.")), seat=seat
                    )
                ]
            )
        n = len(game.players)
        values = options.get("values")
        values = list(values) if isinstance(values, list) and len(values) == n else [None] * n
        values[seat] = row
        options["values"] = values
        return options

    return set_options(game, revise, via)


def keep_orders(game: Game, seat: int, turn: int, facts: dict[str, Any], via: Via | None = None) -> None:
    """Seat entry: keep (or replace) one seat's checked orders for ``turn``, apart from the deals.
    The game's version moves (every phone sees who is in); the history names the seat, never what."""
    _write(game, via, lambda top: _plan_orders_in(game, seat, turn, facts), touch=False)


def _plan_orders_in(game: Game, seat: int, turn: int, facts: dict[str, Any]) -> Plan[None]:
    def apply() -> Entry:
        row = orders_row(game.id, seat, turn)
        if row is None:
            db.session.add(PendingEntry(game_id=game.id, seat=seat, kind=ORDERS, turn=turn, facts=facts))
        else:
            row.facts = facts
        # The history says who sent, for which turn: never what (the scorer reads it).
        return Entry(kind="orders_in", after={"seat": seat, "turn": turn, "player": game.players[seat]})

    return Plan(None, apply, quiet=True)
