"""An event's table after its round closed (events.md, Rounds): only a director changes it,
giving a reason. The write gate asks :func:`correction_at` before every write."""

from __future__ import annotations

from .. import rules
from ..read import TableState, table_state
from ..refusals import Denied
from ..rules import FieldError, InvalidFacts, msg
from ..rules.base import N_


class TableLocked(Denied):
    """An event's table whose round is closed (or whose result is confirmed): only a director
    may change it, giving a reason (events.md, Rounds). Nothing was written (403, saying who may
    and how)."""

    def __init__(self, state: TableState, act: str | None = None):
        super().__init__(None, _locked(state, act))
        self.state = state
        self.act = act  # "delete" or "archive": the director's alone (:func:`directors_act`)


def _locked(state: TableState, act: str | None) -> rules.Msg:
    if act == "delete":
        return msg(
            N_("This game is table {table} of an event: only the event's director can delete it."),
            table=state.table,
        )
    if act == "archive":
        return msg(
            N_("Table {table}'s result stands in the event: only the event's director can archive it."),
            table=state.table,
        )
    if state.closed:
        return msg(
            N_("Round {round} is closed: only the event's director can correct this table, giving a reason."),
            round=state.round,
        )
    return msg(
        N_(
            "Table {table}'s result was confirmed by {name}: only the event's director can correct it, "
            "giving a reason."
        ),
        table=state.table,
        name=state.confirmed_by,
    )


REASON_LENGTH = 200


def correction_at(game_id: str, by: str | None, reason: str | None) -> bool:
    """Whether this write is a director's correction at a locked event table (then its reason
    and author go into the history); refuse it when it comes from anyone else, or gives no reason.

    The one place the rule is checked: pages, the API, undo and the CLI all write through here.
    A game of no event costs no query (the read side remembers where each game is played).
    """
    state = table_state(game_id)
    if state is None or not state.locked:
        return False
    if by is None:
        raise TableLocked(state)
    reason = (reason or "").strip()
    if not reason:
        raise InvalidFacts(
            [FieldError("reason", msg(N_("Give a reason: a correction after the round closed needs one.")))]
        )
    if len(reason) > REASON_LENGTH:
        raise InvalidFacts(
            [FieldError("reason", msg(N_("The reason is at most {n} characters."), n=REASON_LENGTH))]
        )
    return True


def directors_act(game_id: str, by: str | None, act: str) -> None:
    """Deleting an event table's game (its result is the event's), or archiving it once its table
    is locked (archiving drops it from the ratings), is the event's director's alone: refused
    (:class:`TableLocked`) to its scorer. A game of no event costs no query."""
    if by is not None:
        return
    state = table_state(game_id)
    if state is not None and (act == "delete" or state.locked):
        raise TableLocked(state, act)
