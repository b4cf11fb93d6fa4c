"""Search schedules for small progressive evenings offline and print them as data.

For 4..23 players the numbers are tight (a few players, up to n-1 rounds): neither a developed
base round nor a quick repair reliably finds a schedule that keeps the rules within a request,
so one schedule per size is searched here, at leisure, and shipped in
``scorekeeper/events/small_schedules.py``. Each is ``min(13, n-1)`` rounds long and every
prefix of it keeps the rules for an evening of that many rounds: nobody partners twice; two
players oppose at most once in the first (n-1)//3 rounds and at most twice in all; sitting
out goes in turn. An evening of r rounds takes the first r.

Run: ``python scripts/small_schedules.py 6 7 10 ...`` (seconds per size: ``--seconds``).

``--from-design`` makes instead, for n = 4k + 2 players, a schedule from the perfect design of
n - 1 players (n - 1 rounds, one sitting out each): the extra player sits out once in each half
of the evening and, in every other round, takes the seat of a player who then sits out beside
the design's. The design's players only lose meetings, so nobody partners twice and nobody
opposes more than twice among them; a short backtracking search chooses whose seat the extra
player takes so that they, too, partner nobody twice and oppose nobody three times, and that
sitting out goes in turn at every round. This is how 14 players get 12 and 13 rounds within
two meetings, which the random search above never found (``LONG`` in small_schedules.py).

``--more`` continues a stored schedule of n - 1 rounds to 13 (``MORE``: 6, 7, 10 and 11 players,
the sizes below 14 without a design), a round at a time, each repaired against the rounds before
it to ``seating.repeat_limits`` (partners repeat, but no more than the numbers force).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.events import repair, seating  # noqa: E402

ROUNDS: dict[int, int] = {}  # shorter schedules asked for on the command line


def rounds_for(n: int) -> int:
    return ROUNDS.get(n, min(seating.MAX_DEFAULT_ROUNDS, n - 1))


def attempt(n: int, rng: random.Random) -> tuple[int, list[seating.Round]]:
    """Two phases: the rounds that must meet nobody twice, then the rest allowing twice."""
    total = rounds_for(n)
    strict = min(total, (n - 1) // 3)
    order = list(range(n))
    rng.shuffle(order)
    made: list[seating.Round] = []
    left = 0
    for rounds in (strict, total - strict):
        if rounds == 0:
            continue
        prior = list(made)
        sat_out: Counter = Counter(p for r in prior for p in r.sitting_out)
        tables, resting_by_round = [], []
        for _ in range(rounds):
            # Those who sat out least, ties at random: every pattern of turns can come up.
            resting = sorted(order, key=lambda p: (sat_out[p], rng.random()))[: n % 4]
            sat_out.update(resting)
            playing = [p for p in order if p not in resting]
            rng.shuffle(playing)
            tables.append([playing[i : i + 4] for i in range(0, len(playing), 4)])
            resting_by_round.append(tuple(sorted(resting)))
        limits = {repair.PARTNER: 1, repair.OPPONENT: seating.opponent_limit(n, len(prior) + rounds)}
        fixed = [[t.seats for t in r.tables] for r in prior]
        left += repair.repair(tables, n, True, limits, rng, 20_000, fixed)
        made += [
            seating.Round(
                len(prior) + i + 1,
                tuple(seating.Table(j + 1, tuple(t)) for j, t in enumerate(ts)),
                resting_by_round[i],
            )
            for i, ts in enumerate(tables)
        ]
    return left, made


def prefixes_ok(n: int, made: list[seating.Round]) -> bool:
    return all(
        seating.seated_as_allowed(n, r, seating.partnership_quality(n, made[:r]))
        for r in range(1, len(made) + 1)
    )


def search(n: int, seconds: float) -> tuple[list[seating.Round], bool]:
    started = time.time()
    best: tuple[int, list[seating.Round]] | None = None
    seed = 0
    while time.time() - started < seconds:
        seed += 1
        left, made = attempt(n, random.Random(n * 100_003 + seed))
        if left == 0 and prefixes_ok(n, made):
            return made, True
        if best is None or left < best[0]:
            best = (left, made)
    assert best is not None
    return best[1], False


def from_design(n: int) -> list[seating.Round] | None:
    """The design of n - 1 players with one more player (see the module's doc), or None."""
    design = seating._from_design(n - 1)
    extra, total = n - 1, len(design)
    rest = [r.sitting_out for r in design]
    choice: list[int | None] = []

    def place(t: int, sat: Counter, partners: frozenset, opposed: Counter, out: int) -> bool:
        if t == total:
            return True
        for p in [None, *(p for table in design[t].tables for p in table.seats)]:
            counted = sat + Counter([*rest[t], extra if p is None else p])
            values = [counted[q] for q in range(n)]
            if max(values) - min(values) > 1 or out + (p is None) > 2:
                continue
            met, faced = partners, opposed
            if p is not None:
                seats = next(table.seats for table in design[t].tables if p in table.seats)
                i = seats.index(p)
                partner, facing = seats[(i + 2) % 4], (seats[(i + 1) % 4], seats[(i + 3) % 4])
                if partner in partners or any(opposed[o] >= 2 for o in facing):
                    continue
                met, faced = partners | {partner}, opposed + Counter(facing)
            choice.append(p)
            if place(t + 1, counted, met, faced, out + (p is None)):
                return True
            choice.pop()
        return False

    if not place(0, Counter(), frozenset(), Counter(), 0):
        return None
    made = []
    for rnd, p in zip(design, choice, strict=True):
        tables = tuple(
            seating.Table(table.number, tuple(extra if q == p else q for q in table.seats))
            for table in rnd.tables
        )
        resting = tuple(sorted([*rnd.sitting_out, extra if p is None else p]))
        made.append(seating.Round(rnd.number, tables, resting))
    return made


def prefixes_within_limits(n: int, made: list[seating.Round]) -> bool:
    for r in range(1, len(made) + 1):
        partners = Counter(
            seating._pair(*p) for x in made[:r] for t in x.tables for p in seating.partners_of(t)
        )
        quality = seating.partnership_quality(n, made[:r])
        if not seating.seated_as_allowed(n, r, quality, max(partners.values())):
            return False
    return True


def more(n: int, total: int, seconds: float) -> list[seating.Round] | None:
    """The rounds after SMALL[n]'s up to ``total``, every prefix within the limits, or None."""
    from scorekeeper.events.small_schedules import SMALL

    start = [seating._parsed(i + 1, line) for i, line in enumerate(SMALL[n])]
    started, seed = time.time(), 0
    while time.time() - started < seconds:
        seed += 1
        rng = random.Random(seed)
        made = list(start)
        while len(made) < total:
            number = len(made) + 1
            sat = Counter(p for x in made for p in x.sitting_out)
            partnered, opposed = seating.repeat_limits(n, number)
            limits = {repair.PARTNER: partnered, repair.OPPONENT: opposed}
            found = None
            for _ in range(30):
                resting = sorted(range(n), key=lambda p: (sat[p], rng.random()))[: n % 4]
                playing = [p for p in range(n) if p not in resting]
                rng.shuffle(playing)
                tables = [[playing[i : i + 4] for i in range(0, len(playing), 4)]]
                fixed = [[t.seats for t in x.tables] for x in made]
                if repair.repair(tables, n, True, limits, rng, 2000, fixed) == 0:
                    seats = tuple(seating.Table(j + 1, tuple(t)) for j, t in enumerate(tables[0]))
                    found = seating.Round(number, seats, tuple(sorted(resting)))
                    break
            if found is None:
                break
            made.append(found)
        if len(made) == total and prefixes_within_limits(n, made):
            return made[len(start) :]
    return None


def as_text(made: list[seating.Round]) -> list[str]:
    """One line per round: its tables' seats, then the players sitting out after a '/'."""
    return [
        " ".join(str(p) for t in r.tables for p in t.seats)
        + (" / " + " ".join(map(str, r.sitting_out)) if r.sitting_out else "")
        for r in made
    ]


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("sizes", nargs="+", type=int)
    parser.add_argument("--seconds", type=float, default=120)
    parser.add_argument("--rounds", type=int, help="rounds of each schedule (default: min(13, n-1))")
    parser.add_argument(
        "--from-design", action="store_true", help="n - 1 players' perfect design and one player more"
    )
    parser.add_argument("--more", action="store_true", help="continue SMALL[n] to 13 rounds (MORE)")
    args = parser.parse_args()
    if args.more:
        for n in args.sizes:
            rounds = more(n, seating.MAX_DEFAULT_ROUNDS, args.seconds)
            print(f"    {n}: (" if rounds else f"    # {n}: none found")
            for line in as_text(rounds or []):
                print(f'        "{line}",')
            print("    )," if rounds else "", flush=True)
        sys.exit(0)
    if args.from_design:
        for n in args.sizes:
            found = from_design(n)
            if found is None:
                print(f"    # {n} players: no schedule from the design of {n - 1}")
                continue
            q = seating.partnership_quality(n, found)
            print(
                f"    # {n} players from the design of {n - 1}: partner repeats {q.partner_repeats}, "
                f"opponents at most {q.opponent_spread[1]}"
            )
            print(f"    {n}: (")
            for line in as_text(found):
                print(f'        "{line}",')
            print("    ),", flush=True)
        sys.exit(0)
    if args.rounds:
        ROUNDS.update({n: args.rounds for n in args.sizes})
    for n in args.sizes:
        made, ok = search(n, args.seconds)
        q = seating.partnership_quality(n, made)
        print(
            f"    # {n} players: {'every prefix keeps the rules' if ok else 'best found'}: "
            f"partner repeats {q.partner_repeats}, opponents at most {q.opponent_spread[1]}"
        )
        print(f"    {n}: (")
        for line in as_text(made):
            print(f'        "{line}",')
        print("    ),", flush=True)
