import os
from playwright.sync_api import expect
from tests.browser.conftest import CHROMIUM, FLAGS, PHONE
OUT = "/tmp/abra/v"
def chip(page, name, value):
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').tap()
def snap(page, name, selector=None):
    if selector:
        page.locator(selector).first.scroll_into_view_if_needed()
        page.evaluate(f"document.querySelector('{selector}').scrollIntoView({{block:'start'}})")
    page.screenshot(path=f"{OUT}/{name}.png")
def test_shots(live_server, browser):
    os.makedirs(OUT, exist_ok=True)
    for scheme in ("light", "dark"):
        ctx = browser.new_context(viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True, color_scheme=scheme)
        page = ctx.new_page(); page.set_default_timeout(10000)
        page.goto(live_server + "/new/abracadabra")
        for seat, name in enumerate(["Helen", "David", "Cid", "Maximilian-Alexander"]):
            page.fill(f"#players_{seat}", name)
        page.get_by_role("button", name="Start the game").tap()
        chip(page, "trump", "D")
        for seat, suit in enumerate("HSDC"): chip(page, f"suits_{seat}", suit)
        chip(page, "declarer", "3"); chip(page, "bid", "3")
        for seat, ranks in enumerate([[5, 11], [4, 12], [1, 2], [6, 7, 8]]):
            for r in ranks: chip(page, f"bid_cards_{seat}", str(r))
        chip(page, "exposed", "7"); chip(page, "piles_exposed", "1")
        snap(page, f"{scheme}-a1", "#entry")
        snap(page, f"{scheme}-a2", "#entry fieldset:nth-of-type(3)")
        snap(page, f"{scheme}-a3", "#entry fieldset:nth-of-type(4)")
        snap(page, f"{scheme}-a4", "#entry fieldset:nth-of-type(5)")
        page.get_by_role("button", name="Start play").tap()
        expect(page.locator(".abra-head")).to_contain_text("Who won trick 1?")
        for t, s in enumerate([2, 2, 1, 1, 0], 1):
            expect(page.locator(".abra-head")).to_contain_text(f"Who won trick {t}?")
            page.locator(f'button.abra-tap[value="{s}"]').tap()
        expect(page.locator(".abra-head")).to_contain_text("Who won trick 6?")
        page.wait_for_timeout(300)
        page.screenshot(path=f"{OUT}/{scheme}-b1.png")
        snap(page, f"{scheme}-b2", ".abra-standings")
        page.locator(".abra-fix summary").tap()
        snap(page, f"{scheme}-b3", ".abra-fix")
        for t, s in enumerate([3, 0, 0, 0, 0, 0, 1, 1], 6):
            expect(page.locator(".abra-head")).to_contain_text(f"Who won trick {t}?")
            page.locator(f'button.abra-tap[value="{s}"]').tap()
        expect(page.locator(".abra-head")).to_contain_text("All 13")
        page.wait_for_timeout(300)
        page.screenshot(path=f"{OUT}/{scheme}-c1.png")
        snap(page, f"{scheme}-c2", ".abra-suits fieldset")
        chip(page, "suit_cards_0", "6"); chip(page, "suit_cards_1", "5"); chip(page, "suit_cards_2", "1"); chip(page, "suit_cards_3", "1")
        page.get_by_role("button", name="Score the deal").tap()
        expect(page.locator(".status")).to_contain_text("Deal 2")
        page.wait_for_timeout(300)
        page.screenshot(path=f"{OUT}/{scheme}-d1.png")
        snap(page, f"{scheme}-d2", ".abra-parts")
        page.goto(page.url.split("#")[0] + "/deals/0")
        snap(page, f"{scheme}-e1", "#entry fieldset:nth-of-type(7)")
        print(page.evaluate("document.documentElement.scrollWidth"))
        ctx.close()
