"""Spades: every worked example of shared/rules/spades.md, the issue's cases,
each option, the refusals, and property tests against a plain re-statement
of the rules. Every expected number below was worked out by hand from the
rules file (the arithmetic is in the comments)."""

import random
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from scorekeeper.games import GAMES
from scorekeeper.games.spades.rules import (
    Spades,
    bid_range,
    blind_allowed,
    check_bids,
    counts_bags,
    tricks_for,
    tricks_per_deal,
)
from scorekeeper.rules.base import InvalidFacts, Msg, Setup, check_setup, play

GAME = GAMES.get("spades")
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]


def table(n=4, **options):
    errors, setup = check_setup(GAME, NAMES[:n], options, 0)
    assert not errors, [str(e.message) for e in errors]
    return setup


def pairs(**options):
    return table(4, mode="partnership", **options)


def deal(bids, tricks, **more):
    return {"bids": bids, "tricks": tricks, **more}


def run(setup, *deals):
    return play(GAME, setup, list(deals))


def lines(result, k):
    return [x.render() for x in result.deals[k].explanations]


def errors_of(setup, facts):
    return GAME.check_deal(setup, GAME.start(setup), facts, 0)


def only_error(setup, facts, field):
    errors = errors_of(setup, facts)
    assert errors, f"accepted {facts}"
    assert {e.field for e in errors} == {field}, [(e.field, str(e.message)) for e in errors]
    assert all(isinstance(e.message, Msg) for e in errors)
    return errors


# -- registry and setup ------------------------------------------------------------
def test_registered_under_its_key():
    assert isinstance(GAME, Spades)
    assert GAME.key == "spades" and GAMES["spades"] is GAME


def test_option_keys_and_defaults_follow_the_game_record_spec():
    defaults = {o.key: o.default for o in GAME.options}
    assert defaults == {
        "mode": "cutthroat",
        "jokers": True,
        "target": 500,
        "sandbags": False,
        "set_penalty": False,
        "blind_nil": True,
        "lose_at": None,
        # events.md / game-record.md: a game of a fixed number of hands.
        "hands": None,
        "hands_tiebreak": False,
    }
    assert set(GAME.fact_keys) == {"bids", "tricks", "blind"}


def test_player_counts_by_mode():
    assert GAME.allowed_player_counts({"mode": "cutthroat"}) == (2, 3, 4, 5)
    assert GAME.allowed_player_counts({"mode": "partnership"}) == (4,)


@pytest.mark.parametrize("n", [1, 6])
def test_cutthroat_refuses_other_player_counts(n):
    errors, setup = check_setup(GAME, (NAMES + ["Fay"])[:n], {}, 0)
    assert setup is None and errors[0].field == "players"
    assert "2-5" in errors[0].message.render()


@pytest.mark.parametrize("n", [2, 3, 5])
def test_partnership_needs_four_players(n):
    errors, setup = check_setup(GAME, NAMES[:n], {"mode": "partnership"}, 0)
    assert setup is None and errors[0].field == "players"
    assert "4" in errors[0].message.render()


def test_check_setup_hook_refuses_pairs_without_four_seats():
    # The generic check already stops this; the hook says it in the game's words too.
    setup = Setup(("Ann", "Bob", "Cid"), {"mode": "partnership"}, 0)
    errors = GAME.check_setup(setup)
    assert errors and errors[0].field == "players"
    assert "partnership" in errors[0].message.render()


@pytest.mark.parametrize(
    "options, field",
    [
        ({"mode": "pairs"}, "mode"),
        ({"target": 0}, "target"),
        ({"target": "500"}, "target"),
        ({"lose_at": 0}, "lose_at"),
        ({"lose_at": 100}, "lose_at"),
        ({"jokers": "yes"}, "jokers"),
        ({"sandbags": 1}, "sandbags"),
    ],
)
def test_bad_option_values_are_refused(options, field):
    errors, setup = check_setup(GAME, NAMES[:4], options, 0)
    assert setup is None and [e.field for e in errors] == [field]


def test_any_target_and_a_floor_are_accepted():
    setup = table(4, target=200, lose_at=-200)
    assert setup.options["target"] == 200 and setup.options["lose_at"] == -200
    assert table(3, target=137).options["target"] == 137


def test_sides():
    assert GAME.sides(pairs()) == ((0, 2), (1, 3))
    assert GAME.sides(table(4)) == ((0,), (1,), (2,), (3,))
    assert GAME.sides(table(3)) == ((0,), (1,), (2,))


# -- the pack: tricks per deal --------------------------------------------------------
@pytest.mark.parametrize(
    "n, jokers, tricks",
    [
        (2, True, 26),  # 54 - 2C - 2D = 52 cards / 2
        (3, True, 18),  # 54 / 3
        (4, True, 13),  # 52 / 4
        (5, True, 10),  # 54 - four 2s = 50 / 5
        (2, False, 26),  # 52 / 2
        (3, False, 17),  # 52 - 2C = 51 / 3
        (4, False, 13),
        (5, False, 10),  # 52 - 2C - 2D = 50 / 5
    ],
)
def test_tricks_per_deal_table(n, jokers, tricks):
    setup = table(n, jokers=jokers)
    assert tricks_for(n, jokers) == tricks
    assert tricks_per_deal(setup) == GAME.tricks_per_deal(setup) == tricks
    bids = [1] * n
    right = [tricks - (n - 1)] + [1] * (n - 1)
    assert errors_of(setup, deal(bids, right)) == []
    short = [tricks - n] + [1] * (n - 1)
    (error,) = only_error(setup, deal(bids, short), "tricks")
    assert error.message.render() == f"The tricks add up to {tricks - 1}; a deal has {tricks}."


@pytest.mark.parametrize("jokers", [True, False])
def test_partnership_always_has_13_tricks(jokers):
    assert tricks_per_deal(pairs(jokers=jokers)) == 13


def test_tricks_for_refuses_impossible_tables():
    with pytest.raises(ValueError):
        tricks_for(6)


def test_bid_ranges_and_blind():
    assert bid_range(table(4)) == (1, 13)
    assert bid_range(table(2)) == (1, 26)
    assert bid_range(table(3, jokers=False)) == (1, 17)
    assert bid_range(pairs()) == (0, 13)
    assert blind_allowed(pairs()) and not blind_allowed(pairs(blind_nil=False))
    assert not blind_allowed(table(4))


# -- worked examples: cutthroat --------------------------------------------------------
def test_example_bid_7_won_7_scores_70():
    result = run(table(4), deal([7, 2, 2, 2], [7, 2, 2, 2]))
    assert result.deals[0].scores == (70, 20, 20, 20)
    assert lines(result, 0)[0] == "bid 7, won 7: 70"


def test_example_bid_5_won_8_scores_53():
    result = run(table(4), deal([5, 1, 1, 1], [8, 2, 2, 1]))
    # 50 + 3 bags = 53; 10 + 1 bag = 11; 10 + 1 bag = 11; 10
    assert result.deals[0].scores == (53, 11, 11, 10)
    assert lines(result, 0) == [
        "bid 5, won 8: 50 + 3 bags = 53",
        "bid 1, won 2: 10 + 1 bag = 11",
        "bid 1, won 2: 10 + 1 bag = 11",
        "bid 1, won 1: 10",
    ]


def test_example_bid_4_won_3_is_set_and_scores_0():
    result = run(table(4), deal([4, 4, 4, 1], [3, 4, 5, 1]))
    # set 0; 40; 40 + 1 bag = 41; 10
    assert result.deals[0].scores == (0, 40, 41, 10)
    assert lines(result, 0)[0] == "bid 4, won 3: set 0"
    assert result.deals[0].detail["made"] == [False, True, True, True]


def test_example_sandbags_8_held_bid_8_won_10():
    setup = table(4, sandbags=True)
    # Deal 1: Ann bids 1, wins 9 -> 10 + 8 bags = 18 and holds 8 bags.
    first = deal([1, 1, 1, 1], [9, 2, 1, 1])
    # Deal 2: Ann bids 8, wins 10 -> 80 + 2 = 82, 8 + 2 = 10 bags: -100, bags 0.
    second = deal([8, 1, 1, 1], [10, 1, 1, 1])
    result = run(setup, first, second)
    assert result.deals[0].scores == (18, 11, 10, 10)
    assert result.deals[0].detail["bags"] == [8, 1, 0, 0]
    assert result.deals[1].scores == (-18, 10, 10, 10)
    assert result.deals[1].detail["bags"] == [0, 1, 0, 0]
    assert result.deals[1].detail["bag_penalty"] == [True, False, False, False]
    assert lines(result, 1)[0] == "bid 8, won 10: 80 + 2 bags - 100 (10 bags) = -18"
    assert [n.render() for n in result.deals[1].notes] == ["Ann: 10 bags cost 100 (bags now 0)."]
    assert result.totals == (0, 21, 20, 20)


def test_example_set_costs_the_bid_option():
    result = run(table(4, set_penalty=True), deal([4, 4, 4, 1], [3, 4, 5, 1]))
    assert result.deals[0].scores == (-40, 40, 41, 10)
    assert lines(result, 0)[0] == "bid 4, won 3: set -40"


# -- worked examples: partnership (pair = seats 1 and 3) ------------------------------------
def test_example_pair_bids_4_and_5_wins_10():
    result = run(pairs(), deal([2, 4, 1, 5], [2, 5, 1, 5]))
    # Bob & Dee: contract 9, 10 tricks -> 90 + 1 bag = 91. Ann & Cid: 3 of 3 -> 30.
    assert result.deals[0].scores == (30, 91, 30, 91)
    assert result.deals[0].detail["bags"] == [0, 1, 0, 1]
    assert lines(result, 0)[1] == "bid 4 + 5 = 9, won 5 + 5 = 10: 90 + 1 bag = 91"
    assert lines(result, 0)[3] == lines(result, 0)[1]


def test_example_pair_bids_13_and_nil_set_and_failed_nil():
    result = run(pairs(), deal([1, 13, 1, 0], [1, 4, 7, 1]))
    # Bob & Dee: contract 13, 5 tricks -> set -130; Dee's nil won a trick -> -100: -230.
    # Ann & Cid: contract 2, 8 tricks -> 20 + 6 bags = 26.
    assert result.deals[0].scores == (26, -230, 26, -230)
    assert lines(result, 0)[1] == "bid 13 + nil, won 4 + 1 = 5: set -130 - 100 (Dee's nil failed) = -230"
    assert result.deals[0].detail["nil_made"] == [None, None, None, False]
    assert result.deals[0].detail["bags"] == [6, 0, 6, 0]


def test_example_pair_9_bags_held_then_3_more():
    # Deal 1: Bob & Dee bid 1 + 1, win 5 + 6 = 11: 20 + 9 bags = 29, 9 bags held.
    # Ann & Cid bid 1 + 1, win 1 + 1: 20.
    first = deal([1, 1, 1, 1], [1, 5, 1, 6])
    # Deal 2: Bob & Dee bid 3 + 3, win 4 + 5: 60 + 3 bags - 100 = -37, bags 12 - 10 = 2.
    # Ann & Cid bid 2 + 2, win 2 + 2: 40.
    second = deal([2, 3, 2, 3], [2, 4, 2, 5])
    result = run(pairs(), first, second)
    assert result.deals[0].scores == (20, 29, 20, 29)
    assert result.deals[0].detail["bags"] == [0, 9, 0, 9]
    assert result.deals[1].scores == (40, -37, 40, -37)
    assert result.deals[1].detail["bags"] == [0, 2, 0, 2]
    assert result.deals[1].detail["bag_penalty"] == [False, True, False, True]
    assert lines(result, 1)[1] == "bid 3 + 3 = 6, won 4 + 5 = 9: 60 + 3 bags - 100 (10 bags) = -37"
    assert [n.render() for n in result.deals[1].notes] == ["Bob & Dee: 10 bags cost 100 (bags now 2)."]
    assert result.totals == (60, -8, 60, -8)


# -- the cases -----------------------------------------------------------------------
def test_bags_roll_over_exactly_at_10_cutthroat():
    setup = table(4, sandbags=True)
    # Deal 1: Ann 1 of 8 -> 10 + 7 = 17, 7 bags; Bob 1 of 3 -> 12, 2 bags; Cid, Dee 10.
    first = deal([1, 1, 1, 1], [8, 3, 1, 1])
    # Deal 2: Ann 2 of 5 -> 20 + 3 = 23, bags 7 + 3 = 10 exactly: -100 -> -77, bags 0.
    # Bob 1 of 8 -> 10 + 7 = 17, bags 2 + 7 = 9: no penalty. Cid and Dee set: 0.
    second = deal([2, 1, 1, 1], [5, 8, 0, 0])
    result = run(setup, first, second)
    assert result.deals[0].scores == (17, 12, 10, 10)
    assert result.deals[1].scores == (-77, 17, 0, 0)
    assert result.deals[1].detail["bags"] == [0, 9, 0, 0]
    assert result.deals[1].detail["bag_penalty"] == [True, False, False, False]
    assert result.deals[1].detail["bags_won"] == [3, 7, 0, 0]
    assert len(result.deals[1].notes) == 1


def test_bags_roll_over_exactly_at_10_partnership():
    # Deal 1 gives Bob & Dee 9 bags (see the worked example above).
    first = deal([1, 1, 1, 1], [1, 5, 1, 6])
    # Deal 2: Bob & Dee bid 3 + 3, win 3 + 4 = 7: 60 + 1 bag, bags 10: -100 -> -39, bags 0.
    # Ann & Cid bid 2 + 2, win 3 + 3 = 6: 40 + 2 bags = 42, bags 2.
    second = deal([2, 3, 2, 3], [3, 3, 3, 4])
    result = run(pairs(), first, second)
    assert result.deals[1].scores == (42, -39, 42, -39)
    assert result.deals[1].detail["bags"] == [2, 0, 2, 0]
    assert result.deals[1].detail["bag_penalty"] == [False, True, False, True]


def test_running_score_below_zero_keeps_its_bags_partnership():
    # Deal 1: Bob & Dee bid 7 + 6 = 13, win 3 + 3 = 6: set -130.
    #         Ann & Cid bid 1 + 1, win 4 + 3 = 7: 20 + 5 bags = 25, bags 5.
    # Deal 2: Bob & Dee bid 1 + 1, win 5 + 6 = 11: 20 + 9 = 29 (total -101), bags 9.
    #         Ann & Cid bid 1 + 1, win 1 + 1: 20 (total 45), bags 5.
    # Deal 3: Bob & Dee bid 2 + 2, win 3 + 4 = 7: 40 + 3 - 100 = -57 (total -158), bags 2.
    #         Ann & Cid bid 2 + 2, win 3 + 3 = 6: 40 + 2 bags = 42 (total 87), bags 7.
    result = run(
        pairs(),
        deal([1, 7, 1, 6], [4, 3, 3, 3]),
        deal([1, 1, 1, 1], [1, 5, 1, 6]),
        deal([2, 2, 2, 2], [3, 3, 3, 4]),
    )
    assert [d.scores for d in result.deals] == [
        (25, -130, 25, -130),
        (20, 29, 20, 29),
        (42, -57, 42, -57),
    ]
    assert [d.totals[1] for d in result.deals] == [-130, -101, -158]
    assert [d.detail["bags"] for d in result.deals] == [[5, 0, 5, 0], [5, 9, 5, 9], [7, 2, 7, 2]]
    assert result.totals == (87, -158, 87, -158) and not result.finished


def test_running_score_below_zero_keeps_its_bags_cutthroat():
    setup = table(3, sandbags=True, set_penalty=True)  # 18 tricks
    # Deal 1: Ann 10 of 2 -> -100; Bob 1 of 8 -> 17, 7 bags; Cid 1 of 8 -> 17, 7 bags.
    # Deal 2: Ann 1 of 9 -> 18, 8 bags (total -82); Bob 8 of 5 -> -80; Cid 8 of 4 -> -80.
    # Deal 3: Ann 1 of 3 -> 12, bags 10: -100 -> -88 (total -170), bags 0.
    #         Bob 10 of 10 -> 100 (total 37). Cid 1 of 5 -> 14, bags 11: -86 (total -149), bags 1.
    result = run(
        setup,
        deal([10, 1, 1], [2, 8, 8]),
        deal([1, 8, 8], [9, 5, 4]),
        deal([1, 10, 1], [3, 10, 5]),
    )
    assert [d.scores for d in result.deals] == [(-100, 17, 17), (18, -80, -80), (-88, 100, -86)]
    assert [d.detail["bags"] for d in result.deals] == [[0, 7, 7], [8, 7, 7], [0, 7, 1]]
    assert result.totals == (-170, 37, -149)
    assert [n.render() for n in result.deals[2].notes] == [
        "Ann: 10 bags cost 100 (bags now 0).",
        "Cid: 10 bags cost 100 (bags now 1).",
    ]


def test_two_nils_in_one_pair_both_made():
    result = run(pairs(), deal([0, 3, 0, 4], [0, 5, 0, 8]))
    # Ann & Cid: contract 0, no trick, two nils made: 0 + 100 + 100 = 200.
    # Bob & Dee: contract 7, 13 tricks: 70 + 6 bags = 76.
    assert result.deals[0].scores == (200, 76, 200, 76)
    assert lines(result, 0)[0] == "bid nil + nil, won 0 + 0 = 0: 0 + 100 (Ann's nil) + 100 (Cid's nil) = 200"
    assert result.deals[0].detail["nil_made"] == [True, None, True, None]


def test_two_nils_in_one_pair_one_fails():
    result = run(pairs(), deal([0, 3, 0, 4], [0, 5, 2, 6]))
    # Ann & Cid: contract 0, 2 tricks (Cid's): 0 + 2 bags + 100 - 100 = 2, bags 2.
    # Bob & Dee: contract 7, 11 tricks: 70 + 4 bags = 74.
    assert result.deals[0].scores == (2, 74, 2, 74)
    assert lines(result, 0)[0] == (
        "bid nil + nil, won 0 + 2 = 2: 0 + 2 bags + 100 (Ann's nil) - 100 (Cid's nil failed) = 2"
    )
    assert result.deals[0].detail["bags"] == [2, 4, 2, 4]


def test_two_nils_in_one_pair_both_fail():
    result = run(pairs(), deal([0, 3, 0, 4], [1, 5, 1, 6]))
    # Ann & Cid: 0 + 2 bags - 100 - 100 = -198. Bob & Dee: 70 + 4 = 74.
    assert result.deals[0].scores == (-198, 74, -198, 74)


def test_failed_nil_while_the_partner_makes_the_contract():
    result = run(pairs(), deal([4, 3, 0, 4], [4, 3, 2, 4]))
    # Ann & Cid: contract 4, tricks 4 + 2 = 6: 40 + 2 bags - 100 (Cid's nil failed) = -58.
    # Bob & Dee: contract 7, 7 tricks: 70.
    assert result.deals[0].scores == (-58, 70, -58, 70)
    assert lines(result, 0)[0] == "bid 4 + nil, won 4 + 2 = 6: 40 + 2 bags - 100 (Cid's nil failed) = -58"
    assert result.deals[0].detail["made"] == [True, True, True, True]
    assert result.deals[0].detail["nil_made"] == [None, None, False, None]


def test_failed_nil_bidders_tricks_make_the_partners_contract():
    result = run(pairs(), deal([5, 3, 0, 4], [3, 3, 3, 4]))
    # Ann & Cid: contract 5, tricks 3 + 3 = 6 (Cid's count): 50 + 1 bag - 100 = -49.
    assert result.deals[0].scores == (-49, 70, -49, 70)


# -- options ---------------------------------------------------------------------------------
def test_without_sandbags_bags_are_not_counted():
    first = deal([1, 1, 1, 1], [9, 2, 1, 1])
    second = deal([8, 1, 1, 1], [10, 1, 1, 1])
    result = run(table(4), first, second)
    # 18 + 82 = 100: no penalty however many overtricks.
    assert result.deals[1].scores == (82, 10, 10, 10)
    assert result.deals[1].detail["bags"] is None
    assert result.deals[1].detail["bags_won"] == [2, 0, 0, 0]
    assert result.deals[1].detail["bag_penalty"] == [False] * 4
    assert result.totals[0] == 100 and not result.deals[1].notes
    assert not counts_bags(table(4)) and counts_bags(table(4, sandbags=True)) and counts_bags(pairs())


def test_one_deal_can_cost_several_hundreds_of_bags():
    setup = table(2, sandbags=True)  # 26 tricks
    # Deal 1: Ann 1 of 9 -> 10 + 8 = 18, 8 bags. Bob 1 of 17 -> 10 + 16 = 26, bags 16: -100 -> -74, bags 6.
    # Deal 2: Ann 1 of 26 -> 10 + 25 = 35, bags 33: -300 -> -265, bags 3. Bob 1 of 0: set 0.
    result = run(setup, deal([1, 1], [9, 17]), deal([1, 1], [26, 0]))
    assert result.deals[0].scores == (18, -74)
    assert result.deals[1].scores == (-265, 0)
    assert result.deals[1].detail["bags"] == [3, 6]
    assert lines(result, 1)[0] == "bid 1, won 26: 10 + 25 bags - 300 (30 bags) = -265"
    assert [n.render() for n in result.deals[1].notes] == ["Ann: 30 bags cost 300 (bags now 3)."]


def test_set_penalty_and_sandbags_options_do_not_switch_off_pair_rules():
    # The partnership rules always cost a set its contract and always count bags.
    setup = pairs(set_penalty=False, sandbags=False)
    result = run(setup, deal([1, 1, 1, 1], [1, 5, 1, 6]), deal([2, 3, 7, 3], [2, 4, 2, 5]))
    # Deal 2: Ann & Cid contract 9, 4 tricks: -90. Bob & Dee: 60 + 3 - 100 = -37.
    assert result.deals[1].scores == (-90, -37, -90, -37)


def test_blind_nil_made_and_failed():
    setup = pairs()
    made = run(setup, deal([0, 4, 5, 4], [0, 4, 5, 4], blind=[True, False, False, False]))
    # Ann & Cid: contract 5, 5 tricks: 50 + 200 (Ann's blind nil) = 250. Bob & Dee 80.
    assert made.deals[0].scores == (250, 80, 250, 80)
    assert lines(made, 0)[0] == "bid blind nil + 5, won 0 + 5 = 5: 50 + 200 (Ann's blind nil) = 250"
    failed = run(setup, deal([0, 4, 5, 4], [1, 4, 4, 4], blind=[True, False, False, False]))
    # Ann & Cid: contract 5, tricks 1 + 4 = 5: 50 - 200 = -150.
    assert failed.deals[0].scores == (-150, 80, -150, 80)
    assert lines(failed, 0)[0] == "bid blind nil + 5, won 1 + 4 = 5: 50 - 200 (Ann's blind nil failed) = -150"


def test_blind_list_of_no_is_an_ordinary_nil_even_with_the_option_off():
    facts = deal([0, 4, 5, 4], [0, 4, 5, 4], blind=[False] * 4)
    for setup in (pairs(), pairs(blind_nil=False)):
        assert run(setup, facts).deals[0].scores == (150, 80, 150, 80)
    assert run(pairs(), deal([0, 4, 5, 4], [0, 4, 5, 4], blind=None)).deals[0].scores[0] == 150


def test_blind_nil_option_off_refuses_a_blind_bid():
    facts = deal([0, 4, 5, 4], [0, 4, 5, 4], blind=[True, False, False, False])
    (error,) = only_error(pairs(blind_nil=False), facts, "blind")
    assert error.seat == 0 and "blind nil is not played" in error.message.render()


def test_target_option():
    # Two players, 26 tricks. Deal 1: 13 of 13 each -> 130, 130.
    # Deal 2: Ann 10 of 16 -> 106 (236); Bob 5 of 10 -> 55 (185).
    deals = [deal([13, 13], [13, 13]), deal([10, 5], [16, 10])]
    assert not run(table(2), *deals).finished
    short = run(table(2, target=200), *deals)
    assert short.finished and short.winners == (0,)
    exact = run(table(2, target=236), *deals)
    assert exact.finished and exact.winners == (0,)
    assert not run(table(2, target=237), *deals).finished


def test_lose_at_floor_ends_a_partnership_game():
    facts = deal([1, 13, 1, 0], [1, 4, 7, 1])  # Ann & Cid 26, Bob & Dee -230
    assert not run(pairs(), facts).finished
    assert not run(pairs(lose_at=-250), facts).finished
    for floor in (-200, -230):  # at or below the floor
        result = run(pairs(lose_at=floor), facts)
        assert result.finished and result.winners == (0, 2)
    extra = deal([1, 1, 1, 1], [1, 5, 1, 6])
    with pytest.raises(InvalidFacts) as refused:
        run(pairs(lose_at=-200), facts, extra)
    assert refused.value.errors[0].deal == 1


def test_lose_at_floor_in_cutthroat_ends_the_game_for_all():
    setup = table(4, set_penalty=True, lose_at=-100)
    # Ann 13 of 0 -> -130, at the floor. Bob 1 of 5 -> 14; Cid, Dee 1 of 4 -> 13.
    result = run(setup, deal([13, 1, 1, 1], [0, 5, 4, 4]))
    assert result.finished and result.winners == (1,)
    assert not run(table(4, set_penalty=True), deal([13, 1, 1, 1], [0, 5, 4, 4])).finished


def test_lose_at_with_a_tie_for_the_top_plays_on():
    setup = table(4, set_penalty=True, lose_at=-100)
    # Ann -130; Bob, Cid, Dee 1 of 4 -> 13 each: a three-way tie for the top.
    tied = run(setup, deal([13, 1, 1, 1], [1, 4, 4, 4]))
    assert tied.tiebreak and not tied.finished and tied.winners == ()
    # One more deal: Ann 1 of 1 -> 10; Bob 1 of 6 -> 15; Cid, Dee 1 of 3 -> 12: Bob leads.
    broken = run(setup, deal([13, 1, 1, 1], [1, 4, 4, 4]), deal([1, 1, 1, 1], [1, 6, 3, 3]))
    assert broken.finished and broken.winners == (1,)
    assert broken.deals[1].tiebreak


def test_lose_at_both_pairs_at_the_floor_tie():
    # Both pairs bid 5 + 5 = 10; Ann & Cid win 6, Bob & Dee 7: both set -100.
    tied = run(pairs(lose_at=-100), deal([5, 5, 5, 5], [3, 3, 3, 4]))
    assert tied.deals[0].scores == (-100, -100, -100, -100)
    assert tied.tiebreak and not tied.finished


# -- end of the game ---------------------------------------------------------------------
def test_cutthroat_tie_for_the_top_plays_another_deal():
    setup = table(2, target=200)
    same = deal([10, 10], [13, 13])  # 100 + 3 bags = 103 each
    tied = run(setup, same, same)
    assert tied.totals == (206, 206)
    assert tied.tiebreak and not tied.finished and tied.winners == ()
    assert tied.next_dealer == 0
    # Ann 1 of 20 -> 29 (235); Bob 1 of 6 -> 15 (221).
    broken = run(setup, same, same, deal([1, 1], [20, 6]))
    assert broken.finished and broken.winners == (0,) and not broken.tiebreak
    assert broken.totals == (235, 221)
    with pytest.raises(InvalidFacts):
        run(setup, same, same, deal([1, 1], [20, 6]), same)


def test_highest_total_wins_when_several_reach_the_target():
    setup = table(3, target=100)  # 18 tricks
    # Deal 1: Ann 6 of 6 -> 60; Bob 6 of 6 -> 60; Cid 6 of 6 -> 60.
    # Deal 2: Ann 4 of 4 -> 40 (100); Bob 5 of 9 -> 54 (114); Cid 5 of 5 -> 50 (110).
    result = run(setup, deal([6, 6, 6], [6, 6, 6]), deal([4, 5, 5], [4, 9, 5]))
    assert result.totals == (100, 114, 110)
    assert result.finished and result.winners == (1,)


def test_pairs_both_reach_the_target_higher_total_wins():
    # Ann & Cid 4 + 5 of 4 + 5 -> 90. Bob & Dee 4 + nil of 4 + 0 -> 40 + 100 = 140.
    result = run(pairs(target=90), deal([4, 4, 5, 0], [4, 4, 5, 0]))
    assert result.totals == (90, 140, 90, 140)
    assert result.finished and result.winners == (1, 3)


def test_pairs_exact_tie_plays_one_more_deal():
    setup = pairs(target=100)
    # Deal 1: Ann & Cid 3 + 3 of 3 + 3 -> 60; Bob & Dee 3 + 3 of 3 + 4 -> 61.
    # Deal 2: Ann & Cid 3 + 3 of 3 + 4 -> 61; Bob & Dee 3 + 3 of 3 + 3 -> 60. 121 all.
    first = deal([3, 3, 3, 3], [3, 3, 3, 4])
    second = deal([3, 3, 3, 3], [3, 3, 4, 3])
    tied = run(setup, first, second)
    assert tied.totals == (121, 121, 121, 121)
    assert tied.tiebreak and not tied.finished
    broken = run(setup, first, second, second)  # 61 against 60 again
    assert broken.finished and broken.winners == (0, 2)
    assert broken.totals == (182, 181, 182, 181)


# -- validation ------------------------------------------------------------------------------
def test_tricks_must_add_up():
    (error,) = only_error(table(4), deal([1, 1, 1, 1], [3, 3, 3, 3]), "tricks")
    assert error.message.render() == "The tricks add up to 12; a deal has 13."


def test_a_sum_past_the_deal_is_named_not_the_blank_player():
    # Issue 14: Ann 10, Bob 10 in 3-player Spades blamed Cid; the sum is the problem.
    errors = only_error(table(3), deal([1, 1, 1], [10, 10, None]), "tricks")
    assert [(e.seat, e.message.render()) for e in errors] == [
        (None, "The tricks add up to 20; a deal has 18.")
    ]
    errors = only_error(table(3), deal([1, 1, 1], [10, None, None]), "tricks")
    assert [e.message.render() for e in errors] == ["Choose Bob's tricks.", "Choose Cid's tricks."]


@pytest.mark.parametrize("bad", [-1, 14, 1.5, "3", True])
def test_tricks_must_be_whole_numbers_in_range(bad):
    errors = only_error(table(4), deal([1, 1, 1, 1], [bad, 4, 4, 5]), "tricks")
    assert errors[0].seat == 0
    assert "from 0 to 13" in errors[0].message.render()


@pytest.mark.parametrize("value", [[4, 4, 5], [4, 4, 5, 0, 0], "13", None])
def test_tricks_one_per_player(value):
    (error,) = only_error(table(4), deal([1, 1, 1, 1], value), "tricks")
    assert "one number per player" in error.message.render()


@pytest.mark.parametrize("bad", [14, -1, 2.0, "5", False])
def test_cutthroat_bid_out_of_range(bad):
    (error,) = only_error(table(4), deal([1, bad, 1, 1], [4, 4, 4, 1]), "bids")
    assert error.seat == 1
    assert error.message.render() == "Bob: a bid is a whole number from 1 to 13."


def test_cutthroat_bid_range_follows_the_tricks_per_deal():
    setup = table(5)  # 10 tricks
    (error,) = only_error(setup, deal([11, 1, 1, 1, 1], [2, 2, 2, 2, 2]), "bids")
    assert "from 1 to 10" in error.message.render()
    assert errors_of(table(2), deal([26, 1], [26, 0])) == []


def test_nil_is_refused_in_cutthroat():
    (error,) = only_error(table(4), deal([0, 1, 1, 1], [0, 4, 4, 5]), "bids")
    assert error.seat == 0
    text = error.message.render()
    assert "nil" in text and "partnership" in text and "from 1 to 13" in text


@pytest.mark.parametrize("bad", [14, -1, "nil"])
def test_partnership_bid_out_of_range(bad):
    (error,) = only_error(pairs(), deal([4, 4, bad, 4], [4, 4, 4, 1]), "bids")
    assert error.seat == 2
    assert error.message.render() == "Cid: a bid is a whole number from 0 to 13."


def test_a_bid_not_chosen_is_named_as_a_choice_to_make():
    (error,) = only_error(pairs(), deal([4, 4, None, 4], [4, 4, 4, 1]), "bids")
    assert error.seat == 2
    assert error.message.render() == "Choose Cid's bid."


def test_bids_one_per_player():
    (error,) = only_error(pairs(), deal([4, 4, 4], [4, 4, 4, 1]), "bids")
    assert "one bid per player" in error.message.render()


def test_blind_is_refused_in_cutthroat():
    (error,) = only_error(table(4), deal([1, 1, 1, 1], [4, 4, 4, 1], blind=[False] * 4), "blind")
    assert "partnership" in error.message.render()


def test_blind_needs_a_nil_bid():
    facts = deal([0, 4, 5, 4], [0, 4, 5, 4], blind=[False, True, False, False])
    (error,) = only_error(pairs(), facts, "blind")
    assert error.seat == 1
    assert "must be 0 (nil)" in error.message.render()


@pytest.mark.parametrize("value", [[True, False], [1, 0, 0, 0], "yes", True])
def test_blind_one_yes_or_no_per_player(value):
    (error,) = only_error(pairs(), deal([0, 4, 5, 4], [0, 4, 5, 4], blind=value), "blind")
    assert "one yes or no per player" in error.message.render()


def test_missing_and_unknown_facts():
    errors = errors_of(table(4), {"tricks": [4, 4, 4, 1], "bid": [1, 1, 1, 1]})
    assert {(e.field, e.message.render()) for e in errors} == {
        ("bid", "“bid” is not a fact of this game."),
        ("bids", "This is required."),
    }
    errors = errors_of(table(4), {"bids": [1, 1, 1, 1]})
    assert [(e.field, e.message.render()) for e in errors] == [("tricks", "This is required.")]


def test_every_wrong_fact_is_reported_at_once():
    errors = errors_of(pairs(), deal([14, 0, 0, 0], [5, 5, 5, 5], blind=[False, False, True, "x"]))
    assert {e.field for e in errors} == {"bids", "tricks", "blind"}


def test_play_refuses_a_bad_deal_and_names_it():
    good = deal([1, 1, 1, 1], [4, 4, 4, 1])
    with pytest.raises(InvalidFacts) as refused:
        run(table(4), good, deal([1, 1, 1, 1], [4, 4, 4, 4]))
    assert [(e.deal, e.field) for e in refused.value.errors] == [(1, "tricks")]


def test_check_bids_checks_only_the_first_step():
    assert check_bids(pairs(), {"bids": [0, 4, 13, 4], "blind": [True, False, False, False]}) == []
    assert GAME.check_bids(table(3), {"bids": [18, 1, 1]}) == []
    errors = check_bids(table(4), {"bids": [0, 14, 1, 1]})
    assert [(e.field, e.seat) for e in errors] == [("bids", 0), ("bids", 1)]
    errors = check_bids(pairs(blind_nil=False), {"bids": [0, 4, 4, 4], "blind": [True, False, False, False]})
    assert [(e.field, e.seat) for e in errors] == [("blind", 0)]
    assert [e.field for e in check_bids(pairs(), {})] == ["bids"]


# -- properties ------------------------------------------------------------------------------
def plain_tricks(n, jokers):
    """The pack table of spades.md, written out again."""
    if n == 3:
        return 18 if jokers else 17
    return {2: 26, 4: 13, 5: 10}[n]


def plain_play(options, n, deals):
    """spades.md, re-stated as simply as possible: per-deal scores, totals, bags, end."""
    partnership = options["mode"] == "partnership"
    sides = [[0, 2], [1, 3]] if partnership else [[s] for s in range(n)]
    bags = [0] * len(sides)
    totals = [0] * n
    played = []
    finished, winners, tiebreak = False, (), False
    for facts in deals:
        bids, tricks = facts["bids"], facts["tricks"]
        blind = facts.get("blind") or [False] * n
        scores = [0] * n
        penalty = [False] * n
        for i, side in enumerate(sides):
            contract = sum(bids[s] for s in side if bids[s] != 0)
            won = sum(tricks[s] for s in side)
            if won >= contract:
                points, over = 10 * contract + (won - contract), won - contract
            else:
                points, over = (-10 * contract if partnership or options["set_penalty"] else 0), 0
            if partnership or options["sandbags"]:
                bags[i] += over
                while bags[i] >= 10:
                    points -= 100
                    bags[i] -= 10
                    for s in side:
                        penalty[s] = True
            for s in side:
                if partnership and bids[s] == 0:
                    value = 200 if blind[s] else 100
                    points += value if tricks[s] == 0 else -value
            for s in side:
                scores[s] = points
        totals = [t + p for t, p in zip(totals, scores, strict=True)]
        by_seat = [0] * n
        for i, side in enumerate(sides):
            for s in side:
                by_seat[s] = bags[i]
        played.append((tuple(scores), tuple(totals), by_seat, penalty))
        floor = options["lose_at"]
        if max(totals) >= options["target"] or (floor is not None and min(totals) <= floor):
            best = max(totals)
            top = [side for side in sides if totals[side[0]] == best]
            if len(top) == 1:
                finished, winners, tiebreak = True, tuple(top[0]), False
                break
            tiebreak = True
    return played, finished, winners, tiebreak


@st.composite
def games(draw):
    mode = draw(st.sampled_from(["cutthroat", "partnership"]))
    n = 4 if mode == "partnership" else draw(st.integers(2, 5))
    options = {
        "mode": mode,
        "jokers": draw(st.booleans()),
        "target": draw(st.sampled_from([50, 100, 200, 500])),
        "sandbags": draw(st.booleans()),
        "set_penalty": draw(st.booleans()),
        "blind_nil": draw(st.booleans()),
        "lose_at": draw(st.sampled_from([None, -100, -200])),
    }
    total = plain_tricks(n, options["jokers"])
    lo = 0 if mode == "partnership" else 1
    deals = []
    for _ in range(draw(st.integers(1, 12))):
        winners = draw(st.lists(st.integers(0, n - 1), min_size=total, max_size=total))
        tricks = [winners.count(s) for s in range(n)]
        bids = [draw(st.integers(lo, total)) for _ in range(n)]
        facts = {"bids": bids, "tricks": tricks}
        if mode == "partnership" and options["blind_nil"] and draw(st.booleans()):
            facts["blind"] = [b == 0 and draw(st.booleans()) for b in bids]
        deals.append(facts)
    return options, n, deals


def explained_sum(text):
    """The points an explanation line adds up to, read back from its words."""
    calc = text.split(": ", 1)[1]
    terms = calc.rsplit(" = ", 1)[0]
    first = int(re.match(r"(?:set )?(-?\d+)", terms).group(1))
    return first + sum(int(n) if sign == "+" else -int(n) for sign, n in re.findall(r" ([+-]) (\d+)", terms))


@settings(max_examples=300, deadline=None)
@given(games())
def test_random_games_score_as_the_rules_say(game):
    options, n, deals = game
    setup = table(n, **options)
    played, finished, winners, tiebreak = plain_play(options, n, deals)
    deals = deals[: len(played)]
    result = run(setup, *deals)
    for got, (scores, totals, bags, penalty) in zip(result.deals, played, strict=True):
        assert got.scores == scores
        assert got.totals == totals
        if options["mode"] == "partnership" or options["sandbags"]:
            assert got.detail["bags"] == bags
        else:
            assert got.detail["bags"] is None
        assert got.detail["bag_penalty"] == penalty
        assert len(got.notes) == len({frozenset(side) for side in result.sides if penalty[side[0]]})
        for score, line in zip(got.scores, got.explanations, strict=True):
            text = line.render()
            assert text.endswith(f" {score}")
            assert explained_sum(text) == score, text
    assert result.finished == finished
    assert result.winners == winners
    assert result.tiebreak == tiebreak


@settings(max_examples=100, deadline=None)
@given(games(), st.integers(0, 2**32 - 1))
def test_random_deal_is_always_valid(game, seed):
    options, n, _ = game
    setup = table(n, **options)
    rng = random.Random(seed)
    for dealer in range(n):
        facts = GAME.random_deal(setup, GAME.start(setup), dealer, rng)
        assert errors_of(setup, facts) == []
        assert sum(facts["tricks"]) == plain_tricks(n, options["jokers"])


MUTATIONS = [
    "sum",
    "bid_high",
    "bid_low",
    "length",
    "type",
    "blind_where_not_allowed",
    "blind_not_nil",
    "key",
]


@settings(max_examples=300, deadline=None)
@given(games(), st.sampled_from(MUTATIONS), st.data())
def test_invalid_deals_are_refused(game, mutation, data):
    options, n, deals = game
    setup = table(n, **options)
    facts = {key: list(value) for key, value in deals[0].items()}
    total = plain_tricks(n, options["jokers"])
    partnership = options["mode"] == "partnership"
    seat = data.draw(st.integers(0, n - 1))
    if mutation == "sum":
        step = data.draw(st.sampled_from([-1, 1]))
        assume(0 <= facts["tricks"][seat] + step <= total)
        facts["tricks"][seat] += step
        field, words = "tricks", f"a deal has {total}"
    elif mutation == "bid_high":
        facts["bids"][seat] = data.draw(st.integers(total + 1, 60))
        field, words = "bids", "a bid is a whole number"
    elif mutation == "bid_low":
        if partnership:
            facts["bids"][seat] = data.draw(st.integers(-20, -1))
            field, words = "bids", "from 0 to"
        else:
            facts["bids"][seat] = data.draw(st.sampled_from([0, -1]))
            field, words = "bids", "nil" if facts["bids"][seat] == 0 else "from 1 to"
    elif mutation == "length":
        key = data.draw(st.sampled_from(["bids", "tricks"]))
        facts[key] = facts[key][:-1] if data.draw(st.booleans()) else [*facts[key], 0]
        field, words = key, "per player"
    elif mutation == "type":
        key = data.draw(st.sampled_from(["bids", "tricks"]))
        facts[key][seat] = data.draw(st.sampled_from([True, "1", 1.0, None]))
        # A blank trick count or bid is a choice to make ("Choose Ann's tricks", "Choose Ann's bid").
        field, words = key, "Choose" if facts[key][seat] is None else "whole number"
    elif mutation == "blind_where_not_allowed":
        if partnership and options["blind_nil"]:
            facts["blind"] = [True] * n
            facts["bids"] = [0 if s != seat else 1 for s in range(n)]
            field, words = "blind", "must be 0 (nil)"
        else:
            facts["blind"] = [s == seat for s in range(n)]
            if partnership:
                facts["bids"][seat] = 0
            field, words = "blind", "blind nil"
    elif mutation == "blind_not_nil":
        assume(partnership)
        facts["blind"] = [s == seat for s in range(n)]
        facts["bids"][seat] = data.draw(st.integers(1, 13))
        field, words = "blind", ("must be 0 (nil)" if options["blind_nil"] else "option is off")
    else:
        facts[data.draw(st.sampled_from(["bid", "trick", "nil", "score"]))] = 1
        field, words = None, "not a fact"
    errors = errors_of(setup, facts)
    assert errors
    if field is not None:
        assert {e.field for e in errors} == {field}
    assert any(words.lower() in e.message.render().lower() for e in errors), [
        e.message.render() for e in errors
    ]
    with pytest.raises(InvalidFacts) as refused:
        run(setup, facts)
    assert refused.value.errors[0].deal == 0
