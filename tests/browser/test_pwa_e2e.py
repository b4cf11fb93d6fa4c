"""The installable app in Chromium: manifest, service worker, offline page, a deal saved after a cut."""

from __future__ import annotations

import struct
import time

from playwright.sync_api import expect

from tests.browser.conftest import offline, until
from tests.browser.test_table_e2e import enter, phone, record, start_game, violations


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_manifest_is_valid_and_the_service_worker_registers(live_server, browser):
    page = phone(browser)
    page.goto(live_server + "/")
    href = page.locator("link[rel=manifest]").get_attribute("href")
    answer = page.request.get(live_server + href)
    assert answer.ok and answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["name"] == "Scorekeeper" and manifest["short_name"]
    assert manifest["display"] == "standalone" and manifest["start_url"] == "/" and manifest["scope"] == "/"
    assert manifest["theme_color"].startswith("#") and manifest["background_color"].startswith("#")
    sizes = {}
    for icon in manifest["icons"]:
        got = page.request.get(live_server + icon["src"])
        assert got.ok and got.headers["content-type"].startswith(icon["type"])
        if icon["type"] == "image/png":
            width, height = png_size(got.body())
            assert icon["sizes"] == f"{width}x{height}"
            sizes.setdefault(icon.get("purpose", "any"), set()).add(width)
    # What Chromium asks of an installable app: PNGs of 192 and 512 px; a maskable one too.
    assert {192, 512} <= sizes["any"] and 512 in sizes["maskable"]
    assert any(icon["type"] == "image/svg+xml" for icon in manifest["icons"])

    script = page.evaluate("async () => (await navigator.serviceWorker.ready).active.scriptURL")
    assert script == live_server + "/sw.js"
    scope = page.evaluate("async () => (await navigator.serviceWorker.getRegistration()).scope")
    assert scope == live_server + "/"
    assert violations(page) == []

    # With the connection cut: a page seen before comes from the worker's copy; a page never
    # seen gets the offline page; static files come from its cache.
    page.reload()
    expect(page.locator(".brand")).to_be_visible()
    until(page, "() => navigator.serviceWorker.controller !== null")
    offline(page.context, True)
    page.goto(live_server + "/")
    expect(page.locator("a.button.primary")).to_be_visible()
    page.goto(live_server + "/clubs/new")
    expect(page.locator("h1")).to_have_text("No connection")
    assert page.evaluate("getComputedStyle(document.querySelector('.bar')).display") != "inline"  # styled
    offline(page.context, False)
    page.goto(live_server + "/clubs/new")
    expect(page.locator("h1")).not_to_have_text("No connection")


def test_a_deal_entered_offline_is_kept_and_recorded_once_when_the_connection_returns(live_server, browser):
    page = phone(browser)
    url = start_game(page, live_server)
    enter(page, [4, 3, 3, 3], "LORS")
    offline(page.context, True)
    page.get_by_role("button", name="Record deal").tap()
    # Kept on the phone (static/offline.js), listed in words; the form is ready for the next deal.
    expect(page.locator("#offline")).to_contain_text("No connection: this deal is kept on this phone")
    expect(page.locator("#offline .offline-list li")).to_have_text(
        [
            "Deal 1 (Ann deals): Tricks won: Ann 4, Bob 3, Cid 3, Dee 3; "
            "Assignment cards: Ann Left, Bob Opposite, Cid Right, Dee Self"
        ]
    )
    assert not page.locator('input[name="tricks_0"][value="4"]').is_checked()
    assert record(live_server, url)["deals"] == []
    time.sleep(1)
    offline(page.context, False)
    # Sent again by itself, with its own submission token; the page says so.
    expect(page.locator("#offline")).to_contain_text("The connection returned: every waiting deal is saved.")
    expect(page.locator(".status")).to_contain_text("Deal 2 of 4")
    assert len(record(live_server, url)["deals"]) == 1
    time.sleep(6)  # past the app's own retry check: nothing is sent twice
    assert len(record(live_server, url)["deals"]) == 1
    assert record(live_server, url)["deals"][0]["tricks"] == [4, 3, 3, 3]
    assert violations(page) == []


def test_a_preview_that_fails_offline_says_nothing_and_queues_no_save(live_server, browser):
    """The preview is not the form's save: its failure must not send the form when the connection
    returns (that would record a deal nobody tapped Record for)."""
    page = phone(browser)
    url = start_game(page, live_server)
    offline(page.context, True)
    page.evaluate(
        "document.addEventListener('htmx:sendError',"
        " e => { if (e.detail.elt.id === 'preview') { document.body.dataset.previewFailed = '1'; } })"
    )
    enter(page, [4, 3, 3, 3], "LORS")  # each change asks for the preview, after a pause
    expect(page.locator("body[data-preview-failed]")).to_have_count(1)
    expect(page.locator("#entry .send-error")).to_have_count(0)
    offline(page.context, False)
    # Only Record records, once.
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 2 of 4")
    expect(page.locator("#announce")).to_have_text("Deal 1 recorded. Ann leads with 12.")
    expect(page.get_by_text("(once)")).to_have_count(0)
    assert len(record(live_server, url)["deals"]) == 1
