"""The scorer's reply to one more deal carries only what changed (issue 13): in the browser, the
board it leaves must read exactly as a reload draws it, in every game that answers that way."""

from __future__ import annotations

from playwright.sync_api import Page, expect

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


def scorer_page(page: Page, base: str, kind: str, options: dict, deals: list) -> None:
    response = page.request.post(
        base + "/api/games", data={"game": kind, "players": PLAYERS, "options": options, "deals": deals}
    )
    assert response.status == 201, response.text()
    body = response.json()
    page.goto(f"{base}/g/{body['id']}?key={body['edit_key']}")


def tap(page: Page, name: str, value) -> None:
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').tap()


def board_text(page: Page) -> dict[str, object]:
    return {
        "rows": page.locator("#scoreboard tbody tr").all_inner_texts(),
        "foot": page.locator("#scoreboard tfoot").inner_text(),
        "status": page.locator("#status").inner_text(),
        "totals": page.locator("#totals-bar").inner_text(),
    }


def recorded_then_reloaded(page: Page, deals_before: int) -> None:
    """After Record: one more row, in place, and the board the same as after a reload."""
    expect(page.locator("#announce")).to_contain_text(f"Deal {deals_before + 1} recorded")
    expect(page.locator("#scoreboard tbody tr[id^=deal-]")).to_have_count(deals_before + 1)
    ids = page.locator("#scoreboard tbody tr[id^=deal-]").evaluate_all("rows => rows.map(r => r.id)")
    assert ids == [f"deal-{k}" for k in range(deals_before + 1)]
    swapped = board_text(page)
    page.reload()
    assert board_text(page) == swapped


def test_spades_reply_adds_the_row_and_drops_the_pending_bids(live_server, phone: Page):
    page = phone
    deals = [{"bids": [3, 3, 3, 3], "tricks": [4, 3, 3, 3]}, {"bids": [2, 4, 3, 3], "tricks": [2, 5, 3, 3]}]
    scorer_page(page, live_server, "spades", {"mode": "cutthroat"}, deals)
    for seat, value in enumerate([4, 3, 3, 2]):
        tap(page, f"bids_{seat}", value)
    # The last bid shows the tricks and keeps the bids in the background: the board shows them.
    expect(page.locator("#sp-pending")).to_be_visible()
    for seat, value in enumerate([5, 3, 3]):
        tap(page, f"tricks_{seat}", value)
    page.get_by_role("button", name="Record deal").tap()
    recorded_then_reloaded(page, len(deals))
    assert page.locator("#sp-pending").count() == 0


def test_euchre_reply_adds_the_row(live_server, phone: Page):
    page = phone
    deal = {"trump": "H", "round": 1, "maker": 0, "maker_tricks": 3, "alone": False}
    scorer_page(page, live_server, "euchre", {}, [deal, {**deal, "maker": 1}])
    tap(page, "trump", "S")
    tap(page, "round", "1")
    tap(page, "maker", "2")
    tap(page, "maker_tricks", "5")
    page.get_by_role("button", name="Record deal").tap()
    recorded_then_reloaded(page, 2)


def test_tally_reply_adds_the_row(live_server, phone: Page):
    page = phone
    scorer_page(page, live_server, "tally", {}, [{"points": [5, 1, 0, 2]}, {"points": [0, 3, 4, 1]}])
    for seat, value in enumerate([7, 2, 9, 1]):
        page.fill(f"#points_{seat}", str(value))
    page.get_by_role("button", name="Record deal").tap()
    recorded_then_reloaded(page, 2)


def test_undo_redraws_only_what_changed_and_reads_as_a_reload(live_server, phone: Page):
    page = phone
    response = page.request.post(
        live_server + "/api/games",
        data={"game": "tally", "players": PLAYERS, "deals": [{"points": [k, 1, 2, 3]} for k in range(5)]},
    )
    gid, key = response.json()["id"], response.json()["edit_key"]
    fixed = page.request.put(
        f"{live_server}/api/games/{gid}/deals/2",
        data={"points": [40, 0, 0, 0]},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert fixed.status == 200
    page.goto(f"{live_server}/g/{gid}?key={key}")
    expect(page.locator("#undo-bar")).to_contain_text("Deal 3 was corrected.")
    page.locator("#scoreboard tbody tr").evaluate_all("rows => rows.forEach(r => (r.dataset.mark = 'old'))")
    page.locator("#undo-bar").get_by_role("button", name="Undo").tap()
    expect(page.locator("#undo-bar")).to_contain_text("Undone: Deal 3 corrected.")
    # Swapped in place: deals 1 and 2 are the very rows they were; deal 3 and those after it are new.
    marks = page.locator("#scoreboard tbody tr").evaluate_all("rows => rows.map(r => r.dataset.mark || '')")
    assert marks == ["old", "old", "", "", ""]
    swapped = board_text(page)
    page.reload()
    assert board_text(page) == swapped
