"""One deal's entry in each game at phone size (360x740), as docs/screens/ shows it.

`UPDATE_SCREENS=1 python -m pytest tests/browser/test_screens_e2e.py` rewrites docs/screens/;
otherwise the shots go to a temporary folder (the test still drives every entry)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

DOCS = Path(__file__).resolve().parents[2] / "docs" / "screens"


@pytest.fixture
def shots(tmp_path) -> Path:
    return DOCS if os.environ.get("UPDATE_SCREENS") else tmp_path


def chip(page: Page, name: str, value) -> None:
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').tap()


def start(page: Page, base: str, kind: str, players, options=None) -> None:
    response = page.request.post(
        base + "/api/games", data={"game": kind, "players": players, "options": options or {}}
    )
    assert response.status == 201, response.text()
    body = response.json()
    page.goto(f"{base}/g/{body['id']}?key={body['edit_key']}")
    expect(page.locator("#entry")).to_be_visible()


def shoot(page: Page, folder: Path, name: str) -> None:
    """What the phone shows at the entry (totals bar pinned), and the whole entry with its preview."""
    page.wait_for_timeout(600)  # the preview's pause, and its answer
    page.evaluate("document.querySelector('#entry').scrollIntoView({block: 'start'})")
    page.screenshot(path=str(folder / f"{name}.png"))
    page.evaluate("window.scrollTo(0, 0)")  # the pinned bar back in its place for the whole page
    page.screenshot(path=str(folder / f"{name}-whole.png"), full_page=True)


def test_one_deal_entry_in_each_game(live_server, phone: Page, shots: Path):
    page = phone
    start(page, live_server, "secret_agent", ["Ann", "Bob", "Cid", "Dee"])
    for seat, (t, a) in enumerate(zip([4, 3, 3, 3], "LORS", strict=True)):
        if seat < 3:
            chip(page, f"tricks_{seat}", t)
        chip(page, f"agents_{seat}", a)
    expect(page.locator("#preview")).to_contain_text("If recorded:")
    shoot(page, shots, "secret-agent-entry")

    start(page, live_server, "spades", ["Ann", "Bob", "Cid"])
    for seat, bid in enumerate([5, 6]):
        chip(page, f"bids_{seat}", bid)
    shoot(page, shots, "spades-bids")  # a bid still to come: "Bids done" for a page without script
    chip(page, "bids_2", 4)  # the last bid: kept, and the tricks show beneath
    expect(page.locator(".board tr.sp-pending")).to_have_count(1)
    chip(page, "tricks_0", 5)
    chip(page, "tricks_1", 6)
    expect(page.locator("#preview")).to_contain_text("If recorded:")
    shoot(page, shots, "spades-tricks")

    start(page, live_server, "euchre", ["Ann", "Bob", "Cid", "Dee"])
    chip(page, "trump", "H")
    chip(page, "round", "1")
    chip(page, "maker", "0")
    chip(page, "maker_tricks", "3")
    expect(page.locator("#preview")).to_contain_text("If recorded:")
    shoot(page, shots, "euchre-entry")

    start(page, live_server, "abracadabra", ["Ann", "Bob", "Cid", "Dee"])
    chip(page, "trump", "D")
    for seat, suit in enumerate("HSDC"):
        chip(page, f"suits_{seat}", suit)
    for seat, ranks in enumerate([[5, 11], [4], [1, 2], [6, 7, 8]]):
        for rank in ranks:
            chip(page, f"bid_cards_{seat}", rank)
    shoot(page, shots, "abracadabra-entry")
    page.get_by_role("button", name="Start play").tap()
    for seat in [2, 2, 1, 1, 0]:  # in the page, no round trip
        page.locator(f'button.abra-tap[value="{seat}"]').tap()
    expect(page.locator(".abra-head")).to_contain_text("Who won trick 6?")
    shoot(page, shots, "abracadabra-play")
    for seat in [0, 0, 0, 0, 0, 0, 1, 1]:
        page.locator(f'button.abra-tap[value="{seat}"]').tap()
    expect(page.locator(".abra-head")).to_have_text("All 13 tricks are in")
    for seat, count in enumerate([6, 4, 1]):
        chip(page, f"suit_cards_{seat}", count)
    expect(page.locator("#preview")).to_contain_text("If recorded:")
    shoot(page, shots, "abracadabra-suits")

    start(page, live_server, "secrets", ["Ann", "Bob", "Cid"])
    # The worked turn of secrets.md, one tap per order.
    for seat, mine in enumerate(["1-2 2-9 1-7 2-5", "0-3 2-9 0-8 2-1", "0-8 1-2 0-1 1-4"]):
        for spy, order in zip(["club", "diamond", "heart", "spade"], mine.split(), strict=True):
            chip(page, f"order_{seat}_{spy}", order)
        chip(page, f"guards_{seat}", [3, 7, 5][seat])
    expect(page.locator("#preview")).to_contain_text("If recorded:")
    shoot(page, shots, "secrets-entry")
    assert len(list(shots.glob("*.png"))) >= 8
