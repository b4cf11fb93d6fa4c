"""The crowd as phones see it (issue 58): an asyncio HTTP client (aiohttp), one kept-alive connection
per phone, every phone starting at once, driven by benchmarks/run.py ``--crowd aiohttp``.

The sweep's own crowd (crowd.capacity_scenario) is gentler than a hall: its phones start over 3 s,
its scorers post on a fresh connection each, and it speaks raw HTTP with nothing in between. Here
each phone is its own aiohttp session (its own connection, kept alive as aiohttp keeps it, and
opened again when either side closed it), every follower polls as the page's script does
(``HX-Request: true``, ``If-None-Match`` and ``X-Live-Since`` with its last ETag) and waits what
each answer asks (``X-Poll-After``, ``Retry-After`` after a 503 or 429), and all followers send
their first poll together, as the phones of a hall whose evening begins.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from crowd import percentile

# How long a phone waits for an answer before it gives up (a browser's script, htmx: 15 s), and a
# scorer (its deal stays on the page to send again: 30 s, as the sweep's scorers).
POLL_PATIENCE = 15.0
POST_PATIENCE = 30.0
# When nothing says how long to wait (an error, an answer without X-Poll-After): the calm pace.
DEFAULT_WAIT = 3.0


@dataclass
class Tally:
    """What the counted window saw."""

    posts_ok: int = 0
    posts_failed: int = 0
    post_s: list[float] = field(default_factory=list)
    polls: dict[str, int] = field(default_factory=dict)
    seen_s: list[float] = field(default_factory=list)
    # What went wrong, by kind (a timeout, a refused connection, ...): the client's view of a failure.
    errors: dict[str, int] = field(default_factory=dict)

    def error(self, what: str, error: BaseException) -> None:
        name = f"{what}: {type(error).__name__}"
        self.errors[name] = self.errors.get(name, 0) + 1

    def poll(self, status: str) -> None:
        self.polls[status] = self.polls.get(status, 0) + 1


def cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of one process (all its threads), from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def process_tree(pid: int) -> list[int]:
    """``pid`` and its children's pids (gunicorn's master and its workers), from /proc."""
    pids, todo = [], [pid]
    while todo:
        p = todo.pop()
        pids.append(p)
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                todo += [int(c) for c in (task / "children").read_text().split()]
            except OSError:
                continue
    return pids


def cpu_snapshot(server_pid: int | None) -> dict[str, float]:
    """CPU seconds so far of this client and of each of the server's processes."""
    times = os.times()
    snap = {"client": times.user + times.system}
    if server_pid is not None:
        for n, pid in enumerate(process_tree(server_pid)):
            snap["server master" if n == 0 else f"server worker {pid}"] = cpu_seconds(pid)
    return snap


async def phones_crowd(
    url: str,
    games: Sequence[tuple[str, str]],
    etags: Sequence[str],
    bodies: Sequence[dict[str, Any]],
    seconds: float,
    *,
    warmup: float,
    seed: int,
    viewers: int = 3,
    deal_every: float = 60.0,
    server_pid: int | None = None,
) -> dict[str, Any]:
    """``viewers`` phones per table following its live region, and a scorer per table posting a deal
    every ``deal_every`` seconds (the first at a random moment of the first minute: a hall's tables
    do not finish their first hand together), for ``warmup`` seconds not counted, then ``seconds``
    counted. Returns the counted figures (see Tally) and the CPU each process spent meanwhile."""
    import aiohttp

    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    begin = loop.time()
    start = begin + warmup
    end = start + seconds
    tally = Tally()
    warm = Tally()
    # Per table, when each of its deals was answered 201 (the deal saved): a follower's 200 sees
    # every deal saved before its poll was sent.
    saved: list[list[float]] = [[] for _ in games]
    cpu: dict[str, dict[str, float]] = {}

    def now_tally() -> Tally:
        return tally if loop.time() >= start else warm

    def session() -> aiohttp.ClientSession:
        # One connection per phone (limit 1), kept alive as aiohttp keeps it (15 s idle by default).
        return aiohttp.ClientSession(
            connector=aiohttp.TCPConnector(limit=1, ttl_dns_cache=None, use_dns_cache=True),
            cookie_jar=aiohttp.DummyCookieJar(),
        )

    async def follower(t: int) -> None:
        game_id, _ = games[t]
        etag = etags[t]
        seen = 0  # this phone has seen the table's first ``seen`` saved deals
        target = f"{url}/g/{game_id}/live?part=live&lang=en"
        timeout = aiohttp.ClientTimeout(total=POLL_PATIENCE)
        async with session() as phone:
            while loop.time() < end:
                counted = now_tally()
                headers = {"HX-Request": "true", "If-None-Match": etag, "X-Live-Since": etag}
                known = len(saved[t])  # the deals this poll can see: saved before it was sent
                wait = DEFAULT_WAIT
                try:
                    async with phone.get(target, headers=headers, timeout=timeout) as answer:
                        await answer.read()
                        status = answer.status
                        asked = answer.headers.get("X-Poll-After") or answer.headers.get("Retry-After")
                        if status == 200:
                            etag = answer.headers.get("ETag", etag)
                    counted.poll(str(status))
                    if status == 200:
                        if counted is tally:
                            got = loop.time()
                            tally.seen_s += [got - at for at in saved[t][seen:known] if at >= start]
                        seen = max(seen, known)
                    if asked:
                        wait = float(asked)
                except (TimeoutError, aiohttp.ClientError, OSError, ValueError) as error:
                    counted.poll("failed")
                    counted.error("poll", error)
                await asyncio.sleep(max(0.0, min(wait, end - loop.time())))

    async def scorer(t: int) -> None:
        game_id, key = games[t]
        target = f"{url}/api/games/{game_id}/deals"
        headers = {"Authorization": f"Bearer {key}"}
        timeout = aiohttp.ClientTimeout(total=POST_PATIENCE)
        await asyncio.sleep(rng.uniform(0, deal_every))
        async with session() as phone:
            while loop.time() < end:
                counted = now_tally()
                body = bodies[rng.randrange(len(bodies))]
                sent = loop.time()
                ok = False
                try:
                    async with phone.post(target, json=body, headers=headers, timeout=timeout) as answer:
                        await answer.read()
                        ok = answer.status == 201
                except (TimeoutError, aiohttp.ClientError, OSError, ValueError) as error:
                    ok = False
                    counted.error("post", error)
                took = loop.time() - sent
                if ok:
                    saved[t].append(loop.time())
                if counted is tally:
                    tally.post_s.append(took)
                    if ok:
                        tally.posts_ok += 1
                    else:
                        tally.posts_failed += 1
                await asyncio.sleep(max(0.0, min(deal_every - took, end - loop.time())))

    lag: list[float] = []

    async def clock() -> None:
        await asyncio.sleep(max(0.0, start - loop.time()))
        cpu["start"] = cpu_snapshot(server_pid)
        # The client's own lateness: how late a 100 ms sleep wakes. Every figure above includes
        # it (a post answered in 10 ms is read when the client's loop comes round to it).
        while loop.time() < end:
            asked = loop.time() + 0.1
            await asyncio.sleep(0.1)
            lag.append(loop.time() - asked)
        cpu["end"] = cpu_snapshot(server_pid)

    tasks = [follower(t) for t in range(len(games)) for _ in range(viewers)]
    tasks += [scorer(t) for t in range(len(games))]
    await asyncio.gather(clock(), *tasks)
    counted = max(1e-9, seconds)
    cores = {name: (cpu["end"].get(name, 0.0) - cpu["start"].get(name, 0.0)) / counted for name in cpu["end"]}
    return {
        "posts_ok": tally.posts_ok,
        "posts_failed": tally.posts_failed,
        "post_p50_s": percentile(tally.post_s, 50),
        "post_p99_s": percentile(tally.post_s, 99),
        "polls": dict(sorted(tally.polls.items())),
        "seen_p50_s": percentile(tally.seen_s, 50),
        "seen_p95_s": percentile(tally.seen_s, 95),
        "seen_count": len(tally.seen_s),
        "cores": cores,
        "client_lag_p50_s": percentile(lag, 50),
        "client_lag_p99_s": percentile(lag, 99),
        "errors": dict(sorted(tally.errors.items())),
        "overran_s": loop.time() - end,
    }


def describe(result: dict[str, Any]) -> str:
    """One line of a crowd's figures."""
    polls = ", ".join(f"{n} x {s}" for s, n in result["polls"].items())
    cores = ", ".join(f"{name} {c:.2f}" for name, c in result["cores"].items() if c >= 0.005)
    return (
        f"deals {result['posts_ok']} saved / {result['posts_failed']} failed, post p50 "
        f"{result['post_p50_s'] * 1000:.0f} ms p99 {result['post_p99_s'] * 1000:.0f} ms; polls {polls}; "
        f"deal seen in {result['seen_p50_s']:.1f} s median, {result['seen_p95_s']:.1f} s p95; "
        f"cores: {cores}; the client's own lateness p50 {result.get('client_lag_p50_s', 0) * 1000:.0f} ms "
        f"p99 {result.get('client_lag_p99_s', 0) * 1000:.0f} ms"
        + (f"; errors: {result['errors']}" if result.get("errors") else "")
    )


def json_line(result: dict[str, Any]) -> str:
    return json.dumps(result, sort_keys=True)
