"""Abracadabra's deal as the players report it, through the pages (issue 53): after the set-up the
form offers each player's tricks, his bid cards won and his bid-suit cards, and records the deal
with one tap; trick by trick stays on offer. Expected numbers: shared/rules/abracadabra.md's
worked example (Helen 55, David 50; Cid succeeds too: 27; Dee 0)."""

from __future__ import annotations

import re

from werkzeug.datastructures import MultiDict

from tests.rules.test_abracadabra_reported import EXAMPLE_4_TOLD
from tests.web.pages import checked, errors_in
from tests.web.test_abracadabra_pages import (
    FOUR,
    HX,
    deal_count,
    draft_of,
    record,
    setup_post,
    stage_of,
    start,
    text_of,
)


def told_post(facts: dict, stage: str = "setup") -> MultiDict:
    """The set-up stage as posted with "Score the deal": the set-up and the players' report."""
    data = setup_post(facts, stage=stage)
    data.setlist("step", ["score"])
    data.add("told", "1")
    for seat, count in enumerate(facts.get("tricks", [])):
        data.add(f"tricks_{seat}", "")
        if count is not None:
            data.add(f"tricks_{seat}", str(count))
    for seat, ranks in enumerate(facts.get("bid_won", [])):
        data.add(f"bid_won_{seat}", "")
        for rank in ranks:
            data.add(f"bid_won_{seat}", str(rank))
    for seat, count in enumerate(facts.get("suit_cards", [])):
        data.add(f"suit_cards_{seat}", "")
        if count is not None:
            data.add(f"suit_cards_{seat}", str(count))
    return data


def test_the_set_up_offers_the_report_and_records_the_worked_example(client, app):
    path = start(client, FOUR)
    page = client.get(path).get_data(as_text=True)
    assert stage_of(page) == "setup"
    # The report is the default after the deal; trick by trick is still offered below it.
    assert page.index('name="tricks_0"') < page.index("Score the deal") < page.index("abra-first-tap")
    assert 'name="bid_won_3"' in page and 'data-sum="13"' in page
    response = client.post(f"{path}/deals", data=told_post(EXAMPLE_4_TOLD))
    assert response.status_code == 303, errors_in(response.get_data(as_text=True))
    game = record(client, path)
    deal = game["deals"][0]
    assert deal["tricks"] == [7, 4, 2, 0] and deal["bid_won"] == [[5, 11], [4, 12], [1, 2], []]
    assert "trick_winners" not in deal
    assert game["totals"] == [55, 50, 27, 0]
    page = client.get(path).get_data(as_text=True)
    assert "Helen: success 20 + bid tricks 5+11 + tricks 7 + suit cards 6 x 2 = 55" in page
    assert draft_of(app, path) is None and stage_of(page) == "setup"


def test_a_half_told_deal_previews_what_is_still_to_enter(client, app):
    path = start(client, FOUR)
    half = dict(EXAMPLE_4_TOLD, tricks=[7, None, None, None], suit_cards=[None] * 4)
    shown = client.post(f"{path}/preview", data=told_post(half), headers=HX).get_data(as_text=True)
    assert "Still to enter:" in shown and "breaks a rule" not in shown
    assert "Choose David&#39;s tricks." in shown
    # Tricks that cannot add up break a rule: said in red, nothing recorded.
    wrong = dict(EXAMPLE_4_TOLD, tricks=[7, 4, 2, 1])
    shown = client.post(f"{path}/preview", data=told_post(wrong), headers=HX).get_data(as_text=True)
    assert "As entered, this breaks a rule:" in shown and "The tricks add up to 14; a deal has 13." in shown
    response = client.post(f"{path}/deals", data=told_post(wrong))
    assert response.status_code == 422
    html = response.get_data(as_text=True)
    assert "The tricks add up to 14; a deal has 13." in text_of(html)
    # What was typed is kept.
    assert checked(html, "tricks_3", "1") and checked(html, "bid_won_0", "11")
    assert deal_count(app) == 0


def test_a_bid_card_won_is_tapped_once_and_counts_as_laid(client):
    """One tap a bid card: under "laid" when its trick was lost, under "won" when won (it is laid
    too). Here only Dee's lost 6-7-8 are tapped as laid; every won card only as won."""
    path = start(client, FOUR)
    facts = dict(EXAMPLE_4_TOLD, bid_cards=[[], [], [], [6, 7, 8]])
    del facts["declarer"], facts["bid"]
    data = told_post(facts)
    response = client.post(f"{path}/deals", data=data)
    assert response.status_code == 303, errors_in(response.get_data(as_text=True))
    deal = record(client, path)["deals"][0]
    assert deal["bid_cards"] == [[5, 11], [4, 12], [1, 2], [6, 7, 8]]
    assert deal["declarer"] == 3 and deal["bid"] == 3  # followed from the cards
    assert record(client, path)["totals"] == [55, 50, 27, 0]


def test_a_reported_deal_is_corrected_in_its_own_form(client):
    path = start(client, FOUR)
    client.post(f"{path}/deals", data=told_post(EXAMPLE_4_TOLD))
    page = client.get(f"{path}/deals/0").get_data(as_text=True)
    assert stage_of(page) == "full" and 'name="told" value="1"' in page
    assert checked(page, "tricks_0", "7") and checked(page, "bid_won_1", "12")
    assert 'name="trick_1"' not in page
    # Helen exposed her pile after all: her 6 hearts count x 4: 55 + 12 = 67.
    fixed = dict(EXAMPLE_4_TOLD, piles_exposed=[True, False, False, False])
    data = told_post(fixed, stage="full")
    data.add("thrown_in", "")
    response = client.post(f"{path}/deals/0", data=data)
    assert response.status_code == 303, errors_in(response.get_data(as_text=True))
    assert record(client, path)["totals"] == [67, 50, 27, 0]


def test_the_last_trick_count_follows_without_script_too(client):
    path = start(client, FOUR)
    response = client.post(f"{path}/deals", data=told_post(dict(EXAMPLE_4_TOLD, tricks=[7, 4, 2, None])))
    assert response.status_code == 303, errors_in(response.get_data(as_text=True))
    assert record(client, path)["deals"][0]["tricks"] == [7, 4, 2, 0]


def test_anything_typed_in_the_report_is_refused_with_a_message_never_a_500(client, app):
    path = start(client, FOUR)
    for junk in ("x", "99", "-1", "5.5"):
        data = told_post(EXAMPLE_4_TOLD)
        data.add("bid_won_0", junk)
        data.add("tricks_1", junk)
        response = client.post(f"{path}/deals", data=data)
        assert response.status_code == 422, junk
        assert errors_in(response.get_data(as_text=True)), junk
        shown = client.post(f"{path}/preview", data=data, headers=HX)
        assert shown.status_code == 200 and "breaks a rule" in shown.get_data(as_text=True), junk
    assert deal_count(app) == 0


def test_kept_bid_suits_fold_to_one_line_and_are_still_posted(client):
    """Issue 53: the set-up's first screen is not spent on the optional suits once they are kept."""
    path = start(client, FOUR)
    client.post(f"{path}/deals", data=told_post(EXAMPLE_4_TOLD))
    page = client.get(path).get_data(as_text=True)
    fold = re.search(r'<details class="abra-fix abra-suits-kept">(.*?)</details>', page, re.S)
    assert fold and "Helen ♥" in text_of(fold.group(1)) and "Dee ♣" in text_of(fold.group(1))
    assert checked(fold.group(1), "suits_0", "H") and checked(fold.group(1), "suits_3", "C")
    # The first deal, nothing kept yet: drawn open as before.
    first = client.get(start(client, FOUR)).get_data(as_text=True)
    assert "abra-suits-kept" not in first and 'name="suits_0"' in first
