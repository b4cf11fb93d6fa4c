"""A viewer's game page kept whole per version (web/games/pages.py viewer_page), its CSRF token put back per request."""

from __future__ import annotations

import re

from flask import Response

from scorekeeper.web import secrecy
from tests.web.table_helpers import FLAT, api_game, games_of_every_kind

TOKEN = re.compile(r'name="csrf_token" value="([^"]+)"')


def untokened(response) -> str:
    return TOKEN.sub('name="csrf_token" value=""', response.get_data(as_text=True))


def fresh_and_cached(app, viewer, path):
    """The page rendered anew, then as the cache gives it, to the same device."""
    app.config["VIEWER_PAGE_CACHE"] = False
    fresh = viewer.get(path)
    app.config["VIEWER_PAGE_CACHE"] = True
    viewer.get(path)  # fills the cache
    return fresh, viewer.get(path)


def test_a_cached_viewer_page_equals_a_fresh_render_for_every_kind(app, client):
    app.config["WTF_CSRF_ENABLED"] = True
    for kind, (gid, _key) in games_of_every_kind(client).items():
        viewer = app.test_client()
        fresh, cached = fresh_and_cached(app, viewer, f"/g/{gid}")
        assert cached.status_code == fresh.status_code == 200, kind
        # A signed token carries the second it was signed in: compare the pages around it.
        assert untokened(cached) == untokened(fresh), kind
        assert cached.headers["Vary"] == fresh.headers["Vary"], kind


def test_each_device_gets_its_own_csrf_token(app, client):
    app.config["WTF_CSRF_ENABLED"] = True
    gid, _key = api_game(client, deals=[FLAT])
    first, second = app.test_client(), app.test_client()
    one = TOKEN.findall(first.get(f"/g/{gid}").get_data(as_text=True))
    two = TOKEN.findall(second.get(f"/g/{gid}").get_data(as_text=True))
    assert one and two and set(one).isdisjoint(two)
    # The kept page's token is this device's: the language form it carries is accepted.
    answer = second.post("/lang", data={"csrf_token": two[0], "lang": "pl", "next": f"/g/{gid}"})
    assert answer.status_code in (302, 303)


def test_a_write_shows_on_the_next_look(app, client):
    gid, key = api_game(client, deals=[FLAT])
    viewer = app.test_client()
    before = untokened(viewer.get(f"/g/{gid}"))
    assert untokened(viewer.get(f"/g/{gid}")) == before  # kept
    auth = {"Authorization": f"Bearer {key}"}
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=auth).status_code in (200, 201)
    after = untokened(viewer.get(f"/g/{gid}"))
    app.config["VIEWER_PAGE_CACHE"] = False
    assert after != before and after == untokened(viewer.get(f"/g/{gid}"))


def test_the_scorer_and_other_languages_never_get_the_viewers_page(app, client):
    gid, key = api_game(client, deals=[FLAT])
    viewer = app.test_client()
    english = viewer.get(f"/g/{gid}").get_data(as_text=True)
    polish = viewer.get(f"/g/{gid}", headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert polish != english and 'lang="pl"' in polish
    scorer = app.test_client()
    scorer.set_cookie("edit_key", key)
    page = scorer.get(f"/g/{gid}").get_data(as_text=True)
    assert page != english and 'id="entry"' in page


def test_a_kept_page_is_searched_for_credentials_once(app, client, monkeypatch):
    """Whether a viewer's page carries a credential (web/secrecy.py) is found once, when the page is
    kept: the looks that follow answer as the first did, without searching the page again (a
    240-deal board is half a megabyte). Here the search is made to find the page's own
    doctype, then to find nothing: the kept page still says no-store, a fresh render does not."""
    gid, _key = api_game(client, deals=[FLAT])
    viewer = app.test_client()
    monkeypatch.setattr(secrecy, "IN_PAGE", (b"<!doctype html>",))
    monkeypatch.setattr(secrecy, "IN_PAGE_ANY", (b"<!doctype",))
    assert viewer.get(f"/g/{gid}").headers["Cache-Control"] == "no-store"  # looked at, and kept
    monkeypatch.setattr(secrecy, "IN_PAGE", ())
    monkeypatch.setattr(secrecy, "IN_PAGE_ANY", ())
    assert viewer.get(f"/g/{gid}").headers["Cache-Control"] == "no-store"  # as it was kept
    app.config["VIEWER_PAGE_CACHE"] = False
    assert "no-store" not in viewer.get(f"/g/{gid}").headers.get("Cache-Control", "")


def test_a_page_is_searched_for_each_link_that_carries_a_key(app):
    """Two searches clear a page that holds neither "key=" nor "/join/"; a page holding either is
    searched for the links themselves."""
    pages = {
        b'<a href="/g/abc?key=s3cret">': True,
        b'<a href="/e/1/direct?x=1&amp;key=s3cret">': True,
        b'<a href="/join/t0ken">': True,
        b"<p>monkey=business</p>": False,  # "key=", but in no link of ours
        b"<p>A plain board</p>": False,
    }
    for body, secret in pages.items():
        with app.test_request_context():
            assert secrecy.carries_secret(Response(body, mimetype="text/html")) is secret, body


def test_what_a_page_is_searched_for_first_is_in_every_link_that_carries_a_key():
    """The first searches clear a page only if every credential link holds one of what they look
    for: a link added to IN_PAGE alone would otherwise never be found."""
    assert all(any(first in link for first in secrecy.IN_PAGE_ANY) for link in secrecy.IN_PAGE)
