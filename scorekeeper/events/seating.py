"""Seating for an evening of several tables: who sits where, round by round. Pure: no Flask, no database.

Players are numbers 0..n-1 (their order in the event); a schedule is data, made whole when the
event is created so it can be printed, and it comes with its quality. Seats at a table are
listed clockwise; in partnership games seats 0+2 and 1+3 are partners (events.md, Seating).

- :func:`progressive`: partners change every round. Where a perfect design exists (n = 4k:
  n-1 rounds; n = 4k+1: n rounds, one sit-out each) it is the one used (:mod:`.designs`);
  otherwise rounds are built one by one: sit-outs in turn, no repeated partner while one can be
  avoided (a maximum-weight matching of the players in), then the pairs set against each other
  so opponents repeat as little as possible (a second matching), then table numbers chosen so
  that as few players as possible stay at the same table.
- :func:`mixer`: tables of a fixed size, players meeting as many others as possible.
- :func:`round_robin`, :func:`swiss_round`, :func:`knockout_round`: pairs meeting pairs.

Matching is networkx's ``max_weight_matching`` (no home-made matcher).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from .designs import DESIGNS


@dataclass(frozen=True)
class Table:
    number: int  # from 1
    seats: tuple[int, ...]  # players clockwise; in pairs 0+2 and 1+3 partner


@dataclass(frozen=True)
class Round:
    number: int  # from 1
    tables: tuple[Table, ...]
    sitting_out: tuple[int, ...] = ()


@dataclass(frozen=True)
class Quality:
    """How good a schedule is, as the director's page shows it."""

    partner_repeats: int  # partnerships beyond the first of the same two players
    opponent_spread: tuple[int, int]  # fewest and most times two players met as opponents
    sit_outs: tuple[int, ...]  # per player
    same_table_twice: int  # times a player stayed at the same table number two rounds running
    table_repeats: int = 0  # mixer: meetings beyond the first of the same two players
    perfect: bool = False


@dataclass(frozen=True)
class Schedule:
    players: int
    rounds: tuple[Round, ...]
    quality: Quality


# -- partnership quality ------------------------------------------------------------------


def partners_of(table: Table) -> list[tuple[int, int]]:
    s = table.seats
    return [(s[0], s[2]), (s[1], s[3])] if len(s) == 4 else []


def opponents_of(table: Table) -> list[tuple[int, int]]:
    s = table.seats
    return [(a, b) for a in (s[0], s[2]) for b in (s[1], s[3])] if len(s) == 4 else []


def _pair(a: int, b: int) -> tuple[int, int]:
    return (a, b) if a < b else (b, a)


def _same_table(rounds: Sequence[Round]) -> int:
    stayed = 0
    for before, now in itertools.pairwise(rounds):
        where = {p: t.number for t in before.tables for p in t.seats}
        stayed += sum(1 for t in now.tables for p in t.seats if where.get(p) == t.number)
    return stayed


def _sit_outs(n: int, rounds: Sequence[Round]) -> tuple[int, ...]:
    count = Counter(p for r in rounds for p in r.sitting_out)
    return tuple(count[p] for p in range(n))


def partnership_quality(n: int, rounds: Sequence[Round], perfect: bool = False) -> Quality:
    partners = Counter(_pair(*p) for r in rounds for t in r.tables for p in partners_of(t))
    opponents = Counter(_pair(*p) for r in rounds for t in r.tables for p in opponents_of(t))
    counts = [opponents[_pair(a, b)] for a, b in itertools.combinations(range(n), 2)]
    return Quality(
        partner_repeats=sum(c - 1 for c in partners.values() if c > 1),
        opponent_spread=(min(counts), max(counts)) if counts else (0, 0),
        sit_outs=_sit_outs(n, rounds),
        same_table_twice=_same_table(rounds),
        perfect=perfect,
    )


# -- progressive ---------------------------------------------------------------------------

# Rounds when an event leaves them out and no perfect design applies (events.md: n-1, at most 13).
MAX_DEFAULT_ROUNDS = 13


# Seeded tries of a greedy schedule, the best kept: enough to find a good one, few enough for a request.
ATTEMPTS = 4


def perfect_rounds(n: int) -> int | None:
    """The length of the perfect schedule for ``n`` players, or None when there is none here."""
    if n not in DESIGNS:
        return None
    return n - 1 if n % 4 == 0 else n


def default_rounds(n: int) -> int:
    return perfect_rounds(n) or min(max(n - 1, 1), MAX_DEFAULT_ROUNDS)


def progressive(n: int, rounds: int | None = None, seed: int = 0) -> Schedule:
    """The whole schedule of a progressive event of ``n`` players (at least 4)."""
    if n < 4:
        raise ValueError("a progressive event needs at least 4 players")
    rounds = default_rounds(n) if rounds is None else rounds
    full = perfect_rounds(n)
    if full is not None and rounds <= full:
        made = _number_tables(n, _from_design(n)[:rounds])
        return Schedule(n, tuple(made), partnership_quality(n, made, perfect=rounds == full))
    best: list[Round] | None = None
    best_key = None
    # A few seeded tries, keeping the best: the same event always gets the same schedule.
    for attempt in range(ATTEMPTS):
        made = _greedy_progressive(n, rounds, random.Random(seed * 7919 + attempt))
        quality = partnership_quality(n, made)
        key = (quality.partner_repeats, quality.opponent_spread[1] - quality.opponent_spread[0], attempt)
        if best_key is None or key < best_key:
            best, best_key = made, key
        if quality.partner_repeats == 0 and key[1] <= 2:
            break
    assert best is not None
    return Schedule(n, tuple(best), partnership_quality(n, best))


def _from_design(n: int) -> list[Round]:
    """The design's rounds, its players numbered 0..n-1 (the fixed one last, for 4k players)."""
    moduli, initial = DESIGNS[n]
    elements = list(itertools.product(*(range(m) for m in moduli)))
    number = {e: i for i, e in enumerate(elements)}
    fixed = len(elements)  # the player who stays put (4k players)

    def as_tuple(point) -> tuple[int, ...]:
        return tuple(point) if isinstance(point, list | tuple) else (point,)

    out = []
    for r, shift in enumerate(elements):
        tables = []
        for table in initial:
            seats = []
            for point in table:
                if point is None:
                    seats.append(fixed)
                    continue
                moved = tuple((p + s) % m for p, s, m in zip(as_tuple(point), shift, moduli, strict=True))
                seats.append(number[moved])
            # The design's (a, b, c, d) is a+c against b+d: clockwise seats 0, 1, 2, 3.
            tables.append(tuple(seats))
        out_seats = [] if n % 4 == 0 else [number[tuple(s % m for s, m in zip(shift, moduli, strict=True))]]
        out.append(Round(r + 1, tuple(Table(i + 1, t) for i, t in enumerate(tables)), tuple(out_seats)))
    return out


def _number_tables(n: int, rounds: Sequence[Round]) -> list[Round]:
    """Each round's tables numbered so that as few players as possible stay at the same table."""
    out: list[Round] = []
    for rnd in rounds:
        if out:
            where = {p: t.number for t in out[-1].tables for p in t.seats}
            graph: nx.Graph[tuple[str, int]] = nx.Graph()  # ("t", table) and ("n", its number)
            for i, table in enumerate(rnd.tables):
                for number in range(1, len(rnd.tables) + 1):
                    stay = sum(1 for p in table.seats if where.get(p) == number)
                    graph.add_edge(("t", i), ("n", number), weight=100 - stay)
            matched = dict(_matching(graph))
            order = {i: matched[("t", i)][1] for i in range(len(rnd.tables))}
        else:
            order = {i: i + 1 for i in range(len(rnd.tables))}
        tables = sorted((Table(order[i], t.seats) for i, t in enumerate(rnd.tables)), key=lambda t: t.number)
        out.append(Round(rnd.number, tuple(tables), rnd.sitting_out))
    return out


def _matching(graph: nx.Graph) -> list[tuple]:
    """A maximum-weight matching of the largest size, each edge as (u, v) both ways."""
    pairs = nx.max_weight_matching(graph, maxcardinality=True)
    return [p for a, b in pairs for p in ((a, b), (b, a))]


def choose_sit_outs(players: Sequence[int], count: int, sat_out: Counter, round_number: int) -> list[int]:
    """``count`` players to sit out: those who sat out least, in turn (a rotating start breaks ties),
    so nobody sits out a second time before everyone has once."""
    if count <= 0:
        return []
    n = len(players)
    start = (round_number * count) % n if n else 0
    turn = {p: (i - start) % n for i, p in enumerate(players)}
    return sorted(players, key=lambda p: (sat_out[p], turn[p]))[:count]


def _greedy_progressive(
    n: int,
    rounds: int,
    rng: random.Random,
    players: Sequence[int] | None = None,
    before: Sequence[Round] = (),
) -> list[Round]:
    """``rounds`` more rounds for ``players`` (all n by default), counting what ``before`` already seated."""
    partners: Counter = Counter(_pair(*p) for r in before for t in r.tables for p in partners_of(t))
    opponents: Counter = Counter(_pair(*p) for r in before for t in r.tables for p in opponents_of(t))
    sat_out: Counter = Counter(p for r in before for p in r.sitting_out)
    out: list[Round] = []
    everyone = list(range(n)) if players is None else list(players)
    for number in range(len(before) + 1, len(before) + rounds + 1):
        resting = choose_sit_outs(everyone, len(everyone) % 4, sat_out, number - 1)
        sat_out.update(resting)
        playing = [p for p in everyone if p not in resting]
        rng.shuffle(playing)
        # Partnerships: never a repeat while one can be avoided, then the least-met pairs.
        graph: nx.Graph[int] = nx.Graph()
        for a, b in itertools.combinations(playing, 2):
            pair = _pair(a, b)
            graph.add_edge(a, b, weight=10_000 - 1_000 * partners[pair] - opponents[pair] + rng.random())
        pairs = sorted({_pair(a, b) for a, b in nx.max_weight_matching(graph, maxcardinality=True)})
        # Tables: two pairs each, opponents repeated as little as possible (squares flatten the spread).
        tables_graph: nx.Graph[int] = nx.Graph()
        for i, j in itertools.combinations(range(len(pairs)), 2):
            cost = sum((opponents[_pair(a, b)] + 1) ** 2 for a in pairs[i] for b in pairs[j])
            tables_graph.add_edge(i, j, weight=1_000 - cost + rng.random())
        tables = []
        for i, j in nx.max_weight_matching(tables_graph, maxcardinality=True):
            (a, c), (b, d) = pairs[i], pairs[j]
            table = (a, b, c, d)
            tables.append(table)
            partners.update([_pair(a, c), _pair(b, d)])
            opponents.update(_pair(x, y) for x in (a, c) for y in (b, d))
        tables.sort()
        out.append(
            Round(number, tuple(Table(i + 1, t) for i, t in enumerate(tables)), tuple(sorted(resting)))
        )
    return _number_tables(n, [*before[-1:], *out])[1:] if before else _number_tables(n, out)


def reseat_progressive(
    n: int, players: Sequence[int], before: Sequence[Round], rounds: int, seed: int = 0
) -> list[Round]:
    """The rounds after ``before`` for the players now in the event (a late player added, one
    withdrawn): earlier rounds stand; the new ones avoid the partners and opponents already met."""
    if len(players) < 4:
        raise ValueError("a progressive event needs at least 4 players")
    best, best_key = None, None
    for attempt in range(ATTEMPTS):
        made = _greedy_progressive(n, rounds, random.Random(seed * 7919 + attempt), players, before)
        quality = partnership_quality(n, [*before, *made])
        key = (quality.partner_repeats, quality.opponent_spread[1] - quality.opponent_spread[0], attempt)
        if best_key is None or key < best_key:
            best, best_key = made, key
    assert best is not None
    return best


# -- mixer -----------------------------------------------------------------------------------


def mixer(n: int, size: int, rounds: int, seed: int = 0) -> Schedule:
    """Tables of ``size`` players, ``rounds`` rounds: nobody shares a table twice while avoidable."""
    if size < 2 or n < size:
        raise ValueError("a mixer needs at least one full table")
    best: list[Round] | None = None
    best_key = None
    for attempt in range(ATTEMPTS):
        made = _greedy_mixer(n, size, rounds, random.Random(seed * 7919 + attempt))
        met = Counter(
            _pair(a, b) for r in made for t in r.tables for a, b in itertools.combinations(t.seats, 2)
        )
        key = (sum(c - 1 for c in met.values() if c > 1), max(met.values(), default=0), attempt)
        if best_key is None or key < best_key:
            best, best_key = made, key
        if key[0] == 0:
            break
    assert best is not None and best_key is not None
    met_again = best_key[0]
    return Schedule(
        n,
        tuple(best),
        Quality(0, (0, 0), _sit_outs(n, best), _same_table(best), table_repeats=met_again),
    )


def _greedy_mixer(n: int, size: int, rounds: int, rng: random.Random) -> list[Round]:
    met: Counter = Counter()
    sat_out: Counter = Counter()
    everyone = list(range(n))
    out = []
    for number in range(1, rounds + 1):
        resting = choose_sit_outs(everyone, n % size, sat_out, number - 1)
        sat_out.update(resting)
        playing = [p for p in everyone if p not in resting]
        rng.shuffle(playing)
        tables: list[list[int]] = [[] for _ in range(len(playing) // size)]
        # Each player to the open table where they have met the fewest, then improve by swaps.
        for p in playing:
            open_tables = [t for t in tables if len(t) < size]
            min(open_tables, key=lambda t: (sum(met[_pair(p, q)] for q in t), len(t))).append(p)

        def cost(t: list[int]) -> int:
            return sum(met[_pair(a, b)] ** 2 + met[_pair(a, b)] for a, b in itertools.combinations(t, 2))

        improved = True
        while improved:
            improved = False
            for t1, t2 in itertools.combinations(tables, 2):
                for i, j in itertools.product(range(size), range(size)):
                    before = cost(t1) + cost(t2)
                    t1[i], t2[j] = t2[j], t1[i]
                    if cost(t1) + cost(t2) < before:
                        improved = True
                    else:
                        t1[i], t2[j] = t2[j], t1[i]
        for t in tables:
            met.update(_pair(a, b) for a, b in itertools.combinations(t, 2))
        made = tuple(Table(i + 1, tuple(t)) for i, t in enumerate(tables))
        out.append(Round(number, made, tuple(sorted(resting))))
    return out


# -- pairs -------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Match:
    """Two pairs at a table (numbers in the event's order of pairs), or a bye (``second`` None)."""

    table: int  # from 1; 0 for a bye
    first: int
    second: int | None


def round_robin(pairs: int) -> list[list[Match]]:
    """Every pair meets every other once (the circle method); a bye when the number is odd."""
    slots: list[int | None] = list(range(pairs)) + ([None] if pairs % 2 else [])
    size = len(slots)
    out = []
    for _ in range(size - 1):
        meetings = [(slots[i], slots[size - 1 - i]) for i in range(size // 2)]
        matches, table = [], 0
        for a, b in meetings:
            if a is None or b is None:
                matches.append(Match(0, a if b is None else b, None))  # type: ignore[arg-type]
            else:
                table += 1
                matches.append(Match(table, a, b))
        out.append(sorted(matches, key=lambda m: (m.table == 0, m.table)))
        slots = [slots[0], slots[-1], *slots[1:-1]]
    return out


def swiss_round(
    order: Sequence[int], met: set[tuple[int, int]], byes: Counter, first_round: bool = False
) -> list[Match]:
    """One Swiss round for the pairs in ``order`` (standings, best first).

    Round 1 pairs in the order given (1 v 2, 3 v 4...). Later rounds: a maximum-weight matching
    whose weight falls with the distance in the standings; a rematch is left out while any
    pairing without one exists. The bye (odd count) goes to the lowest pair that has had the
    fewest byes.
    """
    order = list(order)
    bye = None
    if len(order) % 2:
        bye = min(reversed(order), key=lambda p: byes[p])
        order.remove(bye)
    if first_round:
        meetings = [(order[i], order[i + 1]) for i in range(0, len(order), 2)]
    else:
        rank = {p: i for i, p in enumerate(order)}
        meetings = []
        for allow_rematch in (False, True):
            graph: nx.Graph[int] = nx.Graph()
            graph.add_nodes_from(order)
            for a, b in itertools.combinations(order, 2):
                again = _pair(a, b) in met
                if again and not allow_rematch:
                    continue
                distance = abs(rank[a] - rank[b])
                graph.add_edge(a, b, weight=10_000 - distance * distance - (5_000 if again else 0))
            found = nx.max_weight_matching(graph, maxcardinality=True)
            if 2 * len(found) == len(order):
                meetings = sorted(
                    (tuple(sorted((a, b), key=lambda p: rank[p])) for a, b in found), key=lambda m: rank[m[0]]
                )
                break
    matches = [Match(i + 1, a, b) for i, (a, b) in enumerate(meetings)]
    if bye is not None:
        matches.append(Match(0, bye, None))
    return matches


def bracket_size(pairs: int) -> int:
    size = 1
    while size < pairs:
        size *= 2
    return size


def seed_order(size: int) -> list[int]:
    """Standard bracket order of seeds 0..size-1: 1 v 16, 8 v 9, ... so top seeds meet last."""
    order = [0]
    while len(order) < size:
        total = 2 * len(order) - 1
        order = [x for s in order for x in (s, total - s)]
    return order


def knockout_first_round(pairs: int) -> list[Match]:
    """Round 1 of a single-elimination bracket seeded in the order given; the top seeds get the byes."""
    size = bracket_size(pairs)
    order = seed_order(size)
    matches, table = [], 0
    for i in range(0, size, 2):
        a, b = order[i], order[i + 1]
        if b >= pairs:
            matches.append(Match(0, a, None))
        else:
            table += 1
            matches.append(Match(table, a, b))
    return matches


def knockout_next_round(winners: Sequence[int]) -> list[Match]:
    """The next round from the winners in bracket order (the first two meet, then the next two...)."""
    return [Match(i // 2 + 1, winners[i], winners[i + 1]) for i in range(0, len(winners) - 1, 2)]


def rounds_for_pairs(pairing: str, pairs: int) -> int:
    """Rounds when the event leaves them out: every meeting once, ceil(log2) for Swiss and knockout."""
    if pairing == "round_robin":
        return pairs - 1 if pairs % 2 == 0 else pairs
    return max(1, (pairs - 1).bit_length())


def seed_by_ratings(
    entrants: Sequence[Sequence[str]], ratings: Mapping[str, float], default: float
) -> list[int]:
    """The entrants (pairs of names) strongest first, as entrant numbers: a pair's strength is
    the mean of its players' ratings, a player without one at ``default``. Equal strengths keep
    the order given (a stable sort), so an unrated club seeds exactly as the director listed."""

    def strength(entrant: Sequence[str]) -> float:
        return sum(ratings.get(name, default) for name in entrant) / max(len(entrant), 1)

    strengths = [strength(e) for e in entrants]
    return sorted(range(len(entrants)), key=lambda i: -strengths[i])
