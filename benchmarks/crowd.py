"""Crowds for the benchmark: the "tables at once" open loop, and the capacity sweep's phones that
follow X-Poll-After on kept-alive connections (issue 28). Driven by benchmarks/run.py."""

from __future__ import annotations

import asyncio
import json
import math
import random
from dataclasses import dataclass

from wire import PHONE, Reply, build_request, parse_reply

# --- The "200 tables at once" scenario: an open loop on asyncio and raw sockets ---


@dataclass
class Event:
    at: float
    kind: str  # "view" or "deal"
    table: int
    viewer: int = 0


def schedule(tables: int, viewers: int, poll: float, deal_every: float, seconds: float, rng: random.Random):
    """Every send time of the run, fixed in advance (open loop: nobody waits for an answer to send)."""
    events = []
    for t in range(tables):
        for v in range(viewers):
            at = rng.uniform(0, poll)
            while at < seconds:
                events.append(Event(at, "view", t, v))
                at += poll
        at = rng.uniform(0, deal_every)
        while at < seconds:
            events.append(Event(at, "deal", t))
            at += deal_every
    return sorted(events, key=lambda e: e.at)


async def _send(port: int, request: bytes, timeout: float) -> Reply:
    reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), timeout)
    try:
        writer.write(request)
        raw = await asyncio.wait_for(reader.read(-1), timeout)
    finally:
        writer.close()
    return parse_reply(raw)


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    # Nearest rank: the smallest value at or above p percent of them.
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, math.ceil(p / 100 * len(ordered)) - 1))]


async def tables_scenario(
    port, games, etags, bodies, seconds, viewers=2, poll=3.0, deal_every=60.0, *, seed: int
):
    rng = random.Random(seed)
    events = schedule(len(games), viewers, poll, deal_every, seconds, rng)
    etag = {(t, v): etags[t] for t in range(len(games)) for v in range(viewers)}
    latencies: dict[str, list[float]] = {"view": [], "deal": []}
    outcome = {"304": 0, "200": 0, "201": 0, "failed": 0}
    loop = asyncio.get_running_loop()
    start = loop.time() + 0.5
    tasks = []

    async def one(event: Event) -> None:
        game_id, key = games[event.table]
        if event.kind == "view":
            headers = {"HX-Request": "true", "If-None-Match": etag[(event.table, event.viewer)], **PHONE}
            request = build_request("GET", f"/g/{game_id}/live?part=live", port, headers)
        else:
            body = json.dumps(bodies[rng.randrange(len(bodies))]).encode()
            headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
            request = build_request("POST", f"/api/games/{game_id}/deals", port, headers, body)
        try:
            reply = await _send(port, request, 10)
            status = str(reply.status)
            if event.kind == "view" and reply.status == 200 and "etag" in reply.headers:
                etag[(event.table, event.viewer)] = reply.headers["etag"]
        except (TimeoutError, OSError, ValueError, IndexError):
            status = "failed"
        latencies[event.kind].append(loop.time() - (start + event.at))
        outcome[status if status in outcome else "failed"] += 1

    for event in events:
        delay = start + event.at - loop.time()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(event)))
    await asyncio.gather(*tasks)
    return latencies, outcome


# --- The capacity sweep (issue 28): phones that follow X-Poll-After, under `scorekeeper serve` ---


class Phone:
    """One follower's kept-alive connection, opened again when the server closed it."""

    def __init__(self, port: int):
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def ask(self, request: bytes, timeout: float) -> tuple[int, dict[str, str]]:
        for attempt in (0, 1):
            if self.writer is None:
                self.reader, self.writer = await asyncio.wait_for(
                    asyncio.open_connection("127.0.0.1", self.port), timeout
                )
            try:
                assert self.reader is not None
                self.writer.write(request)
                head = await asyncio.wait_for(self.reader.readuntil(b"\r\n\r\n"), timeout)
                lines = head.decode("latin-1").split("\r\n")
                status = int(lines[0].split()[1])
                headers = {
                    k.strip().lower(): v.strip() for k, _, v in (x.partition(":") for x in lines[1:] if x)
                }
                length = int(headers.get("content-length", "0"))
                if length:
                    await asyncio.wait_for(self.reader.readexactly(length), timeout)
                if headers.get("connection", "").lower() == "close":
                    self.close()
                return status, headers
            except (asyncio.IncompleteReadError, ConnectionError) as error:
                self.close()  # the server closed an idle kept-alive connection: open a new one once
                if attempt:
                    raise OSError("connection lost") from error
        raise OSError("unreachable")

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


async def capacity_scenario(
    port,
    games,
    etags,
    bodies,
    seconds,
    viewers=3,
    deal_every=60.0,
    *,
    seed: int,
    warmup: float = 0.0,
    watch_every: int = 1,
):
    """``viewers`` phones per table (on every ``watch_every``-th table), each polling on its own
    kept-alive connection and waiting what each answer asks (X-Poll-After, Retry-After); each
    table's scorer posts a deal every ``deal_every`` seconds on a connection of its own, with 30 s
    of patience.

    The first ``warmup`` seconds are played and not counted: the seeded games were never drawn by
    the workers, as games followed from their first deal have been (each worker keeps the rows it
    drew), and the server's pace settles on what the crowd asks."""
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    start = loop.time() + warmup
    end = start + seconds
    counting = {"201": 0, "deal failed": 0, "200": 0, "304": 0, "503": 0, "poll other": 0, "poll failed": 0}
    warming = dict(counting)
    posted_at: dict[int, float] = {}
    deal_ms: list[float] = []
    seen_s: list[float] = []

    def outcome_now() -> dict[str, int]:
        return counting if loop.time() >= start else warming

    async def phone(t: int) -> None:
        game_id, _ = games[t]
        me = Phone(port)
        etag = etags[t]
        await asyncio.sleep(rng.uniform(0, 3))
        while loop.time() < end:
            outcome = outcome_now()
            # As static/app.js asks: the region's ETag, and what changed since it (issue 40).
            headers = {"HX-Request": "true", "If-None-Match": etag, "X-Live-Since": etag, **PHONE}
            request = build_request("GET", f"/g/{game_id}/live?part=live&lang=en", port, headers)
            request = request.replace(b"Connection: close", b"Connection: keep-alive")
            wait = 3.0
            try:
                status, answer = await me.ask(request, 10)
                key = str(status) if str(status) in outcome else "poll other"
                outcome[key] += 1
                if status == 200:
                    etag = answer.get("etag", etag)
                    if t in posted_at and outcome is counting:
                        seen_s.append(loop.time() - posted_at[t])
                asked = answer.get("x-poll-after") or answer.get("retry-after")
                wait = float(asked) if asked else 3.0
            except (TimeoutError, OSError, ValueError, IndexError):
                outcome["poll failed"] += 1
                me.close()
            await asyncio.sleep(max(0.0, min(wait, end - loop.time())))
        me.close()

    async def scorer(t: int) -> None:
        game_id, key = games[t]
        await asyncio.sleep(rng.uniform(0, deal_every))
        while loop.time() < end:
            outcome = outcome_now()
            body = json.dumps(bodies[rng.randrange(len(bodies))]).encode()
            headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
            request = build_request("POST", f"/api/games/{game_id}/deals", port, headers, body)
            sent = loop.time()
            try:
                reply = await _send(port, request, 30)
                ok = reply.status == 201
            except (TimeoutError, OSError, ValueError, IndexError):
                ok = False
            if outcome is counting:
                deal_ms.append((loop.time() - sent) * 1000)
            if ok:
                outcome["201"] += 1
                posted_at[t] = loop.time()
            else:
                outcome["deal failed"] += 1
            # The next deal a minute after this one; none after the end (the run stops on time).
            await asyncio.sleep(max(0.0, min(deal_every - (loop.time() - sent), end - loop.time())))

    tasks = [phone(t) for t in range(0, len(games), watch_every) for _ in range(viewers)]
    tasks += [scorer(t) for t in range(len(games))]
    await asyncio.gather(*tasks)
    return counting, deal_ms, seen_s
