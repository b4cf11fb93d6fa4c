"""Entry at the table (issues 14 and 19): errors where the eye is, undo that tells the truth,
what a screen reader hears after a save."""

from __future__ import annotations

import html as html_lib
import re

from tests.conftest import bearer, sa_form
from tests.web.pages import checked, text
from tests.web.table_helpers import FLAT as FLAT_FACTS
from tests.web.table_helpers import api_game, hidden

HX = {"HX-Request": "true"}
FLAT = sa_form([4, 3, 3, 3], "LORS")
SWEEP = sa_form([13, 0, 0, 0], "SLOR")


def undo_bar(html: str) -> str | None:
    found = re.search(r'<form class="undo-bar"[^>]*>(.*?)</form>', html, re.S)
    return text(found.group(1)) if found else None


def test_a_refusal_has_a_summary_linking_each_problem_and_marks_the_groups_invalid(client, new_game):
    path = new_game()
    data = {**sa_form([10, 10, 0, 0], "LLRS")}
    del data["agents_3"]
    html = client.post(f"{path}/deals", data=data, headers=HX).get_data(as_text=True)
    summary = re.search(r'<div class="error-summary" id="error-summary"(.*?)</div>', html, re.S).group(1)
    links = [
        (href, html_lib.unescape(t)) for href, t in re.findall(r'<a href="#([^"]+)">([^<]+)</a>', summary)
    ]
    assert links == [
        ("tricks-error", "The tricks add up to 20; a deal has 13."),
        ("agents_1-0", "Left is given to both Ann and Bob: each card is dealt once."),
        ("agents_3-0", "Choose Dee's assignment card."),
    ]
    # Each link lands on something: the group's message, or the seat's first chip.
    assert 'id="tricks-error"' in html and 'id="agents_1-0"' in html
    group = re.search(r'<div class="chips grid4" ([^>]*aria-labelledby="agents_1-who"[^>]*)>', html).group(1)
    assert 'aria-invalid="true"' in group and 'aria-describedby="agents_1-error"' in group
    # A screen reader hears the first problem, in the persistent region outside the swapped one.
    assert '<div id="announce" hx-swap-oob="innerHTML">The tricks add up to 20; a deal has 13.</div>' in html


def test_a_saved_deal_is_announced_with_the_leader(client, new_game):
    path = new_game()
    html = client.post(f"{path}/deals", data=SWEEP, headers=HX).get_data(as_text=True)
    assert '<div id="announce" hx-swap-oob="innerHTML">Deal 1 recorded. Ann leads with 169.</div>' in html
    page = client.get(path).get_data(as_text=True)
    assert page.count('id="announce"') == 1 and 'aria-live="polite"' in page


def test_undo_offers_only_what_can_be_undone_and_says_the_state_after_it(client, new_game):
    path = new_game()
    client.post(f"{path}/deals", data=FLAT)
    client.post(f"{path}/deals", data=FLAT)
    client.post(f"{path}/deals/1", data=SWEEP)
    page = client.get(path).get_data(as_text=True)
    assert undo_bar(page) == "Deal 2 was corrected. Undo"
    action = re.search(r'<form class="undo-bar" id="undo-bar" method="post" action="([^"]+)"', page).group(1)
    response = client.post(action, data={"base_version": hidden(page, "base_version")})
    assert response.status_code == 303
    after = client.get(path).get_data(as_text=True)
    assert "Undone: Deal 2 corrected." in text(after)
    # The correction is gone, and nothing offers to "undo" the undo as if it were a correction.
    assert undo_bar(after) is None
    assert undo_bar(client.get(path).get_data(as_text=True)) is None  # a reload: still true
    # Redo by undoing the undo (from the history): the correction is back, and so is its Undo.
    history = client.get(f"{path}/history").get_data(as_text=True)
    redo = re.findall(r'<form method="post" action="([^"]*/undo)">', history)[0]
    client.post(redo, data={"base_version": hidden(history, "base_version"), "back": "history"})
    again = client.get(path).get_data(as_text=True)
    assert undo_bar(again) == "Deal 2 was corrected. Undo"
    assert re.findall(r"<tfoot>.*?</tfoot>", again, re.S)[0].count("<td") == 4


def test_the_preview_scores_through_the_rules_and_saves_nothing(client, new_game):
    path = new_game()
    page = client.get(path).get_data(as_text=True)
    assert 'id="preview"' in page and f'hx-post="{path}/preview"' in page
    token = {"csrf_token": hidden(page, "csrf_token")} if 'name="csrf_token"' in page else {}
    shown = client.post(f"{path}/preview", data={**SWEEP, **token}, headers=HX).get_data(as_text=True)
    assert "If recorded:" in shown and "<html" not in shown
    assert [text(t) for t in re.findall(r'<td class="pv-total">(.*?)</td>', shown)] == [
        "169",
        "100",
        "130",
        "100",
    ]
    assert "13 x 13 (own agent, Self) = 169" in text(shown)
    broken = client.post(f"{path}/preview", data={**sa_form([10, 10, 0, 0], "LORS"), **token}, headers=HX)
    assert "The tricks add up to 20; a deal has 13." in text(broken.get_data(as_text=True))
    # Without JavaScript, "Check" answers the page with the entry as typed and the preview in it.
    full = client.post(f"{path}/preview", data={**SWEEP, **token}).get_data(as_text=True)
    assert "<html" in full and "If recorded:" in full and checked(full, "tricks_0", "13")
    assert client.get(f"/api/games/{path.rsplit('/', 1)[1]}").json["deals"] == []


def test_the_reply_to_a_deal_carries_only_what_changed_whatever_the_game_length(client):
    sizes = []
    for played in (3, 40):
        game_id, key = api_game(client, [FLAT_FACTS] * played)
        path = f"/g/{game_id}"
        client.get(f"{path}?key={key}")
        page = client.get(path).get_data(as_text=True)
        form = {
            **SWEEP,
            "base_version": hidden(page, "base_version"),
            "submit_token": hidden(page, "submit_token"),
        }
        response = client.post(f"{path}/deals", data=form, headers=HX)
        reply = response.get_data(as_text=True)
        assert response.status_code == 200 and response.headers["HX-Reswap"] == "none"
        assert reply.count("<tr") == 2  # the new row and the totals
        assert f"/deals/{played}" in reply and 'id="entry"' in reply and 'id="status"' in reply
        assert "<table" not in reply and "chart" not in reply.split("-->")[-1].replace("chart-stale", "")
        sizes.append(len(reply.encode()))
    assert abs(sizes[1] - sizes[0]) < 100, sizes


def test_secrets_preselects_a_policeman_who_may_stay(client):
    turn = {"orders": [[{"spy": "club", "target": 1, "secret": 1}], [], []], "guards": [2, 1, 3]}
    response = client.post(
        "/api/games",
        json={"game": "secrets", "players": ["Ann", "Bob", "Cid"], "options": {"spies_may_stay": True}},
    )
    assert response.status_code == 201, response.json
    path = f"/g/{response.json['id']}"
    added = client.post(
        f"/api/games/{response.json['id']}/deals", json=turn, headers=bearer(response.json["edit_key"])
    )
    assert added.status_code in (200, 201), added.json
    client.get(f"{path}?key={response.json['edit_key']}")
    page = client.get(path).get_data(as_text=True)
    assert "caught a spy: he may stay" in text(page)
    assert checked(page, "guards_1", "1")  # Bob caught Ann's spy at 1: he may stay, and is shown there
    assert not any(checked(page, "guards_2", str(s)) for s in range(1, 10) if s != 3)  # Cid must move


TIED = [  # after four deals Ann and Dee are tied on 217: deal 5 breaks the tie
    {"tricks": [0, 3, 10, 0], "agents": ["R", "L", "S", "O"]},
    {"tricks": [3, 0, 1, 9], "agents": ["O", "L", "R", "S"]},
    {"tricks": [0, 2, 11, 0], "agents": ["O", "S", "R", "L"]},
    {"tricks": [2, 3, 6, 2], "agents": ["R", "S", "L", "O"]},
    FLAT_FACTS,
]


def test_a_correction_that_ends_the_game_earlier_offers_to_delete_the_deals_after_it(client):
    game_id, key = api_game(client, TIED, options={"deals": 4})
    path = f"/g/{game_id}"
    client.get(f"{path}?key={key}")
    page = client.get(f"{path}/deals/1").get_data(as_text=True)
    form = {
        **FLAT,
        "base_version": hidden(page, "base_version"),
        "submit_token": hidden(page, "submit_token"),
    }
    refused = client.post(f"{path}/deals/1", data=form)
    html = refused.get_data(as_text=True)
    assert refused.status_code == 422
    assert "The game ended after deal 4: no deal can follow it." in text(html)
    assert "With this correction the game ends before deal 5." in text(html)
    assert '<button type="submit" form="entry" name="trim" value="4"' in html
    assert len(client.get(f"/api/games/{game_id}").json["deals"]) == 5  # nothing changed yet
    # One step: corrected, deal 5 deleted; the game is over; one change, undone as one.
    done = client.post(f"{path}/deals/1", data={**form, "trim": "4"})
    assert done.status_code == 303
    record = client.get(f"/api/games/{game_id}").json
    assert record["deals"][1] == FLAT_FACTS and len(record["deals"]) == 4
    after = client.get(path).get_data(as_text=True)
    assert "Deal 2 corrected; deal 5 deleted: the game ends before them." in text(after)
    assert undo_bar(after) == "Deal 2 was corrected and the deals after the end deleted. Undo"
    history = client.get(f"{path}/history").get_data(as_text=True)
    assert "Deal 2 corrected; later deals deleted: 1" in text(history)
    action = re.search(r'<form class="undo-bar" id="undo-bar" method="post" action="([^"]+)"', after).group(1)
    client.post(action, data={"base_version": hidden(after, "base_version")})
    assert client.get(f"/api/games/{game_id}").json["deals"] == TIED
    assert undo_bar(client.get(path).get_data(as_text=True)) is None
