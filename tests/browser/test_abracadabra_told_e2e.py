"""Abracadabra as the players report it (issue 53), tapped on a 360x740 phone over whole games of
four, three and two players: taps per deal, where each tap goes, and the totals as the rules
file scores them. Each tap is a trusted click counted by the page itself (tests/browser/
test_taps_e2e.py's counter); a deal's count runs from its first tap to *Score the deal*.

One tap a bid card (under "laid" if its trick was lost, under "won" if won: a won card is laid
too), each player's trick count but the last (it follows), each player's bid-suit cards, Score."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from tests.browser.test_taps_e2e import finished, median, recorded, reset, start, taps, watch


def chip(page: Page, name: str, value) -> None:
    page.locator(f'#entry label.chip:has(input[name="{name}"][value="{value}"])').tap()


def counts(bid_cards, winners, n):
    tricks = [winners.count(seat) for seat in range(n)]
    won = [[r for r in cards if winners[r - 1] == seat] for seat, cards in enumerate(bid_cards)]
    return tricks, won


def play_told(page: Page, deals, n: int, suits: str) -> tuple[list[int], list[dict]]:
    per_deal, breakdown = [], []
    for k in range(12):
        if finished(page):
            break
        bid_cards, winners, suit_cards = deals[k % len(deals)]
        tricks, won = counts(bid_cards, winners, n)
        reset(page)
        where = {"suits": 0, "laid, lost": 0, "won": 0, "tricks": 0, "suit cards": 0, "score": 1}
        if k == 0:
            for seat, suit in enumerate(suits[: n - 1] if n == 4 else suits[:n]):
                chip(page, f"suits_{seat}", suit)
                where["suits"] += 1
        for seat, cards in enumerate(bid_cards):
            for rank in cards:
                if rank in won[seat]:
                    chip(page, f"bid_won_{seat}", rank)
                    expect(page.locator(f'input[name="bid_cards_{seat}"][value="{rank}"]')).to_be_checked()
                    where["won"] += 1
                else:
                    chip(page, f"bid_cards_{seat}", rank)
                    where["laid, lost"] += 1
        for seat, count in enumerate(tricks[:-1]):
            chip(page, f"tricks_{seat}", count)
            where["tricks"] += 1
        # The last player's count follows, visibly.
        expect(page.locator(f'input[name="tricks_{n - 1}"][value="{tricks[-1]}"]')).to_be_checked()
        for seat, count in enumerate(suit_cards):
            chip(page, f"suit_cards_{seat}", count)
            where["suit cards"] += 1
        expect(page.locator("#preview")).to_contain_text("If recorded:")
        page.get_by_role("button", name="Score the deal").tap()
        recorded(page, k)
        per_deal.append(taps(page))
        assert taps(page) == sum(where.values()), (taps(page), where)
        breakdown.append(where)
    assert finished(page)
    return per_deal, breakdown


# The four deals of tests/browser/test_taps_e2e.py's whole game (every bid trick won: the most
# taps a bid card could cost before) and the rules file's worked example (Dee loses her three).
FOUR_DEALS = [
    ([[5, 11], [4], [], [6, 7, 8]], [2, 2, 1, 1, 0, 3, 3, 3, 0, 0, 0, 1, 1], [3, 4, 1, 3]),
    ([[2, 9, 10], [1, 3], [12], []], [1, 0, 1, 3, 3, 2, 2, 2, 0, 0, 3, 2, 3], [1, 2, 4, 3]),
    ([[1], [7, 13], [2, 3, 4], [9]], [0, 2, 2, 2, 1, 1, 1, 3, 3, 3, 0, 1, 1], [2, 5, 3, 2]),
    ([[5, 11], [4, 12], [1, 2], [6, 7, 8]], [2, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1], [6, 5, 1, 0]),
]


def test_four_players_as_reported_at_most_20_taps_a_deal(live_server, phone: Page):
    page = phone
    errors = watch(page)
    start(page, live_server, "abracadabra", ["Helen", "David", "Cid", "Dee"])
    per_deal, breakdown = play_told(page, FOUR_DEALS, 4, "HSDC")
    print("abracadabra 4 reported: taps per deal", per_deal, "breakdown", breakdown)
    assert median(per_deal) <= 20 and max(per_deal) <= 20, per_deal
    # The worked example, deal 4: Helen 55, David 50, Cid 27, Dee 0 (each cell: the deal, the total).
    cells = page.locator(".board tbody tr[id^=deal-]").nth(3).locator("td").all_inner_texts()
    assert [cell.split()[0] for cell in cells[:4]] == ["55", "50", "27", "0"]
    assert errors == []


THREE_DEALS = [
    ([[5, 11], [4, 12], [1, 2, 3]], [2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1], [6, 5, 1]),
    ([[2], [7, 9], []], [0, 0, 1, 1, 2, 2, 1, 0, 1, 2, 2, 2], [2, 3, 4]),
    ([[], [3], [6, 8]], [1, 0, 1, 0, 0, 2, 2, 2, 1, 1, 0, 0], [3, 2, 1]),
]


def test_three_players_fewer_still(live_server, phone: Page):
    page = phone
    errors = watch(page)
    start(page, live_server, "abracadabra", ["Helen", "David", "Dee"])
    per_deal, breakdown = play_told(page, THREE_DEALS, 3, "HSC")
    print("abracadabra 3 reported: taps per deal", per_deal, "breakdown", breakdown)
    assert median(per_deal) < 20, per_deal
    assert errors == []


TWO_DEALS = [
    ([[1, 2], [5]], [0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1], [4, 3]),
    ([[9], [3, 4]], [1, 0, 1, 1, 0, 0, 0, 1, 0, 1, 1, 1], [2, 5]),
]


def test_two_players_fewer_still(live_server, phone: Page):
    page = phone
    errors = watch(page)
    start(page, live_server, "abracadabra", ["Ann", "Bob"])
    per_deal, breakdown = play_told(page, TWO_DEALS, 2, "SH")
    print("abracadabra 2 reported: taps per deal", per_deal, "breakdown", breakdown)
    assert median(per_deal) < 15, per_deal
    assert errors == []
