"""``mixer`` (events.md): individual play at tables of any game's size; players meet as many
others as possible; standings by placing points."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ...refusals import refuse
from ...rules import N_, msg
from ...rules import Game as Rules
from .. import seating, standings
from ..entrants import int_field, player_names
from ..played import Play
from .base import Column, Entry, Format, Option, absences, rounds_data


class TableSize(Option):
    """A mixer's players a table, any the game allows (the page leaves it to the game's usual)."""

    key = "table_size"
    default = 4
    schema = {
        "type": "integer",
        "minimum": 1,
        "description": "mixer only: how many sit at a table (the game's counts; 4 when it allows 4).",
    }

    def check(self, data: Mapping[str, Any], entry: Entry) -> Any:
        return entry.table_size  # checked with the entrants, against the game (Mixer.check)

    def elsewhere(self, data: Mapping[str, Any]) -> None:
        raise refuse("table_size", N_("Only a mixer chooses its table size."))

    def stored(self, value: Any) -> bool:
        # The game judges it with the options (checks.check_stored).
        return isinstance(value, int) and not isinstance(value, bool) and 2 <= value <= 20


class Mixer(Format):
    key = "mixer"
    label = N_("Mixer (everyone for themselves, new tables each round)")
    partnership = False
    plans_at_the_door = False
    options = (TableSize(),)

    def title(self, pairing: str | None) -> str:
        return N_("Mixer")

    def check(self, data: Mapping[str, Any], kind: str, rules: Rules, options: dict[str, Any]) -> Entry:
        if "pairs" in data:
            raise refuse("pairs", N_("Only a pairs event gives pairs; give players instead."))
        entrants = player_names(data.get("players", [] if data.get("check_in") is True else None), "players")
        allowed = rules.allowed_player_counts({o.key: options.get(o.key, o.default) for o in rules.options})
        default = 4 if 4 in allowed else max(allowed)
        table_size = int_field(data, "table_size", min(allowed), max(allowed), default)
        if table_size not in allowed:
            raise refuse(
                "table_size",
                N_("{game} is played by {counts} players."),
                game=msg(rules.title),
                counts=", ".join(str(n) for n in allowed),
            )
        if len(entrants) < table_size and data.get("check_in") is not True:  # the door fills it
            raise refuse("players", N_("At least {n} players: one full table."), n=table_size)
        return Entry(entrants, table_size)

    def plan(self, count: int, rounds: int, entry: Entry) -> list[dict[str, Any]]:
        return rounds_data(seating.mixer(count, entry.table_size, rounds).rounds)

    def reseat(
        self,
        entrants: int,
        players: Sequence[int],
        before: list[seating.Round],
        remaining: int,
        size: int,
        shuffle: bool = False,
    ):
        made = seating.mixer(len(players), size, remaining).rounds
        relabel = dict(enumerate(players))
        return [
            seating.Round(
                r.number,
                tuple(seating.Table(t.number, tuple(relabel[p] for p in t.seats)) for t in r.tables),
                tuple(relabel[p] for p in r.sitting_out),
            )
            for r in made
        ]

    def rank(self, play: Play, names: list[str]) -> list[standings.Standing]:
        tables_by_round = [
            [
                standings.TableResult(
                    table.seats,
                    tuple(t or 0 for t in table.totals),
                    table.low_wins,
                    table.winners if table.finished else (),
                )
                for table in rnd.tables
            ]
            for rnd in play.rounds
        ]
        sit_out, late, withdrawn = absences(play)
        sitting_out = [frozenset(r.sitting_out) for r in play.rounds]
        return standings.mixer(names, tables_by_round, sit_out, sitting_out, late, withdrawn)

    def columns(self, pairing: str | None) -> list[Column]:
        return [Column("points", N_("Placing points"), True), Column("game_points", N_("Game points"))]


FORMAT = Mixer()
