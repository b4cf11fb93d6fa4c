"""Search schedules for small progressive evenings offline and print them as data.

For 4..23 players the numbers are tight (a few players, up to n-1 rounds): neither a developed
base round nor a quick repair reliably finds a schedule that keeps the rules within a request,
so one schedule per size is searched here, at leisure, and shipped in
``scorekeeper/events/small_schedules.py``. Each is ``min(13, n-1)`` rounds long and every
prefix of it keeps the rules for an evening of that many rounds: nobody partners twice; two
players oppose at most once in the first (n-1)//3 rounds and at most twice in all; sitting
out goes in turn. An evening of r rounds takes the first r.

Run: ``python scripts/small_schedules.py 6 7 10 ...`` (seconds per size: ``--seconds``).
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
    args = parser.parse_args()
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
