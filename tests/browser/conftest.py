"""A served app and a real Chromium (Debian's), driven by Playwright, at phone size."""

from __future__ import annotations

import os
import shutil
import threading
import time

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app
from scorekeeper.db import db
from tests.conftest import emptied

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE = {"width": 360, "height": 740}
TV = {"width": 1920, "height": 1080}
# The test servers' settings (clubs' slugs as the tests name them, "/c/lodge", without the tail; the
# board every 2 s, not a TV's 10: an evening's tests waited for it up to 10 s at each step).
SERVED = {
    "SECRET_KEY": "browser-test",
    "AUTO_MIGRATE": False,
    "CLUB_SLUG_TAIL": False,
    "BOARD_REFRESH_SECONDS": 2,
}
# Every trusted touch counted in the page's storage: a tap as a person makes it (a click would
# count twice where a label passes it on to its radio).
COUNT_TAPS = """
document.addEventListener("touchstart", function (e) {
  if (e.isTrusted) { localStorage.taps = String(Number(localStorage.taps || 0) + 1); }
}, {capture: true, passive: true});
"""


def pytest_collection_modifyitems(config, items):
    reason = None
    if not shutil.which(CHROMIUM):
        reason = f"browser tests need Chromium at {CHROMIUM} (apt-get install -y chromium)"
    else:
        try:
            import playwright.sync_api  # noqa: F401
        except ImportError:
            reason = "browser tests need Playwright for Python (pip install -e '.[test]')"
    for item in items:
        if "browser" in str(item.fspath):
            item.add_marker(pytest.mark.browser)
            if reason:
                item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def live_server(database_url):
    """The app served on a free loopback port for the length of one test."""
    app = create_app({**SERVED, "SQLALCHEMY_DATABASE_URI": database_url})
    server = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_port}"
    server.shutdown()
    emptied(app)


@pytest.fixture(scope="session")
def chromium():
    """One Chromium per test process (a launch costs a second or two of a 2-core machine; each
    test still gets contexts of its own, as fresh as a new browser's: cookies, storage and
    service workers live in a context). Launched again if a test left it disconnected."""
    from playwright.sync_api import expect, sync_playwright

    # An expectation waits as long as an action does (the phone's default below): under CI's
    # parallel run on two cores, a page drawn after a write on PostgreSQL can take over the
    # default 5 s, and a wait that short failed two runs with nothing wrong in the app.
    expect.set_options(timeout=10_000)

    with sync_playwright() as p:
        held = {}

        def launched():
            if "browser" not in held or not held["browser"].is_connected():
                held["browser"] = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
            return held["browser"]

        yield launched
        if "browser" in held and held["browser"].is_connected():
            held["browser"].close()


@pytest.fixture
def browser(chromium):
    """The process's Chromium; every context a test opened is closed after it."""
    browser = chromium()
    yield browser
    for context in list(browser.contexts):
        context.close()


def phone_context(browser, **options):
    """A phone's own browser context: 360 px, touch, its pixels doubled; ``options`` as Playwright's
    ``new_context`` takes them (a ``locale``, a ``color_scheme``)."""
    return browser.new_context(
        viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True, **options
    )


@pytest.fixture
def phone(browser):
    context = phone_context(browser)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()


@pytest.fixture
def on_server(database_url):
    """``with on_server():`` an app context on the served database, for what a test sets up
    through the service rather than through pages (an event outside any club, a round started)."""
    app = create_app({**SERVED, "SQLALCHEMY_DATABASE_URI": database_url})
    yield app.app_context
    with app.app_context():
        db.engine.dispose()


def new_phone(browser, wait: int = 20_000, script: str = COUNT_TAPS):
    """A page in a phone's own context (360 px, touch) counting its taps; ``wait`` ms for each
    action and expectation (a poll is 3 s, and this box is shared and slow)."""
    context = phone_context(browser)
    context.add_init_script(script)
    page = context.new_page()
    page.set_default_timeout(wait)
    return page


def until(page, expression: str, timeout: float = 10.0) -> None:
    """Wait until ``expression`` (a function's source, evaluated in the page) is true. Polled by
    ``evaluate``, not ``wait_for_function``: Playwright polls a waited function by evaluating its
    text inside the page, which the pages' CSP (no 'unsafe-eval') refuses whenever the first try
    is not already true (a test failed so on a loaded machine)."""
    deadline = time.monotonic() + timeout
    while not page.evaluate(expression):
        assert time.monotonic() < deadline, f"not true within {timeout} s: {expression}"
        page.wait_for_timeout(100)


def _no_signal(route) -> None:
    route.abort("internetdisconnected")


def offline(context, cut: bool) -> None:
    """The phone's connection cut (``cut``) or back. Playwright's offline emulation covers the
    pages, but a request the phone's service worker makes may still reach the server: in CI, an
    allotment saved with the connection cut arrived at the server while the phone listed it as
    kept. So every request leaving the context fails too, as on a phone with no signal (in
    Chromium, the context's routes see the service worker's requests as well)."""
    context.set_offline(cut)
    if cut:
        context.route("**/*", _no_signal)
    else:
        context.unroute("**/*", _no_signal)


def taps(page) -> int:
    return int(page.evaluate("Number(localStorage.taps || 0)"))


def big_enough(locator) -> None:
    box = locator.bounding_box()
    assert box is not None and box["width"] >= 44 and box["height"] >= 44, (locator, box)


def no_sideways_scroll(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"], page.url


# A Euchre hand made by seats 0 and 2 (3 tricks: 1 point), the one the evenings' tables play.
MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}


def hand_played(page, base: str, table: dict, facts: dict = MADE_02) -> None:
    """A hand recorded at ``table`` (a round's table as the API lists it: its game and edit key)
    through the API, from ``page``'s browser context."""
    page.request.post(
        f"{base}/api/games/{table['game']}/deals",
        data=facts,
        headers={"Authorization": f"Bearer {table['edit_key']}"},
    )
