"""In-process timings of the benchmark (no server): a call's median cost, the paths taking turns."""

from __future__ import annotations

import statistics
import time


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


def cache_savings(app, client, page_id: str, long_id: str, budget: float) -> dict[str, tuple[float, float]]:
    """What two of the app's caches save, each measured on and off in the same process (median ms):
    the viewer's whole page kept per version (VIEWER_PAGE_CACHE), and the API record's deals
    encoded once (web/api/game_json.py) against a plain jsonify of the record, on a 240-deal game."""
    from scorekeeper import read
    from scorekeeper.db import db
    from scorekeeper.models import Game
    from scorekeeper.web.api.game_json import record_json

    out = {}
    viewer = app.test_client()
    on = time_pages(viewer, [f"/g/{page_id}"], budget)[0]
    app.config["VIEWER_PAGE_CACHE"] = False
    try:
        off = time_pages(viewer, [f"/g/{page_id}"], budget)[0]
    finally:
        app.config["VIEWER_PAGE_CACHE"] = True
    out["viewer page cache"] = (on * 1000, off * 1000)
    with app.test_request_context():
        game = db.session.get(Game, long_id)
        result = read.result(game)
        record_json(game, result)  # its deals encoded once, as after the first answer

        def spliced() -> None:
            record_json(game, result)

        def whole() -> None:
            app.json.dumps(read.public_record(game, result))

        out["record JSON splicing"] = (_median_ms(spliced, budget), _median_ms(whole, budget))
        db.session.remove()
    return out


def _median_ms(call, budget: float, least: int = 5) -> float:
    times = []
    stop = time.perf_counter() + budget
    while len(times) < least or time.perf_counter() < stop:
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times) * 1000
