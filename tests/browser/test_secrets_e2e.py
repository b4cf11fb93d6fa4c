"""Secrets on a phone-sized Chromium: the game master enters the worked turn by taps and
resolves it (one tap per order at every table size), sees the turn's points before
resolving it, repeats last turn's orders; Hidden Secrets' allotments and a player's private report."""

import os
import re

from playwright.sync_api import Page, expect

SHOTS = os.environ.get("SCREENSHOTS")

A, B, C = 0, 1, 2
WORKED = [
    [("club", B, 2), ("diamond", C, 9), ("heart", B, 7), ("spade", C, 5)],
    [("club", A, 3), ("diamond", C, 9), ("heart", A, 8), ("spade", C, 1)],
    [("club", A, 8), ("diamond", B, 2), ("heart", A, 1), ("spade", B, 4)],
]


def tap(page: Page, name: str, value) -> None:
    chip = page.locator(f'#entry label.chip:has(input[name="{name}"][value="{value}"])')
    # From four players the turn form folds all but the next order (issue 41): an order out of
    # that order is opened first, a tap on its line (and on its player's, if folded too).
    for fold in ("details[data-sx-player]", "details[data-sx-item]"):
        line = page.locator(f'#entry {fold}:has(input[name="{name}"])')
        if line.count() and not line.evaluate("d => d.open"):
            line.locator("> summary").tap()
    chip.tap()


def enter_turn(page: Page, orders, guards) -> None:
    """A tap per order (the other player's keypad), at every table size."""
    for seat, mine in enumerate(orders):
        for spy, target, secret in mine:
            tap(page, f"order_{seat}_{spy}", f"{target}-{secret}")
        tap(page, f"guards_{seat}", guards[seat])


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def start(page: Page, live_server: str, names, hidden=False, may_stay=False) -> None:
    page.goto(live_server + "/new/secrets")
    for seat, name in enumerate(names):
        page.fill(f"#players_{seat}", name)
    if hidden:
        page.locator("label.switch:has(#opt_hidden)").tap()
    if may_stay:
        page.locator("label.switch:has(#opt_spies_may_stay)").tap()
    page.get_by_role("button", name="Start the game").tap()


def test_the_game_master_resolves_the_worked_turn(live_server, phone: Page):
    page = phone
    start(page, live_server, ["Ann", "Bob", "Cid"])
    expect(page.locator(".status")).to_contain_text("Turn 1 of 5.")
    no_sideways_scroll(page)
    # Every spy must go (no "home"): one radio group per spy, whose radios say whose secret.
    club = page.get_by_role("radiogroup", name="Ann: Club")
    expect(club.get_by_role("radio")).to_have_count(18)
    expect(club.get_by_role("radio", name="Cid 9")).to_have_count(1)
    for box in page.locator("#entry label.chip").all()[:40]:
        size = box.bounding_box()
        assert size["width"] >= 44 and size["height"] >= 44
    enter_turn(page, WORKED, [3, 7, 5])
    expect(club.get_by_role("radio", name="Bob 2")).to_be_checked()
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/secrets-turn-form.png", full_page=True)
    page.get_by_role("button", name="Resolve turn 1").tap()
    expect(page.locator(".status")).to_contain_text("Turn 2 of 5.")
    expect(page.locator(".sx-board tfoot tr").first.locator("td")).to_have_text(["10", "11", "15"])
    report = page.locator("#turn-1")
    expect(report).to_contain_text("Spies captured: 3, clashed: 6, stole: 3, found nothing: 0")
    expect(report.locator(".sx-o.sx-captured")).to_have_count(3)
    expect(report.locator(".sx-o.sx-clash")).to_have_count(6)
    expect(report.locator(".sx-o.sx-stolen")).to_have_count(3)
    expect(report).to_contain_text("Spade → Bob · 4 stolen +4 for Cid")
    # Turn 2 offers Ann's free spies only.
    expect(page.locator('#entry input[name="order_0_heart"]')).to_have_count(0)
    expect(page.locator('#entry input[name="order_0_diamond"]')).to_have_count(18)
    no_sideways_scroll(page)
    if SHOTS:
        page.locator("#scoreboard").scroll_into_view_if_needed()
        page.screenshot(path=f"{SHOTS}/secrets-report.png", full_page=True)
    # A score explains itself.
    page.locator(".sx-board tbody tr").first.locator("td").nth(2).locator("summary").tap()
    expect(page.locator(".sx-board details[open] .why")).to_contain_text(
        "Cid: 1 x 10 (spies caught at secret 5) + 1 (secret 1 stolen from Ann)"
    )


def test_hidden_secrets_allotments_and_a_private_report(live_server, phone: Page):
    page = phone
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
    # Most spies stay at home below: the table plays that they may.
    start(page, live_server, names, hidden=True, may_stay=True)
    expect(page.locator(".sx-allot-step")).to_contain_text("Before turn 1")
    no_sideways_scroll(page)
    game = page.url
    # The game master types every allotment; the first try adds up to 44 and is refused.
    for seat in range(6):
        page.goto(f"{game}/secrets/allot/{seat}")
        page.fill("#v_A", "4")
        page.fill("#v_J", "40" if seat == 0 else "41")
        page.get_by_role("button", name="Save the allotment").tap()
        if seat == 0:
            expect(page.locator(".error")).to_have_text(
                "Ann: the ten values must add up to 45 (they add up to 44)."
            )
            page.fill("#v_J", "41")
            page.get_by_role("button", name="Save the allotment").tap()
        expect(page.locator(".flash")).to_contain_text("allotment is saved")
    expect(page.locator(".status")).to_contain_text("Turn 1 of 5.")
    # Bob steals Ann's J; Cid and Dee clash at Eve's J; every other spy stays home.
    orders = [[], [("club", A, "J")], [("club", 4, "J")], [("club", 4, "J")], [], []]
    enter_turn(page, orders, ["A"] * 6)
    page.get_by_role("button", name="Resolve turn 1").tap()
    expect(page.locator(".status")).to_contain_text("Turn 2 of 5.")
    expect(page.locator("#turn-1")).to_contain_text("+? for Bob (value hidden)")
    # Bob stole 41, but nobody else may know (addresses on the page may hold the digits: whole numbers only).
    assert not re.search(r"(?<![\w.:/-])41(?![\w-]|\.\d)", page.locator("main").inner_text())
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/secrets-hidden-game.png", full_page=True)
    # Bob's private link, as the game master hands it out: his code alone on the screen.
    page.goto(f"{game}/secrets/links")
    expect(page.locator("svg.sx-qr")).to_have_count(0)
    page.get_by_role("link", name="Show code Bob").tap()
    expect(page.locator("#seat-link svg.sx-qr")).to_be_visible()
    expect(page.locator("svg.sx-qr")).to_have_count(1)
    link = page.locator("#seat-link .sx-url a").get_attribute("href")
    assert re.search(r"/p/1/[\w-]{20,}$", link)
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/secrets-links.png", full_page=True)
    bob = page.context.browser.new_context(
        viewport={"width": 360, "height": 740}, is_mobile=True, has_touch=True
    )
    phone2 = bob.new_page()
    phone2.goto(link)
    expect(phone2.locator("h1")).to_have_text("Bob's private report")
    expect(phone2.locator(".sx-learned")).to_contain_text("Ann · J = 41")
    expect(phone2.locator("#turn-1")).to_contain_text("+41 for Bob")
    no_sideways_scroll(phone2)
    if SHOTS:
        phone2.screenshot(path=f"{SHOTS}/secrets-private-report.png", full_page=True)
    bob.close()


def test_the_turn_s_points_show_before_it_is_resolved_and_last_turn_s_orders_come_back(
    live_server, phone: Page
):
    page = phone
    start(page, live_server, ["Ann", "Bob", "Cid"])
    enter_turn(page, WORKED, [3, 7, 5])
    preview = page.locator("#preview")
    expect(preview).to_contain_text("If recorded:")
    expect(preview.locator(".pv-total")).to_have_text(["10", "11", "15"])
    preview.locator("summary").nth(2).tap()  # Cid's points explain themselves
    expect(preview.locator("details[open] .why")).to_contain_text("1 x 10 (spies caught at secret 5)")
    shown = preview.locator(".pv-total").all_inner_texts()
    expect(page.locator(".status")).to_contain_text("Turn 1 of 5.")  # nothing recorded
    page.get_by_role("button", name="Resolve turn 1").tap()
    expect(page.locator(".status")).to_contain_text("Turn 2 of 5.")
    assert page.locator(".sx-board tfoot tr").first.locator("td").all_inner_texts() == shown
    # Each policeman caught a spy: he may stay, and is shown where he was.
    for seat, guard in enumerate([3, 7, 5]):
        expect(page.locator(f'#entry input[name="guards_{seat}"][value="{guard}"]')).to_be_checked()
    # One tap brings back turn 1's orders of the spies still free; nothing is recorded.
    page.get_by_role("link", name="Same orders as turn 1").tap()
    expect(page.locator(".sx-repeated")).to_contain_text("Turn 1's orders are filled in")
    assert "same" not in page.url  # (htmx redrew the region; a reload starts afresh)
    expect(page.locator('#entry input[name="order_0_diamond"][value="2-9"]')).to_be_checked()
    expect(page.locator('#entry input[name="order_2_spade"][value="1-4"]')).to_be_checked()
    expect(page.locator('#entry input[name="guards_1"][value="7"]')).to_be_checked()
    expect(preview.locator(".pv-total")).to_have_text(["10", "11", "15"])  # all clash, or find nothing
    # A change: Ann's Club goes for Cid's 3 instead and steals it; Cid's Diamond, alone at
    # Bob's 2 now, steals it too.
    tap(page, "order_0_club", "2-3")
    expect(preview.locator(".pv-total")).to_have_text(["13", "11", "17"])
    page.get_by_role("button", name="Resolve turn 2").tap()
    expect(page.locator(".status")).to_contain_text("Turn 3 of 5.")
    expect(page.locator(".sx-board tfoot tr").first.locator("td")).to_have_text(["13", "11", "17"])
    no_sideways_scroll(page)


def test_four_players_give_an_order_in_one_tap_and_the_next_spy_opens(live_server, phone: Page):
    page = phone
    start(page, live_server, ["Ann", "Bob", "Cid", "Dee"])
    club = page.get_by_role("radiogroup", name="Ann: Club")
    expect(club.get_by_role("radio")).to_have_count(27)  # every spy must go: no "home"
    expect(page.get_by_role("radiogroup", name="Ann: Diamond")).to_be_hidden()
    tap(page, "order_0_club", f"{B}-4")
    expect(club).to_be_hidden()  # folded to a line that says what it holds
    expect(page.locator("#entry details[data-sx-item]").first).to_contain_text("Bob 4")
    expect(page.get_by_role("radiogroup", name="Ann: Diamond")).to_be_visible()
    no_sideways_scroll(page)
