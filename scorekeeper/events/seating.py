"""Seating for an evening of several tables: who sits where, round by round. Pure: no Flask, no database.

Players are numbers 0..n-1 (their order in the event); a schedule is data, made whole when the
event is created so it can be printed, and it comes with its quality. Seats at a table are
listed clockwise; in partnership games seats 0+2 and 1+3 are partners (events.md, Seating).

- :func:`progressive`: partners change every round. Where a perfect design exists (n = 4k:
  n-1 rounds; n = 4k+1: n rounds, one sit-out each) and the evening plays it whole, it is the
  one used (:mod:`.designs`); a longer evening plays the design again from its first round.
  Small evenings (6-23 players) are stored (:mod:`.small_schedules`); otherwise one base round
  is developed round by round (:mod:`.cyclic`), or, where no base is found quickly, the rounds
  are repaired by a local search (:mod:`.repair`). Either way: nobody partners twice, two
  players oppose at most once while n >= 3 rounds + 1 (twice otherwise), sitting out goes in
  turn; beyond n - 1 rounds, repeats no more than the numbers force (:func:`repeat_limits`).
  Table numbers are then chosen so that few players stay at the same table.

  A shorter evening than a design's: events.md says it takes the design's first rounds. It
  does only where those keep the rules above; where they would seat two players against each
  other twice although the numbers allow every opponent to differ (a design's first 4 rounds
  for 13 players, say), the no-repeat rule wins: a director who promised "you meet new
  opponents every round" expects it kept, and nobody at the tables knows or cares that the
  rounds came from a design. That evening is seated as any other size is.
- :func:`mixer`: tables of a fixed size, players meeting as many others as possible.
- :func:`round_robin`, :func:`swiss_round`, :func:`knockout_round`: pairs meeting pairs.

Swiss pairing uses networkx's ``max_weight_matching`` (a few dozen pairs at most); the seating
of players costs in proportion to tables x rounds (400 players, 13 rounds: well under 0.4 s).
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

import networkx as nx

from . import cyclic, repair
from .designs import DESIGNS
from .small_schedules import LONG, MORE, SMALL


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
    # The fewest is 0 unless every pair opposed (not worth a pass over n^2 pairs at 400 players).
    every = n * (n - 1) // 2
    fewest = min(opponents.values()) if len(opponents) == every and every else 0
    return Quality(
        partner_repeats=sum(c - 1 for c in partners.values() if c > 1),
        opponent_spread=(fewest, max(opponents.values(), default=0)),
        sit_outs=_sit_outs(n, rounds),
        same_table_twice=_same_table(rounds),
        perfect=perfect,
    )


# -- progressive ---------------------------------------------------------------------------

# Rounds when an event leaves them out and no perfect design applies (events.md: n-1, at most 13).
MAX_DEFAULT_ROUNDS = 13


# Seeded tries of a repaired schedule (see _repaired), the best kept.
ATTEMPTS = 4
# Swaps one search for a base round may try, and searches per cycle before the next is tried:
# a base at 400 players takes a few hundred swaps; at the tightest sizes (40 players, 13
# rounds) nine searches in ten succeed within 800, and a fresh start beats a longer walk.
BASE_MOVES = 1000
BASE_TRIES = 3


def perfect_rounds(n: int) -> int | None:
    """The length of the perfect schedule for ``n`` players, or None when there is none here."""
    if n not in DESIGNS:
        return None
    return n - 1 if n % 4 == 0 else n


def default_rounds(n: int) -> int:
    return perfect_rounds(n) or min(max(n - 1, 1), MAX_DEFAULT_ROUNDS)


def opponent_limit(n: int, rounds: int) -> int:
    """The most times two players need oppose: once while every player can meet 3 x rounds
    others (each round a partner and two opponents), twice otherwise (a whole whist design)."""
    return 1 if n >= 3 * rounds + 1 else 2


def repeat_limits(n: int, rounds: int) -> tuple[int, int]:
    """The most times two players need partner, and oppose, in ``rounds`` rounds: once and
    :func:`opponent_limit` while the rounds allow (up to n - 1); beyond, where partners must
    repeat, the partnerships over the pairs rounded up (nobody partners more often than the
    numbers force), and opponents at most once more than their meetings over the pairs."""
    if rounds <= n - 1:
        return 1, opponent_limit(n, rounds)
    pairs, partnerships = n * (n - 1) // 2, rounds * 2 * (n // 4)
    return -(-partnerships // pairs), -(-2 * partnerships // pairs) + 1


def seated_as_allowed(n: int, rounds: int, quality: Quality, most_partnered: int | None = None) -> bool:
    """Partners and opponents within :func:`repeat_limits`, sitting out in turn (nobody twice
    before everyone once). ``most_partnered`` (the most times two players partnered) is needed
    only beyond n - 1 rounds, where partners repeat; without it those rounds are not judged."""
    outs = quality.sit_outs
    if max(outs) - min(outs) > 1:
        return False
    partnered, opposed = repeat_limits(n, rounds)
    if rounds > n - 1:
        if most_partnered is None:
            return True
        return most_partnered <= partnered and quality.opponent_spread[1] <= opposed
    return quality.partner_repeats == 0 and quality.opponent_spread[1] <= opposed


def progressive(n: int, rounds: int | None = None, seed: int = 0) -> Schedule:
    """The whole schedule of a progressive event of ``n`` players (at least 4).

    A stored perfect design when the evening plays it whole (or its first rounds, when they
    keep the rules of :func:`seated_as_allowed`); otherwise one base round developed round by
    round (:mod:`.cyclic`: cost tables x rounds), and where no base is found quickly (a few
    players with many rounds) a whole schedule repaired by local search (:mod:`.repair`).
    """
    if n < 4:
        raise ValueError("a progressive event needs at least 4 players")
    rounds = default_rounds(n) if rounds is None else rounds
    full = perfect_rounds(n)
    if full is not None and rounds > full:
        # Longer than the whole design: it starts again from its first round. Each pair then
        # partners ceil(rounds / full) times at most and nobody sits out twice before everyone
        # has as often: as few repeats as the numbers allow, where a search spreads them worse.
        design = _from_design(n)
        again = [Round(i + 1, design[i % full].tables, design[i % full].sitting_out) for i in range(rounds)]
        made = _number_tables(n, again)
        return Schedule(n, tuple(made), partnership_quality(n, made))
    if full is not None and rounds <= full:
        made = _number_tables(n, _from_design(n)[:rounds])
        quality = partnership_quality(n, made, perfect=rounds == full)
        if rounds == full or seated_as_allowed(n, rounds, quality):
            return Schedule(n, tuple(made), quality)
    # Stored small evenings: SMALL (then MORE, beyond n - 1 rounds) as far as they go, else LONG.
    kept = (SMALL.get(n, ()) + MORE.get(n, ()), LONG.get(n, ()))
    stored = next((s for s in kept if rounds <= len(s)), None)
    if stored is not None:
        made = _number_tables(n, [_parsed(i + 1, line) for i, line in enumerate(stored[:rounds])])
        return Schedule(n, tuple(made), partnership_quality(n, made))
    made = _developed(n, rounds, seed) or _repaired(n, rounds, seed)
    return Schedule(n, tuple(made), partnership_quality(n, made))


def _parsed(number: int, line: str) -> Round:
    """A stored round: its tables' seats four by four, then '/' and those sitting out."""
    seated, _, resting = line.partition("/")
    seats = [int(p) for p in seated.split()]
    tables = tuple(Table(i // 4 + 1, tuple(seats[i : i + 4])) for i in range(0, len(seats), 4))
    return Round(number, tables, tuple(int(p) for p in resting.split()))


def _long(n: int, rounds: int) -> bool:
    """An evening longer than the default's 13 rounds, or with more rounds than others to
    partner: searched briefly (a bounded request), and repeats spread as they fall."""
    return rounds > MAX_DEFAULT_ROUNDS or rounds > n - 1


def _developed(n: int, rounds: int, seed: int) -> list[Round] | None:
    long = _long(n, rounds)
    for q in cyclic.candidates(n, rounds)[: 1 if long else None]:
        for attempt in range(1 if long else BASE_TRIES):
            rng = random.Random((seed * 1_000_003 + q) * 7 + attempt)
            base = cyclic.find_base(n, rounds, q, rng, min(BASE_MOVES, 40 * n))
            if base is None:
                continue
            made = [
                Round(i + 1, tuple(Table(j + 1, t) for j, t in enumerate(tables)), tuple(sorted(out)))
                for i, (tables, out) in enumerate(cyclic.develop(base, rounds))
            ]
            return _number_tables(n, made)
    return None


def _repaired(n: int, rounds: int, seed: int) -> list[Round]:
    best: list[Round] | None = None
    best_left = None
    unavoidable = _long(n, rounds)
    for attempt in range(1 if unavoidable else ATTEMPTS):
        rng = random.Random(seed * 7919 + attempt)
        order = list(range(n))
        rng.shuffle(order)  # each try its own order of turns to sit out
        made = _repair_rounds(n, order, rounds, rng, [], 10 if unavoidable else 40)
        left = made[0]
        if best_left is None or left < best_left:
            best, best_left = made[1], left
        if left == 0:
            break
    assert best is not None
    return _number_tables(n, best)


def _repair_rounds(
    n: int,
    players: Sequence[int],
    rounds: int,
    rng: random.Random,
    before: Sequence[Round],
    per_table: int = 40,
) -> tuple[int, list[Round]]:
    """``rounds`` more rounds for ``players`` after ``before``: sit-outs in turn, tables at
    random, then repaired; with the conflicts left (0: the rules kept)."""
    sat_out: Counter = Counter(p for r in before for p in r.sitting_out)
    tables: list[list[list[int]]] = []
    resting_by_round = []
    for number in range(len(before), len(before) + rounds):
        resting = choose_sit_outs(players, len(players) % 4, sat_out, number)
        sat_out.update(resting)
        playing = [p for p in players if p not in resting]
        rng.shuffle(playing)
        tables.append([playing[i : i + 4] for i in range(0, len(playing), 4)])
        resting_by_round.append(tuple(sorted(resting)))
    limits = {
        repair.PARTNER: 1,
        repair.OPPONENT: opponent_limit(len(players), len(before) + rounds),
    }
    fixed = [[t.seats for t in r.tables] for r in before]
    budget = 25 * per_table + per_table * sum(len(t) for t in tables)
    left = repair.repair(tables, n, True, limits, rng, budget, fixed)
    made = [
        Round(
            len(before) + i + 1, tuple(Table(j + 1, tuple(t)) for j, t in enumerate(ts)), resting_by_round[i]
        )
        for i, ts in enumerate(tables)
    ]
    return left, made


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


def _number_tables(n: int, rounds: Sequence[Round], last: Round | None = None) -> list[Round]:
    """Each round's tables numbered so that as few players as possible stay at the same table
    (after ``last``, when given): each table, the most scattered first, takes the lowest free
    number none of its players just sat at. Linear in the tables, not a matching's cube."""
    out: list[Round] = []
    previous = last
    for rnd in rounds:
        count = len(rnd.tables)
        if previous is None:
            order = {i: i + 1 for i in range(count)}
        else:
            where = {p: t.number for t in previous.tables for p in t.seats}
            stays = [Counter(where[p] for p in t.seats if p in where) for t in rnd.tables]
            free = list(range(1, count + 1))
            order = {}
            for i in sorted(range(count), key=lambda i: -len(stays[i])):
                number = next((k for k in free if not stays[i][k]), None)
                if number is None:
                    number = min(free, key=lambda k: stays[i][k])
                free.remove(number)
                order[i] = number
        tables = sorted((Table(order[i], t.seats) for i, t in enumerate(rnd.tables)), key=lambda t: t.number)
        numbered = Round(rnd.number, tuple(tables), rnd.sitting_out)
        out.append(numbered)
        previous = numbered
    return out


def choose_sit_outs(players: Sequence[int], count: int, sat_out: Counter, round_number: int) -> list[int]:
    """``count`` players to sit out: those who sat out least, in turn (a rotating start breaks ties),
    so nobody sits out a second time before everyone has once."""
    if count <= 0:
        return []
    n = len(players)
    start = (round_number * count) % n if n else 0
    turn = {p: (i - start) % n for i, p in enumerate(players)}
    return sorted(players, key=lambda p: (sat_out[p], turn[p]))[:count]


def reseat_progressive(
    n: int, players: Sequence[int], before: Sequence[Round], rounds: int, seed: int = 0
) -> list[Round]:
    """The rounds after ``before`` for the players now in the event (a late player added, one
    withdrawn): earlier rounds stand; the new ones avoid the partners and opponents already met."""
    if len(players) < 4:
        raise ValueError("a progressive event needs at least 4 players")
    if not before:  # nothing played yet: the evening planned anew for the players now in it
        named = dict(enumerate(players))
        return [
            Round(
                r.number,
                tuple(Table(t.number, tuple(named[p] for p in t.seats)) for t in r.tables),
                tuple(sorted(named[p] for p in r.sitting_out)),
            )
            for r in progressive(len(players), rounds, seed).rounds
        ]
    best, best_left = None, None
    for attempt in range(ATTEMPTS):
        left, made = _repair_rounds(n, list(players), rounds, random.Random(seed * 7919 + attempt), before)
        if best_left is None or left < best_left:
            best, best_left = made, left
        if left == 0:
            break
    assert best is not None
    return _number_tables(n, best, before[-1] if before else None)


# -- mixer -----------------------------------------------------------------------------------

# Up to this many players a mixer's rounds start from a greedy seating (players x tables each).
MIXER_GREEDY_PLAYERS = 160
# The repair's moves are bounded by their work, not by the count of tables alone: a move weighs
# a few swaps, each costing the table size (repair.change), so a 400-player mixer at 12 a table
# had thousands of moves of 12-seat tables (152 s to create, 108 s to change players, issue 57).
# This many (moves x seats a table, less one) per attempt: a few seconds at most, whatever the
# size; where the budget by tables is smaller (most evenings) nothing changes.
MIXER_WORK = 12_000


def mixer(n: int, size: int, rounds: int, seed: int = 0) -> Schedule:
    """Tables of ``size`` players, ``rounds`` rounds: nobody shares a table twice while avoidable.

    Sit-outs in turn, tables at random, then repaired by local search (:mod:`.repair`): the
    convex cost of meeting again spreads the repeats thinly where some cannot be avoided."""
    if size < 2 or n < size:
        raise ValueError("a mixer needs at least one full table")
    best: list[Round] | None = None
    best_key = None
    for attempt in range(2):
        made = _repaired_mixer(n, size, rounds, random.Random(seed * 7919 + attempt))
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


def _repaired_mixer(n: int, size: int, rounds: int, rng: random.Random) -> list[Round]:
    sat_out: Counter = Counter()
    everyone = list(range(n))
    tables: list[list[list[int]]] = []
    resting_by_round = []
    met: dict[int, set[int]] = {}
    for number in range(rounds):
        resting = choose_sit_outs(everyone, n % size, sat_out, number)
        sat_out.update(resting)
        playing = [p for p in everyone if p not in resting]
        if n <= MIXER_GREEDY_PLAYERS:
            seated = repair.greedy_tables(playing, size, met, rng)
            for table in seated:
                for a, b in itertools.combinations(table, 2):
                    met.setdefault(a, set()).add(b)
                    met.setdefault(b, set()).add(a)
        else:  # many tables: meetings are plenty, a random start is nearly right already
            rng.shuffle(playing)
            seated = [playing[i : i + size] for i in range(0, len(playing), size)]
        tables.append(seated)
        resting_by_round.append(tuple(sorted(resting)))
    budget = min(300 + 10 * sum(len(t) for t in tables), MIXER_WORK // (size - 1))
    repair.repair(tables, n, False, {repair.MET: 1}, rng, budget)
    made = [
        Round(i + 1, tuple(Table(j + 1, tuple(t)) for j, t in enumerate(ts)), resting_by_round[i])
        for i, ts in enumerate(tables)
    ]
    return _number_tables(n, made)


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
