"""Seating repaired by local search: whole rounds of tables, two players of one round swapped
until no pair meets more often than allowed. Pure: no Flask, no database.

Why a local search: it costs in proportion to the conflicts, not to the players squared (the
matchings it replaces took 94 s for one round of 400), and it works where no construction
does: a few players with many rounds, players added or withdrawn mid-evening (earlier rounds
fixed), mixers of any table size. Each move takes a pair that meets too often, one of its
meetings, and swaps one of the two with another player of that round; it is kept when the
conflicts do not grow (a rare worse move leaves a dead end). Sitting out is not moved: who sits
out was chosen in turn before the search.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Sequence

PARTNER, OPPONENT, MET = 0, 1, 2
# Swaps weighed for each conflict taken up (the best is made): enough to find a good one among
# a round's players, few enough that a move stays cheap at 100 tables.
CANDIDATES = 16
# Moves without a new lowest cost after which the search stops: where some meetings cannot be
# avoided it would otherwise walk on to the end of its budget for nothing.
STALE = 300


def meetings(table: Sequence[int], partnership: bool) -> list[tuple[int, int, int]]:
    """(kind, a, b) of every two players at a table: partners 0+2 and 1+3 and their opponents
    in a partnership game, otherwise everyone meeting everyone."""
    if partnership:
        a, b, c, d = table
        return [
            (PARTNER, a, c),
            (PARTNER, b, d),
            (OPPONENT, a, b),
            (OPPONENT, a, d),
            (OPPONENT, c, b),
            (OPPONENT, c, d),
        ]
    return [(MET, a, b) for a, b in itertools.combinations(table, 2)]


class Meetings:
    """How often each pair met, per kind, with the pairs over their limit kept at hand."""

    def __init__(self, players: int, limits: dict[int, int], weights: dict[int, int]):
        self.n = players
        self.limits = limits
        self.weights = weights
        self.count: Counter[int] = Counter()
        # The pairs met beyond their limit, as a list and each one's place in it: one is drawn
        # at random every move, so adding, removing and drawing all take constant time.
        self.over: list[int] = []
        self.place: dict[int, int] = {}
        self.cost = 0

    def key(self, kind: int, a: int, b: int) -> int:
        return (kind * self.n + min(a, b)) * self.n + max(a, b)

    def penalty(self, kind: int, count: int) -> int:
        excess = count - self.limits[kind]
        return self.weights[kind] * excess * (excess + 1) // 2 if excess > 0 else 0

    def add(self, kind: int, a: int, b: int, step: int) -> None:
        key = self.key(kind, a, b)
        before = self.count[key]
        after = before + step
        self.count[key] = after
        self.cost += self.penalty(kind, after) - self.penalty(kind, before)
        if after > self.limits[kind]:
            if key not in self.place:
                self.place[key] = len(self.over)
                self.over.append(key)
        elif key in self.place:
            at = self.place.pop(key)
            last = self.over.pop()
            if last != key:
                self.over[at] = last
                self.place[last] = at

    def split(self, key: int) -> tuple[int, int, int]:
        rest, b = divmod(key, self.n)
        kind, a = divmod(rest, self.n)
        return kind, a, b


def repair(
    rounds: list[list[list[int]]],
    players: int,
    partnership: bool,
    limits: dict[int, int],
    rng: random.Random,
    moves: int,
    before: Sequence[Sequence[Sequence[int]]] = (),
) -> int:
    """Improve ``rounds`` (each a list of tables, each a list of player numbers) in place; the
    tables of ``before`` count but stay. Returns the conflicts left (0: every limit kept)."""
    weights = {PARTNER: 4, OPPONENT: 1, MET: 1}
    met = Meetings(players, limits, weights)
    for table in itertools.chain.from_iterable(before):
        for kind, a, b in meetings(table, partnership):
            met.add(kind, a, b, 1)
    where: list[dict[int, tuple[int, int]]] = []  # per round: player -> (table, seat)
    for tables in rounds:
        where.append({p: (t, s) for t, table in enumerate(tables) for s, p in enumerate(table)})
        for table in tables:
            for kind, a, b in meetings(table, partnership):
                met.add(kind, a, b, 1)

    def place(r: int, t: int, step: int) -> None:
        for kind, a, b in meetings(rounds[r][t], partnership):
            met.add(kind, a, b, step)

    def together(r: int, kind: int, a: int, b: int) -> bool:
        (ta, sa), (tb, sb) = where[r].get(a, (-1, 0)), where[r].get(b, (-2, 0))
        if ta != tb:
            return False
        return kind == MET or (kind == PARTNER) == ((sa - sb) % 2 == 0)

    def change(r: int, first: tuple[int, int], second: tuple[int, int]) -> int:
        """What swapping the players at two seats of round ``r`` would add to the cost."""
        (t1, s1), (t2, s2) = first, second
        x, y = rounds[r][t1][s1], rounds[r][t2][s2]
        if not partnership and t1 != t2:
            # Everyone meets everyone at a table: only the two movers' meetings there change
            # (size - 1 pairs each way), not every pair of both tables (a 12-seat table's 66):
            # a mixer's move costs in proportion to its table size, not its square.
            total = 0
            for t, leaving, coming in ((t1, x, y), (t2, y, x)):
                for q in rounds[r][t]:
                    if q == leaving:
                        continue
                    for who, by in ((leaving, -1), (coming, 1)):
                        count = met.count[met.key(MET, who, q)]
                        total += met.penalty(MET, count + by) - met.penalty(MET, count)
            return total
        after = {t: list(rounds[r][t]) for t in (t1, t2)}
        after[t1][s1], after[t2][s2] = y, x
        step: Counter[tuple[int, int, int]] = Counter()
        for t in after:
            for m in meetings(rounds[r][t], partnership):
                if x in m[1:] or y in m[1:]:
                    step[m[0], min(m[1:]), max(m[1:])] -= 1
            for m in meetings(after[t], partnership):
                if x in m[1:] or y in m[1:]:
                    step[m[0], min(m[1:]), max(m[1:])] += 1
        total = 0
        for (kind, u, v), by in step.items():
            if by:
                count = met.count[met.key(kind, u, v)]
                total += met.penalty(kind, count + by) - met.penalty(kind, count)
        return total

    best: tuple[int, list[list[list[int]]]] | None = None
    lowest, since = met.cost, 0
    for _ in range(moves):
        if not met.over or since > STALE:
            break
        if met.cost < lowest:
            lowest, since = met.cost, 0
        since += 1
        # A pair met too often: one of its meetings in the rounds being made, if any.
        key = met.over[rng.randrange(len(met.over))]
        kind, a, b = met.split(key)
        found = [r for r in range(len(rounds)) if together(r, kind, a, b)]
        if not found:
            continue  # the meetings are all in the fixed rounds
        r = rng.choice(found)
        mover = rng.choice((a, b))
        first = where[r][mover]
        size = len(rounds[r][0])
        seated = len(rounds[r]) * size
        # The best of a few swaps of the mover with another player of that round.
        chosen: tuple[int, tuple[int, int]] | None = None
        for other in rng.sample(range(seated), min(CANDIDATES, seated)):
            second = divmod(other, size)
            if second == first or (second[0] == first[0] and not partnership):
                continue
            delta = change(r, first, second)
            if chosen is None or delta < chosen[0]:
                chosen = (delta, second)
            if delta < 0:
                break  # the first that helps: where conflicts are many, most swaps do
        if chosen is None:
            continue
        delta, second = chosen
        if delta > 0:
            if rng.random() >= 0.02:
                continue
            if best is None or met.cost < best[0]:
                # A worse move taken to leave a dead end: the best seen is kept to come back to.
                best = (met.cost, [[list(t) for t in tables] for tables in rounds])
        swap(rounds, where, r, first, second, place)
    if best is not None and best[0] < met.cost:
        rounds[:] = best[1]
        return best[0]
    return met.cost


def swap(rounds, where, r: int, first: tuple[int, int], second: tuple[int, int], place) -> None:
    (t1, s1), (t2, s2) = first, second
    tables = {t1, t2}
    for t in tables:
        place(r, t, -1)
    x, y = rounds[r][t1][s1], rounds[r][t2][s2]
    rounds[r][t1][s1], rounds[r][t2][s2] = y, x
    where[r][x], where[r][y] = (t2, s2), (t1, s1)
    for t in tables:
        place(r, t, 1)


def greedy_tables(
    players: Sequence[int], size: int, met: dict[int, set[int]], rng: random.Random
) -> list[list[int]]:
    """One round's tables, each player in turn (in a random order) at the open table where they
    know the fewest: a start the repair need not undo much of where meetings are scarce. It
    costs players x tables, so it is for evenings of up to a few dozen tables."""
    order = list(players)
    rng.shuffle(order)
    tables: list[list[int]] = [[] for _ in range(len(order) // size)]
    for p in order:
        known = met.get(p, set())
        best = min(
            (t for t in tables if len(t) < size), key=lambda t: (sum(1 for q in t if q in known), len(t))
        )
        best.append(p)
    return tables
