"""The rules' validation vocabulary (``refuse``, ``check_counts``, ``check_choices``, ``one_of``) and
the promise it keeps for every game: any JSON in a deal's facts is refused with a message, never raised."""

import copy
import random

import pytest

from scorekeeper import games, rules
from scorekeeper.rules.base import (
    N_,
    Chosen,
    Counted,
    FieldError,
    Msg,
    check_choices,
    check_counts,
    check_setup,
    one_of,
    refuse,
)
from scorekeeper.rules.cards import SUIT_NAMES

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
# What a JSON client may send where a number, a seat, a suit or a list is due.
JUNK = ([], {}, "", "x", None, 1.5, True, -1, 99, [[]], [{}])


def setup_of(key, n):
    errors, setup = check_setup(games.get(key), NAMES[:n], {}, 0)
    assert not errors
    return setup


def spoiled(deal):
    """The deal with one fact, one entry of a list fact, or one part of such an entry replaced by junk."""
    for key, value in deal.items():
        for junk in JUNK:
            yield {**deal, key: junk}
        if not isinstance(value, list):
            continue
        for i, item in enumerate(value):
            for junk in JUNK:
                yield {**deal, key: [*value[:i], junk, *value[i + 1 :]]}
            parts = range(len(item)) if isinstance(item, list) else item if isinstance(item, dict) else ()
            for part in parts:
                for junk in JUNK:
                    changed = copy.deepcopy(value)
                    changed[i][part] = junk
                    yield {**deal, key: changed}


@pytest.mark.parametrize("key", sorted(games.GAMES))
def test_junk_in_any_fact_is_refused_with_a_message_never_raised(key):
    # A list or an object where a suit or a card is due once raised TypeError (unhashable) in
    # Euchre's trump and Secret Agent's cards: a 500 from the API instead of a 422.
    game = games.get(key)
    rng = random.Random(7)
    for n in game.allowed_player_counts({o.key: o.default for o in game.options}):
        setup = setup_of(key, n)
        for _ in range(3):
            deal = game.random_deal(setup, game.start(setup), 0, rng)
            for facts in spoiled(deal):
                for error in rules.check(game, setup, [facts]):
                    assert error.field and error.message.render()


def test_refuse_words_the_msgid_with_its_params_and_names_the_seat():
    error = refuse("bids", N_("Choose {player}'s bid."), 2, player="Cid")
    assert error == FieldError("bids", Msg("Choose {player}'s bid.", (("player", "Cid"),)), seat=2)
    assert str(error.message) == "Choose Cid's bid."
    # A ready message for a placeholder named like refuse's own arguments.
    ready = rules.msg("Teams: seat {seat} ({player}) is in more than one team.", seat=1, player="Bob")
    assert refuse("teams", ready).message is ready and refuse("teams", ready).seat is None


def test_one_of_answers_no_for_what_cannot_be_looked_up():
    assert one_of("S", SUIT_NAMES) and not one_of("NT", SUIT_NAMES)
    assert not any(one_of(junk, SUIT_NAMES) for junk in ([], {}, ["S"], None, 1))


def test_the_count_check_names_what_it_counts():
    setup = setup_of("secret_agent", 4)
    errors, value = check_counts([3, None, 14, 2], "tricks", setup, 0, 13, total=13)
    assert value is None
    assert [(e.seat, str(e.message)) for e in errors] == [
        (1, "Choose Bob's tricks."),
        (2, "Cid: tricks must be a whole number from 0 to 13."),
    ]
    errors, _ = check_counts([9, 9, None, None], "tricks", setup, 0, 13, total=13)
    assert [str(e.message) for e in errors] == ["The tricks add up to 18; a deal has 13."]
    assert check_counts([3, 3, 3, 4], "tricks", setup, 0, 13, total=13) == ([], [3, 3, 3, 4])

    points = Counted(
        shape=N_("Give one number of points per player ({n} players), not {count}."),
        wrong=N_("{player}: points are a whole number from {lo} to {hi} (negative allowed)."),
    )
    errors, _ = check_counts([1, 2], "points", setup, -5, 5, points)
    assert str(errors[0].message) == "Give one number of points per player (4 players), not 2."
    errors, _ = check_counts([1, None, 2, 3], "points", setup, -5, 5, points)
    # Without a blank message a blank is a wrong number, worded by the caller's noun.
    assert [str(e.message) for e in errors] == [
        "Bob: points are a whole number from -5 to 5 (negative allowed)."
    ]


def test_the_choice_check_refuses_blanks_strangers_and_repeats_in_seat_order():
    setup = setup_of("secret_agent", 4)
    words = Chosen(
        shape=N_("Give one bid suit per player ({n} players)."),
        wrong=N_("{player}: the bid suit is spades, hearts, diamonds or clubs."),
        blank=N_("Choose {player}'s bid suit."),
        repeat=N_("{player} and {other} both took {suit}: each player takes a different bid suit."),
        name="suit",
    )
    errors, value = check_choices(["S", "", ["H"], "S"], "suits", setup, words, SUIT_NAMES)
    assert value is None
    assert [(e.seat, str(e.message)) for e in errors] == [
        (1, "Choose Bob's bid suit."),
        (2, "Cid: the bid suit is spades, hearts, diamonds or clubs."),
        (3, "Dee and Ann both took ♠ spades: each player takes a different bid suit."),
    ]
    assert str(check_choices("S", "suits", setup, words, SUIT_NAMES)[0][0].message) == (
        "Give one bid suit per player (4 players)."
    )

    def not_hearts(seat, suit):
        return refuse("suits", N_("Choose {player}'s bid suit."), seat, player="no") if suit == "H" else None

    errors, _ = check_choices(["S", "H", "D", "C"], "suits", setup, words, SUIT_NAMES, not_hearts)
    assert [e.seat for e in errors] == [1]
    assert check_choices(["S", "H", "D", "C"], "suits", setup, words, SUIT_NAMES) == (
        [],
        ["S", "H", "D", "C"],
    )
