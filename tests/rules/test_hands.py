"""The ``hands`` option (game-record.md; events.md): Euchre and Spades of a fixed number of hands."""

from scorekeeper.games import GAMES
from scorekeeper.rules.base import check_setup, play

EUCHRE = GAMES["euchre"]
SPADES = GAMES["spades"]
PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


def setup(game, **options):
    errors, made = check_setup(game, PLAYERS, options, 0)
    assert not errors, errors
    return made


# Ann+Cid (seats 0, 2) make it with 3 tricks: 1 point; Bob+Dee (1, 3) march: 2 points.
MADE_AC = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
MARCH_BD = {"trump": "S", "maker": 1, "alone": False, "defender_alone": None, "maker_tricks": 5}
THROWN_IN = {"thrown_in": True}


def test_euchre_ends_after_its_hands_thrown_in_hands_not_counted():
    s = setup(EUCHRE, hands=2, stick_the_dealer=False)
    after_one = play(EUCHRE, s, [MADE_AC, THROWN_IN])
    assert not after_one.finished  # the thrown-in hand does not count
    done = play(EUCHRE, s, [MADE_AC, THROWN_IN, MARCH_BD])
    assert done.finished and done.totals == (1, 2, 1, 2) and done.winners == (1, 3)
    assert EUCHRE.planned_deals(s) == 2 and EUCHRE.counted_deals(done) == 2


def test_euchre_with_hands_ignores_the_target_and_ties_share_the_win():
    s = setup(EUCHRE, hands=2, target=1)
    first = play(EUCHRE, s, [MADE_AC])
    assert not first.finished  # 1 point reaches the target 1, but the game is two hands long
    tied = play(EUCHRE, s, [MADE_AC, MADE_AC | {"maker": 1}])
    assert tied.finished and tied.totals == (1, 1, 1, 1) and tied.winners == (0, 1, 2, 3)
    assert not tied.tiebreak


def test_euchre_hands_tiebreak_plays_one_more_hand_at_a_time():
    s = setup(EUCHRE, hands=2, hands_tiebreak=True)
    deals = [MADE_AC, MADE_AC | {"maker": 1}]
    tied = play(EUCHRE, s, deals)
    assert not tied.finished and tied.tiebreak
    decided = play(EUCHRE, s, [*deals, MARCH_BD])
    assert decided.finished and decided.winners == (1, 3) and decided.totals == (1, 3, 1, 3)


def test_spades_partnership_of_two_hands():
    s = setup(SPADES, mode="partnership", hands=2, jokers=False)
    # 13 tricks: Ann+Cid bid 4+3 and take 8 (70 + 1 bag), Bob+Dee bid 3+2 and take 5 (50).
    deal = {"bids": [4, 3, 3, 2], "tricks": [5, 2, 3, 3]}
    one = play(SPADES, s, [deal])
    assert not one.finished
    two = play(SPADES, s, [deal, deal])
    assert two.finished and two.winners == (0, 2)
    assert SPADES.planned_deals(s) == 2


def test_spades_cutthroat_tie_after_the_hands_shares_the_win():
    s = setup(SPADES, hands=1, jokers=False)
    deal = {"bids": [3, 3, 3, 4], "tricks": [3, 3, 3, 4]}
    done = play(SPADES, s, [deal])
    assert done.finished and done.totals == (30, 30, 30, 40) and done.winners == (3,)
    # Ann bid 4 and took 4 (40), Bob 3 of 3 (30), Cid was set (0), Dee 4 of 4 (40): Ann and Dee share it.
    even = play(SPADES, s, [{"bids": [4, 3, 3, 4], "tricks": [4, 3, 2, 4]}])
    assert even.finished and even.totals == (40, 30, 0, 40) and even.winners == (0, 3)
