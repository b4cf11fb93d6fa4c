"""Spades end to end on a phone-sized Chromium: bids, then tricks, for a few deals.

Cutthroat with five players (10 tricks a deal) and sandbags, then the partnership game
with a blind nil and a failed nil. The points follow shared/rules/spades.md, worked out
by hand in the comments.
"""

import os

from playwright.sync_api import Page, expect

from tests.browser.conftest import offline

SHOTS = os.environ.get("SCREENSHOTS")
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def tap(page: Page, name: str, value) -> None:
    # The radio is drawn as a chip: tap its label, as a thumb would.
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').tap()


def bids(page: Page, values) -> None:
    # The last bid shows the tricks beneath the bids (no "Bids done" tap), and the bids are kept
    # as the draft in the background: the board's pending row shows them.
    for seat, value in enumerate(values):
        tap(page, f"bids_{seat}", value)
    expect(page.locator("#entry fieldset.tricks legend")).to_contain_text("Tricks won")
    expect(page.get_by_role("button", name="Bids done: play the hand")).to_be_hidden()
    expect(page.locator(".board tr.sp-pending")).to_have_count(1)


def tricks(page: Page, values) -> None:
    # The last player's count follows from the others (app.js): tap one player less.
    for seat, value in enumerate(values[:-1]):
        tap(page, f"tricks_{seat}", value)
    assert page.locator(f'input[name="tricks_{len(values) - 1}"][value="{values[-1]}"]').is_checked()
    page.get_by_role("button", name="Record deal").tap()
    # The next deal's bids, the tricks out of sight until they are in.
    expect(page.locator(".board tr.sp-pending")).to_have_count(0)
    expect(page.locator("#entry .sp-bids legend")).to_contain_text("Bids for deal")
    expect(page.locator("#entry fieldset.tricks")).to_be_hidden()


def totals(page: Page) -> list[str]:
    return page.locator(".board tfoot tr:first-child td").all_inner_texts()


def bag_counts(page: Page) -> list[str]:
    return page.locator(".board tfoot tr.sp-bags td").all_inner_texts()


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def set_up(page: Page, live_server: str, names, pairs=False, sandbags=False) -> None:
    page.goto(live_server + "/new")
    page.get_by_role("link", name="Spades").tap()
    expect(page.locator("main form")).to_contain_text("Tricks per deal: 26 with 2 players, 18 with 3")
    for seat, name in enumerate(names):
        page.fill(f"#players_{seat}", name)
    if pairs:
        tap(page, "opt_mode", "partnership")
    if sandbags:
        page.locator("label.switch:has(#opt_sandbags)").tap()
        assert page.locator("#opt_sandbags").is_checked()
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/spades-setup.png", full_page=True)
    page.get_by_role("button", name="Start the game").tap()


def test_cutthroat_five_players_with_sandbags_on_a_phone(live_server, phone: Page):
    page = phone
    set_up(page, live_server, NAMES, sandbags=True)
    expect(page.locator(".status")).to_contain_text("Deal 1. Ann deals. Bob bids first.")
    expect(page.locator(".status")).to_contain_text("10 tricks per deal · game to 500")
    expect(page.locator(".board thead th")).to_have_text(["#", *NAMES])
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/spades-5-bids.png", full_page=True)

    # Deal 1: the bids go on the board while the hand is played.
    bids(page, [3, 2, 2, 1, 1])
    expect(page.locator(".board tr.sp-pending sup")).to_have_text(["3", "2", "2", "1", "1"])
    expect(page.locator(".sp-playing")).to_have_text("Bids are in: play the hand, then enter the tricks won.")
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/spades-5-tricks.png", full_page=True)
    # A reload keeps the bids: still the tricks step.
    page.reload()
    expect(page.locator("#entry .sp-tag-bid")).to_have_text(["bid 3", "bid 2", "bid 2", "bid 1", "bid 1"])
    # A miscount: Eve's chip moved to 2, the tricks add up to 11; refused, every chip kept.
    for seat, value in enumerate([3, 2, 3, 1]):
        tap(page, f"tricks_{seat}", value)
    tap(page, "tricks_4", 2)
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator("#entry .error")).to_have_text("The tricks add up to 11; a deal has 10.")
    assert page.locator('input[name="tricks_2"][value="3"]').is_checked()
    assert page.locator('input[name="tricks_4"][value="2"]').is_checked()
    # Ann 3 of 3: 30; Bob 2 of 2: 20; Cid 2 of 3: 21 (1 bag); Dee, Eve 1 of 1: 10.
    tap(page, "tricks_4", 1)
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 2. Bob deals. Cid bids first.")
    expect(page.locator(".board tfoot tr:first-child td")).to_have_text(["30", "20", "21", "10", "10"])
    assert bag_counts(page) == ["0", "0", "1", "0", "0"]

    # Deal 2: everyone bids 1; Cid wins 6: 10 + 5 = 15, bags 6. Totals 40, 30, 36, 20, 20.
    bids(page, [1, 1, 1, 1, 1])
    tricks(page, [1, 1, 6, 1, 1])
    assert totals(page) == ["40", "30", "36", "20", "20"]
    assert bag_counts(page) == ["0", "0", "6", "0", "0"]

    # Deal 3: Cid wins 5 of a bid of 1: 10 + 4 = 14, bags 10: -100 -> -86, bags 0; Dee 1 of 2: 11.
    bids(page, [1, 1, 1, 1, 1])
    tricks(page, [1, 1, 5, 2, 1])
    assert totals(page) == ["50", "40", "-50", "31", "30"]
    assert bag_counts(page) == ["0", "0", "0", "1", "0"]
    cid = page.locator(".board tbody tr").nth(2).locator("td").nth(2)
    expect(cid.locator(".sp-bagmark")).to_have_text("10 bags")
    cid.locator("summary").tap()
    expect(page.locator(".board details[open] .why")).to_have_text(
        "Cid: bid 1, won 5: 10 + 4 bags - 100 (10 bags) = -86 Bags held: 0."
    )
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/spades-5-board.png", full_page=True)


def test_partnership_with_nils_on_a_phone(live_server, phone: Page):
    page = phone
    set_up(page, live_server, NAMES[:4], pairs=True)
    expect(page.locator(".board thead th")).to_have_text(["#", "Ann & Cid", "Bob & Dee"])
    expect(page.locator(".status")).to_contain_text("13 tricks per deal")

    # Deal 1: Cid bids blind nil and takes nothing. Ann & Cid: 2 of 2: 20 + 200 = 220.
    # Bob & Dee: 4 + 5 = 9, 5 + 6 = 11 tricks: 90 + 2 bags = 92.
    bids(page, [2, 4, "blind", 5])
    expect(page.locator(".board tr.sp-pending sup")).to_have_text(["2+blind nil", "4+5"])
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/spades-pairs-tricks.png", full_page=True)
    tricks(page, [2, 5, 0, 6])
    assert totals(page) == ["220", "92"] and bag_counts(page) == ["0", "2"]

    # Deal 2: Dee's nil fails while Bob makes 4: 4 of 4 + 1 = 5 tricks: 40 + 1 bag - 100 = -59
    # (total 33, bags 3). Ann & Cid 4 + 4 = 8 of 8: 80 (total 300).
    bids(page, [4, 3, 4, 0])
    expect(page.locator(".board tr.sp-pending sup")).to_have_text(["4+4", "3+nil"])
    # Bob's bid was taken down wrong: on another phone (or after a reload) the tricks step shows
    # the bids as kept; "Change the bids" reopens them, tricks beneath. The others stay as bid.
    page.reload()
    expect(page.locator("#entry .sp-tag-bid")).to_have_text(["bid 4", "bid 3", "bid 4", "bid nil"])
    page.get_by_role("link", name="Change the bids").tap()
    expect(page.locator('input[name="bids_1"][value="3"]')).to_be_checked()
    expect(page.locator('input[name="bids_3"][value="0"]')).to_be_checked()
    expect(page.locator("#entry fieldset.tricks")).to_be_visible()
    tap(page, "bids_1", 4)  # kept again at once
    expect(page.locator(".board tr.sp-pending sup")).to_have_text(["4+4", "4+nil"])
    tricks(page, [4, 4, 4, 1])
    assert totals(page) == ["300", "33"] and bag_counts(page) == ["0", "3"]
    expect(page.locator(".board tbody tr").nth(1).locator(".sp-nil-failed")).to_have_text("nil")
    page.locator(".board tbody tr").nth(1).locator("td").nth(1).locator("summary").tap()
    expect(page.locator(".board details[open] .why")).to_have_text(
        "Bob & Dee: bid 4 + nil, won 4 + 1 = 5: 40 + 1 bag - 100 (Dee's nil failed) = -59 Bags held: 3."
    )
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/spades-pairs-board.png", full_page=True)


def test_bids_and_tricks_without_javascript(live_server, browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server + "/new/spades")
    for seat, name in enumerate(NAMES[:3]):
        page.fill(f"#players_{seat}", name)
    page.click("text=Start the game")
    for seat, value in enumerate([6, 6, 6]):
        page.check(f'input[name="bids_{seat}"][value="{value}"]', force=True)
    page.click("text=Bids done: play the hand")
    # A click waits for the next page to be committed, not drawn: the expectation waits for it.
    expect(page.locator(".board tr.sp-pending sup")).to_have_text(["6", "6", "6"])
    # 18 tricks with three players: Ann 6 of 7: 61; Bob 6 of 6: 60; Cid 6 of 5: set 0.
    for seat, value in enumerate([7, 6, 5]):
        page.check(f'input[name="tricks_{seat}"][value="{value}"]', force=True)
    page.click("text=Record deal")
    expect(page.locator(".flash")).to_contain_text("Deal 1 recorded.")
    expect(page.locator(".board tfoot tr:first-child td")).to_have_text(["61", "60", "0"])
    context.close()


def test_record_tapped_before_the_bids_are_kept_waits_for_them(live_server, phone: Page):
    """The bids' background save and Record go one after the other: Record is based on the
    version the save made, so nothing is refused as changed elsewhere, and the deal is recorded once."""
    page = phone
    set_up(page, live_server, NAMES[:3])
    for seat, value in enumerate([5, 6, 4]):
        tap(page, f"bids_{seat}", value)
    tap(page, "tricks_0", 5)  # no wait for the save: as fast as a thumb can go
    tap(page, "tricks_1", 6)
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 2. Bob deals.")
    expect(page.locator(".conflict")).to_have_count(0)
    # Ann 5 of 5: 50; Bob 6 of 6: 60; Cid 4 of 7: 40 + 3 bags = 43.
    assert totals(page) == ["50", "60", "43"]
    expect(page.locator(".board tr.sp-pending")).to_have_count(0)
    assert page.locator(".board tbody tr").count() == 1
    # Focus went to the next deal's first bid, ready for the next tap.
    assert page.evaluate("document.activeElement.name") == "bids_0"


def test_the_preview_equals_what_is_then_recorded(live_server, phone: Page):
    page = phone
    set_up(page, live_server, NAMES[:3])
    bids(page, [5, 6, 4])
    tap(page, "tricks_0", 5)
    tap(page, "tricks_1", 8)  # Cid's 5 follows: Bob 6 of 8: 62; Cid 4 of 5: 41
    preview = page.locator("#preview")
    expect(preview).to_contain_text("If recorded:")
    expect(preview.locator(".pv-total")).to_have_text(["50", "62", "41"])
    preview.locator("summary").nth(1).tap()
    expect(preview.locator(".why").nth(1)).to_have_text("bid 6, won 8: 60 + 2 bags = 62")
    shown = preview.locator(".pv-total").all_inner_texts()
    expect(page.locator(".status")).to_contain_text("Deal 1.")  # the preview saved nothing
    assert totals(page) == ["0", "0", "0"]
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 2")
    assert totals(page) == shown
    # The tricks step after a reload (bids from the draft) previews too; a broken deal shows the rule.
    bids(page, [1, 1, 1])
    page.reload()
    tap(page, "tricks_0", 10)
    tap(page, "tricks_1", 10)
    tap(page, "tricks_2", 0)
    expect(preview).to_contain_text("The tricks add up to 20; a deal has 18.")


def test_bids_and_tricks_entered_offline_are_saved_in_order_when_the_connection_returns(
    live_server, phone: Page
):
    page = phone
    set_up(page, live_server, NAMES[:3])
    expect(page.locator(".status")).to_contain_text("Deal 1. Ann deals.")
    offline(page.context, True)
    for seat, value in enumerate([5, 6, 4]):
        tap(page, f"bids_{seat}", value)
    # The background save of the bids failed: said, and the tricks are there all the same.
    expect(page.locator("#offline")).to_contain_text("No connection: go on entering.")
    tap(page, "tricks_0", 5)
    tap(page, "tricks_1", 6)
    assert page.locator('input[name="tricks_2"][value="7"]').is_checked()
    page.get_by_role("button", name="Record deal").tap()
    # Bids and tricks kept on the phone together (static/offline.js), the form ready for the next.
    expect(page.locator("#offline .offline-list li")).to_have_count(1)
    expect(page.locator("#offline")).to_contain_text("No connection: this deal is kept on this phone")
    offline(page.context, False)
    # The deal goes by itself (the bids' draft is not sent alone to race it): one deal.
    expect(page.locator(".status")).to_contain_text("Deal 2. Bob deals.")
    expect(page.locator(".conflict")).to_have_count(0)
    assert totals(page) == ["50", "60", "43"]
    assert page.locator(".board tbody tr").count() == 1
