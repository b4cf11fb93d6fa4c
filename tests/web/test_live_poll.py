"""An unchanged ``/live`` poll answered below Flask (scorekeeper/web/live/livepoll.py): the view's 304, cheaper."""

from __future__ import annotations

import pytest

from tests.web.table_helpers import FLAT, api_game


def poll(client, gid, etag=None, part="live", scorer=False, **headers):
    if etag:
        headers["If-None-Match"] = etag
    # The scorer's page follows its regions on the scorer's URL (templates/_macros.html, follow).
    url = f"/g/{gid}/live?part={part}" + ("&as=scorer" if scorer else "")
    return client.get(url, headers={"HX-Request": "true", **headers})


def comparable(response) -> dict[str, str]:
    return {k: v for k, v in response.headers.items() if k != "X-Request-Id"}


@pytest.mark.parametrize("part", ["live", "board"])
@pytest.mark.parametrize("language", ["en", "pl", "pt-PT,pt;q=0.9", "de"])
def test_the_fast_304_is_the_views_304(app, client, part, language):
    gid, _key = api_game(client, deals=[FLAT])
    etag = poll(client, gid, part=part, **{"Accept-Language": language}).headers["ETag"]
    fast = poll(client, gid, etag, part=part, **{"Accept-Language": language})
    app.config["LIVE_FAST_PATH"] = False
    slow = poll(client, gid, etag, part=part, **{"Accept-Language": language})
    assert fast.status_code == slow.status_code == 304
    assert comparable(fast) == comparable(slow) and fast.data == slow.data == b""


def test_a_304_sets_no_cookie_and_runs_one_query(app, client, count_queries):
    gid, _key = api_game(client, deals=[FLAT])
    etag = poll(client, gid).headers["ETag"]
    with count_queries() as seen:
        unchanged = poll(client, gid, etag)
    assert unchanged.status_code == 304 and "Set-Cookie" not in unchanged.headers
    assert len(seen) == 1, seen.statements


def test_the_etag_keeps_language_and_role(client):
    gid, key = api_game(client, deals=[FLAT])
    viewer = poll(client, gid).headers["ETag"]
    # Another language, or the scorer's cookie, is another region: a 200, never the viewer's 304.
    client.set_cookie("lang", "pl")
    polish = poll(client, gid, viewer)
    assert polish.status_code == 200 and polish.headers["ETag"] != viewer
    assert poll(client, gid, polish.headers["ETag"]).status_code == 304
    client.delete_cookie("lang")
    client.set_cookie("edit_key", key)
    scorer = poll(client, gid, viewer, scorer=True)
    assert scorer.status_code == 200 and ".s.live" in scorer.headers["ETag"]
    assert poll(client, gid, scorer.headers["ETag"], scorer=True).status_code == 304
    # The viewer's URL answers the viewer's region to every phone, the scorer's too.
    assert poll(client, gid, viewer).status_code == 304


def test_a_write_or_a_delete_ends_the_304(client):
    gid, key = api_game(client, deals=[FLAT])
    etag = poll(client, gid).headers["ETag"]
    auth = {"Authorization": f"Bearer {key}"}
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=auth).status_code in (200, 201)
    changed = poll(client, gid, etag)
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    etag = changed.headers["ETag"]
    client.set_cookie("edit_key", key)
    assert client.post(f"/g/{gid}/delete").status_code in (200, 303)
    client.delete_cookie("edit_key")
    assert poll(client, gid, etag).status_code == 286  # the view's notice: polling stops


def test_odd_polls_go_to_the_view(client):
    gid, _key = api_game(client, deals=[FLAT])
    etag = poll(client, gid).headers["ETag"]
    assert client.get(f"/g/{gid}/live?part=nope", headers={"If-None-Match": etag}).status_code == 404
    assert client.get(f"/g/{gid}/live?part=live&x=%00", headers={"If-None-Match": etag}).status_code == 400
    assert client.get("/g/nosuchgame/live?part=live", headers={"If-None-Match": etag}).status_code == 404


def test_the_fast_path_reads_the_views_statement(app, client, monkeypatch):
    """The view's poll (table.live) and the fast path read one statement (livepoll.LIVE_ROW): two
    statements of one shape share a compiled form, and each run of the one compiled second rebuilt
    its result's columns (SQLAlchemy's ``_adapt_to_context``), a third of a 304's cost
    (benchmarks/run.py: /live 304 at 0.77 of the bare app, 0.90 before)."""
    from sqlalchemy.engine.cursor import CursorResultMetaData

    gid, _key = api_game(client, deals=[FLAT])
    app.config["LIVE_FAST_PATH"] = False
    etag = poll(client, gid).headers["ETag"]  # the view reads the game's row first
    app.config["LIVE_FAST_PATH"] = True
    adapted = []
    adapt = CursorResultMetaData._adapt_to_context

    def counted(self, context):
        found = adapt(self, context)
        if found is not self:
            adapted.append(str(context.compiled.statement))
        return found

    monkeypatch.setattr(CursorResultMetaData, "_adapt_to_context", counted)
    assert poll(client, gid, etag).status_code == 304
    assert poll(client, gid, etag).status_code == 304
    assert adapted == []
