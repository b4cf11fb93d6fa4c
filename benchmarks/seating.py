"""The seating's figures (issue #40): how long a progressive evening takes to plan, and how well
it is seated. In-process, what creating the event runs (``checks.plan``), each size in a child
process with a time limit, so that code which takes minutes (an older checkout) is measured too:

    python benchmarks/seating.py                    # this checkout
    python benchmarks/seating.py --root /work/main  # another checkout, read only
    python benchmarks/run.py --seating-only         # the same rows in run.py's report

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
    (13, 13),
    (32, 13),
    (40, 13),
    (48, 13),
    (60, 13),
    (100, 13),
    (160, 13),
    (200, 13),
    (400, 13),
]


def measure(players: int, rounds: int, repeat: int) -> dict:
    """Run in the child: the plan's median time over ``repeat`` runs, and its quality."""
    from scorekeeper.events import checks

    times, plan = [], None
    for _ in range(repeat):
        started = time.perf_counter()
        plan = checks.plan("progressive", None, players, rounds, 4)
        times.append(time.perf_counter() - started)
    assert plan is not None
    partners: Counter = Counter()
    opponents: Counter = Counter()
    for rnd in plan:
        for a, b, c, d in rnd["tables"]:
            partners.update([frozenset((a, c)), frozenset((b, d))])
            opponents.update(frozenset((x, y)) for x in (a, c) for y in (b, d))
    outs = Counter(p for rnd in plan for p in rnd["sitting_out"])
    spread = [outs[p] for p in range(players)]
    return {
        "players": players,
        "rounds": rounds,
        "seconds": statistics.median(times),
        "partner_repeats": sum(c - 1 for c in partners.values()),
        "most_opposed": max(opponents.values()),
        "sit_out_spread": max(spread) - min(spread),
    }


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
    args = parser.parse_args(argv)
    measured = figures(args.root, args.timeout, args.repeat)
    print("| evening | time to plan | quality |\n|---|---|---|")
    for name, took, quality in rows(measured):
        print(f"| {name} | {took} | {quality} |")
    if args.json:
        args.json.write_text(json.dumps(measured, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
