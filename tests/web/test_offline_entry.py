"""What a phone keeping deals offline (static/offline.js, issue 53) needs of the server: the game
page's #offline box (the version, the next deal and dealer it was drawn at, where a deal is posted),
and a deal's answer naming the version it leaves the game at, whatever the answer (saved, a repeat
of a saved token, refused as stale)."""

import re

from tests.events.test_table_links import HTMX

DEAL = {"trump": "H", "maker": "0", "alone": "0", "defender_alone": "", "maker_tricks": "3"}


def new_game(client):
    made = client.post("/api/games", json={"game": "euchre", "players": ["Ann", "Bob", "Cid", "Dee"]})
    game = made.get_json()
    client.get(f"/g/{game['id']}?key={game['edit_key']}")  # the key kept on this device
    return game["id"]


def box(html: str, element: str = '<div id="offline"') -> dict[str, str]:
    tag = re.search(element + r"[^>]*>", html).group(0)
    return dict(re.findall(r'data-([a-z-]+)="([^"]*)"', tag))


def test_the_game_page_tells_the_phone_what_it_needs_to_keep_deals(client):
    game_id = new_game(client)
    page = box(client.get(f"/g/{game_id}").get_data(as_text=True))
    assert page["game"] == game_id and page["action"] == f"/g/{game_id}/deals"
    assert (page["version"], page["deal"], page["dealer"]) == ("1", "1", "0")
    words = box(client.get(f"/g/{game_id}").get_data(as_text=True), '<span id="offline-words"')
    assert words["deal-label"] == "Deal {n}" and words["dealer-label"] == "{dealer} deals"
    assert page["players"] == "[&#34;Ann&#34;, &#34;Bob&#34;, &#34;Cid&#34;, &#34;Dee&#34;]"
    # A viewer keeps no deals: no box.
    assert 'id="offline"' not in client.application.test_client().get(f"/g/{game_id}").get_data(as_text=True)
    # After a deal (the small reply), the box comes again, out of band, at the next deal.
    reply = client.post(
        f"/g/{game_id}/deals", data={**DEAL, "base_version": "1", "submit_token": "tok-first-1"}, headers=HTMX
    )
    after = box(reply.get_data(as_text=True))
    assert (after["version"], after["deal"], after["dealer"]) == ("2", "2", "1")
    # The next deal's small reply carries the box again, not its sentences (they stay on the page).
    data = {**DEAL, "base_version": "2", "submit_token": "tok-second-2"}
    small = client.post(f"/g/{game_id}/deals", data=data, headers=HTMX).get_data(as_text=True)
    assert box(small)["deal"] == "3" and 'id="offline-words"' not in small


def test_a_deals_answer_names_the_version_it_leaves_and_a_repeat_is_saved_once(client):
    game_id = new_game(client)
    sent = {**DEAL, "base_version": "1", "submit_token": "offline-deal-2"}
    first = client.post(f"/g/{game_id}/deals", data=sent, headers=HTMX)
    assert first.status_code == 200 and first.headers["X-Game-Version"] == "2"
    # The same deal sent again (its answer lost on the way): recorded once, the same version.
    again = client.post(f"/g/{game_id}/deals", data=sent, headers=HTMX)
    assert again.status_code == 200 and again.headers["X-Game-Version"] == "2"
    assert "recorded (once)" in again.get_data(as_text=True)
    # Based on the version the first left: saved.
    second = client.post(
        f"/g/{game_id}/deals",
        data={**sent, "base_version": "2", "submit_token": "offline-deal-3"},
        headers=HTMX,
    )
    assert second.headers["X-Game-Version"] == "3"
    # A deal kept from before a change made elsewhere: refused (409), nothing recorded, its message.
    stale = client.post(
        f"/g/{game_id}/deals",
        data={**sent, "base_version": "2", "submit_token": "offline-deal-4"},
        headers=HTMX,
    )
    assert stale.status_code == 409 and stale.headers["X-Game-Version"] == "3"
    assert "this game was changed on another device meanwhile" in stale.get_data(as_text=True)
    assert len(client.get(f"/api/games/{game_id}").get_json()["deals"]) == 2


def test_only_pages_that_enter_facts_load_the_offline_script(client):
    """offline.js is a scorer's (issue 53, item 3): a viewer's page, the pages any visitor sees
    first, and the service worker's install list never fetch it; the scorer's page, a seat's
    console and a deal's correction page do. The sentences for a write held behind kept deals
    come in each plural form the page's language has (1, 2, 5)."""
    game_id = new_game(client)
    script = re.compile(r'<script src="/static/offline\.js[^"]*" defer>')
    viewer = client.application.test_client()
    for path in (f"/g/{game_id}", "/", "/offline"):
        assert not script.search(viewer.get(path).get_data(as_text=True)), path
    assert "/static/offline.js" not in viewer.get("/sw.js").get_data(as_text=True)
    scorer_page = client.get(f"/g/{game_id}").get_data(as_text=True)
    assert len(script.findall(scorer_page)) == 1
    client.post(f"/g/{game_id}/deals", data={**DEAL, "base_version": "1", "submit_token": "tok-first-1"})
    assert script.search(client.get(f"/g/{game_id}/deals/0").get_data(as_text=True))
    words = dict(re.findall(r'data-(blocked[0-9])="([^"]*)"', scorer_page))
    assert words["blocked1"] == "{n} deal is waiting to be saved; this can be done once it is."
    assert (
        words["blocked2"]
        == words["blocked5"]
        == "{n} deals are waiting to be saved; this can be done once they are."
    )
    client.post("/lang", data={"lang": "pl"})
    polish = dict(
        re.findall(r'data-(blocked[0-9])="([^"]*)"', client.get(f"/g/{game_id}").get_data(as_text=True))
    )
    assert len({polish["blocked1"], polish["blocked2"], polish["blocked5"]}) == 3
