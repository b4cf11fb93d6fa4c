"""An event's rounds: the director starts and closes them, and players join late or withdraw
between them (later rounds seated again, earlier ones stand). Apart from :mod:`.service`, which
keeps the event and derives its document, because these are the changes of an evening's
course; every one passes through :func:`.service.through_gate`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import timedelta
from typing import Any

from .. import service
from ..games import GAMES
from ..models import Event, EventRound, EventTable, Game, utcnow
from ..refusals import Clash, Refusal, refuse
from ..rules import N_, Setup, msg
from ..service import house_gate
from . import formats, seating
from .checks import check_size, player_names, round_data
from .service import active, most_players, round_done, seat_names, table_games, table_key, through_gate


class RoundOpen(Clash):
    """A new round asked for while the current one is still being played (409)."""

    def __init__(self, number: int):
        super().__init__(
            "close",
            msg(
                N_("Round {n} is still being played: finish its tables, or close it first."),
                n=number,
            ),
        )
        self.number = number


def event_over() -> Clash:
    """No round left to start (409)."""
    return Clash("rounds", msg(N_("Every round of this event has been started.")))


def start_round(
    event: Event,
    close: bool = False,
    based_on: int | None = None,
    token: str | None = None,
    by: str = "",
) -> EventRound:
    """Start the next round: every table gets an ordinary game with the event's options.

    One transaction makes the round and its tables' games, or nothing. The start is claimed on
    the version the director saw (``based_on``, else the event as this request read it): two
    directors starting at once start one round; the other gets :class:`~scorekeeper.service.house_gate.Stale`
    and no game is made for it. A repeated submission (``token``) raises
    :class:`~scorekeeper.service.house_gate.Repeat` (its ``detail["round"]``: the round it started).
    """
    seen = event.version if based_on is None else based_on

    def step() -> house_gate.Step[EventRound]:
        games = table_games(event)
        current = event.rounds[-1] if event.rounds else None
        closing = current is not None and not round_done(current, games)
        if closing and not close:
            assert current is not None
            raise RoundOpen(current.number)
        number = len(event.rounds) + 1
        if number > event.settings["rounds"]:
            raise event_over()
        planned_now: list[dict[str, Any]] | None = None
        if number == 1 and not event.schedule:  # filled at the door
            here, size = active(event), event.settings["table_size"]
            if not event.settings.get("check_in") or len(here) < size:  # not a table's worth yet
                raise Clash(
                    "round",
                    msg(N_("At least {n} players must be here to start: {m} so far."), n=size, m=len(here)),
                )
            # A format planned only now (a mixer: too dear to plan again at every arrival).
            fmt = formats.of(event.format)
            shuffle = event.settings.get("shuffle", False)
            made = fmt.reseat(len(event.entrants), here, [], event.settings["rounds"], size, shuffle)
            planned_now = [round_data(r) for r in made]
        seats_plan = planned_now[0] if planned_now else next_seating(event, number, games)
        rules = GAMES[event.kind]
        setups = []
        for seats in seats_plan["tables"]:
            setup = Setup(tuple(seat_names(event, seats)), dict(event.options), 0)
            errors = rules.check_setup(setup)
            if errors:  # the options were checked at creation: only a changed rule could get here
                raise Refusal(errors=errors)
            setups.append((seats, setup))
        rnd = EventRound(event_id=event.id, number=number, sitting_out=list(seats_plan["sitting_out"]))

        def apply() -> Any:
            now = utcnow()
            if planned_now is not None:
                event.schedule = planned_now
            if closing and current is not None:
                current.closed_at = now
            minutes = event.settings.get("minutes")
            if minutes:
                rnd.started_at, rnd.ends_at = now, now + timedelta(minutes=minutes)
            tables = []
            for number_at, (seats, setup) in enumerate(setups, start=1):
                game_id = service.new_id()
                # A club event's table is a game of the club like any other (events.md, Screens):
                # in its lists and its ratings. Made in the round's transaction, not committed alone.
                game = service.stage_game(
                    rules, setup, game_id=game_id, key=table_key(game_id), club_id=event.club_id
                )
                tables.append(EventTable(number=number_at, game_id=game.id, seats=list(seats)))
            rnd.tables = tables
            event.rounds.append(rnd)
            return {"round": number, "closed": closing}

        return house_gate.Step(rnd, apply, "start_round")

    return through_gate(event, step, based_on=seen, token=token, by=by)


def not_open(event: Event, number: int) -> Clash:
    """A close asked of a round that is not the one being played: 409 with the event as it is
    (the API's ``record``), so the director sees which round is being played now."""
    return house_gate.Stale(
        event,
        None,
        "round",
        N_("Round {n} is not the round being played: only that one can be closed."),
        n=number,
    )


def close_round(
    event: Event,
    number: int | None = None,
    based_on: int | None = None,
    token: str | None = None,
    by: str = "",
) -> EventRound:
    """The director closes the round being played (events.md, Rounds): its unfinished games
    count as they stand, and from then on only a director corrects its tables, with a reason.
    Any round can be closed, the last one too: closing the last round finishes the event.

    ``number`` None: the latest round. A round that is not the latest started one, or was
    closed already (or left behind by a later round), is refused with a 409 (:func:`not_open`).
    Through the house gate: of two closes at once one closes; the other is judged again and
    refused. A repeated submission (``token``) raises :class:`~.house_gate.Repeat`.
    """

    def step() -> house_gate.Step[EventRound]:
        current = event.rounds[-1] if event.rounds else None
        wanted = current.number if number is None and current is not None else number
        if current is None or wanted != current.number or current.closed_at is not None:
            raise not_open(event, wanted or 1)

        def apply() -> Any:
            current.closed_at = utcnow()
            return {"round": current.number}

        return house_gate.Step(current, apply, "close_round")

    return through_gate(event, step, based_on=based_on, token=token, by=by)


def closable(event: Event, doc: Mapping[str, Any], clock: Mapping[str, Any] | None) -> int | None:
    """The round the director's page offers to close (events.md: as soon as its clock has run
    out or any of its tables has finished), or None: the latest round, not closed, and not
    followed by another, with a table still playing."""
    current = event.rounds[-1] if event.rounds else None
    if current is None or current.closed_at is not None:
        return None
    shown = doc["rounds"][current.number - 1]
    if shown["status"] == "done":
        return None  # every table finished: nothing is left to close (the last round is locked)
    tables = shown["tables"]
    time_up = bool(clock and clock.get("over"))
    return current.number if time_up or any(t["finished"] for t in tables) else None


def next_seating(event: Event, number: int, games: Mapping[str, Game]) -> dict[str, Any]:
    """Round ``number``'s seating, as the event's format makes it when the round starts."""
    return formats.of(event.format).next_seating(event, number, games)


def change_players(
    event: Event,
    add: Sequence[str],
    withdraw: Sequence[str],
    based_on: int | None = None,
    by: str = "",
) -> None:
    """Players join late or withdraw between rounds: later rounds are re-seated, earlier ones stand.

    Through the house gate: two changes at once both apply (the later one is judged again on the
    event the first left), unless one was based on a version (``If-Match``): then it is refused
    with :class:`~scorekeeper.service.house_gate.Stale`."""

    def step() -> house_gate.Step[None]:
        entrants, withdrawn, schedule, settings = players_plan(event, add, withdraw)

        def apply() -> Any:
            keep_players(event, entrants, withdrawn, schedule, settings)
            return {"add": list(add), "withdraw": list(withdraw)}

        return house_gate.Step(None, apply, "players")

    through_gate(event, step, based_on=based_on, by=by)


def keep_players(
    event: Event,
    entrants: list[Any],
    withdrawn: list[int],
    schedule: list[dict[str, Any]],
    settings: dict[str, Any],
) -> None:
    event.entrants = entrants
    event.withdrawn = withdrawn
    event.schedule = schedule
    if settings != event.settings:
        event.settings = settings


def players_plan(
    event: Event, add: Sequence[str], withdraw: Sequence[str]
) -> tuple[list[Any], list[int], list[dict[str, Any]], dict[str, Any]]:
    fmt = formats.of(event.format)
    if not fmt.accepts_players:
        raise refuse("add", N_("A pairs event keeps its pairs: players cannot be added or withdrawn."))
    names = {n.casefold(): i for i, n in enumerate(event.entrants)}
    gone = []
    for name in withdraw:
        if not isinstance(name, str) or name.strip().casefold() not in names:
            raise refuse("withdraw", N_("{name} is not a player of this event."), name=str(name))
        gone.append(names[name.strip().casefold()])
    most = most_players()
    new = player_names(list(add), "add", most)
    for name in new:
        if name.casefold() in names:
            raise refuse("add", N_("{name} is already a player of this event."), name=name)
    entrants = [*event.entrants, *new]
    withdrawn = sorted({*event.withdrawn, *gone})
    players = [e for e in range(len(entrants)) if e not in withdrawn]
    check_size(len(players), "add", most)  # before any re-seating: a late arrival for a leaver fits
    size = event.settings["table_size"]
    started = len(event.rounds)
    filling = bool(event.settings.get("check_in")) and not started  # the door still fills the list
    if len(players) < size and not filling:
        raise refuse("withdraw", N_("At least {n} players must stay: one full table."), n=size)
    settings = dict(event.settings)
    if filling and settings.get("rounds_auto"):
        # No length was given: the format's usual one for tonight's list, until round 1 starts.
        entry = formats.Entry([None] * max(len(players), size), size, settings.get("pairing"))
        settings["rounds"] = fmt.fixed_rounds(len(players), entry) or fmt.default_rounds(
            max(len(players), size), entry
        )
    remaining = settings["rounds"] - started
    schedule = list(event.schedule[:started])
    later = filling and not fmt.plans_at_the_door  # planned when round 1 starts
    if remaining > 0 and len(players) >= size and not later:
        before = [as_round(i + 1, s) for i, s in enumerate(schedule)]
        made = fmt.reseat(len(entrants), players, before, remaining, size, settings.get("shuffle", False))
        schedule += [round_data(r) for r in made]
    return entrants, withdrawn, schedule, settings


def as_round(number: int, data: Mapping[str, Any]) -> seating.Round:
    tables = tuple(seating.Table(i + 1, tuple(t)) for i, t in enumerate(data["tables"]))
    return seating.Round(number, tables, tuple(data["sitting_out"]))
