"""The evening's pages (issue 42) as the accessibility sweep checks every page kind: the new-event
page with its roster chips, the director's page with late arrivals, the print sheets, the board
(on a phone and on a 1920x1080 TV), a player's own page, a member's "where I sit" at the top
of /e/<id> and the club's season; each visited once and checked light and dark,
no WCAG 2.1 A/AA violation axe-core finds, every control at least 44x44 CSS px at 360 px."""

from __future__ import annotations

from playwright.sync_api import Page

from tests.browser.test_accessibility_e2e import SMALL_TARGETS, in_both_schemes

MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}


def evening_pages(page: Page, base: str) -> list[str]:
    """A club with players, one finished event (a season) and one under way, directed here."""
    club = page.request.post(base + "/api/clubs", data={"name": "Club", "player": "Olga"}).json()
    page.context.add_cookies([{"name": "member", "value": club["member_key"], "url": base}])
    bearer = {"Authorization": f"Bearer {club['member_key']}"}
    body = {
        "name": "Night",
        "format": "progressive",
        "game": "euchre",
        "hands": 1,
        "rounds": 1,
        "minutes": 30,
    }
    done = page.request.post(
        base + "/api/clubs/club/events", data={**body, "players": ["Ann", "Bob", "Cy", "Di"]}, headers=bearer
    ).json()
    rnd = page.request.post(
        f"{base}/api/events/{done['id']}/rounds",
        data={},
        headers={"Authorization": f"Bearer {done['director_key']}"},
    ).json()
    for table in rnd["tables"]:
        page.request.post(
            f"{base}/api/games/{table['game']}/deals",
            data=MADE_02,
            headers={"Authorization": f"Bearer {table['edit_key']}"},
        )
    # Olga, the member looking, plays: /e/<id> shows her "where I sit" at the top.
    players = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy", "Olga"]
    live = page.request.post(
        base + "/api/clubs/club/events", data={**body, "players": players, "rounds": 3}, headers=bearer
    ).json()
    page.goto(f"{base}/e/{live['id']}/direct?key={live['director_key']}")
    page.request.post(
        f"{base}/api/events/{live['id']}/rounds",
        data={},
        headers={"Authorization": f"Bearer {live['director_key']}"},
    )
    page.goto(f"{base}/e/{live['id']}")
    assert page.locator("#ev-me-go").count() == 1
    player = page.locator('.ev-links a[href*="/p/"]').first.get_attribute("href")
    assert player and "/p/" in player
    # A table's phone for the whole evening (its link from the director's page), mid-round.
    table = page.locator(".ev-table-link").first.get_attribute("href")
    assert table and "/table/1/" in table
    # An evening filled at the door (issue 54): its check-in page, and tonight's list on the
    # director's page with a name to remove.
    door = page.request.post(
        base + "/api/clubs/club/events",
        data={**body, "players": [], "check_in": True, "rounds": 2},
        headers=bearer,
    ).json()
    token = door["check_in_link"].rsplit("/", 1)[1]
    page.request.post(f"{base}/api/events/{door['id']}/arrivals", data={"name": "Zoë", "token": token})
    # A table's phone between rounds (issue 54): round 1 closed, round 2 not started.
    between = page.request.post(
        base + "/api/clubs/club/events",
        data={**body, "players": ["Ann", "Bob", "Cy", "Di"], "rounds": 2, "confirm": True},
        headers=bearer,
    ).json()
    director = {"Authorization": f"Bearer {between['director_key']}"}
    page.request.post(f"{base}/api/events/{between['id']}/rounds", data={}, headers=director)
    page.request.post(f"{base}/api/events/{between['id']}/rounds/1/close", data={}, headers=director)
    waiting = between["table_links"][0]["link"]
    return [
        waiting.removeprefix(base),
        door["check_in_link"].removeprefix(base),
        f"/e/{door['id']}",
        "/c/club/events/new",
        "/c/club/season?game=euchre",
        f"/e/{live['id']}",
        f"/e/{live['id']}/print",
        f"/e/{live['id']}/board",
        f"/e/{done['id']}/board",
        player.removeprefix(base),
        table.removeprefix(base),
    ]


def test_the_evenings_pages_pass_axe_light_and_dark_and_every_control_is_44_px(live_server, phone: Page):
    """Each page visited once at 360 px: its controls measured, no sideways scroll, then axe in
    both colour schemes; then the boards as the TV shows them."""
    problems = []
    urls = evening_pages(phone, live_server)
    for url in urls:
        phone.goto(live_server + url)
        problems += [f"{url}: small {s}" for s in phone.evaluate(SMALL_TARGETS)]
        assert phone.evaluate("document.documentElement.scrollWidth") <= 360, url
        problems += [f"{url}: {v}" for v in in_both_schemes(phone)]
    # The board as the TV shows it.
    phone.set_viewport_size({"width": 1920, "height": 1080})
    for url in (u for u in urls if u.endswith("/board")):
        phone.goto(live_server + url)
        problems += [f"{url} (TV): {v}" for v in in_both_schemes(phone)]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)
