"""Euchre end to end on a phone-sized Chromium: set up, a refused deal, a thrown-in deal, a win.

Pairs: Ann & Cid (seats 1+3) against Bob & Dee (seats 2+4); the points follow
shared/rules/euchre.md and were worked out by hand.
"""

import os

from playwright.sync_api import Page, expect

SHOTS = os.environ.get("SCREENSHOTS")


def tap(page: Page, name: str, value: str) -> None:
    # The radio is drawn as a chip: tap its label, as a thumb would.
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').tap()


def enter_deal(page: Page, trump: str, maker: int, tricks: int, alone: bool = False, round_: int = 1) -> None:
    tap(page, "trump", trump)
    tap(page, "round", str(round_))
    tap(page, "maker", str(maker))
    tap(page, "alone", "1" if alone else "0")
    tap(page, "maker_tricks", str(tricks))
    page.get_by_role("button", name="Record deal").tap()


def totals(page: Page) -> list[str]:
    return page.locator(".board tfoot td").all_inner_texts()


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_euchre_game_to_a_win_on_a_phone(live_server, phone: Page):
    page = phone
    page.goto(live_server + "/new")
    page.get_by_role("link", name="Euchre").tap()
    expect(page.locator("main form")).to_contain_text("Partners sit opposite: players 1 and 3 play together")
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        page.fill(f"#players_{seat}", name)
    # The dealer may pass: a deal can be thrown in.
    page.locator("label.switch:has(#opt_stick_the_dealer)").tap()
    assert not page.locator("#opt_stick_the_dealer").is_checked()
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/euchre-setup.png", full_page=True)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".status")).to_contain_text("Deal 1. Ann deals, Bob leads.")
    expect(page.locator(".board thead th")).to_have_text(["#", "Dealer", "Ann & Cid", "Bob & Dee"])
    no_sideways_scroll(page)

    # Once a maker is tapped only the defenders are offered as lone defender (issue 41).
    tap(page, "maker", "1")
    expect(page.locator('label.chip:visible:has(input[name="defender_alone"])')).to_have_text(
        ["nobody", "Ann", "Cid"]
    )
    # Deal 1 with a mistake: Cid cannot defend alone against his own partner (tapped before
    # the maker changed to Ann). The message shows at the lone defender and every chip stays as tapped.
    tap(page, "trump", "H")
    tap(page, "round", "1")
    tap(page, "defender_alone", "2")
    tap(page, "maker", "0")
    tap(page, "maker_tricks", "5")
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator("#entry .error")).to_have_text(
        "The maker and the lone defender are in different pairs: Cid is in the makers' pair "
        "(Ann & Cid). The lone defender is Bob or Dee, or nobody."
    )
    assert page.locator('input[name="maker_tricks"][value="5"]').is_checked()
    assert page.locator('input[name="trump"][value="H"]').is_checked()
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/euchre-refused.png", full_page=True)
    # It was Ann who went alone: a lone march, 4 for Ann & Cid.
    tap(page, "defender_alone", "")
    tap(page, "alone", "1")
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 2. Bob deals, Cid leads.")
    expect(page.locator(".board tfoot td")).to_have_text(["to 10", "4", "0"])
    # The form is ready for the next deal: nothing tapped but the defaults.
    assert not page.locator('input[name="maker"][value="0"]').is_checked()
    assert page.locator('input[name="alone"][value="0"]').is_checked()

    # Deal 2: everyone passed, one tap; nobody scores and the deal passes on.
    page.get_by_role("button", name="Thrown in: everyone passed").tap()
    expect(page.locator(".status")).to_contain_text("Deal 3. Cid deals, Dee leads.")
    expect(page.locator(".board tbody tr").nth(1)).to_contain_text("thrown in")
    assert totals(page) == ["to 10", "4", "0"]

    # Deal 3: hearts turned up, everyone passed; Bob names spades and is euchred with 2 tricks:
    # 2 for Ann & Cid. The turned-up suit is asked only once the trump is a named one (round 2).
    turned = page.get_by_text("Turned-up suit, passed in round 1 (optional)")
    expect(turned).to_be_hidden()
    tap(page, "round", "2")
    expect(turned).to_be_visible()
    tap(page, "turned_up", "H")
    tap(page, "round", "1")
    expect(turned).to_be_visible()  # a suit noted stays in sight, whatever the round
    tap(page, "turned_up", "")
    expect(turned).to_be_hidden()
    tap(page, "round", "2")
    tap(page, "turned_up", "H")
    no_sideways_scroll(page)
    enter_deal(page, "S", maker=1, tricks=2, round_=2)
    expect(page.locator(".status")).to_contain_text("Deal 4. Dee deals, Ann leads.")
    expect(page.locator(".board tfoot td")).to_have_text(["to 10", "6", "0"])
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/euchre-game.png", full_page=True)
        page.emulate_media(color_scheme="dark")
        page.screenshot(path=f"{SHOTS}/euchre-game-dark.png", full_page=True)
        page.emulate_media(color_scheme="light")

    # Deal 4: Dee makes 3: 1 for Bob & Dee.
    enter_deal(page, "C", maker=3, tricks=3)
    expect(page.locator(".board tfoot td")).to_have_text(["to 10", "6", "1"])

    # Deal 5: Cid alone takes all 5: 4 more, 10, and Ann & Cid win.
    enter_deal(page, "D", maker=2, tricks=5, alone=True)
    expect(page.locator(".status")).to_have_text("★ Ann & Cid win, 10 to 1.")
    expect(page.locator("#entry")).to_have_count(0)
    assert totals(page) == ["to 10", "10", "1"]

    # A deal's points explain themselves.
    page.locator(".board tbody tr").nth(0).locator("td").nth(1).locator("summary").tap()
    expect(page.locator(".board details[open] .why")).to_contain_text(
        "Ann alone, 5 tricks: 4 for Ann & Cid (lone maker took all 5 tricks)"
    )
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/euchre-won.png", full_page=True)
        page.emulate_media(color_scheme="dark")
        page.screenshot(path=f"{SHOTS}/euchre-won-dark.png", full_page=True)


def test_a_euchre_deal_without_javascript(live_server, browser):
    context = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server + "/new/euchre")
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        page.fill(f"#players_{seat}", name)
    page.uncheck("#opt_stick_the_dealer")
    page.click("text=Start the game")
    page.click("text=Thrown in: everyone passed")
    expect(page.locator(".flash")).to_contain_text("Deal 1 recorded.")
    for name, value in (("trump", "S"), ("maker", "1"), ("maker_tricks", "5")):
        page.check(f'input[name="{name}"][value="{value}"]', force=True)
    page.click("text=Record deal")
    expect(page.locator(".flash")).to_contain_text("Deal 2 recorded.")
    expect(page.locator(".board tfoot td")).to_have_text(["to 10", "0", "2"])
    expect(page.locator(".status")).to_contain_text("Deal 3. Cid deals, Dee leads.")
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/euchre-nojs.png", full_page=True)
    context.close()
