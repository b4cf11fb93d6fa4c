"""Secret Agent: every worked example of shared/rules/secret-agent.md, the errata, and properties."""

import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.games import GAMES
from scorekeeper.rules.base import check_setup, play

GAME = GAMES.get("secret_agent")
N, E, S, W = range(4)


def setup(deals=4, first_dealer=0):
    errors, result = check_setup(GAME, ["N", "E", "S", "W"], {"deals": deals}, first_dealer)
    assert not errors
    return result


def scores(tricks, agents):
    return play(GAME, setup(), [{"tricks": list(tricks), "agents": list(agents)}]).deals[0].scores


def all_scores(tricks):
    """Every deal score possible for these tricks, over every seating and every card deal."""
    seen = set()
    for order in set(itertools.permutations(tricks)):
        for agents in itertools.permutations("LORS"):
            seen.update(scores(order, agents))
    return seen


def test_flat_4_3_3_3_scores_only_16_12_or_9():
    assert all_scores([4, 3, 3, 3]) == {16, 12, 9}


def test_all_13_tricks_scores_169_130_or_100():
    assert all_scores([13, 0, 0, 0]) == {169, 130, 100}


def test_all_13_tricks_worked_example():
    # N = Self, E = Right (agent N), S = Left (agent W), W = Opposite (agent E).
    assert scores([13, 0, 0, 0], ["S", "R", "L", "O"]) == (169, 130, 100, 100)


def test_misere_player_who_drew_self_scores_100():
    result = scores([0, 5, 4, 4], ["S", "L", "O", "R"])
    assert result[N] == 100


def test_misere_counts_10_as_an_agent_too():
    # E has no trick; N's agent is E (Left): N scores 5 x 10.
    assert scores([5, 0, 4, 4], ["L", "S", "O", "R"])[N] == 50


def test_south_can_be_everyones_agent():
    # South = Self, West = Right, North = Opposite, East = Left.
    agents = {S: "S", W: "R", N: "O", E: "L"}
    tricks = [2, 3, 5, 3]
    result = scores(tricks, [agents[s] for s in range(4)])
    assert result == tuple(tricks[s] * 5 for s in range(4))


def test_errata_spread_5_4_3_1_includes_15():
    assert all_scores([5, 4, 3, 1]) == {25, 20, 16, 15, 12, 9, 5, 4, 3, 1}


def test_explanation_names_the_agent_and_card_and_shows_misere_as_10():
    deal = play(GAME, setup(), [{"tricks": [4, 3, 6, 0], "agents": ["L", "R", "O", "S"]}]).deals[0]
    assert deal.explanations[N].render() == "4 x 3 (agent E, Left) = 12"
    assert deal.explanations[W].render() == "10 (misère) x 10 (misère) (own agent, Self) = 100"
    assert deal.explanations[E].render() == "3 x 4 (agent N, Right) = 12"


def test_trump_is_recorded_but_does_not_change_the_score():
    facts = {"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"]}
    plain = play(GAME, setup(), [facts]).deals[0]
    with_trump = play(GAME, setup(), [{**facts, "trump": "NT"}]).deals[0]
    assert plain.scores == with_trump.scores
    assert with_trump.summary.render() == "Trump: No Trump"


def deal(tricks, agents=("L", "O", "R", "S")):
    return {"tricks": list(tricks), "agents": list(agents)}


def test_four_deals_then_the_highest_total_wins():
    deals = [deal([13, 0, 0, 0], "SLOR")] + [deal([4, 3, 3, 3])] * 3
    result = play(GAME, setup(), deals)
    assert result.finished and result.winners == (N,)
    assert result.next_dealer is None
    assert [d.dealer for d in result.deals] == [0, 1, 2, 3]


def test_a_tie_for_the_top_asks_for_tiebreak_deals_until_one_leader():
    even = deal([4, 3, 3, 3], "LRSO")  # N 12, E 12, S 9, W 9
    deals = [even] * 4
    result = play(GAME, setup(), deals)
    assert result.totals == (48, 48, 36, 36)
    assert not result.finished and result.tiebreak and not result.winners
    assert result.leaders == (N, E)
    assert result.next_dealer == 0  # the deal keeps rotating
    still_tied = play(GAME, setup(), [*deals, even])
    assert still_tied.tiebreak and still_tied.deals[-1].tiebreak
    breaker = deal([13, 0, 0, 0], "SLOR")  # N 169
    broken = play(GAME, setup(), [*deals, even, breaker])
    assert broken.finished and broken.winners == (N,) and broken.deals[-1].tiebreak


def test_no_deal_after_the_game_is_won():
    deals = [deal([13, 0, 0, 0], "SLOR")] * 4
    errors = rules.check(GAME, setup(), [*deals, deal([4, 3, 3, 3])])
    assert errors[0].deal == 4 and errors[0].field == "deals"
    assert "ended after deal 4" in errors[0].message.render()


def test_number_of_deals_option():
    result = play(GAME, setup(deals=8), [deal([13, 0, 0, 0], "SLOR")] * 4)
    assert not result.finished and GAME.planned_deals(setup(deals=8)) == 8
    errors, _ = check_setup(GAME, ["N", "E", "S", "W"], {"deals": 0}, 0)
    assert errors[0].field == "deals"


def test_first_dealer_sets_the_rotation():
    result = play(GAME, setup(first_dealer=2), [deal([4, 3, 3, 3])] * 2)
    assert [d.dealer for d in result.deals] == [2, 3]
    assert result.next_dealer == 0


def errors_of(facts):
    return rules.check(GAME, setup(), [facts])


def test_tricks_must_add_up_to_13():
    (error,) = errors_of(deal([4, 3, 3, 4]))
    # The sum is named, not the last player.
    assert error.field == "tricks" and error.seat is None
    assert error.message.render() == "The tricks add up to 14; a deal has 13."


def test_a_sum_past_13_is_named_even_with_a_player_still_blank():
    (error,) = errors_of(deal([10, 10, None, 0]))
    assert error.message.render() == "The tricks add up to 20; a deal has 13."


def test_an_empty_choice_asks_for_it_by_name():
    errors = errors_of(deal([4, None, 3, 3], ["L", "O", None, "S"]))
    assert [(e.field, e.seat, e.message.render()) for e in errors] == [
        ("tricks", 1, "Choose E's tricks."),
        ("agents", 2, "Choose S's assignment card."),
    ]


@pytest.mark.parametrize("bad", [-1, 14, "3", 2.5, True])
def test_tricks_are_whole_numbers_0_to_13(bad):
    errors = errors_of(deal([bad, 3, 3, 4]))
    assert errors[0].field == "tricks" and errors[0].seat == 0
    assert "N: tricks must be a whole number from 0 to 13" in errors[0].message.render()


def test_each_assignment_card_is_used_once():
    (error,) = errors_of(deal([4, 3, 3, 3], "LLRS"))
    assert error.field == "agents" and error.seat == 1
    assert error.message.render() == "Left is given to both N and E: each card is dealt once."


def test_unknown_card_and_trump_are_refused():
    errors = errors_of({**deal([4, 3, 3, 3], "LORX"), "trump": "Z"})
    assert [(e.field, e.seat) for e in errors] == [("agents", 3), ("trump", None)]


def test_a_deal_may_name_its_dealer():
    result = play(GAME, setup(), [{**deal([4, 3, 3, 3]), "dealer": 3}])
    assert result.deals[0].dealer == 3 and result.next_dealer == 0
    assert rules.check(GAME, setup(), [{**deal([4, 3, 3, 3]), "dealer": 4}])[0].field == "dealer"


AGENT = {"L": 1, "O": 2, "R": -1, "S": 0}


@st.composite
def valid_deals(draw):
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, 13], strict=True)]
    agents = draw(st.permutations(list("LORS")))
    return tricks, agents


@given(valid_deals())
def test_every_valid_deal_scores_as_the_rules_say(drawn):
    tricks, agents = drawn
    factor = [10 if t == 0 else t for t in tricks]
    expected = tuple(factor[s] * factor[(s + AGENT[agents[s]]) % 4] for s in range(4))
    assert scores(tricks, agents) == expected


@given(
    st.lists(st.integers(-2, 15), min_size=4, max_size=4),
    st.lists(st.sampled_from(["L", "O", "R", "S", "X"]), min_size=4, max_size=4),
)
def test_every_invalid_deal_is_refused(tricks, agents):
    valid = all(0 <= t <= 13 for t in tricks) and sum(tricks) == 13 and sorted(agents) == list("LORS")
    errors = errors_of(deal(tricks, agents))
    assert bool(errors) != valid
