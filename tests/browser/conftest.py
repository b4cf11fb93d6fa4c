"""A served app and a real Chromium (Debian's), driven by Playwright, at phone size."""

from __future__ import annotations

import os
import shutil
import threading

import pytest
from werkzeug.serving import make_server

from scorekeeper import create_app
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
    app = create_app(
        {
            "SECRET_KEY": "browser-test",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "AUTO_MIGRATE": False,
            # Clubs' slugs as the tests name them ("/c/lodge"), without the random tail.
            "CLUB_SLUG_TAIL": False,
        }
    )
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


@pytest.fixture
def phone(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=2, is_mobile=True, has_touch=True)
    page = context.new_page()
    page.set_default_timeout(10_000)
    yield page
    context.close()
