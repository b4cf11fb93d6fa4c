"""One contract every registered game keeps, checked by playing random games."""

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import games, rules
from scorekeeper.rules.base import DealScore, Msg, check_setup, play

GAMES = sorted(games.GAMES)


def get(key):
    return games.get(key)


def test_tally_is_a_registered_game():
    assert "tally" in GAMES


NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


def setups(game):
    """A setup with default options for every player count the game allows."""
    for n in game.allowed_player_counts({o.key: o.default for o in game.options}):
        errors, setup = check_setup(game, NAMES[:n], {}, 0)
        assert not errors, errors
        yield setup


def random_game(game, setup, rng, limit=60):
    """Deals drawn by the game's own ``random_deal`` until it ends (or ``limit``)."""
    deals = []
    result = play(game, setup, deals)
    while not result.finished and len(deals) < limit:
        dealer = result.next_dealer if result.next_dealer is not None else 0
        deals.append(game.random_deal(setup, result.state, dealer, rng))
        result = play(game, setup, deals)
    return deals, result


@pytest.mark.parametrize("key", GAMES)
def test_registry_entry_is_complete(key):
    game = get(key)
    assert game.key == key
    assert isinstance(game.title, str) and game.title
    assert game.player_counts
    for option in game.options:
        assert option.label
        if option.kind == "choice":
            assert any(option.default == value for value, _ in option.choices)


@pytest.mark.parametrize("key", GAMES)
def test_a_new_game_has_no_score_and_is_not_over(key):
    game = get(key)
    for setup in setups(game):
        result = play(game, setup, [])
        assert result.totals == (0,) * setup.n
        assert not result.finished and not result.winners and not result.tiebreak


@pytest.mark.parametrize("key", GAMES)
def test_empty_and_unknown_facts_are_refused_with_a_field(key):
    game = get(key)
    setup = next(setups(game))
    for facts in ({}, {"bogus": 1}):
        errors = rules.check(game, setup, [facts])
        assert errors, f"{key} accepted {facts}"
        assert all(e.field and isinstance(e.message, Msg) and e.deal == 0 for e in errors)
        assert all(e.message.render() for e in errors)


@pytest.mark.parametrize("key", GAMES)
def test_unknown_option_is_refused(key):
    game = get(key)
    n = game.player_counts[0]
    errors, setup = check_setup(game, NAMES[:n], {"no_such_option": 1}, 0)
    assert setup is None and errors[0].field == "options"


@pytest.mark.parametrize("key", GAMES)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32 - 1))
def test_random_games_keep_the_contract(key, seed):
    game = get(key)
    rng = random.Random(seed)
    for setup in setups(game):
        deals, result = random_game(game, setup, rng)
        assert len(result.deals) == len(deals)
        running = [0] * setup.n
        for k, deal in enumerate(result.deals):
            assert deal.index == k
            assert len(deal.scores) == setup.n and len(deal.explanations) == setup.n
            assert all(isinstance(s, int) for s in deal.scores)
            assert all(isinstance(x, Msg) and x.render() for x in deal.explanations)
            running = [t + s for t, s in zip(running, deal.scores, strict=True)]
            assert deal.totals == tuple(running)
            # Pairs score together: both seats of a side carry the same points.
            for side in result.sides:
                assert len({deal.scores[s] for s in side}) == 1
        assert result.totals == tuple(running)
        if result.finished:
            assert result.winners and not result.tiebreak
            assert set(result.winners) <= set(result.leaders)
            extra = game.random_deal(setup, result.state, 0, rng)
            errors = rules.check(game, setup, [*deals, extra])
            assert errors and errors[0].deal == len(deals)
        # Scoring is a pure function of the facts: the same facts, the same game.
        assert play(game, setup, deals) == result


def test_deal_score_is_frozen():
    score = DealScore((1,), (Msg("x"),))
    with pytest.raises(AttributeError):
        score.scores = (2,)
