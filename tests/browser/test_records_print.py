"""The printed score sheet in a real Chromium: page count, totals, headers; the records pages at phone size."""

import io
import json
import os
import urllib.request

from playwright.sync_api import Page, expect
from pypdf import PdfReader

SHOTS = os.environ.get("SCREENSHOTS")
PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
FLAT = {"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"], "trump": "S"}  # 12, 9, 9, 9
MISERE = {"tricks": [13, 0, 0, 0], "agents": ["S", "L", "O", "R"], "trump": "H"}  # 169, 100, 130, 100
TOTALS = ["205", "127", "157", "127"]


def post_game(live_server: str, record: dict, key: str | None = None, path: str = "/api/games") -> dict:
    """Create a game through the JSON API, as an import does (a club's with its member key)."""
    headers = {"Content-Type": "application/json"}
    if key:
        headers["Authorization"] = f"Bearer {key}"
    request = urllib.request.Request(
        live_server + path, data=json.dumps(record).encode(), headers=headers, method="POST"
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def four_deals(live_server: str, club: dict | None = None) -> dict:
    record = {"game": "secret_agent", "players": PLAYERS, "deals": [FLAT, MISERE, FLAT, FLAT]}
    if club:
        return post_game(live_server, {**record, "club": club["slug"]}, club["member_key"])
    return post_game(live_server, record)


def pdf_pages(data: bytes) -> list[str]:
    return [page.extract_text() for page in PdfReader(io.BytesIO(data)).pages]


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_four_deal_sheet_prints_on_one_page_with_every_total(live_server, browser):
    game = four_deals(live_server)
    assert game["totals"] == [int(t) for t in TOTALS]
    page = browser.new_page()
    page.goto(f"{live_server}/g/{game['id']}/sheet")
    page.emulate_media(media="print")
    for paper in ("A4", "Letter"):
        (text,) = pdf_pages(page.pdf(format=paper, print_background=True))
        totals = text.split("Total", 1)[1].split()
        assert totals[:4] == TOTALS, text
        assert "Ann wins." in text and "Number of deals: 4" in text and "Trump: ♥ hearts" in text
        # The page's links and buttons stay off the paper.
        assert "Download PDF" not in text and "Language" not in text
    page.close()


def test_the_download_pdf_is_the_same_one_page_sheet(live_server, browser):
    game = four_deals(live_server)
    page = browser.new_page()
    response = page.request.get(f"{live_server}/g/{game['id']}/sheet.pdf?paper=letter")
    assert response.status == 200 and response.headers["content-type"] == "application/pdf"
    assert 'filename="secret_agent-' in response.headers["content-disposition"]
    reader = PdfReader(io.BytesIO(response.body()))
    assert len(reader.pages) == 1
    width, height = reader.pages[0].mediabox.width, reader.pages[0].mediabox.height
    assert (round(width), round(height)) == (612, 792)  # Letter
    text = reader.pages[0].extract_text()
    assert text.split("Total", 1)[1].split()[:4] == TOTALS and "Ann wins." in text
    a4 = PdfReader(io.BytesIO(page.request.get(f"{live_server}/g/{game['id']}/sheet.pdf").body()))
    assert round(a4.pages[0].mediabox.height) == 842
    page.close()


def test_a_long_game_continues_on_page_two_with_the_headers_repeated(live_server, browser):
    record = {
        "game": "secret_agent",
        "options": {"deals": 24},
        "players": PLAYERS,
        "deals": [FLAT, MISERE] * 12,
    }
    game = post_game(live_server, record)
    page = browser.new_page()
    page.goto(f"{live_server}/g/{game['id']}/sheet")
    page.emulate_media(media="print")
    pages = pdf_pages(page.pdf(format="A4"))
    assert len(pages) >= 2
    for text in pages:
        assert "# Ann Bob Cid Dee" in " ".join(text.split())  # the header row, on every page
    totals = [f"{t:,}" for t in game["totals"]]  # numbers in the page's format
    assert pages[-1].split("Total", 1)[1].split()[:4] == totals
    page.close()


def test_records_pages_on_a_phone(live_server, phone: Page, browser):
    club = post_game(live_server, {"name": "Records"}, path="/api/clubs")
    game = four_deals(live_server, club)
    euchre = {"game": "euchre", "players": ["Eve", "Fay", "Gus", "Ann"], "deals": [], "club": "records"}
    post_game(live_server, euchre, club["member_key"])
    page = phone
    page.context.add_cookies([{"name": "member", "value": club["member_key"], "url": live_server}])
    page.goto(f"{live_server}/g/{game['id']}")
    expect(page.locator(".chart-svg")).to_be_visible()
    legend = [" ".join(item.split()) for item in page.locator(".chart-legend li").all_inner_texts()]
    assert legend == [f"{n} {t}" for n, t in zip(PLAYERS, TOTALS, strict=True)]
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/records-game.png", full_page=True)
    page.goto(f"{live_server}/g/{game['id']}/sheet")
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/records-sheet.png", full_page=True)
    page.goto(live_server + "/c/records")
    page.get_by_role("link", name="Players").first.tap()
    expect(page.locator("h1")).to_have_text("Players")
    page.get_by_role("link", name="Ann").tap()
    expect(page.locator("h1")).to_have_text("Ann")
    expect(page.locator(".stats tbody tr")).to_have_count(2)
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/records-player.png", full_page=True)
    page.get_by_role("link", name="Every game with Ann").tap()
    expect(page.locator("h1")).to_have_text("Games of Records")
    expect(page.locator(".games li")).to_have_count(2)
    page.select_option("#kind", "euchre")
    page.get_by_role("button", name="Show").tap()
    expect(page.locator(".games li")).to_have_count(1)
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/records-games.png", full_page=True)
    page.goto(live_server + "/import")
    no_sideways_scroll(page)
    if SHOTS:
        page.screenshot(path=f"{SHOTS}/records-import.png", full_page=True)
        dark = browser.new_context(
            viewport={"width": 360, "height": 740}, color_scheme="dark", device_scale_factor=2
        )
        night = dark.new_page()
        night.goto(f"{live_server}/g/{game['id']}/sheet")
        night.screenshot(path=f"{SHOTS}/records-sheet-dark.png", full_page=True)
        dark.close()


def test_import_a_game_record_without_javascript(live_server, browser, tmp_path):
    game = four_deals(live_server)
    record = {k: game[k] for k in ("format", "game", "options", "players", "first_dealer", "deals")}
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({**record, "players": ["Ann"]}), encoding="utf-8")
    context = browser.new_context(viewport={"width": 360, "height": 740}, java_script_enabled=False)
    page = context.new_page()
    page.goto(live_server + "/import")
    page.set_input_files("#record", str(bad))
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".error")).to_contain_text(
        "Nothing was imported. players: This game needs 4 players."
    )
    page.set_input_files("#record", str(path))
    page.get_by_role("button", name="Import").click()
    expect(page.locator(".flash").first).to_contain_text("Game imported")
    expect(page.locator(".board tfoot td")).to_have_text(TOTALS)
    expect(page.locator("#entry")).to_have_count(0)  # finished: nothing to enter, but it is ours
    context.close()
