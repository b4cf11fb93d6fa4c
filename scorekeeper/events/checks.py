"""Checking a new event (events.md, JSON API) and planning its seating as data: what the
creation call and the new-event page both refuse, field by field, before anything is stored.

Pure of Flask and the database, like the seating it plans with (:mod:`.seating`).
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from ..games import GAMES
from ..refusals import Refusal, refuse
from ..rules import N_, FieldError, check_setup, msg
from . import seating

FORMATS = ("progressive", "pairs", "mixer")
PAIRINGS = ("round_robin", "swiss", "knockout")
# Partnership games an evening of pairs or progressive tables can play (events.md).
PARTNERSHIP_GAMES = ("euchre", "spades")
DEFAULT_HANDS = {"euchre": 8, "spades": 4}
NAME_LENGTH = 80
PLAYER_NAME = 40
MAX_ENTRANTS = 400
MAX_ROUNDS = 60


# -- checking a new event -----------------------------------------------------------------


def player_names(value: Any, field: str) -> list[str]:
    if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
        raise refuse(field, N_("Give the players as a list of names."))
    names = [v.strip() for v in value]
    for name in names:
        if not 1 <= len(name) <= PLAYER_NAME:
            raise refuse(field, N_("A player's name is 1 to {n} characters."), n=PLAYER_NAME)
    counts = Counter(n.casefold() for n in names)
    clash = [name for name in names if counts[name.casefold()] > 1]  # as typed, not folded
    if clash:
        raise refuse(field, N_("Each player may be listed once: {name} is listed twice."), name=clash[0])
    if len(names) > MAX_ENTRANTS:
        raise refuse(field, N_("At most {n} players."), n=MAX_ENTRANTS)
    return names


def _int(data: Mapping[str, Any], field: str, low: int, high: int, default: Any = None) -> Any:
    value = data.get(field, default)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise refuse(
            field, N_("{what} is a whole number from {low} to {high}."), what=field, low=low, high=high
        )
    return value


def check_event(data: Any) -> dict[str, Any]:
    """The event as it will be stored: settings with their defaults, entrants and frozen options."""
    if not isinstance(data, Mapping):
        raise refuse("event", N_("An event must be a JSON object."))
    known = {
        "name", "format", "game", "players", "pairs", "pairing", "rounds", "hands", "minutes",
        "sit_out", "confirm", "seed", "options", "table_size",
    }  # fmt: skip
    unknown = sorted(set(data) - known)
    if unknown:
        raise refuse(unknown[0] or "event", N_("{what} is not part of an event."), what=repr(unknown[0]))
    name = data.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= NAME_LENGTH:
        raise refuse("name", N_("Give the event a name of 1 to {n} characters."), n=NAME_LENGTH)
    fmt = data.get("format")
    if fmt not in FORMATS:
        raise refuse("format", N_("The format is one of: {choices}."), choices=", ".join(FORMATS))
    kind = data.get("game")
    rules = GAMES.get(kind) if isinstance(kind, str) else None
    if rules is None:
        raise refuse("game", N_("Unknown game; known games: {games}."), games=", ".join(GAMES))
    assert isinstance(kind, str)  # a known game's key
    if fmt != "mixer" and kind not in PARTNERSHIP_GAMES:
        raise refuse("game", N_("Pairs and progressive events play Euchre or partnership Spades."))
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise refuse("options", N_("Options are an object of the game's options."))
    options = dict(options)
    if kind == "spades" and fmt != "mixer":
        options["mode"] = "partnership"
    pairing = None
    if fmt == "pairs":
        pairing = data.get("pairing", "round_robin")
        if pairing not in PAIRINGS:
            raise refuse("pairing", N_("The pairing is one of: {choices}."), choices=", ".join(PAIRINGS))
        raw = data.get("pairs")
        if not isinstance(raw, list) or not all(isinstance(p, list) and len(p) == 2 for p in raw):
            raise refuse("pairs", N_("Give the pairs as a list of two names each."))
        flat = player_names([n for p in raw for n in p], "pairs")
        entrants: list[Any] = [flat[i : i + 2] for i in range(0, len(flat), 2)]
        if len(entrants) < 2:
            raise refuse("pairs", N_("A pairs event needs at least 2 pairs."))
        count = len(entrants)
    else:
        if "pairs" in data:
            raise refuse("pairs", N_("Only a pairs event gives pairs; give players instead."))
        entrants = player_names(data.get("players"), "players")
        count = len(entrants)
    table_size = 4
    if fmt == "mixer":
        allowed = rules.allowed_player_counts({o.key: options.get(o.key, o.default) for o in rules.options})
        default = 4 if 4 in allowed else max(allowed)
        table_size = _int(data, "table_size", min(allowed), max(allowed), default)
        if table_size not in allowed:
            raise refuse(
                "table_size",
                N_("{game} is played by {counts} players."),
                game=msg(rules.title),
                counts=", ".join(str(n) for n in allowed),
            )
    elif "table_size" in data:
        raise refuse("table_size", N_("Only a mixer chooses its table size."))
    if fmt != "pairs" and count < table_size:
        raise refuse("players", N_("At least {n} players: one full table."), n=table_size)
    hands = _int(data, "hands", 1, 100, DEFAULT_HANDS.get(kind) if fmt == "progressive" else None)
    if hands is not None and kind not in PARTNERSHIP_GAMES:
        raise refuse("hands", N_("Only Euchre and Spades are played for a number of hands."))
    if hands is not None:
        options["hands"] = hands
        options.setdefault("hands_tiebreak", pairing == "knockout")
    # The house rules are checked once, as every table will be set up.
    errors, _ = check_setup(rules, [f"P{i}" for i in range(table_size)], options, 0)
    if errors:
        raise Refusal(errors=[FieldError("options", e.message) for e in errors])
    options = {o.key: options.get(o.key, o.default) for o in rules.options}
    sit_out = data.get("sit_out", "average")
    if sit_out != "average" and (
        not isinstance(sit_out, int) or isinstance(sit_out, bool) or abs(sit_out) > 10_000
    ):
        raise refuse("sit_out", N_('A sit-out scores "average" or a whole number of points.'))
    confirm = data.get("confirm", False)
    if not isinstance(confirm, bool):
        raise refuse("confirm", N_("Confirm is true or false."))
    seed = data.get("seed")
    if seed not in (None, "ratings") or (seed and pairing not in ("swiss", "knockout")):
        raise refuse("seed", N_("Seeding by ratings is for Swiss and knockout pairs only."))
    minutes = _int(data, "minutes", 1, 600)
    rounds = _int(data, "rounds", 1, MAX_ROUNDS)
    if rounds is None:
        rounds = default_rounds(fmt, pairing, count, table_size)
    if pairing == "knockout":
        rounds = max(1, (count - 1).bit_length())  # until one pair is left
    return {
        "name": name.strip(),
        "format": fmt,
        "kind": kind,
        "options": options,
        "entrants": entrants,
        "settings": {
            "rounds": rounds,
            "hands": hands,
            "minutes": minutes,
            "sit_out": sit_out,
            "confirm": confirm,
            "pairing": pairing,
            "seed": seed,
            "table_size": table_size,
        },
    }


def default_rounds(fmt: str, pairing: str | None, count: int, table_size: int) -> int:
    if fmt == "progressive":
        return seating.default_rounds(count)
    if fmt == "pairs":
        return seating.rounds_for_pairs(pairing or "round_robin", count)
    return max(1, min(seating.MAX_DEFAULT_ROUNDS, math.ceil((count - 1) / max(table_size - 1, 1))))


def plan(fmt: str, pairing: str | None, count: int, rounds: int, table_size: int) -> list[dict[str, Any]]:
    """Every round's seating as data (entrant numbers), made when the event is created.

    Swiss and knockout rounds after the first depend on results: only round 1 is planned.
    """
    if fmt == "progressive":
        made = seating.progressive(count, rounds).rounds
        return [round_data(r) for r in made]
    if fmt == "mixer":
        return [round_data(r) for r in seating.mixer(count, table_size, rounds).rounds]
    if pairing == "round_robin":
        return [matches_data(m) for m in seating.round_robin(count)[:rounds]]
    if pairing == "swiss":
        return [matches_data(seating.swiss_round(range(count), set(), Counter(), first_round=True))]
    return [matches_data(seating.knockout_first_round(count))]


def round_data(rnd: seating.Round) -> dict[str, Any]:
    return {"tables": [list(t.seats) for t in rnd.tables], "sitting_out": list(rnd.sitting_out)}


def matches_data(matches: Sequence[seating.Match]) -> dict[str, Any]:
    return {
        "tables": [[m.first, m.second] for m in matches if m.second is not None],
        "sitting_out": [m.first for m in matches if m.second is None],
    }
