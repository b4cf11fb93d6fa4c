"""Issue 54, item 9, in Chromium at 360 px: the score card's column heads never break inside a
word (in en, pl and pt-PT), the new event's format select fits the screen, and "Pairing" shows
for a pairs event only (CSS alone). And item 2: the director's page follows the hall by itself."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.browser.conftest import hand_played

# Each word of each head: one box (a word broken across two lines has two).
WORDS_WHOLE = """() => Array.from(document.querySelectorAll('.ev-score-table thead th')).flatMap(th => {
  const text = th.firstChild;
  if (!text || text.nodeType !== Node.TEXT_NODE) return [];
  const out = []; const re = /\\S+/g; let m;
  while ((m = re.exec(text.data))) {
    const r = document.createRange(); r.setStart(text, m.index); r.setEnd(text, m.index + m[0].length);
    out.push([m[0], r.getClientRects().length]);
  }
  return out;
})"""


def club_and_event(page: Page, base: str, **extra) -> tuple[dict, dict]:
    club = page.request.post(base + "/api/clubs", data={"name": "Club", "player": "Olga"}).json()
    page.context.add_cookies([{"name": "member", "value": club["member_key"], "url": base}])
    body = {
        "name": "Night",
        "format": "progressive",
        "game": "euchre",
        "hands": 1,
        "rounds": 2,
        "players": ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"],
        **extra,
    }
    event = page.request.post(
        base + "/api/clubs/club/events", data=body, headers={"Authorization": f"Bearer {club['member_key']}"}
    ).json()
    return club, event


@pytest.mark.parametrize("lang", ["en", "pl", "pt-PT"])
def test_score_card_heads_never_break_inside_a_word(live_server, browser, lang):
    context = browser.new_context(
        viewport={"width": 360, "height": 740},
        is_mobile=True,
        has_touch=True,
        locale=lang,
        extra_http_headers={"Accept-Language": lang},
    )
    page = context.new_page()
    try:
        _, event = club_and_event(page, live_server)
        page.goto(f"{live_server}/e/{event['id']}/print")
        words = page.evaluate(WORDS_WHOLE)
        assert words, "no score card heads"
        assert all(boxes == 1 for _, boxes in words), words
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
    finally:
        context.close()


def test_the_new_event_form_at_360_px(live_server, phone: Page):
    club_and_event(phone, live_server)
    phone.goto(f"{live_server}/c/club/events/new")
    select = phone.locator("#format")
    box = select.bounding_box()
    assert box and box["x"] >= 0 and box["x"] + box["width"] <= 360
    assert phone.evaluate("document.documentElement.scrollWidth") <= 360
    pairing = phone.locator("#pairing")
    expect(pairing).to_be_hidden()
    select.select_option("pairs")
    expect(pairing).to_be_visible()
    select.select_option("ladder")
    expect(pairing).to_be_hidden()


def round_1_on_the_directors_page(phone: Page, base: str) -> dict:
    """A club's event with round 1 started on the API, its director's page drawn after: the round."""
    _, event = club_and_event(phone, base)
    key = {"Authorization": f"Bearer {event['director_key']}"}
    phone.goto(f"{base}/e/{event['id']}/direct?key={event['director_key']}")
    tables = phone.request.post(f"{base}/api/events/{event['id']}/rounds", data={}, headers=key).json()
    phone.reload()
    return tables


def test_the_directors_page_follows_the_tables_without_a_reload(live_server, phone: Page):
    tables = round_1_on_the_directors_page(phone, live_server)
    first = phone.locator("#ev-hall .ev-tables li").first
    expect(first).to_contain_text("0 of 1 hands")
    expect(first).not_to_contain_text("not started")
    phone.evaluate("window.__stayed = true")  # gone if the page reloads
    hand_played(phone, live_server, tables["tables"][0])
    expect(first).to_contain_text("finished", timeout=15_000)
    expect(phone.locator("#close-round")).to_be_visible()
    assert phone.evaluate("window.__stayed === true")


def test_a_table_qr_opened_on_the_directors_page_stays_open_as_the_hall_redraws(live_server, phone: Page):
    tables = round_1_on_the_directors_page(phone, live_server)
    qr = phone.locator("#qr-1-2")
    qr.locator("summary").tap()
    expect(qr).to_have_attribute("open", "")
    hand_played(phone, live_server, tables["tables"][0])
    expect(phone.locator("#ev-hall .ev-tables li").first).to_contain_text("finished", timeout=15_000)
    expect(qr).to_have_attribute("open", "")
