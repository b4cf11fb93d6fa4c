"""Events: check a new event, make its seating, start and close rounds, change players, and
derive the standings and the event document (events.md) from the tables' games.

Each table plays an ordinary game, created through the write gate like any other; what it
scores is read back through the read side (public figures only). The seating, pairing and
standings themselves are pure (:mod:`.seating`, :mod:`.standings`).
"""

from __future__ import annotations

import copy
import hashlib
import hmac
from collections.abc import Mapping, Sequence
from datetime import datetime, timedelta
from typing import Any

from flask import current_app, has_request_context, request
from sqlalchemy import func, select, update
from sqlalchemy.orm.attributes import set_committed_value

from .. import cache, read, service
from ..clubs import ratings, roster
from ..db import db
from ..games import GAMES
from ..keys import hash_key, key_matches
from ..models import Change, Event, EventRound, EventTable, Game, HouseChange, folded, utcnow
from ..refusals import Clash, Missing, Refusal, refuse
from ..rules import N_, Msg, Setup, msg
from ..service import house_gate
from . import formats, seating, standings, table_links
from .checks import (  # the service refuses what the checks refuse, with their errors
    MAX_ENTRANTS,
    check_event,
    check_size,
    plan,
    player_names,
    round_data,
)


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


def not_now(message: Msg) -> Clash:
    """A table's result that cannot be confirmed now (409): the event asks for no confirmation,
    the game is still being played, or another player confirmed it already."""
    return Clash("confirm", message)


def new_id() -> str:
    return service.new_id()


def club_strengths(club_id: int | None, kind: str, names: Sequence[str]) -> dict[str, float]:
    """The club's rating (the leaderboard's ordinal, of the event's game) of each name that has
    one; a name matches a rated player's exactly, else regardless of case."""
    if club_id is None:
        return {}
    board = roster.club_ratings(club_id, kind)
    folded: dict[str, float] = {}
    for player in board.leaderboard:
        folded.setdefault(player.name.casefold(), player.ordinal)
    found = {}
    for name in names:
        exact = board.player(name)
        rating = exact.ordinal if exact is not None else folded.get(name.casefold())
        if rating is not None:
            found[name] = rating
    return found


def seeded(entrants: list[Any], club_id: int | None, kind: str) -> list[Any]:
    """The pairs in seed order by the club's ratings (events.md, ``"seed": "ratings"``).

    The entrants are stored in that order, so seed 1 is entrant 0 everywhere after: round 1's
    Swiss pairing and knockout bracket (planned once, at creation), a knockout tie's higher seed.
    """
    strengths = club_strengths(club_id, kind, [n for e in entrants for n in e])
    default = ratings.model().rating().ordinal()  # an unrated player starts where everyone does
    return [entrants[i] for i in seating.seed_by_ratings(entrants, strengths, default)]


def most_players() -> int:
    """The players one event may have (``EVENT_MAX_PLAYERS``): checked before seating is planned."""
    return int(current_app.config.get("EVENT_MAX_PLAYERS") or MAX_ENTRANTS)


def create_event(data: Any, club_id: int | None = None, by: str = "") -> tuple[Event, str]:
    """A new event (``by``: its creator, as the history names them)."""
    checked = check_event(data, most_players())
    settings = checked["settings"]
    if settings["seed"] == "ratings":
        checked["entrants"] = seeded(checked["entrants"], club_id, checked["kind"])
    schedule = plan(
        checked["format"],
        settings["pairing"],
        len(checked["entrants"]),
        settings["rounds"],
        settings["table_size"],
        settings.get("shuffle", False),
    )
    key = service.new_token(24)
    event = Event(
        id=new_id(),
        name=checked["name"],
        format=checked["format"],
        kind=checked["kind"],
        options=checked["options"],
        settings=settings,
        entrants=checked["entrants"],
        withdrawn=[],
        schedule=schedule,
        director_key_hash=hash_key(key),
        version=1,
        club_id=club_id,
    )

    def build() -> tuple[Event, Event]:
        db.session.add(event)
        return event, event

    house_gate.make(build, "create_event", by=by)
    return event, key


def director_key_matches(event: Event, key: str | None) -> bool:
    return key_matches(event.director_key_hash, key)


def table_key(game_id: str) -> str:
    """A table's scorer key: derived from the server's secret and the game, so the director's
    page can show every table's link without the key being stored anywhere."""
    secret = str(current_app.secret_key or "").encode()
    return hmac.new(secret, f"table:{game_id}".encode(), hashlib.sha256).hexdigest()[:32]


def player_token(event: Event, entrant: int) -> str:
    """A player's personal link's token: derived from the server's secret, nothing stored."""
    secret = str(current_app.secret_key or "").encode()
    return hmac.new(secret, f"event-player:{event.id}:{entrant}".encode(), hashlib.sha256).hexdigest()[:24]


def player_token_matches(event: Event, entrant: int, token: str) -> bool:
    # As bytes: compare_digest refuses a str with any non-ASCII character (a 500 for a typed link).
    return 0 <= entrant < len(event.entrants) and hmac.compare_digest(
        player_token(event, entrant).encode(), token.encode()
    )


def where_i_sit(event: Event, entrant: int, doc: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Per round, where the player sits: table, seat, partner and opponents (or the others at
    the table in a mixer), or sitting out; from the document's rounds, started or planned."""
    mine = _entrant_players(event, entrant)
    out = []
    for rnd in doc["rounds"]:
        row: dict[str, Any] = {"number": rnd["number"], "status": rnd["status"], "table": None}
        if any(n in rnd["sitting_out"] for n in mine):
            row["sitting_out"] = True
        for table in rnd["tables"]:
            seats = table["seats"]
            if mine[0] not in seats:
                continue
            seat = seats.index(mine[0])
            partners = formats.of(event.format).partners_at(seats)
            # The table's seats too: the player's page says who sits where in one line.
            row.update(table=table["table"], seat=seat + 1, seats=list(seats), partners=partners)
            if partners:
                row["partner"] = seats[(seat + 2) % 4]
                row["opponents"] = [seats[(seat + 1) % 4], seats[(seat + 3) % 4]]
            else:
                row["others"] = [n for n in seats if n != mine[0]]
        out.append(row)
    return out


# -- names ------------------------------------------------------------------------------------


def entrant_name(event: Event, entrant: int) -> str:
    found = event.entrants[entrant]
    return " & ".join(found) if isinstance(found, list) else found


def seat_names(event: Event, seats: Sequence[int]) -> list[str]:
    """The players at a table, clockwise, as the event's format seats them."""
    return formats.of(event.format).seat_names(event, seats)


def seat_entrants(event: Event, seats: Sequence[int]) -> list[int]:
    return formats.of(event.format).seat_entrants(seats)


# -- rounds -----------------------------------------------------------------------------------


def table_games(event: Event) -> dict[str, Game]:
    """Every table game of the event, in one query."""
    ids = [t.game_id for r in event.rounds for t in r.tables]
    if not ids:
        return {}
    return {g.id: g for g in db.session.scalars(select(Game).where(Game.id.in_(ids)))}


def round_done(rnd: EventRound, games: Mapping[str, Game]) -> bool:
    if rnd.closed_at is not None:
        return True
    return all(read.game_view(games[t.game_id]).finished for t in rnd.tables if t.game_id in games)


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

    return house_gate.change(event, step, based_on=seen, token=token, by=by)


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

    return house_gate.change(event, step, based_on=based_on, token=token, by=by)


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


def active(event: Event) -> list[int]:
    return [e for e in range(len(event.entrants)) if e not in event.withdrawn]


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
        entrants, withdrawn, schedule, settings = _players_plan(event, add, withdraw)

        def apply() -> Any:
            _keep_players(event, entrants, withdrawn, schedule, settings)
            return {"add": list(add), "withdraw": list(withdraw)}

        return house_gate.Step(None, apply, "players")

    house_gate.change(event, step, based_on=based_on, by=by)


def _keep_players(
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


def _players_plan(
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
        before = [_as_round(i + 1, s) for i, s in enumerate(schedule)]
        made = fmt.reseat(len(entrants), players, before, remaining, size, settings.get("shuffle", False))
        schedule += [round_data(r) for r in made]
    return entrants, withdrawn, schedule, settings


# -- check-in at the door ---------------------------------------------------------------------


def check_in_token(event: Event) -> str:
    """The check-in link's token (events.md, Seating): derived from the server's secret, nothing
    stored, so the door card printed at the creation stays valid all evening."""
    secret = str(current_app.secret_key or "").encode()
    return hmac.new(secret, f"event-arrive:{event.id}".encode(), hashlib.sha256).hexdigest()[:24]


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
            entrants, withdrawn, schedule, settings = _players_plan(event, [clean], [])
            plan_from = (schedule, settings)
            shown = clean
        answer = {"name": shown, "from_round": len(event.rounds) + 1}

        def apply() -> Any:
            _keep_players(event, entrants, withdrawn, plan_from[0], plan_from[1])
            return answer

        return house_gate.Step(answer, apply, "arrive")

    return house_gate.change(event, step, by=by[:80])


def _replan(
    event: Event, entrants: list[Any], withdrawn: list[int]
) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """The rounds not started, seated again for these players (as :func:`_players_plan` does)."""
    fmt = formats.of(event.format)
    players = [e for e in range(len(entrants)) if e not in withdrawn]
    started = len(event.rounds)
    schedule = list(event.schedule[:started])
    remaining = event.settings["rounds"] - started
    size = event.settings["table_size"]
    if remaining > 0 and len(players) >= size:
        before = [_as_round(i + 1, s) for i, s in enumerate(schedule)]
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
            entrants, withdrawn, schedule, settings = _players_plan(event, [], [gone])
        else:
            entrants = [n for e, n in enumerate(event.entrants) if e != found]
            withdrawn = [e - (e > found) for e in event.withdrawn if e != found]
            schedule, settings = _replan_fresh(event, entrants, withdrawn)

        def apply() -> Any:
            _keep_players(event, entrants, withdrawn, schedule, settings)
            return {"removed": gone}

        return house_gate.Step(None, apply, "arrival_removed")

    house_gate.change(event, step, by=by[:80])


def _replan_fresh(
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


def _as_round(number: int, data: Mapping[str, Any]) -> seating.Round:
    tables = tuple(seating.Table(i + 1, tuple(t)) for i, t in enumerate(data["tables"]))
    return seating.Round(number, tables, tuple(data["sitting_out"]))


# -- confirming a table's result, and the corrections after the close --------------------------


def table_of_game(game_id: str) -> tuple[Event, EventRound, EventTable] | None:
    """The event, round and table that play this game; None for a game of no event."""
    table = db.session.scalar(select(EventTable).where(EventTable.game_id == game_id))
    if table is None:
        return None
    return table.round.event, table.round, table


def find_table(event: Event, number: int, table_number: int) -> tuple[EventRound, EventTable] | None:
    rnd = next((r for r in event.rounds if r.number == number), None)
    table = next((t for t in rnd.tables if t.number == table_number), None) if rnd is not None else None
    return (rnd, table) if rnd is not None and table is not None else None


REASON_LENGTH = 200


def confirmers(event: Event, table: EventTable, game: Game) -> list[str]:
    """Who may confirm the table's result (events.md, Rounds): the players of the side that did
    not win, or every player after a tie. A finished game's winners say who won; a game counted
    as it stands (its round closed) is won by the best total. A total nobody may know yet
    (hidden): everyone."""
    players = seat_names(event, table.seats)
    result = read.game_view(game).result
    if any(t is None for t in result.totals):
        won: tuple[int, ...] = ()
    elif result.finished:
        won = tuple(result.winners)
    else:
        won = result.leaders
    beaten = [s for s in range(len(players)) if s not in won]
    seats = beaten if won and beaten else range(len(players))  # nobody beaten: a tie
    return list(dict.fromkeys(players[s] for s in seats))


def confirm_table(
    event: Event,
    table: EventTable,
    name: Any,
    director: str | None = None,
    reason: Any = None,
) -> str:
    """A player of the side that did not win confirms the table's result (events.md, Rounds: "a
    tap on the table's phone, naming who"), once its game has finished or its round closed; an
    earlier round's result may still be confirmed until the event finishes (the last round's
    after it too: its tables end the event). From then on only a director may correct the table.

    ``director`` (their name, as the history names them) confirms for the table, with a
    ``reason`` kept in the history, at any time once the table has finished or its round closed.

    Returns the name kept as ``confirmed_by``; confirming again by the same player changes
    nothing. Through the house gate: of confirms at once by different players one is kept, the
    others are judged again and refused (:class:`~scorekeeper.refusals.Clash`, 409)."""
    if not event.settings.get("confirm"):
        raise not_now(msg(N_("This event does not ask for confirmed results.")))
    why = reason.strip() if isinstance(reason, str) else ""
    if director is not None:
        if not why:
            raise refuse("reason", N_("Give a reason: a director confirms for a table with one."))
        if len(why) > REASON_LENGTH:
            raise refuse("reason", N_("The reason is at most {n} characters."), n=REASON_LENGTH)

    def step() -> house_gate.Step[str]:
        game = db.session.get(Game, table.game_id)
        state = read.table_state(table.game_id)  # the one rule of a closed round, the gate's too
        over = state is not None and state.closed
        if game is None or not (over or read.game_view(game).finished):
            raise not_now(
                msg(
                    N_("Table {table} is still playing: its result is confirmed once its game has finished."),
                    table=table.number,
                )
            )
        match: str | None
        if director is not None:
            match = (director or "director")[:40]
        else:
            allowed = confirmers(event, table, game)
            given = name.strip().casefold() if isinstance(name, str) else None
            match = next((p for p in allowed if p.casefold() == given), None)
            if match is None:
                raise refuse(
                    "by",
                    N_("Who did not win confirms the result: choose one of {names}."),
                    names=", ".join(allowed),
                )
        if table.confirmed_by is not None:
            if table.confirmed_by == match:
                raise _Already(match)
            raise not_now(
                msg(
                    N_("Table {table}'s result is already confirmed by {name}."),
                    table=table.number,
                    name=table.confirmed_by,
                )
            )
        last = event.settings["rounds"]
        if director is None and table.round.number < last and finished(event, table_games(event)):
            raise not_now(
                msg(
                    N_("The event has finished: only its director can confirm an earlier round's result now.")
                )
            )

        def apply() -> Any:
            # A conditional update: of two confirms at once, one finds the table unconfirmed.
            kept = house_gate.rows_changed(
                update(EventTable)
                .where(EventTable.id == table.id, EventTable.confirmed_by.is_(None))
                .values(confirmed_by=match)
            )
            if kept != 1:
                raise house_gate.Retry
            set_committed_value(table, "confirmed_by", match)
            done = {"round": table.round.number, "table": table.number, "by": match}
            return {**done, "reason": why} if director is not None else done

        return house_gate.Step(match, apply, "confirm")

    by = director if director is not None else name if isinstance(name, str) else ""
    try:
        return house_gate.change(event, step, by=by[:80])
    except _Already as same:
        return same.name


class _Already(Exception):
    """The same player confirmed already: nothing to write, the same answer."""

    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


def corrections(event: Event) -> list[dict[str, Any]]:
    """The changes a director made at a table after its round closed (or its result was
    confirmed), oldest first: round, table, the change, its reason and who gave it. Read from
    the table games' history (where the write gate keeps them), never stored apart."""
    where = {t.game_id: (r.number, t.number) for r in event.rounds for t in r.tables}
    if not where:
        return []
    changes = db.session.scalars(
        select(Change)
        .where(Change.game_id.in_(list(where)), Change.reason.is_not(None))
        .order_by(Change.created_at, Change.id)
    )
    return [
        {
            "round": where[c.game_id][0],
            "table": where[c.game_id][1],
            "deal": None if c.deal_index is None else c.deal_index + 1,
            "change": c,
            "reason": c.reason,
            "by": c.given_by,
        }
        for c in changes
    ]


def history(event: Event) -> list[HouseChange]:
    """Every change the house gate recorded for the event, oldest first: what, when, who."""
    return list(
        db.session.scalars(
            select(HouseChange).where(HouseChange.event_id == event.id).order_by(HouseChange.id)
        )
    )


# -- standings --------------------------------------------------------------------------------


def compute_standings(event: Event, games: Mapping[str, Game] | None = None) -> list[standings.Standing]:
    """The standings, as the event's format ranks them, from the tables' games now."""
    games = table_games(event) if games is None else games
    names = [entrant_name(event, e) for e in range(len(event.entrants))]
    return formats.of(event.format).standings(event, games, names)


# -- the event document -----------------------------------------------------------------------


def round_status(event: Event, number: int, games: Mapping[str, Game]) -> str:
    if number > len(event.rounds):
        return "planned"
    return "done" if round_done(event.rounds[number - 1], games) else "playing"


def finished(event: Event, games: Mapping[str, Game]) -> bool:
    """Over once its last round has ended (events.md, Season): every round of ``rounds`` played,
    or a knockout's final (its rounds count until one pair is left)."""
    total = event.settings["rounds"]
    return len(event.rounds) >= total and round_done(event.rounds[total - 1], games)


def signature(event_id: str) -> tuple[int, int, int, datetime | None] | None:
    """What the event's document depends on, in one query whatever the number of tables: the
    event's own version, its table games' count and summed versions (a table's every write
    bumps its game's version), and when the latest round's clock runs out. None: no such event."""
    row = db.session.execute(
        select(
            Event.version,
            func.count(Game.id),
            func.coalesce(func.sum(Game.version), 0),
            func.max(EventRound.ends_at),
        )
        .select_from(Event)
        .outerjoin(EventRound, EventRound.event_id == Event.id)
        .outerjoin(EventTable, EventTable.round_id == EventRound.id)
        .outerjoin(Game, Game.id == EventTable.game_id)
        .where(Event.id == event_id)
        .group_by(Event.version)
    ).first()
    return None if row is None else (int(row[0]), int(row[1]), int(row[2]), row[3])


def document(event: Event, director: bool = False, render=None, language: str = "") -> dict[str, Any]:
    """The event document of events.md; tables' edit keys for directors only.

    The public document is kept per :func:`signature` (and language) in the shared cache: a
    board polled by every phone in the hall is worked out once per change at any table.
    """
    sig = signature(event.id)
    made = cache.remember(  # the clock is not part of the document: its three figures key it
        cache.key("event-doc", event.id, sig[:3] if sig else None, language),
        lambda: _document(event, render),
        objects=True,
    )
    if not director:
        return made
    doc = copy.deepcopy(made)
    doc["table_links"] = table_links.table_links(event)  # one per table, the whole event
    if event.settings.get("check_in"):
        doc["check_in_link"] = check_in_url(event)
    for rnd in doc["rounds"]:
        for table in rnd["tables"]:
            if table["game"]:
                table["edit_key"] = table_key(table["game"])
    return doc


def check_in_url(event: Event) -> str:
    """The check-in link, ``/e/<id>/arrive/<token>`` (whole when a request names the host)."""
    path = f"/e/{event.id}/arrive/{check_in_token(event)}"
    return request.host_url.rstrip("/") + path if has_request_context() else path


def _document(event: Event, render=None) -> dict[str, Any]:
    games = table_games(event)
    render = render or (lambda m: m.render())
    rounds = []
    for number in range(1, event.settings["rounds"] + 1):
        status = round_status(event, number, games)
        started = event.rounds[number - 1] if number <= len(event.rounds) else None
        if started is not None:
            tables = []
            for table in started.tables:
                game = games[table.game_id]
                view = read.game_view(game)
                row: dict[str, Any] = {
                    "table": table.number,
                    "seats": seat_names(event, table.seats),
                    "game": game.id,
                    "hands_played": GAMES[event.kind].counted_deals(view.result),
                    "finished": view.finished,
                }
                if event.settings.get("confirm"):
                    row["confirmed_by"] = table.confirmed_by
                tables.append(row)
            sitting = list(started.sitting_out)
        elif number <= len(event.schedule):
            planned = event.schedule[number - 1]
            tables = [
                {
                    "table": i + 1,
                    "seats": seat_names(event, seats),
                    "game": None,
                    "hands_played": 0,
                    "finished": False,
                }
                for i, seats in enumerate(planned["tables"])
            ]
            sitting = list(planned["sitting_out"])
        else:
            tables, sitting = [], []  # a Swiss or knockout round: paired when it starts
        out_names = [n for e in sitting for n in _entrant_players(event, e)]
        entry: dict[str, Any] = {
            "number": number,
            "status": status,
            "tables": tables,
            "sitting_out": out_names,
        }
        if started is not None and started.ends_at is not None:
            entry["ends_at"] = started.ends_at.isoformat() + "Z"
        rounds.append(entry)
    return {
        "id": event.id,
        "name": event.name,
        "format": event.format,
        "game": event.kind,
        "pairing": event.settings.get("pairing"),
        "options": dict(event.options),
        "players": [entrant_name(event, e) for e in range(len(event.entrants))],
        "withdrawn": [entrant_name(event, e) for e in event.withdrawn],
        "rounds": rounds,
        "finished": finished(event, games),
        "standings": [
            _standing_json(event, s, render)
            for s in compute_standings(event, games)
            if s.entrant not in _never_played(event)
        ],
    }


def _never_played(event: Event) -> set[int]:
    """Withdrawn players who were in no started round (an arrival removed by the director):
    they have no standing."""
    present = {e for r in event.rounds for t in r.tables for e in t.seats}
    present |= {e for r in event.rounds for e in r.sitting_out}
    return {e for e in event.withdrawn or () if e not in present}


def _entrant_players(event: Event, entrant: int) -> list[str]:
    found = event.entrants[entrant]
    return list(found) if isinstance(found, list) else [found]


def _standing_json(event: Event, s: standings.Standing, render) -> dict[str, Any]:
    out: dict[str, Any] = {
        "rank": s.rank,
        "name": s.name,
        "points": standings.plain(s.points),
        "by_round": [None if v is None else standings.plain(v) for v in s.by_round],
    }
    for key, value in s.figures.items():
        out[key] = standings.plain(value)
    out["tiebreak"] = [render(note) for note in s.notes]
    return out
