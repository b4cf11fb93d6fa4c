"""Found walking the offline keeping as a hall's scorer would (360x740 Chromium, the connection
cut with Playwright): what the entry form and the waiting list say for deals kept on the phone."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.test_offline_table_e2e import api, controlled, new_tab, phone_context

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def spades_tap(page, name: str, value) -> None:
    chip = page.locator(f'#entry label.chip:has(input[name="{name}"][value="{value}"])')
    chip.evaluate("label => label.scrollIntoView({block: 'center'})")
    chip.tap()


def spades_deal(page, bids, tricks) -> None:
    for seat, value in enumerate(bids):
        spades_tap(page, f"bids_{seat}", value)
    expect(page.locator("#entry fieldset.tricks")).to_be_visible()
    for seat, value in enumerate(tricks[:-1]):  # (the last follows from the others)
        spades_tap(page, f"tricks_{seat}", value)
    page.get_by_role("button", name="Record deal").tap()


def test_spades_form_offline_names_the_deal_it_is_for_and_its_dealer(live_server, browser):
    """The form drawn for deal 2 (Bob deals) stays on screen while deals are kept: it named deal 2
    and Bob's dealer tag for deal 3 and 4 too, and the waiting list copied "Bids for deal 2" into
    every kept deal's words."""
    game = api(live_server, "/api/games", {"game": "spades", "players": NAMES, "options": {"mode": "partnership"}})
    context = phone_context(browser)
    page = new_tab(context)
    page.goto(f"{live_server}/g/{game['id']}?key={game['edit_key']}")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/deals")):
        spades_deal(page, [3, 4, 3, 3], [3, 4, 3, 3])
    expect(page.locator(".board tbody tr")).to_have_count(1)
    controlled(page)

    context.set_offline(True)
    spades_deal(page, [4, 3, 3, 3], [4, 3, 3, 3])
    spades_deal(page, [2, 4, 3, 4], [2, 4, 3, 4])
    waiting = page.locator("#offline .offline-list li")
    expect(waiting).to_have_count(2)
    expect(waiting.nth(0)).to_have_text(
        "Deal 2 (Bob deals): Bids for deal 2: Ann 4, Bob 3, Cid 3, Dee 3; Tricks won, deal 2: Ann 4, Bob 3, Cid 3, Dee 3"
    )
    expect(waiting.nth(1)).to_contain_text("Deal 3 (Cid deals): Bids for deal 3: Ann 2, Bob 4,")
    # The form is for deal 4, which Dee deals and Ann bids first.
    expect(page.locator("#entry .sp-bids legend")).to_have_text("Bids for deal 4")
    expect(page.locator("#entry .sp-bids .sp-tag")).to_have_count(1)
    expect(page.locator("#entry .sp-bids .seat").nth(3).locator(".sp-tag")).to_have_text("dealer")
    expect(page.locator("#entry .sp-bids .hint")).to_contain_text("Ann bids first.")
    expect(page.locator("#entry fieldset.tricks legend")).to_contain_text("Tricks won, deal 4")

    # Opened again offline, the page the phone kept is deal 2's: it too says deal 4.
    page.reload()
    expect(waiting).to_have_count(2)
    expect(page.locator("#entry .sp-bids legend")).to_have_text("Bids for deal 4")
    expect(page.locator("#entry .sp-bids .seat").nth(3).locator(".sp-tag")).to_have_text("dealer")

    context.set_offline(False)
    expect(page.locator(".board tbody tr")).to_have_count(3)
    expect(waiting).to_have_count(0)
    expect(page.locator("#entry .sp-bids legend")).to_have_text("Bids for deal 4")
    record = api(live_server, "/api/games/" + game["id"])
    assert [d["bids"] for d in record["deals"]] == [[3, 4, 3, 3], [4, 3, 3, 3], [2, 4, 3, 4]]
    assert page.problems == []
    context.close()
