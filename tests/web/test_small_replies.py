"""The scorer's htmx replies carry only what changed (issue 13): one more deal, and an undo."""

from __future__ import annotations

import json
import re

from tests.conftest import bearer
from tests.web.table_helpers import hidden

HX = {"HX-Request": "true"}


def tally_game(client, rows):
    record = {"game": "tally", "players": ["Ann", "Bob", "Cid"], "deals": [{"points": p} for p in rows]}
    response = client.post("/api/games", json=record)
    assert response.status_code == 201, response.json
    return response.json["id"], response.json["edit_key"]


def scorer(client, gid, key) -> str:
    return client.get(f"/g/{gid}?key={key}", follow_redirects=True).get_data(as_text=True)


def oob_rows(reply: str) -> dict[str, list[int]]:
    """Which rows a reply redraws in place, adds, and drops."""
    added = re.search(r'hx-swap-oob="afterend:#deal-\d+">(.*?)</tbody>', reply, re.S)
    return {
        "redrawn": [int(k) for k in re.findall(r'<tr id="deal-(\d+)" hx-swap-oob="true"', reply)],
        "added": [int(k) for k in re.findall(r'<tr id="deal-(\d+)"', added.group(1))] if added else [],
        "dropped": [int(k) for k in re.findall(r'<tr id="deal-(\d+)" hx-swap-oob="delete"', reply)],
    }


def undo_form(page: str) -> tuple[str, dict[str, str]]:
    form = re.search(r'<form class="undo-bar" id="undo-bar".*?</form>', page, re.S).group(0)
    action = re.search(r'action="([^"]+)"', form).group(1)
    fields = dict(re.findall(r'<input type="hidden" name="([^"]+)" value="([^"]*)"', form))
    return action, fields


def test_one_more_deal_on_a_long_game_sends_one_row_and_tells_the_board_its_version(client):
    gid, key = tally_game(client, [[k, 1, 2] for k in range(60)])
    page = scorer(client, gid, key)
    data = {"points_0": "5", "points_1": "0", "points_2": "1", "base_version": hidden(page, "base_version")}
    data["submit_token"] = hidden(page, "submit_token")
    reply = client.post(f"/g/{gid}/deals", data=data, headers=HX)
    body = reply.get_data(as_text=True)
    assert reply.status_code == 200 and reply.headers["HX-Reswap"] == "none"
    assert oob_rows(body) == {"redrawn": [], "added": [60], "dropped": []}
    assert 'hx-swap-oob="afterend:#deal-59"' in body and "<html" not in body
    assert len(body) < 8000  # 61 deals: whole, the board alone is several times this
    trigger = json.loads(reply.headers["HX-Trigger"])
    after = client.get(
        f"/g/{gid}/live?part=board&as=scorer", headers={"If-None-Match": trigger["board-current"]["etag"]}
    )
    assert after.status_code == 304  # the board above the form stands at the new version


def test_undoing_a_correction_redraws_the_rows_from_it_on_and_no_earlier_one(client):
    gid, key = tally_game(client, [[k, 1, 2] for k in range(8)])
    assert (
        client.put(f"/api/games/{gid}/deals/5", json={"points": [50, 0, 0]}, headers=bearer(key)).status_code
        == 200
    )
    page = scorer(client, gid, key)
    action, fields = undo_form(page)
    reply = client.post(action, data=fields, headers=HX)
    body = reply.get_data(as_text=True)
    assert reply.status_code == 200, body[:500]
    # The totals run on: deals 6 to 8 read differently; deals 1 to 5 are left as they are.
    assert oob_rows(body) == {"redrawn": [5, 6, 7], "added": [], "dropped": []}
    assert "Undone: Deal 6 corrected." in body
    assert client.get(f"/api/games/{gid}").json["deals"][5] == {"points": [5, 1, 2]}


def test_undoing_a_delete_puts_the_row_back_and_redraws_the_ones_after(client):
    gid, key = tally_game(client, [[k, 1, 2] for k in range(6)])
    assert client.delete(f"/api/games/{gid}/deals/4", headers=bearer(key)).status_code == 200
    page = scorer(client, gid, key)
    action, fields = undo_form(page)
    body = client.post(action, data=fields, headers=HX).get_data(as_text=True)
    assert oob_rows(body) == {"redrawn": [4], "added": [5], "dropped": []}
    assert [d["points"][0] for d in client.get(f"/api/games/{gid}").json["deals"]] == [0, 1, 2, 3, 4, 5]


def test_a_page_drawn_before_another_devices_change_gets_the_whole_region(client):
    gid, key = tally_game(client, [[1, 1, 1], [2, 2, 2]])
    page = scorer(client, gid, key)
    assert (
        client.post(f"/api/games/{gid}/deals", json={"points": [3, 3, 3]}, headers=bearer(key)).status_code
        == 201
    )
    data = {"points_0": "4", "points_1": "4", "points_2": "4", "base_version": hidden(page, "base_version")}
    data["submit_token"] = hidden(page, "submit_token")
    body = client.post(f"/g/{gid}/deals", data=data, headers=HX).get_data(as_text=True)
    # Its board lacks the other device's deal: nothing is saved, and the whole region comes back
    # with that deal on it (a reply of rows would have left a gap).
    assert '<section id="live"' in body and "Not saved: this game was changed" in body
    assert len(re.findall(r'<tr id="deal-\d+"', body)) == 3
