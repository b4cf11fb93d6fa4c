"""Euchre's rules (shared/rules/euchre.md): worked examples, options, constraints, properties.

Seats: Ann 0, Bob 1, Cid 2, Dee 3; pairs Ann & Cid (0+2) and Bob & Dee (1+3).
Every expected number below was worked out by hand from the scoring table.
"""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.games import GAMES
from scorekeeper.games.euchre.rules import Euchre, leader, pair_name, sitting_out
from scorekeeper.rules.base import check_setup, play

GAME = GAMES.get("euchre")
NAMES = ["Ann", "Bob", "Cid", "Dee"]
ANN, BOB, CID, DEE = range(4)


def setup_with(first_dealer=0, **options):
    errors, setup = check_setup(GAME, NAMES, options, first_dealer)
    assert not errors, errors
    return setup


def deal(maker=ANN, tricks=3, alone=False, defender=None, trump="H", **extra):
    facts = {
        "trump": trump,
        "maker": maker,
        "alone": alone,
        "defender_alone": defender,
        "maker_tricks": tricks,
    }
    facts.update(extra)
    return facts


def score(facts, **options):
    """The scores of one deal played under ``options``."""
    result = play(GAME, setup_with(**options), [facts])
    return result.deals[0].scores


def errors_of(facts, **options):
    return rules.check(GAME, setup_with(**options), [facts])


def fields(errors):
    return {e.field for e in errors}


def text(errors, field):
    return " ".join(e.message.render() for e in errors if e.field == field)


# -- registration and setup ---------------------------------------------------------


def test_registered_as_euchre_for_four_players_in_pairs():
    assert isinstance(GAME, Euchre)
    assert GAME.player_counts == (4,)
    assert GAME.sides(setup_with()) == ((0, 2), (1, 3))


def test_option_keys_and_defaults_are_the_records():
    defaults = {o.key: o.default for o in GAME.options}
    assert defaults == {
        "target": 10,
        "stick_the_dealer": True,
        "defend_alone": True,
        "lone_defender_four": "march",
        "lone_maker_euchred": 2,
        # events.md / game-record.md: a game of a fixed number of hands.
        "hands": None,
        "hands_tiebreak": False,
    }
    target = next(o for o in GAME.options if o.key == "target")
    assert target.suggestions == (5, 7, 10, 11)


@pytest.mark.parametrize("players", [NAMES[:3], [*NAMES, "Eve"]])
def test_only_four_players(players):
    errors, setup = check_setup(GAME, players, {}, 0)
    assert setup is None and fields(errors) == {"players"}


# -- every worked example of euchre.md -------------------------------------------


def test_example_makers_3_score_1():
    assert score(deal(maker=ANN, tricks=3)) == (1, 0, 1, 0)


def test_example_makers_5_score_2():
    assert score(deal(maker=BOB, tricks=5)) == (0, 2, 0, 2)


def test_example_lone_maker_5_scores_4():
    assert score(deal(maker=CID, tricks=5, alone=True)) == (4, 0, 4, 0)


def test_example_lone_maker_4_scores_1():
    assert score(deal(maker=DEE, tricks=4, alone=True)) == (0, 1, 0, 1)


def test_example_makers_2_defenders_score_2():
    assert score(deal(maker=ANN, tricks=2)) == (0, 2, 0, 2)


def test_example_lone_defender_makers_0_defenders_score_4():
    assert score(deal(maker=ANN, tricks=0, defender=BOB)) == (0, 4, 0, 4)


def test_example_lone_defender_makers_2_defenders_score_2():
    assert score(deal(maker=ANN, tricks=2, defender=DEE)) == (0, 2, 0, 2)


def test_example_a_pair_on_8_that_marches_reaches_10_and_wins():
    setup = setup_with()
    # Ann & Cid: 2 + 2 + 2 + 2 = 8, with Bob & Dee scoring 1 between them.
    deals = [
        deal(maker=ANN, tricks=5),
        deal(maker=BOB, tricks=3),
        deal(maker=CID, tricks=5),
        deal(maker=ANN, tricks=5),
        deal(maker=CID, tricks=5),
    ]
    before = play(GAME, setup, deals)
    assert before.totals == (8, 1, 8, 1)
    assert not before.finished and before.winners == ()
    after = play(GAME, setup, [*deals, deal(maker=ANN, tricks=5)])
    assert after.totals == (10, 1, 10, 1)
    assert after.finished and after.winners == (ANN, CID)
    assert after.next_dealer is None


# -- the rest of the scoring table --------------------------------------------------


@pytest.mark.parametrize(
    ("facts", "expected"),
    [
        (deal(maker=ANN, tricks=4), (1, 0, 1, 0)),
        (deal(maker=ANN, tricks=3, alone=True), (1, 0, 1, 0)),
        (deal(maker=ANN, tricks=1), (0, 2, 0, 2)),
        (deal(maker=ANN, tricks=0), (0, 2, 0, 2)),
        # A lone defender whose pair wins 3 or 4 scores 2.
        (deal(maker=BOB, tricks=1, defender=ANN), (2, 0, 2, 0)),
        (deal(maker=BOB, tricks=2, defender=CID), (2, 0, 2, 0)),
        # The makers still make it against a lone defender: 1, 2 or 4 as usual.
        (deal(maker=BOB, tricks=3, defender=ANN), (0, 1, 0, 1)),
        (deal(maker=BOB, tricks=5, defender=ANN), (0, 2, 0, 2)),
        (deal(maker=BOB, tricks=5, alone=True, defender=CID), (0, 4, 0, 4)),
        # A lone maker euchred by default gives 2.
        (deal(maker=DEE, tricks=2, alone=True), (2, 0, 2, 0)),
        (deal(maker=DEE, tricks=0, alone=True), (2, 0, 2, 0)),
        # Both alone, the lone defender's pair takes all 5: 4, not more.
        (deal(maker=DEE, tricks=0, alone=True, defender=ANN), (4, 0, 4, 0)),
    ],
)
def test_scoring_table(facts, expected):
    assert score(facts) == expected


def test_only_one_pair_scores_and_totals_run():
    setup = setup_with()
    deals = [deal(maker=ANN, tricks=3), deal(maker=BOB, tricks=1), deal(maker=CID, tricks=5, alone=True)]
    result = play(GAME, setup, deals)
    assert [d.scores for d in result.deals] == [(1, 0, 1, 0), (2, 0, 2, 0), (4, 0, 4, 0)]
    assert [d.totals for d in result.deals] == [(1, 0, 1, 0), (3, 0, 3, 0), (7, 0, 7, 0)]


# -- explanations, summary, notes, detail ---------------------------------------


def test_lone_march_is_explained_for_both_pairs():
    result = play(GAME, setup_with(), [deal(maker=ANN, tricks=5, alone=True, round=1)])
    d = result.deals[0]
    lines = [x.render() for x in d.explanations]
    assert lines[ANN] == lines[CID]
    assert lines[ANN].startswith("Ann alone, 5 tricks: 4 for Ann & Cid")
    assert lines[BOB] == lines[DEE] == "0 (Ann & Cid scored)"
    assert d.summary.render() == "Hearts (turned up), Ann alone"
    assert [n.render() for n in d.notes] == ["Cid sits out.", "Bob leads."]
    assert d.detail == {
        "thrown_in": False,
        "result": "march",
        "makers": [0, 2],
        "scoring_pair": [0, 2],
        "points": 4,
        "sitting_out": [2],
        "leader": 1,
    }


def test_euchre_is_explained_with_the_tricks_and_the_points():
    facts = deal(maker=BOB, tricks=1, defender=ANN, trump="S", round=2)
    d = play(GAME, setup_with(), [facts]).deals[0]
    line = d.explanations[ANN].render()
    assert "Bob made trump" in line and "Ann defending alone" in line
    assert "1 trick," in line and "euchred" in line and line.endswith(": 2 for Ann & Cid")
    assert d.explanations[BOB].render() == "0 (Ann & Cid scored)"
    assert d.summary.render() == "Spades (named), made by Bob, Ann defends alone"
    assert d.detail["result"] == "euchred" and d.detail["makers"] == [1, 3]
    assert d.detail["scoring_pair"] == [0, 2] and d.detail["points"] == 2


def test_plain_deal_without_round_summary_and_no_notes():
    d = play(GAME, setup_with(), [deal(maker=DEE, tricks=4, trump="D")]).deals[0]
    assert d.summary.render() == "Diamonds, made by Dee"
    assert d.explanations[DEE].render() == "Dee made trump, 4 tricks: 1 for Bob & Dee"
    assert d.notes == ()
    assert d.detail["leader"] == BOB  # first dealer Ann, Bob on her left leads


def test_pair_name():
    assert pair_name(setup_with(), DEE).render() == "Bob & Dee"
    assert pair_name(setup_with(), CID).render() == "Ann & Cid"


# -- who leads ------------------------------------------------------------------


def test_left_of_the_dealer_leads_when_everyone_plays():
    setup = setup_with()
    assert [leader(setup, dealer) for dealer in range(4)] == [1, 2, 3, 0]
    assert leader(setup, ANN, deal(maker=CID, tricks=3)) == BOB


def test_lead_passes_on_when_the_left_player_sits_out():
    setup = setup_with()
    # Dealer Ann; Dee alone, so Bob (left of the dealer) sits out: Cid leads.
    facts = deal(maker=DEE, alone=True)
    assert sitting_out(facts) == (BOB,)
    assert leader(setup, ANN, facts) == CID
    # Dealer Ann; Dee defends alone, Bob sits out: Cid leads.
    assert leader(setup, ANN, deal(maker=ANN, defender=DEE)) == CID
    # Both alone: Bob and Cid sit out, so with Ann dealing, Dee leads.
    both = deal(maker=ANN, alone=True, defender=DEE)
    assert sitting_out(both) == (BOB, CID)
    assert leader(setup, ANN, both) == DEE
    # Partners of lone players who are not on the dealer's left change nothing.
    assert leader(setup, ANN, deal(maker=BOB, alone=True)) == BOB


def test_leader_is_in_the_detail_of_a_played_deal():
    setup = setup_with(first_dealer=DEE)  # Ann leads unless she sits out
    result = play(GAME, setup, [deal(maker=CID, alone=True)])
    assert result.deals[0].detail["leader"] == BOB
    assert [n.render() for n in result.deals[0].notes] == ["Ann sits out.", "Bob leads."]


# -- each option's effect -------------------------------------------------------


def test_option_target_ends_the_game_where_asked():
    deals = [deal(maker=ANN, tricks=5), deal(maker=CID, tricks=5), deal(maker=ANN, tricks=3)]
    # 2 + 2 + 1 = 5: the game is won at 5, not at 10.
    short = play(GAME, setup_with(target=5), deals)
    assert short.totals == (5, 0, 5, 0) and short.finished and short.winners == (ANN, CID)
    default = play(GAME, setup_with(), deals)
    assert default.totals == (5, 0, 5, 0) and not default.finished and default.next_dealer == DEE
    # At 7 one more deal is not enough; a lone march gets there.
    seven = setup_with(target=7)
    assert not play(GAME, seven, [*deals, deal(maker=BOB, tricks=4)]).finished
    won = play(GAME, seven, [*deals, deal(maker=CID, tricks=5, alone=True)])
    assert won.totals == (9, 0, 9, 0) and won.winners == (ANN, CID)


def test_option_target_is_any_whole_number_from_1():
    assert setup_with(target=11).options["target"] == 11
    assert setup_with(target=23).options["target"] == 23
    assert play(GAME, setup_with(target=1), [deal(maker=BOB, tricks=3)]).winners == (BOB, DEE)
    for bad in (0, -5, 2.5, "10", True):
        errors, setup = check_setup(GAME, NAMES, {"target": bad}, 0)
        assert setup is None and fields(errors) == {"target"}


def test_no_deal_after_the_game_is_won():
    deals = [deal(maker=ANN, tricks=5, alone=True), deal(maker=ANN, tricks=3)]
    errors = rules.check(GAME, setup_with(target=5), [*deals, deal(maker=BOB, tricks=3)])
    assert errors and errors[0].deal == 2 and errors[0].field == "deals"


def test_option_stick_the_dealer_off_lets_a_deal_be_thrown_in():
    off = setup_with(stick_the_dealer=False)
    result = play(GAME, off, [{"thrown_in": True}, deal(maker=ANN, tricks=3)])
    thrown = result.deals[0]
    assert thrown.scores == (0, 0, 0, 0)
    assert all("thrown in" in x.render() for x in thrown.explanations)
    assert "Thrown in" in thrown.summary.render()
    assert thrown.detail["result"] == "thrown_in" and thrown.detail["points"] == 0
    # The deal passes on: Ann dealt the thrown-in deal, Bob the next, Cid deals now.
    assert [d.dealer for d in result.deals] == [ANN, BOB]
    assert result.next_dealer == CID and result.totals == (1, 0, 1, 0)
    # With stick the dealer (the default) the same deal is refused.
    errors = rules.check(GAME, setup_with(), [{"thrown_in": True}])
    assert fields(errors) == {"thrown_in"}
    assert "stick the dealer" in text(errors, "thrown_in")


def test_thrown_in_false_is_an_ordinary_deal_under_either_option():
    for stick in (True, False):
        assert score(deal(maker=BOB, tricks=3, thrown_in=False), stick_the_dealer=stick) == (0, 1, 0, 1)


def test_option_defend_alone_off_refuses_a_lone_defender():
    facts = deal(maker=ANN, tricks=0, defender=BOB)
    assert score(facts) == (0, 4, 0, 4)
    errors = errors_of(facts, defend_alone=False)
    assert fields(errors) == {"defender_alone"}
    assert "Defending alone is not played" in text(errors, "defender_alone")
    # Without a lone defender the same tricks give 2.
    assert score(deal(maker=ANN, tricks=0, defender=None), defend_alone=False) == (0, 2, 0, 2)


def test_option_lone_defender_four_for_any_euchre():
    for tricks in (1, 2):
        facts = deal(maker=ANN, tricks=tricks, defender=DEE)
        assert score(facts) == (0, 2, 0, 2)
        assert score(facts, lone_defender_four="euchre") == (0, 4, 0, 4)
    # All 5 tricks is 4 either way; the makers making it is untouched.
    assert score(deal(maker=ANN, tricks=0, defender=DEE), lone_defender_four="euchre") == (0, 4, 0, 4)
    assert score(deal(maker=ANN, tricks=3, defender=DEE), lone_defender_four="euchre") == (1, 0, 1, 0)
    # No lone defender, no 4.
    assert score(deal(maker=ANN, tricks=2), lone_defender_four="euchre") == (0, 2, 0, 2)
    line = play(GAME, setup_with(lone_defender_four="euchre"), [deal(maker=ANN, tricks=2, defender=DEE)])
    assert "any euchre counts 4" in line.deals[0].explanations[DEE].render()


def test_option_lone_maker_euchred_for_4():
    for tricks in (0, 1, 2):
        facts = deal(maker=CID, tricks=tricks, alone=True)
        assert score(facts) == (0, 2, 0, 2)
        assert score(facts, lone_maker_euchred=4) == (0, 4, 0, 4)
    # A euchred pair (not alone) still gives 2; a lone maker who makes it is untouched.
    assert score(deal(maker=CID, tricks=2), lone_maker_euchred=4) == (0, 2, 0, 2)
    assert score(deal(maker=CID, tricks=3, alone=True), lone_maker_euchred=4) == (1, 0, 1, 0)
    # Two reasons for 4 do not add up.
    both = deal(maker=CID, tricks=1, alone=True, defender=BOB)
    assert score(both, lone_maker_euchred=4, lone_defender_four="euchre") == (0, 4, 0, 4)


@pytest.mark.parametrize(
    ("key", "bad"),
    [
        ("stick_the_dealer", 1),
        ("defend_alone", "yes"),
        ("lone_defender_four", "always"),
        ("lone_maker_euchred", 3),
        ("lone_maker_euchred", "4"),
    ],
)
def test_option_values_out_of_their_choices_are_refused(key, bad):
    errors, setup = check_setup(GAME, NAMES, {key: bad}, 0)
    assert setup is None and fields(errors) == {key}


# -- constraints ----------------------------------------------------------------


def test_maker_and_lone_defender_in_the_same_pair_is_refused():
    for defender in (ANN, CID):
        errors = errors_of(deal(maker=ANN, defender=defender))
        assert fields(errors) == {"defender_alone"}
        message = text(errors, "defender_alone")
        assert "different pairs" in message and "Bob or Dee" in message


def test_two_lone_players_on_one_side_is_refused():
    errors = errors_of(deal(maker=BOB, alone=True, defender=DEE))
    assert fields(errors) == {"defender_alone"}
    message = text(errors, "defender_alone")
    assert "At most one player per side plays alone" in message and "Dee sits out" in message
    # One lone player on each side is fine.
    assert errors_of(deal(maker=BOB, alone=True, defender=ANN)) == []


@pytest.mark.parametrize("tricks", [-1, 6, 13, "3", 2.5, True])
def test_makers_tricks_out_of_range_are_refused(tricks):
    errors = errors_of(deal(tricks=tricks))
    assert fields(errors) == {"maker_tricks"}
    assert "from 0 to 5" in text(errors, "maker_tricks")


def test_makers_tricks_not_chosen_are_still_to_enter():
    """Issue 53: a blank is a choice still to make (said neutrally by a preview), not a wrong number."""
    errors = errors_of(deal(tricks=None))
    assert fields(errors) == {"maker_tricks"} and errors[0].missing
    assert text(errors, "maker_tricks") == "Choose the makers' tricks."


def test_thrown_in_deal_carries_no_other_facts():
    errors = errors_of({"thrown_in": True, "maker": ANN, "maker_tricks": 3}, stick_the_dealer=False)
    assert fields(errors) == {"maker", "maker_tricks"}
    assert "thrown-in deal" in text(errors, "maker")
    # Empty (null) fields and the dealer are fine.
    assert errors_of({"thrown_in": True, "trump": None, "dealer": 2}, stick_the_dealer=False) == []


@pytest.mark.parametrize(
    ("change", "field", "words"),
    [
        ({"trump": "NT"}, "trump", "four suits"),
        ({"trump": "h"}, "trump", "four suits"),
        ({"round": 3}, "round", "turned-up"),
        ({"round": True}, "round", "turned-up"),
        ({"maker": 4}, "maker", "one of the four players"),
        ({"maker": -1}, "maker", "one of the four players"),
        ({"maker": "Ann"}, "maker", "one of the four players"),
        ({"alone": "no"}, "alone", "lone player"),
        ({"alone": None}, "alone", "lone player"),
        ({"alone": 4}, "alone", "lone player"),
        ({"alone": BOB}, "alone", "Bob is not in Ann & Cid"),
        ({"turned_up": "NT"}, "turned_up", "four suits"),
        ({"round": 2, "turned_up": "H"}, "trump", "differs from the turned-up suit"),
        ({"defender_alone": 7}, "defender_alone", "one of the players"),
        ({"defender_alone": False}, "defender_alone", "one of the players"),
        ({"thrown_in": "yes"}, "thrown_in", "yes or no"),
        ({"bid": 3}, "bid", "not a fact"),
    ],
)
def test_bad_values_are_refused_with_their_field(change, field, words):
    errors = errors_of({**deal(), **change})
    assert field in fields(errors)
    assert words in text(errors, field)


@pytest.mark.parametrize("missing", ["trump", "maker", "alone", "maker_tricks"])
def test_required_facts(missing):
    facts = deal()
    del facts[missing]
    errors = errors_of(facts)
    assert fields(errors) == {missing}


def test_optional_facts_may_be_left_out():
    facts = deal(maker=BOB, tricks=5)
    del facts["defender_alone"]
    assert "round" not in facts and "thrown_in" not in facts
    assert score(facts) == (0, 2, 0, 2)


def test_a_refused_deal_leaves_the_recorded_ones_alone():
    setup = setup_with()
    good = [deal(maker=ANN, tricks=5)]
    errors = rules.check(GAME, setup, [*good, deal(maker=ANN, tricks=6)])
    assert errors and errors[0].deal == 1 and errors[0].field == "maker_tricks"
    assert play(GAME, setup, good).totals == (2, 0, 2, 0)


# -- either maker alone, and the turned-up suit (euchre.md, Facts per deal) -------------


def test_either_player_of_the_making_pair_may_play_alone():
    # "Jeśli któryś z graczy pary X gra sam": Ann makes trump, her partner Cid plays alone.
    facts = deal(maker=ANN, tricks=5, alone=CID)
    assert score(facts) == (4, 0, 4, 0)  # lone maker wins all 5: makers 4
    result = play(GAME, setup_with(), [facts]).deals[0]
    assert sitting_out(facts) == (ANN,)
    assert result.detail["sitting_out"] == [ANN] and result.detail["leader"] == BOB
    assert result.explanations[0].render() == (
        "Ann made trump, Cid alone, 5 tricks: 4 for Ann & Cid (lone maker took all 5 tricks)"
    )
    assert result.summary.render() == "Hearts, made by Ann, Cid alone"
    # A lone maker who wins 3 or 4 scores 1; euchred, the defenders 2 (or 4 with the option).
    assert score(deal(maker=ANN, tricks=4, alone=CID)) == (1, 0, 1, 0)
    assert score(deal(maker=ANN, tricks=2, alone=CID)) == (0, 2, 0, 2)
    assert score(deal(maker=ANN, tricks=2, alone=CID), lone_maker_euchred=4) == (0, 4, 0, 4)
    # The seat of the maker himself is the same as true.
    assert score(deal(maker=BOB, tricks=5, alone=BOB)) == score(deal(maker=BOB, tricks=5, alone=True))
    # Seat 0 alone is a lone player, not "no".
    assert score(deal(maker=CID, tricks=5, alone=ANN)) == (4, 0, 4, 0)


def test_json_true_is_the_maker_not_seat_one():
    # Dee makes, alone true: Dee plays alone and Bob (seat 1) sits out; true is not seat 1.
    facts = deal(maker=DEE, tricks=3, alone=True)
    assert sitting_out(facts) == (BOB,)
    assert sitting_out(deal(maker=DEE, tricks=3, alone=BOB)) == (DEE,)
    # For Ann's pair, seat 1 is not a making player: refused, while true is fine.
    assert errors_of(deal(maker=ANN, alone=True)) == []
    assert fields(errors_of(deal(maker=ANN, alone=1))) == {"alone"}


def test_lone_partner_and_a_lone_defender():
    # Cid plays alone for Ann's pair; Dee defends alone, so Bob sits out too.
    facts = deal(maker=ANN, tricks=0, alone=CID, defender=DEE)
    assert sitting_out(facts) == (ANN, BOB)
    assert score(facts) == (0, 4, 0, 4)  # a lone defender's pair wins all 5
    # At most one lone player per side: Ann sits out, she cannot defend either way.
    errors = errors_of(deal(maker=ANN, alone=CID, defender=ANN))
    assert fields(errors) == {"defender_alone"}
    assert "Cid plays alone, so Ann sits out" in text(errors, "defender_alone")


def test_a_round_two_trump_differs_from_the_turned_up_suit():
    errors = errors_of(deal(trump="H", round=2, turned_up="H"))
    assert fields(errors) == {"trump"}
    assert text(errors, "trump") == "A trump named in round 2 differs from the turned-up suit (Hearts)."
    assert errors_of(deal(trump="S", round=2, turned_up="H")) == []
    # Round 1 is the turned-up suit itself.
    assert errors_of(deal(trump="H", round=1, turned_up="H")) == []
    assert fields(errors_of(deal(trump="S", round=1, turned_up="H"))) == {"trump"}
    # Without a round nothing says how trump was fixed; the suit is optional.
    assert errors_of(deal(trump="H", turned_up="H")) == []
    assert errors_of(deal(trump="H", round=2, turned_up=None)) == []


# -- properties -----------------------------------------------------------------

OPTIONS = st.fixed_dictionaries(
    {
        "target": st.integers(1, 15),
        "stick_the_dealer": st.booleans(),
        "defend_alone": st.booleans(),
        "lone_defender_four": st.sampled_from(["march", "euchre"]),
        "lone_maker_euchred": st.sampled_from([2, 4]),
    }
)


@st.composite
def valid_deals(draw, options):
    maker = draw(st.integers(0, 3))
    defenders = [(maker + 1) % 4, (maker + 3) % 4]
    lone = [None, *defenders] if options["defend_alone"] else [None]
    facts = {
        "trump": draw(st.sampled_from("SHDC")),
        "maker": maker,
        # No, yes (the maker), or the seat of either player of the making pair.
        "alone": draw(st.sampled_from([False, True, maker, (maker + 2) % 4])),
        "defender_alone": draw(st.sampled_from(lone)),
        "maker_tricks": draw(st.integers(0, 5)),
    }
    if draw(st.booleans()):
        facts["round"] = draw(st.sampled_from([1, 2]))
        if draw(st.booleans()):
            # Round 1 accepts the turned-up suit; round 2 names another.
            others = [suit for suit in "SHDC" if suit != facts["trump"]]
            facts["turned_up"] = facts["trump"] if facts["round"] == 1 else draw(st.sampled_from(others))
    return facts


def lone_seat(facts):
    """Who played alone for the makers: ``true`` is the maker, a number is that seat."""
    alone = facts["alone"]
    if alone is False:
        return None
    return facts["maker"] if alone is True else alone


def table(facts, options):
    """The scoring table of euchre.md, restated: (the pair that scores, its points)."""
    maker, tricks = facts["maker"], facts["maker_tricks"]
    makers = {maker, (maker + 2) % 4}
    defenders = {0, 1, 2, 3} - makers
    lone_defender = facts["defender_alone"] is not None
    alone = lone_seat(facts) is not None
    if tricks == 5:
        return makers, 4 if alone else 2
    if tricks >= 3:
        return makers, 1
    fours = [
        lone_defender and tricks == 0,
        lone_defender and options["lone_defender_four"] == "euchre",
        alone and options["lone_maker_euchred"] == 4,
    ]
    return defenders, 4 if any(fours) else 2


@settings(max_examples=300, deadline=None)
@given(data=st.data())
def test_random_valid_deals_score_per_the_table(data):
    options = data.draw(OPTIONS)
    facts = data.draw(valid_deals(options))
    dealer = data.draw(st.integers(0, 3))
    setup = setup_with(first_dealer=dealer, **options)
    result = play(GAME, setup, [facts])
    pair, points = table(facts, options)
    assert result.deals[0].scores == tuple(points if s in pair else 0 for s in range(4))
    assert result.deals[0].detail["points"] == points
    # The lead: the first seat clockwise from the dealer that is not sitting out.
    out = set()
    if lone_seat(facts) is not None:
        out.add((lone_seat(facts) + 2) % 4)
    if facts["defender_alone"] is not None:
        out.add((facts["defender_alone"] + 2) % 4)
    expected_leader = next(s % 4 for s in range(dealer + 1, dealer + 5) if s % 4 not in out)
    assert result.deals[0].detail["leader"] == expected_leader


def _breakages(facts, options):
    """Ways to break one valid deal, each with the field that must be blamed."""
    maker = facts["maker"]
    yield {**facts, "maker_tricks": 6}, "maker_tricks"
    yield {**facts, "maker_tricks": -1}, "maker_tricks"
    yield {**facts, "maker": 4}, "maker"
    yield {**facts, "trump": "NT"}, "trump"
    yield {**facts, "alone": (maker + 1) % 4}, "alone"
    yield {**facts, "alone": "yes"}, "alone"
    yield {**facts, "round": 2, "turned_up": facts["trump"]}, "trump"
    yield {**facts, "round": 0}, "round"
    yield {**facts, "defender_alone": maker}, "defender_alone"
    yield {**facts, "defender_alone": (maker + 2) % 4}, "defender_alone"
    yield {**facts, "extra": 1}, "extra"
    if not options["defend_alone"]:
        yield {**facts, "defender_alone": (maker + 1) % 4}, "defender_alone"
    if options["stick_the_dealer"]:
        yield {"thrown_in": True}, "thrown_in"
    else:
        yield {"thrown_in": True, "maker_tricks": facts["maker_tricks"]}, "maker_tricks"


@settings(max_examples=150, deadline=None)
@given(data=st.data())
def test_invalid_facts_are_refused(data):
    options = data.draw(OPTIONS)
    facts = data.draw(valid_deals(options))
    broken, field = data.draw(st.sampled_from(list(_breakages(facts, options))))
    setup = setup_with(**options)
    errors = rules.check(GAME, setup, [broken])
    assert field in fields(errors)
    assert all(e.deal == 0 and e.message.render() for e in errors)


@settings(max_examples=50, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), options=OPTIONS)
def test_random_games_end_when_the_first_pair_reaches_the_target(seed, options):
    rng = random.Random(seed)
    setup = setup_with(**options)
    deals = []
    result = play(GAME, setup, deals)
    while not result.finished:
        assert max(result.totals) < options["target"]
        deals.append(GAME.random_deal(setup, result.state, result.next_dealer, rng))
        result = play(GAME, setup, deals)
    assert max(result.totals) >= options["target"]
    winners = result.winners
    assert winners in ((0, 2), (1, 3))
    loser = 1 - winners[0]
    assert result.totals[winners[0]] >= options["target"] > result.totals[loser]
    for d in result.deals:
        assert d.scores[0] == 0 or d.scores[1] == 0  # only one pair scores
