"""No traps at the table (issue 53, item 5), on a 360x740 phone: a preview half-way through is
neutral, Secrets' policeman placed by the page moves with one tap, Hidden Secrets' allotment
counts toward 45 as it is typed, and nothing pinned hides what a swap scrolls to."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.test_taps_e2e import reset, start, taps


def chip(page: Page, name: str, value) -> None:
    page.locator(f'#entry label.chip:has(input[name="{name}"][value="{value}"])').tap()


def colour(page: Page, selector: str) -> str:
    return page.locator(selector).first.evaluate("e => getComputedStyle(e).color")


def test_a_half_entered_hand_previews_in_neutral_colour(live_server, phone: Page):
    page = phone
    start(page, live_server, "euchre", ["Ann", "Bob", "Cid", "Dee"])
    chip(page, "trump", "H")
    expect(page.locator("#preview")).to_contain_text("Still to enter:")
    expect(page.locator("#preview")).to_contain_text("Choose the maker.")
    error = page.evaluate("getComputedStyle(document.documentElement).getPropertyValue('--error').trim()")
    red = page.evaluate(
        "c => { const e = document.createElement('i'); e.style.color = c; document.body.append(e);"
        " const v = getComputedStyle(e).color; e.remove(); return v; }",
        error,
    )
    assert colour(page, "#preview .pv-title") != red and colour(page, "#preview .pv-missing li") != red
    chip(page, "maker", "0")
    chip(page, "maker_tricks", "3")
    expect(page.locator("#preview")).to_contain_text("If recorded:")


def test_a_policeman_placed_by_the_page_moves_with_one_tap(live_server, phone: Page):
    page = phone
    start(page, live_server, "secrets", ["Ann", "Bob", "Cid", "Dee"], first="Turn 1")
    # Turn 1: Ann's Club is caught by Bob's policeman at his 1; everybody else's spies go too.
    orders = {
        0: [("club", 1, 1), ("diamond", 2, 9), ("heart", 3, 9), ("spade", 2, 8)],
        1: [("club", 0, 9), ("diamond", 2, 7), ("heart", 3, 8), ("spade", 0, 8)],
        2: [("club", 0, 7), ("diamond", 1, 9), ("heart", 3, 7), ("spade", 1, 8)],
        3: [("club", 0, 6), ("diamond", 1, 7), ("heart", 2, 6), ("spade", 1, 6)],
    }
    guards = [2, 1, 3, 4]
    for seat in range(4):
        for spy, target, secret in orders[seat]:
            chip(page, f"order_{seat}_{spy}", f"{target}-{secret}")
        chip(page, f"guards_{seat}", guards[seat])
    page.get_by_role("button", name="Resolve turn 1").tap()
    expect(page.locator(".status")).to_contain_text("Turn 2")
    # Bob caught a spy: the page places him where he was, and his keypad is on screen.
    expect(page.locator('input[name="guards_1"][value="1"]')).to_be_checked()
    keypad = page.locator('#entry label.chip:has(input[name="guards_1"][value="5"])')
    expect(keypad).to_be_visible()
    reset(page)
    keypad.tap()
    expect(page.locator('input[name="guards_1"][value="5"]')).to_be_checked()
    assert taps(page) == 1  # 3 before issue 53: his player, his line, the secret


def test_the_allotment_counts_toward_45_as_it_is_typed(live_server, phone: Page):
    page = phone
    page.goto(live_server + "/new/secrets")
    for seat, name in enumerate(["Ann", "Bob", "Cid"]):
        page.fill(f"#players_{seat}", name)
    page.locator("label.switch:has(#opt_hidden)").tap()
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".sx-allot-step")).to_contain_text("Before turn 1")
    page.goto(page.url.split("?")[0].split("#")[0] + "/secrets/allot/0")
    total = page.locator("[data-allot-sum]")
    expect(total).to_have_text("Σ 0 of 45: 45 to go")
    page.fill("#v_A", "4")
    expect(total).to_have_text("Σ 4 of 45: 41 to go")
    page.fill("#v_J", "41")
    expect(total).to_have_text("Σ 45 of 45: ready to save")
    page.fill("#v_B", "2")
    expect(total).to_have_text("Σ 47: 2 over 45")


def test_the_totals_bar_hides_nothing_a_swap_scrolls_to(live_server, phone: Page):
    """Abracadabra in play: each tap's reply shows the entry's top, the deal line, under the bar."""
    page = phone
    start(page, live_server, "abracadabra", ["Ann", "Bob", "Cid", "Dee"])
    chip(page, "bid_cards_0", 5)
    page.locator('button.abra-first-tap[value="0"]').tap()
    for seat in (1, 2):
        page.locator(f'button.abra-tap[value="{seat}"]').tap()
    expect(page.locator(".abra-head")).to_contain_text("Who won trick 4?")
    page.wait_for_timeout(300)  # the swap's scroll
    bar = page.locator(".totals-bar").bounding_box()
    line = page.locator(".abra-deal").bounding_box()
    assert bar and line and line["y"] >= bar["y"] + bar["height"], (bar, line)
