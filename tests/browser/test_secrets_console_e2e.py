"""Issue 27 on phone-sized Chromium: a whole Hidden Secrets game played from the players' own
phones (a browser context each, 360 px wide). The scorer hands out each private link from the
links page (one code at a time); each player enters his allotment, then each turn his own orders
by taps; the last one in resolves the turn and every other phone follows by itself. The final
scores every phone shows are the rules' own, and no page scrolls sideways."""

from __future__ import annotations

import contextlib
import os
import random
import re

import pytest
from playwright.sync_api import Page, expect

from scorekeeper.games import GAMES
from scorekeeper.games.secrets.rules import HIDDEN_SECRETS
from scorekeeper.rules.base import check_setup, play
from tests.browser.conftest import PHONE
from tests.browser.test_secrets_e2e import no_sideways_scroll, start
from tests.scenes import ROW, address, hidden_secrets

SHOTS = os.environ.get("SCREENSHOTS")
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
SPIES = ("club", "diamond", "heart", "spade")


def tap(page: Page, name: str, value) -> None:
    """Tap a chip until its choice is checked, as a player looks and taps again: the status above
    the form grows when another seat's orders come in, and a tap as it moves can land beside."""
    radio = page.locator(f'#entry input[name="{name}"][value="{value}"]')
    # From four players the form folds all but the next order (issue 41): one out of that order
    # is opened first, a tap on its line.
    for fold in ("details[data-sx-player]", "details[data-sx-item]"):
        line = page.locator(f'#entry {fold}:has(input[name="{name}"])')
        if line.count() and not line.evaluate("d => d.open"):
            line.locator("> summary").tap()
    for _ in range(3):
        page.locator(f'#entry label.chip:has(input[name="{name}"][value="{value}"])').tap()
        if radio.is_checked():
            return
    expect(radio).to_be_checked()


def enter_orders(page: Page, seat: int, n: int, orders, guard) -> None:
    """One seat's orders by taps on its own console: the keypad chip (one tap an order at every
    table size since issue 41); then the policeman's post."""
    for o in orders:
        tap(page, f"order_{seat}_{o['spy']}", f"{o['target']}-{o['secret']}")
    tap(page, f"guards_{seat}", guard)


def private_links(page: Page, game: str, n: int) -> list[str]:
    """Each seat's link, as the scorer shows them: one chosen seat's code on the screen at a time."""
    page.goto(f"{game}/secrets/links")
    expect(page.locator("svg.sx-qr")).to_have_count(0)
    links = []
    for seat in range(n):
        page.get_by_role("link", name=f"Show code {NAMES[seat]}").tap()
        expect(page.locator("#seat-link h2")).to_have_text(f"{NAMES[seat]}'s private link")
        expect(page.locator("svg.sx-qr")).to_have_count(1)
        links.append(page.locator("#seat-link .sx-url a").get_attribute("href"))
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/secrets-console-links-{n}.png", full_page=True)
    return links


@pytest.mark.parametrize("n", [3, 6])
def test_a_whole_hidden_secrets_game_played_from_each_players_phone(live_server, browser, phone: Page, n):
    rng = random.Random(n)
    scorer = phone
    start(scorer, live_server, NAMES[:n], hidden=True)
    expect(scorer.locator(".sx-allot-step")).to_contain_text("Before turn 1")
    game = scorer.url
    links = private_links(scorer, game, n)
    contexts = [browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True) for _ in range(n)]
    try:
        phones = [context.new_page() for context in contexts]
        values = [ROW[i:] + ROW[:i] for i in range(n)]
        for seat, page in enumerate(phones):
            page.set_default_timeout(20_000)
            page.goto(links[seat])
            expect(page.locator("h1")).to_have_text(f"{NAMES[seat]}'s private report")
            for letter, value in zip(HIDDEN_SECRETS, values[seat], strict=True):
                page.fill(f"#v_{letter}", str(value))
            page.get_by_role("button", name="Save my allotment").first.tap()
            expect(page.locator(".flash")).to_contain_text("Your allotment is saved.")
        kind = GAMES.get("secrets")
        _errors, setup = check_setup(kind, NAMES[:n], {"hidden": True, "values": values}, 0)
        turns: list[dict] = []
        while not play(kind, setup, turns).finished:
            number = len(turns) + 1
            turn = kind.random_deal(setup, play(kind, setup, turns).state, 0, rng)
            turn["orders"] = [sorted(mine, key=lambda o: SPIES.index(o["spy"])) for mine in turn["orders"]]
            for k, seat in enumerate(rng.sample(range(n), n)):
                page = phones[seat]
                # Each phone follows the game: the new turn's form comes by itself.
                expect(page.locator("#seat-orders h2")).to_have_text(f"Your orders for turn {number}")
                if number == 1 and k == 0:
                    for box in page.locator("#entry label.chip:visible").all()[:24]:
                        size = box.bounding_box()
                        assert size["width"] >= 44 and size["height"] >= 44
                enter_orders(page, seat, n, turn["orders"][seat], turn["guards"][seat])
                page.get_by_role("button", name="Send my orders").tap()
                if k < n - 1:
                    expect(page.locator(".sx-sent")).to_contain_text("Your orders are in")
                    expect(page.locator(".sx-orders-in")).to_contain_text(f"{n - k - 1} to come")
                    if SHOTS and number == 2 and k == 0:
                        page.screenshot(path=f"{SHOTS}/secrets-console-{n}.png", full_page=True)
                no_sideways_scroll(page)
            turns.append(turn)
        expected = play(kind, setup, turns)
        final = [f"{NAMES[row['seat']]} {row['total']}" for row in _standings(expected)]
        for seat, page in enumerate(phones):
            expect(page.locator(".sx-over")).to_have_text("The game is over: no more orders.")
            expect(page.locator("#entry")).to_have_count(0)
            shown = [
                " ".join(item.inner_text().replace("★", "").replace(".", " ").split()[1:])
                for item in page.locator(".sx-standings li").all()
            ]
            assert shown == final, (seat, shown, final)
            no_sideways_scroll(page)
        if SHOTS:
            phones[0].emulate_media(color_scheme="dark")
            phones[0].screenshot(path=f"{SHOTS}/secrets-console-end-{n}.png", full_page=True)
        scorer.goto(game)
        expect(scorer.locator(".sx-board tfoot tr").first.locator("td")).to_have_text(
            [str(t) for t in expected.totals]
        )
        no_sideways_scroll(scorer)
    finally:
        for context in contexts:
            context.close()


def _standings(result) -> list[dict]:
    """Highest total first, seat order among equals: as the standings list them."""
    order = sorted(range(len(result.totals)), key=lambda s: (-result.totals[s], s))
    return [{"seat": s, "total": result.totals[s]} for s in order]


def test_a_poll_drawn_before_the_players_own_send_never_lands_over_its_answer(live_server, phone: Page):
    """A console's poll on its way while the player sends his orders was drawn at the state before
    them: arriving after the send's answer, it swapped its older form over the newer one (out of
    band), and the region the send drew asks from the newer version (304) for good: a phone
    showed turn 5's form after the game was over (CI, 6 phones). The send cancels the poll on its
    way (static/app.js); here the poll is held until after the send's answer, then let through."""
    api = phone.request
    game, seats = hidden_secrets(live_server, NAMES[:3])
    game_id = game["id"]
    tokens = [s["token"] for s in seats]
    orders = [[{"spy": s, "target": (p + 1) % 3, "secret": "A"} for s in SPIES] for p in range(3)]

    def send(seat: int, guard: str = "J") -> None:
        put = api.put(
            f"{live_server}/api/games/{game_id}/orders/{seat}",
            data={"orders": orders[seat], "guard": guard},
            headers={"Authorization": f"Bearer {tokens[seat]}"},
        )
        assert put.status == 202, put.text()

    held: list = []

    def hold_first(route) -> None:
        if held:
            route.continue_()
        else:
            held.append(route)

    page = phone
    page.goto(address(live_server, seats[1]["link"]))
    expect(page.locator("#seat-orders h2")).to_have_text("Your orders for turn 1")
    enter_orders(page, 1, 3, orders[1], "J")
    page.route(re.compile(r"/p/1/[^/]+/live"), hold_first)
    for _ in range(300):
        if held:
            break
        page.wait_for_timeout(100)
    assert held, "the console never polled"
    # Bob's orders arrive from elsewhere (his other phone): the held poll is drawn now, at that state.
    send(1)
    drawn_before = held[0].fetch()
    assert "Your orders are in" in drawn_before.text()
    # The others' orders resolve turn 1; Bob taps Send on his turn 1 form: the answer is turn 2.
    send(0)
    send(2)
    page.get_by_role("button", name="Send my orders").tap()
    expect(page.locator("#seat-orders h2")).to_have_text("Your orders for turn 2")
    expect(page.locator(".conflict")).to_contain_text("That turn was resolved meanwhile")
    with contextlib.suppress(Exception):  # cancelled by the send: nobody is waiting for it
        held[0].fulfill(response=drawn_before)
    page.wait_for_timeout(1500)
    expect(page.locator("#seat-orders h2")).to_have_text("Your orders for turn 2")
    expect(page.locator(".sx-sent")).to_have_count(0)
    # And the console goes on following the game: Bob's turn 2 orders sent elsewhere show up.
    page.unroute(re.compile(r"/p/1/[^/]+/live"))
    send(1, guard="I")
    expect(page.locator(".sx-sent")).to_contain_text("Your orders are in", timeout=15_000)
