"""Search perfect progressive schedules (whist tournament designs) offline and print them as data.

A whist design for n players (n = 4k: n-1 rounds; n = 4k+1: n rounds, one player sitting out
each round) seats players at tables of four so that everyone partners everyone else exactly once
and opposes everyone else exactly twice. A cyclic design is one round (the "initial round") over
an abelian group G, developed by adding each element of G in turn; for 4k players G has n-1
elements and one more player (infinity) stays put; for 4k+1, G has n elements and the player 0
sits out the initial round. The search is a randomised backtracking over the initial round that
keeps, per difference class {x, -x} of G, the count of partner pairs at most one and of opponent
pairs at most two; restarts bound each attempt.

Run: ``python scripts/whist_designs.py 8 9 12 13 ...``; paste the output into
``scorekeeper/events/designs.py``. The tests check every shipped design is perfect.
"""

from __future__ import annotations

import itertools
import random
import sys
import time


def group_elements(moduli: tuple[int, ...]) -> list[tuple[int, ...]]:
    return list(itertools.product(*(range(m) for m in moduli)))


def search(n: int, moduli: tuple[int, ...], seed: int = 0, node_limit: int = 200_000, seconds: float = 600):
    elements = group_elements(moduli)
    index = {e: i for i, e in enumerate(elements)}
    size = len(elements)

    def sub(x: int, y: int) -> int:
        a, b = elements[x], elements[y]
        return index[tuple((p - q) % m for p, q, m in zip(a, b, moduli, strict=True))]

    diff_class = [[min(sub(x, y), sub(y, x)) for y in range(size)] for x in range(size)]
    infinity = n % 4 == 0
    zero = index[tuple(0 for _ in moduli)]

    def attempt_once(rng: random.Random):
        """One randomised backtracking, given up after ``node_limit`` steps (TimeoutError)."""
        partner = [0] * size
        opponent = [0] * size
        nodes = [0]
        tables: list[tuple] = []

        def cls(x, y):
            return None if x is None or y is None else diff_class[x][y]

        def fits(pairs, counts, limit):
            seen: dict[int, int] = {}
            for x, y in pairs:
                c = cls(x, y)
                if c is None:
                    continue
                seen[c] = seen.get(c, 0) + 1
                if counts[c] + seen[c] > limit:
                    return False
            return True

        def bump(pairs, counts, step):
            for x, y in pairs:
                c = cls(x, y)
                if c is not None:
                    counts[c] += step

        def rec(rest):
            nodes[0] += 1
            if nodes[0] > node_limit:
                raise TimeoutError
            if not rest:
                return True
            a = rest[0]
            others = list(rest[1:])
            rng.shuffle(others)
            for c in others:
                if not fits([(a, c)], partner, 1):
                    continue
                left = [x for x in others if x != c]
                for b, d in itertools.combinations(left, 2):
                    partners = [(a, c), (b, d)]
                    opponents = [(a, b), (a, d), (c, b), (c, d)]
                    if not (fits(partners, partner, 1) and fits(opponents, opponent, 2)):
                        continue
                    bump(partners, partner, 1)
                    bump(opponents, opponent, 1)
                    tables.append((a, b, c, d))
                    if rec([x for x in left if x not in (b, d)]):
                        return True
                    tables.pop()
                    bump(partners, partner, -1)
                    bump(opponents, opponent, -1)
            return False

        points = [p for p in range(size) if infinity or p != zero]
        rng.shuffle(points)
        if rec([None, *points] if infinity else points):
            return [tuple(None if p is None else elements[p] for p in t) for t in tables]
        return None

    started = time.time()
    attempt = 0
    while time.time() - started < seconds:
        attempt += 1
        try:
            found = attempt_once(random.Random(seed * 100_003 + attempt))
        except TimeoutError:
            continue
        if found is not None:
            return found
    return None


def moduli_for(n: int) -> tuple[int, ...]:
    size = n - 1 if n % 4 == 0 else n
    return (3, 3) if size == 9 else (size,)


if __name__ == "__main__":
    for arg in sys.argv[1:]:
        n = int(arg)
        moduli = moduli_for(n)
        found = search(n, moduli)
        if found is None:
            print(f"# {n}: none found", flush=True)
            continue
        plain = [
            tuple(None if p is None else (p[0] if len(moduli) == 1 else list(p)) for p in t) for t in found
        ]
        print(f"    {n}: ({list(moduli)}, {plain}),", flush=True)
