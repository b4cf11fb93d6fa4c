"""No lost updates, no double deals, undo and history, deleting a game, following live, sharing."""

from __future__ import annotations

import re

import segno
from markupsafe import Markup
from sqlalchemy import select

from scorekeeper.db import db
from scorekeeper.models import Change
from tests.conftest import bearer, sa_form
from tests.web.pages import checked
from tests.web.table_helpers import FLAT, SWEEP, api_game, deal_count, hidden


def no_scoring(monkeypatch) -> None:
    """Any scoring of a game (kept or not) fails the test: ``read.result`` by either of its paths."""
    from scorekeeper import read, scoring

    def scored(*_args, **_kwargs):
        raise AssertionError("scored")

    monkeypatch.setattr(scoring, "result", scored)
    monkeypatch.setattr(read, "result", scored)


FORM_FLAT = sa_form([4, 3, 3, 3], "LORS")
FORM_SWEEP = sa_form([13, 0, 0, 0], "SLOR")
HX = {"HX-Request": "true"}


def totals(html: str) -> list[str]:
    foot = re.search(r"<tfoot>(.*?)</tfoot>", html, re.S).group(1)
    return re.findall(r"<td[^>]*>(\d+)</td>", foot)


def entry(client, path) -> dict[str, str]:
    """The hidden inputs of the entry form, as the scorer's page has them now."""
    html = client.get(path).get_data(as_text=True)
    return {"base_version": hidden(html, "base_version"), "submit_token": hidden(html, "submit_token")}


# ---- Versions: a stale write is refused, never silently applied


def test_the_entry_form_carries_its_version_and_a_fresh_token(client, new_game):
    path = new_game()
    first, second = entry(client, path), entry(client, path)
    assert first["base_version"] == second["base_version"] == "1"
    assert first["submit_token"] != second["submit_token"]
    response = client.post(f"{path}/deals", data={**FORM_FLAT, **first}, headers=HX)
    html = response.get_data(as_text=True)
    assert hidden(html, "base_version") == "2" and hidden(html, "submit_token") != first["submit_token"]


def test_a_stale_page_write_is_409_with_the_newer_state_and_the_entry_kept(app, client, new_game):
    path = new_game()
    stale = entry(client, path)
    # Meanwhile another device (the second scorer) records deal 1.
    other = app.test_client()
    gid = path.rsplit("/", 1)[1]
    other.set_cookie("edit_key", client.get_cookie("edit_key", path=path).value, path=path)
    assert other.post(f"{path}/deals", data={**FORM_SWEEP, **entry(other, path)}).status_code == 303
    for headers in ({}, HX):
        response = client.post(f"{path}/deals", data={**FORM_FLAT, **stale}, headers=headers)
        assert response.status_code == 409
        html = response.get_data(as_text=True)
        assert "changed on another device" in html
        assert totals(html) == ["169", "100", "130", "100"]  # the newer state, deal 1 of the other
        assert checked(html, "tricks_0", "4") and checked(html, "agents_3", "S")  # the entry as typed
        assert hidden(html, "base_version") == "2"  # now based on what is shown
        assert hidden(html, "submit_token") == stale["submit_token"]  # not recorded: kept
        if headers:
            assert html.lstrip().startswith('<section id="live"')
    assert deal_count(app, gid) == 1
    # Saved again from the 409 page (now based on the newest state), it is deal 2.
    again = client.post(
        f"{path}/deals", data={**FORM_FLAT, "base_version": "2", **{"submit_token": stale["submit_token"]}}
    )
    assert again.status_code == 303 and deal_count(app, gid) == 2


def test_stale_corrections_deletions_drafts_undo_are_409(app, client, new_game):
    path = new_game()
    client.post(f"{path}/deals", data=FORM_FLAT)
    page = client.get(f"{path}/deals/0").get_data(as_text=True)
    old = hidden(page, "base_version")
    client.post(f"{path}/deals", data=FORM_FLAT)  # version moves on
    corrected = client.post(f"{path}/deals/0", data={**FORM_SWEEP, "base_version": old})
    assert corrected.status_code == 409
    html = corrected.get_data(as_text=True)
    assert "changed on another device" in html and checked(html, "tricks_0", "13")
    deleted = client.post(f"{path}/deals/0/delete", data={"base_version": old})
    assert deleted.status_code == 409 and "changed on another device" in deleted.get_data(as_text=True)
    assert client.post(f"{path}/delete", data={"base_version": old}).status_code == 409
    gid = path.rsplit("/", 1)[1]
    record = client.get(f"/api/games/{gid}").json
    assert record["deals"] == [FLAT, FLAT]
    # A form without a version (an old page, another client) still works as before.
    assert client.post(f"{path}/deals/0", data=FORM_SWEEP).status_code == 303
    assert client.post(f"{path}/deals", data={**FORM_FLAT, "base_version": "x"}).status_code == 400


def test_a_correction_of_a_deal_deleted_meanwhile_is_409(client, new_game):
    path = new_game()
    client.post(f"{path}/deals", data=FORM_FLAT)
    client.post(f"{path}/deals", data=FORM_FLAT)
    old = hidden(client.get(f"{path}/deals/1").get_data(as_text=True), "base_version")
    client.post(f"{path}/deals/1/delete")
    response = client.post(f"{path}/deals/1", data={**FORM_SWEEP, "base_version": old})
    assert response.status_code in (404, 409)  # the deal is gone either way; nothing is written


def test_api_etag_if_match_and_409(client):
    gid, key = api_game(client)
    got = client.get(f"/api/games/{gid}")
    assert got.headers["ETag"] == '"1"'
    stale = got.headers["ETag"]
    ok = client.post(f"/api/games/{gid}/deals", json=FLAT, headers={**bearer(key), "If-Match": stale})
    assert ok.status_code == 201 and ok.headers["ETag"] == '"2"'
    refused = client.post(f"/api/games/{gid}/deals", json=SWEEP, headers={**bearer(key), "If-Match": stale})
    assert refused.status_code == 409 and refused.headers["ETag"] == '"2"'
    assert "changed" in refused.json["errors"][0]["message"] and refused.json["record"]["deals"] == [FLAT]
    for call in (
        lambda h: client.put(f"/api/games/{gid}/deals/0", json=SWEEP, headers=h),
        lambda h: client.delete(f"/api/games/{gid}/deals/0", headers=h),
    ):
        assert call({**bearer(key), "If-Match": stale}).status_code == 409
    assert client.get(f"/api/games/{gid}").json["deals"] == [FLAT]
    # "*", several tags, none at all: as the client asks.
    assert (
        client.post(
            f"/api/games/{gid}/deals", json=FLAT, headers={**bearer(key), "If-Match": "*"}
        ).status_code
        == 201
    )
    both = {**bearer(key), "If-Match": '"1", "3"'}
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=both).status_code == 201
    assert client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key)).status_code == 201
    bad = client.post(f"/api/games/{gid}/deals", json=FLAT, headers={**bearer(key), "If-Match": 'W/"4"'})
    assert bad.status_code == 400
    assert len(client.get(f"/api/games/{gid}").json["deals"]) == 4


def test_api_get_is_304_when_unchanged_without_scoring(client, count_queries, monkeypatch):
    gid, key = api_game(client, deals=[FLAT, SWEEP])
    etag = client.get(f"/api/games/{gid}").headers["ETag"]
    no_scoring(monkeypatch)
    with count_queries() as seen:
        response = client.get(f"/api/games/{gid}", headers={"If-None-Match": etag})
    assert response.status_code == 304 and response.headers["ETag"] == etag and not response.data
    assert len(seen) == 1
    monkeypatch.undo()
    client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key))
    assert client.get(f"/api/games/{gid}", headers={"If-None-Match": etag}).status_code == 200


# ---- Idempotent submission: a double tap or a retry records one deal


def test_a_replayed_page_submission_records_one_deal(app, client, new_game):
    path = new_game()
    gid = path.rsplit("/", 1)[1]
    form = {**FORM_FLAT, **entry(client, path)}
    first = client.post(f"{path}/deals", data=form, headers=HX)
    assert first.status_code == 200
    # The same submission again (the answer was lost; the scorer taps again).
    again = client.post(f"{path}/deals", data=form, headers=HX)
    assert again.status_code == 200 and "Deal 1 was recorded (once)." in again.get_data(as_text=True)
    plain = client.post(f"{path}/deals", data=form)
    assert plain.status_code == 303
    assert "Deal 1 recorded." in client.get(plain.headers["Location"]).get_data(as_text=True)
    assert deal_count(app, gid) == 1
    # Even after other changes, that token stays spent.
    client.post(f"{path}/deals", data={**FORM_SWEEP, **entry(client, path)})
    assert client.post(f"{path}/deals", data=form).status_code == 303
    assert deal_count(app, gid) == 2


def test_replayed_corrections_and_deletions_apply_once(app, client, new_game):
    path = new_game()
    gid = path.rsplit("/", 1)[1]
    for _ in range(3):
        client.post(f"{path}/deals", data=FORM_FLAT)
    page = client.get(f"{path}/deals/0").get_data(as_text=True)
    delete = {"base_version": hidden(page, "base_version"), "submit_token": "delete-token-1"}
    assert client.post(f"{path}/deals/0/delete", data=delete).status_code == 303
    assert client.post(f"{path}/deals/0/delete", data=delete).status_code == 303
    assert deal_count(app, gid) == 2


def test_an_api_idempotency_key_makes_a_retry_harmless(client):
    gid, key = api_game(client)
    headers = {**bearer(key), "Idempotency-Key": "retry-me-0001"}
    first = client.post(f"/api/games/{gid}/deals", json=FLAT, headers=headers)
    second = client.post(f"/api/games/{gid}/deals", json=FLAT, headers=headers)
    assert first.status_code == second.status_code == 201
    assert second.headers["Idempotent-Replayed"] == "true" and "Idempotent-Replayed" not in first.headers
    assert second.json == first.json and len(second.json["deals"]) == 1
    assert (
        client.post(
            f"/api/games/{gid}/deals", json=FLAT, headers={**bearer(key), "Idempotency-Key": "ab"}
        ).status_code
        == 400
    )


# ---- Undo and history


def test_a_deleted_deal_comes_back_in_its_place_with_one_tap(app, client, new_game):
    path = new_game()
    gid = path.rsplit("/", 1)[1]
    for data in (FORM_FLAT, FORM_SWEEP, FORM_FLAT):
        client.post(f"{path}/deals", data=data)
    before = client.get(f"/api/games/{gid}").json
    client.post(f"{path}/deals/1/delete")
    page = client.get(path).get_data(as_text=True)
    assert "Deal 2 was deleted." in page and totals(page) == ["24", "18", "18", "18"]
    undo = re.search(r'action="([^"]*/undo)"', page).group(1)
    response = client.post(
        undo, data={"base_version": hidden(page, "base_version"), "submit_token": "undo-tok-1"}
    )
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Undone: Deal 2 deleted." in page
    after = client.get(f"/api/games/{gid}").json
    assert after["deals"] == before["deals"] and after["totals"] == before["totals"]
    assert "was deleted." not in page  # nothing left to undo there
    # The same undo tapped twice does not delete anything again.
    assert client.post(undo, data={"base_version": "1", "submit_token": "undo-tok-1"}).status_code == 303
    assert len(client.get(f"/api/games/{gid}").json["deals"]) == 3


def test_history_lists_every_change_with_device_and_undoes_a_correction(app, client, new_game):
    phone = {
        "User-Agent": "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 Chrome/126.0 Mobile Safari/537.36"
    }
    path = new_game()
    gid = path.rsplit("/", 1)[1]
    client.post(f"{path}/deals", data=FORM_FLAT, headers=phone)
    client.post(f"{path}/deals/0", data=FORM_SWEEP, headers=phone)
    key = client.get_cookie("edit_key", path=path).value
    client.post(f"/api/games/{gid}/deals", json=FLAT, headers={**bearer(key), "User-Agent": "curl/8.5.0"})
    html = client.get(f"{path}/history").get_data(as_text=True)
    items = re.findall(r"<li>(.*?)</li>", html, re.S)
    titles = [re.search(r"<strong>(.*?)</strong>", item).group(1) for item in items]
    assert titles == ["Deal 2 recorded", "Deal 1 corrected", "Deal 1 recorded", "Game started"]
    assert "tricks 4 3 3 3 → 13 0 0 0 · agents L O R S → S L O R" in items[1]
    assert "API · curl" in items[0] and "Chrome · Android (this device)" in items[1]
    assert "seconds ago" in items[0] or "second ago" in items[0]
    # Undo the correction from the history: deal 1 is flat again.
    form = re.search(r'<form method="post" action="([^"]*)">', items[1]).group(1)
    response = client.post(form, data={"base_version": hidden(html, "base_version"), "back": "history"})
    assert response.status_code == 303 and response.headers["Location"].endswith("/history")
    assert client.get(f"/api/games/{gid}").json["deals"] == [FLAT, FLAT]
    html = client.get(f"{path}/history").get_data(as_text=True)
    assert "Deal 1 corrected" in re.findall(r"<li>(.*?)</li>", html, re.S)[0]  # the undo, newest
    assert ">undo</small>" in html


def test_an_undo_the_game_has_moved_past_is_refused_and_changes_nothing(app, client, new_game):
    path = new_game()
    gid = path.rsplit("/", 1)[1]
    client.post(f"{path}/deals", data=FORM_FLAT)
    client.post(f"{path}/deals/0", data=FORM_SWEEP)  # change 3: the correction
    client.post(f"{path}/deals/0", data=FORM_FLAT)  # and back again
    html = client.get(f"{path}/history").get_data(as_text=True)
    with app.app_context():
        kinds = db.session.execute(
            select(Change.id, Change.kind).where(Change.game_id == gid).order_by(Change.id)
        ).all()
    assert [k for _, k in kinds] == ["create", "append", "replace", "replace"]
    first_correction = kinds[2][0]
    # The first correction is no longer what the deal holds: no undo is offered, and none is done.
    assert f"/changes/{first_correction}/undo" not in html and f"/changes/{kinds[3][0]}/undo" in html
    response = client.post(
        f"{path}/changes/{first_correction}/undo", data={"base_version": hidden(html, "base_version")}
    )
    assert response.status_code == 409 and "can no longer be undone" in response.get_data(as_text=True)
    assert client.get(f"/api/games/{gid}").json["deals"] == [FLAT]
    assert client.post(f"{path}/changes/999999/undo", data={}).status_code == 404
    assert client.post(f"{path}/changes/99999999999/undo", data={}).status_code == 404


def test_undoing_a_deal_whose_removal_breaks_the_rules_says_why(client, new_game):
    path = new_game(deals=1)
    client.post(f"{path}/deals", data=FORM_FLAT)
    html = client.get(f"{path}/history").get_data(as_text=True)
    # Undo "Deal 1 recorded", then record another: putting deal 1's record back is fine...
    append = re.search(r'action="([^"]*/undo)"', html).group(1)
    assert client.post(append, data={}).status_code == 303
    client.post(f"{path}/deals", data=FORM_SWEEP)
    html = client.get(f"{path}/history").get_data(as_text=True)
    # ...but undoing its deletion now would make two deals in a one-deal game.
    undo_delete = re.findall(r'action="([^"]*/undo)"', html)[1]
    response = client.post(undo_delete, data={})
    assert response.status_code == 409 and "cannot be undone" in response.get_data(as_text=True)


def test_deleting_a_game_hides_it_and_its_scorer_can_restore_it(app, client, new_game):
    path = new_game(players=["Eve", "Fay", "Gus", "Hal"])
    gid = path.rsplit("/", 1)[1]
    client.post(f"{path}/deals", data=FORM_FLAT)
    viewer = app.test_client()
    response = client.post(f"{path}/delete", data=entry(client, path))
    assert response.status_code == 303 and response.headers["Location"] == path
    page = client.get(path).get_data(as_text=True)
    assert "Game deleted." in page and "restore the game" in page
    assert "Eve, Fay" not in client.get("/").get_data(as_text=True)
    assert viewer.get(path).status_code == 404 and client.get(f"/api/games/{gid}").status_code == 404
    assert client.post(f"{path}/deals", data=FORM_FLAT).status_code == 404
    assert client.get(f"{path}/live?part=live").status_code == 286
    restore = client.post(f"{path}/restore", data={"base_version": hidden(page, "base_version")})
    assert restore.status_code == 303
    assert "Game restored." in client.get(path).get_data(as_text=True)
    assert client.get(f"/api/games/{gid}").json["deals"] == [FLAT]
    assert "Eve, Fay" in client.get("/").get_data(as_text=True)
    titles = re.findall(r"<strong>(.*?)</strong>", client.get(f"{path}/history").get_data(as_text=True))
    assert titles[:2] == ["Game restored", "Game deleted"]


# ---- Following live: conditional polling


def test_a_followed_region_is_304_until_the_game_changes(app, client, new_game, count_queries, monkeypatch):
    path = new_game()
    viewer = app.test_client()
    page = viewer.get(path).get_data(as_text=True)
    # The viewer's whole live region follows the game; the scorer's only its board (never the form).
    follow = re.search(r'<section id="live" class="live" hx-get="([^"]*)"[^>]*data-etag="([^"]*)"', page)
    url, etag = follow.group(1).replace("&amp;", "&"), follow.group(2).replace("&#34;", '"')
    # It asks when app.js says (data-poll's seconds, then the server's X-Poll-After).
    assert 'hx-trigger="poll"' in page and 'data-poll="3"' in page and "lang=en" in url
    scorer_page = client.get(path).get_data(as_text=True)
    assert '<section id="live" class="live">' in scorer_page
    assert re.search(r'<div id="board" class="board-live" hx-get="[^"]*part=board', scorer_page)
    no_scoring(monkeypatch)
    with count_queries() as seen:
        response = viewer.get(url, headers={"If-None-Match": etag, **HX})
    assert response.status_code == 304 and response.headers["ETag"] == etag and not response.data
    assert len(seen) == 1
    monkeypatch.undo()
    client.post(f"{path}/deals", data=FORM_SWEEP)
    response = viewer.get(url, headers={"If-None-Match": etag, **HX})
    assert response.status_code == 200 and response.headers["ETag"] != etag
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith('<section id="live"') and totals(html) == ["169", "100", "130", "100"]
    assert 'id="entry"' not in html
    # The same for every follower: a shared cache may keep it for a second (issue 28).
    assert response.headers["Cache-Control"] == "public, max-age=1"
    # The ETag depends on the language too: a page in Polish follows its own URL.
    polish = app.test_client()
    polish.set_cookie("lang", "pl")
    polish_page = polish.get(path).get_data(as_text=True)
    polish_url = re.search(r'<section id="live" class="live" hx-get="([^"]*)"', polish_page).group(1)
    assert "lang=pl" in polish_url
    polish_url = polish_url.replace("&amp;", "&")
    assert polish.get(polish_url, headers={"If-None-Match": response.headers["ETag"]}).status_code == 200
    assert viewer.get(f"{path}/live?part=nope").status_code == 404
    assert viewer.get("/g/nope/live?part=live").status_code == 404


def test_the_scorers_board_follows_without_touching_the_form(client, new_game):
    path = new_game()
    page = client.get(path).get_data(as_text=True)
    url = (
        re.search(r'<div id="board" class="board-live" hx-get="([^"]*)"', page).group(1).replace("&amp;", "&")
    )
    html = client.get(url, headers=HX).get_data(as_text=True)
    assert html.lstrip().startswith('<div id="board"') and 'id="entry"' not in html


# ---- Sharing


def test_the_game_page_offers_a_read_only_link_and_qr_code(app, client, new_game):
    path = new_game()
    viewer = app.test_client()
    for who in (client, viewer):
        html = who.get(path).get_data(as_text=True)
        link = f"http://localhost{path}"
        assert f'href="{link}"' in html
        expected = segno.make(link, error="m", micro=False).svg_inline(
            scale=1,
            border=4,
            dark="#000",
            light="#fff",
            omitsize=True,
            svgclass="qr",
            lineclass=None,
            title="Link to follow this game",
        )
        assert str(Markup(expected)) in html
    assert "Hand over scoring" in client.get(path).get_data(as_text=True)
    assert "Hand over scoring" not in viewer.get(path).get_data(as_text=True)


def test_the_hand_over_code_carries_the_scoring_link(app, client, new_game):
    path = new_game()
    key = client.get_cookie("edit_key", path=path).value
    html = client.get(f"{path}/handover").get_data(as_text=True)
    link = f"http://localhost{path}?key={key}"
    assert link in html
    expected = segno.make(link, error="m", micro=False).svg_inline(
        scale=1,
        border=4,
        dark="#000",
        light="#fff",
        omitsize=True,
        svgclass="qr",
        lineclass=None,
        title="Scoring link for this game",
    )
    assert expected in html
    # The phone that scans it can score.
    other = app.test_client()
    assert other.get(f"{path}?key={key}").status_code == 303
    assert other.post(f"{path}/deals", data=FORM_FLAT).status_code == 303
