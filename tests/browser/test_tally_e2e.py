"""Tally end to end on a 360 px phone: the number pad with ±, live totals, one tap to record,
at most 1 + players taps per deal, teams, and End game."""

from playwright.sync_api import Page, expect

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]

# Every tap a thumb makes (trusted clicks); typing on the keyboard is not a tap.
COUNT_TAPS = """() => {
  window.__taps = 0;
  document.addEventListener("click", (e) => { if (e.isTrusted) window.__taps += 1; }, true);
}"""


def taps(page: Page) -> int:
    return page.evaluate("() => window.__taps")


def no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 360


def enter(page: Page, values) -> None:
    """One deal as a scorer types it: a negative number starts with ± (which picks the player)."""
    for seat, value in enumerate(values):
        if value < 0:
            page.locator(f'[data-pm="points_{seat}"]').tap()
        else:
            page.locator(f"#points_{seat}").tap()
        page.keyboard.type(str(abs(value)))


def test_a_tally_game_on_a_phone(live_server, phone: Page):
    page = phone
    page.on("dialog", lambda dialog: dialog.accept())
    page.goto(live_server + "/new/tally")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"#players_{seat}", name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator("#entry")).to_be_visible()
    no_sideways_scroll(page)
    for box in (page.locator("[data-pm]").first, page.locator("#points_0")):
        size = box.bounding_box()
        assert size["width"] >= 44 and size["height"] >= 44, size

    page.evaluate(COUNT_TAPS)
    enter(page, [10, -5, 0, 3])
    # The totals follow the typing before anything is recorded.
    expect(page.locator('[data-new-total="points_1"]')).to_have_text("Σ -5")
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".board tfoot td")).to_have_text(["10", "-5", "0", "3"])
    assert taps(page) <= 1 + len(PLAYERS), taps(page)

    before = taps(page)
    enter(page, [3, 4, -26, 1])
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".board tfoot td")).to_have_text(["13", "-1", "-26", "4"])
    assert taps(page) - before <= 1 + len(PLAYERS)
    no_sideways_scroll(page)

    # A non-integer is refused next to the player, the entry kept.
    page.locator("#points_0").tap()
    page.keyboard.type("1.5")
    for seat in (1, 2, 3):
        page.locator(f"#points_{seat}").tap()
        page.keyboard.type("1")
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator("#entry .error").first).to_contain_text("Ann: points are a whole number")
    expect(page.locator("#points_0")).to_have_value("1.5")

    # Issue 41: End game with the last deal typed records that deal first, then ends (a typed
    # deal is never lost); the end is drawn as a line saying so, not as a deal of zeros.
    page.locator("#points_0").fill("2")
    page.locator("summary", has_text="End game").tap()  # asked once (issue 53)
    page.get_by_role("button", name="Yes, end the game").tap()
    expect(page.locator(".status")).to_contain_text("Ann")
    expect(page.locator("#entry")).to_have_count(0)
    expect(page.locator(".board tfoot td")).to_have_text(["15", "0", "-25", "5"])
    expect(page.locator(".board tbody tr")).to_have_count(4)
    expect(page.locator(".board tbody tr.end-row")).to_contain_text("ended the game")


def test_tally_teams_on_a_phone(live_server, phone: Page):
    page = phone
    page.goto(live_server + "/new/tally")
    for seat, name in enumerate(PLAYERS):
        page.fill(f"#players_{seat}", name)
    page.locator("summary", has_text="Teams").tap()
    for seat, team in enumerate("1212"):
        page.fill(f'input[name="team_{seat}"]', team)
    page.fill("#opt_target", "20")
    page.get_by_role("button", name="Start the game").tap()
    page.evaluate(COUNT_TAPS)
    enter(page, [10, 3, 15, 4])
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".board tfoot td")).to_have_text(["25", "7", "25", "7"])
    assert taps(page) <= 1 + len(PLAYERS)
    expect(page.locator(".status")).to_contain_text("win")
    no_sideways_scroll(page)
