"""End to end on a phone-sized Chromium: set up, four deals, one correction, the totals."""

import os

from playwright.sync_api import Page, expect

SHOTS = os.environ.get("SCREENSHOTS")


def tap(page: Page, name: str, value: str) -> None:
    # The radio is drawn as a chip: tap its label, as a thumb would.
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').tap()


def enter_deal(page: Page, tricks, agents) -> None:
    for seat, (t, a) in enumerate(zip(tricks, agents, strict=True)):
        tap(page, f"tricks_{seat}", str(t))
        tap(page, f"agents_{seat}", a)


def totals(page: Page) -> list[str]:
    return page.locator(".board tfoot td").all_inner_texts()


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_whole_game_on_a_phone(live_server, phone: Page):
    page = phone
    page.goto(live_server + "/")
    no_sideways_scroll(page)
    page.get_by_role("link", name="New game").tap()
    page.get_by_role("link", name="Secret Agent").tap()
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        page.fill(f"#players_{seat}", name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".status")).to_contain_text("Deal 1 of 4. Ann deals.")
    no_sideways_scroll(page)

    # Deal 1 with a deliberate mistake: the fourth count follows from the first three
    # (app.js), then a card used twice is refused next to the field, and nothing is lost.
    tap(page, "tricks_0", "4")
    tap(page, "tricks_1", "3")
    tap(page, "tricks_2", "3")
    assert page.locator('input[name="tricks_3"][value="3"]').is_checked()
    for seat, card in enumerate("LLRS"):
        tap(page, f"agents_{seat}", card)
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator("#entry .error")).to_contain_text("Left is given to both Ann and Bob")
    assert page.locator('input[name="tricks_0"][value="4"]').is_checked()
    tap(page, "agents_1", "O")
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 2 of 4. Bob deals.")
    expect(page.locator(".board tfoot td")).to_have_text(["12", "9", "9", "9"])

    enter_deal(page, [13, 0, 0, 0], "SLOR")  # 169, 100, 130, 100
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 3 of 4")
    enter_deal(page, [4, 3, 3, 3], "LORS")
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 4 of 4")
    enter_deal(page, [4, 3, 3, 3], "LORS")
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Ann wins.")
    assert totals(page) == ["205", "127", "157", "127"]

    # A score explains itself.
    page.locator(".board tbody tr").nth(1).locator("td").nth(2).locator("summary").tap()
    expect(page.locator(".board details[open] .why")).to_have_text(
        "Cid: 10 (misère) x 13 (agent Ann, Opposite) = 130"
    )
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/game.png", full_page=True)

    # Fix deal 2: it was a flat deal after all; everything is rescored.
    page.locator(".board tbody tr").nth(1).locator("th a").tap()
    expect(page.get_by_role("heading", name="Correct this deal")).to_be_visible()
    enter_deal(page, [4, 3, 3, 3], "LORS")
    page.get_by_role("button", name="Save correction").tap()
    expect(page.locator(".flash")).to_contain_text("Deal 2 corrected")
    assert totals(page) == ["48", "36", "36", "36"]
    expect(page.locator(".status")).to_contain_text("Ann wins.")
    no_sideways_scroll(page)


def test_works_without_javascript(live_server, browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server + "/new/secret_agent")
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        page.fill(f"#players_{seat}", name)
    page.click("text=Start the game")
    for seat, (t, a) in enumerate(zip([4, 3, 3, 3], "LORS", strict=True)):
        page.check(f'input[name="tricks_{seat}"][value="{t}"]', force=True)
        page.check(f'input[name="agents_{seat}"][value="{a}"]', force=True)
    page.click("text=Record deal")
    expect(page.locator(".flash")).to_contain_text("Deal 1 recorded.")
    expect(page.locator(".board tfoot td")).to_have_text(["12", "9", "9", "9"])
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/nojs.png", full_page=True)
    context.close()
