"""The seating's figures (issue #40): how long a progressive evening takes to plan, and how well
it is seated. In-process, what creating the event runs (``checks.plan``), each size in a child
process with a time limit, so that code which takes minutes (an older checkout) is measured too:

    python benchmarks/seating.py                    # this checkout
    python benchmarks/seating.py --root /work/main  # another checkout, read only
    python benchmarks/run.py --seating-only         # the same rows in run.py's report
    python benchmarks/seating.py --sweep            # every n 4..60 x rounds 1..13, and the
                                                    # issue's 100/160/200/400 x 13: each rule
                                                    # broken, and the slowest plan

The sweep judges each plan by the rules themselves (computed here, not by the code measured, so
an older checkout is judged the same way): within n - 1 rounds, nobody partners twice and no two
players oppose more than once while n >= 3 rounds + 1 (twice otherwise); beyond n - 1 rounds,
where partners must repeat, nobody partners more often than the partnerships over the pairs
(rounded up) and opponents meet at most once more than the oppositions over the pairs (rounded
up); at every round, nobody has sat out twice before everyone has once.

Quality as the issue counts it: partner repeats (partnerships beyond the first of the same two
players), the most times two players opposed, the sit-out spread (most minus fewest sit-outs).
It is a benchmark, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# (players, rounds): 12 and 13 play their whole perfect designs, the others 13 rounds.
EVENINGS = [
    (12, 11),
    (12, 13),
    (13, 13),
    (14, 13),
    (32, 13),
    (40, 13),
    (48, 13),
    (60, 13),
    (100, 13),
    (160, 13),
    (200, 13),
    (400, 13),
]


# The sweep: every size up to 60 at every length up to 13, and the large evenings.
def sweep_evenings(largest: int = 60) -> list[tuple[int, int]]:
    """Every n from 4 to ``largest`` at every length 1..13, then the issue's sizes beyond it x 13."""
    every = [(n, r) for n in range(4, largest + 1) for r in range(1, 14)]
    return every + [(n, 13) for n in (100, 160, 200, 400) if n > largest]


SWEEP = sweep_evenings()


def limits(players: int, rounds: int) -> tuple[int, int]:
    """The most meetings the rules allow two players as partners, and as opponents."""
    if rounds <= players - 1:
        return 1, 1 if players >= 3 * rounds + 1 else 2
    pairs, partnerships = players * (players - 1) // 2, rounds * 2 * (players // 4)
    return -(-partnerships // pairs), -(-2 * partnerships // pairs) + 1


def judge(players: int, rounds: int, plan: list[dict]) -> dict:
    """A plan's quality as the issue counts it, and every rule it breaks (see the module doc)."""
    partners: Counter = Counter()
    opponents: Counter = Counter()
    outs: Counter = Counter()
    in_turn = True
    for rnd in plan:
        for a, b, c, d in rnd["tables"]:
            partners.update([frozenset((a, c)), frozenset((b, d))])
            opponents.update(frozenset((x, y)) for x in (a, c) for y in (b, d))
        outs.update(rnd["sitting_out"])
        so_far = [outs[p] for p in range(players)]
        in_turn = in_turn and max(so_far) - min(so_far) <= 1
    spread = [outs[p] for p in range(players)]
    partnered, opposed = limits(players, rounds)
    most_partnered, most_opposed = max(partners.values(), default=0), max(opponents.values(), default=0)
    broken = []
    if len(plan) != rounds:
        broken.append(f"{len(plan)} rounds planned")
    if most_partnered > partnered:
        broken.append(f"partners met {most_partnered} times (at most {partnered})")
    if most_opposed > opposed:
        over = sum(1 for c in opponents.values() if c > opposed)
        broken.append(f"opponents met {most_opposed} times (at most {opposed}; {over} pairs)")
    if not in_turn:
        broken.append("sitting out not in turn")
    return {
        "partner_repeats": sum(c - 1 for c in partners.values()),
        "most_partnered": most_partnered,
        "most_opposed": most_opposed,
        "sit_out_spread": max(spread) - min(spread),
        "broken": broken,
    }


def measure(players: int, rounds: int, repeat: int) -> dict:
    """Run in the child: the plan's median time over ``repeat`` runs, and its quality."""
    from scorekeeper.events import checks

    times, plan = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        plan = checks.plan("progressive", None, players, rounds, 4)
        times.append(time.perf_counter() - started)
    assert plan is not None
    return {
        "players": players,
        "rounds": rounds,
        "seconds": statistics.median(times),
        **judge(players, rounds, plan),
    }


def sweep(root: Path = ROOT, evenings=SWEEP, timeout: float = 1800) -> list[dict]:
    """Every evening of ``evenings`` planned once and judged, in one child process on ``root``."""
    code = (
        f"import json, sys; sys.path.insert(0, {str(root)!r}); sys.path.insert(1, {str(Path(__file__).parent)!r}); "
        f"import seating; print(json.dumps([seating.measure(n, r, 1) for n, r in {list(evenings)!r}]))"
    )
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=root, env=env, capture_output=True, text=True, timeout=timeout
    )
    if done.returncode:
        raise RuntimeError(done.stderr[-2000:])
    return json.loads(done.stdout.strip().splitlines()[-1])


def sweep_rows(measured: list[dict]) -> list[str]:
    """One line per evening that breaks a rule, then the slowest plans and a summary."""
    out = [
        f"{m['players']} x {m['rounds']}: {'; '.join(m['broken'])} ({m['seconds'] * 1000:.0f} ms)"
        for m in measured
        if m["broken"]
    ]
    slowest = sorted(measured, key=lambda m: -m["seconds"])[:5]
    out.append(
        "slowest: "
        + ", ".join(f"{m['players']} x {m['rounds']} {m['seconds'] * 1000:.0f} ms" for m in slowest)
    )
    out.append(f"{len(measured)} evenings, {sum(1 for m in measured if m['broken'])} breaking a rule")
    return out


def figures(
    root: Path = ROOT, timeout: float = 60, repeat: int = 3, evenings=EVENINGS, say=None
) -> list[dict]:
    """Each evening measured in a child process on ``root``'s package (None: over the time limit)."""
    out = []
    for players, rounds in evenings:
        if say:
            say(f"seating: {players} players x {rounds} rounds")
        code = (
            f"import json, sys; sys.path.insert(0, {str(root)!r}); sys.path.insert(1, {str(Path(__file__).parent)!r}); "
            f"import seating; print(json.dumps(seating.measure({players}, {rounds}, {repeat})))"
        )
        env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}  # nothing written into another checkout
        try:
            done = subprocess.run(
                [sys.executable, "-c", code],
                cwd=root,
                env=env,
                capture_output=True,
                text=True,
                timeout=timeout,
            )
        except subprocess.TimeoutExpired:
            out.append({"players": players, "rounds": rounds, "seconds": None, "timeout": timeout})
            continue
        if done.returncode:
            raise RuntimeError(done.stderr[-2000:])
        out.append(json.loads(done.stdout.strip().splitlines()[-1]))
    return out


def rows(measured: list[dict]) -> list[tuple[str, str, str]]:
    """(figure, time, quality) for the report."""
    out = []
    for m in measured:
        name = f"seat {m['players']} players x {m['rounds']} rounds"
        if m["seconds"] is None:
            out.append((name, f"> {m['timeout']:.0f} s", "no plan within the limit"))
            continue
        out.append(
            (
                name,
                f"{m['seconds'] * 1000:.0f} ms" if m["seconds"] < 10 else f"{m['seconds']:.0f} s",
                f"partner repeats {m['partner_repeats']}, most opposed {m['most_opposed']}, "
                f"sit-out spread {m['sit_out_spread']}",
            )
        )
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout whose seating is measured")
    parser.add_argument(
        "--timeout", type=float, default=60, help="seconds per evening before it counts as none"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs per evening (the median is shown)")
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument(
        "--sweep", action="store_true", help="every n 4..60 x rounds 1..13 and 100-400 x 13, judged"
    )
    parser.add_argument(
        "--largest", type=int, default=60, help="the sweep's every n up to this (at most 400)"
    )
    args = parser.parse_args(argv)
    if args.sweep:
        swept = sweep(args.root, sweep_evenings(args.largest))
        for line in sweep_rows(swept):
            print(line)
        if args.json:
            args.json.write_text(json.dumps(swept, indent=2))
        return 0
    measured = figures(args.root, args.timeout, args.repeat)
    print("| evening | time to plan | quality |\n|---|---|---|")
    for name, took, quality in rows(measured):
        print(f"| {name} | {took} | {quality} |")
    if args.json:
        args.json.write_text(json.dumps(measured, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
