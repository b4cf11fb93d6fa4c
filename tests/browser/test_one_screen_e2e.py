"""A hand fits one screen at 360x740 (issue 53, item 3): for every game's usual deal, the last
fact tapped and *Record deal* are both in view without a scroll, with the totals in sight; at an
event's table too. Each entry is photographed to /tmp/shots (the issue's closing note)."""

from __future__ import annotations

import os

from playwright.sync_api import Browser, Page, expect

from scorekeeper.events import service as events
from tests.browser.conftest import PHONE, phone_context
from tests.scenes import abracadabra_reported, address, euchre_evening, hidden_secrets

SHOTS = os.environ.get("SHOTS_DIR", "/tmp/shots")


def chip(page: Page, name: str, value) -> None:
    page.locator(f'#entry label.chip:has(input[name="{name}"][value="{value}"])').tap()


def start(page: Page, base: str, kind: str, players, **options) -> None:
    page.goto(f"{base}/new/{kind}")
    for seat, name in enumerate(players):
        page.fill(f"#players_{seat}", name)
    for name, value in options.items():
        page.locator(f'label.chip:has(input[name="opt_{name}"][value="{value}"])').tap()
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#entry")).to_be_visible()


def in_view(page: Page, locator) -> dict:
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not drawn"
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (locator, box)
    return box


def one_screen(page: Page, last, name: str, button: str = "Record deal") -> None:
    """The last fact tapped, the button and the totals bar all within the 740 px screen, as the
    page stands after the tap (no scroll of our own); photographed."""
    record = page.get_by_role("button", name=button)
    expect(record).to_be_visible()
    os.makedirs(SHOTS, exist_ok=True)
    page.screenshot(path=f"{SHOTS}/{name}.png")
    fact = in_view(page, last)
    button = in_view(page, record)
    # Nothing pinned hides the fact just tapped: neither Record below nor the totals above.
    assert fact["y"] + fact["height"] <= button["y"] or fact["y"] >= button["y"] + button["height"], (
        fact,
        button,
    )
    totals = page.locator(".totals-bar")
    if totals.count():
        bar = in_view(page, totals.first)
        assert fact["y"] >= bar["y"] + bar["height"], (fact, bar)
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def last_chip(page: Page, name: str, value):
    return page.locator(f'#entry label.chip:has(input[name="{name}"][value="{value}"])')


def played(page: Page, k: int) -> None:
    expect(page.locator(".board tbody tr[id^=deal-]")).to_have_count(k)


def recorded_in_view(page: Page, last, name: str, k: int) -> None:
    """Hand ``k`` (from 0) in one screen, then recorded: the board has k + 1 deals."""
    one_screen(page, last, f"{name}-{k + 1}")
    page.get_by_role("button", name="Record deal").tap()
    played(page, k + 1)


def chips(page: Page, taps) -> None:
    for name, value in taps:
        chip(page, name, value)


def test_euchre_hand_fits_one_screen(live_server, phone: Page):
    page = phone
    start(page, live_server, "euchre", ["Ann", "Bob", "Cid", "Dee"])
    for k in range(2):  # the first hand, and one with a board above it
        chips(page, [("trump", "H"), ("maker", "0"), ("maker_tricks", "3")])
        recorded_in_view(page, last_chip(page, "maker_tricks", "3"), "euchre", k)


def test_spades_hand_fits_one_screen(live_server, phone: Page):
    page = phone
    start(page, live_server, "spades", ["Ann", "Bob", "Cid", "Dee"])
    for k in range(2):
        chips(page, [(f"bids_{seat}", bid) for seat, bid in enumerate([4, 3, 3, 2])])
        expect(page.locator("#entry fieldset.tricks")).to_be_visible()
        chips(page, [(f"tricks_{seat}", t) for seat, t in enumerate([4, 3, 3])])
        recorded_in_view(page, last_chip(page, "tricks_2", 3), "spades", k)


def test_secret_agent_deal_fits_one_screen(live_server, phone: Page):
    page = phone
    start(page, live_server, "secret_agent", ["Ann", "Bob", "Cid", "Dee"])
    for k in range(2):
        chips(page, [(f"tricks_{seat}", t) for seat, t in enumerate([4, 3, 3])])
        chips(page, [(f"agents_{seat}", card) for seat, card in enumerate("LOR")])
        recorded_in_view(page, last_chip(page, "agents_2", "R"), "secret_agent", k)


def test_tally_deal_fits_one_screen(live_server, phone: Page):
    page = phone
    start(page, live_server, "tally", ["Ann", "Bob", "Cid", "Dee"])
    for k in range(2):
        for seat, value in enumerate(["15", "", "5", "7"]):
            if value:
                page.locator(f"#points_{seat}").tap()
                page.keyboard.type(value)
        recorded_in_view(page, page.locator("#points_3"), "tally", k)


def test_an_event_tables_hand_fits_one_screen(live_server, browser: Browser, on_server):
    with on_server():
        event, key = events.create_event(
            euchre_evening(
                ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"],
                "Thursday progressive",
                hands=4,
                minutes=10,
            )
        )
        event_id = event.id
    context = phone_context(browser)
    director = context.new_page()
    director.goto(f"{live_server}/e/{event_id}/direct?key={key}")
    director.get_by_role("button", name="Start round 1").tap()
    tables = director.locator(".ev-tables li")
    tables.first.locator("summary", has_text="Scorer link and QR").tap()
    href = tables.first.locator("a[href*='key=']").get_attribute("href")
    page = context.new_page()
    page.goto(href)
    for k in range(2):
        chips(page, [("trump", "S"), ("maker", "1"), ("maker_tricks", "4")])
        recorded_in_view(page, last_chip(page, "maker_tricks", "4"), "event_table", k)
    context.close()


def test_abracadabra_as_reported_ends_with_score_in_view(live_server, phone: Page):
    page = phone
    start(page, live_server, "abracadabra", ["Helen", "David", "Cid", "Dee"])
    abracadabra_reported(lambda name, value: chip(page, name, value))
    one_screen(page, last_chip(page, "suit_cards_3", 0), "abracadabra-1", button="Score the deal")
    page.get_by_role("button", name="Score the deal").tap()
    played(page, 1)


def test_secrets_turn_ends_with_resolve_in_view(live_server, phone: Page):
    page = phone
    start(page, live_server, "secrets", ["Ann", "Bob", "Cid"])
    orders = [
        [("club", 1, 2), ("diamond", 2, 9), ("heart", 1, 7), ("spade", 2, 5)],
        [("club", 0, 3), ("diamond", 2, 9), ("heart", 0, 8), ("spade", 2, 1)],
        [("club", 0, 8), ("diamond", 1, 2), ("heart", 0, 1), ("spade", 1, 4)],
    ]
    for seat, mine in enumerate(orders):
        for spy, target, secret in mine:
            chip(page, f"order_{seat}_{spy}", f"{target}-{secret}")
        chip(page, f"guards_{seat}", [3, 7, 5][seat])
    one_screen(page, last_chip(page, "guards_2", 5), "secrets-1", button="Resolve turn 1")


def test_hidden_secrets_orders_end_with_send_in_view(live_server, phone: Page):
    """Hidden Secrets: a player's own orders on his private link (the scorer enters none), the
    policeman's post tapped last and *Send my orders* in view."""
    page = phone
    _game, seats = hidden_secrets(live_server, ["Ann", "Bob", "Cid"])
    page.goto(address(live_server, seats[1]["link"]))
    for spy, target in zip(["club", "diamond", "heart", "spade"], [0, 2, 0, 2], strict=True):
        chip(page, f"order_1_{spy}", f"{target}-B")
    chip(page, "guards_1", "C")
    one_screen(page, last_chip(page, "guards_1", "C"), "hidden_secrets-1", button="Send my orders")
