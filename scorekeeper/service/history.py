"""History and undo: every change to a game, read back, and put back through the write gate."""

from __future__ import annotations

import copy

from sqlalchemy import select

from ..db import db
from ..models import Change, Game
from ..rules import GameResult
from .gate import (
    CannotUndo,
    Entry,
    GameGone,
    Plan,
    Via,
    _plan_archived,
    _plan_delete,
    _plan_draft,
    _plan_game_deleted,
    _plan_rename,
    _plan_replace,
    _plan_restore,
    _plan_uncorrect_end,
    _write,
)


def history(game: Game) -> list[Change]:
    """Every change to the game, newest first."""
    return list(
        db.session.scalars(select(Change).where(Change.game_id == game.id).order_by(Change.id.desc()))
    )


def latest_change(game: Game) -> Change | None:
    return db.session.scalar(
        select(Change).where(Change.game_id == game.id).order_by(Change.id.desc()).limit(1)
    )


def find_change(game: Game, change_id: int) -> Change | None:
    change = db.session.get(Change, change_id)
    return change if change is not None and change.game_id == game.id else None


def created_by(token: str | None) -> Game | None:
    """The game a submission with this token created, if any (a double tap starts one game)."""
    if not token:
        return None
    return db.session.scalar(
        select(Game)
        .join(Change, Change.game_id == Game.id)
        .where(Change.kind == "create", Change.token == token)
        .limit(1)
    )


def _check_undoable(game: Game, change: Change) -> None:
    """Refuse (:class:`CannotUndo`) unless the game still holds what ``change`` wrote."""
    if change.kind in ("delete_game", "restore_game"):
        if (game.deleted_at is not None) != (change.kind == "delete_game"):
            raise CannotUndo(change.id)
        return
    if change.kind in ("archive", "unarchive"):
        if game.archived != (change.kind == "archive"):
            raise CannotUndo(change.id)
        return
    if change.kind == "rename":
        # A rename reaches deleted games too, so a restored game keeps the club's names.
        seat, name = change.after["seat"], change.after["name"]
        if seat >= len(game.seats) or game.seats[seat].name != name:
            raise CannotUndo(change.id)
        return
    if game.deleted_at is not None:
        raise GameGone(game.id)
    positions = {d.position: d for d in game.deals}
    if change.kind in ("append", "restore", "replace"):
        deal = positions.get(change.position) if change.position is not None else None
        if deal is None or deal.facts != change.after:
            raise CannotUndo(change.id)
    elif change.kind == "delete":
        if change.position in positions:
            raise CannotUndo(change.id)
    elif change.kind == "correct_end":
        # Undone only while the game ends where it left it: the corrected deal as written, last.
        deal = positions.get(change.position) if change.position is not None else None
        removed = [p for p, _f in change.before["removed"]]
        if deal is None or deal.facts != change.after or max(positions) > min(removed):
            raise CannotUndo(change.id)
    elif change.kind == "draft":
        if game.draft != change.after:
            raise CannotUndo(change.id)
    else:  # a game's creation is undone by deleting the game
        raise CannotUndo(change.id)


def can_undo(game: Game, change: Change) -> bool:
    """Whether ``change`` can still be undone as it was (the rules may still refuse the result)."""
    try:
        _check_undoable(game, change)
    except (CannotUndo, GameGone):
        return False
    return True


def _undo_plan(game: Game, change: Change) -> Plan[GameResult | None]:
    """How to put back what ``change`` replaced, through the same plans as any other write."""
    _check_undoable(game, change)
    if change.kind in ("delete_game", "restore_game"):
        return _plan_game_deleted(game, change.kind == "restore_game")
    if change.kind in ("archive", "unarchive"):
        return _plan_archived(game, change.kind == "unarchive")
    if change.kind == "delete":
        assert change.position is not None  # a deal's change names the deal's position
        return _plan_restore(game, change.position, copy.deepcopy(change.before))
    if change.kind == "draft":
        return _plan_draft(game, copy.deepcopy(change.before))
    if change.kind == "rename":
        return _plan_rename(game, change.after["seat"], change.after["name"], change.before["name"])
    if change.kind == "correct_end":
        return _plan_uncorrect_end(game, change)
    k = next(k for k, d in enumerate(game.deals) if d.position == change.position)
    if change.kind == "replace":
        return _plan_replace(game, k, copy.deepcopy(change.before))
    return _plan_delete(game, k)  # an appended or restored deal


def undo(game: Game, change: Change, via: Via | None = None) -> GameResult | None:
    """Put back what ``change`` replaced, as a new change (so an undo can itself be undone)."""
    change_id = change.id

    def plan(top: int | None) -> Plan[GameResult | None]:
        current = find_change(game, change_id)
        if current is None:
            raise CannotUndo(change_id)
        undoing = _undo_plan(game, current)

        def apply_undo() -> Entry:
            made = undoing.apply()
            assert isinstance(made, Entry)  # an undo puts back one change
            made.undoes = change_id
            return made

        return undoing._replace(apply=apply_undo)

    # Undoing a rename is a rename: the game keeps its place in time.
    touch = change.kind != "rename"
    # Undoing play at a locked event table is a correction like any other (a director's, with a
    # reason); undoing the club's rename or the archive is not play.
    lockable = change.kind not in ("rename", "archive", "unarchive")
    return _write(game, via, plan, deleted_ok=True, touch=touch, lockable=lockable)
