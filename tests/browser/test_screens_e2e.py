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
    shoot(page, shots, "abracadabra-entry")

    start(page, live_server, "secrets", ["Ann", "Bob", "Cid"])
    shoot(page, shots, "secrets-entry")
    assert len(list(shots.glob("*.png"))) >= 6
