"""The door (events.md, Seating: ``"check_in": true``): players check in as they arrive, the
director removes a wrong or doubled arrival, and the rounds not started are seated again for
tonight's list. Apart because it is the one part of an event a player changes without a
director's key (the door card's token); it re-seats as :mod:`.rounds` does.
"""

from __future__ import annotations

import hmac
from typing import Any

from ..models import Event, folded
from ..refusals import Clash, Missing, refuse
from ..rules import N_, msg
from ..service import house_gate
from . import formats
from .checks import player_names, round_data
from .rounds import as_round, keep_players, players_plan
from .service import active, check_in_token, entrant_name, finished, most_players, table_games, through_gate


def check_in_token_matches(event: Event, token: str) -> bool:
    return bool(event.settings.get("check_in")) and hmac.compare_digest(
        check_in_token(event).encode(),
        token.encode(),  # bytes: any text a URL may carry
    )


def tonight(event: Event) -> list[str]:
    """Tonight's list: the players in the event now (arrived, or given), in the order they came."""
    return [entrant_name(event, e) for e in active(event)]


def _folded_entrant(event: Event, name: str) -> int | None:
    wanted = folded(name)
    return next((e for e, n in enumerate(event.entrants) if isinstance(n, str) and folded(n) == wanted), None)


def arrive(event: Event, name: Any, by: str = "") -> dict[str, Any]:
    """A player checks in at the door (events.md, Seating: ``"check_in": true``): on tonight's
    list, seated in round 1 before it starts, later from the next round as a late arrival.
    Answers ``{"name", "from_round"}``. A name already on the list (NFKC + casefold) or an event
    that has finished: :class:`~scorekeeper.refusals.Clash` (409). One who was removed after the
    rounds began comes back (his played rounds stand). Through the house gate."""
    if not isinstance(name, str):
        raise refuse("name", N_("Give your name."))

    def step() -> house_gate.Step[dict[str, Any]]:
        if finished(event, table_games(event)):
            raise Clash("name", msg(N_("The event has finished: the check-in is closed.")))
        clean = player_names([name], "name", most_players())[0]
        found = _folded_entrant(event, clean)
        if found is not None and found not in event.withdrawn:
            raise Clash("name", msg(N_("{name} is on tonight's list already."), name=event.entrants[found]))
        if found is not None:  # removed by mistake after the rounds began: back from the next one
            entrants, withdrawn = list(event.entrants), [e for e in event.withdrawn if e != found]
            plan_from = _replan(event, entrants, withdrawn)
            shown = event.entrants[found]
        else:
            entrants, withdrawn, schedule, settings = players_plan(event, [clean], [])
            plan_from = (schedule, settings)
            shown = clean
        answer = {"name": shown, "from_round": len(event.rounds) + 1}

        def apply() -> Any:
            keep_players(event, entrants, withdrawn, plan_from[0], plan_from[1])
            return answer

        return house_gate.Step(answer, apply, "arrive")

    return through_gate(event, step, by=by[:80])


def _replan(
    event: Event, entrants: list[Any], withdrawn: list[int]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The rounds not started, seated again for these players (as :func:`players_plan` does)."""
    fmt = formats.of(event.format)
    players = [e for e in range(len(entrants)) if e not in withdrawn]
    started = len(event.rounds)
    schedule = list(event.schedule[:started])
    remaining = event.settings["rounds"] - started
    size = event.settings["table_size"]
    if remaining > 0 and len(players) >= size:
        before = [as_round(i + 1, s) for i, s in enumerate(schedule)]
        made = fmt.reseat(
            len(entrants), players, before, remaining, size, event.settings.get("shuffle", False)
        )
        schedule += [round_data(r) for r in made]
    return schedule, dict(event.settings)


def remove_arrival(event: Event, name: str, by: str = "") -> None:
    """The director removes a wrong or doubled arrival (events.md, Seating). Before round 1 he
    leaves tonight's list altogether; once rounds have started he is withdrawn (a round he
    played stands; one who never played shows in no standings). Through the house gate."""

    def step() -> house_gate.Step[None]:
        found = _folded_entrant(event, name.strip()) if isinstance(name, str) else None
        if found is None or found in event.withdrawn:
            raise Missing("name", N_("{name} is not on tonight's list."), name=str(name)[:80])
        gone = event.entrants[found]
        if event.rounds:
            entrants, withdrawn, schedule, settings = players_plan(event, [], [gone])
        else:
            entrants = [n for e, n in enumerate(event.entrants) if e != found]
            withdrawn = [e - (e > found) for e in event.withdrawn if e != found]
            schedule, settings = replan_fresh(event, entrants, withdrawn)

        def apply() -> Any:
            keep_players(event, entrants, withdrawn, schedule, settings)
            return {"removed": gone}

        return house_gate.Step(None, apply, "arrival_removed")

    through_gate(event, step, by=by[:80])


def replan_fresh(
    event: Event, entrants: list[Any], withdrawn: list[int]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Before round 1: the whole evening planned again for tonight's list."""
    fmt = formats.of(event.format)
    settings = dict(event.settings)
    players = [e for e in range(len(entrants)) if e not in withdrawn]
    size = settings["table_size"]
    if settings.get("rounds_auto"):
        entry = formats.Entry([None] * max(len(players), size), size, settings.get("pairing"))
        settings["rounds"] = fmt.fixed_rounds(len(players), entry) or fmt.default_rounds(
            max(len(players), size), entry
        )
    schedule: list[dict[str, Any]] = []
    if len(players) >= size and fmt.plans_at_the_door:
        made = fmt.reseat(
            len(entrants), players, [], settings["rounds"], size, settings.get("shuffle", False)
        )
        schedule = [round_data(r) for r in made]
    return schedule, settings
