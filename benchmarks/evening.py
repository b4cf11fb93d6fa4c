"""A club evening's served figures (issue #26): the standings seen after a correction, a served
loop taking turns with the bare app's write-then-read. Driven by benchmarks/run.py.

A correction is a table's hand replaced through the API (PUT), then the event document asked
for (GET /api/events/<id>): the standings worked out anew, as the director's page or an API
client sees them straight after. The bare app's step is its durable write (POST /write: JSON
parsed, INSERT + COMMIT) then its page (GET /): the same two requests with nothing to derive.
"""

from __future__ import annotations

import json
import statistics
import time
from dataclasses import dataclass

from seed import EVENT_HANDS, SECOND_HAND_CORRECTED
from wire import fetch

BOARD_TURNS = 2  # each board figure measured in this many slices, the sizes taking turns


@dataclass
class Corrections:
    app_ms: float  # median PUT + GET
    bare_ms: float  # median bare POST /write + GET /
    put_ms: float
    get_ms: float
    steps: int
    failed: int  # an answer not 200, or a document whose standings did not move
    ratio: float  # bare_ms / app_ms: the app's share of the bare app's speed, as the rate rows


def correction_step(port: int, event_id: str, game: tuple[str, str], hand: dict) -> tuple[float, float, dict]:
    """PUT the table's second hand, then GET the event document: (put s, get s, the document)."""
    game_id, key = game
    headers = {"Authorization": f"Bearer {key}", "Content-Type": "application/json"}
    t0 = time.perf_counter()
    put = fetch(port, "PUT", f"/api/games/{game_id}/deals/1", headers, json.dumps(hand).encode())
    t1 = time.perf_counter()
    got = fetch(port, "GET", f"/api/events/{event_id}")
    t2 = time.perf_counter()
    if put.status != 200 or got.status != 200:
        return t1 - t0, t2 - t1, {}
    return t1 - t0, t2 - t1, json.loads(got.body)


def bare_step(port: int, hand: dict) -> float:
    t0 = time.perf_counter()
    write = fetch(port, "POST", "/write", {"Content-Type": "application/json"}, json.dumps(hand).encode())
    page = fetch(port, "GET", "/")
    if write.status != 201 or page.status != 200:
        raise RuntimeError(f"the bare app answered {write.status}, {page.status}")
    return time.perf_counter() - t0


def corrections(
    port: int, bare_port: int, event_id: str, games: list[tuple[str, str]], seconds: float, least: int = 5
) -> Corrections:
    """Corrections round-robin over the tables for about ``seconds``, one at a time, each followed
    by a bare step, so whatever else the machine does slows both alike (medians)."""
    corrected = dict.fromkeys((g for g, _ in games), False)  # each table's second hand, as it stands
    put_s, get_s, app_s, bare_s = [], [], [], []
    failed = 0
    before = None
    stop = time.monotonic() + seconds
    i = 0
    while len(app_s) < least or time.monotonic() < stop:
        game = games[i % len(games)]
        i += 1
        hand = EVENT_HANDS[1] if corrected[game[0]] else SECOND_HAND_CORRECTED
        put, get, doc = correction_step(port, event_id, game, hand)
        corrected[game[0]] = not corrected[game[0]]
        standings = doc.get("standings")
        if standings is None or standings == before:
            failed += 1
        before = standings
        put_s.append(put)
        get_s.append(get)
        app_s.append(put + get)
        bare_s.append(bare_step(bare_port, hand))
    app_ms = statistics.median(app_s) * 1000
    bare_ms = statistics.median(bare_s) * 1000
    return Corrections(
        app_ms=app_ms,
        bare_ms=bare_ms,
        put_ms=statistics.median(put_s) * 1000,
        get_ms=statistics.median(get_s) * 1000,
        steps=len(app_s),
        failed=failed,
        ratio=bare_ms / app_ms if app_ms else float("nan"),
    )


def board_figures(port: int, events_seeded, seconds: float, wrk, say) -> list[tuple[str, float, int]]:
    """The wall screen's poll of each evening's board, as htmx sends it every 10 s (the board page
    follows its own URL with HX-Request): 304 with the ETag the board gave, and 200 without.

    40 tables is compared with 4 (issue #26's goal), so the sizes take turns in slices of the
    figure's time: a machine that slows down part way through slows both sizes alike.
    ``wrk(url, seconds, headers)`` gives (requests per second, failures)."""
    targets = []
    for tables, (event_id, _) in events_seeded.items():
        board = f"/e/{event_id}/board"
        tag = fetch(port, "GET", board, {"HX-Request": "true"}).headers["etag"]
        targets.append((f"board 304, {tables} tables", board, {"HX-Request": "true", "If-None-Match": tag}))
        targets.append((f"board 200, {tables} tables", board, {"HX-Request": "true"}))
    for _name, board, headers in targets:  # each worker draws the board once before the clock starts
        for _ in range(4):
            fetch(port, "GET", board, headers)
    rates: dict[str, list[float]] = {name: [] for name, _, _ in targets}
    failed = dict.fromkeys(rates, 0)
    say(f"wrk: the boards' polls at {' and '.join(str(t) for t in events_seeded)} tables, taking turns")
    for _ in range(BOARD_TURNS):
        for name, board, headers in sorted(targets, key=lambda t: t[0]):
            rate, bad = wrk(f"http://127.0.0.1:{port}{board}", seconds / BOARD_TURNS, headers)
            rates[name].append(rate)
            failed[name] += bad
    return [(name, statistics.mean(rates[name]), failed[name]) for name, _, _ in targets]


def event_rows(report, rates, bare_rate, sk_port, bare_port, events_seeded, seconds, say) -> None:
    """The evening's rows: the board's poll at 40 tables beside 4 (issue #26's goal: the same
    cost), from the wrk ``rates`` already measured; then the served corrections at each size."""
    for kind in ("304", "200"):
        r4, r40 = rates[f"board {kind}, 4 tables"], rates[f"board {kind}, 40 tables"]
        report.data[f"board {kind}, 40 vs 4 tables"] = {"rate4": r4, "rate40": r40, "ratio": r40 / r4}
        report.add(
            f"board {kind}, 40 vs 4 tables",
            f"{r40:,.0f} vs {r4:,.0f} req/s",
            ratio=f"{r40 / r4:.3f}",
            note=f"bare-app ratios {r40 / bare_rate:.3f} at 40 tables, {r4 / bare_rate:.3f} at 4",
        )
    for tables, (event_id, games) in events_seeded.items():
        say(
            f"python loop: a table's hand corrected, then /api/events, {tables} tables (turns with the bare app)"
        )
        seen = corrections(sk_port, bare_port, event_id, games, seconds)
        figure = f"standings after a correction, {tables} tables"
        report.data[figure] = vars(seen)
        report.add(
            figure,
            f"{seen.app_ms:.1f} ms",
            f"{seen.bare_ms:.1f} ms",
            f"{seen.ratio:.3f}",
            note=f"PUT a hand {seen.put_ms:.1f} ms + GET /api/events {seen.get_ms:.1f} ms (medians of "
            f"{seen.steps}); bare: POST /write + GET /" + (f"; {seen.failed} failed" if seen.failed else ""),
        )
