"""What an event format is: one class per format (events.md, Formats), registered in
:data:`scorekeeper.events.formats.FORMATS`. A new format is one file beside these and one line
in the registry: it checks its entry, plans or pairs the seating, ranks the standings (with the
tie-break notes) and names its extra columns and template fragment; the service, the pages, the
prints and the CSV ask it and never branch on the format's name.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...games import event_traits
from ...models import Event, Game
from ...refusals import refuse
from ...rules import N_
from ...rules import Game as Rules
from .. import seating, standings
from ..entrants import player_names, round_data


@dataclass(frozen=True)
class Entry:
    """A format's checked entry: who plays (names, or pairs of names), the table size, the pairing."""

    entrants: list[Any]
    table_size: int = 4
    pairing: str | None = None
    shuffle: bool = False  # a ladder's round 1 shuffled, not in the order given


@dataclass(frozen=True)
class Column:
    """An extra standings column: the standing's key, its header (a msgid), shown strong or not."""

    key: str
    header: str
    strong: bool = False


class Format:
    key = ""
    label = ""  # the new-event form's choice (a msgid)
    # Its tables seat partnerships (seats 0+2 v 1+3): Euchre or partnership Spades only.
    partnership = True
    # Players may join late or withdraw between rounds (later rounds re-seated).
    accepts_players = True
    # Its own template fragment for the standings' extra cells (None: the columns' values).
    fragment: str | None = None
    # Its tables never end tied (hands_tiebreak forced on): a ladder's, where someone moves up.
    never_tied = False
    # Round 1 may be shuffled ("shuffle": true) instead of seated in the order given.
    shuffles = False
    # What a round not seated yet says (a msgid): pairs, Swiss and knockout pair from the
    # standings; a planned format's rounds are all seated at the start and never say it.
    unseated_note = N_("Paired from the standings when it starts.")
    # Its entrants are pairs typed "Ann & Bob" (a pairs event), not players.
    takes_pairs = False
    # With check-in, its seating is planned again at every arrival before round 1 (shown on the
    # board as the list fills); False: planned once, when round 1 starts (a mixer's plan costs
    # seconds at 60 players: every arrival would wait for it).
    plans_at_the_door = True

    def entrants_a_table(self, settings: Mapping[str, Any]) -> int:
        """How many entrants one table seats: its players (a mixer chooses its table size)."""
        return max(int(settings.get("table_size") or 4), 1)

    def title(self, pairing: str | None) -> str:
        return self.label

    def check(self, data: Mapping[str, Any], kind: str, rules: Rules, options: dict[str, Any]) -> Entry:
        """The entrants (and table size, pairing) this format takes, refusing what it does not."""
        if "pairs" in data:
            raise refuse("pairs", N_("Only a pairs event gives pairs; give players instead."))
        entrants = player_names(data.get("players", [] if data.get("check_in") is True else None), "players")
        if "table_size" in data:
            raise refuse("table_size", N_("Only a mixer chooses its table size."))
        if len(entrants) < 4 and data.get("check_in") is not True:  # check-in: the door fills it
            raise refuse("players", N_("At least {n} players: one full table."), n=4)
        return Entry(entrants)

    def default_hands(self, kind: str) -> int | None:
        return None

    def default_rounds(self, count: int, entry: Entry) -> int:
        return max(1, min(seating.MAX_DEFAULT_ROUNDS, math.ceil((count - 1) / max(entry.table_size - 1, 1))))

    def fixed_rounds(self, count: int, entry: Entry) -> int | None:
        """A number of rounds the format sets itself whatever was asked (a knockout's), else None."""
        return None

    def plan(self, count: int, rounds: int, entry: Entry) -> list[dict[str, Any]]:
        """Every round's seating as data (entrant numbers) that can be made at creation."""
        raise NotImplementedError

    def seat_names(self, event: Event, seats: Sequence[int]) -> list[str]:
        """The players at a table, clockwise."""
        return [event.entrants[e] for e in seats]

    def seat_entrants(self, seats: Sequence[int]) -> list[int]:
        return list(seats)

    def partners_at(self, seats: Sequence[str]) -> bool:
        """Whether a player's page names a partner and opponents (else the others at the table)."""
        return self.partnership and len(seats) == 4

    def next_seating(self, event: Event, number: int, games: Mapping[str, Game]) -> dict[str, Any]:
        """Round ``number``'s seating when it starts: as planned, unless the format pairs by results."""
        return event.schedule[number - 1]

    def reseat(
        self,
        entrants: int,
        players: Sequence[int],
        before: list[seating.Round],
        remaining: int,
        size: int,
        shuffle: bool = False,
    ):
        raise NotImplementedError

    def standings(
        self, event: Event, games: Mapping[str, Game], names: list[str]
    ) -> list[standings.Standing]:
        raise NotImplementedError

    def columns(self, pairing: str | None) -> list[Column]:
        return [Column("points", N_("Points"), True)]


def rounds_data(made: Sequence[seating.Round]) -> list[dict[str, Any]]:
    return [round_data(r) for r in made]


def lone_hands_of(kind: str):
    """The game's lone-hands counter (Euchre's), or None: the standings then count none."""
    return event_traits(kind).lone_hands
