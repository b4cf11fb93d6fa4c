"""``pairs`` (events.md): fixed partnerships meet other pairs by round robin, Swiss or knockout."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from ...refusals import refuse
from ...rules import N_
from ...rules import Game as Rules
from .. import seating, standings
from ..entrants import matches_data, player_names
from ..played import Play, RoundPlay
from .base import Column, Entry, Field, Format, Option

if TYPE_CHECKING:  # a type only: the format reads no row (its seating and standings take a Play)
    from ...models import Event

PAIRINGS = ("round_robin", "swiss", "knockout")


class Pairing(Option):
    """How the pairs meet: round robin, Swiss (by the standings) or knockout."""

    key = "pairing"
    schema = {"enum": list(PAIRINGS)}
    field = Field(
        N_("Pairing (pairs only)"),
        "select",
        choices=(
            ("round_robin", N_("Round robin (every pair meets every other)")),
            ("swiss", N_("Swiss (paired by the standings)")),
            ("knockout", N_("Knockout")),
        ),
        default="round_robin",
        near="format",
    )

    def check(self, data: Mapping[str, Any], entry: Entry) -> Any:
        return entry.pairing  # checked with the pairs (Pairs.check)

    def stored(self, value: Any) -> bool:
        return value is None or value in PAIRINGS  # another format's is None


class Seed(Option):
    """Swiss and knockout pairs seeded by the club's ratings (the service orders them)."""

    key = "seed"
    schema = {
        "enum": ["ratings", None],
        "description": "Swiss or knockout pairs only: order the pairs by the club's ratings.",
    }
    field = Field(N_("Seed by the club's ratings (Swiss and knockout pairs)"), sends="ratings", always=True)

    def check(self, data: Mapping[str, Any], entry: Entry) -> Any:
        seed = data.get("seed")
        if seed not in (None, "ratings") or (seed and entry.pairing not in ("swiss", "knockout")):
            self.elsewhere({"seed": "ratings"})
        return seed

    def elsewhere(self, data: Mapping[str, Any]) -> None:
        if data.get("seed") is not None:
            raise refuse("seed", N_("Seeding by ratings is for Swiss and knockout pairs only."))

    def stored(self, value: Any) -> bool:
        return value in (None, "ratings")


class Pairs(Format):
    key = "pairs"
    label = N_("Pairs (fixed partnerships)")
    accepts_players = False
    takes_pairs = True
    options = (Pairing(), Seed())

    def entrants_a_table(self, settings: Mapping[str, Any]) -> int:
        return 2  # two pairs a table

    def title(self, pairing: str | None) -> str:
        return {"swiss": N_("Pairs, Swiss"), "knockout": N_("Pairs, knockout")}.get(
            pairing or "", N_("Pairs, round robin")
        )

    def check(self, data: Mapping[str, Any], kind: str, rules: Rules, options: dict[str, Any]) -> Entry:
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
        return Entry(entrants, 4, pairing)

    def ties_broken(self, entry: Entry) -> bool:
        return entry.pairing == "knockout"  # a knockout's table must have a winner

    def default_rounds(self, count: int, entry: Entry) -> int:
        return seating.rounds_for_pairs(entry.pairing or "round_robin", count)

    def fixed_rounds(self, count: int, entry: Entry) -> int | None:
        return max(1, (count - 1).bit_length()) if entry.pairing == "knockout" else None  # until one is left

    def plan(self, count: int, rounds: int, entry: Entry) -> list[dict[str, Any]]:
        """Round robin in full; Swiss and knockout only round 1 (later rounds pair by results)."""
        if entry.pairing == "round_robin":
            return [matches_data(m) for m in seating.round_robin(count)[:rounds]]
        if entry.pairing == "swiss":
            return [matches_data(seating.swiss_round(range(count), set(), Counter(), first_round=True))]
        return [matches_data(seating.knockout_first_round(count))]

    def seat_names(self, event: Event, seats: Sequence[int]) -> list[str]:
        """Pair A's two at seats 0 and 2, pair B's at 1 and 3."""
        a, b = (event.entrants[e] for e in seats)
        return [a[0], b[0], a[1], b[1]]

    def seat_entrants(self, seats: Sequence[int]) -> list[int]:
        return [seats[0], seats[1], seats[0], seats[1]]

    def seat(self, play: Play, number: int) -> dict[str, Any]:
        """Swiss from the standings at this moment; knockout from the winners of the round before."""
        pairing = play.settings.get("pairing")
        if number == 1 or pairing == "round_robin":
            return dict(play.schedule[number - 1])
        if pairing == "swiss":
            names = [" & ".join(e) for e in play.entrants]
            active = play.active()
            order = [s.entrant for s in self.rank(play, names) if s.entrant in active]
            met = {(min(t.seats), max(t.seats)) for r in play.rounds for t in r.tables}
            byes: Counter = Counter(e for r in play.rounds for e in r.sitting_out)
            return matches_data(seating.swiss_round(order, met, byes))
        winners = [m.winner for m in meetings(play, play.rounds[-1])]
        return matches_data(seating.knockout_next_round([w for w in winners if w is not None]))

    def rank(self, play: Play, names: list[str]) -> list[standings.Standing]:
        rounds = [meetings(play, r) for r in play.rounds]
        if play.settings.get("pairing") == "knockout":
            return standings.knockout(names, rounds)
        return standings.pairs(names, rounds)

    def columns(self, pairing: str | None) -> list[Column]:
        if pairing == "knockout":
            return [Column("round_reached", N_("Round reached")), Column("for", N_("Points for"))]
        return [
            Column("match_points", N_("Match points"), True),
            Column("for", N_("For")),
            Column("against", N_("Against")),
        ]


def meetings(play: Play, rnd: RoundPlay) -> list[standings.Meeting]:
    """A round's meetings of two pairs (and byes), with the winner where there is one."""
    out = [standings.Meeting(e, None) for e in rnd.sitting_out]
    for table in rnd.tables:
        totals = table.totals
        a, b = table.seats
        winner = None
        if table.finished and len(table.winners) == 2:
            winner = a if table.winners[0] in (0, 2) else b
        elif totals[0] is not None and totals[1] is not None and totals[0] != totals[1]:
            winner = a if totals[0] > totals[1] else b
        elif play.settings.get("pairing") == "knockout":
            winner = min(a, b)  # a closed round's knockout tie: the higher seed goes through
        out.append(standings.Meeting(a, b, totals[0] or 0, totals[1] or 0, winner))
    return out


FORMAT = Pairs()
