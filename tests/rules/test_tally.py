"""Tally: worked examples written from game-record.md's ``tally`` section, the constraints,
and property tests against a plain re-statement of the spec.

Seats: Ann 0, Bob 1, Cid 2, Dee 3.
"""

import copy

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.games.tally.rules import MAX_NOTE, Tally
from scorekeeper.rules.base import Msg, check_setup, play

GAME = Tally()
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
ANN, BOB, CID, DEE = range(4)
END = {"end": True}


def setup_of(n=4, **options):
    errors, setup = check_setup(GAME, NAMES[:n], options, 0)
    assert not errors, [str(e.message) for e in errors]
    return setup


def pts(*points, note=None):
    facts = {"points": list(points)}
    if note is not None:
        facts["note"] = note
    return facts


def errors_of(setup, deals):
    return rules.check(GAME, setup, deals)


def fields(errors):
    return {e.field for e in errors}


# -- worked examples -------------------------------------------------------------------
def test_points_add_up_and_explain_themselves():
    setup = setup_of(3)
    result = play(GAME, setup, [pts(10, -5, 0, note="shot the moon"), pts(3, 4, 26)])
    assert [d.scores for d in result.deals] == [(10, -5, 0), (3, 4, 26)]
    assert result.totals == (13, -1, 26)
    assert [str(x) for x in result.deals[0].explanations] == [
        "10 as entered",
        "-5 as entered",
        "0 as entered",
    ]
    assert str(result.deals[0].summary) == "shot the moon"
    assert result.deals[0].detail["note"] == "shot the moon" and result.deals[1].summary is None
    # Neither a target nor rounds: the game goes on until the scorer ends it.
    assert not result.finished and not result.tiebreak and GAME.planned_deals(setup) is None


def test_the_scorer_ends_the_game_and_ties_share_the_win():
    setup = setup_of(3)
    result = play(GAME, setup, [pts(10, 5, 0), END])
    assert result.finished and result.winners == (ANN,)
    assert result.deals[1].scores == (0, 0, 0)
    assert str(result.deals[1].explanations[0]) == "0: the scorer ended the game"
    # After an explicit end, tied players share the win.
    shared = play(GAME, setup, [pts(10, 10, 0), END])
    assert shared.finished and shared.winners == (ANN, BOB) and not shared.tiebreak
    # Nothing may follow the end.
    errors = errors_of(setup, [pts(10, 5, 0), END, pts(1, 1, 1)])
    assert [(e.field, e.deal) for e in errors] == [("deals", 2)]
    assert str(errors[0].message) == "The game ended after entry 2: nothing can follow it."
    # The end is allowed in any tally game, a target game included.
    assert play(GAME, setup_of(3, target=100), [pts(10, 5, 0), END]).winners == (ANN,)


def test_a_target_ends_the_game_and_the_highest_wins():
    setup = setup_of(3, target=100)
    assert not play(GAME, setup, [pts(60, 99, 0)]).finished
    result = play(GAME, setup, [pts(60, 99, 0), pts(40, 0, 5)])  # Ann reaches 100 exactly
    assert result.finished and result.winners == (ANN,)
    # A tie for the highest total plays another deal.
    tied = play(GAME, setup, [pts(100, 100, 0)])
    assert not tied.finished and tied.tiebreak and tied.winners == ()
    assert play(GAME, setup, [pts(100, 100, 0), pts(0, 1, 0)]).winners == (BOB,)


def test_low_wins_the_target_still_ends_the_game():
    # Hearts to 100: Cid reaches 104, the game ends, and the lowest total (Dee, 18) wins.
    setup = setup_of(4, target=100, low_wins=True)
    assert not play(GAME, setup, [pts(20, 20, 78, 8)]).finished
    result = play(GAME, setup, [pts(20, 20, 78, 8), pts(6, 10, 26, 10)])
    assert result.totals == (26, 30, 104, 18)
    assert result.finished and result.winners == (DEE,) and result.leaders == (DEE,)
    # A tie for the lowest plays another deal.
    tied = play(GAME, setup, [pts(20, 50, 100, 20)])
    assert tied.tiebreak and tied.leaders == (ANN, DEE)


def test_rounds_end_the_game_and_the_end_entry_is_not_a_round():
    setup = setup_of(2, rounds=2)
    assert GAME.planned_deals(setup) == 2
    assert not play(GAME, setup, [pts(1, 2)]).finished
    assert play(GAME, setup, [pts(1, 2), pts(5, 0)]).winners == (ANN,)
    tied = play(GAME, setup, [pts(1, 2), pts(1, 0)])
    assert tied.tiebreak
    # The scorer may still end a tied game: the tied players share the win.
    assert play(GAME, setup, [pts(1, 2), pts(1, 0), END]).winners == (ANN, BOB)
    result = play(GAME, setup, [pts(1, 2), pts(1, 0)])
    assert GAME.counted_deals(result) == 2


def test_target_and_rounds_end_at_whichever_comes_first():
    setup = setup_of(2, target=50, rounds=3)
    assert play(GAME, setup, [pts(50, 0)]).finished  # the target first
    assert play(GAME, setup, [pts(1, 0)] * 3).finished  # the rounds first
    assert not play(GAME, setup, [pts(1, 0)] * 2).finished


def test_teams_score_the_sum_of_their_seats():
    setup = setup_of(4, teams=[[ANN, CID], [BOB, DEE]], target=20)
    result = play(GAME, setup, [pts(5, 3, -2, 4)])
    assert result.deals[0].scores == (3, 7, 3, 7)
    assert str(result.deals[0].explanations[0]) == "Ann 5 + Cid -2 = 3"
    assert str(result.deals[0].explanations[1]) == "Bob 3 + Dee 4 = 7"
    assert result.sides == ((ANN, CID), (BOB, DEE))
    done = play(GAME, setup, [pts(5, 3, -2, 4), pts(10, 1, 10, 1)])
    assert done.totals == (23, 9, 23, 9) and done.winners == (ANN, CID)


def test_teams_of_different_sizes_and_a_tie_between_teams():
    setup = setup_of(3, teams=[[0], [1, 2]])
    tied = play(GAME, setup, [pts(10, 4, 6), END])
    assert tied.winners == (0, 1, 2)
    alone = play(GAME, setup, [pts(10, 4, 5), END])
    assert alone.winners == (0,)
    assert play(GAME, setup_of(3, teams=[[0], [1, 2]], rounds=1), [pts(10, 4, 6)]).tiebreak


# -- bad input names the field -----------------------------------------------------------
@pytest.mark.parametrize(
    ("facts", "field", "words"),
    [
        (pts(1, 2, 3), "points", "one number of points per player (4 players), not 3"),
        ({"points": "10"}, "points", "one number of points per player"),
        (pts(1, 2.5, 3, 4), "points", "Bob: points are a whole number"),
        (pts(1, "2", 3, 4), "points", "Bob: points are a whole number"),
        (pts(1, True, 3, 4), "points", "Bob: points are a whole number"),
        (pts(1, 10**12, 3, 4), "points", "Bob: points are a whole number"),
        ({}, "points", "required"),
        (pts(1, 2, 3, 4, note="x" * (MAX_NOTE + 1)), "note", "at most 200 characters, not 201"),
        (pts(1, 2, 3, 4, note=5), "note", "text"),
        ({"end": False}, "end", "only ever true"),
        ({"end": 1}, "end", "only ever true"),
        ({"end": True, "points": [1, 2, 3, 4]}, "points", "nothing else"),
        ({"points": [1, 2, 3, 4], "tricks": [1]}, "tricks", "not a fact"),
    ],
)
def test_bad_input_is_refused_naming_the_field(facts, field, words):
    errors = errors_of(setup_of(4), [facts])
    assert field in fields(errors), [str(e.message) for e in errors]
    assert any(words in e.message.render() for e in errors if e.field == field)


def test_a_note_of_200_characters_and_negative_points_are_fine():
    assert errors_of(setup_of(2), [pts(-40, 0, note="x" * MAX_NOTE)]) == []


@pytest.mark.parametrize(
    ("teams", "words"),
    [
        ([[0, 1], [1, 2, 3]], "seat 1 (Bob) is in more than one team"),
        ([[0, 1], [2]], "missing: Dee"),
        ([[0, 1, 2, 3]], "at least two teams"),
        ([[0, 4], [1, 2, 3]], "a seat is a number from 0 to 3"),
        ([[0, 1], []], "list of seat lists"),
        ("0+2", "list of seat lists"),
        ([[0, True], [1, 2, 3]], "a seat is a number"),
    ],
)
def test_bad_teams_are_refused(teams, words):
    errors, setup = check_setup(GAME, NAMES[:4], {"teams": teams}, 0)
    assert setup is None and fields(errors) == {"teams"}
    assert words in errors[0].message.render()


def test_options_are_checked():
    for options in ({"target": 0}, {"rounds": 0}, {"low_wins": "yes"}, {"target": "high"}):
        errors, setup = check_setup(GAME, NAMES[:3], options, 0)
        assert setup is None and errors, options
    assert {o.key: o.default for o in GAME.options} == {
        "target": None,
        "low_wins": False,
        "rounds": None,
        "teams": None,
    }


# -- properties: random games against a plain re-statement of the spec -----------------------
@st.composite
def games(draw):
    n = draw(st.integers(2, 6))
    options = {
        "target": draw(st.one_of(st.none(), st.integers(1, 150))),
        "low_wins": draw(st.booleans()),
        "rounds": draw(st.one_of(st.none(), st.integers(1, 6))),
    }
    if n >= 4 and draw(st.booleans()):
        seats = draw(st.permutations(range(n)))
        cut = draw(st.integers(1, n - 1))
        options["teams"] = [sorted(seats[:cut]), sorted(seats[cut:])]
    deals = [
        {"points": draw(st.lists(st.integers(-30, 60), min_size=n, max_size=n))}
        for _ in range(draw(st.integers(0, 8)))
    ]
    if draw(st.booleans()):
        deals.append({"end": True})
    return n, options, deals


def restated(n, options, deals):
    """game-record.md's tally, restated: (totals, finished, winners, tiebreak) after each entry,
    or the index of the first entry that may not be recorded."""
    teams = options.get("teams") or [[s] for s in range(n)]
    totals, played, history = [0] * n, 0, []
    over = False
    for k, deal in enumerate(deals):
        if over:
            return k
        ended = "end" in deal
        if not ended:
            played += 1
            for team in teams:
                team_points = sum(deal["points"][s] for s in team)
                for s in team:
                    totals[s] += team_points
        reached = (
            ended
            or (options["target"] is not None and max(totals) >= options["target"])
            or (options["rounds"] is not None and played >= options["rounds"])
        )
        winners, tiebreak = (), False
        if reached:
            team_totals = [totals[team[0]] for team in teams]
            best = min(team_totals) if options["low_wins"] else max(team_totals)
            best_teams = [team for team, t in zip(teams, team_totals, strict=True) if t == best]
            if len(best_teams) == 1 or ended:
                winners = tuple(s for team in best_teams for s in team)
                over = True
            else:
                tiebreak = True
        history.append((tuple(totals), over, winners, tiebreak))
    return history


@settings(max_examples=300, deadline=None)
@given(games())
def test_random_games_follow_the_spec(game):
    n, options, deals = game
    setup = setup_of(n, **options)
    expected = restated(n, options, deals)
    if isinstance(expected, int):
        errors = errors_of(setup, deals)
        assert errors and errors[0].deal == expected and errors[0].field == "deals"
        return
    for k, (totals, finished, winners, tiebreak) in enumerate(expected):
        result = play(GAME, setup, deals[: k + 1])
        assert result.totals == totals
        assert (result.finished, result.winners, result.tiebreak) == (finished, winners, tiebreak)
    result = play(GAME, setup, deals)
    for deal in result.deals:
        assert all(isinstance(x, Msg) and x.render() for x in deal.explanations)
        for team in result.sides:
            assert len({deal.scores[s] for s in team}) == 1


@settings(max_examples=200, deadline=None)
@given(
    games(), st.sampled_from(["short", "long", "float", "string", "note"]), st.randoms(use_true_random=False)
)
def test_broken_entries_are_refused(game, kind, rnd):
    n, options, deals = game
    setup = setup_of(n, **options)
    expected = restated(n, options, deals)
    valid = deals[:expected] if isinstance(expected, int) else deals
    points_deals = [k for k, d in enumerate(valid) if "points" in d]
    if not points_deals:
        return
    k = rnd.choice(points_deals)
    broken = copy.deepcopy(valid)
    facts = broken[k]
    if kind == "short":
        facts["points"].pop()
    elif kind == "long":
        facts["points"].append(0)
    elif kind == "float":
        facts["points"][rnd.randrange(n)] = 1.5
    elif kind == "string":
        facts["points"][rnd.randrange(n)] = "7"
    else:
        facts["note"] = "y" * (MAX_NOTE + 1 + rnd.randrange(5))
    errors = errors_of(setup, broken)
    assert errors and errors[0].deal == k
    assert errors[0].field == ("note" if kind == "note" else "points")


def test_a_tiebreak_deal_that_takes_everyone_below_the_target_is_no_longer_a_tie():
    """Found by the property test above: tied at the target, then a deal of minus points for all.
    Nobody has reached the target any more: the game plays on, no tie to break (game-record.md:
    ``tiebreak`` true only while tied players must play another deal)."""
    setup = setup_of(2, target=1)
    tied = play(GAME, setup, [{"points": [1, 1]}])
    assert (tied.finished, tied.tiebreak) == (False, True)
    below = play(GAME, setup, [{"points": [1, 1]}, {"points": [-1, -1]}])
    assert below.totals == (0, 0) and (below.finished, below.winners, below.tiebreak) == (False, (), False)
    assert below.deals[1].tiebreak  # that deal itself was played to break the tie
    won = play(GAME, setup, [{"points": [1, 1]}, {"points": [-1, -1]}, {"points": [2, 0]}])
    assert (won.finished, won.winners, won.tiebreak) == (True, (0,), False)
    assert not won.deals[2].tiebreak
