"""At 360x740: a game that ends well (standings, one-tap rematch), archiving from home, the sharing disclosure."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.conftest import PHONE


def start_game(page: Page, base: str, names=("Ann", "Bob", "Cid", "Dee"), deals: int = 1) -> str:
    page.goto(base + "/new/secret_agent")
    for seat, name in enumerate(names):
        page.fill(f"#players_{seat}", name)
    page.fill("#opt_deals", str(deals))
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".status")).to_contain_text("Deal 1 of")
    return page.url


def play_flat_deal(page: Page) -> None:
    for seat, (tricks, agent) in enumerate(zip([4, 3, 3, 3], "LORS", strict=True)):
        page.locator(f'#entry label.chip:has(input[name="tricks_{seat}"][value="{tricks}"])').tap()
        page.locator(f'#entry label.chip:has(input[name="agents_{seat}"][value="{agent}"])').tap()
    page.get_by_role("button", name="Record deal").tap()


def fits(page: Page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_final_standings_and_a_one_tap_rematch(live_server, phone):
    url = start_game(phone, live_server)
    play_flat_deal(phone)
    ending = phone.locator("#ending")
    expect(ending).to_be_visible()
    expect(ending.locator(".winner-banner")).to_contain_text("Ann wins.")
    expect(ending.locator(".standing")).to_have_count(4)
    expect(ending.locator(".standing").first).to_contain_text("1. Ann 12 wins by 3")
    expect(ending.locator(".standing").nth(1)).to_contain_text("2. Bob 9 3 behind")
    assert fits(phone)
    # One tap: a new game, same players and options, Bob deals first.
    taps = 0
    phone.get_by_role("button", name="Rematch").tap()
    taps += 1
    expect(phone.locator(".status")).to_contain_text("Deal 1 of 1. Bob deals.")
    assert taps == 1 and phone.url != url
    expect(phone.locator(".board thead")).to_contain_text("AnnBobCidDee")
    expect(phone.locator("#entry")).to_be_visible()  # this phone scores the rematch
    expect(phone.locator(".flash")).to_contain_text("Rematch")


def test_new_game_with_these_players_is_the_form_filled_in(live_server, phone):
    url = start_game(phone, live_server, names=("Emmeline", "Emmett", "Cid", "Dee"))
    play_flat_deal(phone)
    phone.get_by_role("link", name="New game with these players").tap()
    expect(phone.locator("#players_0")).to_have_value("Emmeline")
    expect(phone.locator("#players_3")).to_have_value("Dee")
    expect(phone.locator("#opt_deals")).to_have_value("1")
    phone.get_by_role("button", name="Start the game").tap()
    expect(phone.locator(".status")).to_contain_text("Emmett deals.")
    assert phone.url != url


def test_archive_and_unarchive_from_home_and_games(live_server, phone):
    start_game(phone, live_server, names=("Ann", "Bob", "Cid", "Dee"), deals=4)
    play_flat_deal(phone)
    start_game(phone, live_server, names=("Eve", "Fay", "Gus", "Hal"), deals=4)
    phone.goto(live_server + "/")
    item = phone.locator(".game-item", has_text="Ann, Bob, Cid, Dee")
    expect(item).to_contain_text("Leader: Ann · 1 deal played")
    assert fits(phone)
    item.get_by_role("button", name="Archive").tap()
    expect(phone.locator(".archived-bar")).to_contain_text("Archived: Secret Agent (Ann, Bob, Cid, Dee)")
    expect(phone.locator(".game-item", has_text="Ann, Bob, Cid, Dee")).to_have_count(0)
    expect(phone.locator(".game-item", has_text="Eve, Fay, Gus, Hal")).to_have_count(1)
    # Undo, right there.
    phone.locator(".archived-bar").get_by_role("button", name="Undo").tap()
    expect(phone.locator(".game-item", has_text="Ann, Bob, Cid, Dee")).to_have_count(1)
    # Archive again; /games lists it, its filter finds it, and Unarchive brings it home.
    phone.locator(".game-item", has_text="Ann, Bob, Cid, Dee").get_by_role("button", name="Archive").tap()
    phone.goto(live_server + "/games")
    phone.select_option("#archived", "1")
    phone.get_by_role("button", name="Show").tap()
    archived = phone.locator(".game-item")
    expect(archived).to_have_count(1)
    expect(archived).to_contain_text("archived")
    archived.get_by_role("button", name="Unarchive").tap()
    expect(phone.locator(".game-item")).to_have_count(0)
    phone.goto(live_server + "/")
    expect(phone.locator(".game-item", has_text="Ann, Bob, Cid, Dee")).to_have_count(1)


def test_sharing_is_a_disclosure_that_opens_the_qr_code_and_link(live_server, phone):
    url = start_game(phone, live_server)
    toggle = phone.locator("summary.share-toggle")
    expect(toggle).to_have_text("Follow on other phones ▸")
    expect(phone.locator(".qr-box svg.qr")).to_be_hidden()
    box = toggle.bounding_box()
    assert box["height"] >= 44
    toggle.tap()
    expect(phone.locator(".qr-box svg.qr")).to_be_visible()
    expect(phone.locator(".share-link a")).to_have_text(url)
    assert fits(phone)


def test_five_players_names_keep_five_letters_and_open_on_tap(live_server, phone):
    phone.goto(live_server + "/new/spades")
    names = ["Emmeline", "Emmett", "Annabelle", "Bob", "Christopher"]
    phone.locator('label.chip:has(input[name="opt_mode"][value="cutthroat"])').tap()
    for seat, name in enumerate(names):
        phone.fill(f"#players_{seat}", name)
    phone.get_by_role("button", name="Start the game").tap()
    heads = phone.locator(".board thead th.pcol")
    expect(heads).to_have_count(5)
    for i, short in enumerate(["Emmel…", "Emmett", "Annab…", "Bob", "Chris…"]):
        expect(heads.nth(i).locator(".short" if "…" in short else ":scope")).to_have_text(short)
        # Not cut any further by the column: the whole short name is on screen.
        assert heads.nth(i).evaluate("h => h.scrollWidth <= h.clientWidth"), short
    heads.first.locator("summary").tap()
    expect(phone.locator(".fullname .full").first).to_be_visible()
    expect(phone.locator(".fullname .full").first).to_have_text("Emmeline")
    colours = heads.evaluate_all("hs => hs.map(h => getComputedStyle(h).borderTopColor)")
    assert len(set(colours)) == 5
    assert fits(phone)
