"""What an event format is: one class per format (events.md, Formats), registered in
:data:`scorekeeper.events.formats.FORMATS`. A new format is one file beside these and one line
in the registry: it checks its entry and its own settings (:class:`Option`: the API's field, its
check, the new-event page's field and words), plans or pairs the seating, ranks the standings
(with the tie-break notes) and names its extra columns and template fragment; the service, the
pages, the prints and the CSV ask it and never branch on the format's name.

Its seating and standings are pure: :meth:`Format.seat` and :meth:`Format.rank` take a
:class:`~scorekeeper.events.played.Play` (plain values) and no ORM row; the two methods the
service calls with the event's rows read it once (:func:`scorekeeper.events.played.of`).
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...models import Event, Game
from ...refusals import refuse
from ...rules import N_
from ...rules import Game as Rules
from .. import played, seating, standings
from ..entrants import player_names, round_data
from ..played import Play, RoundPlay
from ..standings import Standing


@dataclass(frozen=True)
class Entry:
    """A format's checked entry: who plays (names, or pairs of names), the table size, the pairing."""

    entrants: list[Any]
    table_size: int = 4
    pairing: str | None = None
    shuffle: bool = False  # a ladder's round 1 shuffled, not in the order given


@dataclass(frozen=True)
class Field:
    """How the new-event page asks an option (a WTForms field made by the web side, rendered
    without JavaScript): a box to tick or a choice of values. Its words are msgids (N_), each
    translated where it is shown."""

    label: str
    kind: str = "check"  # "check": a box; "select": one of ``choices``
    description: str | None = None
    choices: tuple[tuple[str, str], ...] = ()  # (value, msgid)
    default: Any = None
    # Shown just under the format's choice ("format"), or with the other boxes at the end.
    near: str = "end"
    # A ticked box sends this in the API body; a choice sends its value.
    sends: Any = True
    # Sent whatever format is chosen (for the service to refuse, by name), or only with its own.
    always: bool = False


class Option:
    """A setting one format owns (a pairs event's pairing, a ladder's shuffle): its field in the
    API's body and in the stored settings, how its format checks it, what every other format
    stores for it and says when given it, and how the new-event page asks it (:class:`Field`)."""

    key = ""
    default: Any = None  # stored by every other format, and by its own when not given
    field: Field | None = None
    # Its JSON Schema in the API's description of a new event (EventInput's property), with
    # the words a client reads (English, as the rest of the description).
    schema: Mapping[str, Any] = {}

    def check(self, data: Mapping[str, Any], entry: Entry) -> Any:
        """Its format's value for it, from the API's body (refusing what it does not take)."""
        return data.get(self.key, self.default)

    def elsewhere(self, data: Mapping[str, Any]) -> None:
        """Another format was given it: refuse (by its field), or let it pass unused."""

    def stored(self, value: Any) -> bool:
        """Whether a backup's stored value is one the API could have stored."""
        return True


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
    # What a round not seated yet says (a msgid): pairs, Swiss and knockout pair from the
    # standings; a planned format's rounds are all seated at the start and never say it.
    unseated_note = N_("Paired from the standings when it starts.")
    # Its entrants are pairs typed "Ann & Bob" (a pairs event), not players.
    takes_pairs = False
    # With check-in, its seating is planned again at every arrival before round 1 (shown on the
    # board as the list fills); False: planned once, when round 1 starts (a mixer's plan costs
    # seconds at 60 players: every arrival would wait for it).
    plans_at_the_door = True
    # The settings it owns (:class:`Option`), checked by it and asked by the new-event page.
    options: tuple[Option, ...] = ()

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
        if len(entrants) < 4 and data.get("check_in") is not True:  # check-in: the door fills it
            raise refuse("players", N_("At least {n} players: one full table."), n=4)
        return Entry(entrants)

    def default_hands(self, kind: str) -> int | None:
        return None

    def ties_broken(self, entry: Entry) -> bool:
        """Whether its tables break a tie on hands by default (a knockout's must have a winner)."""
        return False

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
        """Round ``number``'s seating when it starts, from the event's rows: read, then :meth:`seat`."""
        return self.seat(played.of(event, games), number)

    def seat(self, play: Play, number: int) -> dict[str, Any]:
        """Round ``number``'s seating when it starts, a pure function of what was played: as
        planned, unless the format pairs by results."""
        return dict(play.schedule[number - 1])

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
        """The standings from the event's rows: read, then :meth:`rank`."""
        return self.rank(played.of(event, games), names)

    def rank(self, play: Play, names: list[str]) -> list[Standing]:
        """The standings, a pure function of what was played (``names``: each entrant's)."""
        raise NotImplementedError

    def columns(self, pairing: str | None) -> list[Column]:
        return [Column("points", N_("Points"), True)]


def rounds_data(made: Sequence[seating.Round]) -> list[dict[str, Any]]:
    return [round_data(r) for r in made]


def played_in(rnd: RoundPlay) -> dict[int, standings.Played]:
    """Each entrant who played round ``rnd``, by entrant: their seat's total at their table (none
    shown yet: 0) and the lone hands they made there (a partnership format's standings count both)."""
    return {
        entrant: standings.Played(table.totals[seat] or 0, table.loners.get(seat, 0))
        for table in rnd.tables
        for seat, entrant in enumerate(table.seats)
    }


def absences(play: Play) -> tuple[str | int, str, frozenset[int]]:
    """How the standings count a round an entrant did not play, as the event's settings say: a
    round sat out (``sit_out``: "average", the default, or so many points), one before arriving
    late (``late``: "sit_out", the default, or "zero"), and who withdrew."""
    return play.settings.get("sit_out", "average"), play.settings.get("late", "sit_out"), play.withdrawn
