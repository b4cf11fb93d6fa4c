"""Taps per typical deal, counted in the browser at 360x740 (issue 14's goals; docs/players.md tables them).

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
# Taps per typical deal: what docs/players.md's table says, and the goal of issue 14.
GOALS = {"secret_agent": 8, "spades3": 6, "euchre": 5, "secrets3": 18, "abracadabra4": 20}
# Issue 41's goals, median taps per deal over a whole game (before: secret agent 8, euchre 6,
# spades 6 and 8, Abracadabra 29 with 4 players, Secrets' turn 1 at 4 players 37).
GOALS41 = {
    "secret_agent": 7,
    "euchre": 5,
    "spades3": 6,
    "spades_pairs": 8,
    "abracadabra4": 20,
    "secrets4_turn1": 22,
}


def taps(page: Page) -> int:
    return int(page.evaluate("Number(sessionStorage.taps || 0)"))


def reset(page: Page) -> None:
    page.evaluate("sessionStorage.taps = '0'")


def chip(page: Page, name: str, value) -> None:
    page.locator(f'label.chip:has(input[name="{name}"][value="{value}"])').tap()


def start(page: Page, base: str, kind: str, players, first="Deal 1", **options) -> None:
    if not getattr(page, "_counting", False):  # once per page: twice would count each tap twice
        page.add_init_script(COUNT)
        page._counting = True  # type: ignore[attr-defined]
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
    for seat, card in enumerate("LOR"):  # the fourth card follows (issue 41), visibly
        chip(page, f"agents_{seat}", card)
    expect(page.locator('input[name="agents_3"][value="S"]')).to_be_checked()
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 2")
    assert taps(page) == 7 <= GOALS41["secret_agent"]  # 8 before issue 41


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
    # "Turned up or named" changes no score: marked optional, left untapped (issue 41).
    expect(page.locator("#round-who")).to_have_text("Turned up or named (optional)")
    chip(page, "maker", "0")
    chip(page, "maker_tricks", "3")
    page.get_by_role("button", name="Record deal").tap()
    expect(page.locator(".status")).to_contain_text("Deal 2")
    assert taps(page) == 4 <= GOALS41["euchre"]  # 5 before issue 41 (the round tapped)


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
    expect(page.locator(".abra-head")).to_have_text("Deal 2")
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


# -- Whole games (issue 41): taps per deal over a realistic game of each kind, and not one console
# error on any page or reply along the way (htmx logs a reply's part it cannot place, for one).


def watch(page: Page) -> list[str]:
    """Every console error and uncaught exception of the page from now on."""
    errors: list[str] = []
    page.on("console", lambda m: errors.append(f"{m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: errors.append(f"pageerror: {e}"))
    return errors


def finished(page: Page) -> bool:
    return page.locator("#entry").count() == 0


def median(values: list[int]) -> float:
    ordered = sorted(values)
    mid = len(ordered) // 2
    return ordered[mid] if len(ordered) % 2 else (ordered[mid - 1] + ordered[mid]) / 2


def recorded(page: Page, before: int) -> None:
    """Wait for the board to show one more row than ``before`` (the reply is in)."""
    expect(page.locator(".board tbody tr[id^=deal-]")).to_have_count(before + 1)


def test_whole_secret_agent_game(live_server, phone: Page):
    page = phone
    errors = watch(page)
    start(page, live_server, "secret_agent", ["Ann", "Bob", "Cid", "Dee"])
    deals = [([4, 3, 3, 3], "LORS"), ([5, 4, 2, 2], "SLOR"), ([0, 6, 4, 3], "ORSL"), ([2, 2, 8, 1], "RSLO")]
    per_deal = []
    for k in range(12):
        if finished(page):
            break
        tricks, cards = deals[k % 4]
        reset(page)
        for seat, t in enumerate(tricks[:3]):
            chip(page, f"tricks_{seat}", t)
        for seat, card in enumerate(cards[:3]):
            chip(page, f"agents_{seat}", card)
        # The last card is the one left: filled in at once, and changeable like any chip.
        expect(page.locator(f'input[name="agents_3"][value="{cards[3]}"]')).to_be_checked()
        page.get_by_role("button", name="Record deal").tap()
        recorded(page, k)
        per_deal.append(taps(page))
    assert finished(page) and len(per_deal) >= 4
    print("secret_agent taps per deal", per_deal)
    assert median(per_deal) <= GOALS41["secret_agent"], per_deal
    assert errors == []


def test_whole_euchre_game(live_server, phone: Page):
    page = phone
    errors = watch(page)
    start(page, live_server, "euchre", ["Ann", "Bob", "Cid", "Dee"])
    # (trump, maker, tricks, maker alone): typical hands, a march and a lone hand among them.
    hands = [
        ("H", 0, 3, False),
        ("S", 1, 4, False),
        ("D", 2, 5, False),
        ("C", 3, 1, False),
        ("H", 0, 5, True),
    ]
    per_deal = []
    for k in range(30):
        if finished(page):
            break
        trump, maker, won, alone = hands[k % len(hands)]
        reset(page)
        chip(page, "trump", trump)
        chip(page, "maker", maker)
        if alone:
            chip(page, "alone", 1)
        chip(page, "maker_tricks", won)
        page.get_by_role("button", name="Record deal").tap()
        recorded(page, k)
        per_deal.append(taps(page))
    assert finished(page)
    print("euchre taps per deal", per_deal)
    assert median(per_deal) <= GOALS41["euchre"], per_deal
    assert errors == []


def spades_game(page: Page, bids_of, tricks_of, target: int) -> list[int]:
    per_deal = []
    n = len(bids_of[0])
    for k in range(40):
        if finished(page):
            break
        reset(page)
        bids, won = bids_of[k % len(bids_of)], tricks_of[k % len(tricks_of)]
        for seat, bid in enumerate(bids):
            chip(page, f"bids_{seat}", bid)
        expect(page.locator("#entry fieldset.tricks")).to_be_visible()
        for seat, t in enumerate(won[: n - 1]):
            chip(page, f"tricks_{seat}", t)
        expect(page.locator(f'input[name="tricks_{n - 1}"][value="{won[-1]}"]')).to_be_checked()
        page.get_by_role("button", name="Record deal").tap()
        recorded(page, k)
        per_deal.append(taps(page))
    assert finished(page), target
    return per_deal


def test_whole_spades_games_cutthroat_and_pairs(live_server, phone: Page):
    page = phone
    errors = watch(page)
    start(page, live_server, "spades", ["Ann", "Bob", "Cid"])
    expect(page.locator(".status")).to_contain_text("18 tricks")
    cut = spades_game(page, [[5, 6, 4], [6, 5, 6]], [[5, 6, 7], [7, 5, 6]], 500)
    print("spades cutthroat 3 taps per deal", cut)
    assert median(cut) <= GOALS41["spades3"], cut
    # Four names and Seating untapped: pairs (issue 41), nil bids offered.
    start(page, live_server, "spades", ["Ann", "Bob", "Cid", "Dee"])
    expect(page.locator(".board thead th")).to_contain_text(["Ann & Cid"])
    pairs = spades_game(page, [[4, 3, 3, 2], [5, 2, 3, 3]], [[4, 3, 3, 3], [5, 3, 3, 2]], 500)
    print("spades pairs taps per deal", pairs)
    assert median(pairs) <= GOALS41["spades_pairs"], pairs
    assert errors == []


def test_whole_tally_game_ends_with_the_last_deal_kept(live_server, phone: Page):
    page = phone
    errors = watch(page)
    page.on("dialog", lambda dialog: dialog.accept())
    start(page, live_server, "tally", ["Ann", "Bob", "Cid"])
    per_deal = []
    for k, values in enumerate([["15", "", "5"], ["", "20", ""], ["7", "7", ""]]):
        reset(page)
        for seat, value in enumerate(values):
            if value:
                page.locator(f"#points_{seat}").tap()
                page.keyboard.type(value)
        page.get_by_role("button", name="Record deal").tap()
        recorded(page, k)
        per_deal.append(taps(page))
    # The last deal typed, then End game: it is kept (issue 41).
    page.locator("#points_2").tap()
    page.keyboard.type("30")
    page.locator("summary", has_text="End game").tap()  # asked once (issue 53)
    page.get_by_role("button", name="Yes, end the game").tap()
    expect(page.locator("#entry")).to_have_count(0)
    assert page.locator(".board tfoot tr:first-child td").all_inner_texts() == ["22", "27", "35"]
    print("tally taps per deal", per_deal)
    assert per_deal == [3, 2, 3]  # one tap per non-zero score, and Record
    assert errors == []


def test_whole_abracadabra_game_four_players(live_server, phone: Page):
    """Four deals of four players; the bid suits taken in deal 1 (the fourth follows) and kept.
    Trump and the suits are optional (issue 41): this table notes neither after deal 1."""
    page = phone
    errors = watch(page)
    start(page, live_server, "abracadabra", ["Ann", "Bob", "Cid", "Dee"])
    # (bid cards per seat, winners of the 13 tricks, own-suit cards won per seat): each a deal that
    # can happen (the counts fit the tricks); a different Declarer each deal.
    deals = [
        ([[5, 11], [4], [], [6, 7, 8]], [2, 2, 1, 1, 0, 3, 3, 3, 0, 0, 0, 1, 1], [3, 4, 1, 3]),
        ([[2, 9, 10], [1, 3], [12], []], [1, 0, 1, 3, 3, 2, 2, 2, 0, 0, 3, 2, 3], [1, 2, 4, 3]),
        ([[1], [7, 13], [2, 3, 4], [9]], [0, 2, 2, 2, 1, 1, 1, 3, 3, 3, 0, 1, 1], [2, 5, 3, 2]),
        ([[], [6], [8, 12], [1, 2, 3]], [3, 3, 3, 0, 0, 1, 2, 2, 1, 0, 2, 2, 2], [1, 1, 5, 2]),
    ]
    per_deal = []
    for k in range(8):
        if finished(page):
            break
        bid_cards, winners, counts = deals[k % 4]
        reset(page)
        if k == 0:
            for seat, suit in enumerate("HSD"):
                chip(page, f"suits_{seat}", suit)
            # The fourth suit is the one left: filled in at once, visibly.
            expect(page.locator('input[name="suits_3"][value="C"]')).to_be_checked()
        for seat, ranks in enumerate(bid_cards):
            for rank in ranks:
                chip(page, f"bid_cards_{seat}", rank)
        # No "Start play": trick 1's winner, tapped on the set-up, starts play (issue 41).
        page.locator(f'button.abra-first-tap[value="{winners[0]}"]').tap()
        expect(page.locator(".abra-head")).to_contain_text("Who won trick 2?")
        for seat in winners[1:]:
            page.locator(f'button.abra-tap[value="{seat}"]').tap()
        expect(page.locator(".abra-head")).to_have_text("All 13 tricks are in")
        for seat, count in enumerate(counts):
            chip(page, f"suit_cards_{seat}", count)
        page.get_by_role("button", name="Score the deal").tap()
        recorded(page, k)
        per_deal.append(taps(page))
    assert finished(page)
    print("abracadabra 4 taps per deal", per_deal)
    # Bid cards + 13 winners + 4 counts + Score: 18 and one per bid card (deal 1: 3 suits more);
    # before issue 41 trump and Start play made it 20 and one per card.
    assert per_deal[1:] == [len(sum(d[0], [])) + 18 for d in deals[1 : len(per_deal)]]
    assert errors == []


def test_whole_secrets_game_four_players(live_server, phone: Page):
    """Five turns of four players, every spy sent each turn: one tap an order (issue 41), the next
    spy's keypads opening by themselves. Players 0 and 2 send theirs at the same secrets of 1 and
    3, who do the same to them: every order clashes, so every spy stays free; each policeman
    moves on (he caught nobody)."""
    page = phone
    errors = watch(page)
    start(page, live_server, "secrets", ["Ann", "Bob", "Cid", "Dee"], first="Turn 1")
    per_turn = []
    for turn in range(1, 6):
        reset(page)
        for seat in range(4):
            a, b = (1, 3) if seat % 2 == 0 else (0, 2)
            for spy, (target, secret) in zip(SPIES, [(a, 9), (a, 8), (b, 9), (b, 8)], strict=True):
                chip(page, f"order_{seat}_{spy}", f"{target}-{secret}")
            chip(page, f"guards_{seat}", turn)
        page.get_by_role("button", name=f"Resolve turn {turn}").tap()
        expect(page.locator(".sx-board tbody tr")).to_have_count(turn)
        per_turn.append(taps(page))
    assert finished(page)
    print("secrets 4 taps per turn", per_turn)
    assert per_turn[0] <= GOALS41["secrets4_turn1"] and per_turn == [21] * 5  # 37 before issue 41
    assert errors == []


def test_secrets_turn_form_at_six_players_fits_two_screens(live_server, phone: Page):
    page = phone
    errors = watch(page)
    names = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
    start(page, live_server, "secrets", names, first="Turn 1")
    form = page.locator("#entry")

    def height() -> float:
        box = form.bounding_box()
        assert box is not None
        return box["height"]

    # Folded to the next order: Ann's club, its five keypads; everything else a line. (The fold
    # is the game's entry.js, run as the boosted page settles: measured once it has folded.)
    expect(page.locator("[data-sx-item][open]")).to_have_count(1)
    assert height() <= 2 * 740, height()
    chip(page, "order_0_club", "1-4")
    expect(page.locator("details[data-sx-item]").first).to_contain_text("Bob 4")
    assert height() <= 2 * 740, height()
    # A folded line opens to change what it holds.
    page.locator("details[data-sx-item] > summary").first.tap()
    chip(page, "order_0_club", "2-5")
    expect(page.locator("details[data-sx-item]").first).to_contain_text("Cid 5")
    assert page.evaluate("document.documentElement.scrollWidth") <= 360
    assert errors == []
