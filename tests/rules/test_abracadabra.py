"""Abracadabra: the rules file's examples, every constraint, and property tests.

Expected numbers are worked out by hand from shared/rules/abracadabra.md.
"""

import copy
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.games.abracadabra import rules as ab
from scorekeeper.games.abracadabra.rules import Abracadabra
from scorekeeper.rules.base import check_setup, play

GAME = Abracadabra()


def make_setup(players, **options):
    errors, setup = check_setup(GAME, list(players), options, 0)
    assert not errors, errors
    return setup


def scored(setup, facts):
    return play(GAME, setup, [facts]).deals[0]


def errors_of(setup, facts):
    return GAME.check_deal(setup, None, facts, 0)


def only_error(setup, facts, field):
    """The deal is refused, and every error is on ``field``; returns them."""
    errors = errors_of(setup, facts)
    assert errors, f"accepted {facts}"
    assert {e.field for e in errors} == {field}, [(e.field, str(e.message)) for e in errors]
    return errors


# -- the worked example, four players: Helen, David, Cid (succeeds too), Dee ----
FOUR = ("Helen", "David", "Cid", "Dee")
# Tricks 1-2 Cid, 3-4 David, 5-11 Helen, 12-13 David.
EXAMPLE_4 = {
    "trump": "D",
    "suits": ["H", "S", "D", "C"],
    "declarer": 3,
    "bid": 3,
    "bid_cards": [[5, 11], [4, 12], [1, 2], [6, 7, 8]],
    "exposed": [],
    "piles_exposed": [False, False, False, False],
    "trick_winners": [2, 2, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1, 1],
    "suit_cards": [6, 5, 1, 0],
}

# Three players: Helen, David and the Declarer Dee, who bid 1-2-3 and won only trick 1.
THREE = ("Helen", "David", "Dee")
EXAMPLE_3 = {
    "trump": "NT",
    "suits": ["H", "S", "C"],
    "declarer": 2,
    "bid": 3,
    "bid_cards": [[5, 11], [4, 12], [1, 2, 3]],
    "piles_exposed": [False, False, False],
    "trick_winners": [2, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 1],
    "suit_cards": [6, 5, 1],
}

# The exposure example: Ann declares 2 with J and Q, exposes both, wins 11, loses 12
# (Cid wins it). Bob lays no bid cards and wins the other tricks but 12; he exposed his pile.
ANN = ("Ann", "Bob", "Cid", "Dee")
EXPOSURE = {
    "trump": "S",
    "suits": ["S", "H", "D", "C"],
    "declarer": 0,
    "bid": 2,
    "bid_cards": [[11, 12], [], [12], [3]],
    "exposed": [11, 12],
    "piles_exposed": [False, True, False, False],
    "trick_winners": [1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 2, 1],
    "suit_cards": [0, 8, 1, 0],
}

# Ann bids 3 and 4 but wins tricks 1 and 2; Bob bids 5 and wins it; Cid lays
# nothing and wins the other ten tricks; Dee bids 6 and wins nothing.
AT_LEAST = {
    "trump": "H",
    "suits": ["S", "H", "D", "C"],
    "declarer": 0,
    "bid": 2,
    "bid_cards": [[3, 4], [5], [], [6]],
    "trick_winners": [0, 0, 2, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2],
    "suit_cards": [1, 1, 5, 0],
}


def with_(facts, **changes):
    new = copy.deepcopy(facts)
    new.update(changes)
    return new


def test_worked_example_four_players():
    setup = make_setup(FOUR)
    assert errors_of(setup, EXAMPLE_4) == []
    deal = scored(setup, EXAMPLE_4)
    # Three succeed (Helen, David, Cid): 20 each. Cid: 20 + (1 + 2) + 2 + 1 x 2.
    assert deal.scores == (55, 50, 27, 0)
    assert str(deal.explanations[0]) == "success 20 + bid tricks 5+11 + tricks 7 + suit cards 6 x 2 = 55"
    assert str(deal.explanations[1]) == "success 20 + bid tricks 4+12 + tricks 4 + suit cards 5 x 2 = 50"
    assert str(deal.explanations[2]) == "success 20 + bid tricks 1+2 + tricks 2 + suit cards 1 x 2 = 27"
    assert str(deal.explanations[3]) == "success 0 + bid tricks 0 + tricks 0 + suit cards 0 x 2 = 0"
    assert str(deal.summary) == "Dee declared 3; trump: ♦ diamonds"
    assert str(deal.notes[0]) == "Succeeded: Helen, David, Cid (20 each)."


def test_worked_example_three_players():
    setup = make_setup(THREE)
    assert errors_of(setup, EXAMPLE_3) == []
    deal = scored(setup, EXAMPLE_3)
    # Two of three succeed: 20 each. Dee won her bid trick 1 only: 0 + 1 + 1 + 1 x 2.
    assert deal.scores == (55, 50, 4)
    assert str(deal.explanations[0]) == "success 20 + bid tricks 5+11 + tricks 7 + suit cards 6 x 2 = 55"
    assert str(deal.explanations[1]) == "success 20 + bid tricks 4+12 + tricks 4 + suit cards 5 x 2 = 50"
    assert str(deal.explanations[2]) == "success 0 + bid tricks 1 + tricks 1 + suit cards 1 x 2 = 4"


def test_detail_carries_every_part():
    setup = make_setup(FOUR)
    detail = scored(setup, EXAMPLE_4).detail
    assert detail["thrown_in"] is False
    assert detail["tricks_per_deal"] == 13
    assert (detail["declarer"], detail["bid"], detail["successes"]) == (3, 3, 3)
    assert detail["players"][0] == {
        "succeeded": True,
        "success": 20,
        "bid_tricks_won": [5, 11],
        "bid_tricks_lost": [],
        "bid_tricks": 16,
        "right_won": [],
        "right_lost": [],
        "right": 0,
        "tricks": 7,
        "suit_cards": 6,
        "suit_factor": 2,
        "suit_points": 12,
        "total": 55,
    }
    assert detail["players"][3]["bid_tricks_lost"] == [6, 7, 8]
    assert detail["players"][3]["succeeded"] is False


def test_exposure_example():
    setup = make_setup(ANN)
    assert errors_of(setup, EXPOSURE) == []
    deal = scored(setup, EXPOSURE)
    ann = deal.detail["players"][0]
    assert ann["right_won"] == [11] and ann["right_lost"] == [12]
    assert ann["right"] == 22 - 24 == -2
    # Ann fails (she lost trick 12): 0 + 0 + (+22 - 24) + 1 trick + 0.
    assert deal.scores[0] == -1
    assert str(deal.explanations[0]) == (
        "success 0 + bid tricks 0 + right side (+22 - 24) + tricks 1 + suit cards 0 x 2 = -1"
    )
    # Only Cid succeeds: 40 + 12 + 1 + 1 x 2.
    assert deal.scores[2] == 55


def test_declarer_with_cards_on_both_sides():
    setup = make_setup(ANN)
    facts = with_(
        EXPOSURE,
        bid=3,
        bid_cards=[[2, 11, 12], [], [12], [3]],
        trick_winners=[1, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0, 2, 1],
        suit_cards=[1, 8, 1, 0],
    )
    deal = scored(setup, facts)
    # Left: 2 won (+2); right: J won +22, Q lost -24; 2 tricks; 1 x 2.
    assert deal.scores[0] == 0 + 2 + 22 - 24 + 2 + 2 == 4
    assert str(deal.explanations[0]) == (
        "success 0 + bid tricks 2 + right side (+22 - 24) + tricks 2 + suit cards 1 x 2 = 4"
    )


def test_exposed_cards_all_won_and_all_lost():
    setup = make_setup(ANN)
    won = with_(
        EXPOSURE,
        trick_winners=[1] * 10 + [0, 0, 1],
        bid_cards=[[11, 12], [], [10], [3]],
        suit_cards=[0, 8, 0, 0],
    )
    deal = scored(setup, won)
    # Ann succeeds alone: 40 + right (+22 + 24) + 2 tricks.
    assert deal.scores[0] == 40 + 46 + 2
    assert "right side (+22 + 24)" in str(deal.explanations[0])
    lost = with_(EXPOSURE, trick_winners=[0] + [1] * 9 + [2, 2, 1], bid_cards=[[11, 12], [], [12], [3]])
    deal = scored(setup, lost)
    assert deal.scores[0] == -22 - 24 + 1
    assert "right side (-22 - 24)" in str(deal.explanations[0])


def test_player_with_no_bid_cards():
    setup = make_setup(ANN)
    deal = scored(setup, EXPOSURE)
    bob = deal.detail["players"][1]
    # No bid cards: no success however many tricks; 11 tricks; pile exposed: 8 x 4.
    assert bob["succeeded"] is False and bob["success"] == 0
    assert deal.scores[1] == 11 + 32 == 43
    assert str(deal.explanations[1]) == "success 0 + bid tricks 0 + tricks 11 + suit cards 8 x 4 = 43"
    # Not even when "at least" makes any 0 tricks enough.
    deal = scored(make_setup(ANN, success="at_least"), EXPOSURE)
    assert deal.detail["players"][1]["succeeded"] is False
    assert deal.scores[1] == 43


def test_at_least_option():
    named = scored(make_setup(ANN), AT_LEAST)
    # Named tricks: only Bob succeeds (40); Ann lost her tricks 3 and 4.
    assert named.scores == (0 + 0 + 2 + 1 * 2, 40 + 5 + 1 + 2, 10 + 5 * 2, 0)
    assert named.scores == (4, 48, 20, 0)
    at_least = scored(make_setup(ANN, success="at_least"), AT_LEAST)
    # At least: Ann won 2 tricks for 2 bid cards, Bob 1 for 1: two succeed, 30 each.
    # Cid (no bid cards) and Dee (0 tricks for 1) do not.
    assert at_least.scores == (30 + 0 + 2 + 2, 30 + 5 + 1 + 2, 20, 0)
    assert at_least.scores == (34, 38, 20, 0)
    assert [p["succeeded"] for p in at_least.detail["players"]] == [True, True, False, False]
    # Bid tricks still count only the tricks the cards name.
    assert at_least.detail["players"][0]["bid_tricks"] == 0


def test_exact_option():
    # "exact": as many tricks as bid cards laid, whichever tricks. In the worked example
    # Helen (7 tricks for 2 cards) and David (4 for 2) now fail; only Cid (2 for 2)
    # succeeds, alone: 40.
    deal = scored(make_setup(FOUR, success="exact"), EXAMPLE_4)
    assert [p["succeeded"] for p in deal.detail["players"]] == [False, False, True, False]
    assert deal.scores == (0 + 16 + 7 + 12, 0 + 16 + 4 + 10, 40 + 3 + 2 + 2, 0)
    assert str(deal.explanations[2]) == "success 40 + bid tricks 1+2 + tricks 2 + suit cards 1 x 2 = 47"
    # Whichever tricks: Ann won tricks 1 and 2 for her cards 3 and 4 and succeeds.
    exact = scored(make_setup(ANN, success="exact"), AT_LEAST)
    assert [p["succeeded"] for p in exact.detail["players"]] == [True, True, False, False]
    # More than the cards is not exact, while "at least" accepts it.
    more = with_(AT_LEAST, trick_winners=[0, 0, 0, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2], suit_cards=[1, 1, 4, 0])
    assert scored(make_setup(ANN, success="exact"), more).detail["players"][0]["succeeded"] is False
    assert scored(make_setup(ANN, success="at_least"), more).detail["players"][0]["succeeded"] is True


def test_no_bid_cards_never_succeeds_in_any_mode():
    # Bob laid nothing and won 11 tricks; Cid laid nothing too in a copy where he wins
    # no trick, which "exact" (0 for 0) would otherwise call a success.
    nothing = with_(EXPOSURE, bid_cards=[[11, 12], [], [], [3]], trick_winners=[1] * 10 + [0, 1, 1])
    nothing["suit_cards"] = [0, 9, 0, 0]
    for mode in ("named", "exact", "at_least"):
        deal = scored(make_setup(ANN, success=mode), nothing)
        assert deal.detail["players"][1]["succeeded"] is False, mode
        assert deal.detail["players"][2]["succeeded"] is False, mode


def test_without_the_joker_no_trump_is_refused():
    setup = make_setup(THREE, joker=False)
    errors = only_error(setup, EXAMPLE_3, "trump")
    assert "four suits" in str(errors[0].message)
    assert errors_of(setup, with_(EXAMPLE_3, trump="S")) == []
    only_error(setup, {"thrown_in": True, "trump": "NT"}, "trump")
    assert errors_of(make_setup(THREE), EXAMPLE_3) == []  # with the Joker NT stands


def test_success_bonus_tables():
    assert [ab.success_bonus(4, k) for k in range(5)] == [0, 40, 30, 20, 10]
    assert [ab.success_bonus(3, k) for k in range(4)] == [0, 30, 20, 10]
    assert [ab.success_bonus(2, k) for k in range(3)] == [0, 20, 10]


def test_declarer_bidding_all_tricks():
    setup = make_setup(ANN)
    facts = {
        "trump": "NT",
        "suits": ["S", "H", "D", "C"],
        "declarer": 0,
        "bid": 13,
        "bid_cards": [list(range(1, 14)), [], [], []],
        "trick_winners": [0] * 13,
        "suit_cards": [13, 0, 0, 0],
    }
    # Ann alone succeeds: 40 + (1 + ... + 13) + 13 + 13 x 2.
    assert scored(setup, facts).scores == (40 + 91 + 13 + 26, 0, 0, 0)
    errors = only_error(setup, with_(facts, piles_exposed=[True, False, False, False]), "piles_exposed")
    assert errors[0].seat == 0 and "no pile" in str(errors[0].message)


# -- two players --------------------------------------------------------------
TWO = ("Ann", "Bob")
TWO_DEAL = {
    "trump": "C",
    "suits": ["H", "S"],
    "declarer": 0,
    "bid": 2,
    "bid_cards": [[1, 12], [7]],
    # Ann: 1, 2, 3, 12; Bob: 4-11 (dummy cards' tricks recorded for who played them).
    "trick_winners": [0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 0],
    "suit_cards": [5, 7],
}


def test_two_players_with_dummy():
    setup = make_setup(TWO)
    assert ab.has_dummy(setup) and ab.cards_per_trick(setup) == 3 and ab.suit_size(setup) == 9
    deal = scored(setup, TWO_DEAL)
    # Both succeed: 10 each.
    assert deal.scores == (10 + 13 + 4 + 10, 10 + 7 + 8 + 14)
    one = with_(TWO_DEAL, trick_winners=[0, 0, 0, 1, 1, 1, 0, 1, 1, 1, 1, 0], suit_cards=[5, 7])
    # Bob lost trick 7: Ann alone succeeds, 20.
    assert scored(setup, one).scores == (20 + 13 + 5 + 10, 0 + 0 + 7 + 14)
    errors = only_error(
        setup, with_(TWO_DEAL, trick_winners=[2, *TWO_DEAL["trick_winners"][1:]]), "trick_winners"
    )
    assert "dummy" in str(errors[0].message)
    # A dummy card in each trick: Ann's 4 tricks hold 12 cards, a suit has 9.
    assert errors_of(setup, with_(TWO_DEAL, suit_cards=[9, 7])) == []
    errors = only_error(setup, with_(TWO_DEAL, suit_cards=[10, 7]), "suit_cards")
    assert errors[0].seat == 0 and "0 to 9" in str(errors[0].message)


def test_two_players_without_dummy():
    setup = make_setup(TWO, two_player="no_dummy")
    assert not ab.has_dummy(setup) and ab.cards_per_trick(setup) == 2 and ab.suit_size(setup) == 6
    assert ab.tricks_per_deal(setup) == 12
    errors = only_error(setup, TWO_DEAL, "suit_cards")
    assert errors[0].seat == 1 and "0 to 6" in str(errors[0].message)
    deal = scored(setup, with_(TWO_DEAL, suit_cards=[5, 6]))
    assert deal.scores == (10 + 13 + 4 + 10, 10 + 7 + 8 + 12)
    # Ann won 11 tricks (22 cards) but counts no heart: the 6 hearts cannot all
    # be in Bob's one trick (2 cards).
    errors = only_error(setup, with_(TWO_DEAL, trick_winners=[0] * 11 + [1], suit_cards=[0, 0]), "suit_cards")
    assert errors[0].seat == 0 and "room for only 2" in str(errors[0].message)


# -- tricks per deal and the layout ------------------------------------------
def test_tricks_per_deal():
    assert ab.tricks_per_deal(make_setup(FOUR)) == 13
    assert ab.tricks_per_deal(make_setup(THREE)) == 12
    assert ab.tricks_per_deal(make_setup(TWO)) == 12
    assert GAME.tricks_per_deal(make_setup(FOUR)) == 13
    assert ab.deal_layout(make_setup(THREE)) == {
        "tricks": 12,
        "cards_per_trick": 3,
        "suit_size": 9,
        "dummy": False,
        "success_bonus": [30, 20, 10],
    }


# -- constraints ---------------------------------------------------------------
CONSTRAINTS = [
    # (players, base facts, changes, field, seat, words the message must contain)
    (FOUR, EXAMPLE_4, {"bid_cards": [[5, 11, 13], [4, 12], [1, 2], [6, 7, 8]]}, "bid_cards", 0, "fewer"),
    (FOUR, EXAMPLE_4, {"bid_cards": [[5, 11], [4, 12], [1, 2], [6, 7]]}, "bid_cards", 3, "exactly 3"),
    (FOUR, EXAMPLE_4, {"bid_cards": [[5, 11], [4, 12], [1, 2], [6, 7, 8, 9]]}, "bid_cards", 3, "exactly 3"),
    (THREE, EXAMPLE_3, {"bid_cards": [[5, 13], [4, 12], [1, 2, 3]]}, "bid_cards", 0, "only 12 tricks"),
    (FOUR, EXAMPLE_4, {"bid_cards": [[5, 14], [4, 12], [1, 2], [6, 7, 8]]}, "bid_cards", 0, "King (13)"),
    (FOUR, EXAMPLE_4, {"bid_cards": [[0, 5], [4, 12], [1, 2], [6, 7, 8]]}, "bid_cards", 0, "Ace (1)"),
    (FOUR, EXAMPLE_4, {"bid_cards": [[5, 5], [4, 12], [1, 2], [6, 7, 8]]}, "bid_cards", 0, "twice"),
    (FOUR, EXAMPLE_4, {"bid_cards": [[5, 11], "4 12", [1, 2], [6, 7, 8]]}, "bid_cards", 1, "list of ranks"),
    (FOUR, EXAMPLE_4, {"bid_cards": [[5, 11], [4, 12], [1, 2]]}, "bid_cards", None, "one list"),
    (THREE, EXAMPLE_3, {"bid": 13}, "bid", None, "1 to 12"),
    (FOUR, EXAMPLE_4, {"bid": 0}, "bid", None, "1 to 13"),
    (FOUR, EXAMPLE_4, {"declarer": 4}, "declarer", None, "Declarer"),
    (FOUR, EXAMPLE_4, {"suits": ["H", "S", "H", "C"]}, "suits", 2, "different bid suit"),
    (FOUR, EXAMPLE_4, {"suits": ["H", "S", "D", "NT"]}, "suits", 3, "spades, hearts"),
    (FOUR, EXAMPLE_4, {"suits": ["H", "S", "D"]}, "suits", None, "one bid suit per player"),
    (FOUR, EXAMPLE_4, {"trump": "X"}, "trump", None, "No Trump"),
    (FOUR, EXAMPLE_4, {"exposed": [9]}, "exposed", 3, "own laid bid cards"),
    (FOUR, EXAMPLE_4, {"exposed": [6, 6]}, "exposed", 3, "twice"),
    (FOUR, EXAMPLE_4, {"exposed": "6"}, "exposed", None, "list of ranks"),
    (FOUR, EXAMPLE_4, {"piles_exposed": [False, True, False]}, "piles_exposed", None, "each player"),
    (FOUR, EXAMPLE_4, {"piles_exposed": [0, 1, 0, 0]}, "piles_exposed", None, "yes or no"),
    (
        FOUR,
        EXAMPLE_4,
        {"trick_winners": EXAMPLE_4["trick_winners"][:12]},
        "trick_winners",
        None,
        "every trick",
    ),
    (
        FOUR,
        EXAMPLE_4,
        {"trick_winners": [*EXAMPLE_4["trick_winners"], 0]},
        "trick_winners",
        None,
        "13 tricks",
    ),
    (
        FOUR,
        EXAMPLE_4,
        {"trick_winners": [4, *EXAMPLE_4["trick_winners"][1:]]},
        "trick_winners",
        None,
        "Trick 1",
    ),
    (FOUR, EXAMPLE_4, {"trick_winners": None}, "trick_winners", None, "each trick"),
    (FOUR, EXAMPLE_4, {"suit_cards": [6, 5, 1, 1]}, "suit_cards", 3, "at most 0"),
    (FOUR, EXAMPLE_4, {"suit_cards": [6, 5, 9, 0]}, "suit_cards", 2, "at most 8"),
    (FOUR, EXAMPLE_4, {"suit_cards": [14, 5, 1, 0]}, "suit_cards", 0, "0 to 13"),
    (FOUR, EXAMPLE_4, {"suit_cards": [6, 5, -1, 0]}, "suit_cards", 2, "0 to 13"),
    (FOUR, EXAMPLE_4, {"suit_cards": [6, 5, 1]}, "suit_cards", None, "each player"),
    # Cid won 10 tricks but counts no diamonds: 13 diamonds cannot fit in the
    # others' 12 cards beside their own 2 bid-suit cards (room 10).
    (ANN, AT_LEAST, {"suit_cards": [1, 1, 0, 0]}, "suit_cards", 2, "room for only 10"),
    (FOUR, EXAMPLE_4, {"thrown_in": "yes"}, "thrown_in", None, "yes"),
    (FOUR, EXAMPLE_4, {"colour": "red"}, "colour", None, "not a fact"),
]


@pytest.mark.parametrize(("players", "base", "changes", "field", "seat", "words"), CONSTRAINTS)
def test_constraint_is_refused(players, base, changes, field, seat, words):
    setup = make_setup(players)
    facts = with_(base, **changes)
    errors = only_error(setup, facts, field)
    assert any(e.seat == seat and words in str(e.message) for e in errors), [
        (e.seat, str(e.message)) for e in errors
    ]
    # play() refuses it too, naming the deal.
    assert rules.check(GAME, setup, [facts])[0].deal == 0


def refused_without(example: dict, key: str) -> list:
    """The four players' ``example`` deal without its ``key``: the one error, on that field."""
    facts = with_(example)
    del facts[key]
    return only_error(make_setup(FOUR), facts, key)


@pytest.mark.parametrize("key", ["declarer", "bid", "bid_cards", "suit_cards"])
def test_missing_fact_is_required(key):
    errors = refused_without(EXAMPLE_4, key)
    assert str(errors[0].message) == "This is required."


def test_missing_tricks_name_both_forms():
    """Issue 53: the tricks come trick by trick or as reported; missing, the message names both."""
    errors = refused_without(EXAMPLE_4, "trick_winners")
    assert "trick_winners" in str(errors[0].message) and "bid_won" in str(errors[0].message)


def test_trump_and_bid_suits_are_optional_and_score_the_same():
    """Issue 41: they change no score and no rule needs them; given, they are still judged."""
    setup = make_setup(FOUR)
    whole = scored(setup, with_(EXAMPLE_4))
    facts = with_(EXAMPLE_4)
    del facts["trump"], facts["suits"]
    bare = scored(setup, facts)
    assert bare.scores == whole.scores and str(bare.summary.text) == "{player} declared {bid}"
    assert only_error(setup, with_(EXAMPLE_4, trump="X"), "trump")
    assert only_error(setup, with_(EXAMPLE_4, suits=["S", "S", "H", "D"]), "suits")


def test_exposed_and_piles_are_optional():
    facts = with_(EXAMPLE_4)
    del facts["exposed"], facts["piles_exposed"]
    assert scored(make_setup(FOUR), facts).scores == (55, 50, 27, 0)


def test_same_trick_bid_by_two_players():
    setup = make_setup(ANN)
    assert errors_of(setup, EXPOSURE) == []  # Ann and Cid both bid trick 12
    assert ab.bid_trick_owners(EXPOSURE, 12) == (0, 2)


# -- thrown in -----------------------------------------------------------------
def test_thrown_in_scores_nothing_and_passes_the_deal():
    setup = make_setup(FOUR)
    result = play(
        GAME, setup, [{"thrown_in": True}, {"thrown_in": True, "trump": "NT", "suits": ["S", "H", "D", "C"]}]
    )
    assert result.totals == (0, 0, 0, 0)
    assert [d.dealer for d in result.deals] == [0, 1]
    assert result.next_dealer == 2
    deal = result.deals[0]
    assert str(deal.explanations[0]) == "thrown in: 0"
    assert deal.detail == {
        "thrown_in": True,
        "tricks_per_deal": 13,
        "declarer": None,
        "bid": None,
        "successes": 0,
        "players": [],
    }


def test_thrown_in_refuses_play_facts():
    setup = make_setup(FOUR)
    errors = only_error(setup, {"thrown_in": True, "bid": 3}, "bid")
    assert "thrown-in" in str(errors[0].message)
    only_error(setup, {"thrown_in": True, "suits": ["S", "S", "D", "C"]}, "suits")
    # thrown_in false is an ordinary deal.
    assert errors_of(setup, with_(EXAMPLE_4, thrown_in=False)) == []


# -- the end of the game -----------------------------------------------------
def test_default_deals_is_the_number_of_players():
    setup = make_setup(THREE)
    assert GAME.planned_deals(setup) == 3
    two = play(GAME, setup, [EXAMPLE_3] * 2)
    assert not two.finished and two.next_dealer == 2
    three = play(GAME, setup, [EXAMPLE_3] * 3)
    assert three.finished and three.winners == (0,)
    assert three.totals == (165, 150, 12)
    assert rules.check(GAME, setup, [EXAMPLE_3] * 4)[0].deal == 3
    assert GAME.planned_deals(make_setup(FOUR)) == 4
    assert GAME.planned_deals(make_setup(FOUR, deals=8)) == 8


def test_tie_for_the_top_plays_another_deal():
    setup = make_setup(THREE)
    # Everyone wins 4 tricks and nothing else: Dee bid trick 2 and lost it.
    tie = with_(EXAMPLE_3, bid=1, bid_cards=[[], [], [2]], trick_winners=[0, 1, 2] * 4, suit_cards=[0, 0, 0])
    assert scored(setup, tie).scores == (4, 4, 4)
    tied = play(GAME, setup, [tie] * 3)
    assert not tied.finished and tied.tiebreak and tied.winners == ()
    done = play(GAME, setup, [tie] * 3 + [EXAMPLE_3])
    assert done.finished and done.winners == (0,) and not done.tiebreak


def test_thrown_in_deals_do_not_count_toward_the_deals():
    setup = make_setup(THREE)
    thrown = {"thrown_in": True}
    # Three deals agreed: two thrown in among them leave the game on its third real deal.
    result = play(GAME, setup, [EXAMPLE_3, thrown, EXAMPLE_3, thrown])
    assert not result.finished and not result.tiebreak
    assert result.next_dealer == 1  # still, the deal passes on each time
    done = play(GAME, setup, [EXAMPLE_3, thrown, EXAMPLE_3, thrown, EXAMPLE_3])
    assert done.finished and done.winners == (0,)
    # Nothing but thrown-in deals never ends the game (it used to, as a three-way tie).
    assert not play(GAME, setup, [thrown] * 3).tiebreak
    assert not play(GAME, setup, [thrown] * 7).finished


def test_target_ends_the_game():
    setup = make_setup(THREE, target=100)
    assert GAME.planned_deals(setup) is None
    assert not play(GAME, setup, [EXAMPLE_3]).finished  # 55
    result = play(GAME, setup, [EXAMPLE_3] * 2)  # Helen 110
    assert result.finished and result.winners == (0,)
    # With a target alone there is no limit on deals.
    far = make_setup(THREE, target=1000)
    assert not play(GAME, far, [EXAMPLE_3] * 5).finished


def test_deals_and_target_end_at_whichever_comes_first():
    deals_first = make_setup(THREE, deals=2, target=1000)
    assert play(GAME, deals_first, [EXAMPLE_3] * 2).finished
    target_first = make_setup(THREE, deals=5, target=100)
    assert play(GAME, target_first, [EXAMPLE_3] * 2).finished
    assert not play(GAME, target_first, [EXAMPLE_3]).finished


def test_options_are_checked():
    for options in ({"deals": 0}, {"target": "high"}, {"success": "most"}, {"two_player": "x"}, {"joker": 1}):
        errors, setup = check_setup(GAME, list(FOUR), options, 0)
        assert setup is None and errors, options
    errors, setup = check_setup(GAME, ["Ann"], {}, 0)
    assert setup is None and errors[0].field == "players"
    errors, setup = check_setup(GAME, list(FOUR) + ["Eve"], {}, 0)
    assert setup is None
    assert GAME.allowed_player_counts({}) == (2, 3, 4)


# -- helpers for entry in stages ---------------------------------------------
def test_check_setup_facts_ignores_play():
    setup = make_setup(FOUR)
    pre = {k: v for k, v in EXAMPLE_4.items() if k not in ("trick_winners", "suit_cards")}
    assert ab.check_setup_facts(setup, pre) == []
    assert GAME.check_setup_facts(setup, pre) == []
    assert ab.check_setup_facts(setup, EXAMPLE_4) == []
    errors = ab.check_setup_facts(setup, with_(pre, bid=2))
    assert {e.field for e in errors} == {"bid_cards"}
    # Helen, David and Cid lay 2 (not fewer than 2); Dee, the Declarer, 3 (not 2).
    assert {e.seat for e in errors} == {0, 1, 2, 3}


def test_bid_trick_owner_and_announcement():
    setup = make_setup(FOUR)
    assert ab.bid_trick_owners(EXAMPLE_4, 5) == (0,)
    assert ab.bid_trick_owners(EXAMPLE_4, 13) == ()
    assert [str(m) for m in ab.trick_messages(setup, EXAMPLE_4, 5, 0)] == ["abracadabra: trick 5 is Helen's"]
    assert [str(m) for m in ab.trick_messages(setup, EXAMPLE_4, 6, 0)] == ["Dee bid trick 6 and lost it."]
    assert [str(m) for m in ab.trick_messages(setup, EXAMPLE_4, 6, None)] == ["Trick 6 is bid by Dee."]
    assert ab.trick_messages(setup, EXAMPLE_4, 13, 1) == ()
    exposure = make_setup(ANN)
    assert [str(m) for m in ab.trick_messages(exposure, EXPOSURE, 12, 2)] == [
        "abracadabra: trick 12 is Cid's",
        "Ann bid trick 12 and lost it.",
    ]


def test_running_trick_counts_and_partial_winners():
    setup = make_setup(FOUR)
    partial = EXAMPLE_4["trick_winners"][:5]
    assert ab.trick_counts(setup, partial) == (1, 2, 2, 0)
    assert ab.check_trick_winners(setup, partial, complete=False) == []
    assert ab.check_trick_winners(setup, partial)[0].field == "trick_winners"
    assert ab.check_trick_winners(setup, [0] * 14, complete=False)
    assert ab.bid_status(EXAMPLE_4, partial)[0] == {"won": [5], "lost": [], "pending": [11]}
    assert ab.bid_status(EXAMPLE_4, partial)[3] == {"won": [], "lost": [], "pending": [6, 7, 8]}
    assert ab.bid_status(EXAMPLE_4, partial)[1] == {"won": [4], "lost": [], "pending": [12]}


def test_ranks_in_polish_and_portuguese_letters():
    # Polish: W(alet), D(ama), K(ról); Portuguese: V(alete), D(ama), R(ei); A stays.
    assert [ab.parse_rank(t) for t in ("W", "d", "K", "A")] == [11, 12, 13, 1]
    assert [ab.parse_rank(t) for t in ("v", "D", "R", " r ")] == [11, 12, 13, 13]
    assert ab.parse_rank("B") is None and ab.parse_rank("WD") is None


def test_ranks():
    assert [ab.parse_rank(t) for t in ("A", "a", "7", "10", "j", "Q", "K", "13", "0", "14", "X", 5)] == [
        1,
        1,
        7,
        10,
        11,
        12,
        13,
        13,
        None,
        None,
        None,
        None,
    ]
    assert [str(ab.rank_label(r)) for r in (1, 2, 10, 11, 12, 13)] == ["A", "2", "10", "J", "Q", "K"]


# -- property tests ------------------------------------------------------------
NAMES = ["Ann", "Bob", "Cid", "Dee"]


def layout(n, options):
    """Tricks, cards a trick and cards a suit, as the rules file gives them."""
    if n == 4:
        return 13, 4, 13  # 52 cards (the Joker stands in for the turned-up card)
    if n == 3:
        return 12, 3, 9  # 36 cards, 6 to Ace
    if options.get("two_player", "dummy") == "dummy":
        return 12, 3, 9  # 36 cards, three hands of 12
    return 12, 2, 6  # 24 cards, 9 to Ace


@st.composite
def valid_deals(draw):
    """A table and one valid deal, built from the rules file independently of the module."""
    n = draw(st.sampled_from([2, 3, 4]))
    options = {
        "success": draw(st.sampled_from(["named", "exact", "at_least"])),
        "two_player": draw(st.sampled_from(["dummy", "no_dummy"])),
        "joker": draw(st.booleans()),
    }
    tricks, per_trick, size = layout(n, options)
    suits = draw(st.permutations(["S", "H", "D", "C"]))[:n]
    declarer = draw(st.integers(0, n - 1))
    bid = draw(st.integers(1, tricks))
    bid_cards = []
    for seat in range(n):
        count = bid if seat == declarer else draw(st.integers(0, bid - 1))
        bid_cards.append(draw(st.lists(st.integers(1, tricks), min_size=count, max_size=count, unique=True)))
    exposed = draw(st.lists(st.sampled_from(bid_cards[declarer]), unique=True))
    piles = [draw(st.booleans()) and len(bid_cards[s]) < tricks for s in range(n)]
    winners = []
    for trick in range(1, tricks + 1):
        owners = [s for s in range(n) if trick in bid_cards[s]]
        choices = st.integers(0, n - 1)
        if owners:
            choices = st.one_of(st.sampled_from(owners), choices)
        winners.append(draw(choices))
    # Every card of the pack lands in some won trick.
    pack = draw(st.permutations([suit for suit in "SHDC" for _ in range(size)]))
    suit_cards, start = [], 0
    for seat in range(n):
        taken = pack[start : start + winners.count(seat) * per_trick]
        start += len(taken)
        suit_cards.append(taken.count(suits[seat]))
    assert start == len(pack)
    facts = {
        # Without the Joker nothing turns up No Trump: the Declarer names a suit.
        "trump": draw(
            st.sampled_from(["S", "H", "D", "C", "NT"] if options["joker"] else ["S", "H", "D", "C"])
        ),
        "suits": suits,
        "declarer": declarer,
        "bid": bid,
        "bid_cards": bid_cards,
        "exposed": exposed,
        "piles_exposed": piles,
        "trick_winners": winners,
        "suit_cards": suit_cards,
    }
    return n, options, facts


def expected_scores(n, options, facts):
    """The rules file's scoring, restated as simply as possible."""
    tricks = len(facts["trick_winners"])
    won = [{t for t in range(1, tricks + 1) if facts["trick_winners"][t - 1] == s} for s in range(n)]
    success = []
    for s in range(n):
        cards = facts["bid_cards"][s]
        if options["success"] == "at_least":
            success.append(len(cards) > 0 and len(won[s]) >= len(cards))
        elif options["success"] == "exact":
            success.append(len(cards) > 0 and len(won[s]) == len(cards))
        else:
            success.append(len(cards) > 0 and set(cards) <= won[s])
    table = {4: {1: 40, 2: 30, 3: 20, 4: 10}, 3: {1: 30, 2: 20, 3: 10}, 2: {1: 20, 2: 10}}
    bonus = table[n].get(sum(success), 0)
    scores = []
    for s in range(n):
        points = bonus if success[s] else 0
        for rank in facts["bid_cards"][s]:
            on_right = s == facts["declarer"] and rank in facts["exposed"]
            if on_right:
                points += 2 * rank if rank in won[s] else -2 * rank
            elif rank in won[s]:
                points += rank
        points += len(won[s])
        points += facts["suit_cards"][s] * (4 if facts["piles_exposed"][s] else 2)
        scores.append(points)
    return tuple(scores)


@settings(max_examples=300, deadline=None)
@given(valid_deals())
def test_random_valid_deals_score_as_the_rules_say(case):
    n, options, facts = case
    setup = make_setup(NAMES[:n], **options)
    assert errors_of(setup, facts) == []
    deal = scored(setup, facts)
    assert deal.scores == expected_scores(n, options, facts)
    for score, line in zip(deal.scores, deal.explanations, strict=True):
        assert str(line).endswith(f"= {score}")
    assert [p["total"] for p in deal.detail["players"]] == list(deal.scores)


def break_deal(n, options, facts, kind, rng):
    """Break one constraint of a valid deal; returns the facts and the field to blame."""
    facts = copy.deepcopy(facts)
    tricks, per_trick, size = layout(n, options)
    declarer = facts["declarer"]
    other = (declarer + 1) % n
    if kind == "suits":
        facts["suits"][other] = facts["suits"][declarer]
    elif kind == "bid":
        facts["bid"] = rng.choice([0, tricks + 1, -3])
    elif kind == "trump":
        facts["trump"] = "NT" if not options["joker"] else rng.choice(["X", "nt", 1])
    elif kind == "declarer_count":
        cards = facts["bid_cards"][declarer]
        missing = [r for r in range(1, tricks + 1) if r not in cards]
        if missing and rng.random() < 0.5:
            cards.append(rng.choice(missing))
        else:
            cards.remove(rng.choice(cards))
            facts["exposed"] = [r for r in facts["exposed"] if r in cards]
        return facts, "bid_cards"
    elif kind == "other_count":
        facts["bid_cards"][other] = rng.sample(range(1, tricks + 1), facts["bid"])
        return facts, "bid_cards"
    elif kind == "rank":
        facts["bid_cards"][other].append(rng.choice([0, tricks + 1, 14]))
        return facts, "bid_cards"
    elif kind == "winners_short":
        facts["trick_winners"].pop()
        return facts, "trick_winners"
    elif kind == "winner_seat":
        facts["trick_winners"][rng.randrange(tricks)] = rng.choice([n, -1, "Ann"])
        return facts, "trick_winners"
    elif kind == "suit_cards":
        seat = rng.randrange(n)
        most = min(facts["trick_winners"].count(seat) * per_trick, size)
        facts["suit_cards"][seat] = most + 1
        return facts, "suit_cards"
    elif kind == "exposed":
        facts["exposed"].append(
            rng.choice([r for r in range(1, 15) if r not in facts["bid_cards"][declarer]])
        )
        return facts, "exposed"
    return facts, kind


@settings(max_examples=300, deadline=None)
@given(
    valid_deals(),
    st.sampled_from(
        [
            "suits",
            "bid",
            "trump",
            "declarer_count",
            "other_count",
            "rank",
            "winners_short",
            "winner_seat",
            "suit_cards",
            "exposed",
        ]
    ),
    st.randoms(use_true_random=False),
)
def test_invalid_facts_are_refused(case, kind, rng):
    n, options, facts = case
    setup = make_setup(NAMES[:n], **options)
    broken, field = break_deal(n, options, facts, kind, rng)
    errors = rules.check(GAME, setup, [broken])
    assert errors, (kind, broken)
    assert field in {e.field for e in errors}, (kind, [(e.field, str(e.message)) for e in errors])
    assert all(e.message.render() for e in errors)


@settings(max_examples=100, deadline=None)
@given(st.sampled_from([2, 3, 4]), st.sampled_from(["dummy", "no_dummy"]), st.integers(0, 2**32 - 1))
def test_random_deal_is_valid(n, two_player, seed):
    setup = make_setup(NAMES[:n], two_player=two_player)
    facts = GAME.random_deal(setup, None, 0, random.Random(seed))
    assert errors_of(setup, facts) == []


@settings(max_examples=100, deadline=None)
@given(
    st.lists(st.booleans(), max_size=10),
    st.one_of(st.none(), st.integers(1, 4)),
    st.one_of(st.none(), st.sampled_from([60, 120, 200])),
)
def test_the_end_counts_played_deals_only(thrown, deals, target):
    """abracadabra.md, Settled here, restated: thrown-in deals do not count toward the deals;
    with a target and deals, whichever comes first; with only a target, no deal limit."""
    options = {"deals": deals, "target": target}
    setup = make_setup(THREE, **options)
    limit = deals if deals is not None else (None if target is not None else 3)
    facts, played, totals, over = [], 0, [0, 0, 0], False
    for was_thrown in thrown:
        if over:
            assert rules.check(GAME, setup, [*facts, EXAMPLE_3])[0].deal == len(facts)
            return
        facts.append({"thrown_in": True} if was_thrown else EXAMPLE_3)
        if not was_thrown:
            played += 1
            totals = [t + s for t, s in zip(totals, (55, 50, 4), strict=True)]
        reached = (limit is not None and played >= limit) or (target is not None and max(totals) >= target)
        # EXAMPLE_3 always puts Helen ahead, so a reached end is never tied once a deal is played.
        over = reached and played > 0
        result = play(GAME, setup, facts)
        assert result.finished == over, (facts, options)
        assert result.tiebreak == (reached and played == 0)
