"""The live answer drawn once per change, not per poll (issue 40, web/live/livepoll.py ``draw``): the write
that changes a game draws its followers' regions, and their polls are answered from what it drew."""

from __future__ import annotations

import json
import re

import pytest

from scorekeeper.web.games import table
from tests.conftest import bearer
from tests.web.table_helpers import FLAT, SWEEP, api_game

URL = "/g/{}/live?part=live&lang={}"
HX = {"HX-Request": "true"}


@pytest.fixture(autouse=True)
def drawn_beside_writes(app):
    """A pool that draws beside the writes, as ``scorekeeper serve``'s does (scorekeeper/serve/worker.py),
    here at once: the test client's write has drawn when its answer comes back. Without one (a
    sync worker), writes draw nothing and the first poll draws (see the last test)."""
    app.extensions["scorekeeper.draw_later"] = lambda draw: draw() or True
    yield
    app.extensions.pop("scorekeeper.draw_later", None)


@pytest.fixture(params=["cache", "files"])
def where(request, app, tmp_path):
    """Where the workers share what was drawn: the shared cache (the embedded default), or the
    answers' files (``scorekeeper serve``)."""
    if request.param == "files":
        app.config["LIVE_ANSWERS_DIR"] = str(tmp_path / "answers")
    return request.param


class Drawings:
    """Every region table.live_html draws, in order."""

    def __init__(self, monkeypatch):
        self.drawn: list[str] = []
        real = table.live_html

        def counted(*args, **kwargs):
            html = real(*args, **kwargs)
            self.drawn.append(html)
            return html

        monkeypatch.setattr(table, "live_html", counted)


class Deltas:
    """The version each drawing of what changed (table.live_delta) was drawn since, in order."""

    def __init__(self, monkeypatch):
        self.since: list[int] = []
        real = table.live_delta

        def counted(*args, **kwargs):
            self.since.append(args[-1])
            return real(*args, **kwargs)

        monkeypatch.setattr(table, "live_delta", counted)


def follow(client, gid, lang="en", encoding="", asks_changes=False):
    """A viewer polling its region (with the ETag it was drawn at): the region is followed. As a
    proxy's cache asks (the whole region), or with ``asks_changes`` as a page's script asks (what
    changed since its version: X-Live-Since)."""
    # A page's script always says its version; one it cannot use gets the whole region.
    page = {"X-Live-Since": 'W/"unknown"'} if asks_changes else {}
    first = client.get(URL.format(gid, lang), headers={**HX, "Accept-Encoding": encoding, **page})
    assert first.status_code == 200
    etag = first.headers["ETag"]
    again = client.get(
        URL.format(gid, lang),
        headers={
            **HX,
            "Accept-Encoding": encoding,
            "If-None-Match": etag,
            **({"X-Live-Since": etag} if asks_changes else {}),
        },
    )
    assert again.status_code == 304
    return first


def test_a_poll_after_a_write_answers_what_the_write_drew(client, where, monkeypatch):
    gid, key = api_game(client, deals=[FLAT])
    before = follow(client, gid)
    drawings = Drawings(monkeypatch)
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    assert len(drawings.drawn) == 1, "the write draws its follower's region once"
    drawn = drawings.drawn[0]
    assert "deal-1" in drawn  # the new deal's row: the version just written
    polls = [
        client.get(URL.format(gid, "en"), headers={**HX, "If-None-Match": before.headers["ETag"]})
        for _ in range(3)
    ]
    assert len(drawings.drawn) == 1, "no poll draws"
    for poll in polls:
        assert poll.status_code == 200 and poll.headers["ETag"] != before.headers["ETag"]
        assert poll.data == drawn.encode()


def test_a_write_draws_only_what_is_followed(client, where, monkeypatch):
    gid, key = api_game(client, deals=[FLAT])
    other, other_key = api_game(client, deals=[FLAT])
    follow(client, gid, "pl")
    drawings = Drawings(monkeypatch)
    assert client.post(f"/api/games/{other}/deals", json=FLAT, headers=bearer(other_key)).status_code == 201
    assert drawings.drawn == [], "nobody follows that game"
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    # The one language followed, not every language the app speaks.
    assert len(drawings.drawn) == 1
    assert "lang=pl" in drawings.drawn[0] and "lang=en" not in drawings.drawn[0]


def test_each_encoding_followed_is_kept_as_sent(client, app, tmp_path, monkeypatch):
    app.config["LIVE_ANSWERS_DIR"] = str(tmp_path / "answers")
    gid, key = api_game(client, deals=[FLAT])
    follow(client, gid, encoding="gzip")
    follow(client, gid, encoding="")
    drawings = Drawings(monkeypatch)
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    gzipped = client.get(URL.format(gid, "en"), headers={**HX, "Accept-Encoding": "gzip"})
    plain = client.get(URL.format(gid, "en"), headers={**HX, "Accept-Encoding": ""})
    assert gzipped.headers["Content-Encoding"] == "gzip" and "Content-Encoding" not in plain.headers
    assert len(drawings.drawn) == 1, "one drawing, kept compressed and not"
    assert plain.data == drawings.drawn[0].encode()


def test_a_form_write_draws_too(client, where, monkeypatch):
    """The scorer's page posting a deal (not only the API): the same gate, the same drawing."""
    gid, key = api_game(client, deals=[FLAT])
    before = follow(client, gid)
    client.set_cookie("edit_key", key)
    page = client.get(f"/g/{gid}")
    assert page.status_code == 200
    drawings = Drawings(monkeypatch)
    assert client.post(f"/g/{gid}/delete").status_code in (200, 303)
    client.delete_cookie("edit_key")
    # A deleted game draws nothing a viewer is served: the poll says it is gone.
    gone = client.get(URL.format(gid, "en"), headers={**HX, "If-None-Match": before.headers["ETag"]})
    assert gone.status_code == 286
    assert all("deal-" not in html for html in drawings.drawn)


def since(client, gid, etag, **headers):
    """A followed page's poll, as static/app.js sends it: the region's ETag, asking what changed."""
    return client.get(
        URL.format(gid, "en"), headers={**HX, "If-None-Match": etag, "X-Live-Since": etag, **headers}
    )


def rows_of(html: str) -> list[str]:
    return re.findall(r'<tr id="(deal-\d+)"', html)


def test_a_poller_one_version_behind_gets_the_new_row_totals_and_status(client, where, monkeypatch):
    gid, key = api_game(client, deals=[FLAT, FLAT])
    before = follow(client, gid, asks_changes=True)
    assert client.post(f"/api/games/{gid}/deals", json=SWEEP, headers=bearer(key)).status_code == 201
    drawings = Drawings(monkeypatch)
    monkeypatch.setattr(table, "live_delta", lambda *a, **k: pytest.fail("a poll drew the changes"))
    delta = since(client, gid, before.headers["ETag"])
    assert drawings.drawn == [], "the write drew it"
    whole = client.get(URL.format(gid, "en"), headers=HX)
    assert delta.status_code == 200 and delta.headers["ETag"] == whole.headers["ETag"]
    html = delta.get_data(as_text=True)
    assert rows_of(html) == ["deal-2"], "only the row added since"
    assert 'hx-swap-oob="afterend:#deal-1"' in html
    assert delta.headers["HX-Reswap"] == "none"
    assert json.loads(delta.headers["HX-Trigger"]) == {"live-current": {"etag": whole.headers["ETag"]}}
    # The totals and the status as the whole region shows them.
    foot = re.search(r"<tfoot.*?</tfoot>", html, re.S).group(0)
    assert re.sub(r" hx-swap-oob=\"[^\"]*\"", "", foot) in whole.get_data(as_text=True)
    status = re.search(r'<p id="status".*?</p>', html, re.S).group(0)
    assert status.replace(' hx-swap-oob="true"', "") in whole.get_data(as_text=True)
    # That phone's alone: never kept by a shared cache; and smaller than the whole region.
    assert delta.headers["Cache-Control"].startswith("private") and "X-Live-Since" in delta.headers["Vary"]
    assert len(delta.data) < len(whole.data)
    # At the new version, the next poll is a 304.
    assert since(client, gid, delta.headers["ETag"]).status_code == 304


def test_a_poller_further_behind_gets_every_row_after_its_version(client, app, monkeypatch):
    gid, key = api_game(client, deals=[FLAT])
    before = follow(client, gid)
    for facts in (FLAT, SWEEP, FLAT):
        assert client.post(f"/api/games/{gid}/deals", json=facts, headers=bearer(key)).status_code == 201
    html = since(client, gid, before.headers["ETag"]).get_data(as_text=True)
    assert rows_of(html) == ["deal-1", "deal-2", "deal-3"]
    assert 'hx-swap-oob="afterend:#deal-0"' in html


@pytest.mark.parametrize("change", ["correct", "far", "none"])
def test_the_whole_region_when_changes_will_not_do(client, where, change):
    """A corrected deal changes rows already shown; a page too far behind, or one that asks
    nothing (an older page's script): each gets the whole region."""
    gid, key = api_game(client, deals=[FLAT, FLAT])
    before = follow(client, gid)
    if change == "correct":
        client.set_cookie("edit_key", key)
        assert client.put(f"/api/games/{gid}/deals/0", json=SWEEP, headers=bearer(key)).status_code == 200
    else:
        for _ in range(table.MAX_BEHIND + 1 if change == "far" else 1):
            assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    if change == "none":
        answer = client.get(URL.format(gid, "en"), headers={**HX, "If-None-Match": before.headers["ETag"]})
    else:
        answer = since(client, gid, before.headers["ETag"])
    html = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "HX-Reswap" not in answer.headers
    assert html.lstrip().startswith('<section id="live"') and "deal-0" in rows_of(html)
    assert answer.headers["Cache-Control"].startswith("public")


@pytest.mark.parametrize("on_its_way", [True, False])
def test_a_poll_before_the_drawing_gets_the_version_before_only_if_it_is_on_its_way(
    client, app, tmp_path, on_its_way
):
    """Between a write's commit and its drawing (serve draws in a thread after it), a poll is
    answered from the version before and asked back in a second; a change whose drawing is not on
    its way here (another server's write) is drawn by the poll, never answered stale."""
    app.config["LIVE_ANSWERS_DIR"] = str(tmp_path / "answers")
    gid, key = api_game(client, deals=[FLAT])
    before = follow(client, gid)
    app.config["LIVE_DRAW_ON_WRITE"] = False  # the write's drawing not done yet
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    if on_its_way:
        version = int(before.headers["ETag"].split(".")[1]) + 1  # the deal's
        app.extensions["scorekeeper.livepoll"].answers.drawing(gid, version)
    answer = client.get(URL.format(gid, "en"), headers={**HX, "If-None-Match": before.headers["ETag"]})
    if on_its_way:
        assert answer.status_code == 304 and answer.headers["X-Poll-After"] == "1"
    else:
        assert answer.status_code == 200 and answer.headers["ETag"] != before.headers["ETag"]


def test_a_sync_worker_leaves_the_drawing_to_the_first_poll(app, client, monkeypatch):
    """gunicorn's or the dev server's worker has no pool to draw beside its writes: drawing before
    the write's answer cost the API 25% of its deals a second, so the write draws nothing."""
    app.extensions.pop("scorekeeper.draw_later", None)
    gid, key = api_game(client, deals=[FLAT])
    before = follow(client, gid)
    drawings = Drawings(monkeypatch)
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    assert drawings.drawn == []
    polled = client.get(URL.format(gid, "en"), headers={**HX, "If-None-Match": before.headers["ETag"]})
    assert polled.status_code == 200 and len(drawings.drawn) == 1


@pytest.mark.parametrize("asked", ["whole", "changes", "both"])
def test_a_write_draws_only_the_kind_of_answer_its_followers_ask_for(client, where, monkeypatch, asked):
    """Behind nginx (which clears X-Live-Since) every poll takes the whole region; a page's own polls
    take what changed. A write draws what was asked for, never both for nothing: a delta nobody
    asks for cost each deal a second drawing under a 10,000-table crowd (benchmarks/edge.py)."""
    gid, key = api_game(client, deals=[FLAT])
    if asked in ("whole", "both"):
        follow(client, gid)
    if asked in ("changes", "both"):
        follow(client, gid, asks_changes=True)
    drawings = Drawings(monkeypatch)
    deltas = Deltas(monkeypatch).since
    assert client.post(f"/api/games/{gid}/deals", json=SWEEP, headers=bearer(key)).status_code == 201
    assert len(drawings.drawn) == (0 if asked == "changes" else 1)
    assert len(deltas) == (0 if asked == "whole" else 1)


def test_a_page_first_to_ask_draws_what_changed_once_for_every_page_at_its_version(
    app, client, tmp_path, monkeypatch
):
    """Nothing drawn yet (a sync worker, or drawings left to the polls under a crowd): the first
    page to ask draws what changed since its version, not the whole region (about half the work),
    and the next pages at that version are answered from it; a page without the header still
    gets the whole region."""
    app.extensions.pop("scorekeeper.draw_later", None)
    app.config["LIVE_ANSWERS_DIR"] = str(tmp_path / "answers")
    gid, key = api_game(client, deals=[FLAT, FLAT])
    before = follow(client, gid, asks_changes=True)
    assert client.post(f"/api/games/{gid}/deals", json=SWEEP, headers=bearer(key)).status_code == 201
    drawings = Drawings(monkeypatch)
    deltas = Deltas(monkeypatch).since
    answers = [since(client, gid, before.headers["ETag"]) for _ in range(3)]
    assert len(deltas) == 1 and drawings.drawn == [], "one drawing of what changed, no whole region"
    assert {a.data for a in answers} == {answers[0].data}
    assert rows_of(answers[0].get_data(as_text=True)) == ["deal-2"]
    assert all(a.headers["Cache-Control"].startswith("private") for a in answers)
    whole = client.get(URL.format(gid, "en"), headers={**HX, "If-None-Match": before.headers["ETag"]})
    assert whole.status_code == 200 and "deal-0" in rows_of(whole.get_data(as_text=True))
    assert len(drawings.drawn) == 1


def test_pages_at_two_versions_each_keep_what_changed_since_theirs(app, client, tmp_path, monkeypatch):
    """A page that missed a deal (it waited out a busy server) asks from an older version than the
    others: each version's answer is kept in a slot of its own, so neither draws over the other's
    and every page after the first at a version is answered from what was kept."""
    from scorekeeper.web.live.livepoll import LivePoll

    app.extensions.pop("scorekeeper.draw_later", None)
    app.config["LIVE_ANSWERS_DIR"] = str(tmp_path / "answers")
    gid, key = api_game(client, deals=[FLAT])
    older = follow(client, gid, asks_changes=True)
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    newer = since(client, gid, older.headers["ETag"])
    assert client.post(f"/api/games/{gid}/deals", json=SWEEP, headers=bearer(key)).status_code == 201
    tags = (older.headers["ETag"], newer.headers["ETag"])
    first = [since(client, gid, tag) for tag in tags]
    assert rows_of(first[0].get_data(as_text=True)) == ["deal-1", "deal-2"]
    assert rows_of(first[1].get_data(as_text=True)) == ["deal-2"]
    # From here on no poll reaches the view: both answers are read from what was kept.
    monkeypatch.setattr(LivePoll, "keeping", lambda *a: pytest.fail("a poll drew the changes again"))
    for _ in range(2):
        assert [since(client, gid, tag).data for tag in tags] == [a.data for a in first]
