"""Abracadabra through the pages: set-up, tricks tapped one by one, bid-suit cards, the score.

Posts are what a browser sends: every group of chips on a stage carries a
hidden empty input first (so "nothing ticked" is distinguishable from "not on
this stage"). Expected numbers are worked out by hand from
shared/rules/abracadabra.md (the same deals as tests/rules/test_abracadabra.py).
"""

from __future__ import annotations

import html as html_lib
import json
import re

from sqlalchemy import func, select
from werkzeug.datastructures import MultiDict

from scorekeeper.db import db
from scorekeeper.models import Deal, Game
from tests.rules.test_abracadabra import EXAMPLE_4, EXPOSURE  # the rules file's worked examples
from tests.web.pages import checked, errors_in

HX = {"HX-Request": "true"}
FOUR = ["Helen", "David", "Cid", "Dee"]
THREE = ["Helen", "David", "Dee"]
ANN = ["Ann", "Bob", "Cid", "Dee"]

# EXAMPLE_4, the worked example for four players: Dee declares 3; Helen bids 5 and J, David 4 and Q,
# Cid A and 2 (he succeeds too, so three succeed: 20 each). Tricks 1-2 Cid, 3-4 David,
# 5-11 Helen, 12-13 David. Helen 20 + (5 + 11) + 7 + 6 x 2 = 55;
# David 20 + (4 + 12) + 4 + 5 x 2 = 50; Cid 20 + (1 + 2) + 2 + 1 x 2 = 27; Dee 0.

# Three players: Helen and David as above are the two who succeed (20 each); the
# Declarer Dee bid A, 2, 3 and won only trick 1: 0 + 1 + 1 trick + 1 x 2 = 4. 12 tricks.
EXAMPLE_3 = {
    "trump": "NT",
    "suits": ["H", "S", "C"],
    "declarer": 2,
    "bid": 3,
    "bid_cards": [[5, 11], [4, 12], [1, 2, 3]],
    "exposed": [],
    "piles_exposed": [False, False, False],
    "trick_winners": [2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1],
    "suit_cards": [6, 5, 1],
}

# EXPOSURE, the exposure example: Ann declares 2 with J and Q and exposes both; she wins trick
# 11 (+22) and loses 12 to Cid (-24): right side -2; she fails, 1 trick: -1.
# Bob laid no bid cards (cannot succeed), won the 11 other tricks and exposed his
# pile: 11 + 8 x 4 = 43. Cid alone succeeds: 40 + 12 + 1 + 1 x 2 = 55. Dee lost her 3: 0.

# Ann bids 3 and 4 but wins tricks 1 and 2; Bob bids 5 and wins it; Cid lays nothing
# and wins the other ten; Dee bids 6 and wins nothing.
# Named tricks: only Bob succeeds: Ann 0 + 0 + 2 + 1 x 2 = 4, Bob 40 + 5 + 1 + 1 x 2 = 48,
# Cid 0 + 0 + 10 + 5 x 2 = 20, Dee 0.
# At least: Ann (2 tricks for 2 cards) and Bob succeed, 30 each: Ann 30 + 0 + 2 + 2 = 34,
# Bob 30 + 5 + 1 + 2 = 38, Cid 20, Dee 0.
AT_LEAST = {
    "trump": "H",
    "suits": ["S", "H", "D", "C"],
    "declarer": 0,
    "bid": 2,
    "bid_cards": [[3, 4], [5], [], [6]],
    "exposed": [],
    "piles_exposed": [False, False, False, False],
    "trick_winners": [0, 0, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2],
    "suit_cards": [1, 1, 5, 0],
}

# Two players: Ann declares 2 with A and 2 and wins tricks 1-6; Bob bids 5 and loses it.
# Ann alone succeeds (20): 20 + (1 + 2) + 6 + 4 x 2 = 37; Bob 0 + 0 + 6 + 3 x 2 = 12.
TWO = {
    "trump": "C",
    "suits": ["S", "H"],
    "declarer": 0,
    "bid": 2,
    "bid_cards": [[1, 2], [5]],
    "exposed": [],
    "piles_exposed": [False, False],
    "trick_winners": [0] * 6 + [1] * 6,
    "suit_cards": [4, 3],
}


# -- what a browser posts --------------------------------------------------------
def setup_post(facts: dict, stage: str = "setup") -> MultiDict:
    """Stage 1 as posted: the chips of every group, each group led by its hidden marker."""
    pairs: list[tuple[str, str]] = [("stage", stage), ("step", "setup")]
    pairs += [("trump", ""), ("trump", facts.get("trump", ""))]
    for seat, suit in enumerate(facts.get("suits", [])):
        pairs += [(f"suits_{seat}", ""), (f"suits_{seat}", suit)]
    pairs += [("declarer", ""), ("declarer", str(facts.get("declarer", "")))]
    pairs += [("bid", ""), ("bid", str(facts.get("bid", "")))]
    for seat, ranks in enumerate(facts.get("bid_cards", [])):
        pairs.append((f"bid_cards_{seat}", ""))
        pairs += [(f"bid_cards_{seat}", str(rank)) for rank in ranks]
    pairs.append(("exposed", ""))
    pairs += [("exposed", str(rank)) for rank in facts.get("exposed", [])]
    pairs.append(("piles_exposed", ""))
    pairs += [("piles_exposed", str(s)) for s, shown in enumerate(facts.get("piles_exposed", [])) if shown]
    return MultiDict(pairs)


def tricks_post(winners, tricks: int, stage: str = "play") -> MultiDict:
    pairs = [("stage", stage), ("step", "tricks")]
    for trick in range(1, tricks + 1):
        pairs.append((f"trick_{trick}", ""))
        if trick <= len(winners) and winners[trick - 1] is not None:
            pairs.append((f"trick_{trick}", str(winners[trick - 1])))
    return MultiDict(pairs)


def suits_post(counts) -> MultiDict:
    pairs = [("stage", "suits"), ("step", "score")]
    for seat, count in enumerate(counts):
        pairs += [(f"suit_cards_{seat}", ""), (f"suit_cards_{seat}", str(count))]
    return MultiDict(pairs)


def full_post(facts: dict) -> MultiDict:
    """The deal page's single full form."""
    data = setup_post(facts, stage="full")
    data.add("thrown_in", "")
    if facts.get("thrown_in"):
        data.add("thrown_in", "y")
    tricks = 13 if len(facts.get("suits", [0] * 4)) == 4 else 12
    for key, value in tricks_post(facts.get("trick_winners", []), tricks).items(multi=True):
        if key.startswith("trick_"):
            data.add(key, value)
    for key, value in suits_post(facts.get("suit_cards", [])).items(multi=True):
        if key.startswith("suit_cards_"):
            data.add(key, value)
    return data


# -- helpers ---------------------------------------------------------------------
def start(client, players, **options) -> str:
    """Start a game through the set-up form (the Joker box ticked, as by default)."""
    data = {f"players_{s}": name for s, name in enumerate(players)}
    data.update(first_dealer="0", opt_joker="y")
    data.update({f"opt_{key}": str(value) for key, value in options.items()})
    response = client.post("/new/abracadabra", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def tap(client, path, trick, seat, headers=None):
    return client.post(
        f"{path}/draft", data={"stage": "play", "trick": str(trick), "tap": str(seat)}, headers=headers or {}
    )


def play_deal(client, path, facts, headers=None):
    """Set up, tap every trick, count the suit cards, score: returns the last response."""
    headers = headers or {}
    response = client.post(f"{path}/draft", data=setup_post(facts), headers=headers)
    assert response.status_code in (200, 303), errors_in(response.get_data(as_text=True))
    for trick, seat in enumerate(facts["trick_winners"], start=1):
        response = tap(client, path, trick, seat, headers)
        assert response.status_code in (200, 303), errors_in(response.get_data(as_text=True))
    return client.post(f"{path}/deals", data=suits_post(facts["suit_cards"]), headers=headers)


def record(client, path) -> dict:
    return client.get("/api/games/" + path.split("/")[-1]).json


def draft_of(app, path):
    with app.app_context():
        return db.session.get(Game, path.split("/")[-1]).draft


def deal_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Deal))


def field_error(html: str, field_id: str) -> str:
    found = re.search(rf'id="{field_id}-error">([^<]*)<', html)
    assert found, f"no error at {field_id}"
    return found.group(1).replace("&#39;", "'")


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html)).replace("&#39;", "'")


def stage_of(html: str) -> str:
    found = re.search(r'class="entry abra abra-(\w+)"', html)
    return found.group(1) if found else ""


def parts_row(html: str, label: str) -> list[str]:
    """One row of the part-by-part table of the last deal: its cells as text."""
    table = re.search(r'<table class="abra-parts-table">(.*?)</table>', html, re.S).group(1)
    for row in re.findall(r"<tr>(.*?)</tr>", table, re.S):
        cells = re.findall(r"<t[hd][^>]*>(.*?)</t[hd]>", row, re.S)
        if text_of(cells[0]).strip() == label:
            return [text_of(c).strip() for c in cells[1:]]
    raise AssertionError(f"no row {label}")


# -- the worked examples -----------------------------------------------------------
def test_worked_example_four_players_trick_by_trick(client, app):
    path = start(client, FOUR)
    page = client.get(path).get_data(as_text=True)
    assert stage_of(page) == "setup" and "Deal 1" in page
    response = play_deal(client, path, EXAMPLE_4)
    assert response.status_code == 303
    game = record(client, path)
    assert game["deals"][0] == EXAMPLE_4
    assert game["totals"] == [55, 50, 27, 0]
    page = client.get(path).get_data(as_text=True)
    assert "Helen: success 20 + bid tricks 5+11 + tricks 7 + suit cards 6 x 2 = 55" in page
    assert "David: success 20 + bid tricks 4+12 + tricks 4 + suit cards 5 x 2 = 50" in page
    # Every part, per player, for the deal just scored.
    assert parts_row(page, "Success") == ["20 ✓", "20 ✓", "20 ✓", "0"]
    assert parts_row(page, "Bid tricks") == ["16 5+11", "16 4+12", "3 1+2", "0 6 7 8"]
    assert parts_row(page, "Tricks") == ["7", "4", "2", "0"]
    assert parts_row(page, "Suit cards") == ["12 6 x 2", "10 5 x 2", "2 1 x 2", "0 0 x 2"]
    assert parts_row(page, "Deal") == ["55", "50", "27", "0"]
    assert "Right side" not in page  # nobody exposed a card
    assert "Succeeded: Helen, David, Cid (20 each)." in page
    # The draft is gone and the next deal starts from its set-up.
    assert draft_of(app, path) is None
    assert stage_of(page) == "setup" and "Deal 2 of 4. David deals." in page


def test_worked_example_three_players(client):
    path = start(client, THREE)
    page = client.get(path).get_data(as_text=True)
    # 12 tricks: bid cards run from A to Q.
    assert checked(page, "bid_cards_0", "12") is False
    assert 'name="bid_cards_0" type="checkbox" value="13"' not in page
    response = play_deal(client, path, EXAMPLE_3, headers=HX)
    assert response.status_code == 200
    assert record(client, path)["totals"] == [55, 50, 4]
    html = response.get_data(as_text=True)
    assert "Succeeded: Helen, David (20 each)." in html
    assert "Dee: success 0 + bid tricks 1 + tricks 1 + suit cards 1 x 2 = 4" in html


def test_exposure_example_and_a_player_with_no_bid_cards(client):
    path = start(client, ANN)
    assert play_deal(client, path, EXPOSURE).status_code == 303
    assert record(client, path)["totals"] == [-1, 43, 55, 0]
    page = client.get(path).get_data(as_text=True)
    assert "Ann: success 0 + bid tricks 0 + right side (+22 - 24) + tricks 1 + suit cards 0 x 2 = -1" in page
    assert parts_row(page, "Right side") == ["-2 +22 −24", "–", "–", "–"]
    # Bob laid no bid cards: he cannot succeed, and his exposed pile makes suit cards x 4.
    assert "Bob: success 0 + bid tricks 0 + tricks 11 + suit cards 8 x 4 = 43" in page
    assert parts_row(page, "Success") == ["0", "0", "40 ✓", "0"]
    assert parts_row(page, "Suit cards")[1] == "32 8 x 4"


def test_a_player_with_no_bid_cards_through_every_stage(client):
    path = start(client, ANN)
    client.post(f"{path}/draft", data=setup_post(AT_LEAST))
    page = client.get(path).get_data(as_text=True)
    # Cid laid none: the standings say so, and the game goes on.
    cid = re.search(r'<table class="abra-standings"[^>]*>.*?Cid</span>.*?</tr>', page, re.S).group(0)
    assert ">none<" in cid.rsplit("Cid</span>", 1)[1]
    assert play_deal(client, path, AT_LEAST).status_code == 303
    page = client.get(path).get_data(as_text=True)
    assert "Cid: success 0 + bid tricks 0 + tricks 10 + suit cards 5 x 2 = 20" in page
    assert record(client, path)["totals"] == [4, 48, 20, 0]


def test_the_at_least_option(client):
    path = start(client, ANN, success="at_least")
    assert play_deal(client, path, AT_LEAST).status_code == 303
    assert record(client, path)["totals"] == [34, 38, 20, 0]
    page = client.get(path).get_data(as_text=True)
    assert parts_row(page, "Success") == ["30 ✓", "30 ✓", "0", "0"]
    # Bid tricks still count only the tricks the cards name: Ann's 3 and 4 went to Cid.
    assert parts_row(page, "Bid tricks")[0] == "0 3 4"


# -- play: taps, counts, undo, fixes ---------------------------------------------------
def test_each_tap_says_whose_bid_trick_it_was_with_running_counts(client, app):
    path = start(client, FOUR)
    client.post(f"{path}/draft", data=setup_post(EXAMPLE_4))
    page = client.get(path).get_data(as_text=True)
    assert stage_of(page) == "play"
    assert "Who won trick 1?" in page and "Trick 1 is bid by Cid." in page
    for trick, seat in enumerate([2, 2, 1, 1], start=1):
        response = tap(client, path, trick, seat, HX)
    html = text_of(response.get_data(as_text=True))
    assert "abracadabra: trick 4 is David's" in html
    assert "Who won trick 5? 4 of 13 played" in html and "Trick 5 is bid by Helen." in html
    response = tap(client, path, 5, 0, HX)
    html = response.get_data(as_text=True)
    assert "abracadabra: trick 5 is Helen's" in text_of(html)
    assert "Helen 1 trick" in text_of(html) and "David 2 tricks" in text_of(html)
    # Bid cards won, lost and to come: Helen has won her 5; her J is to come.
    standings = re.search(r'<table class="abra-standings"[^>]*>.*?</table>', html, re.S).group(0)
    helen = re.search(r'<span class="abra-name">Helen</span>.*?</tr>', standings, re.S).group(0)
    assert 'class="abra-card abra-won"' in helen and 'class="abra-card abra-pending"' in helen
    tap(client, path, 6, 1)  # David takes Dee's trick 6
    html = text_of(client.get(path).get_data(as_text=True))
    assert "Dee bid trick 6 and lost it." in html
    assert draft_of(app, path)["trick_winners"] == [2, 2, 1, 1, 0, 1]


def test_a_wrong_tap_is_undone_and_an_earlier_trick_fixed(client, app):
    path = start(client, FOUR)
    client.post(f"{path}/draft", data=setup_post(EXAMPLE_4))
    for trick, seat in enumerate([2, 3, 1], start=1):  # trick 2 is wrong: Cid took it
        tap(client, path, trick, seat)
    tap(client, path, 4, 0)  # wrong too: David took trick 4
    response = client.post(f"{path}/draft", data={"stage": "play", "undo": "4"}, headers=HX)
    assert response.status_code == 200
    assert draft_of(app, path)["trick_winners"] == [2, 3, 1]
    html = response.get_data(as_text=True)
    assert "Who won trick 4?" in html
    # The list of every trick shows the kept winners, not the undone one.
    assert checked(html, "trick_3", "1") and not checked(html, "trick_4", "0")
    # The same undo twice (a double tap) takes back one trick only.
    client.post(f"{path}/draft", data={"stage": "play", "undo": "4"})
    assert draft_of(app, path)["trick_winners"] == [2, 3, 1]
    # Fix trick 2 in the list of every trick.
    response = client.post(f"{path}/draft", data=tricks_post([2, 2, 1], 13), headers=HX)
    assert response.status_code == 200
    assert draft_of(app, path)["trick_winners"] == [2, 2, 1]
    assert "Who won trick 4?" in response.get_data(as_text=True)


def test_a_double_tap_counts_once_and_a_stale_tap_is_refused(client, app):
    path = start(client, FOUR)
    client.post(f"{path}/draft", data=setup_post(EXAMPLE_4))
    tap(client, path, 1, 2)
    assert tap(client, path, 1, 2).status_code == 303  # the same tap again: nothing changes
    assert draft_of(app, path)["trick_winners"] == [2]
    # Another device (or an old page) says trick 1 went to Helen: refused, nothing changed.
    response = tap(client, path, 1, 0, HX)
    assert response.status_code == 422
    assert "That tap was for trick 1, but 1 tricks are entered now" in text_of(
        response.get_data(as_text=True)
    )
    assert draft_of(app, path)["trick_winners"] == [2]
    # A winner who is not at the table is refused by the rules.
    response = tap(client, path, 2, 7)
    assert response.status_code == 422
    assert "Trick 2: the winner must be one of the players." in errors_in(response.get_data(as_text=True))
    assert draft_of(app, path)["trick_winners"] == [2]


def test_all_trick_winners_entered_at_the_end(client, app):
    path = start(client, FOUR)
    client.post(f"{path}/draft", data=setup_post(EXAMPLE_4))
    response = client.post(f"{path}/draft", data=tricks_post(EXAMPLE_4["trick_winners"], 13), headers=HX)
    # (Without the next deal's set-up the page carries, inert, for a phone offline.)
    html = response.get_data(as_text=True).split('<template id="entry-next">')[0]
    assert stage_of(html) == "suits" and "All 13 tricks are in" in html
    # Dee won nothing: her count is 0 without a tap; Cid (2 tricks) can have at most 8.
    assert 'name="suit_cards_3" value="0"' in html
    assert checked(html, "suit_cards_2", "8") is False
    assert 'name="suit_cards_2" type="radio" value="9"' not in html
    response = client.post(f"{path}/deals", data=suits_post([6, 5, 1]) | {"suit_cards_3": "0"}, headers=HX)
    assert response.status_code == 200
    assert record(client, path)["totals"] == [55, 50, 27, 0]


def test_a_gap_in_the_list_of_tricks_is_refused_and_kept(client, app):
    path = start(client, FOUR)
    client.post(f"{path}/draft", data=setup_post(EXAMPLE_4))
    response = client.post(f"{path}/draft", data=tricks_post([2, None, 1], 13), headers=HX)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "Trick 2: the winner must be one of the players." in errors_in(html)
    assert checked(html, "trick_3", "1") and checked(html, "trick_1", "2")
    assert '<details class="abra-fix" open>' in html
    assert draft_of(app, path).get("trick_winners") is None


# -- refusals ---------------------------------------------------------------------------
def test_set_up_refusals_are_shown_next_to_the_field_with_the_input_kept(client, app):
    path = start(client, FOUR)
    bad = dict(EXAMPLE_4, bid_cards=[[5, 11], [4, 12, 13], [1, 2], [6, 7]], suits=["H", "S", "H", "C"])
    for headers in ({}, HX):
        response = client.post(f"{path}/draft", data=setup_post(bad), headers=headers)
        assert response.status_code == 422
        html = response.get_data(as_text=True)
        # Another player laying as many bid cards as the Declarer's bid:
        assert field_error(html, "bid_cards_1") == (
            "David lays 3 bid cards: every player but the Declarer lays fewer than the bid (3)."
        )
        # A bid card count different from the bid:
        assert field_error(html, "bid_cards_3") == (
            "Dee is the Declarer with a bid of 3: the Declarer lays exactly 3 bid cards, not 2."
        )
        assert field_error(html, "suits_2") == (
            "Cid and Helen both took ♥ hearts: each player takes a different bid suit."
        )
        assert stage_of(html) == "setup"
        assert (
            checked(html, "bid_cards_1", "13")
            and checked(html, "trump", "D")
            and checked(html, "declarer", "3")
        )
    assert draft_of(app, path) is None and deal_count(app) == 0


def test_ranks_naming_tricks_that_do_not_exist_are_refused(client, app):
    path = start(client, THREE)
    # Three players have 12 tricks; a K (13) typed by hand names no trick.
    response = client.post(
        f"{path}/draft", data=setup_post(dict(EXAMPLE_3, bid_cards=[[5, 13], [4], [1, 2, 3]]))
    )
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert field_error(html, "bid_cards_0") == "Helen: rank 13 names trick 13, but a deal has only 12 tricks."
    # Exposed cards must be the Declarer's own.
    response = client.post(f"{path}/draft", data=setup_post(dict(EXAMPLE_3, exposed=[4])))
    assert "Only the Declarer's own laid bid cards can be exposed: Dee laid no 4." in errors_in(
        response.get_data(as_text=True)
    )
    assert draft_of(app, path) is None and deal_count(app) == 0


def test_impossible_suit_cards_are_refused_and_nothing_is_recorded(client, app):
    path = start(client, FOUR)
    client.post(f"{path}/draft", data=setup_post(EXAMPLE_4))
    client.post(f"{path}/draft", data=tricks_post(EXAMPLE_4["trick_winners"], 13))
    response = client.post(f"{path}/deals", data=suits_post([6, 5, 9, 0]), headers=HX)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert field_error(html, "suit_cards_2") == (
        "Cid: at most 8 bid-suit cards (2 tricks won x 4 cards a trick), not 9."
    )
    assert stage_of(html) == "suits" and checked(html, "suit_cards_0", "6")
    assert deal_count(app) == 0
    assert draft_of(app, path)["trick_winners"] == EXAMPLE_4["trick_winners"]


def test_a_missing_set_up_is_named_on_a_stale_page(client, app):
    path = start(client, FOUR)
    # A tap from a page whose set-up another device discarded.
    response = tap(client, path, 1, 0, HX)
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert errors_in(html) == [
        "This deal has no set-up any more (it was discarded or recorded): enter it again."
    ]
    assert stage_of(html) == "setup"
    assert draft_of(app, path) is None


# -- thrown in, the draft, stages ---------------------------------------------------------
def test_all_passed_is_recorded_straight_from_the_set_up(client, app):
    path = start(client, FOUR)
    data = setup_post({"trump": "NT", "suits": ["S", "H", "D", "C"], "bid_cards": [[5], [], [], []]})
    data.add("thrown_in", "y")
    response = client.post(f"{path}/deals", data=data, headers=HX)
    assert response.status_code == 200
    game = record(client, path)
    assert game["deals"] == [{"thrown_in": True, "trump": "NT", "suits": ["S", "H", "D", "C"]}]
    assert game["totals"] == [0, 0, 0, 0] and game["next_dealer"] == 1
    html = response.get_data(as_text=True)
    assert "All passed: the deal is thrown in and passes to the next dealer." in html
    # The next deal's set-up starts empty (nothing of the thrown-in deal is pre-selected).
    assert (
        stage_of(html) == "setup"
        and not checked(html, "trump", "NT")
        and not checked(html, "bid_cards_0", "5")
    )


def test_the_draft_survives_a_reload_and_another_device(app, client):
    created = client.post("/api/games", json={"game": "abracadabra", "players": FOUR}).json
    path = f"/g/{created['id']}"
    assert client.get(f"{path}?key={created['edit_key']}").status_code == 303
    client.post(f"{path}/draft", data=setup_post(EXAMPLE_4))
    for trick, seat in enumerate([2, 2, 1], start=1):
        tap(client, path, trick, seat)
    page = client.get(path).get_data(as_text=True)
    assert "Who won trick 4?" in page and checked(page, "trick_3", "1")
    # Another phone with the scoring link carries on where the first left off.
    other = app.test_client()
    assert other.get(f"{path}?key={created['edit_key']}").status_code == 303
    page = other.get(path).get_data(as_text=True)
    assert stage_of(page) == "play" and "Who won trick 4?" in page
    assert tap(other, path, 4, 1).status_code == 303
    assert "Who won trick 5?" in client.get(path).get_data(as_text=True)
    # A follower without the key sees the progress, no form, and cannot change the draft.
    viewer = app.test_client()
    page = viewer.get(path).get_data(as_text=True)
    assert "Deal 1 is being played: 4 of 13 tricks entered." in page and 'id="entry"' not in page
    assert tap(viewer, path, 5, 0).status_code == 403
    assert draft_of(app, path)["trick_winners"] == [2, 2, 1, 1]


def test_the_set_up_can_be_changed_during_play_and_the_deal_discarded(client, app):
    path = start(client, FOUR)
    client.post(f"{path}/draft", data=setup_post(EXAMPLE_4))
    tap(client, path, 1, 2)
    page = client.get(f"{path}?setup=1").get_data(as_text=True)
    assert stage_of(page) == "setup" and checked(page, "bid_cards_0", "11") and checked(page, "suits_0", "H")
    assert "Save the set-up" in page
    changed = dict(EXAMPLE_4, trump="S")
    assert client.post(f"{path}/draft", data=setup_post(changed)).status_code == 303
    draft = draft_of(app, path)
    assert draft["trump"] == "S" and draft["trick_winners"] == [2]
    assert stage_of(client.get(path).get_data(as_text=True)) == "play"
    response = client.post(f"{path}/draft", data={"stage": "play", "discard": "1"}, headers=HX)
    assert response.status_code == 200 and stage_of(response.get_data(as_text=True)) == "setup"
    assert draft_of(app, path) is None and deal_count(app) == 0


def test_full_page_and_htmx_partial(client):
    path = start(client, FOUR)
    page = client.get(path).get_data(as_text=True)
    assert "<html" in page and stage_of(page) == "setup"
    # Without JavaScript: a redirect back to the page's form.
    response = client.post(f"{path}/draft", data=setup_post(EXAMPLE_4))
    assert response.status_code == 303 and response.headers["Location"].endswith("#entry")
    # With htmx: only the live region, with the next stage in it.
    response = tap(client, path, 1, 2, HX)
    html = response.get_data(as_text=True)
    assert response.status_code == 200 and "<html" not in html
    assert html.lstrip().startswith('<section id="live"') and stage_of(html) == "play"
    assert "HX-Request" in response.headers["Vary"]
    # The stages post where they should: taps to the draft, the score to the deals.
    assert f'hx-post="{path}/draft"' in html
    client.post(f"{path}/draft", data=tricks_post(EXAMPLE_4["trick_winners"], 13))
    html = client.get(path, headers=HX).get_data(as_text=True)
    assert "<html" not in html and f'hx-post="{path}/deals"' in html and stage_of(html) == "suits"
    # A refusal through htmx is the form alone, into its slot, brought into view.
    response = client.post(f"{path}/deals", data=suits_post([13, 13, 13, 0]), headers=HX)
    html = response.get_data(as_text=True)
    assert response.status_code == 422 and "<html" not in html and 'id="board"' not in html
    assert response.headers["HX-Retarget"] == "#entry-slot"
    assert response.headers["HX-Reswap"].startswith("innerHTML show:#entry")


# -- corrections, two players, the end --------------------------------------------------
def test_a_recorded_deal_is_corrected_with_the_full_form(client, app):
    path = start(client, FOUR)
    play_deal(client, path, EXAMPLE_4)
    page = client.get(f"{path}/deals/0").get_data(as_text=True)
    assert "Correct this deal" in page and stage_of(page) == "full"
    assert (
        checked(page, "trick_13", "1")
        and checked(page, "suit_cards_0", "6")
        and checked(page, "bid_cards_3", "8")
    )
    # Helen exposed her pile after all: her 6 hearts count x 4 (24): 55 + 12 = 67.
    response = client.post(
        f"{path}/deals/0", data=full_post(dict(EXAMPLE_4, piles_exposed=[True] + [False] * 3))
    )
    assert response.status_code == 303
    assert record(client, path)["totals"] == [67, 50, 27, 0]
    # A correction that breaks a rule changes nothing and keeps what was typed.
    response = client.post(f"{path}/deals/0", data=full_post(dict(EXAMPLE_4, bid=2)))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert field_error(html, "bid_cards_0") == (
        "Helen lays 2 bid cards: every player but the Declarer lays fewer than the bid (2)."
    )
    assert checked(html, "bid", "2")
    assert record(client, path)["totals"] == [67, 50, 27, 0]
    # And a deal can be corrected to a thrown-in one, while the next deal is half entered:
    # the next deal's draft (trump ♠) does not leak into the correction (no trump given).
    client.post(f"{path}/draft", data=setup_post(dict(EXAMPLE_4, trump="S")))
    thrown = full_post({"thrown_in": True, "suits": ["H", "S", "D", "C"]})
    assert client.post(f"{path}/deals/0", data=thrown).status_code == 303
    assert record(client, path)["deals"][0] == {"thrown_in": True, "suits": ["H", "S", "D", "C"]}
    assert draft_of(app, path)["trump"] == "S"
    thrown = full_post({"thrown_in": True, "trump": "H", "suits": ["H", "S", "D", "C"]})
    assert client.post(f"{path}/deals/0", data=thrown).status_code == 303
    assert record(client, path)["deals"][0] == {
        "thrown_in": True,
        "trump": "H",
        "suits": ["H", "S", "D", "C"],
    }


def test_two_players_with_a_dummy_and_without(client):
    for option, most in (("dummy", 9), ("no_dummy", 6)):
        path = start(client, ["Ann", "Bob"], two_player=option)
        client.post(f"{path}/draft", data=setup_post(TWO))
        page = client.get(path).get_data(as_text=True)
        assert ("A trick won by a dummy card belongs to whoever played that card." in page) == (
            option == "dummy"
        )
        client.post(f"{path}/draft", data=tricks_post(TWO["trick_winners"], 12))
        page = client.get(path).get_data(as_text=True)
        # 6 tricks of 3 (or 2) cards: up to the suit's 9 (or 6) cards in play.
        assert f'name="suit_cards_0" type="radio" value="{most}"' in page
        assert f'name="suit_cards_0" type="radio" value="{most + 1}"' not in page
        assert client.post(f"{path}/deals", data=suits_post(TWO["suit_cards"])).status_code == 303
        assert record(client, path)["totals"] == [37, 12]


def test_winner_after_the_agreed_deals_and_a_tie_plays_another(client):
    path = start(client, ["Ann", "Bob"], deals=1)
    thrown = MultiDict([("stage", "setup"), ("thrown_in", "y")])
    assert client.post(f"{path}/deals", data=thrown).status_code == 303
    page = client.get(path).get_data(as_text=True)
    # A thrown-in deal does not count toward the agreed deals: one more is played.
    assert "Deal 2 of 2. Bob deals." in page
    assert stage_of(page) == "setup"
    # Ann bids trick 2 and loses it; each wins 6 tricks and no bid-suit card: 6 all.
    tie = dict(TWO, bid=1, bid_cards=[[2], []], trick_winners=[0, 1] * 6, suit_cards=[0, 0])
    assert play_deal(client, path, tie).status_code == 303
    page = client.get(path).get_data(as_text=True)
    assert "Ann and Bob are tied for the lead: another deal breaks the tie. Ann deals." in page
    assert play_deal(client, path, TWO).status_code == 303
    page = client.get(path).get_data(as_text=True)
    assert "Ann wins." in page and 'id="entry"' not in page and "tiebreak deal" in page


def test_a_target_ends_the_game(client):
    path = start(client, ["Ann", "Bob"], target=30)
    page = client.get(path).get_data(as_text=True)
    assert "Target score: 30." in page and "Deal 1. Ann deals." in page
    assert play_deal(client, path, TWO).status_code == 303
    assert "Ann wins." in client.get(path).get_data(as_text=True)


# -- fewer taps, the play in the page, the preview (issue 14) ------------------------------
def trump_chips(html: str) -> list[str]:
    return [
        re.search(r'value="(\w+)"', tag).group(1)
        for tag in re.findall(r"<input[^>]*>", html)
        if 'name="trump"' in tag and 'type="radio"' in tag
    ]


def test_no_trump_is_offered_only_with_the_joker(client):
    assert trump_chips(client.get(start(client, FOUR)).get_data(as_text=True)) == ["S", "H", "D", "C", "NT"]
    data = {f"players_{s}": name for s, name in enumerate(FOUR)}
    data.update(first_dealer="0")  # the Joker box left unticked
    path = client.post("/new/abracadabra", data=data).headers["Location"]
    page = client.get(path).get_data(as_text=True)
    assert trump_chips(page) == ["S", "H", "D", "C"]
    assert "the Joker means No Trump" not in page


def test_the_declarer_and_bid_follow_from_the_bid_cards(client, app):
    path = start(client, FOUR)
    quiet = {k: v for k, v in EXAMPLE_4.items() if k not in ("declarer", "bid")}
    page = client.get(path).get_data(as_text=True)
    assert "Left empty, the Declarer and the bid follow from the bid cards" in text_of(page)
    # Two players laying the most cards say nothing: the Declarer is asked for, by name.
    tie = dict(quiet, bid_cards=[[5, 11, 12], [4], [1, 2], [6, 7, 8]])
    response = client.post(f"{path}/draft", data=setup_post(tie))
    assert response.status_code == 422
    assert errors_in(response.get_data(as_text=True))[:2] == [
        "Choose the Declarer: the highest bidder.",
        "Choose the bid.",
    ]
    # Dee laid the most (3): she declared 3.
    assert client.post(f"{path}/draft", data=setup_post(quiet)).status_code == 303
    draft = draft_of(app, path)
    assert (draft["declarer"], draft["bid"]) == (3, 3)
    assert "Dee declared 3" in text_of(client.get(path).get_data(as_text=True))
    # The Declarer chosen, the bid left empty: his count of cards.
    client.post(f"{path}/draft", data={"discard": "1"})
    only_declarer = dict(quiet, declarer=3)
    assert client.post(f"{path}/draft", data=setup_post(only_declarer)).status_code == 303
    assert draft_of(app, path)["bid"] == 3


def suits_shown(page: str) -> list[str]:
    return [suit for seat in range(4) for suit in "SHDC" if checked(page, f"suits_{seat}", suit)]


def test_the_bid_suits_are_kept_from_the_last_deal(client):
    path = start(client, FOUR)
    page = client.get(path).get_data(as_text=True)
    assert suits_shown(page) == []
    assert "Shown: the suits of the last deal" not in page
    # A thrown-in deal names them too.
    data = setup_post({"trump": "C", "suits": ["D", "C", "S", "H"], "bid_cards": [[], [], [], []]})
    data.add("thrown_in", "y")
    client.post(f"{path}/deals", data=data)
    page = client.get(path).get_data(as_text=True)
    assert suits_shown(page) == ["D", "C", "S", "H"]
    assert "Shown: the suits of the last deal; tap to change." in text_of(page)
    assert not any(checked(page, "trump", t) for t in ("S", "H", "D", "C", "NT"))
    # A played deal with other suits: the next one shows those.
    play_deal(client, path, EXAMPLE_4)
    page = client.get(path).get_data(as_text=True)
    assert suits_shown(page) == EXAMPLE_4["suits"]


def script_rows(html: str) -> list[dict]:
    """What each trick's row carries for static/app.js, in trick order."""
    rows = re.findall(r'<div class="abra-trick-row" data-trick="(\d+)"([^>]*)>', html)
    assert [int(t) for t, _ in rows] == list(range(1, len(rows) + 1))
    out = []
    for _, tag in rows:
        attributes = re.findall(r"data-([\w-]+)=(?:\"([^\"]*)\"|'([^']*)')", tag)
        found = {name: html_lib.unescape(double or single) for name, double, single in attributes}
        out.append(
            {
                "head": found["head"],
                "progress": found["progress"],
                "owners": json.loads(found["owners"]),
                "bidby": json.loads(found["bidby"]),
                "said": [json.loads(found[f"said-{seat}"]) for seat in range(4)],
                "undo": [found[f"undo-{seat}"] for seat in range(4)],
            }
        )
    return out


def test_the_play_page_carries_what_each_tap_says_as_the_server_says_it(client):
    """The script only picks sentences: each is the one the server's own page shows after that tap."""
    path = start(client, FOUR)
    client.post(f"{path}/draft", data=setup_post(EXAMPLE_4))
    html = client.get(path).get_data(as_text=True)
    version = re.search(r'name="base_version" value="(\d+)"', html).group(1)
    assert 'data-abra-play="' in html and f'data-version="{version}"' in html
    rows = script_rows(html)
    assert len(rows) == 13
    counts = re.findall(r'data-count-(\d+)="([^"]*)"', html)
    assert counts[:3] == [("0", "0 tricks"), ("1", "1 trick"), ("2", "2 tricks")] and len(counts) == 14
    assert rows[0]["head"] == "Who won trick 1?" and rows[0]["bidby"] == ["Trick 1 is bid by Cid."]
    assert rows[4]["owners"] == [0] and rows[4]["progress"] == "4 of 13 played"
    assert rows[9]["bidby"] == [] and rows[9]["said"][1] == ["Trick 10: David."]
    # Trick 5 tapped for David on the server: the page says what the script would have said.
    for trick, seat in enumerate([2, 2, 1, 1, 1], start=1):
        after = tap(client, path, trick, seat, HX).get_data(as_text=True)
    last = re.search(r'<div class="abra-last[^"]*"[^>]*>(.*?)</div>', after, re.S).group(1)
    assert [text_of(p).strip() for p in re.findall(r"<p>(.*?)</p>", last, re.S)] == rows[4]["said"][1]
    assert rows[4]["said"][1] == ["Helen bid trick 5 and lost it."]
    assert rows[4]["said"][0] == ["abracadabra: trick 5 is Helen's"]
    assert rows[4]["undo"][1] in text_of(after) and rows[5]["head"] in text_of(after)
    # Polish pages carry Polish sentences.
    client.post("/lang", data={"lang": "pl"})
    polish = script_rows(client.get(path).get_data(as_text=True))
    assert polish[0]["head"] != "Who won trick 1?"


def test_the_preview_of_the_last_stage_equals_what_is_recorded(client, app):
    path = start(client, FOUR)
    client.post(f"{path}/draft", data=setup_post(EXAMPLE_4))
    client.post(f"{path}/draft", data=tricks_post(EXAMPLE_4["trick_winners"], 13))
    page = client.get(path).get_data(as_text=True)
    assert stage_of(page) == "suits" and 'id="preview"' in page and f'hx-post="{path}/preview"' in page
    # Only the counts are posted (as the page does): the rest of the deal is the kept draft.
    shown = client.post(f"{path}/preview", data=suits_post([6, 5, 1, 0]), headers=HX).get_data(as_text=True)
    assert "If recorded:" in shown and "<html" not in shown
    totals = [text_of(t).strip() for t in re.findall(r'<td class="pv-total">(.*?)</td>', shown, re.S)]
    assert totals == ["55", "50", "27", "0"]
    assert "success 20 + bid tricks 5+11 + tricks 7 + suit cards 6 x 2 = 55" in text_of(shown)
    # A count still to choose is named before Score.
    missing = client.post(f"{path}/preview", data=suits_post([6, 5, "", 0]), headers=HX)
    assert "Choose Cid's count of bid-suit cards won." in text_of(missing.get_data(as_text=True))
    # Without JavaScript, Check answers the page: the counts as typed and the preview in them.
    full = client.post(f"{path}/preview", data=suits_post([6, 5, 1, 0])).get_data(as_text=True)
    assert "<html" in full and stage_of(full) == "suits" and "If recorded:" in full
    assert checked(full, "suit_cards_0", "6")
    assert deal_count(app) == 0 and draft_of(app, path)["trick_winners"] == EXAMPLE_4["trick_winners"]
    # Recorded: the same totals.
    client.post(f"{path}/deals", data=suits_post([6, 5, 1, 0]))
    assert record(client, path)["totals"] == [int(t) for t in totals]
