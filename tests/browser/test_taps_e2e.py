"""Taps per typical deal, counted in the browser at 360x740 (issue 14's goals; the README tables them).

Every trusted click (a tap is one) is counted by the page itself, across swaps and page loads;
a deal's count runs from its first tap to Record."""

from __future__ import annotations

from playwright.sync_api import Page, expect

SPIES = ["club", "diamond", "heart", "spade"]

COUNT = """
document.addEventListener("click", function (e) {
  if (e.isTrusted) { sessionStorage.taps = String(Number(sessionStorage.taps || 0) + 1); }
}, true);
"""
# Taps per typical deal: what the README's table says, and the goal of issue 14.
GOALS = {"secret_agent": 8, "spades3": 6, "euchre": 5, "secrets3": 18, "abracadabra4": 20}


def taps(page: Page) -> int:
    return int(page.evaluate("Number(sessionStorage.taps || 0)"))


def reset(page: Page) -> None:
    page.evaluate("sessionStorage.taps = '0'")


def chip(page: Page, name: str, value) -> None:
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').tap()


def start(page: Page, base: str, kind: str, players, first="Deal 1", **options) -> None:
    page.add_init_script(COUNT)
    page.goto(f"{base}/new/{kind}")
    for seat, name in enumerate(players):
        page.fill(f"#players_{seat}", name)
    for name, value in options.items():
        chip(page, f"opt_{name}", value)
    page.get_by_role("button", name="Start the game").tap()
    expect(page.locator(".status")).to_contain_text(first)


def test_secret_agent_taps_per_deal(live_server, phone: Page):
    page = phone
    start(page, live_server, "secret_agent", ["Ann", "Bob", "Cid", "Dee"])
    reset(page)
    for seat, t in enumerate([4, 3, 3]):  # the fourth count follows
        chip(page, f"tricks_{seat}", t)
    for seat, card in enumerate("LORS"):
        chip(page, f"agents_{seat}", card)
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 2")
    assert taps(page) == 8 <= GOALS["secret_agent"]


def test_spades_cutthroat_three_players_taps_per_deal(live_server, phone: Page):
    page = phone
    start(page, live_server, "spades", ["Ann", "Bob", "Cid"])
    reset(page)
    for seat, bid in enumerate([5, 6, 4]):
        chip(page, f"bids_{seat}", bid)
    # The last bid shows the tricks beneath (no "Bids done" tap) and keeps the bids in the background.
    expect(page.locator(".board tr.sp-pending sup")).to_have_text(["5", "6", "4"])
    expect(page.get_by_role("button", name="Bids done: play the hand")).to_be_hidden()
    total = int(page.locator("fieldset.tricks").get_attribute("data-sum"))
    chip(page, "tricks_0", 5)
    chip(page, "tricks_1", 6)  # Cid's follows
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 2")
    assert total >= 11
    # Ann 5 of 5: 50; Bob 6 of 6: 60; Cid 4 of 7: 40 + 3 bags = 43.
    assert page.locator(".board tfoot tr:first-child td").all_inner_texts() == ["50", "60", "43"]
    assert taps(page) == 6 <= GOALS["spades3"]


def test_euchre_taps_per_deal(live_server, phone: Page):
    page = phone
    start(page, live_server, "euchre", ["Ann", "Bob", "Cid", "Dee"])
    reset(page)
    chip(page, "trump", "H")
    chip(page, "round", "1")
    chip(page, "maker", "0")
    chip(page, "maker_tricks", "3")
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 2")
    assert taps(page) == 5 <= GOALS["euchre"]


def test_secrets_three_players_taps_per_turn(live_server, phone: Page):
    page = phone
    start(page, live_server, "secrets", ["Ann", "Bob", "Cid"], first="Turn 1")
    # The worked turn of secrets.md: every spy sent, every policeman placed.
    orders = [
        [("club", 1, 2), ("diamond", 2, 9), ("heart", 1, 7), ("spade", 2, 5)],
        [("club", 0, 3), ("diamond", 2, 9), ("heart", 0, 8), ("spade", 2, 1)],
        [("club", 0, 8), ("diamond", 1, 2), ("heart", 0, 1), ("spade", 1, 4)],
    ]
    reset(page)
    for seat, mine in enumerate(orders):
        for spy, target, secret in mine:
            chip(page, f"order_{seat}_{spy}", f"{target}-{secret}")  # player and secret: one tap
        chip(page, f"guards_{seat}", [3, 7, 5][seat])
    page.get_by_role("button", name="Resolve turn 1").tap()
    expect(page.locator(".status")).to_contain_text("Turn 2")
    assert taps(page) == 16 <= GOALS["secrets3"]
    # Turn 2: the captured spies are gone, and each policeman who caught one stays where he was.
    reset(page)
    for seat, spies in enumerate([["club", "diamond"], ["diamond", "heart", "spade"], SPIES]):
        for spy in spies:
            chip(page, f"order_{seat}_{spy}", f"{(seat + 1) % 3}-6")
    page.get_by_role("button", name="Resolve turn 2").tap()
    expect(page.locator(".status")).to_contain_text("Turn 3")
    assert taps(page) == 10


def test_abracadabra_four_players_taps_per_deal(live_server, phone: Page):
    """Deal 2 (the bid suits of deal 1 are kept): the Declarer bids 3 and two others lay 2 and 1."""
    page = phone
    start(page, live_server, "abracadabra", ["Ann", "Bob", "Cid", "Dee"])
    for seat, suit in enumerate("HSDC"):
        chip(page, f"suits_{seat}", suit)
    page.get_by_role("button", name="All passed: record a thrown-in deal").tap()
    expect(page.locator(".abra-head")).to_have_text("Deal 2: before play")
    reset(page)
    chip(page, "trump", "D")
    for seat, ranks in enumerate([[5, 11], [4], [], [6, 7, 8]]):
        for rank in ranks:
            chip(page, f"bid_cards_{seat}", rank)
    page.get_by_role("button", name="Start play").tap()  # Dee declared 3: it follows from her cards
    expect(page.locator(".abra-deal")).to_contain_text("Dee declared 3")
    for seat in [2, 2, 1, 1, 0, 3, 3, 3, 0, 0, 0, 1, 1]:
        page.locator(f'button.abra-tap[value="{seat}"]').tap()
    expect(page.locator(".abra-head")).to_have_text("All 13 tricks are in")
    for seat, count in enumerate([3, 4, 1, 3]):
        chip(page, f"suit_cards_{seat}", count)
    expect(page.locator("#preview")).to_contain_text("If recorded:")
    page.get_by_role("button", name="Score the deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 3 of 5")
    # 26 = trump + 6 bid cards + Start play + 13 winners + 4 counts + Score. Over the goal: with
    # the set-up at its least (trump, the bid cards; suits kept, Declarer and bid following),
    # 13 winners, 4 counts and the two confirmations make 20 before the first bid card.
    assert taps(page) == 26


def test_tally_same_as_last_deal_taps(live_server, phone: Page):
    page = phone
    start(page, live_server, "tally", ["Ann", "Bob", "Cid"])
    for seat, value in enumerate(["15", "", "5"]):
        page.fill(f"#points_{seat}", value)
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 2")
    reset(page)
    # A deal like the last: one tap fills the form (nothing recorded yet), one records it.
    page.get_by_role("link", name="Same as last deal").tap()
    expect(page.locator("#points_0")).to_have_value("15")
    expect(page.locator("#points_1")).to_have_value("0")
    expect(page.locator(".status")).to_contain_text("Deal 2")
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 3")
    assert page.locator(".board tfoot tr:first-child td").all_inner_texts() == ["30", "0", "10"]
    assert taps(page) == 2
