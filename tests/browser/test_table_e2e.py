"""At the table, on phone-sized Chromium: no CSP violation, viewers follow live, flaky saves, two scorers."""

from __future__ import annotations

import json
import re
import threading
import urllib.request

import pytest
from playwright.sync_api import Browser, Page, expect
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.db import db
from tests.browser.conftest import PHONE

POLL = 1  # seconds between a followed page's questions (3 in the app): a quicker test


@pytest.fixture
def live_server(database_url):
    """The app served on a free loopback port, its pages following the game every second."""
    app = create_app(
        {
            "SECRET_KEY": "browser-test",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "AUTO_MIGRATE": False,
            "LIVE_POLL_SECONDS": POLL,
        }
    )
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


# Records every Content-Security-Policy violation the page reports (an init script runs
# outside the page's CSP, before any of the page's own scripts).
WATCH_CSP = """
window.__csp = [];
document.addEventListener("securitypolicyviolation", function (e) {
  window.__csp.push(e.violatedDirective + " " + (e.blockedURI || "inline") + " " + (e.sourceFile || ""));
});
"""


def phone(browser: Browser) -> Page:
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    context.add_init_script(WATCH_CSP)
    page = context.new_page()
    page.set_default_timeout(10_000)
    page.problems = []
    page.on("console", lambda m: m.type == "error" and page.problems.append(m.text))
    page.on("dialog", lambda d: (page.problems.append("dialog: " + d.message), d.dismiss()))
    return page


def violations(page: Page) -> list[str]:
    return page.evaluate("window.__csp || []") + [p for p in page.problems if "Content Security Policy" in p]


def tap(page: Page, name: str, value: str) -> None:
    page.locator(f'#entry label.chip:has(input[name="{name}"][value="{value}"])').tap()


def enter(page: Page, tricks, agents) -> None:
    for seat, (t, a) in enumerate(zip(tricks, agents, strict=True)):
        tap(page, f"tricks_{seat}", str(t))
        tap(page, f"agents_{seat}", a)


def start_game(page: Page, base: str, names=("Ann", "Bob", "Cid", "Dee")) -> str:
    page.goto(base + "/new/secret_agent")
    for seat, name in enumerate(names):
        page.fill(f"#players_{seat}", name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".status")).to_contain_text("Deal 1 of 4")
    return page.url


def record(base: str, path: str) -> dict:
    with urllib.request.urlopen(base + "/api/games/" + path.rsplit("/", 1)[1]) as answer:
        return json.load(answer)


def test_no_csp_violation_and_names_stay_text(live_server, browser):
    scorer = phone(browser)
    url = start_game(
        scorer, live_server, names=("<img src=x onerror=alert(1)>", "<script>alert(2)</script>", "Cid", "Dee")
    )
    enter(scorer, [4, 3, 3, 3], "LORS")
    scorer.get_by_role("button", name="Record deal").tap()
    expect(scorer.locator(".status")).to_contain_text("Deal 2 of 4")
    scorer.get_by_text("Follow on other phones").tap()
    expect(scorer.locator(".qr-box svg.qr").first).to_be_visible()
    assert scorer.evaluate("document.querySelectorAll('style, [style]').length") == 0  # no htmx inline style
    for extra in ("/handover", "/history", "/deals/0", "/sheet"):
        scorer.goto(url + extra)
        assert scorer.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], extra
    viewer = phone(browser)
    viewer.goto(url)
    viewer.wait_for_timeout(POLL * 1500)  # at least one poll
    expect(viewer.locator(".board thead")).to_contain_text("<script>alert(2)</script>")
    assert violations(scorer) == [] and violations(viewer) == []
    assert not [p for p in scorer.problems + viewer.problems if p.startswith("dialog")]


def test_viewers_follow_new_and_corrected_deals_without_reloading(live_server, browser):
    scorer = phone(browser)
    url = start_game(scorer, live_server)
    viewer = phone(browser)
    polls = []
    viewer.on("response", lambda r: "/live?" in r.url and polls.append(r.status))
    viewer.goto(url)
    expect(viewer.locator(".board tbody")).to_contain_text("No deal yet.")
    enter(scorer, [13, 0, 0, 0], "SLOR")
    scorer.get_by_role("button", name="Record deal").tap()
    expect(scorer.locator(".status")).to_contain_text("Deal 2 of 4")
    # Within a few seconds, without a reload, the viewer's board has the deal.
    expect(viewer.locator(".board tfoot td")).to_have_text(["169", "100", "130", "100"], timeout=8000)
    expect(viewer.locator(".status")).to_contain_text("Deal 2 of 4")
    viewer.wait_for_timeout(POLL * 2500)
    assert 304 in polls  # an unchanged game costs a 304
    # A correction too.
    scorer.locator(".board tbody tr").first.locator("th a").tap()
    expect(scorer.get_by_role("heading", name="Correct this deal")).to_be_visible()
    enter(scorer, [4, 3, 3, 3], "LORS")
    scorer.get_by_role("button", name="Save correction").tap()
    expect(scorer.locator(".flash")).to_contain_text("Deal 1 corrected")
    expect(viewer.locator(".board tfoot td")).to_have_text(["12", "9", "9", "9"], timeout=8000)
    assert viewer.evaluate("performance.getEntriesByType('navigation').length") == 1  # never reloaded


def test_a_failed_save_says_so_keeps_the_entry_and_a_retry_saves_once(live_server, browser):
    page = phone(browser)
    url = start_game(page, live_server)
    enter(page, [4, 3, 3, 3], "LORS")
    # No connection: the request never reaches the server.
    page.route("**/deals", lambda route: route.abort("internetdisconnected"))
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator("#entry .send-error")).to_contain_text("Not saved")
    assert page.locator('input[name="tricks_0"][value="4"]').is_checked()
    assert record(live_server, url)["deals"] == []
    page.unroute("**/deals")

    # Saved, but the answer is lost on the way back (the server restarted, the network dropped).
    def lose_the_answer(route):
        route.fetch()
        route.abort("connectionreset")

    page.route("**/deals", lose_the_answer)
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator("#entry .send-error")).to_contain_text("Not saved")
    assert page.locator('input[name="agents_3"][value="S"]').is_checked()
    assert len(record(live_server, url)["deals"]) == 1
    page.unroute("**/deals")
    # The retry carries the same submission token: recorded once, and said so.
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator("#live .flash")).to_contain_text("Deal 1 was recorded (once).")
    expect(page.locator(".status")).to_contain_text("Deal 2 of 4")
    assert len(record(live_server, url)["deals"]) == 1
    # A server error answer (a 5xx) is a failed save too.
    page.route("**/deals", lambda route: route.fulfill(status=502, body="Bad gateway"))
    enter(page, [4, 3, 3, 3], "LORS")
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator("#entry .send-error")).to_contain_text("502")
    assert len(record(live_server, url)["deals"]) == 1


def test_two_scorers_never_overwrite_each_other(live_server, browser):
    first = phone(browser)
    url = start_game(first, live_server)
    first.goto(url + "/handover")
    link = first.locator(".share-link code").text_content()
    second = phone(browser)
    second.goto(link)
    expect(second.locator("#entry")).to_be_visible()
    assert "key=" not in second.url  # the key went into the cookie, out of the address bar
    first.goto(url)
    # Both enter deal 1; the first to save wins.
    enter(first, [13, 0, 0, 0], "SLOR")
    enter(second, [4, 3, 3, 3], "LORS")
    first.get_by_role("button", name="Record deal").tap()
    expect(first.locator(".status")).to_contain_text("Deal 2 of 4")
    second.get_by_role("button", name="Record deal").tap()
    expect(second.locator(".conflict")).to_contain_text("changed on another device")
    expect(second.locator(".board tfoot td")).to_have_text(["169", "100", "130", "100"])
    assert second.locator('input[name="tricks_0"][value="4"]').is_checked()  # the entry is kept
    assert len(record(live_server, url)["deals"]) == 1
    # Checked against the board, it is saved as the next deal.
    second.get_by_role("button", name="Record deal").tap()
    expect(second.locator(".status")).to_contain_text("Deal 3 of 4")
    assert [d["tricks"] for d in record(live_server, url)["deals"]] == [[13, 0, 0, 0], [4, 3, 3, 3]]
    assert re.search(r"/g/[\w-]+", url)  # ids are URL-safe base64: "-" and "_" too
