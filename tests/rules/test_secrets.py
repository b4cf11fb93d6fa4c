"""Secrets and Hidden Secrets: the worked turn, each outcome, the constraints, who learns what."""

import ast
import json
import random
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import rules
from scorekeeper.games import GAMES
from scorekeeper.games.secrets.rules import (
    HIDDEN_SECRETS,
    SPIES,
    Secrets,
    private_report,
    public_detail,
    public_options,
    public_report,
)
from scorekeeper.rules.base import Msg, check_setup, play

GAME = GAMES.get("secrets")
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
A, B, C, D = 0, 1, 2, 3


def setup_of(n=3, **options):
    # Most tests send a few spies to show one outcome, so they let spies stay at home;
    # the original's rule (every free spy is sent) has its own tests with the option off.
    options.setdefault("spies_may_stay", True)
    errors, setup = check_setup(GAME, NAMES[:n], options, 0)
    assert not errors, [str(e.message) for e in errors]
    return setup


def order(spy, target, secret):
    return {"spy": spy, "target": target, "secret": secret}


def turn(orders, guards):
    return {"orders": orders, "guards": guards}


def outcomes(deal):
    """(player, spy) -> (outcome, points, scorer) of one scored turn."""
    return {(o["player"], o["spy"]): (o["outcome"], o["points"], o["scorer"]) for o in deal.detail["orders"]}


def errors_of(setup, turns):
    return rules.check(GAME, setup, turns)


# The worked example of secrets.md: three players A, B, C, turn 1.
WORKED = turn(
    [
        [order("club", B, 2), order("diamond", C, 9), order("heart", B, 7), order("spade", C, 5)],
        [order("club", A, 3), order("diamond", C, 9), order("heart", A, 8), order("spade", C, 1)],
        [order("club", A, 8), order("diamond", B, 2), order("heart", A, 1), order("spade", B, 4)],
    ],
    [3, 7, 5],
)


# -- registration -----------------------------------------------------------------
def test_registered_with_its_conventions():
    game = GAMES.get("secrets")
    assert isinstance(game, Secrets)
    assert game.player_counts == (3, 4, 5, 6)
    assert game.ties_share and not game.has_dealer
    assert game.deal_word == "turn"
    assert {o.key: o.default for o in game.options} == {
        "hidden": False,
        "turns": 5,
        "spies_may_stay": False,
        "values": None,
    }


def test_stdlib_secrets_is_not_shadowed():
    import secrets

    import scorekeeper.games.secrets.rules as module

    assert secrets is not module
    assert secrets.__name__ == "secrets" and len(secrets.token_hex(4)) == 8


def test_module_is_pure_rules():
    source = (Path(rules.__file__).parent.parent / "games" / "secrets" / "rules.py").read_text()
    imported = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            imported |= {a.name.split(".")[0] for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            imported.add(node.module.split(".")[0])
    assert not imported & {"flask", "flask_sqlalchemy", "sqlalchemy", "wtforms", "flask_wtf", "flask_babel"}


# -- the worked turn --------------------------------------------------------------------
def test_worked_turn():
    setup = setup_of(3)
    result = play(GAME, setup, [WORKED])
    deal = result.deals[0]
    assert deal.scores == (10, 11, 15)
    assert result.totals == (10, 11, 15)
    got = outcomes(deal)
    # Clashes: B2 (A Club, C Diamond), C9 (A Diamond, B Diamond), A8 (B Heart, C Club).
    for who in [(A, "club"), (C, "diamond"), (A, "diamond"), (B, "diamond"), (B, "heart"), (C, "club")]:
        assert got[who] == ("clash", 0, None)
    # Captures: A's Heart at B7, A's Spade at C5, B's Club at A3.
    assert got[(A, "heart")] == ("captured", 10, B)
    assert got[(A, "spade")] == ("captured", 10, C)
    assert got[(B, "club")] == ("captured", 10, A)
    # Thefts: B steals C1, C steals A1 and B4.
    assert got[(B, "spade")] == ("stolen", 1, B)
    assert got[(C, "heart")] == ("stolen", 1, C)
    assert got[(C, "spade")] == ("stolen", 4, C)
    assert deal.detail["spies_left"] == [
        ["club", "diamond"],
        ["diamond", "heart", "spade"],
        ["club", "diamond", "heart", "spade"],
    ]
    assert deal.detail["captures"] == [1, 1, 1]
    assert deal.detail["stolen_secrets"] == [[1], [4], [1]]
    assert [str(x) for x in deal.explanations] == [
        "1 x 10 (spies caught at secret 3) = 10",
        "1 x 10 (spies caught at secret 7) + 1 (secret 1 stolen from Cid) = 11",
        "1 x 10 (spies caught at secret 5) + 1 (secret 1 stolen from Ann) + 4 (secret 4 stolen from Bob) = 15",
    ]
    assert str(deal.summary) == "Spies captured: 3, clashed: 6, stole: 3, found nothing: 0"
    # Every policeman caught a spy: each may guard the same secret again.
    assert not deal.notes
    state = result.state
    assert [state.must_move(s) for s in range(3)] == [None, None, None]
    assert errors_of(setup, [WORKED, turn([[], [], []], [3, 7, 5])]) == []
    assert GAME.choices(setup, state, A)["spies"] == ["club", "diamond"]
    # The detail is JSON as it stands.
    assert json.loads(json.dumps(deal.detail)) == deal.detail


def test_captured_spies_cannot_be_ordered_after_the_worked_turn():
    setup = setup_of(3)
    nxt = turn([[order("heart", C, 2)], [], []], [3, 7, 5])
    errors = errors_of(setup, [WORKED, nxt])
    assert len(errors) == 1
    e = errors[0]
    assert (e.deal, e.field, e.seat) == (1, "orders", A)
    assert str(e.message) == (
        "Turn 2: Ann's Heart was captured in turn 1 and is out of the game; only free spies can be ordered."
    )


# -- the outcomes ------------------------------------------------------------------------
def test_several_spies_on_a_guarded_secret_are_all_captured_10_each():
    setup = setup_of(4)
    t = turn(
        [
            [order("club", B, 5)],
            [],
            [order("club", B, 5), order("spade", B, 5)],
            [order("heart", B, 5)],
        ],
        [1, 5, 1, 1],
    )
    result = play(GAME, setup, [t])
    deal = result.deals[0]
    assert deal.scores == (0, 40, 0, 0)
    assert all(o["outcome"] == "captured" and o["points"] == 10 for o in deal.detail["orders"])
    assert str(deal.explanations[B]) == "4 x 10 (spies caught at secret 5) = 40"
    assert deal.detail["spies_left"] == [
        ["diamond", "heart", "spade"],
        list(SPIES),
        ["diamond", "heart"],
        ["club", "diamond", "spade"],
    ]
    # The secret stays with Bob: next turn one spy alone steals it.
    later = turn([[order("diamond", B, 5)], [], [], []], [2, 6, 2, 2])
    result = play(GAME, setup, [t, later])
    assert result.deals[1].scores == (5, 0, 0, 0)
    assert result.totals == (5, 40, 0, 0)


def test_two_spies_of_one_player_clash():
    setup = setup_of(3)
    t1 = turn([[order("club", B, 3), order("diamond", B, 3)], [], []], [1, 1, 1])
    result = play(GAME, setup, [t1])
    deal = result.deals[0]
    assert deal.scores == (0, 0, 0)
    assert [o["outcome"] for o in deal.detail["orders"]] == ["clash", "clash"]
    assert deal.detail["spies_left"][A] == list(SPIES)
    assert deal.detail["stolen_secrets"] == [[], [], []]
    # The secret stays with its owner and both spies are free: one alone steals it next turn.
    t2 = turn([[order("diamond", B, 3)], [], []], [2, 2, 2])
    result = play(GAME, setup, [t1, t2])
    assert result.deals[1].scores == (3, 0, 0)
    assert outcomes(result.deals[1])[(A, "diamond")] == ("stolen", 3, A)


def test_a_spy_sent_to_a_stolen_secret_finds_nothing():
    setup = setup_of(3)
    t1 = turn([[order("club", B, 4)], [], []], [1, 1, 1])
    t2 = turn([[], [], [order("club", B, 4)]], [2, 2, 2])
    result = play(GAME, setup, [t1, t2])
    assert result.deals[0].scores == (4, 0, 0)
    assert result.deals[1].scores == (0, 0, 0)
    assert outcomes(result.deals[1])[(C, "club")] == ("nothing", 0, None)
    assert result.deals[1].detail["spies_left"][C] == list(SPIES)
    assert str(result.deals[1].summary) == "Spies captured: 0, clashed: 0, stole: 0, found nothing: 1"
    # Two spies on a secret already gone both find nothing (no clash to learn from).
    t2b = turn([[order("diamond", B, 4)], [], [order("club", B, 4)]], [2, 2, 2])
    result = play(GAME, setup, [t1, t2b])
    assert [o["outcome"] for o in result.deals[1].detail["orders"]] == ["nothing", "nothing"]
    assert result.totals == (4, 0, 0)


def test_a_spy_sent_to_a_stolen_secret_the_owner_guards_is_captured():
    setup = setup_of(3)
    t1 = turn([[order("club", B, 4)], [], []], [1, 1, 1])
    t2 = turn([[order("diamond", B, 4)], [], [order("club", B, 4)]], [2, 4, 2])
    result = play(GAME, setup, [t1, t2])
    assert result.deals[1].scores == (0, 20, 0)
    assert [o["outcome"] for o in result.deals[1].detail["orders"]] == ["captured", "captured"]
    assert result.totals == (4, 20, 0)
    assert result.deals[1].detail["spies_left"][A] == ["club", "heart", "spade"]


def test_scores_add_up_over_turns_and_thefts_are_permanent():
    setup = setup_of(3)
    t1 = turn([[order("club", B, 9)], [order("club", C, 8)], [order("club", A, 7)]], [1, 1, 1])
    t2 = turn([[order("club", C, 6)], [order("club", A, 7)], [order("club", B, 9)]], [2, 2, 2])
    result = play(GAME, setup, [t1, t2])
    assert [d.scores for d in result.deals] == [(9, 8, 7), (6, 0, 0)]
    assert result.totals == (15, 8, 7)
    assert result.deals[1].detail["stolen_secrets"] == [[7], [9], [8, 6]]


# -- constraints ----------------------------------------------------------------------
def test_policeman_must_move_after_catching_nobody():
    setup = setup_of(3)
    t1 = turn([[], [], []], [1, 7, 1])
    stay = turn([[], [], []], [2, 7, 2])
    errors = errors_of(setup, [t1, stay])
    assert len(errors) == 1
    e = errors[0]
    assert (e.deal, e.field, e.seat) == (1, "guards", B)
    assert str(e.message) == (
        "Turn 2: Bob's policeman guarded secret 7 in turn 1 and caught no spy, so he must guard a different secret now."
    )
    assert GAME.choices(setup, play(GAME, setup, [t1]).state, B)["guards"] == [1, 2, 3, 4, 5, 6, 8, 9]
    # Moving is enough, and he may come back to 7 a turn later.
    moved = turn([[], [], []], [2, 6, 2])
    back = turn([[], [], []], [1, 7, 1])
    assert errors_of(setup, [t1, moved, back]) == []
    notes = play(GAME, setup, [t1]).deals[0].notes
    assert str(notes[B]) == "Bob's policeman caught no spy: next turn he must guard a secret other than 7."


def test_policeman_that_caught_a_spy_may_stay():
    setup = setup_of(3)
    t1 = turn([[order("club", B, 7)], [], []], [1, 7, 1])
    t2 = turn([[], [], []], [2, 7, 2])
    assert errors_of(setup, [t1, t2]) == []
    assert errors_of(setup, [t1, turn([[], [], []], [1, 7, 2])])[0].seat == A


@pytest.mark.parametrize(
    ("orders", "seat", "text"),
    [
        (
            [[order("club", A, 2)], [], []],
            A,
            "Ann's Club cannot spy on Ann: the target must be another player.",
        ),
        ([[], [order("club", 3, 2)], []], B, "Bob's Club: the target must be one of the other players."),
        ([[], [order("club", True, 2)], []], B, "Bob's Club: the target must be one of the other players."),
        (
            [[], [], [order("heart", A, 10)]],
            C,
            "Cid's Heart: there is no secret “10”; the secrets are 1 to 9.",
        ),
        (
            [[], [], [order("heart", A, "A")]],
            C,
            "Cid's Heart: there is no secret “A”; the secrets are 1 to 9.",
        ),
        (
            [[], [], [order("heart", A, True)]],
            C,
            "Cid's Heart: there is no secret “True”; the secrets are 1 to 9.",
        ),
        (
            [[order("club", B, 2), order("club", C, 2)], [], []],
            A,
            "Ann's Club has two orders; a spy carries out one order a turn.",
        ),
        (
            [[order("joker", B, 2)], [], []],
            A,
            "Ann, order 1: “joker” is not a spy; the spies are Club, Diamond, Heart and Spade.",
        ),
        (
            [[{"spy": "club", "target": 1}], [], []],
            A,
            "Ann, order 1: an order names a spy, a target player and a secret.",
        ),
        ([[], "club", []], B, "Bob: the orders must be a list (empty when every spy stays at home)."),
    ],
)
def test_illegal_orders_are_refused_naming_player_and_rule(orders, seat, text):
    setup = setup_of(3)
    errors = errors_of(setup, [turn(orders, [1, 1, 1])])
    assert [(e.deal, e.field, e.seat, str(e.message)) for e in errors] == [(0, "orders", seat, text)]


def test_illegal_guards_and_shapes_are_refused():
    setup = setup_of(3)
    errors = errors_of(setup, [turn([[], [], []], [1, 0, "A"])])
    assert [(e.field, e.seat) for e in errors] == [("guards", B), ("guards", C)]
    assert str(errors[0].message) == "Bob: the policeman guards one of Bob's own secrets, 1 to 9."
    assert errors_of(setup, [turn([[], []], [1, 1, 1])])[0].field == "orders"
    assert errors_of(setup, [turn([[], [], []], [1, 1])])[0].field == "guards"
    assert {e.field for e in errors_of(setup, [{"orders": [[], [], []]}])} == {"guards"}
    hidden = hidden_setup()
    errors = errors_of(hidden, [turn([[order("club", B, 2)], [], []], ["A", "B", 3])])
    assert [(e.field, e.seat) for e in errors] == [("orders", A), ("guards", C)]
    assert str(errors[0].message) == "Ann's Club: there is no secret “2”; the secrets are A to J."


def test_a_correction_that_breaks_a_later_turn_is_refused_naming_that_turn():
    setup = setup_of(3)
    t1 = turn([[order("club", B, 2)], [], []], [1, 7, 1])
    t2 = turn([[], [], []], [2, 8, 2])
    t3 = turn([[order("club", C, 3)], [], []], [1, 7, 1])
    assert errors_of(setup, [t1, t2, t3]) == []
    # Correcting turn 1 so that Bob guarded 2: Ann's Club was captured, yet turn 3 orders it.
    fixed = turn([[order("club", B, 2)], [], []], [1, 2, 1])
    errors = errors_of(setup, [fixed, t2, t3])
    assert [(e.deal, e.field, e.seat) for e in errors] == [(2, "orders", A)]
    assert "Turn 3" in str(errors[0].message) and "captured in turn 1" in str(errors[0].message)
    assert errors[0].as_json()["deal"] == 2


def test_a_correction_that_makes_a_later_guard_illegal_is_refused():
    setup = setup_of(3)
    t1 = turn([[order("club", B, 7)], [], []], [1, 7, 1])
    t2 = turn([[], [], []], [2, 7, 2])
    assert errors_of(setup, [t1, t2]) == []
    # Corrected: Ann's Club went to Bob's 6 after all, so Bob's policeman caught nobody.
    fixed = turn([[order("club", B, 6)], [], []], [1, 7, 1])
    errors = errors_of(setup, [fixed, t2])
    assert [(e.deal, e.field, e.seat) for e in errors] == [(1, "guards", B)]
    assert str(errors[0].message).startswith("Turn 2: Bob's policeman guarded secret 7 in turn 1")


# -- end of game ----------------------------------------------------------------------
def quiet_turn(k, n=3):
    """A turn with no orders whose guards move every turn (1, 2, 1, 2...)."""
    return turn([[] for _ in range(n)], [1 + k % 2] * n)


def test_five_turns_then_the_game_is_over():
    setup = setup_of(3)
    turns = [quiet_turn(k) for k in range(5)]
    assert not play(GAME, setup, turns[:4]).finished
    result = play(GAME, setup, turns)
    assert result.finished and GAME.planned_deals(setup) == 5
    assert result.next_dealer is None and result.deals[0].dealer is None
    errors = errors_of(setup, [*turns, quiet_turn(5)])
    assert errors and errors[0].deal == 5


def test_equal_highest_scores_share_the_win():
    setup = setup_of(3)
    t1 = turn([[order("club", B, 5)], [order("club", C, 5)], [order("club", A, 2)]], [1, 1, 1])
    turns = [t1] + [quiet_turn(k) for k in range(1, 5)]
    result = play(GAME, setup, turns)
    assert result.totals == (5, 5, 2)
    assert result.finished and not result.tiebreak
    assert result.winners == (A, B)


def test_a_single_leader_wins_alone():
    setup = setup_of(3, turns=1)
    result = play(GAME, setup, [turn([[order("club", B, 5)], [order("club", C, 4)], []], [1, 1, 1])])
    assert result.finished and result.winners == (A,)


# -- Hidden Secrets: the values --------------------------------------------------------
ANN_VALUES = [0, 0, 0, 0, 26, 0, 0, 0, 0, 19]  # E 26, J 19
BOB_VALUES = [0, 0, 23, 0, 0, 0, 0, 0, 0, 22]  # C 23, J 22
CID_VALUES = [0, 0, 0, 0, 0, 0, 0, 0, 31, 14]  # I 31, J 14
VALUES = [ANN_VALUES, BOB_VALUES, CID_VALUES]


def hidden_setup(turns=2, values=VALUES):
    return setup_of(3, hidden=True, turns=turns, values=values)


@pytest.mark.parametrize(
    ("values", "seat", "text"),
    [
        ([ANN_VALUES, BOB_VALUES], None, "Give one list of ten values per player (3 players)."),
        (
            [ANN_VALUES, BOB_VALUES, [5] * 9],
            C,
            "Cid: give ten whole numbers of 0 or more, one for each secret A to J.",
        ),
        (
            [ANN_VALUES, [-1, 1, 23, 0, 0, 0, 0, 0, 0, 22], CID_VALUES],
            B,
            "Bob: give ten whole numbers of 0 or more, one for each secret A to J.",
        ),
        (
            [[4.5] * 10, BOB_VALUES, CID_VALUES],
            A,
            "Ann: give ten whole numbers of 0 or more, one for each secret A to J.",
        ),
        (
            [ANN_VALUES, BOB_VALUES, [True] * 9 + [36]],
            C,
            "Cid: give ten whole numbers of 0 or more, one for each secret A to J.",
        ),
        (
            [ANN_VALUES, [5] * 10, CID_VALUES],
            B,
            "Bob: the ten values must add up to 45 (they add up to 50).",
        ),
    ],
)
def test_hidden_values_are_checked(values, seat, text):
    errors, setup = check_setup(GAME, NAMES[:3], {"hidden": True, "values": values}, 0)
    assert setup is None
    assert [(e.field, e.seat, str(e.message)) for e in errors] == [("values", seat, text)]


def test_no_values_at_all_is_each_seats_part_missing_and_may_wait_for_the_seats():
    text = "Hidden Secrets needs every player's values of secrets A to J."
    errors, setup = check_setup(GAME, NAMES[:3], {"hidden": True}, 0)
    assert setup is None
    assert [(e.field, e.seat, str(e.message)) for e in errors] == [("values", s, text) for s in (A, B, C)]
    # A game made to wait for its seats' allotments (spec "Seat entry") may come without any.
    errors, setup = check_setup(GAME, NAMES[:3], {"hidden": True}, 0, waiting_ok=True)
    assert not errors and setup is not None and GAME.waiting_seats(setup.options, 3) == (A, B, C)


def test_good_hidden_values_are_accepted_and_plain_games_take_none():
    for values in ([[0, 0, 0, 0, 0, 9, 9, 9, 9, 9]] * 3, [[4, 4, 4, 4, 4, 5, 5, 5, 5, 5]] * 3):
        errors, setup = check_setup(GAME, NAMES[:3], {"hidden": True, "values": values}, 0)
        assert not errors and setup is not None
    errors, setup = check_setup(GAME, NAMES[:3], {"values": VALUES}, 0)
    assert setup is None and errors[0].field == "values"


def test_hidden_thefts_score_the_allotted_values():
    setup = hidden_setup()
    t1 = turn(
        [[order("club", B, "C"), order("diamond", B, "J")], [order("club", C, "B")], []], ["A", "A", "A"]
    )
    result = play(GAME, setup, [t1])
    assert result.deals[0].scores == (45, 0, 0)  # 23 + 22; Cid's A is worth 0
    assert outcomes(result.deals[0])[(B, "club")] == ("stolen", 0, B)


# -- Hidden Secrets: who learns what -------------------------------------------------
# Turn 1: Ann steals Bob's C (23); Ann's Diamond and Bob's Club clash on Cid's I (31);
# Cid's Club is caught at Ann's E (26), which makes 26 public. Ann scores 23 + 10 = 33.
INFO_T1 = turn(
    [
        [order("club", B, "C"), order("diamond", C, "I")],
        [order("club", C, "I")],
        [order("club", A, "E")],
    ],
    ["E", "A", "A"],
)
INFO_T2 = turn([[], [], []], ["E", "B", "B"])


def rendered(report):
    """The report as text, every message in words: what a page or the API would show."""

    def default(value):
        if isinstance(value, Msg):
            return value.render()
        raise TypeError(value)

    return json.dumps(report, default=default)


def order_view(report, k, player, spy):
    return next(o for o in report["turns"][k]["orders"] if (o["player"], o["spy"]) == (player, spy))


def test_the_raw_scores_of_the_info_turn():
    result = play(GAME, hidden_setup(), [INFO_T1])
    assert result.deals[0].scores == (33, 0, 0)
    got = outcomes(result.deals[0])
    assert got[(A, "club")] == ("stolen", 23, A)
    assert got[(A, "diamond")] == got[(B, "club")] == ("clash", 0, None)
    assert got[(C, "club")] == ("captured", 10, A)


def test_public_report_hides_every_value_not_made_public():
    setup = hidden_setup()
    result = play(GAME, setup, [INFO_T1])
    report = public_report(setup, result)
    text = rendered(report)
    for secret_number in ("23", "31", "33", "19", "22", "14"):
        assert secret_number not in text
    assert report["values"] is None and report["hidden"] and not report["finished"]
    assert order_view(report, 0, A, "club")["value"] is None
    assert order_view(report, 0, A, "club")["points"] is None
    assert order_view(report, 0, A, "diamond")["value"] is None
    # A capture makes the guarded secret's value public.
    assert order_view(report, 0, C, "club")["value"] == 26
    assert order_view(report, 0, C, "club")["points"] == 10
    t = report["turns"][0]
    assert t["scores"] == [None, 0, 0] and t["known_points"] == [10, 0, 0]
    assert report["totals"] == [None, 0, 0] and report["known_totals"] == [10, 0, 0]
    assert str(t["explanations"][A]) == (
        "1 x 10 (spies caught at secret E) + ? (secret C stolen from Bob, value hidden) = ?"
    )
    # Everybody learns that the secret was stolen, and who stole it.
    assert order_view(report, 0, A, "club")["outcome"] == "stolen"
    assert t["stolen_secrets"] == [[], ["C"], []]
    assert public_options(setup, False)["values"] is None
    assert public_options(setup, False)["hidden"] is True
    # The redaction of one turn's detail alone hides as much.
    detail = public_detail(setup, result.deals[0], False)
    assert "23" not in json.dumps(detail) and "31" not in json.dumps(detail)
    assert [o["value"] for o in detail["orders"]] == [None, None, None, 26]


def test_private_reports_hold_exactly_what_each_player_learns():
    setup = hidden_setup()
    result = play(GAME, setup, [INFO_T1])
    ann = private_report(setup, result, A)
    bob = private_report(setup, result, B)
    cid = private_report(setup, result, C)
    assert ann["own_values"] == ANN_VALUES and bob["own_values"] == BOB_VALUES
    # Ann: the value she stole and the value seen in her Diamond's clash.
    assert {(x["owner"], x["secret"], x["value"], x["how"]) for x in ann["learned"]} == {
        (B, "C", 23, "stolen"),
        (C, "I", 31, "clash"),
    }
    assert order_view(ann, 0, A, "club")["value"] == 23
    assert ann["turns"][0]["scores"] == [33, 0, 0] and ann["totals"] == [33, 0, 0]
    assert str(ann["turns"][0]["explanations"][A]) == (
        "1 x 10 (spies caught at secret E) + 23 (secret C stolen from Bob) = 33"
    )
    for other in ("22", "14"):  # Bob's and Cid's unseen J
        assert other not in rendered(ann)
    # Bob: his Club's clash, the public capture; and his own C, so he can work out Ann's 33.
    assert {(x["owner"], x["secret"], x["value"], x["how"]) for x in bob["learned"]} == {
        (C, "I", 31, "clash"),
        (A, "E", 26, "captured"),
    }
    assert bob["turns"][0]["scores"] == [33, 0, 0]
    assert "19" not in rendered(bob) and "14" not in rendered(bob)
    # Cid: only the public capture; he cannot know what Ann stole, so not her score.
    assert {(x["owner"], x["secret"], x["how"]) for x in cid["learned"]} == {(A, "E", "captured")}
    assert order_view(cid, 0, A, "club")["value"] is None
    assert cid["turns"][0]["scores"] == [None, 0, 0]
    assert order_view(cid, 0, B, "club")["value"] == 31  # his own secret I
    for hidden in ("23", "33", "19", "22"):
        assert hidden not in rendered(cid)
    # Nobody's report shows another player's allotment.
    assert "values" in ann and ann["values"] is None


def test_everything_is_revealed_once_the_game_is_over():
    setup = hidden_setup(turns=2)
    result = play(GAME, setup, [INFO_T1, INFO_T2])
    assert result.finished and result.winners == (A,)
    report = public_report(setup, result)
    assert report["values"] == VALUES
    assert order_view(report, 0, A, "club")["value"] == 23
    assert order_view(report, 0, A, "diamond")["value"] == 31
    assert report["totals"] == [33, 0, 0]
    assert report["scores"] == [[33, 0, 0], [0, 0, 0]]
    assert str(report["explanations"][0][A]) == str(result.deals[0].explanations[A])
    assert public_options(setup, True)["values"] == VALUES
    assert public_detail(setup, result.deals[0], True) == dict(result.deals[0].detail)
    assert private_report(setup, result, C)["totals"] == [33, 0, 0]


def test_the_plain_game_hides_nothing():
    setup = setup_of(3)
    result = play(GAME, setup, [WORKED])
    report = public_report(setup, result)
    assert report["totals"] == [10, 11, 15] and report["values"] is None
    assert [o["value"] for o in report["turns"][0]["orders"]] == [
        o["value"] for o in result.deals[0].detail["orders"]
    ]
    assert [str(x) for x in report["explanations"][0]] == [str(x) for x in result.deals[0].explanations]


def test_value_made_public_later_is_shown_in_earlier_reports_too():
    """Bob's C, stolen in turn 1, is later guarded by Bob and a spy is caught there."""
    setup = hidden_setup(turns=3)
    t1 = turn([[order("club", B, "C")], [], []], ["A", "A", "A"])
    t2 = turn([[], [], [order("club", B, "C")]], ["B", "C", "B"])
    result = play(GAME, setup, [t1, t2])
    assert result.deals[1].scores == (0, 10, 0)
    report = public_report(setup, result)
    assert order_view(report, 0, A, "club")["value"] == 23
    assert report["totals"] == [23, 10, 0]
    only_first = public_report(setup, result.deals[:1], finished=False)
    assert only_first["totals"] == [None, 0, 0]


# -- every free spy is sent (secrets.md, Facts per turn) -------------------------------------
def test_every_free_spy_must_be_sent_each_turn():
    strict = setup_of(3, spies_may_stay=False)
    assert errors_of(strict, [WORKED]) == []  # the worked turn sends all twelve spies
    # A keeps his Spade at home: refused, naming A and the spy.
    partial = json.loads(json.dumps(WORKED))
    partial["orders"][A].pop()
    errors = errors_of(strict, [partial])
    assert [(e.field, e.seat, e.deal) for e in errors] == [("orders", A, 0)]
    assert errors[0].message.render() == (
        "Turn 1: Ann gives no order to Spade; every free spy is sent each turn "
        "(unless the option “Spies may stay at home” is on)."
    )
    # No orders at all names every free spy.
    nothing = json.loads(json.dumps(WORKED))
    nothing["orders"][B] = []
    assert "Club + Diamond + Heart + Spade" in errors_of(strict, [nothing])[0].message.render()
    # With the option on, some or none may stay.
    assert errors_of(setup_of(3, spies_may_stay=True), [partial]) == []
    assert errors_of(setup_of(3, spies_may_stay=True), [nothing]) == []


def test_captured_spies_need_no_order():
    strict = setup_of(3, spies_may_stay=False)
    # After the worked turn A has Club and Diamond free, B Diamond, Heart and Spade, C all four.
    second = turn(
        [
            [order("club", B, 1), order("diamond", C, 2)],
            [order("diamond", A, 2), order("heart", A, 4), order("spade", C, 3)],
            [order("club", A, 5), order("diamond", A, 6), order("heart", B, 6), order("spade", B, 8)],
        ],
        [3, 7, 5],
    )
    assert errors_of(strict, [WORKED, second]) == []
    short = json.loads(json.dumps(second))
    short["orders"][B].pop(0)
    errors = errors_of(strict, [WORKED, short])
    assert [(e.seat, e.deal) for e in errors] == [(B, 1)]
    assert "Bob gives no order to Diamond" in errors[0].message.render()


# -- property tests: random valid turns against a plain re-statement of the rules ----------
def oracle_turn(n, value, stolen, guards, orders):
    """secrets.md's three outcomes, restated: returns per-seat points and outcomes in order."""
    points = [0] * n
    result = []
    for player, _spy, target, secret in orders:
        tried = sum(1 for o in orders if (o[2], o[3]) == (target, secret))
        if guards[target] == secret:
            result.append("captured")
            points[target] += 10
        elif (target, secret) in stolen:
            result.append("nothing")
        elif tried >= 2:
            result.append("clash")
        else:
            result.append("stolen")
            points[player] += value(target, secret)
    return points, result


@st.composite
def games(draw):
    n = draw(st.integers(3, 6))
    hidden = draw(st.booleans())
    turns = draw(st.integers(1, 5))
    may_stay = draw(st.booleans())
    options = {"hidden": hidden, "turns": turns, "spies_may_stay": may_stay}
    if hidden:
        values = []
        for _ in range(n):
            cuts = sorted(draw(st.lists(st.integers(0, 45), min_size=9, max_size=9)))
            values.append([b - a for a, b in zip([0, *cuts], [*cuts, 45], strict=True)])
        options["values"] = values
    ids = list(HIDDEN_SECRETS) if hidden else list(range(1, 10))
    # A few secrets only, so that captures, clashes and repeat visits are common.
    pool = draw(st.lists(st.sampled_from(ids), min_size=1, max_size=4, unique=True))
    free = [set(SPIES) for _ in range(n)]
    last_guard = [None] * n
    caught_last = [False] * n
    stolen = set()
    facts, expected = [], []
    value = (lambda t, s: options["values"][t][HIDDEN_SECRETS.index(s)]) if hidden else (lambda t, s: s)
    for _ in range(turns):
        guards = []
        for seat in range(n):
            allowed = [s for s in pool + ids[:2] if caught_last[seat] or s != last_guard[seat]]
            guards.append(draw(st.sampled_from(allowed)))
        flat, orders = [], []
        for seat in range(n):
            mine = []
            for spy in sorted(free[seat]):
                # "Each turn a player must send his spies", unless the option lets them stay.
                if may_stay and draw(st.booleans()) and draw(st.booleans()):
                    continue  # stays at home
                target = draw(st.sampled_from([t for t in range(n) if t != seat]))
                secret = draw(st.sampled_from(pool))
                mine.append({"spy": spy, "target": target, "secret": secret})
                flat.append((seat, spy, target, secret))
            orders.append(mine)
        points, outs = oracle_turn(n, value, stolen, guards, flat)
        expected.append((tuple(points), outs))
        for (seat, spy, target, secret), out in zip(flat, outs, strict=True):
            if out == "captured":
                free[seat].discard(spy)
            elif out == "stolen":
                stolen.add((target, secret))
        caught = [
            sum(1 for o, out in zip(flat, outs, strict=True) if out == "captured" and o[2] == s)
            for s in range(n)
        ]
        last_guard, caught_last = guards, [c > 0 for c in caught]
        facts.append({"orders": orders, "guards": guards})
    return n, options, facts, expected


@settings(max_examples=150, deadline=None)
@given(games())
def test_random_valid_turns_score_as_the_rules_say(game):
    n, options, facts, expected = game
    errors, setup = check_setup(GAME, NAMES[:n], options, 0)
    assert not errors
    result = play(GAME, setup, facts)
    assert result.finished
    running = [0] * n
    for deal, (points, outs) in zip(result.deals, expected, strict=True):
        assert deal.scores == points
        assert [o["outcome"] for o in deal.detail["orders"]] == outs
        running = [r + p for r, p in zip(running, points, strict=True)]
        assert deal.totals == tuple(running)
    best = max(running)
    assert result.winners == tuple(s for s in range(n) if running[s] == best)
    # The public view never shows a value no capture revealed, and is complete at the end.
    if options["hidden"]:
        early = public_report(setup, result.deals, finished=False)
        public = {
            (o["target"], o["secret"])
            for d in result.deals
            for o in d.detail["orders"]
            if o["outcome"] == "captured"
        }
        for t in early["turns"]:
            for o in t["orders"]:
                assert (o["value"] is not None) == ((o["target"], o["secret"]) in public)
        final = public_report(setup, result)
        assert final["totals"] == running


MUTATIONS = ["self", "secret", "twice", "spy", "guard", "captured", "stay", "home"]


@settings(max_examples=150, deadline=None)
@given(games(), st.sampled_from(MUTATIONS), st.randoms(use_true_random=False))
def test_invalid_turns_are_refused(game, mutation, rnd):
    n, options, facts, _ = game
    _, setup = check_setup(GAME, NAMES[:n], options, 0)
    k = rnd.randrange(len(facts))
    state = play(GAME, setup, facts[:k]).state
    bad = json.loads(json.dumps(facts[k]))
    seat = rnd.randrange(n)
    field = "orders"
    hidden = options["hidden"]
    if mutation in ("self", "secret", "twice"):
        mine = bad["orders"][seat]
        if not mine:
            mine.append(
                {
                    "spy": state.free_spies(seat)[0] if state.free_spies(seat) else "club",
                    "target": (seat + 1) % n,
                    "secret": "A" if hidden else 1,
                }
            )
        if mutation == "self":
            mine[0]["target"] = seat
        elif mutation == "secret":
            mine[0]["secret"] = rnd.choice([0, 10, "K", 1] if hidden else [0, 10, "A", "1", None])
        else:
            mine.append(dict(mine[0]))
    elif mutation == "spy":
        bad["orders"][seat].append({"spy": "joker", "target": (seat + 1) % n, "secret": "A" if hidden else 1})
    elif mutation == "home":
        # A free spy left at home while every free spy must be sent.
        if options["spies_may_stay"] or not bad["orders"][seat]:
            return
        bad["orders"][seat].pop(rnd.randrange(len(bad["orders"][seat])))
    elif mutation == "guard":
        field = "guards"
        bad["guards"][seat] = rnd.choice([0, 10, "K", None] if hidden else [0, 10, "A", None, True])
    elif mutation == "captured":
        # Captured earlier, worked out from the facts alone: sent to the secret its owner guarded.
        gone = [
            (s, o["spy"])
            for earlier in facts[:k]
            for s, mine in enumerate(earlier["orders"])
            for o in mine
            if earlier["guards"][o["target"]] == o["secret"]
        ]
        if not gone:
            return
        seat, spy = rnd.choice(gone)
        bad["orders"][seat].append({"spy": spy, "target": (seat + 1) % n, "secret": "A" if hidden else 1})
    else:  # stay
        field = "guards"
        if k == 0:
            return
        # A policeman that caught nobody last turn, worked out from the facts alone.
        last = facts[k - 1]
        caught = {
            o["target"] for mine in last["orders"] for o in mine if last["guards"][o["target"]] == o["secret"]
        }
        stuck = [s for s in range(n) if s not in caught]
        if not stuck:
            return
        seat = rnd.choice(stuck)
        bad["guards"][seat] = last["guards"][seat]
    errors = rules.check(GAME, setup, [*facts[:k], bad, *facts[k + 1 :]])
    assert errors
    assert all(e.deal == k for e in errors)
    assert any(e.field == field and e.seat == seat for e in errors)
    assert all(isinstance(e.message, Msg) and e.message.render() for e in errors)


@settings(max_examples=40, deadline=None)
@given(st.integers(3, 6), st.booleans(), st.integers(0, 2**32 - 1))
def test_random_deal_makes_valid_turns(n, hidden, seed):
    rng = random.Random(seed)
    options = {"hidden": hidden}
    if hidden:
        options["values"] = [[4, 4, 4, 4, 4, 5, 5, 5, 5, 5]] * n
    setup = setup_of(n, **options)
    facts = []
    for _ in range(5):
        facts.append(GAME.random_deal(setup, play(GAME, setup, facts).state, 0, rng))
    assert play(GAME, setup, facts).finished
