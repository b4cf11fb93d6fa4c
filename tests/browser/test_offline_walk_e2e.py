"""Found walking the offline keeping as a hall's scorer would (360x740 Chromium, the connection
cut with Playwright): what the entry form and the waiting list say for deals kept on the phone."""

from __future__ import annotations

from playwright.sync_api import expect

from tests.browser.conftest import offline, phone_context
from tests.browser.test_offline_table_e2e import controlled, new_tab
from tests.scenes import ROW, address, api, hidden_secrets

NAMES = ["Ann", "Bob", "Cid", "Dee"]


def spades_tap(page, name: str, value) -> None:
    chip = page.locator(f'#entry label.chip:has(input[name="{name}"][value="{value}"])')
    chip.evaluate("label => label.scrollIntoView({block: 'center'})")
    chip.tap()


def spades_deal(page, bids, tricks) -> None:
    for seat, value in enumerate(bids):
        spades_tap(page, f"bids_{seat}", value)
    expect(page.locator("#entry fieldset.tricks")).to_be_visible()
    for seat, value in enumerate(tricks[:-1]):  # (the last follows from the others)
        spades_tap(page, f"tricks_{seat}", value)
    page.get_by_role("button", name="Record deal").tap()


def test_spades_form_offline_names_the_deal_it_is_for_and_its_dealer(live_server, browser):
    """The form drawn for deal 2 (Bob deals) stays on screen while deals are kept: it named deal 2
    and Bob's dealer tag for deal 3 and 4 too, and the waiting list copied "Bids for deal 2" into
    every kept deal's words."""
    game = api(
        live_server, "/api/games", {"game": "spades", "players": NAMES, "options": {"mode": "partnership"}}
    )
    context = phone_context(browser)
    page = new_tab(context)
    page.goto(f"{live_server}/g/{game['id']}?key={game['edit_key']}")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/deals")):
        spades_deal(page, [3, 4, 3, 3], [3, 4, 3, 3])
    expect(page.locator(".board tbody tr")).to_have_count(1)
    controlled(page)

    offline(context, True)
    spades_deal(page, [4, 3, 3, 3], [4, 3, 3, 3])
    spades_deal(page, [2, 4, 3, 4], [2, 4, 3, 4])
    waiting = page.locator("#offline .offline-list li")
    expect(waiting).to_have_count(2)
    expect(waiting.nth(0)).to_have_text(
        "Deal 2 (Bob deals): Bids for deal 2: Ann 4, Bob 3, Cid 3, Dee 3; Tricks won, deal 2: Ann 4, Bob 3, Cid 3, Dee 3"
    )
    expect(waiting.nth(1)).to_contain_text("Deal 3 (Cid deals): Bids for deal 3: Ann 2, Bob 4,")
    # The form is for deal 4, which Dee deals and Ann bids first.
    expect(page.locator("#entry .sp-bids legend")).to_have_text("Bids for deal 4")
    expect(page.locator("#entry .sp-bids .sp-tag")).to_have_count(1)
    expect(page.locator("#entry .sp-bids .seat").nth(3).locator(".sp-tag")).to_have_text("dealer")
    expect(page.locator("#entry .sp-bids .hint")).to_contain_text("Ann bids first.")
    expect(page.locator("#entry fieldset.tricks legend")).to_contain_text("Tricks won, deal 4")

    # Opened again offline, the page the phone kept is deal 2's: it too says deal 4.
    page.reload()
    expect(waiting).to_have_count(2)
    expect(page.locator("#entry .sp-bids legend")).to_have_text("Bids for deal 4")
    expect(page.locator("#entry .sp-bids .seat").nth(3).locator(".sp-tag")).to_have_text("dealer")

    offline(context, False)
    expect(page.locator(".board tbody tr")).to_have_count(3)
    expect(waiting).to_have_count(0)
    expect(page.locator("#entry .sp-bids legend")).to_have_text("Bids for deal 4")
    record = api(live_server, "/api/games/" + game["id"])
    assert [d["bids"] for d in record["deals"]] == [[3, 4, 3, 3], [4, 3, 3, 3], [2, 4, 3, 4]]
    assert page.problems == []
    context.close()


def test_a_deal_refused_on_its_return_is_told_what_to_do_in_the_list_in_polish(live_server, browser):
    """The refusal was the online form's: "Not saved: ... your entry is kept below", under a deal
    already headed "Not saved:" and with no form below it. In the list it says what the two buttons
    beside it do, in the phone's language."""
    game = api(live_server, "/api/games", {"game": "euchre", "players": NAMES})
    context = phone_context(browser, locale="pl-PL", color_scheme="dark")
    page = new_tab(context)
    page.goto(f"{live_server}/g/{game['id']}?key={game['edit_key']}")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/deals")):
        euchre_deal(page, ("H", 0, 3))
    offline(context, True)
    euchre_deal(page, ("S", 1, 4))
    expect(page.locator("#offline .offline-list li")).to_have_count(1)
    other = {"trump": "S", "round": 1, "maker": 1, "alone": False, "maker_tricks": 5}
    api(live_server, f"/api/games/{game['id']}/deals", other, key=game["edit_key"])
    offline(context, False)

    refused = page.locator("#offline .offline-refused")
    expect(refused).to_have_count(1)
    expect(refused.locator("p.error")).to_have_text(
        "W międzyczasie ktoś zmienił tę grę na innym urządzeniu; tabela wyników pokazuje ją teraz. "
        "Porównaj z nią to rozdanie: wstaw je do formularza, aby zapisać je ponownie, jeśli nadal jest "
        "aktualne, albo je odrzuć."
    )
    assert refused.inner_text().count("Nie zapisano") == 1
    for button in ("Wstaw do formularza", "Odrzuć je"):
        box = refused.get_by_role("button", name=button).bounding_box()
        assert box["height"] >= 44 and box["x"] + box["width"] <= 360
    assert page.problems == []
    context.close()


def euchre_deal(page, deal) -> None:
    trump, maker, tricks = deal
    for name, value in (("trump", trump), ("maker", maker), ("maker_tricks", tricks)):
        spades_tap(page, name, value)
    page.locator("#entry button.primary[type=submit]").tap()


def test_a_seats_allotment_sent_on_return_is_not_called_a_deal_in_portuguese(live_server, browser):
    """Hidden Secrets' private link: the allotment kept offline and sent when the connection
    returned was announced as "every waiting deal is saved" (a deal on a seat that records none)."""
    from scorekeeper.games.secrets.rules import HIDDEN_SECRETS

    game, seats = hidden_secrets(live_server, NAMES[:3], allotted=False)
    context = phone_context(browser, locale="pt-PT", color_scheme="dark")
    page = new_tab(context)
    page.goto(address(live_server, seats[1]["link"]))
    controlled(page)
    offline(context, True)
    for letter, value in zip(HIDDEN_SECRETS, ROW, strict=True):
        page.fill(f"#v_{letter}", str(value))
    page.locator("#seat-orders button[type=submit]").last.tap()
    expect(page.locator("#offline .offline-list li")).to_have_count(1)
    offline(context, False)
    expect(page.locator("#offline .offline-list li")).to_have_count(0)
    expect(page.locator("#offline")).to_contain_text(
        "A ligação voltou: tudo o que estava à espera está guardado."
    )
    expect(page.locator("#offline")).not_to_contain_text("mãos")
    assert api(live_server, "/api/games/" + game["id"])["waiting"]["in"] == [1]
    assert page.problems == []
    context.close()


def test_the_last_hand_of_a_game_of_so_many_hands_kept_offline_names_no_next_deal(live_server, browser):
    """An event table's round of 2 hands: the second kept on the phone, the list said "Next: Deal 3
    (Gus deals)" for a game that ends with it. It says the game's last planned deal is kept."""
    game = api(live_server, "/api/games", {"game": "euchre", "players": NAMES, "options": {"hands": 2}})
    context = phone_context(browser)
    page = new_tab(context)
    page.goto(f"{live_server}/g/{game['id']}?key={game['edit_key']}")
    with page.expect_response(lambda r: r.request.method == "POST" and r.url.endswith("/deals")):
        euchre_deal(page, ("H", 0, 3))
    expect(page.locator(".board tbody tr")).to_have_count(1)
    offline(context, True)
    euchre_deal(page, ("S", 1, 4))
    box = page.locator("#offline")
    expect(box.locator(".offline-list li")).to_have_count(1)
    expect(box.locator(".offline-next")).to_have_text(
        "That was the last planned deal of this game: its result shows once the waiting deals are saved."
    )
    offline(context, False)
    expect(box.locator(".offline-list li")).to_have_count(0)
    assert api(live_server, "/api/games/" + game["id"])["finished"] is True
    assert page.problems == []
    context.close()
