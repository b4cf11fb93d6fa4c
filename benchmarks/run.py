"""Scorekeeper's benchmark (issue #13): the app under gunicorn next to a bare Flask app, in one run.

    python benchmarks/run.py                 # about 2-3 minutes, SQLite in a temp dir
    python benchmarks/run.py --duration 10   # longer wrk figures, less noise
    python benchmarks/run.py --database-url postgresql+psycopg://postgres@127.0.0.1:5432/bench

Both apps run under the same gunicorn worker model on free 127.0.0.1 ports;
wrk (or a small Python client where every request needs a fresh form token)
drives them for a bounded time, and each figure is printed with its ratio to
the bare app measured in the same run (before and after the app's figures, the
mean), so the machine's speed cancels out. Bytes are counted as they cross the
socket, with ``Accept-Encoding: gzip, br`` as a phone sends it. It is a
benchmark, not a test: nothing here asserts a time.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import math
import os
import random
import re
import secrets
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path
from typing import Any
from urllib.parse import urlencode, urljoin, urlsplit

from scorekeeper.games import GAMES

ROOT = Path(__file__).resolve().parent.parent
HERE = Path(__file__).resolve().parent
# `python benchmarks/run.py` puts benchmarks/ first on the path: import this checkout's package.
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

SEED = 13
PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
# Far beyond any total 240 random deals reach: the long games never end.
HUGE_TARGET = 1_000_000
# The worker model of both apps: the measurements used 2 sync workers. A sync worker
# serves one connection at a time and closes it, so wrk's connections spread over both workers
# on every request. With gthread, wrk's keep-alive connections stay with whichever worker
# accepted them first, and all 8 often land on one: a figure then halves from one run to the next.
# ``--worker-class gthread`` measures the threaded model ``scorekeeper serve`` runs (4 threads).
WORKERS, THREADS = 2, 4
WORKER_CLASS = "sync"
PHONE = {"Accept-Encoding": "gzip, br"}

# Goals of issue #13, shown beside the figures.
GOALS = {
    "game page": ">= 0.25",
    "/live 304": ">= 0.6",
    "API POST deal": ">= 0.3",
    "API POST vs durable write": ">= 0.5",
    "page 240 vs 12 deals": "<= 4x",
    "htmx reply, 240 deals": "<= 12 KB",
    "cold load (all assets)": "<= 40 KB",
    "200 tables p99": "< 200 ms",
}


# --- Seeding: game records built by the rules' own random deals (pure, so tests can check them) ---


def spades_setup(options: dict[str, Any]):
    from scorekeeper.rules.base import check_setup

    game = GAMES.get("spades")
    errors, setup = check_setup(game, PLAYERS, options, 0)
    if errors:
        raise ValueError(errors)
    return game, setup


def spades_record(options: dict[str, Any], deals: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "format": "scorekeeper-game/1",
        "game": "spades",
        "options": options,
        "players": list(PLAYERS),
        "first_dealer": 0,
        "deals": deals,
    }


def random_deals(options: dict[str, Any], count: int, rng: random.Random, stop_when_finished=False):
    """``count`` deals drawn by the Spades module's ``random_deal``, played as they come."""
    from scorekeeper.rules.base import play

    game, setup = spades_setup(options)
    deals: list[dict[str, Any]] = []
    result = play(game, setup, deals)
    while len(deals) < count and not (stop_when_finished and result.finished):
        dealer = result.next_dealer if result.next_dealer is not None else 0
        deals.append(game.random_deal(setup, result.state, dealer, rng))
        result = play(game, setup, deals)
    return deals, result


def finished_game_record(rng: random.Random, low: int = 9, high: int = 12) -> dict[str, Any]:
    """A finished cutthroat Spades game to 200 (the short game) of ``low``-``high`` deals."""
    options = {"mode": "cutthroat", "target": 200}
    for _ in range(200):
        deals, result = random_deals(options, 60, rng, stop_when_finished=True)
        if result.finished and low <= len(deals) <= high:
            return spades_record(options, deals)
    raise RuntimeError("no finished game of the wanted length")


def long_game_record(deals: int, rng: random.Random) -> dict[str, Any]:
    """A cutthroat Spades game with a target it never reaches, holding ``deals`` deals."""
    options = {"mode": "cutthroat", "target": HUGE_TARGET}
    return spades_record(options, random_deals(options, deals, rng)[0])


def deal_bodies(count: int, rng: random.Random) -> list[dict[str, Any]]:
    """Deals any long game accepts next (cutthroat deals do not depend on the score so far)."""
    return random_deals({"mode": "cutthroat", "target": HUGE_TARGET}, count, rng)[0]


# --- HTTP on raw sockets: exact bytes on the wire, no client library in between ---


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    cookies: dict[str, str]
    body: bytes  # as sent (still compressed), de-chunked
    wire: int  # every byte of the answer: status line, headers and body as transferred


def build_request(method: str, path: str, port: int, headers: dict[str, str], body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    if body or method in ("POST", "PUT"):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def parse_reply(raw: bytes) -> Reply:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers: dict[str, str] = {}
    cookies: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name, value = name.strip().lower(), value.strip()
        if name == "set-cookie":
            cookie = value.split(";", 1)[0]
            cookies[cookie.split("=", 1)[0]] = cookie.split("=", 1)[1] if "=" in cookie else ""
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    if headers.get("transfer-encoding", "").lower() == "chunked":
        out, rest = bytearray(), body
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                break
            out += rest[:size]
            rest = rest[size + 2 :]
        body = bytes(out)
    return Reply(status, headers, cookies, body, len(raw))


def fetch(port: int, method: str, path: str, headers=None, body: bytes = b"", timeout: float = 30) -> Reply:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(build_request(method, path, port, dict(headers or {}), body))
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return parse_reply(b"".join(chunks))


def decoded(reply: Reply) -> str:
    """The body as text, whatever the server compressed it with."""
    encoding = reply.headers.get("content-encoding", "")
    body = reply.body
    if encoding == "gzip":
        import gzip

        body = gzip.decompress(body)
    elif encoding == "br":
        import brotli  # only if the server sends brotli, in which case Flask-Compress brought it

        body = brotli.decompress(body)
    return body.decode("utf-8")


# --- The entry form as a page gives it ---


class EntryForm(HTMLParser):
    """The ``<form id="entry">`` of a page or an htmx region: where it posts and its hidden inputs."""

    def __init__(self, html: str):
        super().__init__()
        self.action: str | None = None
        # With script, Spades' bids step also holds the tricks: the bids are kept in the background
        # (``save``) and its Record button posts bids and tricks together (``record``).
        self.save: str | None = None
        self.record: str | None = None
        self.classes = ""
        self.hidden: dict[str, str] = {}
        self.names: set[str] = set()
        self._inside = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == "entry":
            self._inside = True
            self.action = a.get("hx-post") or a.get("action")
            self.classes = a.get("class") or ""
        elif self._inside and tag == "input" and a.get("name"):
            self.names.add(a["name"])
            if a.get("type") == "hidden":
                self.hidden[a["name"]] = a.get("value") or ""
        elif self._inside and "data-sp-save" in a:
            self.save = a.get("hx-post")
        elif self._inside and tag == "button" and a.get("formaction"):
            self.record = a.get("hx-post") or a.get("formaction")

    def handle_endtag(self, tag):
        if tag == "form":
            self._inside = False

    @property
    def step(self) -> str:
        # The bids step holds the tricks too (shown by script once the bids are in): its class says
        # which step it is; posted as here, bids alone, it keeps them as "Bids done" does.
        if "sp-step-bids" in self.classes.split():
            return "bids"
        return "bids" if "bids_0" in self.names and "tricks_0" not in self.names else "tricks"


def entry_post(form: EntryForm, deal: dict[str, Any]) -> dict[str, str]:
    """The fields a scorer taps for ``deal`` at the form's step, with the form's own hidden inputs."""
    fields = dict(form.hidden)
    key = "bids" if form.step == "bids" else "tricks"
    for seat, value in enumerate(deal[key]):
        fields[f"{key}_{seat}"] = str(value)
    return fields


class Scorer:
    """One scorer's phone on one game: its cookies (session, edit key) and the last form it was given."""

    def __init__(self, port: int, game_id: str, key: str, extra: dict[str, str] | None = None):
        self.port, self.game_id = port, game_id
        self.cookies = {"edit_key": key}
        self.extra = dict(extra or {})
        self.form: EntryForm | None = None

    def headers(self, htmx: bool) -> dict[str, str]:
        h = {**self.extra, "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if htmx:
            h["HX-Request"] = "true"
        return h

    def take(self, reply: Reply) -> Reply:
        self.cookies.update(reply.cookies)
        if reply.status < 300 or reply.status == 422:
            form = EntryForm(decoded(reply))
            self.form = form if form.action else None
        return reply

    def open_page(self) -> Reply:
        return self.take(fetch(self.port, "GET", f"/g/{self.game_id}", self.headers(False)))

    def post_step(self, deal: dict[str, Any]) -> Reply:
        """Post the form's current step (bids, or tricks which records the deal) as htmx does."""
        if self.form is None:
            self.open_page()
        assert self.form is not None and self.form.action, "no entry form on the page"
        body = urlencode(entry_post(self.form, deal)).encode()
        headers = {**self.headers(True), "Content-Type": "application/x-www-form-urlencoded"}
        reply = self.take(fetch(self.port, "POST", self.form.action, headers, body))
        if reply.status >= 300:
            self.form = None  # refused or stale: the next step starts from a fresh page
        return reply

    def record_deal(self, deal: dict[str, Any]) -> tuple[Reply, int]:
        """One deal as the page's script enters it; the reply that recorded it, and the posts made.

        Spades with script: the bids are kept in the background once all are in (its answer is
        only the form's new version and token), the board above the form looks again at once,
        and Record sends bids and tricks together. Without that form, step by step as posted.
        """
        if self.form is None:
            self.open_page()
        form = self.form
        if form is not None and form.save and form.record:
            bids = {f"bids_{s}": str(v) for s, v in enumerate(deal["bids"])}
            headers = {**self.headers(True), "Content-Type": "application/x-www-form-urlencoded"}
            body = urlencode({**form.hidden, **bids, "autosave": "1"}).encode()
            kept = fetch(self.port, "POST", form.save, headers, body)
            self.cookies.update(kept.cookies)
            if kept.status != 200:
                self.form = None
                return kept, 1
            form.hidden.update(EntryForm(f'<form id="entry">{decoded(kept)}</form>').hidden)
            fetch(self.port, "GET", f"/g/{self.game_id}/live?part=board", self.headers(True))
            tricks = {f"tricks_{s}": str(v) for s, v in enumerate(deal["tricks"])}
            body = urlencode({**form.hidden, **bids, **tricks}).encode()
            reply = self.take(fetch(self.port, "POST", form.record, headers, body))
            if reply.status >= 300:
                self.form = None
            return reply, 2
        posts = 0
        reply = None
        for _ in range(3):
            if self.form is None:
                self.open_page()
            step = self.form.step if self.form else "bids"
            reply = self.post_step(deal)
            posts += 1
            if step == "tricks" and reply.status == 200:
                break
        return reply, posts


# --- Servers ---


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def serve_command(port: int) -> list[str]:
    """The app under gunicorn with the bare app's worker model (``scorekeeper serve`` adds an access log)."""
    return gunicorn_command(f"127.0.0.1:{port}", ROOT, "scorekeeper:create_app()")


def gunicorn_command(bind: str, chdir: Path, target: str) -> list[str]:
    threads = ["--threads", str(THREADS)] if WORKER_CLASS == "gthread" else []
    return [
        sys.executable,
        "-m",
        "gunicorn",
        "-w",
        str(WORKERS),
        "-k",
        WORKER_CLASS,
        *threads,
        "-b",
        bind,
        "--chdir",
        str(chdir),
        "--log-level",
        "warning",
        target,
    ]


class Servers:
    """Started servers, each in its own process group, all stopped on exit (errors and Ctrl-C included)."""

    def __init__(self):
        self.procs: list[subprocess.Popen] = []

    def start(self, command: list[str], port: int, env: dict[str, str], log: Path) -> None:
        out = log.open("wb")
        proc = subprocess.Popen(
            command, cwd=ROOT, env=env, stdout=out, stderr=subprocess.STDOUT, start_new_session=True
        )
        self.procs.append(proc)
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if proc.poll() is not None:
                raise RuntimeError(f"server exited ({proc.returncode}): {log.read_text()[-2000:]}")
            with contextlib.suppress(OSError):
                if fetch(port, "GET", "/", timeout=5).status == 200:
                    return
            time.sleep(0.2)
        raise RuntimeError(f"server on port {port} did not answer within 60 s: {log.read_text()[-2000:]}")

    def stop(self) -> None:
        for proc in self.procs:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGTERM)
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
        self.procs.clear()


# --- wrk ---


def lua_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid Lua string literal for this ASCII content


def post_deals_lua(games: list[tuple[str, str]], bodies: list[dict[str, Any]]) -> str:
    """A wrk script: API POSTs of deals, round-robin over games so no game grows without bound."""
    rows = ",\n".join(f"  {{{lua_string(g)}, {lua_string(k)}}}" for g, k in games)
    texts = ",\n".join(f"  {lua_string(json.dumps(b))}" for b in bodies)
    return f"""local games = {{
{rows}
}}
local bodies = {{
{texts}
}}
local i = 0
request = function()
  i = i + 1
  local g = games[(i % #games) + 1]
  local b = bodies[(i % #bodies) + 1]
  return wrk.format("POST", "/api/games/" .. g[1] .. "/deals",
    {{["Authorization"] = "Bearer " .. g[2], ["Content-Type"] = "application/json"}}, b)
end
"""


def anchor_write_lua(bodies: list[dict[str, Any]]) -> str:
    """A wrk script: the bare app's durable write (bare.py, /write) with the same deal bodies."""
    texts = ",\n".join(f"  {lua_string(json.dumps(b))}" for b in bodies)
    return f"""local bodies = {{
{texts}
}}
local i = 0
request = function()
  i = i + 1
  return wrk.format("POST", "/write", {{["Content-Type"] = "application/json"}}, bodies[(i % #bodies) + 1])
end
"""


WRK_RATE = re.compile(r"Requests/sec:\s+([\d.]+)")
WRK_BAD = re.compile(r"Non-2xx or 3xx responses:\s+(\d+)")
WRK_ERRORS = re.compile(r"Socket errors:.*?connect (\d+), read (\d+), write (\d+), timeout (\d+)")


def parse_wrk(output: str) -> tuple[float, int]:
    """Requests per second and the count of failed requests (non-2xx/3xx answers and socket errors)."""
    rate = WRK_RATE.search(output)
    if rate is None:
        raise RuntimeError(f"wrk said:\n{output}")
    bad = sum(int(m) for m in WRK_BAD.findall(output))
    for m in WRK_ERRORS.findall(output):
        bad += sum(int(x) for x in m)
    return float(rate.group(1)), bad


def run_wrk(url: str, seconds: float, connections: int, headers=None, script: Path | None = None):
    command = ["wrk", "-t1", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--timeout", "10s"]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    if script is not None:
        command += ["-s", str(script)]
    command.append(url)
    out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    return parse_wrk(out.stdout + out.stderr)


# --- A Python client loop, where every request needs what the previous answer gave ---


def client_loop(seconds: float, workers: list, step) -> tuple[float, int]:
    """Run ``step(worker)`` in one thread per worker for ``seconds``; requests per second and failures."""
    counts = [0] * len(workers)
    failures = [0] * len(workers)
    stop = time.monotonic() + seconds

    def loop(i: int) -> None:
        while time.monotonic() < stop:
            try:
                done, bad = step(workers[i])
            except OSError:
                done, bad = 1, 1
            counts[i] += done
            failures[i] += bad

    started = time.monotonic()
    threads = [threading.Thread(target=loop, args=(i,)) for i in range(len(workers))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts) / (time.monotonic() - started), sum(failures)


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
    port, games, etags, bodies, seconds, viewers=2, poll=3.0, deal_every=60.0, seed=SEED
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


async def capacity_scenario(port, games, etags, bodies, seconds, viewers=3, deal_every=60.0, seed=SEED):
    """``viewers`` phones per table, each polling on its own kept-alive connection and waiting what
    each answer asks (X-Poll-After, Retry-After); each table's scorer posts a deal every
    ``deal_every`` seconds on a connection of its own, with 30 s of patience."""
    rng = random.Random(seed)
    loop = asyncio.get_running_loop()
    start = loop.time()
    end = start + seconds
    posted_at: dict[int, float] = {}
    deal_ms: list[float] = []
    seen_s: list[float] = []
    outcome = {"201": 0, "deal failed": 0, "200": 0, "304": 0, "503": 0, "poll other": 0, "poll failed": 0}

    async def phone(t: int) -> None:
        game_id, _ = games[t]
        me = Phone(port)
        etag = etags[t]
        await asyncio.sleep(rng.uniform(0, 3))
        while loop.time() < end:
            headers = {"HX-Request": "true", "If-None-Match": etag, **PHONE}
            request = build_request("GET", f"/g/{game_id}/live?part=live&lang=en", port, headers)
            request = request.replace(b"Connection: close", b"Connection: keep-alive")
            wait = 3.0
            try:
                status, answer = await me.ask(request, 10)
                key = str(status) if str(status) in outcome else "poll other"
                outcome[key] += 1
                if status == 200:
                    etag = answer.get("etag", etag)
                    if t in posted_at:
                        seen_s.append(loop.time() - posted_at[t])
                asked = answer.get("x-poll-after") or answer.get("retry-after")
                wait = float(asked) if asked else 3.0
            except (TimeoutError, OSError, ValueError, IndexError):
                outcome["poll failed"] += 1
                me.close()
            await asyncio.sleep(wait)
        me.close()

    async def scorer(t: int) -> None:
        game_id, key = games[t]
        await asyncio.sleep(rng.uniform(0, deal_every))
        while loop.time() < end:
            body = json.dumps(bodies[rng.randrange(len(bodies))]).encode()
            headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
            request = build_request("POST", f"/api/games/{game_id}/deals", port, headers, body)
            sent = loop.time()
            try:
                reply = await _send(port, request, 30)
                ok = reply.status == 201
            except (TimeoutError, OSError, ValueError, IndexError):
                ok = False
            deal_ms.append((loop.time() - sent) * 1000)
            if ok:
                outcome["201"] += 1
                posted_at[t] = loop.time()
            else:
                outcome["deal failed"] += 1
            await asyncio.sleep(max(0.0, deal_every - (loop.time() - sent)))

    tasks = [phone(t) for t in range(len(games)) for _ in range(viewers)]
    tasks += [scorer(t) for t in range(len(games))]
    await asyncio.gather(*tasks)
    return outcome, deal_ms, seen_s


def sweep(
    args, report: Report, tmp: Path, env: dict[str, str], servers: Servers, client, bodies, rng
) -> None:
    """Tables served with 0 failed deal posts and deal-post p99 under 1 s, at each size of ``--sweep``."""
    sizes = sorted({int(n) for n in args.sweep.split(",") if n.strip()})
    say(f"capacity sweep: seeding {max(sizes)} table games")
    games = [seed_games(client, long_game_record(10, rng)) for _ in range(max(sizes))]
    port = free_port()
    command = [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", str(port)]
    servers.start(command, port, env, tmp / "serve.log")
    etags = [
        fetch(port, "GET", f"/g/{g}/live?part=live&lang=en", {"HX-Request": "true", **PHONE}).headers["etag"]
        for g, _ in games
    ]
    for tables in sizes:
        say(
            f"capacity sweep: {tables} tables, {args.sweep_duration:.0f} s, 3 phones each following X-Poll-After"
        )
        outcome, deal_ms, seen_s = asyncio.run(
            capacity_scenario(port, games[:tables], etags[:tables], bodies, args.sweep_duration)
        )
        p99 = percentile(deal_ms, 99)
        seen = {p: percentile(seen_s, p) for p in (50, 95)}
        passed = outcome["deal failed"] == 0 and p99 < 1000 and outcome["poll failed"] == 0
        report.data[f"capacity, {tables} tables"] = {
            "outcome": outcome,
            "deal_p99_ms": p99,
            "seen_s": seen,
            "passed": passed,
        }
        report.add(
            f"capacity, {tables} tables",
            "ok" if passed else "over",
            goal="0 failed deals, p99 < 1 s",
            note=f"deals {outcome['201']} saved / {outcome['deal failed']} failed, post p99 {p99:.0f} ms; "
            f"polls {outcome['200']} x 200, {outcome['304']} x 304, {outcome['503']} x 503, "
            f"{outcome['poll failed']} failed; deal seen in {seen[50]:.1f} s median, {seen[95]:.1f} s p95",
        )


# --- Report ---


@dataclass
class Row:
    figure: str
    app: str
    bare: str = ""
    ratio: str = ""
    goal: str = ""
    note: str = ""


@dataclass
class Report:
    rows: list[Row] = field(default_factory=list)
    data: dict[str, Any] = field(default_factory=dict)

    def add(self, figure, app, bare="", ratio="", note="", goal=None):
        self.rows.append(Row(figure, app, bare, ratio, GOALS.get(figure, "") if goal is None else goal, note))


def rate_row(report: Report, figure: str, rate: float, bad: int, bare: float, unit="req/s", note=""):
    ratio = rate / bare if bare else float("nan")
    report.data[figure] = {"rate": rate, "bare": bare, "ratio": ratio, "failed": bad}
    extra = f"{bad} failed" if bad else ""
    report.add(
        figure,
        f"{rate:,.0f} {unit}",
        f"{bare:,.0f}",
        f"{ratio:.3f}",
        "; ".join(x for x in (extra, note) if x),
    )


def kb(n: int) -> str:
    return f"{n / 1024:.1f} KB"


def format_table(rows: list[Row]) -> str:
    """A Markdown table, ready for the closing note."""
    head = ["figure", "scorekeeper", "bare app", "ratio", "goal", "note"]
    cells = [[r.figure, r.app, r.bare, r.ratio, r.goal, r.note] for r in rows]
    widths = [max(len(h), *(len(c[i]) for c in cells)) if cells else len(h) for i, h in enumerate(head)]

    def line(values):
        return "| " + " | ".join(v.ljust(w) for v, w in zip(values, widths, strict=True)) + " |"

    out = [line(head), "|" + "|".join("-" * (w + 2) for w in widths) + "|"]
    out += [line(c) for c in cells]
    return "\n".join(out)


# --- The run ---


def say(text: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {text}", file=sys.stderr, flush=True)


def seed_games(client, record: dict[str, Any]) -> tuple[str, str]:
    """POST /api/games with ``record``: the new game's id and edit key."""
    reply = client.post("/api/games", json=record)
    if reply.status_code != 201:
        raise RuntimeError(f"seeding refused: {reply.status_code} {reply.get_data(as_text=True)[:500]}")
    data = reply.get_json()
    return data["id"], data["edit_key"]


def seed_event(app, client, tables: int) -> tuple[str, list[tuple[str, str]]]:
    """A progressive Euchre night of ``tables`` tables, round 1 started and one hand played at
    each table; returns the event and each table's (game, key) for corrections."""
    from scorekeeper.events import service as events

    players = [f"P{i}" for i in range(4 * tables)]
    with app.app_context():
        event, _ = events.create_event(
            {
                "name": f"{tables} tables",
                "format": "progressive",
                "game": "euchre",
                "players": players,
                "rounds": 3,
            }
        )
        rnd = events.start_round(event)
        games = [(t.game_id, events.table_key(t.game_id)) for t in rnd.tables]
        event_id = event.id
    hand = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
    for game_id, key in games:
        client.post(f"/api/games/{game_id}/deals", json=hand, headers={"Authorization": f"Bearer {key}"})
    return event_id, games


def standings_after_correction(
    app, client, event_id: str, games: list[tuple[str, str]], rounds: int = 15
) -> float:
    """Median seconds to correct one table's hand and derive the event's document anew (in-process)."""
    from scorekeeper.db import db
    from scorekeeper.events import service as events
    from scorekeeper.models import Event

    hands = [
        {"trump": "S", "maker": 1, "alone": False, "defender_alone": None, "maker_tricks": 5},
        {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3},
    ]
    times = []
    for i in range(rounds):
        game_id, key = games[i % len(games)]
        started = time.perf_counter()
        client.put(
            f"/api/games/{game_id}/deals/0", json=hands[i % 2], headers={"Authorization": f"Bearer {key}"}
        )
        with app.test_request_context():
            events.document(db.session.get(Event, event_id))
            db.session.remove()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def time_pages(client, paths: list[str], budget: float, least: int = 5) -> list[float]:
    """Median seconds per GET of each path in-process, within about ``budget`` s.

    The paths take turns, so whatever else the machine is doing slows each of them alike.
    """
    for path in paths:
        for _ in range(2):  # warm-up: templates compiled, caches filled
            assert client.get(path).status_code == 200
    times: list[list[float]] = [[] for _ in paths]
    stop = time.perf_counter() + budget
    while len(times[0]) < least or time.perf_counter() < stop:
        for path, taken in zip(paths, times, strict=True):
            t0 = time.perf_counter()
            client.get(path)
            taken.append(time.perf_counter() - t0)
    return [statistics.median(taken) for taken in times]


ASSET = re.compile(r"\.(css|js|svg|png|ico|webp|woff2?|json)$")


def asset_paths(html: str, base: str) -> list[str]:
    """Every stylesheet, script, icon and image a page references (same-origin paths)."""
    found = re.findall(r"<(?:link|script|img|source)\b[^>]*?\b(?:href|src)=\"([^\"]+)\"", html)
    paths = []
    for ref in found:
        target = urlsplit(urljoin(base, ref))
        if target.scheme or target.netloc:
            continue  # another site's: not this server's bytes
        full = target.path + (f"?{target.query}" if target.query else "")
        wanted = full.startswith("/static/") or ASSET.search(target.path)
        if wanted and full not in paths:
            paths.append(full)
    return paths


def cold_load(port: int, path: str, headers: dict[str, str] | None = None) -> tuple[int, int, int]:
    """Wire bytes of a first visit: the page, then every asset it and its CSS reference. (total, html, count)."""
    page = fetch(port, "GET", path, {**PHONE, **(headers or {})})
    total, queue, seen = page.wire, asset_paths(decoded(page), path), set()
    while queue:
        asset = queue.pop(0)
        if asset in seen:
            continue
        seen.add(asset)
        reply = fetch(port, "GET", asset, PHONE)
        total += reply.wire
        if asset.split("?")[0].endswith(".css") and reply.status == 200:
            for ref in re.findall(r"url\(\s*['\"]?([^'\")]+)['\"]?\s*\)", decoded(reply)):
                if not ref.startswith("data:"):
                    target = urlsplit(urljoin(asset, ref))
                    queue.append(target.path + (f"?{target.query}" if target.query else ""))
    return total, page.wire, len(seen)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--duration", type=float, default=5, help="seconds per throughput figure (default 5)")
    parser.add_argument(
        "--tables-duration",
        type=float,
        default=30,
        help="seconds of the 200-tables scenario (default 30; 0 skips)",
    )
    parser.add_argument("--tables", type=int, default=200, help="tables in that scenario (default 200)")
    parser.add_argument("--connections", type=int, default=8, help="wrk connections (default 8)")
    parser.add_argument(
        "--database-url", help="run on this database (e.g. PostgreSQL) instead of a throwaway SQLite file"
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument(
        "--sweep",
        default="",
        help="capacity sweep under `scorekeeper serve` defaults, e.g. 1000,3000,6000 tables (default: none)",
    )
    parser.add_argument(
        "--sweep-duration", type=float, default=60, help="seconds per size of the sweep (default 60)"
    )
    parser.add_argument(
        "--worker-class",
        choices=("sync", "gthread"),
        default="sync",
        help="gunicorn's worker model for both apps (default sync, 2 workers, as in issue #13; "
        "gthread: 2 workers of 4 threads, as `scorekeeper serve` runs)",
    )
    args = parser.parse_args(argv)
    global WORKER_CLASS  # noqa: PLW0603 - one run, one worker model, read by the command builders
    WORKER_CLASS = args.worker_class
    if shutil.which("wrk") is None:
        parser.error("wrk is needed (apt-get install wrk)")

    servers = Servers()

    def stop(signum, frame):
        raise KeyboardInterrupt

    # Ctrl-C, a closed terminal or a kill all end the run the same way: through `finally`, servers stopped.
    # (SIGINT is set too, since a shell ignores it in background jobs.)
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(sig, stop)
    with tempfile.TemporaryDirectory(prefix="scorekeeper-bench-") as tmp:
        try:
            report = run(args, Path(tmp), servers)
        except KeyboardInterrupt:
            say("interrupted: servers stopped")
            return 130
        finally:
            servers.stop()
    print(report.data["context"])
    print()
    print(format_table(report.rows))
    if args.json:
        args.json.write_text(json.dumps(report.data, indent=2))
    return 0


def run(args, tmp: Path, servers: Servers) -> Report:
    rng = random.Random(SEED)
    url = args.database_url or f"sqlite:///{tmp / 'bench.sqlite'}"
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "SECRET_KEY": secrets.token_urlsafe(32),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
        "BARE_DATABASE": str(tmp / "bare-anchor.sqlite"),
    }
    os.environ.update({"DATABASE_URL": url, "SECRET_KEY": env["SECRET_KEY"]})
    report = Report()

    # Migrate and seed once, in-process, before any worker starts (workers then find the schema current).
    say(f"migrating and seeding {'the given database' if args.database_url else 'a temp SQLite file'}")
    from scorekeeper import create_app

    app = create_app()
    client = app.test_client()
    finished_id, _ = seed_games(client, finished_game_record(rng))
    id12, key12 = seed_games(client, long_game_record(12, rng))
    id240, key240 = seed_games(client, long_game_record(240, rng))
    post_games = [seed_games(client, long_game_record(12, rng)) for _ in range(40)]
    entry_games = [seed_games(client, long_game_record(12, rng)) for _ in range(16)]
    table_games = [seed_games(client, long_game_record(10, rng)) for _ in range(args.tables)]
    bodies = deal_bodies(64, rng)
    events_seeded = {tables: seed_event(app, client, tables) for tables in (4, 40)}

    say("in-process page cost at 12 and 240 deals")
    t12, t240 = time_pages(client, [f"/g/{id12}", f"/g/{id240}"], max(2.0, args.duration))
    report.data["page 240 vs 12 deals"] = {"ms12": t12 * 1000, "ms240": t240 * 1000, "ratio": t240 / t12}
    say("in-process: an event's standings after a correction, at 4 and 40 tables")
    for tables, (event_id, corrections) in events_seeded.items():
        ms = standings_after_correction(app, client, event_id, corrections) * 1000
        report.data[f"standings after a correction, {tables} tables"] = {"ms": ms}
        report.add(
            f"standings after a correction, {tables} tables",
            f"{ms:.1f} ms",
            note="in-process: PUT one table's deal, then the event document anew (median)",
        )
    with app.app_context():
        from scorekeeper.db import db

        db.engine.dispose()

    sk_port, bare_port = free_port(), free_port()
    command = serve_command(sk_port)
    shown = " ".join(command[2:] if command[1] == "-m" else command)
    say("starting: " + shown)
    server = "scorekeeper serve" if "serve" in command else "gunicorn"
    server += f" -w {WORKERS} -k {WORKER_CLASS}"
    server += (f" --threads {THREADS}" if WORKER_CLASS == "gthread" else "") + " (both apps)"
    # What the figures depend on besides the code, for whoever compares two runs.
    report.data["context"] = (
        f"{time.strftime('%Y-%m-%d %H:%M')} · {os.cpu_count()} CPUs · load {os.getloadavg()[0]:.1f} · "
        f"{'given database' if args.database_url else 'SQLite'} · {server} · wrk -t1 -c{args.connections} "
        f"-d{max(1, round(args.duration))}s"
    )
    servers.start(command, sk_port, env, tmp / "scorekeeper.log")
    servers.start(
        gunicorn_command(f"127.0.0.1:{bare_port}", HERE, "bare:app"), bare_port, env, tmp / "bare.log"
    )
    sk, bare = f"http://127.0.0.1:{sk_port}", f"http://127.0.0.1:{bare_port}"
    seconds, conns = args.duration, args.connections

    live = f"/g/{finished_id}/live?part=live"
    etag = fetch(sk_port, "GET", live, {"HX-Request": "true"}).headers["etag"]
    for path in (f"/g/{finished_id}", f"/api/games/{finished_id}", live):
        for _ in range(10):  # every worker loads its templates before the clock starts
            fetch(sk_port, "GET", path, {"HX-Request": "true"} if "live" in path else {})
    lua = tmp / "post_deals.lua"
    lua.write_text(post_deals_lua(post_games, bodies))
    anchor_lua = tmp / "anchor_write.lua"
    anchor_lua.write_text(anchor_write_lua(bodies))

    say("wrk: bare app (before)")
    bare_rates = [run_wrk(bare + "/", seconds, conns)[0]]
    figures = [
        ("game page", sk + f"/g/{finished_id}", {}, None),
        ("/live 304", sk + live, {"HX-Request": "true", "If-None-Match": etag}, None),
        ("/live 200", sk + live, {"HX-Request": "true"}, None),
        ("API GET", sk + f"/api/games/{finished_id}", {}, None),
        ("API POST deal", sk + "/", {}, lua),
    ]
    for tables, (event_id, _) in events_seeded.items():
        board = f"/e/{event_id}/board"
        tag = fetch(sk_port, "GET", board, {"HX-Request": "true"}).headers["etag"]
        figures.append(
            (f"board 304, {tables} tables", sk + board, {"HX-Request": "true", "If-None-Match": tag}, None)
        )
        figures.append((f"board 200, {tables} tables", sk + board, {"HX-Request": "true"}, None))
    measured = []
    for name, target, headers, script in figures:
        say(f"wrk: {name}")
        measured.append((name, *run_wrk(target, seconds, conns, headers, script)))
    say("wrk: the bare app's durable write (INSERT + COMMIT, SQLite in WAL)")
    anchor_rate, anchor_bad = run_wrk(bare + "/", seconds, conns, {}, anchor_lua)
    say("wrk: bare app (after)")
    bare_rates.append(run_wrk(bare + "/", seconds, conns)[0])
    bare_rate = statistics.mean(bare_rates)
    report.data["bare"] = {"runs": bare_rates, "mean": bare_rate}
    notes = {
        "game page": "finished 4-player Spades game",
        "/live 304": "viewer, If-None-Match + HX-Request",
        "/live 200": "viewer, whole live region",
        "API POST deal": f"round-robin over {len(post_games)} games",
        **{f"board 304, {t} tables": "wall screen's poll, If-None-Match + HX-Request" for t in (4, 40)},
        **{f"board 200, {t} tables": "wall screen's poll, whole board (standings, tables)" for t in (4, 40)},
    }
    for name, rate, bad in measured:
        rate_row(report, name, rate, bad, bare_rate, note=notes.get(name, ""))
    post_rate = next(rate for name, rate, _bad in measured if name == "API POST deal")
    report.data["durable write"] = {"rate": anchor_rate, "bad": anchor_bad}
    report.data["API POST vs durable write"] = {"ratio": post_rate / anchor_rate if anchor_rate else None}
    report.add(
        "API POST vs durable write",
        f"{post_rate:,.0f} req/s",
        f"{anchor_rate:,.0f}",
        f"{post_rate / anchor_rate:.3f}" if anchor_rate else "",
        goal=GOALS["API POST vs durable write"],
        note="bare: Flask + sqlite3, the deal's JSON parsed, INSERT + COMMIT in WAL (benchmarks/bare.py /write)"
        + (f"; {anchor_bad} bare writes failed" if anchor_bad else ""),
    )

    # htmx deal entry: each post needs the token of the form the previous answer gave, so a Python loop.
    say("python loop: htmx deal entry, and the same loop against the bare app")
    deal_rng = random.Random(SEED + 1)

    def bare_step(_):
        body = urlencode({"points_0": str(deal_rng.randrange(100))}).encode()
        headers = {"HX-Request": "true", "Content-Type": "application/x-www-form-urlencoded"}
        return 1, int(fetch(bare_port, "POST", "/", headers, body).status != 200)

    def entry_step(scorers):
        scorer = scorers[0]
        scorers.append(scorers.pop(0))  # round-robin over this thread's games
        reply, posts = scorer.record_deal(bodies[deal_rng.randrange(len(bodies))])
        return posts, int(reply.status != 200)

    client_threads = 4
    groups = [
        [Scorer(sk_port, g, k) for g, k in entry_games[i::client_threads]] for i in range(client_threads)
    ]
    for group in groups:
        for scorer in group:
            scorer.open_page()
    loop_bare = [client_loop(seconds, [None] * client_threads, bare_step)[0]]
    entry_rate, entry_bad = client_loop(seconds, groups, entry_step)
    loop_bare.append(client_loop(seconds, [None] * client_threads, bare_step)[0])
    rate_row(
        report,
        "htmx deal entry",
        entry_rate,
        entry_bad,
        statistics.mean(loop_bare),
        unit="posts/s",
        note="Python client as the page's script: bids kept, board looked at, Record; bare: the same client POSTing",
    )

    say("bytes on the wire")
    for label, game_id, key in (("12", id12, key12), ("240", id240, key240)):
        scorer = Scorer(sk_port, game_id, key, PHONE)
        reply, _ = scorer.record_deal(bodies[0])
        report.data[f"htmx reply, {label} deals"] = {"wire": reply.wire, "status": reply.status}
        report.add(
            f"htmx reply, {label} deals",
            kb(reply.wire),
            note=f"scorer's reply recording one more deal (HTTP {reply.status}, "
            f"{reply.headers.get('content-encoding', 'uncompressed')})",
        )
    total, html, count = cold_load(sk_port, f"/g/{finished_id}")
    report.data["cold load (all assets)"] = {"wire": total, "html": html, "assets": count}
    report.add(
        "cold load (all assets)", kb(total), note=f"viewer, finished game: HTML {kb(html)} + {count} assets"
    )
    total, html, count = cold_load(sk_port, f"/g/{id12}", {"Cookie": f"edit_key={key12}"})
    report.data["cold load, scorer"] = {"wire": total, "html": html, "assets": count}
    report.add("cold load, scorer", kb(total), note=f"scorer, 13-deal game: HTML {kb(html)} + {count} assets")
    page = report.data["page 240 vs 12 deals"]
    report.add(
        "page 240 vs 12 deals",
        f"{page['ratio']:.1f}x",
        note=f"in-process GET /g/<id>: {page['ms12']:.1f} ms vs {page['ms240']:.1f} ms",
    )

    if args.tables_duration > 0:
        say(f"{args.tables} tables for {args.tables_duration:.0f} s (open loop)")
        etags = [
            fetch(sk_port, "GET", f"/g/{g}/live?part=live", {"HX-Request": "true", **PHONE}).headers["etag"]
            for g, _ in table_games
        ]
        latencies, outcome = asyncio.run(
            tables_scenario(sk_port, table_games, etags, bodies, args.tables_duration)
        )
        every = latencies["view"] + latencies["deal"]
        ms = {p: percentile(every, p) * 1000 for p in (50, 95, 99)}
        deal_p99 = percentile(latencies["deal"], 99) * 1000
        report.data["200 tables"] = {
            "ms": ms,
            "deal_p99_ms": deal_p99,
            "outcome": outcome,
            "requests": len(every),
        }
        report.add(
            f"{args.tables} tables p99",
            f"{ms[99]:.0f} ms",
            goal=GOALS["200 tables p99"],
            note=f"p50 {ms[50]:.0f} / p95 {ms[95]:.0f} ms over {len(every)} requests "
            f"({outcome['304']} x 304, {outcome['200']} x 200, {outcome['201']} deals, "
            f"{outcome['failed']} failed)"
            + (f"; deal posts p99 {deal_p99:.0f} ms" if latencies["deal"] else ""),
        )
    if args.sweep:
        servers.stop()  # the sweep has the box to itself
        sweep(args, report, tmp, env, servers, client, bodies, rng)
    return report


if __name__ == "__main__":
    sys.exit(main())
