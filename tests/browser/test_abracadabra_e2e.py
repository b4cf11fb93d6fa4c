"""Abracadabra end to end on a phone-sized Chromium: set up a deal, tap every trick, score it.

Deal 1 is thrown in (all passed); deal 2 is entered trick by trick.

The deal is the rules file's worked example read for four players (see
tests/rules/test_abracadabra.py, EXAMPLE_4): Helen bids 5 and J, David 4 and
Q, Cid A and 2, the Declarer Dee 6, 7 and 8. Tricks 1-2 go to Cid, 3-4 to
David, 5-11 to Helen, 12-13 to David. Worked out by hand from the rules file:
three succeed (20 each); Helen 20 + (5 + 11) + 7 + 6 x 2 = 55, David
20 + (4 + 12) + 4 + 5 x 2 = 50, Cid 20 + (1 + 2) + 2 + 1 x 2 = 27, Dee 0.
"""

import os
import re

from playwright.sync_api import Page, expect

SHOTS = os.environ.get("SCREENSHOTS")
PLAYERS = ["Helen", "David", "Cid", "Dee"]
WINNERS = [2, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1]


def chip(page: Page, name: str, value: str) -> None:
    # A radio or checkbox drawn as a chip: tap its label, as a thumb would.
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').tap()


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def shot(page: Page, name: str) -> None:
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/abracadabra-{name}.png", full_page=True)


def tap_winner(page: Page, trick: int, seat: int) -> None:
    expect(page.locator(".abra-head")).to_contain_text(f"Who won trick {trick}?")
    page.locator(f'button.abra-tap[value="{seat}"]').tap()


def test_a_deal_trick_by_trick_on_a_phone(live_server, phone: Page):
    page = phone
    page.goto(live_server + "/new/abracadabra")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"#players_{seat}", name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".status")).to_contain_text("Deal 1 of 4. Helen deals.")
    expect(page.locator(".abra-head")).to_have_text("Deal 1")
    no_sideways_scroll(page)

    # Deal 1: all passed. The suits are known; the deal is recorded straight away.
    for seat, suit in enumerate("SHDC"):
        chip(page, f"suits_{seat}", suit)
    page.get_by_role("button", name="All passed: record a thrown-in deal").tap()
    # A thrown-in deal does not count toward the agreed four: one more deal is played.
    expect(page.locator(".status")).to_contain_text("Deal 2 of 5. David deals.")
    expect(page.locator(".abra-parts")).to_contain_text("All passed: the deal is thrown in")
    expect(page.locator(".abra-head")).to_have_text("Deal 2")
    # The bid suits are kept from the last deal (one tap each to change); trump is not.
    assert page.locator('input[name="suits_0"][value="S"]').is_checked()
    assert not page.locator('input[name="trump"]:checked').count()

    # The set-up, with one mistake: David lays as many bid cards as the Declarer. The kept suits
    # are folded to a line (issue 53): one tap opens them to change.
    chip(page, "trump", "D")
    page.locator("summary", has_text="Bid suits (optional)").tap()
    for seat, suit in enumerate("HSDC"):
        chip(page, f"suits_{seat}", suit)
    chip(page, "declarer", "3")
    chip(page, "bid", "3")
    for seat, ranks in enumerate([[5, 11], [4, 12, 13], [1, 2], [6, 7, 8]]):
        for rank in ranks:
            chip(page, f"bid_cards_{seat}", str(rank))
    shot(page, "1-setup")
    page.get_by_role("button", name="Start play").tap()
    expect(page.locator("#entry .error")).to_contain_text(
        "David lays 3 bid cards: every player but the Declarer lays fewer than the bid (3)."
    )
    assert page.locator('input[name="bid_cards_0"][value="11"]').is_checked()
    chip(page, "bid_cards_1", "13")  # untick the King
    page.get_by_role("button", name="Start play").tap()

    # Play: tap each trick's winner; one wrong tap is undone.
    expect(page.locator(".abra-bidby")).to_have_text("Trick 1 is bid by Cid.")
    no_sideways_scroll(page)
    for trick, seat in enumerate(WINNERS[:4], start=1):
        tap_winner(page, trick, seat)
    expect(page.locator(".abra-last")).to_contain_text("abracadabra: trick 4 is David's")
    tap_winner(page, 5, 1)  # wrong: Helen took trick 5
    expect(page.locator(".abra-last")).to_contain_text("Helen bid trick 5 and lost it.")
    page.get_by_role("button", name="Undo trick 5 (David)").tap()
    tap_winner(page, 5, 0)
    expect(page.locator(".abra-last")).to_contain_text("abracadabra: trick 5 is Helen's")
    expect(page.locator(".abra-standings tbody tr").first).to_contain_text("Helen")
    assert page.locator(".abra-standings tbody tr").first.locator("td").first.inner_text() == "1"
    no_sideways_scroll(page)
    shot(page, "2-play")
    for trick, seat in enumerate(WINNERS[5:], start=6):
        tap_winner(page, trick, seat)
    # The last tap was wrong after all: undo it from the suit-card stage and tap again.
    expect(page.locator(".abra-head")).to_have_text("All 13 tricks are in")
    page.get_by_role("button", name="Undo trick 13 (David)").tap()
    tap_winner(page, 13, 1)

    # After the last trick: the bid-suit cards, then the score.
    expect(page.locator(".abra-head")).to_have_text("All 13 tricks are in")
    chip(page, "suit_cards_0", "6")
    chip(page, "suit_cards_1", "5")
    chip(page, "suit_cards_2", "1")
    no_sideways_scroll(page)
    shot(page, "3-suits")
    page.get_by_role("button", name="Score the deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 3 of 5. Cid deals.")
    expect(page.locator(".board tfoot td")).to_have_text(["55", "50", "27", "0"])
    parts = page.locator(".abra-parts-table")
    expect(parts.locator("tbody tr").nth(0)).to_contain_text("Success")
    assert parts.locator("tbody tr").nth(0).locator("td").all_inner_texts() == ["20 ✓", "20 ✓", "20 ✓", "0"]
    assert parts.locator("tbody tr").nth(1).locator("td").all_inner_texts()[0] == "16\n5+11"
    assert parts.locator("tfoot td").all_inner_texts() == ["55", "50", "27", "0"]

    # A score explains itself.
    page.locator(".board tbody tr").nth(1).locator("td").first.locator("summary").tap()
    expect(page.locator(".board details[open] .why")).to_have_text(
        "Helen: success 20 + bid tricks 5+11 + tricks 7 + suit cards 6 x 2 = 55"
    )
    no_sideways_scroll(page)
    shot(page, "4-scored")


# -- the play in the page, the same without JavaScript, the preview (issue 14) -------------
def start_game(page: Page, base: str, players=PLAYERS) -> str:
    response = page.request.post(base + "/api/games", data={"game": "abracadabra", "players": players})
    assert response.status == 201, response.text()
    body = response.json()
    page.goto(f"{base}/g/{body['id']}?key={body['edit_key']}")
    expect(page.locator(".abra-head")).to_have_text("Deal 1")
    return f"{base}/g/{body['id']}"


def set_up_example(page: Page) -> None:
    """The worked example's set-up, the Declarer and bid left to follow from the bid cards."""
    chip(page, "trump", "D")
    for seat, suit in enumerate("HSDC"):
        chip(page, f"suits_{seat}", suit)
    for seat, ranks in enumerate([[5, 11], [4, 12], [1, 2], [6, 7, 8]]):
        for rank in ranks:
            chip(page, f"bid_cards_{seat}", str(rank))
    page.get_by_role("button", name="Start play").tap()
    expect(page.locator(".abra-deal")).to_contain_text("Dee declared 3")


def followers_line(browser, url: str) -> str:
    """What a phone following the game (no key) says about the deal under way."""
    context = browser.new_context(viewport={"width": 360, "height": 740})
    other = context.new_page()
    other.goto(url)
    line = other.locator(".abra-progress").inner_text()
    context.close()
    return line


def test_tricks_are_tapped_in_the_page_and_the_list_posted_once(live_server, phone: Page, browser):
    page = phone
    url = start_game(page, live_server)
    set_up_example(page)
    posts = []
    page.on("request", lambda r: posts.append(r.url) if r.method == "POST" else None)
    for trick, seat in enumerate(WINNERS[:5], start=1):
        tap_winner(page, trick, seat)
    # Each tap is drawn in the page: the next trick, who bid it, the counts, the cards, the list.
    expect(page.locator(".abra-head")).to_contain_text("Who won trick 6? 5 of 13 played")
    expect(page.locator(".abra-last")).to_have_text("★ abracadabra: trick 5 is Helen's")
    expect(page.locator(".abra-last")).to_have_class(re.compile("abra-magic"))
    expect(page.locator("button.abra-tap").nth(1)).to_contain_text("2 tricks")
    expect(page.locator(".abra-standings [data-abra-count]")).to_have_text(["1", "2", "2", "0"])
    expect(page.locator('.abra-card[data-seat="0"][data-trick="5"]')).to_have_class(re.compile("abra-won"))
    expect(page.locator('.abra-card[data-seat="3"][data-trick="6"]')).to_have_class(
        re.compile("abra-pending")
    )
    assert page.locator('input[name="trick_5"][value="0"]').is_checked()
    assert posts == []  # no round trip per trick
    # Another phone sees the draft as the server keeps it: no trick yet.
    assert "0 of 13 tricks entered" in followers_line(browser, url)

    # A wrong tap, undone in the page; a reload keeps the taps.
    tap_winner(page, 6, 1)
    expect(page.locator(".abra-last")).to_have_text("Dee bid trick 6 and lost it.")
    page.get_by_role("button", name="Undo trick 6 (David)").tap()
    expect(page.locator(".abra-head")).to_contain_text("Who won trick 6?")
    expect(page.locator("button.abra-undo")).to_have_text("Undo trick 5 (Helen)")
    page.reload()
    expect(page.locator(".abra-head")).to_contain_text("Who won trick 6? 5 of 13 played")
    assert page.locator('input[name="trick_5"][value="0"]').is_checked()
    expect(page.locator(".abra-tap.abra-owner")).to_have_count(1)  # trick 6: Dee's bid card
    assert posts == []

    # Going back to the set-up sends the taps first: the draft keeps its tricks through a change.
    # The post is held on its way (a slow connection, a loaded server): the set-up is not asked
    # for meanwhile (drawn before the taps landed, and the page's own navigation after the post
    # pulled the scorer back to it from the tricks: the boosted link's race, seen under load).
    held = []
    asked = []
    page.route("**/draft", lambda route: held.append(route))
    page.on("request", lambda r: asked.append(r.url) if "setup=1" in r.url else None)
    page.get_by_role("link", name="Change the set-up").tap()
    for _ in range(100):  # the post on its way (10 s at most on a loaded machine)
        if held:
            break
        page.wait_for_timeout(100)
    page.wait_for_timeout(500)  # what the tap asked for besides has been seen by now
    assert len(held) == 1 and asked == []
    expect(page.locator(".abra-head")).to_contain_text("Who won trick 6? 5 of 13 played")
    held[0].continue_()
    page.unroute("**/draft")
    expect(page.get_by_role("button", name="Save the set-up")).to_be_visible()
    page.get_by_role("link", name="Back to the tricks, unchanged").tap()
    expect(page.locator(".abra-head")).to_contain_text("Who won trick 6? 5 of 13 played")
    assert [p for p in posts if p.endswith("/draft")] == [url + "/draft"]
    posts.clear()

    # The last tap posts the list once, and the deal goes on to the bid-suit cards.
    for trick, seat in enumerate(WINNERS[5:], start=6):
        tap_winner(page, trick, seat)
    expect(page.locator(".abra-head")).to_have_text("All 13 tricks are in")
    assert [p for p in posts if p.endswith("/draft")] == [url + "/draft"]
    assert "13 of 13 tricks entered" in followers_line(browser, url)
    expect(page.locator(".abra-standings [data-abra-count]")).to_have_text(["7", "4", "2", "0"])

    # The preview of the last stage is what Score the deal records.
    for seat, count in enumerate([6, 5, 1]):  # Dee won no trick: her 0 follows
        chip(page, f"suit_cards_{seat}", str(count))
    expect(page.locator("#preview")).to_contain_text("If recorded:")
    expect(page.locator("#preview .pv-total")).to_have_text(["55", "50", "27", "0"])
    shown = page.locator("#preview .pv-total").all_inner_texts()
    page.locator("#preview summary").first.tap()
    expect(page.locator("#preview .why").first).to_have_text(
        "success 20 + bid tricks 5+11 + tricks 7 + suit cards 6 x 2 = 55"
    )
    no_sideways_scroll(page)
    page.get_by_role("button", name="Score the deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 2 of 4")
    expect(page.locator(".board tfoot td")).to_have_text(shown)


def test_without_javascript_a_tap_is_a_post_and_the_list_enters_the_rest(live_server, browser):
    context = browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True, java_script_enabled=False
    )
    page = context.new_page()
    page.set_default_timeout(10_000)
    start_game(page, live_server)
    set_up_example(page)
    for trick, seat in enumerate(WINNERS[:2], start=1):
        tap_winner(page, trick, seat)
    expect(page.locator(".abra-head")).to_contain_text("Who won trick 3? 2 of 13 played")
    page.reload()  # kept on the server, tap by tap
    expect(page.locator(".abra-last")).to_contain_text("abracadabra: trick 2 is Cid's")
    page.get_by_role("button", name="Undo trick 2 (Cid)").tap()
    expect(page.locator(".abra-head")).to_contain_text("Who won trick 2? 1 of 13 played")
    # The rest through the list of every trick: one form, a choice per trick.
    page.locator(".abra-fix summary").tap()
    for trick, seat in enumerate(WINNERS[1:], start=2):
        chip(page, f"trick_{trick}", str(seat))
    page.get_by_role("button", name="Save these trick winners").tap()
    expect(page.locator(".abra-head")).to_have_text("All 13 tricks are in")
    for seat, count in enumerate([6, 5, 1]):  # Dee won no trick: her 0 follows
        chip(page, f"suit_cards_{seat}", str(count))
    page.get_by_role("button", name="Check").tap()
    expect(page.locator("#preview .pv-total")).to_have_text(["55", "50", "27", "0"])
    page.get_by_role("button", name="Score the deal").tap()
    expect(page.locator(".board tfoot td")).to_have_text(["55", "50", "27", "0"])
    context.close()
