"""Euchre's pages: set-up, the deal form with and without htmx, the pairs' scoreboard, corrections.

Seats: Ann 0, Bob 1, Cid 2, Dee 3; partners sit opposite, so the pairs are
Ann & Cid (seats 0+2) and Bob & Dee (seats 1+3). Every expected number was
worked out by hand from shared/rules/euchre.md:

    makers 3 or 4 -> makers 1     makers 5 -> makers 2     lone maker 5 -> makers 4
    makers 0-2 (euchred) -> defenders 2     lone defender's pair takes all 5 -> defenders 4
"""

import html
import re

import pytest
from sqlalchemy import func, select

from scorekeeper.db import db
from scorekeeper.models import Deal
from tests.web.pages import checked, errors_in, status, text

ANN, BOB, CID, DEE = range(4)
PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


# -- helpers --------------------------------------------------------------------------


def start(
    client, first_dealer=0, target=10, stick=True, defend_alone=True, lone_four="march", lone_euchred=2
):
    """Set up a Euchre game through the set-up form, as a browser posts it; returns the page's path."""
    data = {f"players_{s}": name for s, name in enumerate(PLAYERS)}
    data.update(
        first_dealer=str(first_dealer),
        opt_target=str(target),
        opt_lone_defender_four=lone_four,
        opt_lone_maker_euchred=str(lone_euchred),
    )
    # Unticked checkboxes are not sent at all.
    if stick:
        data["opt_stick_the_dealer"] = "y"
    if defend_alone:
        data["opt_defend_alone"] = "y"
    response = client.post("/new/euchre", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def entry(maker, tricks, trump="H", round=None, alone=False, defender=None):
    """The Euchre deal form as a browser posts it (chips as radio values)."""
    data = {
        "trump": trump,
        "maker": str(maker),
        "alone": "1" if alone else "0",
        "defender_alone": "" if defender is None else str(defender),
        "maker_tricks": str(tricks),
    }
    if round is not None:
        data["round"] = str(round)
    return data


HTMX = {"HX-Request": "true"}


def record(client, path, data, headers=None):
    response = client.post(f"{path}/deals", data=data, headers=headers or {})
    assert response.status_code == (200 if headers else 303), errors_in(response.get_data(as_text=True))
    return response


def board(markup: str) -> list[tuple[str, ...]]:
    """The scoreboard's rows as (number, dealer, Ann & Cid cell, Bob & Dee cell) summaries."""
    body = re.search(r"<tbody>(.*?)</tbody>", markup, re.S).group(1)
    rows = []
    for row in re.findall(r"<tr[^>]*>(.*?)</tr>", body, re.S):
        number = text(re.search(r"<th[^>]*>(.*?)</th>", row, re.S).group(1))
        dealer = text(re.search(r'<td class="e-dealer"[^>]*>(.*?)</td>', row, re.S).group(1))
        cells = [text(s) for s in re.findall(r"<summary>(.*?)</summary>", row, re.S)]
        rows.append((number, dealer, *cells))
    return rows


def totals(markup: str) -> list[str]:
    foot = re.search(r"<tfoot>(.*?)</tfoot>", markup, re.S).group(1)
    return [text(t) for t in re.findall(r"<td[^>]*>(.*?)</td>", foot, re.S)]


def explanations(markup: str) -> list[str]:
    return [text(w) for w in re.findall(r'<div class="why">(.*?)</div>', markup, re.S)]


def deal_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Deal))


def api(client, path):
    return client.get("/api/games/" + path.split("/")[-1]).json


# -- set-up -----------------------------------------------------------------------------


def test_set_up_page_shows_partners_and_the_options(client):
    page = client.get("/new/euchre").get_data(as_text=True)
    words = text(page)
    assert "Partners sit opposite: players 1 and 3 play together against players 2 and 4." in words
    # The target with its quick picks, any whole number allowed.
    assert 'name="opt_target"' in page and re.search(r'name="opt_target"[^>]*value="10"', page)
    picks = re.search(r'<datalist id="opt_target-picks">(.*?)</datalist>', page, re.S).group(1)
    assert re.findall(r'value="(\d+)"', picks) == ["5", "7", "10", "11"]
    # Switches, on by default as in the original.
    assert re.search(r'<input checked id="opt_stick_the_dealer"[^>]*type="checkbox"', page)
    assert re.search(r'<input checked id="opt_defend_alone"[^>]*type="checkbox"', page)
    assert "On: the dealer must name trump. Off: the dealer may pass too and the deal is thrown in." in words
    # Choices as chips, the original's rule selected.
    assert checked(page, "opt_lone_defender_four", "march") and not checked(
        page, "opt_lone_defender_four", "euchre"
    )
    assert "only when it takes all 5 tricks" in words and "for any euchre" in words
    assert checked(page, "opt_lone_maker_euchred", "2") and not checked(page, "opt_lone_maker_euchred", "4")
    # The hint is Euchre's own: other games' set-up pages do not carry it.
    assert "Partners sit opposite" not in client.get("/new/secret_agent").get_data(as_text=True)


def test_set_up_records_the_options_and_refuses_a_bad_target(client):
    path = start(client, target=7, stick=False, defend_alone=False, lone_four="euchre", lone_euchred=4)
    assert api(client, path)["options"] == {
        "target": 7,
        "stick_the_dealer": False,
        "defend_alone": False,
        "lone_defender_four": "euchre",
        "lone_maker_euchred": 4,
        "hands": None,
        "hands_tiebreak": False,
    }
    data = {f"players_{s}": name for s, name in enumerate(PLAYERS)} | {"opt_target": "0"}
    response = client.post("/new/euchre", data=data)
    assert response.status_code == 422
    assert "Points to win: a whole number of at least 1." in errors_in(response.get_data(as_text=True))


# -- the game page --------------------------------------------------------------------------


def test_new_game_page_shows_the_pairs_dealer_leader_and_target(client):
    path = start(client, first_dealer=DEE)
    page = client.get(path).get_data(as_text=True)
    assert status(page) == "Deal 1. Dee deals, Ann leads. First pair to 10 points wins."
    heads = re.findall(
        r'<th scope="col"[^>]*>(.*?)</th>', re.search(r"<thead>(.*?)</thead>", page, re.S).group(1)
    )
    assert [html.unescape(h) for h in heads] == ["#", "Dealer", "Ann & Cid", "Bob & Dee"]
    assert text(page).count("No deal yet.") == 1 and totals(page) == ["to 10", "0", "0"]
    # The chips: four suits, a chip per player for the maker, tricks 0-5; "alone: no" and
    # "lone defender: nobody" are pre-selected; no thrown-in button under stick the dealer.
    assert [checked(page, "trump", s) for s in "SHDC"] == [False] * 4
    assert [checked(page, "maker", str(s)) for s in range(4)] == [False] * 4
    assert checked(page, "alone", "0") and checked(page, "defender_alone", "")
    assert [checked(page, "maker_tricks", str(n)) for n in range(6)] == [False] * 6
    assert 'name="thrown_in"' not in page


def test_a_deal_entered_through_the_form_is_scored_for_the_pair(client):
    path = start(client)
    response = record(client, path, entry(ANN, 3, trump="S", round=1))
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Deal 1 recorded." in page
    # Makers 3 -> makers +1: Ann & Cid 1, Bob & Dee 0; Ann dealt, so Bob deals next and Cid leads.
    assert board(page) == [("1", "Ann", "1 1", "0 0")]
    assert totals(page) == ["to 10", "1", "0"]
    assert status(page) == "Deal 2. Bob deals, Cid leads. First pair to 10 points wins."
    assert (
        explanations(page)[0] == "Spades (turned up), made by Ann Ann made trump, 3 tricks: 1 for Ann & Cid"
    )
    record_ = api(client, path)
    assert record_["deals"] == [
        {"trump": "S", "round": 1, "maker": ANN, "alone": False, "defender_alone": None, "maker_tricks": 3}
    ]
    assert record_["totals"] == [1, 0, 1, 0]


# Every worked example of euchre.md, entered through the form: (facts, Ann & Cid, Bob & Dee, explanation).
WORKED_EXAMPLES = [
    (entry(ANN, 3), 1, 0, "Ann made trump, 3 tricks: 1 for Ann & Cid"),
    (entry(BOB, 5), 0, 2, "Bob made trump, 5 tricks: 2 for Bob & Dee (march: all 5 tricks)"),
    (
        entry(CID, 5, alone=True),
        4,
        0,
        "Cid alone, 5 tricks: 4 for Ann & Cid (lone maker took all 5 tricks)",
    ),
    (entry(DEE, 4, alone=True), 0, 1, "Dee alone, 4 tricks: 1 for Bob & Dee"),
    (entry(ANN, 2), 0, 2, "Ann made trump, 2 tricks, euchred: 2 for Bob & Dee"),
    (
        entry(ANN, 0, defender=BOB),
        0,
        4,
        "Ann made trump, Bob defending alone, 0 tricks, euchred: 4 for Bob & Dee "
        "(lone defender's pair took all 5 tricks)",
    ),
    (
        entry(ANN, 2, defender=DEE),
        0,
        2,
        "Ann made trump, Dee defending alone, 2 tricks, euchred: 2 for Bob & Dee",
    ),
]


@pytest.mark.parametrize(("data", "ann_cid", "bob_dee", "why"), WORKED_EXAMPLES)
def test_worked_examples_through_the_form(client, data, ann_cid, bob_dee, why):
    path = start(client)
    html_ = record(client, path, data, HTMX).get_data(as_text=True)
    assert board(html_) == [("1", "Ann", f"{ann_cid} {ann_cid}", f"{bob_dee} {bob_dee}")]
    assert totals(html_) == ["to 10", str(ann_cid), str(bob_dee)]
    # The same explanation behind both pairs' numbers.
    assert all(why in w for w in explanations(html_))
    assert api(client, path)["totals"] == [ann_cid, bob_dee, ann_cid, bob_dee]


def test_worked_example_a_pair_on_8_that_marches_reaches_10_and_wins(app, client):
    path = start(client)
    record(client, path, entry(ANN, 5, alone=True))  # lone march: Ann & Cid 4
    record(client, path, entry(CID, 5, alone=True))  # lone march: Ann & Cid 8
    page = client.get(path).get_data(as_text=True)
    assert totals(page) == ["to 10", "8", "0"] and status(page).startswith("Deal 3. Cid deals, Dee leads.")
    response = record(client, path, entry(CID, 5), HTMX)  # a march: +2, 10
    html_ = response.get_data(as_text=True)
    assert status(html_) == "★ Ann & Cid win, 10 to 0."
    assert totals(html_) == ["to 10", "10", "0"] and '<td class="lead">10</td>' in html_
    assert 'id="entry"' not in html_
    # No deal can follow the win.
    refused = client.post(f"{path}/deals", data=entry(BOB, 3))
    assert refused.status_code == 422
    assert "The game ended after deal 3: no deal can follow it." in errors_in(refused.get_data(as_text=True))
    assert deal_count(app) == 3
    assert api(client, path)["winners"] == [ANN, CID]


def test_the_htmx_answer_is_only_the_live_region(client):
    path = start(client)
    response = record(client, path, entry(BOB, 4, trump="C", round=2), HTMX)
    html_ = response.get_data(as_text=True)
    assert html_.lstrip().startswith('<section id="live"') and "<html" not in html_
    assert "HX-Request" in response.headers["Vary"]
    assert status(html_) == "Deal 2. Bob deals, Cid leads. First pair to 10 points wins."
    assert 'id="entry"' in html_ and 'hx-target="#live"' in html_
    assert explanations(html_)[0] == "Clubs (named), made by Bob Bob made trump, 4 tricks: 1 for Bob & Dee"


def test_the_lone_players_sit_out_and_the_lead_passes_on(client):
    path = start(client)
    html_ = record(client, path, entry(DEE, 3, alone=True, defender=CID), HTMX).get_data(as_text=True)
    # Dee alone: Bob sits out; Cid defends alone: Ann sits out. Left of Ann is Bob (out), so Cid leads.
    why = explanations(html_)[0]
    assert why == (
        "Hearts, Dee alone, Cid defends alone "
        "Dee alone, Cid defending alone, 3 tricks: 1 for Bob & Dee "
        "Ann sits out. Bob sits out. Cid leads."
    )
    # The next deal starts as always: Bob deals, Cid (on his left) leads.
    assert status(html_) == "Deal 2. Bob deals, Cid leads. First pair to 10 points wins."


# -- refusals -------------------------------------------------------------------------------


def test_maker_and_lone_defender_in_one_pair_is_refused_next_to_the_field(app, client):
    path = start(client)
    bad = entry(ANN, 3, trump="S", round=2, defender=CID)
    for headers in ({}, HTMX):
        response = client.post(f"{path}/deals", data=bad, headers=headers)
        assert response.status_code == 422
        html_ = response.get_data(as_text=True)
        message = (
            "The maker and the lone defender are in different pairs: Cid is in the makers' pair "
            "(Ann & Cid). The lone defender is Bob or Dee, or nobody."
        )
        assert errors_in(html_) == [message]
        # The message sits in the lone defender's fieldset.
        fieldset = re.search(r"<legend>Lone defender</legend>(.*?)</fieldset>", html_, re.S).group(1)
        assert message in html.unescape(fieldset)
        # What was tapped is still selected.
        for name, value in bad.items():
            assert checked(html_, name, value), name
        assert not checked(html_, "defender_alone", "")
    assert deal_count(app) == 0


def test_two_lone_players_on_one_side_are_refused(app, client):
    path = start(client)
    response = client.post(f"{path}/deals", data=entry(ANN, 4, alone=True, defender=CID))
    assert response.status_code == 422
    assert errors_in(response.get_data(as_text=True)) == [
        "At most one player per side plays alone: Ann plays alone, so Cid sits out. "
        "The lone defender is Bob or Dee, or nobody."
    ]
    assert deal_count(app) == 0


@pytest.mark.parametrize("tricks", ["6", "-1", "lots"])
def test_tricks_out_of_range_are_refused(app, client, tricks):
    path = start(client)
    response = client.post(f"{path}/deals", data=entry(BOB, 3) | {"maker_tricks": tricks})
    assert response.status_code == 422
    html_ = response.get_data(as_text=True)
    assert errors_in(html_) == ["The makers' tricks are a whole number from 0 to 5: a deal has 5 tricks."]
    assert checked(html_, "maker", "1")
    assert deal_count(app) == 0


def test_an_empty_form_says_what_is_missing(app, client):
    path = start(client)
    response = client.post(f"{path}/deals", data={})
    assert response.status_code == 422
    assert errors_in(response.get_data(as_text=True)) == [
        "Choose trump.",
        "Choose the maker.",
        "Choose the makers' tricks.",
    ]
    assert deal_count(app) == 0


# -- options ---------------------------------------------------------------------------------


def test_stick_the_dealer_off_a_deal_is_thrown_in_with_one_tap(client):
    path = start(client, stick=False)
    page = client.get(path).get_data(as_text=True)
    assert re.search(
        r'<button type="submit" name="thrown_in" value="1"[^>]*>Thrown in: everyone passed</button>', page
    )
    # Chips tapped before the button are not facts of a thrown-in deal.
    html_ = record(client, path, entry(ANN, 3) | {"thrown_in": "1"}, HTMX).get_data(as_text=True)
    assert api(client, path)["deals"] == [{"thrown_in": True}]
    assert board(html_) == [("1", "Ann", "thrown in")]
    assert explanations(html_) == ["Thrown in: everyone passed, nobody scores"]
    assert totals(html_) == ["to 10", "0", "0"]
    # The deal passes on: Bob deals, Cid leads; the next deal is scored as usual.
    assert status(html_) == "Deal 2. Bob deals, Cid leads. First pair to 10 points wins."
    version = re.search(r'name="base_version" value="(\d+)"', html_).group(1)
    html_ = record(client, path, entry(CID, 3) | {"base_version": version}, HTMX).get_data(as_text=True)
    # The reply to a second deal, from the page drawn at the version before it, carries only its
    # row (and what else changed), out of band.
    assert (
        re.search(r'hx-swap-oob="afterend:#deal-0">\s*<tr id="deal-1"', html_) and 'id="deal-0"' not in html_
    )
    html_ = client.get(path).get_data(as_text=True)
    assert board(html_) == [("1", "Ann", "thrown in"), ("2", "Bob", "1 1", "0 0")]
    assert api(client, path)["totals"] == [1, 0, 1, 0]


def test_stick_the_dealer_on_refuses_a_thrown_in_deal(app, client):
    path = start(client)
    assert 'name="thrown_in"' not in client.get(path).get_data(as_text=True)
    for headers in ({}, HTMX):
        response = client.post(f"{path}/deals", data={"thrown_in": "1"}, headers=headers)
        assert response.status_code == 422
        assert errors_in(response.get_data(as_text=True)) == [
            "With stick the dealer on, the dealer may not pass, so a deal cannot be thrown in."
        ]
    assert deal_count(app) == 0


@pytest.mark.parametrize(("target", "finished"), [(5, True), (10, False)])
def test_option_target_ends_the_game_where_asked(client, target, finished):
    path = start(client, target=target)
    record(client, path, entry(CID, 5, alone=True))  # Ann & Cid 4
    record(client, path, entry(BOB, 2))  # Bob euchred: Ann & Cid 6
    page = client.get(path).get_data(as_text=True)
    assert totals(page) == [f"to {target}", "6", "0"]
    if finished:
        assert status(page) == "★ Ann & Cid win, 6 to 0." and 'id="entry"' not in page
    else:
        assert status(page) == "Deal 3. Cid deals, Dee leads. First pair to 10 points wins."


def test_option_target_any_number(client):
    path = start(client, target=3)
    record(client, path, entry(BOB, 5))  # a march: Bob & Dee 2
    page = client.get(path).get_data(as_text=True)
    assert "First pair to 3 points wins." in status(page)
    record(client, path, entry(DEE, 3))  # Bob & Dee 3
    assert status(client.get(path).get_data(as_text=True)) == "★ Bob & Dee win, 3 to 0."


@pytest.mark.parametrize(
    ("lone_four", "bob_dee", "reason"),
    [("march", 2, ""), ("euchre", 4, " (lone defender: any euchre counts 4)")],
)
def test_option_lone_defenders_four(client, lone_four, bob_dee, reason):
    path = start(client, lone_four=lone_four)
    html_ = record(client, path, entry(ANN, 2, defender=DEE), HTMX).get_data(as_text=True)
    assert totals(html_) == ["to 10", "0", str(bob_dee)]
    assert (
        f"Ann made trump, Dee defending alone, 2 tricks, euchred: {bob_dee} for Bob & Dee{reason}"
        in (explanations(html_)[0])
    )


@pytest.mark.parametrize(
    ("lone_euchred", "bob_dee", "reason"), [(2, 2, ""), (4, 4, " (lone maker euchred counts 4)")]
)
def test_option_lone_maker_euchred(client, lone_euchred, bob_dee, reason):
    path = start(client, lone_euchred=lone_euchred)
    html_ = record(client, path, entry(ANN, 2, alone=True), HTMX).get_data(as_text=True)
    assert totals(html_) == ["to 10", "0", str(bob_dee)]
    assert explanations(html_)[0].endswith(
        f"Ann alone, 2 tricks, euchred: {bob_dee} for Bob & Dee{reason} Cid sits out. Bob leads."
    )


def test_option_defending_alone_off_drops_the_lone_defender(client):
    path = start(client, defend_alone=False)
    page = client.get(path).get_data(as_text=True)
    assert "Lone defender" not in page and 'name="defender_alone"' not in page
    # Makers 0 without a lone defender: defenders 2 (with one it would have been 4).
    record(client, path, entry(ANN, 0) | {"defender_alone": "1"})
    assert api(client, path)["deals"] == [{"trump": "H", "maker": ANN, "alone": False, "maker_tricks": 0}]
    assert api(client, path)["totals"] == [0, 2, 0, 2]
    # With it on, the same deal with Bob alone is worth 4.
    other = start(client)
    record(client, other, entry(ANN, 0, defender=BOB))
    assert api(client, other)["totals"] == [0, 4, 0, 4]


# -- corrections and viewers --------------------------------------------------------------------


def test_correcting_a_deal_rescores_everything_after_it(app, client):
    path = start(client)
    record(client, path, entry(ANN, 3, trump="D", round=1))  # Ann & Cid 1
    record(client, path, entry(BOB, 5))  # Bob & Dee 2
    page = client.get(f"{path}/deals/0").get_data(as_text=True)
    assert "Correct this deal" in page
    assert checked(page, "trump", "D") and checked(page, "round", "1") and checked(page, "maker", "0")
    assert (
        checked(page, "alone", "0")
        and checked(page, "defender_alone", "")
        and checked(page, "maker_tricks", "3")
    )
    # A refused correction changes nothing.
    refused = client.post(f"{path}/deals/0", data=entry(ANN, 3, alone=True, defender=CID))
    assert (
        refused.status_code == 422
        and "At most one player per side" in errors_in(refused.get_data(as_text=True))[0]
    )
    # It was a lone march after all: Ann & Cid 4.
    response = client.post(f"{path}/deals/0", data=entry(ANN, 5, trump="D", round=1, alone=True))
    assert response.status_code == 303
    page = client.get(path).get_data(as_text=True)
    assert "Deal 1 corrected" in page
    assert board(page) == [("1", "Ann", "4 4", "0 0"), ("2", "Bob", "0 4", "2 2")]
    assert deal_count(app) == 2


def test_a_played_deal_corrected_to_thrown_in_and_back(client):
    path = start(client, stick=False)
    record(client, path, entry(ANN, 3))
    page = client.get(f"{path}/deals/0").get_data(as_text=True)
    assert "Save correction" in page and 'name="thrown_in"' in page
    assert client.post(f"{path}/deals/0", data={"thrown_in": "1"}).status_code == 303
    assert api(client, path)["deals"] == [{"thrown_in": True}] and api(client, path)["totals"] == [0, 0, 0, 0]
    # The thrown-in deal's form starts blank but for the defaults.
    page = client.get(f"{path}/deals/0").get_data(as_text=True)
    assert "Thrown in: everyone passed, nobody scores" in text(page)
    assert checked(page, "alone", "0") and not any(checked(page, "maker", str(s)) for s in range(4))
    assert client.post(f"{path}/deals/0", data=entry(DEE, 4)).status_code == 303
    assert api(client, path)["totals"] == [0, 1, 0, 1]


def test_without_the_edit_key_the_board_is_read_only(app, client):
    path = start(client, stick=False)
    record(client, path, entry(ANN, 5, alone=True))
    record(client, path, {"thrown_in": "1"})
    viewer = app.test_client()
    page = viewer.get(path).get_data(as_text=True)
    assert board(page) == [("1", "Ann", "4 4", "0 0"), ("2", "Bob", "thrown in")]
    assert "Ann alone, 5 tricks: 4 for Ann & Cid (lone maker took all 5 tricks)" in explanations(page)[0]
    assert status(page) == "Deal 3. Cid deals, Dee leads. First pair to 10 points wins."
    assert 'id="entry"' not in page and "only the scorer's device" in page
    assert viewer.post(f"{path}/deals", data=entry(BOB, 3)).status_code == 403
    assert viewer.post(f"{path}/deals/0", data={"thrown_in": "1"}).status_code == 403
    assert "Correct this deal" not in viewer.get(f"{path}/deals/0").get_data(as_text=True)
    assert len(api(client, path)["deals"]) == 2


def test_the_score_sheet_lists_every_deal(client):
    path = start(client, stick=False)
    record(client, path, entry(ANN, 5, trump="H", round=1, alone=True))
    record(client, path, {"thrown_in": "1"})
    sheet = text(client.get(f"{path}/sheet").get_data(as_text=True))
    assert "Hearts (turned up), Ann alone" in sheet and "Thrown in: everyone passed, nobody scores" in sheet
    assert "Stick the dealer: no" in sheet and "Points to win: 10" in sheet


def test_the_next_deal_form_starts_blank_after_an_htmx_entry(client):
    path = start(client)
    # The form that comes back with the updated board is for the next deal, not a copy of this one.
    html_ = record(client, path, entry(ANN, 3, trump="S", round=1, alone=True), HTMX).get_data(as_text=True)
    assert not checked(html_, "trump", "S") and not checked(html_, "round", "1")
    assert not checked(html_, "maker", "0") and not checked(html_, "maker_tricks", "3")
    assert checked(html_, "alone", "0") and checked(html_, "defender_alone", "")


def test_the_form_offers_the_makers_partner_as_the_lone_player(client):
    path = start(client)
    page = client.get(path).get_data(as_text=True)
    assert [checked(page, "alone", v) for v in "012"] == [True, False, False]
    assert "the partner alone" in page
    # Ann makes trump, her partner Cid plays alone and takes all 5: the record names Cid's seat.
    response = record(client, path, {**entry(ANN, 5, trump="C", round=2), "alone": "2"})
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert board(page) == [("1", "Ann", "4 4", "0 0")]
    assert api(client, path)["deals"][0]["alone"] == CID
    assert "Ann made trump, Cid alone, 5 tricks: 4 for Ann & Cid" in explanations(page)[0]
    # Correcting it shows the partner's chip; the maker alone stays ``true``.
    assert checked(client.get(f"{path}/deals/0").get_data(as_text=True), "alone", "2")
    assert client.post(f"{path}/deals/0", data=entry(ANN, 5, alone=True)).status_code == 303
    assert api(client, path)["deals"][0]["alone"] is True
    assert checked(client.get(f"{path}/deals/0").get_data(as_text=True), "alone", "1")


def test_the_turned_up_suit_is_optional_and_checked_against_a_named_trump(app, client):
    """euchre.md: "optionally, the turned-up suit: a round-2 trump must differ from it"."""
    path = start(client)
    page = client.get(path).get_data(as_text=True)
    # Offered in the form, "not noted" pre-selected: a typical deal taps nothing for it.
    assert re.findall(r'name="turned_up" type="radio" value="([^"]*)"', page) == ["S", "H", "D", "C", ""]
    assert checked(page, "turned_up", "") and "Turned-up suit, passed in round 1 (optional)" in text(page)
    # Not noted: no fact recorded.
    record(client, path, entry(ANN, 3, trump="S", round=2))
    # Hearts turned up and passed by all, clubs named: recorded, and scored as any deal.
    record(client, path, {**entry(BOB, 3, trump="C", round=2), "turned_up": "H"})
    deals = api(client, path)["deals"]
    assert "turned_up" not in deals[0] and deals[1]["turned_up"] == "H" and deals[1]["round"] == 2
    # Naming the suit everyone passed is refused, at the trump, with every chip kept.
    refused = client.post(f"{path}/deals", data={**entry(CID, 3, trump="H", round=2), "turned_up": "H"})
    assert refused.status_code == 422
    markup = refused.get_data(as_text=True)
    assert errors_in(markup) == ["A trump named in round 2 differs from the turned-up suit (Hearts)."]
    assert checked(markup, "turned_up", "H") and checked(markup, "trump", "H")
    assert deal_count(app) == 2
    # A correction shows the suit as noted.
    page = client.get(f"{path}/deals/1").get_data(as_text=True)
    assert checked(page, "turned_up", "H") and checked(page, "round", "2")
    page = client.get(f"{path}/deals/0").get_data(as_text=True)
    assert checked(page, "turned_up", "")
