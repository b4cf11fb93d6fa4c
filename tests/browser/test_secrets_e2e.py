"""Secrets on a phone-sized Chromium: the game master enters the worked turn by taps and
resolves it; Hidden Secrets' allotments and a player's private report."""

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
    page.locator(f'#entry label.chip:has(input[name="{name}"][value="{value}"])').tap()


def enter_turn(page: Page, orders, guards) -> None:
    for seat, mine in enumerate(orders):
        for spy, target, secret in mine:
            tap(page, f"target_{seat}_{spy}", target)
            tap(page, f"secret_{seat}_{spy}", secret)  # shown once a player is tapped
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
    # A spy at home shows no secrets; tapping a player brings them.
    secrets = page.locator('#entry .sx-order:has(input[name="target_0_club"]) .sx-secrets')
    expect(secrets).to_be_hidden()
    tap(page, "target_0_club", B)
    expect(secrets).to_be_visible()
    enter_turn(page, WORKED, [3, 7, 5])
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
    expect(page.locator('#entry input[name="target_0_heart"]')).to_have_count(0)
    expect(page.locator('#entry input[name="target_0_diamond"]')).to_have_count(3)
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
    # Bob's private link, as the game master hands it out.
    page.goto(f"{game}/secrets/links")
    page.locator(".sx-links summary").nth(1).tap()
    expect(page.locator(".sx-links details[open] svg.sx-qr")).to_be_visible()
    link = page.locator(".sx-links details[open] .sx-url a").get_attribute("href")
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
