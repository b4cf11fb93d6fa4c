"""Spades' pages: set-up, the deal entered in two steps (bids, then tricks), the board, the end.

Seats: Ann 0, Bob 1, Cid 2, Dee 3, Eve 4; Ann deals first, so Bob bids first. In the
partnership game the pairs are Ann & Cid (seats 0+2) and Bob & Dee (seats 1+3): the rules
file's "pair = seats 1 and 3" is Bob & Dee here. Every expected number was worked out by
hand from shared/rules/spades.md (the arithmetic is in the comments):

    cutthroat made: 10 x bid + 1 per overtrick (bag); set: 0, or -10 x bid with the option
    pair made: 10 x contract + bags; set: -10 x contract; nil +/-100, blind nil +/-200
    bags (pairs always, cutthroat with sandbags): each time they reach 10, -100 and 10 off
"""

import re

import pytest
from sqlalchemy import func, select

from scorekeeper.db import db
from scorekeeper.games.spades.rules import tricks_for
from scorekeeper.models import Deal, Game
from tests.web.pages import checked, errors_in, status, text

ANN, BOB, CID, DEE, EVE = range(5)
PLAYERS = ["Ann", "Bob", "Cid", "Dee", "Eve"]
HTMX = {"HX-Request": "true"}


# -- helpers --------------------------------------------------------------------------


def setup_data(
    n=4,
    pairs=False,
    jokers=True,
    target=500,
    sandbags=False,
    set_penalty=False,
    blind_nil=True,
    lose_at=None,
    first_dealer=0,
):
    """The set-up form as a browser posts it (an unticked checkbox is not sent at all)."""
    data = {f"players_{s}": name for s, name in enumerate(PLAYERS[:n])}
    data.update(
        first_dealer=str(first_dealer),
        opt_mode="partnership" if pairs else "cutthroat",
        opt_target=str(target),
        opt_lose_at="" if lose_at is None else str(lose_at),
    )
    for key, on in (
        ("jokers", jokers),
        ("sandbags", sandbags),
        ("set_penalty", set_penalty),
        ("blind_nil", blind_nil),
    ):
        if on:
            data[f"opt_{key}"] = "y"
    return data


def start(client, **options):
    """Set up a Spades game through the set-up page; returns the game page's path."""
    response = client.post("/new/spades", data=setup_data(**options))
    assert response.status_code == 303, errors_in(response.get_data(as_text=True))
    return response.headers["Location"]


def bids_form(bids):
    """Step 1 as posted: a chip per player ("blind" is the blind nil chip)."""
    return {f"bids_{s}": str(b) for s, b in enumerate(bids)}


def tricks_form(tricks):
    return {f"tricks_{s}": str(t) for s, t in enumerate(tricks)}


def bid(client, path, bids, headers=None):
    response = client.post(f"{path}/draft", data=bids_form(bids), headers=headers or {})
    assert response.status_code == (200 if headers else 303), errors_in(response.get_data(as_text=True))
    return response


def won(client, path, tricks, headers=None):
    response = client.post(f"{path}/deals", data=tricks_form(tricks), headers=headers or {})
    assert response.status_code == (200 if headers else 303), errors_in(response.get_data(as_text=True))
    return response


def play(client, path, *deals):
    """Each deal as the table plays it: the bids, then the tricks won."""
    for bids, tricks in deals:
        bid(client, path, bids)
        won(client, path, tricks)
    return client.get(path).get_data(as_text=True)


def heads(markup: str) -> list[str]:
    head = re.search(r"<thead>(.*?)</thead>", markup, re.S).group(1)
    return [text(h) for h in re.findall(r"<th[^>]*>(.*?)</th>", head, re.S)]


def rows(markup: str) -> list[list[str]]:
    """The board's deal rows: per column, the cell as shown (mark, points, bid, tricks, total)."""
    body = re.search(r"<tbody>(.*?)</tbody>", markup, re.S).group(1)
    found = []
    for row in re.findall(r'<tr id="deal-\d+" class="[^"]*">(.*?)</tr>', body, re.S):
        cells = [text(s) for s in re.findall(r"<summary>(.*?)</summary>", row, re.S)]
        # A pair's bids are one superscript ("4+nil") made of a span per player.
        found.append([re.sub(r" \+ ", "+", c) for c in cells])
    return found


def pending(markup: str) -> list[str] | None:
    """The pending row (the bids of the deal being played), or None."""
    row = re.search(r'<tr id="sp-pending" class="sp-pending">(.*?)</tr>', markup, re.S)
    return [text(c) for c in re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)] if row else None


def totals(markup: str) -> list[str]:
    foot = re.search(r"<tfoot>\s*<tr>(.*?)</tr>", markup, re.S).group(1)
    return [text(t) for t in re.findall(r"<td[^>]*>(.*?)</td>", foot, re.S)]


def bags(markup: str) -> list[str] | None:
    row = re.search(r'<tr class="sp-bags">(.*?)</tr>', markup, re.S)
    return [text(t) for t in re.findall(r"<td[^>]*>(.*?)</td>", row.group(1), re.S)] if row else None


def penalty_cells(markup: str) -> list[tuple[int, int]]:
    """(deal row, column) of every cell marked with a bag penalty."""
    body = re.search(r"<tbody>(.*?)</tbody>", markup, re.S).group(1)
    marked = []
    for r, row in enumerate(re.findall(r'<tr id="deal-\d+" class="[^"]*">(.*?)</tr>', body, re.S)):
        for c, cell in enumerate(re.findall(r'<td class="([^"]*)"', row)):
            if "sp-penalty" in cell:
                marked.append((r, c))
    return marked


def explanations(markup: str) -> list[str]:
    return [text(w) for w in re.findall(r'<div class="why">(.*?)</div>', markup, re.S)]


def step(markup: str) -> str | None:
    found = re.search(r'<form id="entry" class="[^"]*sp-step-(\w+)', markup)
    return found.group(1) if found else None


def deal_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Deal))


def draft_of(app, path):
    with app.app_context():
        return db.session.get(Game, path.split("/")[-1]).draft


def api(client, path):
    return client.get("/api/games/" + path.split("/")[-1]).json


# -- set-up -----------------------------------------------------------------------------


def test_set_up_page_says_who_plays_and_the_tricks_per_deal(client):
    page = client.get("/new/spades").get_data(as_text=True)
    words = text(page)
    assert "On their own: 2 to 5 players; leave the last names blank for fewer." in words
    assert "In pairs: 4 players, partners opposite (players 1 and 3 against 2 and 4)." in words
    hint = re.search(r"Tricks per deal: ([^.]*)\.", words).group(1)
    assert hint == "26 with 2 players, 18 with 3 (17 without the jokers), 13 with 4, 10 with 5"
    # The hint says what the rules compute.
    assert [tricks_for(n) for n in (2, 3, 4, 5)] == [26, 18, 13, 10]
    assert [tricks_for(n, jokers=False) for n in (2, 3, 4, 5)] == [26, 17, 13, 10]
    # Five name fields, the options of spades.md with their defaults.
    assert 'name="players_4"' in page and 'name="players_5"' not in page
    # Seating is asked, not preset (issue 41): untapped, 4 names play in pairs.
    assert not checked(page, "opt_mode", "cutthroat") and not checked(page, "opt_mode", "partnership")
    assert "Seating left untapped: 4 players play in pairs, any other number on their own." in words
    assert re.search(r'<input checked id="opt_jokers"', page) and re.search(
        r'<input checked id="opt_blind_nil"', page
    )
    assert re.search(r'<input id="opt_sandbags"', page) and re.search(r'<input id="opt_set_penalty"', page)
    picks = re.search(r'<datalist id="opt_target-picks">(.*?)</datalist>', page, re.S).group(1)
    assert re.findall(r'value="(\d+)"', picks) == ["500", "200"]
    # No floor unless asked; -200 is the quick pick.
    assert re.search(r'<input id="opt_lose_at"[^>]*placeholder="none" type="number" value="">', page)
    assert re.search(r'<datalist id="opt_lose_at-picks"><option value="-200"></datalist>', page)
    assert "Tricks per deal" not in client.get("/new/secret_agent").get_data(as_text=True)


def test_set_up_records_the_options(client):
    path = start(client, n=3, jokers=False, target=200, sandbags=True, set_penalty=True, lose_at=-300)
    record = api(client, path)
    assert record["players"] == ["Ann", "Bob", "Cid"]
    assert record["options"] == {
        "mode": "cutthroat",
        "jokers": False,
        "target": 200,
        "sandbags": True,
        "set_penalty": True,
        "blind_nil": True,
        "lose_at": -300,
        "hands": None,
        "hands_tiebreak": False,
    }
    assert "17 tricks per deal · game to 200 · lose at -300" in status(
        client.get(path).get_data(as_text=True)
    )


def test_set_up_refuses_pairs_of_other_than_four_and_keeps_the_names(client, app):
    response = client.post("/new/spades", data=setup_data(n=5, pairs=True))
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "This game needs 4 players." in errors_in(page)
    assert 'value="Eve"' in page and checked(page, "opt_mode", "partnership")
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 0


@pytest.mark.parametrize(
    "n, jokers, tricks",
    [
        (2, True, 26),
        (3, True, 18),
        (4, True, 13),
        (5, True, 10),
        (2, False, 26),
        (3, False, 17),
        (5, False, 10),
    ],
)
def test_the_game_page_says_the_tricks_per_deal_and_offers_the_bids(client, n, jokers, tricks):
    path = start(client, n=n, jokers=jokers)
    page = client.get(path).get_data(as_text=True)
    assert f"{tricks} tricks per deal · game to 500" in status(page)
    assert step(page) == "bids"
    # Cutthroat: bids from 1 to the tricks per deal, no nil.
    values = re.findall(r'name="bids_0" type="radio" value="([^"]+)"', page)
    assert values == [str(b) for b in range(1, tricks + 1)]
    assert f"From 1 to {tricks} each." in text(page)


def test_new_game_page_shows_dealer_first_bidder_and_an_empty_board(client):
    path = start(client, n=5, first_dealer=DEE)
    page = client.get(path).get_data(as_text=True)
    assert status(page) == "Deal 1. Dee deals. Eve bids first. 10 tricks per deal · game to 500"
    assert heads(page) == ["#", "Ann", "Bob", "Cid", "Dee", "Eve"]
    assert "No deal yet." in text(page) and totals(page) == ["0"] * 5
    assert bags(page) is None and pending(page) is None
    assert "Eve bids first." in text(re.search(r'<form id="entry".*?</form>', page, re.S).group(0))


# -- the two steps ---------------------------------------------------------------------


def test_bids_then_tricks_record_one_deal(client, app):
    path = start(client)
    response = bid(client, path, [5, 1, 1, 1])
    assert response.headers["Location"].endswith("#entry")
    assert deal_count(app) == 0 and draft_of(app, path) == {"bids": [5, 1, 1, 1]}
    page = client.get(path).get_data(as_text=True)
    # While the hand is played: the bids on the board (a pending row), the tricks form below.
    assert pending(page) == ["5 bid", "1 bid", "1 bid", "1 bid"]
    assert "Bids are in: play the hand, then enter the tricks won." in text(page)
    assert step(page) == "tricks"
    form = re.search(r'<form id="entry".*?</form>', page, re.S).group(0)
    assert 'action="/g/' in form and "/deals" in form and 'data-sum="13"' in form
    assert "Tricks won, deal 1 (they add up to 13)" in text(form)
    assert [text(t) for t in re.findall(r'<small class="sp-tag sp-tag-bid">(.*?)</small>', form)] == [
        "bid 5",
        "bid 1",
        "bid 1",
        "bid 1",
    ]
    # Worked example "bid 5, won 8 -> 53": 50 + 3 bags = 53; 10 + 1 = 11; 10 + 1 = 11; 10.
    won(client, path, [8, 2, 2, 1])
    page = client.get(path).get_data(as_text=True)
    assert "Deal 1 recorded." in page
    assert rows(page) == [["53 5 won 8 53 D", "11 1 won 2 11", "11 1 won 2 11", "10 1 won 1 10"]]
    assert totals(page) == ["53", "11", "11", "10"]
    assert "Ann: bid 5, won 8: 50 + 3 bags = 53" in explanations(page)
    assert pending(page) is None and draft_of(app, path) is None
    assert step(page) == "bids" and status(page).startswith("Deal 2. Bob deals. Cid bids first.")
    assert api(client, path)["deals"] == [{"bids": [5, 1, 1, 1], "tricks": [8, 2, 2, 1]}]


def test_the_half_entered_deal_survives_a_reload_and_another_device(app, client):
    created = client.post(
        "/api/games", json={"game": "spades", "players": PLAYERS[:4], "options": {"mode": "partnership"}}
    ).json
    path = f"/g/{created['id']}"
    scorer = app.test_client()
    assert scorer.get(f"{path}?key={created['edit_key']}").status_code == 303
    bid(scorer, path, [2, 4, "blind", 5])
    # A reload on the same phone: still the tricks step, with the bids.
    page = scorer.get(path).get_data(as_text=True)
    assert step(page) == "tricks" and pending(page) == ["2+blind nil bid", "4+5 bid"]
    # Another phone with the scoring link takes over and records the deal.
    other = app.test_client()
    assert other.get(f"{path}?key={created['edit_key']}").status_code == 303
    page = other.get(path).get_data(as_text=True)
    assert step(page) == "tricks"
    assert "bid blind nil" in text(page) and "Change the bids" in text(page)
    # A follower without the key sees the bids but no form.
    viewer = app.test_client()
    page = viewer.get(path).get_data(as_text=True)
    assert pending(page) == ["2+blind nil bid", "4+5 bid"] and step(page) is None
    assert viewer.post(f"{path}/draft", data=bids_form([1, 1, 1, 1])).status_code == 403
    # Ann & Cid: contract 2, 2 tricks: 20 + 200 (Cid's blind nil) = 220.
    # Bob & Dee: contract 9, 5 + 6 = 11 tricks: 90 + 2 bags = 92.
    won(other, path, [2, 5, 0, 6])
    page = scorer.get(path).get_data(as_text=True)
    assert totals(page) == ["220", "92"] and bags(page) == ["0", "2"]
    assert rows(page) == [["220 2+blind nil won 2+0 220 D", "92 4+5 won 5+6 92"]]
    assert "Ann & Cid: bid 2 + blind nil, won 2 + 0 = 2: 20 + 200 (Cid's blind nil) = 220 Bags held: 0." in (
        explanations(page)
    )
    assert api(scorer, path)["deals"] == [
        {"bids": [2, 4, 0, 5], "tricks": [2, 5, 0, 6], "blind": [False, False, True, False]}
    ]


def test_the_bids_can_be_changed_before_the_tricks(app, client):
    path = start(client)
    bid(client, path, [5, 3, 2, 2])
    page = client.get(f"{path}?step=bids").get_data(as_text=True)
    assert step(page) == "bids" and checked(page, "bids_0", "5") and checked(page, "bids_3", "2")
    assert "Keep the bids as they were" in text(page)
    # The htmx link asks for the live region only.
    partial = client.get(f"{path}?step=bids", headers=HTMX).get_data(as_text=True)
    assert partial.lstrip().startswith('<section id="live"') and step(partial) == "bids"
    bid(client, path, [4, 3, 2, 2])
    assert draft_of(app, path) == {"bids": [4, 3, 2, 2]}
    page = client.get(path).get_data(as_text=True)
    assert step(page) == "tricks" and pending(page)[0] == "4 bid"


def test_htmx_steps_answer_only_the_live_region(client):
    path = start(client, n=5)
    response = bid(client, path, [3, 2, 2, 1, 1], headers=HTMX)
    markup = response.get_data(as_text=True)
    assert markup.lstrip().startswith('<section id="live"') and "<html" not in markup
    assert "HX-Request" in response.headers["Vary"]
    assert step(markup) == "tricks" and pending(markup) == ["3 bid", "2 bid", "2 bid", "1 bid", "1 bid"]
    assert 'hx-post="/g/' in markup
    # Ann 3 of 3 -> 30; Bob 2 of 2 -> 20; Cid 2 of 3 -> 21; Dee 1 of 1 -> 10; Eve 1 of 1 -> 10 (10 tricks).
    markup = won(client, path, [3, 2, 3, 1, 1], headers=HTMX).get_data(as_text=True)
    assert markup.lstrip().startswith('<section id="live"')
    assert totals(markup) == ["30", "20", "21", "10", "10"] and pending(markup) is None
    assert step(markup) == "bids"
    # The next deal's bids start blank.
    assert not any(checked(markup, f"bids_{s}", str(v)) for s in range(5) for v in range(1, 11))
    # The whole page, for a browser without JavaScript.
    assert "<html" in client.get(path).get_data(as_text=True)


def stamp_of(markup: str) -> dict[str, str]:
    """The hidden inputs a write carries (CSRF token, version, submission token)."""
    return {
        name: re.search(rf'name="{name}"[^>]*value="([^"]*)"', markup).group(1)
        for name in ("csrf_token", "base_version", "submit_token")
        if f'name="{name}"' in markup
    }


def test_with_javascript_the_tricks_wait_beneath_the_bids(client):
    """The bids step holds the tricks (hidden until app.js sees every bid), the background save
    of the bids, and a Record that posts both to the deals; "Bids done" stays for no script."""
    page = client.get(start(client, n=3)).get_data(as_text=True)
    form = re.search(r'<form id="entry".*?</form>', page, re.S).group(0)
    assert step(form) == "bids" and "data-sp-bids" in form and 'hx-sync="this:queue all"' in form
    assert re.search(r'<div hidden data-sp-save data-background="save" hx-post="/g/[^"]+/draft"', form)
    assert re.search(
        r'<div class="sp-tricks-step" data-sp-later hidden>\s*<fieldset class="tricks" data-sum="18">', form
    )
    assert re.search(r'formaction="/g/[^"]+/deals" hx-post="/g/[^"]+/deals">Record deal</button>', form)
    assert re.search(r'<button type="submit" class="primary big block" data-sp-before>Bids done', form)
    assert '<span id="entry-stamp"><input type="hidden" name="base_version"' in form
    # The tricks step (bids kept) and the correction page have nothing hidden and nothing to save.
    path = start(client)
    bid(client, path, [4, 3, 3, 3])
    page = client.get(path).get_data(as_text=True)
    assert step(page) == "tricks" and "data-sp-later" not in page and "data-sp-save" not in page


def test_bids_kept_in_the_background_answer_only_the_form_stamp(app, client):
    path = start(client, n=3)
    page = client.get(path).get_data(as_text=True)
    before = stamp_of(page)
    response = client.post(
        f"{path}/draft", data={**bids_form([5, 6, 4]), **before, "autosave": "1"}, headers=HTMX
    )
    assert response.status_code == 200 and draft_of(app, path) == {"bids": [5, 6, 4]}
    answer = response.get_data(as_text=True)
    assert answer.lstrip().startswith('<span id="entry-stamp" hx-swap-oob="true">')
    assert 'id="live"' not in answer and "<form" not in answer
    after = stamp_of(answer)
    assert int(after["base_version"]) == int(before["base_version"]) + 1
    assert after["submit_token"] != before["submit_token"]
    # The board above the form is told to look again now: the bids show there.
    assert response.headers["HX-Trigger"] == "board-stale"
    assert "board-stale from:body" in page
    # A bid changed after: kept again, on the new stamp.
    again = client.post(
        f"{path}/draft", data={**bids_form([5, 6, 3]), **before, **after, "autosave": "1"}, headers=HTMX
    )
    assert again.status_code == 200 and draft_of(app, path) == {"bids": [5, 6, 3]}
    # Record sends the bids with the tricks, on the stamp the last save answered: no conflict.
    record = {**bids_form([5, 6, 3]), **tricks_form([5, 6, 7]), **stamp_of(again.get_data(as_text=True))}
    recorded = client.post(f"{path}/deals", data=record, headers=HTMX)
    assert recorded.status_code == 200, errors_in(recorded.get_data(as_text=True))
    # Ann 5 of 5: 50; Bob 6 of 6: 60; Cid 3 of 7: 30 + 4 bags = 34.
    assert totals(recorded.get_data(as_text=True)) == ["50", "60", "34"]
    assert api(client, path)["deals"] == [{"bids": [5, 6, 3], "tricks": [5, 6, 7]}]
    assert draft_of(app, path) is None


def test_a_background_save_that_fails_shows_why_in_place_of_the_page(app, client):
    path = start(client, n=3)
    page = client.get(path).get_data(as_text=True)
    stamp = stamp_of(page)
    # Refused (a bid out of range): the form as entered replaces the page's (the board stays).
    refused = client.post(
        f"{path}/draft", data={**bids_form([19, 6, 4]), **stamp, "autosave": "1"}, headers=HTMX
    )
    assert refused.status_code == 422 and refused.headers["HX-Reswap"] == "innerHTML show:#entry:top"
    assert refused.headers["HX-Retarget"] == "#entry-slot"
    markup = refused.get_data(as_text=True)
    assert markup.lstrip().startswith('<form id="entry"') and step(markup) == "bids"
    assert errors_in(markup) == ["Ann: a bid is a whole number from 1 to 18."]
    assert checked(markup, "bids_1", "6") and draft_of(app, path) is None
    # Changed on another phone meanwhile: the conflict is shown, not swallowed.
    bid(client, path, [1, 1, 1])
    stale = client.post(
        f"{path}/draft", data={**bids_form([5, 6, 4]), **stamp, "autosave": "1"}, headers=HTMX
    )
    assert stale.status_code == 409 and stale.headers["HX-Reswap"] == "outerHTML show:#entry:top"
    assert "Not saved: this game was changed on another device meanwhile." in text(
        stale.get_data(as_text=True)
    )
    assert draft_of(app, path) == {"bids": [1, 1, 1]}
    # Without htmx the word is ignored: the bids step as always (kept, then the page again).
    plain = client.post(f"{path}/draft", data={**bids_form([2, 2, 2]), "autosave": "1"})
    assert plain.status_code == 303 and draft_of(app, path) == {"bids": [2, 2, 2]}


def test_the_preview_of_the_tricks_step_equals_what_is_then_recorded(app, client):
    path = start(client, pairs=True)
    bid(client, path, [2, 4, "blind", 5])
    page = client.get(path).get_data(as_text=True)
    assert 'id="preview"' in page and f'hx-post="{path}/preview"' in page and ">Check</button>" in page
    shown = client.post(f"{path}/preview", data=tricks_form([2, 5, 0, 6]), headers=HTMX)
    markup = shown.get_data(as_text=True)
    assert "If recorded:" in markup and "<html" not in markup
    # One row per pair, the bids from the draft: 20 + 200 (Cid's blind nil) = 220; 90 + 2 bags = 92.
    assert [text(t) for t in re.findall(r'<th scope="row">(.*?)</th>', markup)] == ["Ann & Cid", "Bob & Dee"]
    previewed = [text(t) for t in re.findall(r'<td class="pv-total">(.*?)</td>', markup)]
    assert previewed == ["220", "92"]
    assert "bid 2 + blind nil, won 2 + 0 = 2: 20 + 200 (Cid's blind nil) = 220" in text(markup)
    assert deal_count(app) == 0 and draft_of(app, path) is not None
    broken = client.post(f"{path}/preview", data=tricks_form([2, 5, 0, 7]), headers=HTMX)
    assert "The tricks add up to 14; a deal has 13." in text(broken.get_data(as_text=True))
    # Without JavaScript, "Check": the tricks step again, the tricks as tapped, the preview in it.
    full = client.post(f"{path}/preview", data=tricks_form([2, 5, 0, 6])).get_data(as_text=True)
    assert "<html" in full and "If recorded:" in full and step(full) == "tricks"
    assert checked(full, "tricks_3", "6")
    won(client, path, [2, 5, 0, 6])
    page = client.get(path).get_data(as_text=True)
    assert totals(page) == previewed


# -- refusals ---------------------------------------------------------------------------


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_tricks_not_adding_up_are_refused_next_to_the_field_and_kept(app, client, headers):
    path = start(client)
    bid(client, path, [4, 3, 3, 3])
    response = client.post(f"{path}/deals", data=tricks_form([4, 3, 3, 4]), headers=headers)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "The tricks add up to 14; a deal has 13." in errors_in(page)
    assert checked(page, "tricks_3", "4") and checked(page, "tricks_0", "4")
    assert step(page) == "tricks"
    if headers:
        assert response.headers["HX-Reswap"] == "innerHTML show:#entry:top"
        assert response.headers["HX-Retarget"] == "#entry-slot"
    assert deal_count(app) == 0 and draft_of(app, path) == {"bids": [4, 3, 3, 3]}


@pytest.mark.parametrize("headers", [{}, HTMX])
def test_a_bid_out_of_range_is_refused_next_to_it_and_nothing_is_kept(app, client, headers):
    path = start(client, n=5)  # 10 tricks: bids 1 to 10
    response = client.post(f"{path}/draft", data=bids_form([11, 3, 2, 1, 1]), headers=headers)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert errors_in(page) == ["Ann: a bid is a whole number from 1 to 10."]
    assert 'id="bids_0-error"' in page
    assert checked(page, "bids_1", "3") and checked(page, "bids_4", "1")
    assert step(page) == "bids"
    assert draft_of(app, path) is None and deal_count(app) == 0


def test_nil_in_cutthroat_is_refused(app, client):
    path = start(client)
    response = client.post(f"{path}/draft", data=bids_form([0, 3, "blind", 5]))
    assert response.status_code == 422
    errors = errors_in(response.get_data(as_text=True))
    assert "Ann: nil (0) is only bid in the partnership game; bid from 1 to 13." in errors
    assert "Cid: nil (0) is only bid in the partnership game; bid from 1 to 13." in errors
    assert "Blind nil is only bid in the partnership game." in errors
    assert draft_of(app, path) is None
    # No nil chip is offered in cutthroat.
    page = client.get(path).get_data(as_text=True)
    assert 'name="bids_0" type="radio" value="0"' not in page and ">nil<" not in page


def test_pairs_offer_nil_and_blind_nil_and_refuse_a_blind_bid_when_the_option_is_off(app, client):
    path = start(client, pairs=True)
    page = client.get(path).get_data(as_text=True)
    values = re.findall(r'name="bids_0" type="radio" value="([^"]+)"', page)
    assert values == ["0", "blind"] + [str(b) for b in range(1, 14)]
    assert "Nil or 1 to 13 each; a pair's contract is the sum of its bids." in text(page)
    path = start(client, pairs=True, blind_nil=False)
    page = client.get(path).get_data(as_text=True)
    assert re.findall(r'name="bids_0" type="radio" value="([^"]+)"', page)[:2] == ["0", "1"]
    response = client.post(f"{path}/draft", data=bids_form(["blind", 3, 14, 5]))
    assert response.status_code == 422
    errors = errors_in(response.get_data(as_text=True))
    assert errors == [
        "Ann: blind nil is not played in this game (the option is off).",
        "Cid: a bid is a whole number from 0 to 13.",
    ]
    assert 'id="bids_0-error"' in response.get_data(as_text=True)
    assert draft_of(app, path) is None


def test_a_missing_bid_is_named(app, client):
    path = start(client)
    response = client.post(f"{path}/draft", data={"bids_0": "4", "bids_2": "x", "bids_3": "3"})
    assert response.status_code == 422
    # A bid not chosen is a choice to make; one that is no number is out of the rules' range.
    assert errors_in(response.get_data(as_text=True)) == [
        "Choose Bob's bid.",
        "Cid: a bid is a whole number from 1 to 13.",
    ]
    assert draft_of(app, path) is None


def test_tricks_without_bids_are_refused(app, client):
    path = start(client)
    response = client.post(f"{path}/deals", data=tricks_form([4, 3, 3, 3]))
    assert response.status_code == 422
    assert "Choose Ann's bid." in errors_in(response.get_data(as_text=True))
    assert deal_count(app) == 0


# -- worked examples of spades.md, entered through the pages -----------------------------------


@pytest.mark.parametrize(
    "options, bids, tricks, scores, why",
    [
        # bid 7, won 7 -> 70 (the others 2 of 2: 20 each).
        ({}, [7, 2, 2, 2], [7, 2, 2, 2], ["70", "20", "20", "20"], "Ann: bid 7, won 7: 70"),
        # bid 5, won 8 -> 50 + 3 bags = 53.
        ({}, [5, 1, 1, 1], [8, 2, 2, 1], ["53", "11", "11", "10"], "Ann: bid 5, won 8: 50 + 3 bags = 53"),
        # bid 4, won 3 -> set 0; Bob 40; Cid 4 of 5 -> 41; Dee 10.
        ({}, [4, 4, 4, 1], [3, 4, 5, 1], ["0", "40", "41", "10"], "Ann: bid 4, won 3: set 0"),
        # The same with "set costs the bid": -10 x 4 = -40.
        (
            {"set_penalty": True},
            [4, 4, 4, 1],
            [3, 4, 5, 1],
            ["-40", "40", "41", "10"],
            "Ann: bid 4, won 3: set -40",
        ),
        # Pairs, "bids 4 and 5, tricks 5 and 5 -> +91, 1 bag"; Ann & Cid 1 + 2 of 1 + 2 -> 30.
        (
            {"pairs": True},
            [2, 4, 1, 5],
            [2, 5, 1, 5],
            ["30", "91"],
            "Bob & Dee: bid 4 + 5 = 9, won 5 + 5 = 10: 90 + 1 bag = 91",
        ),
        # Pairs, "bids 13 and nil, tricks 4 and 1 -> set -130, failed nil -100: -230";
        # Ann & Cid: contract 2, 1 + 7 = 8 tricks: 20 + 6 bags = 26.
        (
            {"pairs": True},
            [1, 13, 1, 0],
            [1, 4, 7, 1],
            ["26", "-230"],
            "Bob & Dee: bid 13 + nil, won 4 + 1 = 5: set -130 - 100 (Dee's nil failed) = -230",
        ),
    ],
)
def test_worked_examples_one_deal(client, options, bids, tricks, scores, why):
    path = start(client, **options)
    page = play(client, path, (bids, tricks))
    assert totals(page) == scores
    assert any(line.startswith(why) for line in explanations(page)), explanations(page)


def test_worked_example_sandbags_8_held_bid_8_won_10(client):
    path = start(client, sandbags=True)
    # Deal 1: Ann bids 1, wins 9: 10 + 8 bags = 18, 8 bags held; Bob 1 of 2: 11, 1 bag; Cid, Dee 10.
    page = play(client, path, ([1, 1, 1, 1], [9, 2, 1, 1]))
    assert totals(page) == ["18", "11", "10", "10"] and bags(page) == ["8", "1", "0", "0"]
    # Deal 2: Ann bids 8, wins 10: 80 + 2 bags = 82, bags 10 -> -100: -18, bags 0. The rest 10 each.
    page = play(client, path, ([8, 1, 1, 1], [10, 1, 1, 1]))
    assert rows(page)[1][0] == "10 bags -18 8 won 10 0"
    assert totals(page) == ["0", "21", "20", "20"] and bags(page) == ["0", "1", "0", "0"]
    assert penalty_cells(page) == [(1, 0)]
    assert "Ann: bid 8, won 10: 80 + 2 bags - 100 (10 bags) = -18 Bags held: 0." in explanations(page)


def test_worked_example_pair_with_9_bags_takes_3_more(client):
    path = start(client, pairs=True)
    # Deal 1: Bob & Dee bid 1 + 1, win 5 + 6 = 11: 20 + 9 bags = 29, 9 bags. Ann & Cid 1 + 1 of 1 + 1: 20.
    page = play(client, path, ([1, 1, 1, 1], [1, 5, 1, 6]))
    assert totals(page) == ["20", "29"] and bags(page) == ["0", "9"]
    # Deal 2: "bids 3 and 3, tricks 4 and 5 with 9 bags held -> 60 + 3 bags - 100 = -37, bags now 2".
    # Ann & Cid 2 + 2 of 2 + 2: 40. Totals 60 and -8: below zero, with 2 bags held.
    page = play(client, path, ([2, 3, 2, 3], [2, 4, 2, 5]))
    assert rows(page)[1] == ["40 2+2 won 2+2 60", "10 bags -37 3+3 won 4+5 -8 D"]
    assert totals(page) == ["60", "-8"] and bags(page) == ["0", "2"]
    assert penalty_cells(page) == [(1, 1)]
    assert "Bob & Dee: bid 3 + 3 = 6, won 4 + 5 = 9: 60 + 3 bags - 100 (10 bags) = -37 Bags held: 2." in (
        explanations(page)
    )


# -- the cases -------------------------------------------------------------------


def test_bags_roll_over_exactly_at_10(client):
    path = start(client, sandbags=True)
    # Deal 1: Ann 1 of 8: 17, 7 bags; Bob 1 of 3: 12, 2 bags; Cid, Dee 1 of 1: 10.
    # Deal 2: Ann 2 of 5: 23, bags 7 + 3 = 10 exactly: -100 -> -77, bags 0 (total -60).
    #         Bob 1 of 8: 17, bags 2 + 7 = 9: no penalty (total 29). Cid, Dee 1 of 0: set 0.
    page = play(client, path, ([1, 1, 1, 1], [8, 3, 1, 1]), ([2, 1, 1, 1], [5, 8, 0, 0]))
    assert rows(page) == [
        ["17 1 won 8 17 D", "12 1 won 3 12", "10 1 won 1 10", "10 1 won 1 10"],
        ["10 bags -77 2 won 5 -60", "17 1 won 8 29 D", "0 1 won 0 10", "0 1 won 0 10"],
    ]
    assert bags(page) == ["0", "9", "0", "0"] and penalty_cells(page) == [(1, 0)]
    assert totals(page) == ["-60", "29", "10", "10"]
    assert 'class="sp-set"' in page  # the sets are marked


def test_a_running_score_below_zero_keeps_its_bags(client):
    path = start(client, pairs=True)
    page = play(
        client,
        path,
        # Bob & Dee bid 7 + 6 = 13, win 3 + 3: set -130. Ann & Cid 1 + 1 of 4 + 3 = 7: 25, bags 5.
        ([1, 7, 1, 6], [4, 3, 3, 3]),
        # Bob & Dee 1 + 1 of 5 + 6 = 11: 29 (total -101), bags 9. Ann & Cid 2 of 2: 20 (total 45).
        ([1, 1, 1, 1], [1, 5, 1, 6]),
        # Bob & Dee 2 + 2 of 3 + 4 = 7: 43, bags 12: -100 -> -57 (total -158), bags 2.
        # Ann & Cid 2 + 2 of 3 + 3 = 6: 42 (total 87), bags 7.
        ([2, 2, 2, 2], [3, 3, 3, 4]),
    )
    assert [row[1] for row in rows(page)] == [
        "-130 7+6 won 3+3 -130",
        "29 1+1 won 5+6 -101 D",
        "10 bags -57 2+2 won 3+4 -158",
    ]
    assert totals(page) == ["87", "-158"] and bags(page) == ["7", "2"]
    assert status(page).startswith("Deal 4.")


def test_two_nils_in_one_pair(client):
    path = start(client, pairs=True)
    # Ann & Cid both nil, no trick: 0 + 100 + 100 = 200. Bob & Dee 3 + 4 = 7 of 13: 70 + 6 bags = 76.
    page = play(client, path, ([0, 3, 0, 4], [0, 5, 0, 8]))
    assert rows(page) == [["200 nil+nil won 0+0 200 D", "76 3+4 won 5+8 76"]]
    assert (
        "Ann & Cid: bid nil + nil, won 0 + 0 = 0: 0 + 100 (Ann's nil) + 100 (Cid's nil) = 200 Bags held: 0."
        in (explanations(page))
    )
    path = start(client, pairs=True)
    # Cid's nil takes 2 tricks: contract 0, so 2 bags: 0 + 2 + 100 - 100 = 2. Bob & Dee 7 of 11: 74.
    page = play(client, path, ([0, 3, 0, 4], [0, 5, 2, 6]))
    assert totals(page) == ["2", "74"] and bags(page) == ["2", "4"]
    assert re.search(r'<span class="sp-nil-failed">nil</span>', page)
    assert (
        "Ann & Cid: bid nil + nil, won 0 + 2 = 2: 0 + 2 bags + 100 (Ann's nil) - 100 (Cid's nil failed) = 2"
        " Bags held: 2." in explanations(page)
    )


def test_a_failed_nil_while_the_partner_makes_the_contract(client):
    path = start(client, pairs=True)
    # Ann bids 4 and wins 4; Cid's nil wins 2: contract 4 of 6 tricks: 40 + 2 bags - 100 = -58.
    # Bob & Dee 3 + 4 = 7 of 7: 70.
    page = play(client, path, ([4, 3, 0, 4], [4, 3, 2, 4]))
    assert rows(page) == [["-58 4+nil won 4+2 -58 D", "70 3+4 won 3+4 70"]]
    assert re.search(r'<span class="">4</span>\+<span class="sp-nil-failed">nil</span>', page)
    assert (
        "Ann & Cid: bid 4 + nil, won 4 + 2 = 6: 40 + 2 bags - 100 (Cid's nil failed) = -58 Bags held: 2."
        in explanations(page)
    )
    assert 'class="sp-set"' not in page  # the contract was made


# -- the end of the game -----------------------------------------------------------------------


def test_the_game_ends_after_the_deal_reaching_the_target(app, client):
    path = start(client, n=3, target=200)  # 18 tricks
    # Deal 1: Ann 10 of 12: 102; Bob 5 of 5: 50; Cid 1 of 1: 10.
    # Deal 2: Ann 10 of 10: 100 (202); Bob 50 (100); Cid 1 of 3: 12 (22). Ann reached 200.
    page = play(client, path, ([10, 5, 1], [12, 5, 1]), ([10, 5, 1], [10, 5, 3]))
    assert totals(page) == ["202", "100", "22"]
    assert status(page) == "★ Ann wins with 202. 18 tricks per deal · game to 200"
    assert step(page) is None and pending(page) is None
    assert 'class="lead">202<' in page
    response = client.post(f"{path}/draft", data=bids_form([1, 1, 1]))
    assert response.status_code == 422
    assert "The game ended after deal 2: no deal can follow it." in errors_in(response.get_data(as_text=True))
    assert draft_of(app, path) is None and deal_count(app) == 2


def test_a_tie_at_the_target_plays_another_deal(client):
    path = start(client, n=2, target=200)  # 26 tricks
    # Two deals of 10 of 13 each: 103 and 103, then 206 and 206: both at the target, tied.
    page = play(client, path, ([10, 10], [13, 13]), ([10, 10], [13, 13]))
    assert totals(page) == ["206", "206"]
    assert status(page).startswith(
        "Ann and Bob are tied for the lead: another deal breaks the tie. Ann deals. Bob bids first."
    )
    assert step(page) == "bids"
    # The tiebreak deal: Ann 1 of 20: 10 + 19 = 29 (235); Bob 1 of 6: 15 (221).
    page = play(client, path, ([1, 1], [20, 6]))
    assert totals(page) == ["235", "221"]
    assert status(page).startswith("★ Ann wins with 235.")
    assert 'title="tiebreak deal"' in page


def test_both_pairs_past_the_target_the_higher_total_wins(client):
    path = start(client, pairs=True, target=150)
    page = play(
        client,
        path,
        # Ann & Cid 3 + 3 of 3 + 3: 60. Bob & Dee 3 + 3 of 4 + 3: 61, 1 bag.
        ([3, 3, 3, 3], [3, 4, 3, 3]),
        # The same again: 120 and 122, 2 bags.
        ([3, 3, 3, 3], [3, 4, 3, 3]),
        # Ann & Cid 2 + 2 of 4 + 3 = 7: 43 (163). Bob & Dee 2 + 2 of 3 + 3 = 6: 42 (164). Both past 150.
        ([2, 2, 2, 2], [4, 3, 3, 3]),
    )
    assert totals(page) == ["163", "164"]
    assert status(page) == "★ Bob & Dee win with 164. 13 tricks per deal · game to 150"


def test_a_pair_at_the_lose_at_floor_ends_the_game(client):
    path = start(client, pairs=True, lose_at=-200)
    # Worked example: Bob & Dee -230 (at or below -200); Ann & Cid 26: the game is over.
    page = play(client, path, ([1, 13, 1, 0], [1, 4, 7, 1]))
    assert totals(page) == ["26", "-230"]
    assert status(page) == (
        "★ Ann & Cid win with 26. Bob & Dee fell to -200 or below. 13 tricks per deal · game to 500 · lose at -200"
    )
    assert step(page) is None


# -- corrections and the sheet -------------------------------------------------------------------


def test_correcting_a_deal_shows_bids_and_tricks_together(app, client):
    path = start(client, pairs=True)
    play(client, path, ([2, 4, "blind", 5], [2, 5, 0, 6]), ([1, 1, 1, 1], [1, 5, 1, 6]))
    page = client.get(f"{path}/deals/0").get_data(as_text=True)
    form = re.search(r'<form id="entry".*?</form>', page, re.S).group(0)
    assert "sp-step-full" in form and "Correct this deal" in page
    assert "Bids for deal 1" in text(form) and "Tricks won, deal 1 (they add up to 13)" in text(form)
    assert (
        checked(form, "bids_2", "blind") and checked(form, "bids_3", "5") and checked(form, "tricks_3", "6")
    )
    assert "hx-post" not in form and f'action="{path}/deals/0"' in form
    # Cid's nil was not blind after all: 20 + 100 = 120 for Ann & Cid; the second deal is rescored
    # (Bob & Dee: 2 bags, then 9 more: 11 -> -100, bags 1: 29 - 100 = -71; total 92 - 71 = 21).
    response = client.post(f"{path}/deals/0", data={**bids_form([2, 4, 0, 5]), **tricks_form([2, 5, 0, 6])})
    assert response.status_code == 303
    page = client.get(path).get_data(as_text=True)
    assert totals(page) == ["140", "21"] and bags(page) == ["0", "1"]
    assert penalty_cells(page) == [(1, 1)]
    # A correction that breaks a rule changes nothing.
    response = client.post(f"{path}/deals/0", data={**bids_form([2, 4, 0, 5]), **tricks_form([2, 5, 0, 7])})
    assert response.status_code == 422
    assert "The tricks add up to 14; a deal has 13." in errors_in(response.get_data(as_text=True))
    assert api(client, path)["deals"][0]["tricks"] == [2, 5, 0, 6] and deal_count(app) == 2


def test_the_score_sheet_lists_every_deal(client):
    path = start(client, sandbags=True)
    play(client, path, ([1, 1, 1, 1], [9, 2, 1, 1]), ([8, 1, 1, 1], [10, 1, 1, 1]))
    sheet = text(client.get(f"{path}/sheet").get_data(as_text=True))
    assert "bid 8, won 10: 80 + 2 bags - 100 (10 bags) = -18" in sheet
    assert "Ann: 10 bags cost 100 (bags now 0)." in sheet


def test_four_names_with_seating_untapped_play_pairs_others_alone(client):
    """Issue 41: a new Spades game of 4 names was silently cutthroat (13 tricks, no nil)."""
    base = {"first_dealer": "0", "opt_target": "500", "opt_jokers": "y", "opt_blind_nil": "y"}
    for n, mode in ((4, "partnership"), (3, "cutthroat"), (5, "cutthroat")):
        data = {**base, **{f"players_{s}": name for s, name in enumerate(PLAYERS[:n])}}
        response = client.post("/new/spades", data=data)
        assert response.status_code == 303, errors_in(response.get_data(as_text=True))
        assert api(client, response.headers["Location"])["options"]["mode"] == mode
    # A chip tapped stands: 4 players on their own.
    data = {**base, "opt_mode": "cutthroat", **{f"players_{s}": name for s, name in enumerate(PLAYERS[:4])}}
    response = client.post("/new/spades", data=data)
    assert api(client, response.headers["Location"])["options"]["mode"] == "cutthroat"
