"""Checking a new event (events.md, JSON API) and planning its seating as data: what the
creation call and the new-event page both refuse, field by field, before anything is stored.

Pure of Flask and the database, like the seating it plans with (:mod:`.seating`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..games import GAMES, event_traits
from ..refusals import Refusal, refuse
from ..rules import N_, FieldError, Msg, check_setup, msg
from ..rules.base import UNSAFE_NAME, unsafe_name
from .entrants import MAX_ENTRANTS, check_size, int_field, matches_data, player_names, round_data
from .formats import FORMATS, Entry
from .formats import options as format_options

NAME_LENGTH = 80
MAX_ROUNDS = 60

__all__ = ["MAX_ENTRANTS", "check_event", "check_size", "matches_data", "plan", "player_names", "round_data"]


def partnership_games() -> Msg:
    """The games whose folders say they seat partnerships (their event traits), by their titles,
    each translated where the refusal is read: the refusals name no game by hand."""
    titles = [msg(rules.title) for key, rules in GAMES.items() if event_traits(key).partnership]
    joined = titles[0]
    for title in titles[1:]:
        # TRANSLATORS: a list of game names, one more added at its end.
        joined = msg(N_("{names}, {name}"), names=joined, name=title)
    return joined


def check_event(data: Any, most: int = MAX_ENTRANTS) -> dict[str, Any]:
    """The event as it will be stored: settings with their defaults, entrants and frozen options
    (at most ``most`` players, checked first).

    What belongs to one format (its entrants, table size, pairing, rounds) its class checks
    (:mod:`.formats`); what every event shares is checked here.
    """
    if not isinstance(data, Mapping):
        raise refuse("event", N_("An event must be a JSON object."))
    for field, per in (("players", 1), ("pairs", 2)):
        if isinstance(data.get(field), list):
            check_size(per * len(data[field]), field, most)
    # Each format's own settings (a pairing, a shuffle, a mixer's table size) are its file's.
    owned = format_options()
    known = {
        "name", "format", "game", "players", "pairs", "rounds", "hands", "minutes", "sit_out",
        "confirm", "options", "late", "check_in",
    } | set(owned)  # fmt: skip
    unknown = sorted(set(data) - known)
    if unknown:
        raise refuse(unknown[0] or "event", N_("{what} is not part of an event."), what=repr(unknown[0]))
    name = data.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= NAME_LENGTH:
        raise refuse("name", N_("Give the event a name of 1 to {n} characters."), n=NAME_LENGTH)
    if unsafe_name(name.strip()):
        raise refuse("name", UNSAFE_NAME)
    key = data.get("format")
    fmt = FORMATS.get(key) if isinstance(key, str) else None
    if fmt is None:
        raise refuse("format", N_("The format is one of: {choices}."), choices=", ".join(FORMATS))
    kind = data.get("game")
    rules = GAMES.get(kind) if isinstance(kind, str) else None
    if rules is None:
        raise refuse("game", N_("Unknown game; known games: {games}."), games=", ".join(GAMES))
    assert isinstance(kind, str)  # a known game's key
    traits = event_traits(kind)
    if fmt.partnership and not traits.partnership:
        raise refuse(
            "game",
            N_("Pairs and progressive events play a game of partnerships: {games}."),
            games=partnership_games(),
        )
    options = data.get("options", {})
    if not isinstance(options, Mapping):
        raise refuse("options", N_("Options are an object of the game's options."))
    options = dict(options)
    if fmt.partnership:
        options.update(traits.partnership_options)
    entry = fmt.check(data, kind, rules, options)
    own = {o.key for o in fmt.options}
    for key, option in owned.items():  # another format's setting: refused or unused, as it says
        if key in data and key not in own:
            option.elsewhere(data)
    count = len(entry.entrants)
    hands = int_field(data, "hands", 1, 100, fmt.default_hands(kind))
    if hands is not None and not traits.partnership:
        raise refuse(
            "hands",
            N_("Only games of partnerships are played for a number of hands: {games}."),
            games=partnership_games(),
        )
    if hands is not None:
        options["hands"] = hands
        options.setdefault("hands_tiebreak", fmt.ties_broken(entry))
        if fmt.never_tied:  # a ladder's table never ends tied: someone moves up (events.md)
            options["hands_tiebreak"] = True
    # The house rules are checked once, as every table will be set up.
    errors, _ = check_setup(rules, [f"P{i}" for i in range(entry.table_size)], options, 0)
    if errors:
        raise Refusal(errors=[FieldError("options", e.message) for e in errors])
    options = {o.key: options.get(o.key, o.default) for o in rules.options}
    sit_out = data.get("sit_out", "average")
    if sit_out != "average" and (
        not isinstance(sit_out, int) or isinstance(sit_out, bool) or abs(sit_out) > 10_000
    ):
        raise refuse("sit_out", N_('A sit-out scores "average" or a whole number of points.'))
    late = data.get("late", "sit_out")
    if late not in ("sit_out", "zero"):
        raise refuse("late", N_('A late arrival scores "sit_out" (what a sit-out scores) or "zero".'))
    check_in = data.get("check_in", False)
    if not isinstance(check_in, bool):
        raise refuse("check_in", N_("Check-in is true or false."))
    if check_in and not fmt.accepts_players:
        raise refuse("check_in", N_("Check-in at the door is for events of players, not of pairs."))
    confirm = data.get("confirm", False)
    if not isinstance(confirm, bool):
        raise refuse("confirm", N_("Confirm is true or false."))
    # Every format's settings are stored (another format's at its default), its own as it checks them.
    own_settings = {key: option.default for key, option in owned.items()}
    own_settings.update({o.key: o.check(data, entry) for o in fmt.options})
    minutes = int_field(data, "minutes", 1, 600)
    rounds = int_field(data, "rounds", 1, MAX_ROUNDS)
    # With check-in and no rounds given, the length follows tonight's list until round 1 starts.
    rounds_auto = check_in and rounds is None
    if rounds is None:
        rounds = fmt.default_rounds(max(count, entry.table_size), entry)
    rounds = fmt.fixed_rounds(count, entry) or rounds
    return {
        "name": name.strip(),
        "format": fmt.key,
        "kind": kind,
        "options": options,
        "entrants": entry.entrants,
        "settings": {
            "rounds": rounds,
            "hands": hands,
            "minutes": minutes,
            "sit_out": sit_out,
            "confirm": confirm,
            **own_settings,
            "late": late,
            "check_in": check_in,
            "rounds_auto": rounds_auto,
        },
    }


def plan(
    fmt: str, pairing: str | None, count: int, rounds: int, table_size: int, shuffle: bool = False
) -> list[dict[str, Any]]:
    """Every round's seating as data (entrant numbers), made when the event is created.

    Swiss, knockout and ladder rounds after the first depend on results: only round 1 is planned.
    Fewer players than a table (an event filled by check-in at the door): nothing yet.
    """
    if FORMATS[fmt].accepts_players and count < table_size:
        return []
    return FORMATS[fmt].plan(count, rounds, Entry([None] * count, table_size, pairing, shuffle))


# -- an event read back from a backup ----------------------------------------------------------

# The settings every event stores; each format's own (format_options) are stored beside them.
SETTINGS = {"rounds", "hands", "minutes", "sit_out", "confirm", "late", "check_in", "rounds_auto"}


def _whole(value: Any, low: int, high: int) -> bool:
    return isinstance(value, int) and not isinstance(value, bool) and low <= value <= high


def _entrant_numbers(value: Any, count: int, what: str) -> list[int]:
    """A stored list of entrant numbers, each an entrant of the event."""
    if not isinstance(value, list) or not all(_whole(v, 0, count - 1) for v in value):
        raise ValueError(f"“{what}” must be a list of the event's entrant numbers (0 to {count - 1})")
    return value


def check_stored(
    row: Mapping[str, Any],
    rounds: Sequence[tuple[Any, Any, Sequence[Any]]] = (),
    most: int = MAX_ENTRANTS,
) -> None:
    """An event as the database holds it (a backup's row), held to what creating and changing it
    through the API could have stored: its settings in their bounds (at most :data:`MAX_ROUNDS`
    rounds, not 10^9), its entrants named as the API names them (at most ``most``), its options
    the game's, every seat and sit-out an entrant. ``rounds``: each started round's number,
    sitting-out list and tables' seats. ValueError names the first problem in words (the
    import's messages are the operator's, in English, as the rest of the restore's).
    """
    key, kind = row.get("format"), row.get("kind")
    fmt = FORMATS.get(key) if isinstance(key, str) else None
    if fmt is None:
        raise ValueError(f"“format” must be one of: {', '.join(FORMATS)}")
    rules = GAMES.get(kind) if isinstance(kind, str) else None
    if rules is None:
        raise ValueError(f"“kind” must be one of: {', '.join(GAMES)}")
    if fmt.partnership and not event_traits(rules.key).partnership:
        raise ValueError(f"a {fmt.key} event plays a partnership game")
    name = row.get("name")
    if not isinstance(name, str) or not 1 <= len(name.strip()) <= NAME_LENGTH or unsafe_name(name.strip()):
        raise ValueError(f"“name” must be an event's name of 1 to {NAME_LENGTH} characters")
    settings = row.get("settings")
    owned = format_options()
    allowed = SETTINGS | set(owned)
    if not isinstance(settings, Mapping) or not set(settings) <= allowed:
        raise ValueError(f"“settings” must be an object of {', '.join(sorted(allowed))}")
    size = settings.get("table_size", 4)
    checks = {
        "rounds": _whole(settings.get("rounds"), 1, MAX_ROUNDS),
        "hands": settings.get("hands") is None or _whole(settings.get("hands"), 1, 100),
        "minutes": settings.get("minutes") is None or _whole(settings.get("minutes"), 1, 600),
        "sit_out": settings.get("sit_out", "average") == "average"
        or _whole(settings.get("sit_out"), -10_000, 10_000),
        "confirm": isinstance(settings.get("confirm", False), bool),
        **{key: option.stored(settings.get(key, option.default)) for key, option in owned.items()},
        "late": settings.get("late", "sit_out") in ("sit_out", "zero"),
        "check_in": isinstance(settings.get("check_in", False), bool),
        "rounds_auto": isinstance(settings.get("rounds_auto", False), bool),
    }
    bad = [field for field, ok in checks.items() if not ok]
    if bad:
        raise ValueError(f"“settings”: “{bad[0]}” is not a value the API would store")
    options = row.get("options")
    if not isinstance(options, Mapping) or not set(options) <= {o.key for o in rules.options}:
        raise ValueError(f"“options” must be an object of the {rules.key} game's options")
    errors, _ = check_setup(rules, [f"P{i}" for i in range(size)], dict(options), 0)
    if errors:
        raise ValueError(f"“options”: {errors[0].message.render()}")
    entrants = row.get("entrants")
    # An evening filled at the door (check-in) may have nobody on its list yet.
    if not isinstance(entrants, list) or not (entrants or settings.get("check_in")):
        raise ValueError("“entrants” must be a list of players or pairs")
    if fmt.takes_pairs:
        if not all(isinstance(p, list) and len(p) == 2 for p in entrants):
            raise ValueError("“entrants” of a pairs event must be pairs of two names")
        names = [n for p in entrants for n in p]
    else:
        names = entrants
    try:
        player_names(names, "entrants", most)
    except Refusal as exc:
        raise ValueError(f"“entrants”: {exc.message.render()}") from None
    if any(n != n.strip() for n in names):
        raise ValueError("“entrants”: a name is stored without spaces around it")
    count = len(entrants)
    withdrawn = _entrant_numbers(row.get("withdrawn", []), count, "withdrawn")
    if len(set(withdrawn)) < len(withdrawn):
        raise ValueError("“withdrawn” names an entrant twice")
    schedule = row.get("schedule")
    if not isinstance(schedule, list) or len(schedule) > settings["rounds"]:
        raise ValueError("“schedule” must be a list of at most one seating a round")
    for number, planned in enumerate(schedule, 1):
        if not isinstance(planned, Mapping) or set(planned) != {"tables", "sitting_out"}:
            raise ValueError(f"“schedule” round {number} must be an object of tables and sitting_out")
        _seating(planned["tables"], planned["sitting_out"], count, size, f"schedule round {number}")
    numbers = set()
    for number, sitting_out, tables in rounds:
        if not _whole(number, 1, settings["rounds"]) or number in numbers:
            raise ValueError(
                f"round {number!r}: a round's number is from 1 to the event's {settings['rounds']}"
            )
        numbers.add(number)
        _seating(list(tables), sitting_out, count, size, f"round {number}")


def _seating(tables: Any, sitting_out: Any, count: int, size: int, where: str) -> None:
    """One round's seating: tables of at most ``size`` entrants' numbers, and who sits out."""
    if not isinstance(tables, list) or len(tables) > count:
        raise ValueError(f"{where}: “tables” must be a list of tables")
    for seats in tables:
        seated = _entrant_numbers(seats, count, f"{where}, seats")
        if not 1 <= len(seated) <= size:
            raise ValueError(f"{where}: a table seats 1 to {size}")
    _entrant_numbers(sitting_out, count, f"{where}, sitting_out")
