"""Viewers' live answers kept whole and shared by every worker (scorekeeper/web/live/answers.py): the
view's answer, byte for byte, without drawing it again; never a scorer's, never another version's."""

from __future__ import annotations

import pytest

from scorekeeper.web.games import table
from scorekeeper.web.live.answers import AnswerStore, fresh_directory
from tests.web.table_helpers import FLAT, api_game

URL = "/g/{}/live?part={}&lang=en"
HX = {"HX-Request": "true"}


@pytest.fixture
def kept(app, tmp_path):
    app.config["LIVE_ANSWERS_DIR"] = str(tmp_path / "answers")
    return tmp_path / "answers"


def comparable(response) -> dict[str, str]:
    # Drawn per answer (the date by the server, the rest by the layers outside): never kept.
    return {k: v for k, v in response.headers.items() if k not in ("X-Request-Id", "X-Poll-After", "Date")}


def no_drawing(monkeypatch):
    """Any answer drawn by the view from now on fails the test: only a kept one can pass."""

    def drawn(*_args, **_kwargs):
        raise AssertionError("the view drew a region that was kept")

    monkeypatch.setattr(table, "live_html", drawn)


@pytest.mark.parametrize("part", ["live", "board"])
@pytest.mark.parametrize("encoding", ["gzip, br", "gzip", ""])
def test_a_kept_answer_is_the_views_answer(app, client, kept, monkeypatch, count_queries, part, encoding):
    gid, _key = api_game(client, deals=[FLAT])
    headers = {**HX, "Accept-Encoding": encoding}
    drawn = client.get(URL.format(gid, part), headers=headers)
    assert drawn.status_code == 200 and drawn.headers["Cache-Control"].startswith("public")
    assert list(kept.rglob(f"{part}.en.*"))
    no_drawing(monkeypatch)
    with count_queries() as seen:
        again = client.get(URL.format(gid, part), headers=headers)
    # One query (the game's version), as an unchanged game's 304: another worker answers so too.
    assert len(seen) == 1, seen.statements
    assert again.status_code == 200 and again.data == drawn.data
    assert comparable(again) == comparable(drawn)
    assert again.headers.get("Content-Encoding") == drawn.headers.get("Content-Encoding")
    assert "X-Poll-After" in again.headers and "Set-Cookie" not in again.headers


def test_each_encoding_is_kept_apart(client, kept):
    gid, _key = api_game(client, deals=[FLAT])
    plain = client.get(URL.format(gid, "live"), headers={**HX, "Accept-Encoding": ""})
    gzipped = client.get(URL.format(gid, "live"), headers={**HX, "Accept-Encoding": "gzip"})
    assert "Content-Encoding" not in plain.headers and gzipped.headers["Content-Encoding"] == "gzip"
    assert client.get(URL.format(gid, "live"), headers={**HX, "Accept-Encoding": ""}).data == plain.data
    again = client.get(URL.format(gid, "live"), headers={**HX, "Accept-Encoding": "gzip"})
    assert again.headers["Content-Encoding"] == "gzip" and again.data == gzipped.data


def test_a_new_deal_is_drawn_and_kept_in_place_of_the_last(client, kept):
    gid, key = api_game(client, deals=[FLAT])
    first = client.get(URL.format(gid, "live"), headers=HX)
    auth = {"Authorization": f"Bearer {key}"}
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=auth).status_code == 201
    second = client.get(URL.format(gid, "live"), headers=HX)
    assert second.headers["ETag"] != first.headers["ETag"] and second.data != first.data
    assert len(list(kept.rglob("live.en.*"))) == 1  # one file per region, the latest version
    assert client.get(URL.format(gid, "live"), headers=HX).data == second.data
    # A phone that had the first version is told of the second, not served the first again.
    behind = client.get(URL.format(gid, "live"), headers={**HX, "If-None-Match": first.headers["ETag"]})
    assert behind.status_code == 200 and behind.headers["ETag"] == second.headers["ETag"]


def test_a_scorers_or_a_cookie_languages_answer_is_never_kept(client, kept, monkeypatch):
    gid, key = api_game(client, deals=[FLAT])
    client.set_cookie("edit_key", key)
    scorer = client.get(f"/g/{gid}/live?part=board&lang=en&as=scorer", headers=HX)
    assert scorer.status_code == 200 and ".s.board" in scorer.headers["ETag"]
    client.delete_cookie("edit_key")
    unnamed = client.get(f"/g/{gid}/live?part=live", headers=HX)  # language from the phone: private
    assert unnamed.status_code == 200 and unnamed.headers["Cache-Control"].startswith("private")
    assert not list(kept.rglob("*.*.*")), "only a public answer is kept"
    no_drawing(monkeypatch)
    with pytest.raises(AssertionError, match="drew"):
        client.get(URL.format(gid, "board"), headers=HX)


def test_a_deleted_game_is_never_answered_from_its_file(client, kept):
    gid, key = api_game(client, deals=[FLAT])
    assert client.get(URL.format(gid, "live"), headers=HX).status_code == 200
    client.set_cookie("edit_key", key)
    assert client.post(f"/g/{gid}/delete").status_code in (200, 303)
    client.delete_cookie("edit_key")
    assert client.get(URL.format(gid, "live"), headers=HX).status_code == 286


def test_an_answer_of_another_history_is_not_served(client, kept):
    """The file names the version and the last change it was drawn at: a game restored under an
    old id with another history at the same version is drawn anew."""
    gid, _key = api_game(client, deals=[FLAT])
    plain = {**HX, "Accept-Encoding": ""}
    drawn = client.get(URL.format(gid, "live"), headers=plain)
    (path,) = kept.rglob("live.en.*")
    stamp, _, rest = path.read_bytes().partition(b"\n")
    forged = rest.replace(b"</section>", b"FORGED</section>")
    path.write_bytes(stamp + b"\n" + forged)
    assert b"FORGED" in client.get(URL.format(gid, "live"), headers=plain).data  # the file is read
    path.write_bytes(stamp.replace(b" ", b" 1999-", 1) + b"\n" + forged)  # drawn at another change
    again = client.get(URL.format(gid, "live"), headers=plain)
    assert again.status_code == 200 and b"FORGED" not in again.data
    assert again.headers["ETag"] == drawn.headers["ETag"] and again.data == drawn.data


def test_over_https_the_kept_answer_carries_hsts_and_over_http_not(client, kept):
    gid, _key = api_game(client, deals=[FLAT])
    client.get(URL.format(gid, "live"), headers=HX, base_url="https://localhost")
    secure = client.get(URL.format(gid, "live"), headers=HX, base_url="https://localhost")
    plain = client.get(URL.format(gid, "live"), headers=HX)
    assert secure.headers["Strict-Transport-Security"] == "max-age=31536000"
    assert "Strict-Transport-Security" not in plain.headers


def test_a_broken_file_is_drawn_anew(tmp_path):
    store = AnswerStore(tmp_path)
    path = store.path("g1", "live", "en", "gzip")
    path.parent.mkdir(parents=True)
    path.write_bytes(b"g1.2.en.v.live stamp\nnot json\nbody")
    assert store.get(path, "g1.2.en.v.live stamp") is None
    store.put(path, "g1.3.en.v.live stamp", [("Content-Type", "text/html"), ("Date", "now")], b"<p>")
    assert store.get(path, "g1.3.en.v.live stamp") == ([("Content-Type", "text/html")], b"<p>")
    assert store.get(path, "g1.2.en.v.live stamp") is None


def test_each_start_has_a_directory_of_its_own(tmp_path):
    first = fresh_directory(tmp_path)
    (first / "g1").mkdir()
    (first / "g1" / "live.en.x").write_bytes(b"old")
    second = fresh_directory(tmp_path)
    assert second != first and not first.exists() and list(tmp_path.iterdir()) == [second]
