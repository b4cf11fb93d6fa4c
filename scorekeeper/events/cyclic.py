"""Progressive seating by development: one base round, every round after it the base shifted by one.

Why: a schedule made round by round gets harder as it goes (the last rounds of a tight evening
have almost no seat left that meets nobody again), and a whole-schedule search costs rounds x
tables x its tries. Here the work is one round's: the players are ``levels`` copies of the
integers mod ``q`` (player ``i*q + x`` is point x of level i) and ``fixed`` players more who
never move; round t adds t mod q to every point. Two players who sit together in the base meet
again, in later rounds, only as the pair that the base's other tables give the same *class*
(levels and difference, see :func:`_pair_class`), so "nobody partners twice, nobody opposes
twice within r rounds" is a condition on the base round alone: the offsets of a class lie at
least r apart mod q. With q = r (the rounds played) a class may be used once, which makes the
base easy to find even at the tightest size (n = 3r + 1: 40 players, 13 rounds, 0.03 s), and
sitting out is even by construction (each sitting-out point of the base sits out once per q
rounds). The base is found by a local search (random swaps that do not add conflicts); its cost
is the base's tables, its development tables x rounds.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

Seats = tuple[int, int, int, int]


@dataclass(frozen=True)
class Base:
    players: int
    q: int  # the rounds' cycle: round t shifts every non-fixed player by t mod q
    levels: int
    tables: tuple[Seats, ...]  # seats 0+2 and 1+3 partner
    sitting_out: tuple[int, ...]


def layout(n: int, q: int, rounds: int) -> tuple[int, int, tuple[int, ...]] | None:
    """(levels, fixed players, the base's sitting-out players) for ``n`` players on the
    integers mod ``q``, or None when sitting out could not stay even for ``rounds`` rounds."""
    levels, fixed = divmod(n, q)
    resting = n % 4
    if levels == 0 or q < rounds or fixed > (n - resting) // 4:
        return None  # two fixed players at one table would meet every round
    if levels >= resting:
        # One point of each of the first levels: each sits out once per q rounds, nobody twice.
        return levels, fixed, tuple(i * q for i in range(resting))
    # One level: points spread evenly round the cycle, so the turns come round in order. With
    # fixed players (who never sit out) nobody may sit out twice within the evening.
    if fixed and resting * rounds > q:
        return None
    return levels, fixed, tuple((j * q) // resting for j in range(resting))


def candidates(n: int, rounds: int) -> list[int]:
    """Cycles worth trying, best first: q = rounds (each class used once, the easiest search
    when every meeting must differ), then cycles without fixed players, then few of them."""
    out = []
    # A cycle of 2 brings every pair of one level back each round: 3 at least.
    first = max(rounds, 3) if rounds > 1 else 1
    for q in [first, *sorted(range(first + 1, n + 1), key=lambda q: (n % q, q))]:
        if layout(n, q, rounds) is not None and q not in out:
            out.append(q)
        if len(out) == 3:
            break
    return out


def find_base(n: int, rounds: int, q: int, rng: random.Random, moves: int) -> Base | None:
    """A base round for ``n`` players developed over ``rounds`` rounds on the cycle ``q``, where
    no two players partner twice and none oppose more than the numbers require (once while
    n >= 3 rounds + 1, twice otherwise); None when ``moves`` swaps did not find one."""
    shape = layout(n, q, rounds)
    if shape is None:
        return None
    levels, _fixed, resting = shape
    opposed = 1 if n >= 3 * rounds + 1 else 2
    moving = levels * q
    seats = [p for p in range(n) if p not in resting]
    rng.shuffle(seats)
    offsets: dict[tuple, list[int]] = {}
    periods: dict[tuple, int] = {}
    cost: dict[tuple, int] = {}
    known: dict[tuple[int, int, int], tuple[tuple, int, int]] = {}

    def classed(kind: int, x: int, y: int) -> tuple[tuple, int]:
        found = known.get((kind, x, y))
        if found is None:
            found = known[kind, x, y] = _pair_class(kind, x, y, q, moving)
            periods[found[0]] = found[2]
        return found[0], found[1]

    def meetings(seat: int) -> list[tuple[tuple, int]]:
        """The classes of the three pairs the player at ``seat`` is in: partner, two opponents."""
        t, s = divmod(seat, 4)
        me = seats[seat]
        partner = seats[4 * t + (s + 2) % 4]
        left, right = seats[4 * t + (s + 1) % 4], seats[4 * t + (s + 3) % 4]
        return [classed(0, me, partner), classed(1, me, left), classed(1, me, right)]

    def conflicts(key: tuple, held: list[int]) -> int:
        return _excess(held, periods[key], rounds, 1 if key[0] == 0 else opposed)

    tables = len(seats) // 4
    for t in range(tables):
        a, b, c, d = seats[4 * t : 4 * t + 4]
        for kind, x, y in ((0, a, c), (0, b, d), (1, a, b), (1, a, d), (1, c, b), (1, c, d)):
            key, offset = classed(kind, x, y)
            offsets.setdefault(key, []).append(offset)
    for key, held in offsets.items():
        cost[key] = conflicts(key, held)
    total = sum(cost.values())
    for _ in range(moves):
        if total == 0:
            break
        # One player from a conflict (most moves), the other anywhere.
        hot = [x for x in range(len(seats)) if any(cost.get(key) for key, _ in meetings(x))]
        i = rng.choice(hot) if hot and rng.random() < 0.8 else rng.randrange(len(seats))
        j = rng.randrange(len(seats))
        if i // 4 == j // 4:
            continue
        # Only the swapped players' pairs change: their classes' offsets are worked on copies.
        changed: dict[tuple, list[int]] = {}
        for key, offset in meetings(i) + meetings(j):
            changed.setdefault(key, list(offsets.get(key, ()))).remove(offset)
        seats[i], seats[j] = seats[j], seats[i]
        for key, offset in meetings(i) + meetings(j):
            changed.setdefault(key, list(offsets.get(key, ()))).append(offset)
        new = {key: conflicts(key, held) for key, held in changed.items()}
        delta = sum(new[key] - cost.get(key, 0) for key in changed)
        # Sideways moves keep the search walking; a rare worse one gets it out of a corner.
        if delta <= 0 or rng.random() < 0.002:
            offsets.update(changed)
            cost.update(new)
            total += delta
        else:
            seats[i], seats[j] = seats[j], seats[i]
    if total:
        return None
    return Base(n, q, levels, tuple(tuple(seats[4 * t : 4 * t + 4]) for t in range(tables)), resting)  # type: ignore[misc]


def _pair_class(kind: int, u: int, v: int, q: int, moving: int) -> tuple[tuple, int, int]:
    """The class of a pair (partners: kind 0, opponents: 1), the pair's offset in it and the
    class's period: the pair at offset o in the base is, in round t, the class's pair o + t
    (mod the period). Two offsets of a class closer than r rounds mean a pair met twice."""
    if u > v:
        u, v = v, u
    if v >= moving:  # a fixed player
        if u >= moving:
            return (kind, "fixed", u, v), 0, 1  # two fixed players: the same pair every round
        return (kind, "with", v, u // q), u % q, q
    i, x = divmod(u, q)
    j, y = divmod(v, q)
    if i != j:
        return (kind, i, j, (y - x) % q), x, q
    d = (y - x) % q
    if 2 * d == q:  # {x, x + q/2} is {x + q/2, x}: the pair comes back every q/2 rounds
        return (kind, i, i, d), min(x, y) % d, d
    return ((kind, i, i, d), x, q) if 2 * d < q else ((kind, i, i, q - d), y, q)


def _excess(offsets: Sequence[int], period: int, rounds: int, limit: int) -> int:
    """Meetings beyond ``limit`` of any one pair of the class within the first ``rounds`` rounds."""
    if len(offsets) == 1 and period >= rounds:
        return 0
    if limit == 1 and period >= rounds:
        clash = 0
        for a in range(len(offsets)):
            for b in range(a + 1, len(offsets)):
                gap = (offsets[a] - offsets[b]) % period
                clash += min(gap, period - gap) < rounds
        return clash
    met: Counter[int] = Counter()
    for offset in offsets:
        for t in range(rounds):
            met[(offset + t) % period] += 1
    return sum(c - limit for c in met.values() if c > limit)


def develop(base: Base, rounds: int) -> list[tuple[list[Seats], list[int]]]:
    """The first ``rounds`` rounds: (tables, sitting out) each, the base shifted by the round."""
    q, moving = base.q, base.levels * base.q

    def at(p: int, t: int) -> int:
        return p if p >= moving else p - p % q + (p % q + t) % q

    return [
        (
            [(at(a, t), at(b, t), at(c, t), at(d, t)) for a, b, c, d in base.tables],
            [at(p, t) for p in base.sitting_out],
        )
        for t in range(rounds)
    ]
