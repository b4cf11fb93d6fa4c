r"""The one refusal vocabulary: what any part of the house raises to say "no", and how.

A :class:`Refusal` names each problem's field (and the deal or seat where one is meant) with a
translatable message (:class:`~scorekeeper.rules.Msg`, ``{}``-style placeholders) and carries
the HTTP status it answers. The web turns it into a page (the form kept, the message at its
field) or the API's ``{"errors": [{"field", "message"}]}``, translated there, for every caller,
by the one handler of ``web.errors``. Only the kinds that need their own handling are
subclasses. The rules' :class:`~scorekeeper.rules.InvalidFacts` (422) is one of the family: its
root is defined beside it in ``rules/base.py`` so that the rules stay pure.

The write gates' outcomes live here too (``service.gate`` for games, ``service.house_gate``
for clubs and events): a change based on a version that is gone (:class:`Stale`, 409), a
game, deal, club or event that went away meanwhile (:class:`Gone`, 404), an undo the game has
moved past (:class:`CannotUndo`, 409); and the two that are no refusal: a submission already
done (:class:`Repeat`, its first answer is answered again) and a lost race (:class:`Retry`, the
gate judges the change again): these two are :class:`Signal`\ s, control flow and no refusal.

Pure: no Flask, no database.
"""

from __future__ import annotations

from typing import Any

from .rules.base import N_, InvalidFacts, Msg, Refusal, msg

__all__ = [
    "CannotUndo",
    "Clash",
    "DealGone",
    "Denied",
    "GameGone",
    "Gone",
    "InvalidFacts",
    "Missing",
    "Refusal",
    "Repeat",
    "Retry",
    "Signal",
    "Stale",
    "refuse",
]


class Missing(Refusal):
    """What the caller may not see, or that is not there (the same answer: existence is not revealed)."""

    status = 404


class Denied(Refusal):
    """The caller is known but may not do this."""

    status = 403


class Clash(Refusal):
    """Not now: the state of things refuses it (a round still open, a result confirmed already)."""

    status = 409


# What a stale change says, by what it changed (a game's API caller sent If-Match).
STALE = {
    "Event": N_("The event changed at the same moment, so nothing was done: here is the event as it is now."),
    "Club": N_("The club changed at the same moment: try again."),
}
STALE_GAME = N_(
    "The game has changed since the version in If-Match, so nothing was written. "
    "Here is the newer record: send the write again with its ETag if it still applies."
)
GONE = N_("This game or deal is not there any more.")


class Stale(Clash):
    """The game, club or event changed since the version the change was based on: nothing was
    written (409; the API adds the thing as it is now, ``record``)."""

    def __init__(
        self, aggregate: Any, based_on: int | None, field: str | None = None, text: str = "", **params: Any
    ):
        # Its own words where the state that refused it is more particular (a round still open).
        text = text or STALE.get(type(aggregate).__name__, STALE_GAME)
        super().__init__(field, msg(text, **params))
        self.aggregate = aggregate
        self.based_on = based_on

    @property
    def game(self) -> Any:
        return self.aggregate


class Gone(Missing):
    """The game, deal, club or event is not there (any more): deleted while the write was on its
    way, or never there. 404, as if it never was."""

    def __init__(self, what: object = None):
        super().__init__(None, msg(GONE))
        self.what = what


class GameGone(Gone):
    """The game is deleted (or was deleted while the write was on its way)."""


class DealGone(Gone):
    """The deal a write names is not there (any more)."""


class CannotUndo(Clash):
    """The change can no longer be undone as it was: the game has moved on."""

    def __init__(self, what: object = None):
        super().__init__(None, msg(N_("That change cannot be undone any more: the game has moved on.")))
        self.what = what


class Signal(Exception):
    """Not a refusal nor a fault: control flow that must leave a call several frames deep (a
    gate's step, a cache's maker) and say so to the one caller that waits for it. Exceptions
    because the frames between (the gate's retry loop, the cache) roll back or keep nothing on
    the way out, which a return value would have to be threaded through each of them to do.
    Every one is caught by the code that raised it or its caller; none reaches a handler."""


class Repeat(Signal):
    """Not a refusal: this submission's token is recorded, so it was done once and is not done
    again. ``change``: the history row it made (its ``detail``, for a club or event, the answer)."""

    def __init__(self, change: Any):
        super().__init__(f"change {change.id} has this token")
        self.change = change


class Retry(Signal):
    """Not a refusal: another writer claimed the version first (raised by the claim, or by a
    step's ``apply``). The gate rolls back and judges the change again on the newer state."""


def refuse(field: str | None, text: str, **params: Any) -> Refusal:
    """A 422 refusal of one field (``text`` marked with ``N_``, ``{}``-style placeholders)."""
    return Refusal(field, msg(text, **params))


# Msg and InvalidFacts are re-exported: the family's members are named from here.
_ = (Msg, InvalidFacts)
