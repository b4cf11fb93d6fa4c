"""Entry at the table on a 360x740 phone (issues 14 and 19): the totals in sight, errors where the
eye is, focus that follows, what a screen reader hears and names."""

from __future__ import annotations

from playwright.sync_api import Page, expect


def start_secret_agent(page: Page, base: str) -> None:
    page.goto(base + "/new/secret_agent")
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        page.fill(f"#players_{seat}", name)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".status")).to_contain_text("Deal 1 of 4")


def tap(page: Page, name: str, value: str) -> None:
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').tap()


def tap_deal(page: Page, tricks, cards: str) -> None:
    """Tap a Secret Agent deal's tricks and assignment cards, seat by seat."""
    for seat, (t, a) in enumerate(zip(tricks, cards, strict=True)):
        tap(page, f"tricks_{seat}", str(t))
        tap(page, f"agents_{seat}", a)


def in_viewport(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    return box is not None and box["y"] >= -1 and box["y"] + box["height"] <= 740 + 1


def test_the_totals_bar_stays_in_sight_while_scrolling_to_record(live_server, phone: Page):
    page = phone
    start_secret_agent(page, live_server)
    tap_deal(page, [13, 0, 0, 0], "SLOR")
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator("#totals-bar")).to_contain_text("169")
    record = page.get_by_role("button", name="Record deal")
    record.scroll_into_view_if_needed()
    assert in_viewport(page, "#totals-bar") and in_viewport(page, "#entry button.primary")
    assert page.evaluate("window.scrollY") > 300  # the form really scrolled
    bar = page.locator("#totals-bar").inner_text()
    for name, total in [("Ann", "169"), ("Bob", "100"), ("Cid", "130"), ("Dee", "100")]:
        assert name in bar and total in bar
    expect(page.locator("#totals-bar .tb-dealer")).to_contain_text("Bob")


def test_a_save_is_announced_and_focus_moves_to_the_next_entry(live_server, phone: Page):
    page = phone
    start_secret_agent(page, live_server)
    tap_deal(page, [13, 0, 0, 0], "SLOR")
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator("#announce")).to_have_text("Deal 1 recorded. Ann leads with 169.")
    expect(page.locator("#announce")).to_have_attribute("aria-live", "polite")
    expect(page.locator("#tricks_0-0")).to_be_focused()


def test_a_refusal_focuses_the_summary_naming_the_real_problem(live_server, phone: Page):
    page = phone
    start_secret_agent(page, live_server)
    tap(page, "tricks_0", "10")
    tap(page, "tricks_1", "10")
    page.get_by_role("button", name="Record deal").tap()
    summary = page.locator("#error-summary")
    expect(summary).to_be_focused()
    expect(summary).to_contain_text("The tricks add up to 20; a deal has 13.")
    expect(summary).to_contain_text("Choose Ann's assignment card.")
    assert in_viewport(page, "#error-summary")
    expect(page.locator("#announce")).to_have_text("The tricks add up to 20; a deal has 13.")
    summary.get_by_role("link", name="Choose Ann's assignment card.").tap()
    assert page.evaluate("location.hash") == "#agents_0-0"


def test_the_chips_are_named_by_their_player(live_server, phone: Page):
    page = phone
    start_secret_agent(page, live_server)
    tricks = page.locator("fieldset.tricks")
    names = [g.get_attribute("aria-labelledby") for g in tricks.get_by_role("radiogroup").all()]
    assert names == ["tricks_0-who", "tricks_1-who", "tricks_2-who", "tricks_3-who"]
    # What a screen reader reads: the group "Bob", its radio "3".
    expect(
        tricks.get_by_role("radiogroup", name="Bob").get_by_role("radio", name="3", exact=True)
    ).to_have_count(1)
    agents = page.locator("fieldset.agents")
    expect(agents.get_by_role("radiogroup", name="Cid").get_by_role("radio", name="Left")).to_have_count(1)
    snapshot = page.locator("fieldset.tricks").aria_snapshot()
    assert '- radiogroup "Ann"' in snapshot and '- radio "13"' in snapshot


def test_the_keyboard_fills_the_last_player_only_when_the_values_settle(live_server, phone: Page):
    page = phone
    start_secret_agent(page, live_server)
    tap(page, "tricks_0", "4")
    tap(page, "tricks_1", "3")
    page.focus("#tricks_2-0")
    page.keyboard.press("Space")  # Cid 0: not yet Dee's cue, more arrow steps may follow
    dee = page.locator('input[name="tricks_3"]:checked')
    for _step in range(3):
        page.keyboard.press("ArrowRight")
    assert page.locator('input[name="tricks_2"][value="3"]').is_checked()
    expect(dee).to_have_value("3")  # 13 - 4 - 3 - 3, once the keys rest
    page.keyboard.press("ArrowRight")  # Cid 4: Dee, still untouched, follows again
    expect(dee).to_have_value("2")
    tap(page, "tricks_3", "5")  # now the scorer's own choice: never refilled
    tap(page, "tricks_2", "1")
    page.wait_for_timeout(1000)
    expect(dee).to_have_value("5")


def test_the_preview_equals_what_is_then_recorded(live_server, phone: Page):
    page = phone
    start_secret_agent(page, live_server)
    tap_deal(page, [4, 3, 3, 3], "LORS")
    tap_deal(page, [5, 2, 6, 0], "ROSL")  # a second thought
    # The preview asks 400 ms after the last change: read it once that answer is in (an earlier
    # one, of a state between the taps, may still be showing until then).
    page.wait_for_load_state("networkidle")
    page.wait_for_timeout(900)
    totals = page.locator("#preview .pv-total")
    expect(totals).to_have_count(4)
    expect(page.locator("#preview")).to_contain_text("If recorded:")
    page.locator("#preview summary").first.tap()  # the explanation, on tap, already in the page
    expect(page.locator("#preview .why").first).to_be_visible()
    shown = totals.all_inner_texts()
    page.get_by_role("button", name="Check").tap()  # asks again; records nothing
    expect(page.locator("#preview")).to_contain_text("If recorded:")
    assert totals.all_inner_texts() == shown
    assert page.locator(".board tbody td").count() == 1  # "No deal yet": the preview saved nothing
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 2 of 4")
    expect(page.locator(".board tfoot td")).to_have_text(shown)
    # A deal that breaks a rule shows the rule before Record.
    tap(page, "tricks_0", "10")
    tap(page, "tricks_1", "10")
    expect(page.locator("#preview")).to_contain_text("The tricks add up to 20; a deal has 13.")


def test_undo_tells_the_truth_through_undo_redo_and_a_reload(live_server, phone: Page):
    page = phone
    start_secret_agent(page, live_server)
    for number, deal in enumerate(([4, 3, 3, 3], [4, 3, 3, 3]), start=2):
        tap_deal(page, deal, "LORS")
        page.get_by_role("button", name="Record deal").tap()
        # The next taps wait for the new form: taps into the old one, while htmx swaps, are lost.
        expect(page.locator(".status")).to_contain_text(f"Deal {number} of 4")
    page.goto(page.url.split("#")[0] + "/deals/1")
    tap_deal(page, [13, 0, 0, 0], "SLOR")
    page.get_by_role("button", name="Save correction").tap()
    bar = page.locator("#undo-bar")
    expect(bar).to_contain_text("Deal 2 was corrected.")
    bar.get_by_role("button", name="Undo").tap()
    expect(page.locator("main")).to_contain_text("Undone: Deal 2 corrected.")
    # No "was corrected" left, no Undo that would redo: the bar now only says what was undone.
    expect(bar).not_to_contain_text("was corrected")
    expect(page.get_by_role("button", name="Undo")).to_have_count(0)
    page.reload()
    expect(page.locator(".board tfoot td")).to_have_text(["24", "18", "18", "18"])
    expect(bar).to_have_count(0)
    # Redo, by undoing the undo in the history: the correction is back, and so is its Undo.
    page.get_by_role("link", name="History and undo").tap()
    page.wait_for_url("**/history")
    # The undo is a real form post: wait for its answer, or the next tap may leave the page
    # (and load the game) before the server has undone anything.
    with page.expect_navigation():
        page.locator("form:has(button)").filter(has_text="Undo").first.get_by_role("button").tap()
    page.get_by_role("link", name="Back to the game").tap()
    expect(bar).to_contain_text("Deal 2 was corrected.")
