"""Abracadabra's tricks as the players report them after the deal (issue 53): each player's
trick count (``tricks``) and the ranks of his own bid cards whose trick he won (``bid_won``),
beside trick by trick (``trick_winners``). shared/rules/abracadabra.md: both forms score the same
deal the same way; its constraints for the reported form are each refused, naming the field.
"""

import copy

import pytest
from hypothesis import given, settings

from scorekeeper import rules
from scorekeeper.games.abracadabra import rules as ab
from tests.rules.test_abracadabra import (
    ANN,
    AT_LEAST,
    EXAMPLE_3,
    EXAMPLE_4,
    EXPOSURE,
    FOUR,
    NAMES,
    THREE,
    errors_of,
    make_setup,
    only_error,
    refused_without,
    scored,
    valid_deals,
    with_,
)


def reported(facts, tricks, bid_won):
    """``facts`` told as reported: the trick winners replaced by the counts and bid cards won."""
    new = copy.deepcopy(facts)
    del new["trick_winners"]
    new.update(tricks=tricks, bid_won=bid_won)
    return new


# The worked example as the players tell it: "Helen: I won my 5 and my Jack, 7 tricks in all,
# 6 hearts"; "David: my 4 and my Queen, 4 tricks, 5 spades"; Cid his Ace and 2, 2 tricks;
# Dee (the Declarer, 6-7-8) won nothing.
EXAMPLE_4_TOLD = reported(EXAMPLE_4, [7, 4, 2, 0], [[5, 11], [4, 12], [1, 2], []])


def test_worked_example_as_reported_scores_55_and_50():
    setup = make_setup(FOUR)
    assert errors_of(setup, EXAMPLE_4_TOLD) == []
    deal = scored(setup, EXAMPLE_4_TOLD)
    # Helen: 20 + (5 + 11) + 7 + 6 x 2 = 55; David: 20 + (4 + 12) + 4 + 5 x 2 = 50.
    assert deal.scores == (55, 50, 27, 0)
    assert str(deal.explanations[0]) == "success 20 + bid tricks 5+11 + tricks 7 + suit cards 6 x 2 = 55"
    assert str(deal.explanations[1]) == "success 20 + bid tricks 4+12 + tricks 4 + suit cards 5 x 2 = 50"
    assert deal.scores == scored(setup, EXAMPLE_4).scores


def test_worked_example_three_players_as_reported():
    """In a three-player deal Helen and David are the two who succeed: 20 each."""
    setup = make_setup(THREE)
    told = reported(EXAMPLE_3, [7, 4, 1], [[5, 11], [4, 12], [1]])
    assert errors_of(setup, told) == []
    deal = scored(setup, told)
    assert deal.scores[:2] == (55, 50)
    assert deal.scores == scored(setup, EXAMPLE_3).scores


def test_exposure_example_as_reported():
    """He exposed J and Q, won trick 11 and lost trick 12: +22 - 24 = -2."""
    setup = make_setup(ANN)
    told = reported(EXPOSURE, [1, 11, 1, 0], [[11], [], [12], []])
    assert errors_of(setup, told) == []
    deal = scored(setup, told)
    ann = deal.detail["players"][0]
    assert ann["right_won"] == [11] and ann["right_lost"] == [12] and ann["right"] == -2
    assert deal.scores == scored(setup, EXPOSURE).scores


@pytest.mark.parametrize("mode", ["named", "exact", "at_least"])
def test_every_success_mode_scores_the_reported_form_alike(mode):
    setup = make_setup(ANN, success=mode)
    told = reported(AT_LEAST, [2, 1, 10, 0], [[], [5], [], []])
    assert errors_of(setup, told) == []
    assert scored(setup, told).scores == scored(setup, AT_LEAST).scores


@settings(max_examples=300, deadline=None)
@given(valid_deals())
def test_any_trick_by_trick_deal_reported_scores_the_same(case):
    """The property of the rules file: any deal entered trick by trick, converted to the form the
    players report, is accepted and scores the same, part for part."""
    n, options, facts = case
    setup = make_setup(NAMES[:n], **options)
    told = ab.reported_form(setup, facts)
    assert "trick_winners" not in told and sum(told["tricks"]) == ab.tricks_per_deal(setup)
    assert errors_of(setup, told) == []
    by_trick, as_told = scored(setup, facts), scored(setup, told)
    assert as_told.scores == by_trick.scores
    assert [str(line) for line in as_told.explanations] == [str(line) for line in by_trick.explanations]
    assert as_told.detail == by_trick.detail


REPORTED_CONSTRAINTS = [
    # (changes, field, seat, words the message must contain)
    # Each trick has exactly one winner: the counts add up to the 13 tricks.
    ({"tricks": [7, 4, 2, 1]}, "tricks", None, "add up to 14"),
    ({"tricks": [7, 4, 2]}, "tricks", None, "one number per player"),
    ({"tricks": [7, 4, 3, -1]}, "tricks", 3, "0 to 13"),
    # A player's won bid cards are among his own laid bid cards (left or right).
    ({"bid_won": [[5, 11, 6], [4, 12], [1, 2], []]}, "bid_won", 0, "laid no 6"),
    # No two players won the same trick number.
    (
        {"bid_cards": [[5, 11], [4, 11], [1, 2], [6, 7, 8]], "bid_won": [[5, 11], [4, 11], [1, 2], []]},
        "bid_won",
        1,
        "both won trick 11",
    ),
    # A player's won bid cards are at most his trick count.
    ({"tricks": [1, 4, 2, 6], "bid_won": [[5, 11], [4, 12], [1, 2], []]}, "bid_won", 0, "only 1 tricks"),
    ({"bid_won": [[5, 5], [4, 12], [1, 2], []]}, "bid_won", 0, "twice"),
    ({"bid_won": [[5, 14], [4, 12], [1, 2], []]}, "bid_won", 0, "from 1 to 13"),
    ({"bid_won": [[5, 11], [4, 12], [1, 2]]}, "bid_won", None, "one list of bid cards won per player"),
    ({"bid_won": [[5, 11], "4 12", [1, 2], []]}, "bid_won", None, "one list"),
    # A deal holds one form, never both.
    ({"trick_winners": EXAMPLE_4["trick_winners"]}, "trick_winners", None, "not both"),
    # The bid-suit cards are still judged against the reported counts: Dee won no trick.
    ({"suit_cards": [6, 5, 1, 1]}, "suit_cards", 3, "at most 0"),
]


@pytest.mark.parametrize(("changes", "field", "seat", "words"), REPORTED_CONSTRAINTS)
def test_reported_constraint_is_refused(changes, field, seat, words):
    setup = make_setup(FOUR)
    facts = with_(EXAMPLE_4_TOLD, **changes)
    errors = only_error(setup, facts, field)
    assert any(e.seat == seat and words in str(e.message) for e in errors), [
        (e.seat, str(e.message)) for e in errors
    ]
    assert rules.check(ab.Abracadabra(), setup, [facts])[0].deal == 0


@pytest.mark.parametrize("key", ["tricks", "bid_won"])
def test_one_half_of_the_report_alone_is_refused(key):
    errors = refused_without(EXAMPLE_4_TOLD, key)
    assert str(errors[0].message) == "This is required."


def test_thrown_in_deal_refuses_a_report():
    setup = make_setup(FOUR)
    errors = only_error(setup, {"thrown_in": True, "tricks": [13, 0, 0, 0]}, "tricks")
    assert "thrown-in" in str(errors[0].message)


def test_two_players_with_a_dummy_reported():
    """A trick won by a dummy card is the live player's who played it: the counts add to 12."""
    setup = make_setup(("Ann", "Bob"))
    facts = {
        "declarer": 0,
        "bid": 2,
        "bid_cards": [[3, 9], [5]],
        "tricks": [8, 4],
        "bid_won": [[3, 9], []],
        "suit_cards": [9, 2],
    }
    assert errors_of(setup, facts) == []
    # Ann alone succeeds: 20 + 3 + 9 + 8 + 9 x 2; Bob: 0 + 4 + 2 x 2.
    assert scored(setup, facts).scores == (58, 8)
    assert only_error(setup, with_(facts, tricks=[9, 4]), "tricks")
