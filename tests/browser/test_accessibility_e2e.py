"""Every page kind at 360x740, light and dark: no WCAG 2.1 A/AA violation that axe-core finds,
and every visible control and link at least 44x44 CSS px (issues 14 and 19).

axe-core is vendored under tests/browser/vendor/ and injected here only: the app never serves it."""

from __future__ import annotations

from pathlib import Path

from playwright.sync_api import Page

from scorekeeper.games import GAMES

AXE = (Path(__file__).parent / "vendor" / "axe.min.js").read_text(encoding="utf-8")
TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
SA_DEAL = {"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"]}
# The worked turn of secrets.md: turn 2 offers "Same orders as turn 1", and its page the preview.
SX_TURN = {
    "orders": [
        [{"spy": spy, "target": t, "secret": s} for spy, t, s in mine]
        for mine in (
            [("club", 1, 2), ("diamond", 2, 9), ("heart", 1, 7), ("spade", 2, 5)],
            [("club", 0, 3), ("diamond", 2, 9), ("heart", 0, 8), ("spade", 2, 1)],
            [("club", 0, 8), ("diamond", 1, 2), ("heart", 0, 1), ("spade", 1, 4)],
        )
    ],
    "guards": [3, 7, 5],
}
FIRST_DEALS = {"secret_agent": [SA_DEAL], "secrets": [SX_TURN]}


def api_game(page: Page, base: str, kind: str, deals=()) -> tuple[str, str]:
    n = min(GAMES[kind].player_counts)
    if kind == "secret_agent":
        n = 4
    players = ["Ann", "Bob", "Cid", "Dee", "Eve"][:n]
    response = page.request.post(
        base + "/api/games",
        data={"game": kind, "players": players, GAMES[kind].record_key: list(deals)},
    )
    assert response.status == 201, response.text()
    body = response.json()
    return body["id"], body["edit_key"]


def page_kinds(page: Page, base: str) -> list[str]:
    """One address of each page kind; the scorer's key is kept by the first visit of each game."""
    # A club whose owner is this browser: its pages are checked too.
    club = page.request.post(base + "/api/clubs", data={"name": "Club", "player": "Olga"}).json()
    page.context.add_cookies([{"name": "member", "value": club["member_key"], "url": base}])
    urls = ["/", "/new", "/games", "/import", "/offline", "/no-such-page", "/clubs/new"]
    urls += ["/c/club", "/c/club/players", "/c/club/ratings", "/c/club/games", "/c/club/players/tidy"]
    urls += ["/help", "/help/euchre", "/help/spades"]  # the players' rules: prose, lists and tables
    for kind in GAMES:
        if kind == "tally":
            continue
        urls.append(f"/new/{kind}")
        game_id, key = api_game(page, base, kind, FIRST_DEALS.get(kind, ()))
        page.goto(f"{base}/g/{game_id}?key={key}")  # keeps the key: the pages below are the scorer's
        urls += [f"/g/{game_id}", f"/g/{game_id}/history", f"/g/{game_id}/sheet"]
        if kind == "secret_agent":
            urls += [f"/g/{game_id}/deals/0", f"/g/{game_id}/handover"]
        if kind == "secrets":
            urls += [f"/g/{game_id}/secrets/links", f"/g/{game_id}?same=1"]
            # Seat entry: one seat's code, the scorer's form for one seat, a player's console.
            urls += [f"/g/{game_id}/secrets/links?seat=0", f"/g/{game_id}/secrets/orders/0"]
            seats = page.request.get(
                f"{base}/api/games/{game_id}/seats", headers={"Authorization": f"Bearer {key}"}
            ).json()["seats"]
            urls.append(seats[1]["link"].removeprefix(base))
            assert urls[-1].startswith(f"/g/{game_id}/p/1/")
        if kind == "abracadabra":
            urls += [abracadabra_under_way(page, base, tricks) for tricks in (1, 12)]
    return urls


def abracadabra_under_way(page: Page, base: str, tricks: int) -> str:
    """A game in play with ``tricks`` tapped (kept in the tab), or at the bid-suit counts after all 12."""
    game_id, key = api_game(page, base, "abracadabra")
    page.goto(f"{base}/g/{game_id}?key={key}")
    for name, value in (("trump", "S"), ("suits_0", "S"), ("suits_1", "H"), ("bid_cards_0", "1")):
        page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').tap()
    page.get_by_role("button", name="Start play").tap()
    for _ in range(tricks):
        page.locator('button.abra-tap[value="0"]').tap()
    if tricks == 12:
        page.locator(".abra-suits .pv-check").wait_for()
    return f"/g/{game_id}"


def axe_violations(page: Page) -> list[str]:
    # Evaluated by the test driver, not added as a <script>: the page's CSP (script-src 'self') stays.
    # Once per document: a second look at the same page (the other colour scheme) reuses it.
    if not page.evaluate("typeof axe !== 'undefined'"):
        page.evaluate(AXE + "\n;0")
    found = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}}).then(r => [r.passes.length, r.violations.map("
        "v => v.id + ': ' + v.nodes.slice(0, 3).map(n => n.target.join(' ') + ' ' + (n.failureSummary || '')"
        ".split('\\n').slice(0, 2).join(' ')).join(' | '))])",
        TAGS,
    )
    passes, violations = found
    assert passes > 5, "axe-core did not run its checks"
    return violations


def in_both_schemes(page: Page) -> list[str]:
    """axe's violations on the page as it is, in the light scheme and then the dark one (the CSS
    follows ``prefers-color-scheme`` at once, no reload): one visit checks both. Left light."""
    found = []
    for scheme in ("dark", "light"):
        page.emulate_media(color_scheme=scheme)
        found += [f"({scheme}) {v}" for v in axe_violations(page)]
    return found


# Every visible thing a thumb can hit: a radio or a checkbox is hit through its label.
SMALL_TARGETS = """
() => {
  const out = [], seen = new Set();
  const all = document.querySelectorAll(
    'a[href], button, input:not([type=hidden]), select, textarea, summary, [role=button]');
  for (const el of all) {
    let target = el;
    if (el.matches('input[type=radio], input[type=checkbox]') && el.closest('label')) {
      target = el.closest('label');
    }
    if (seen.has(target)) continue;
    seen.add(target);
    if (target.closest('[hidden], .visually-hidden')) continue;
    const style = getComputedStyle(target);
    if (style.visibility === 'hidden' || style.display === 'none') continue;
    const r = target.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) continue;
    if (r.width < 44 - 0.5 || r.height < 44 - 0.5) {
      const text = (target.innerText || target.value || target.getAttribute('aria-label') || '').trim();
      out.push(target.tagName.toLowerCase() + '.' + target.className + ' "' + text.slice(0, 30) + '" '
               + r.width.toFixed(1) + 'x' + r.height.toFixed(1));
    }
  }
  return out;
}
"""


def test_every_page_kind_passes_axe_light_and_dark_and_every_control_is_44_px(live_server, phone: Page):
    """Each page kind visited once: its controls measured, then axe in both colour schemes."""
    page = phone
    problems = []
    for url in page_kinds(page, live_server):
        page.goto(live_server + url)
        problems += [f"{url}: small {s}" for s in page.evaluate(SMALL_TARGETS)]
        problems += [f"{url}: {v}" for v in in_both_schemes(page)]
    assert not problems, f"{len(problems)} problems:\n" + "\n".join(problems)


def chip(page: Page, name: str, value) -> None:
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').tap()


def test_parts_an_entry_shows_after_a_tap_are_big_enough_and_pass_axe(live_server, phone: Page):
    """What the page-kind sweep above never sees: Spades' tricks beneath the bids, Euchre's
    turned-up suit after a round-2 trump, a tally filled in as the last deal."""
    page = phone
    problems = []

    def look(where: str) -> None:
        problems.extend(f"{where}: {s}" for s in page.evaluate(SMALL_TARGETS))
        problems.extend(f"{where}: {v}" for v in in_both_schemes(page))

    game_id, key = api_game(page, live_server, "spades")
    page.goto(f"{live_server}/g/{game_id}?key={key}")
    for seat in range(2):
        chip(page, f"bids_{seat}", 1)
    page.locator("#entry fieldset.tricks").wait_for(state="visible")
    look("spades, tricks beneath the bids")
    game_id, key = api_game(page, live_server, "euchre")
    page.goto(f"{live_server}/g/{game_id}?key={key}")
    chip(page, "round", 2)
    page.get_by_text("Turned-up suit, passed in round 1 (optional)").wait_for(state="visible")
    look("euchre, the turned-up suit")
    game_id, key = api_game(page, live_server, "tally", [{"points": [3, -1]}])
    page.goto(f"{live_server}/g/{game_id}?key={key}")
    page.get_by_role("link", name="Same as last deal").tap()
    page.locator(".same-last[role=status]").wait_for()
    look("tally, same as last deal")
    assert not problems, "\n".join(problems)
