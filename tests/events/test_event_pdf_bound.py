"""The event's sheets as a PDF, bounded (issue 57, N13): anyone with the event's link may ask, and
every hand played is a new version. A viewer is served the copy printed in the last minute; one
print at a time per event, the others served the copy there is; the director gets the newest."""

from __future__ import annotations

import threading
import time

import pytest

from scorekeeper import pdf
from scorekeeper.web.events import pages
from tests.conftest import bearer as auth
from tests.events.test_table_links import make, start

MADE = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}


@pytest.fixture
def prints(app, monkeypatch):
    """Chromium replaced by a counter that takes a moment, as a print does."""
    done: list[int] = []
    lock = threading.Lock()

    def fake(html: str, chromium: str, timeout: float = 60) -> bytes:
        time.sleep(0.3)
        with lock:
            done.append(1)
            return f"%PDF-fake {len(done)}".encode()

    monkeypatch.setattr(pdf, "html_to_pdf", fake)
    app.config["PDF_CHROMIUM"] = "sh"  # any program found: the fake prints
    return done


def play(client, rnd, table):
    game = rnd["tables"][table]
    r = client.post(f"/api/games/{game['game']}/deals", json=MADE, headers=auth(game["edit_key"]))
    assert r.status_code == 201, r.get_json()


def test_a_viewer_is_served_the_copy_of_the_last_minute_not_a_print_per_hand(app, client, prints):
    event_id, key = make(app, rounds=2, hands=3)
    rnd = start(client, event_id, key)
    viewer = app.test_client()
    first = viewer.get(f"/e/{event_id}/print.pdf")
    assert first.status_code == 200 and first.data.startswith(b"%PDF") and len(prints) == 1
    for table in (0, 1, 0):
        play(client, rnd, table)  # a new version each time
        again = viewer.get(f"/e/{event_id}/print.pdf")
        assert again.status_code == 200 and again.data == first.data
    assert len(prints) == 1
    # The director's sheets are the newest, printed for them.
    director = app.test_client()
    director.get(f"/e/{event_id}/direct?key={key}")
    newest = director.get(f"/e/{event_id}/print.pdf")
    assert newest.status_code == 200 and len(prints) == 2 and newest.data != first.data


def test_one_print_at_a_time_per_event_the_others_get_the_copy_there_is(app, client, prints, monkeypatch):
    monkeypatch.setattr(pages, "VIEWER_PDF_FRESH", 0)  # every copy stale at once: the worst case
    event_id, key = make(app, rounds=2, hands=3)
    rnd = start(client, event_id, key)
    assert app.test_client().get(f"/e/{event_id}/print.pdf").status_code == 200
    play(client, rnd, 0)
    answers: list[int] = []
    barrier = threading.Barrier(6)

    def ask():
        viewer = app.test_client()
        barrier.wait(timeout=10)
        answers.append(viewer.get(f"/e/{event_id}/print.pdf").status_code)

    threads = [threading.Thread(target=ask) for _ in range(6)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(30)
    assert answers == [200] * 6
    assert len(prints) == 2  # the first copy, then one print for six viewers at once
