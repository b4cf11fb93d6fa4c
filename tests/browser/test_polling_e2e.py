"""A followed page polls when the server says (issue 28): X-Poll-After after an answer,
Retry-After after a refusal, at once when shown again; the page's own seconds before any answer."""

from __future__ import annotations

import time

from playwright.sync_api import Page, Route, expect

from tests.browser.test_entry_e2e import start_secret_agent, tap_deal


def test_the_page_follows_x_poll_after_and_retry_after(live_server, phone: Page, browser):
    start_secret_agent(phone, live_server)
    tap_deal(phone, [4, 3, 3, 3], "LORS")
    phone.get_by_role("button", name="Record deal").tap()
    expect(phone.locator(".status")).to_contain_text("Deal 2 of 4")
    game_url = phone.url.split("#")[0]

    viewer = browser.new_context(viewport={"width": 360, "height": 740}).new_page()
    polls: list[float] = []
    answered: list[float] = []
    # What the server asks, answer by answer: a 1 s pace, then a refusal for 5 s, then 1 s again
    # (figures far apart, and from the page's own 3 s, so a busy machine cannot blur them).
    script = iter(["pace", "refuse", "pace", "pace", "pace", "pace", "pace", "pace"])

    def answer(route: Route) -> None:
        polls.append(time.monotonic())
        step = next(script, "pace")
        if step == "refuse":
            route.fulfill(status=503, headers={"Retry-After": "5", "X-Poll-After": "5"}, body="Busy")
        else:
            reply = route.fetch()
            headers = {**reply.headers, "x-poll-after": "1"}
            route.fulfill(response=reply, headers=headers)
        answered.append(time.monotonic())

    viewer.route("**/live?**", answer)
    viewer.goto(game_url)
    section = viewer.locator("section#live")
    assert "lang=en" in (section.get_attribute("hx-get") or "")
    assert section.get_attribute("data-poll") == "3"
    deadline = time.monotonic() + 20
    while len(polls) < 4 and time.monotonic() < deadline:
        viewer.wait_for_timeout(200)
    assert len(polls) >= 4, polls
    # From an answer handed to the page to its next poll: the time the server took to draw the
    # answer (route.fetch(), slow on a loaded machine) is no part of the wait the page keeps.
    gaps = [b - a for a, b in zip(answered, polls[1:], strict=False)]
    # After a paced answer about 1 s (not the page's 3 s); after the refusal about 5 s.
    assert 0.9 < gaps[0] < 2.5, gaps  # answer 1 said 1 s
    assert 4.9 < gaps[1] < 7.5, gaps  # answer 2 refused for 5 s
    assert 0.9 < gaps[2] < 2.5, gaps
    # Nothing of the refusal shows on the page: the board stays as it was.
    expect(viewer.locator(".board tfoot td")).to_have_count(4)
    viewer.context.close()


def test_a_hidden_page_asks_nothing_and_asks_at_once_when_shown(live_server, phone: Page):
    start_secret_agent(phone, live_server)
    tap_deal(phone, [4, 3, 3, 3], "LORS")
    phone.get_by_role("button", name="Record deal").tap()
    expect(phone.locator(".status")).to_contain_text("Deal 2 of 4")
    polls: list[float] = []
    phone.route("**/live?**", lambda route: (polls.append(time.monotonic()), route.continue_()))
    hide = """state => {
        Object.defineProperty(document, 'visibilityState', {value: state, configurable: true});
        document.dispatchEvent(new Event('visibilitychange'));
    }"""
    phone.evaluate(hide, "hidden")
    phone.wait_for_timeout(4000)  # more than the page's 3 s
    assert polls == []
    shown = time.monotonic()
    phone.evaluate(hide, "visible")
    phone.wait_for_timeout(2100)
    assert polls and polls[0] - shown < 2.0, polls  # at once, not after the page's 3 s
