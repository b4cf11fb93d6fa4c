""" "Fixed": a fifth event format nobody has yet, written as one file into a temporary directory
and registered with one line (:func:`scorekeeper.events.formats.register`), to show that a format
is its file plus that line. Nobody moves: every round seats the same tables, in the order the
players were listed; the standings are the points made, summed, or (its own setting
``count``: "wins") the tables won.

Nothing here is written outside that file: the whole format is :data:`SOURCE`.
"""

from __future__ import annotations

from contextlib import AbstractContextManager
from pathlib import Path

from scorekeeper.events import formats
from tests.plugged import plugged_in

NAME = "fixed_format"

SOURCE = """
from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from scorekeeper.events import seating, standings
from scorekeeper.events.formats.base import Column, Entry, Field, Format, Option, rounds_data
from scorekeeper.events.played import Play
from scorekeeper.refusals import refuse
from scorekeeper.rules import N_


class Count(Option):
    key = "count"
    schema = {"enum": ["points", "wins", None], "description": "fixed: rank by points or by tables won"}
    field = Field(
        N_("Rank by (fixed tables)"),
        "select",
        choices=(("points", N_("Points")), ("wins", N_("Tables won"))),
        default="points",
        near="format",
    )

    def check(self, data: Mapping[str, Any], entry: Entry) -> Any:
        value = data.get("count", "points")
        if value not in ("points", "wins"):
            raise refuse("count", N_("Rank by points or wins."))
        return value

    def elsewhere(self, data: Mapping[str, Any]) -> None:
        if data.get("count") is not None:
            raise refuse("count", N_("Only fixed tables rank by wins."))

    def stored(self, value: Any) -> bool:
        return value in (None, "points", "wins")


def tables(order: Sequence[int], size: int, number: int = 1) -> seating.Round:
    seated = len(order) - len(order) % size
    made = tuple(
        seating.Table(n + 1, tuple(order[i : i + size])) for n, i in enumerate(range(0, seated, size))
    )
    return seating.Round(number, made, tuple(order[seated:]))


class Fixed(Format):
    key = "fixed"
    label = N_("Fixed tables (nobody moves)")
    options = (Count(),)

    def title(self, pairing: str | None) -> str:
        return N_("Fixed tables")

    def plan(self, count: int, rounds: int, entry: Entry) -> list[dict[str, Any]]:
        return rounds_data([tables(range(count), entry.table_size, n) for n in range(1, rounds + 1)])

    def seat(self, play: Play, number: int) -> dict[str, Any]:
        return dict(play.schedule[0])  # nobody moves

    def reseat(self, entrants: int, players: Sequence[int], before: list, remaining: int, size: int, shuffle: bool = False):
        first = len(before) + 1
        return [tables(players, size, n) for n in range(first, first + remaining)]

    def rank(self, play: Play, names: list[str]) -> list[standings.Standing]:
        wins = play.settings.get("count") == "wins"

        def made(t, s):
            return int(t.finished and s in t.winners) if wins else t.totals[s] or 0

        scores = [
            standings.RoundScores(
                {e: standings.Played(made(t, s)) for t in r.tables for s, e in enumerate(t.seats)},
                frozenset(r.sitting_out),
            )
            for r in play.rounds
        ]
        return standings.progressive(names, scores, "average", "sit_out", play.withdrawn)

    def columns(self, pairing: str | None) -> list[Column]:
        return [Column("points", N_("Points"), True)]


FORMAT = Fixed()
"""


def write_file(root: Path) -> None:
    """The format's one file, as the module ``fixed_format`` under ``root``."""
    root.mkdir(parents=True, exist_ok=True)
    (root / f"{NAME}.py").write_text(SOURCE, encoding="utf-8")


def installed(root: Path) -> AbstractContextManager[formats.Format]:
    """``with installed(root) as fmt:`` the file written under ``root``, importable and registered
    (the one registry line a format needs), for the block."""
    return plugged_in(root, NAME, write_file, formats.register, lambda: formats.unregister("fixed"))
