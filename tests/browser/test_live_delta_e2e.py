"""A viewer's page follows the scorer's deals from what changed (issue 40): its polls get the new
rows, the totals and the status out of band (X-Live-Since), and the page reads as a reload would."""

from __future__ import annotations

from playwright.sync_api import Page, Response, expect

from tests.browser.test_entry_e2e import start_secret_agent, tap_deal


def board_rows(page: Page) -> list[str]:
    return page.locator("#scoreboard tbody tr").evaluate_all("rows => rows.map(r => r.id)")


def test_a_viewer_follows_deals_from_what_changed(live_server, phone: Page, browser):
    start_secret_agent(phone, live_server)
    tap_deal(phone, [4, 3, 3, 3], "LORS")
    phone.get_by_role("button", name="Record deal").tap()
    expect(phone.locator(".status")).to_contain_text("Deal 2 of 4")
    game_url = phone.url.split("#")[0]

    viewer = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    answers: list[Response] = []
    viewer.on("response", lambda r: answers.append(r) if "/live?" in r.url and r.status == 200 else None)
    viewer.goto(game_url)
    expect(viewer.locator("#status")).to_contain_text("Deal 2 of 4")
    assert board_rows(viewer) == ["deal-0"]

    for deal, (tricks, cards) in enumerate([([13, 0, 0, 0], "SLOR"), ([3, 4, 3, 3], "LSOR")], start=3):
        tap_deal(phone, tricks, cards)
        phone.get_by_role("button", name="Record deal").tap()
        expect(phone.locator(".status")).to_contain_text(f"Deal {deal} of 4")
        expect(viewer.locator("#status")).to_contain_text(f"Deal {deal} of 4", timeout=15000)
        assert board_rows(viewer) == [f"deal-{k}" for k in range(deal - 1)]

    # Each change came as what changed, not the whole region again.
    assert answers and all(a.headers.get("x-live-delta") for a in answers), [a.headers for a in answers]
    # The page reads as the whole region drawn anew: rows, totals, status.
    shown = viewer.locator("#board").inner_text()
    etag = viewer.locator("section#live").get_attribute("data-etag")
    viewer.reload()
    expect(viewer.locator("#status")).to_contain_text("Deal 4 of 4")
    assert viewer.locator("#board").inner_text() == shown
    assert viewer.locator("section#live").get_attribute("data-etag") == etag
    viewer.context.close()
