"""Standings from the tables' facts (events.md): worked by hand, and against an independent computation."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.events import standings as s
from scorekeeper.events.standings import Meeting, Played, RoundScores, TableResult

ANN, BOB, CY, DI, EVE = range(5)
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve"]


def texts(standing):
    return [note.render() for note in standing.notes]


def test_sit_out_average_is_the_rounds_mean_rounded_half_up():
    assert s.sit_out_points([9, 9, 6, 6], "average") == 8  # 7.5
    assert s.sit_out_points([1, 1, 2, 1], "average") == 1  # 1.25
    assert s.sit_out_points([5, 5, 4, 4], 3) == 3
    assert s.sit_out_points([], "average") == 0


def test_progressive_by_hand_with_a_sit_out_and_a_tie_on_loners():
    # Round 1: Ann+Cy make 9 against Bob+Di's 5; Eve sits out: (9+9+5+5)/4 = 7.
    # Round 2: Ann+Bob 6 against Cy+Eve 8; Di sits out: (6+6+8+8)/4 = 7. Ann made two lone hands.
    rounds = [
        RoundScores({ANN: Played(9, 2), CY: Played(9), BOB: Played(5), DI: Played(5)}, frozenset({EVE})),
        RoundScores({ANN: Played(6), BOB: Played(6), CY: Played(8), EVE: Played(8)}, frozenset({DI})),
    ]
    table = s.progressive(NAMES, rounds)
    assert [(x.rank, x.name, x.points, x.by_round) for x in table] == [
        (1, "Cy", 17, (9, 8)),
        (2, "Ann", 15, (9, 6)),
        (3, "Eve", 15, (7, 8)),
        (4, "Di", 12, (5, 7)),
        (5, "Bob", 11, (5, 6)),
    ]
    ann, eve = table[1], table[2]
    assert ann.figures == {"loners": 2} and eve.figures == {"loners": 0}
    assert texts(ann) == ["ahead of Eve on loners: 2 to 0"]
    assert texts(eve) == ["behind Ann on loners: 0 to 2"]
    assert texts(table[0]) == []


def test_shared_place_golf_style():
    rounds = [RoundScores({ANN: Played(5), BOB: Played(3), CY: Played(5), DI: Played(3)})]
    table = s.progressive(NAMES[:4], rounds)
    assert [(x.rank, x.name) for x in table] == [(1, "Ann"), (1, "Cy"), (3, "Bob"), (3, "Di")]
    assert texts(table[0]) == ["shares place 1"] and texts(table[1]) == ["shares place 1"]


def test_a_withdrawn_player_scores_nothing_after_leaving_and_a_late_one_a_sit_outs_points_before():
    # events.md, Seating: a late arrival scores, for each round before he joined, what a sit-out
    # of that round scores (the round's average, 4 here: 16 / 4), or 0 with "late": "zero"; his
    # row says which rounds he missed. A leaver scores nothing after leaving (issue 54, item 7).
    rounds = [
        RoundScores({ANN: Played(5), BOB: Played(3), CY: Played(5), DI: Played(3)}),  # Eve not yet in
        RoundScores({ANN: Played(4), BOB: Played(4), CY: Played(6), EVE: Played(6)}),  # Di withdrew
    ]
    table = {x.name: x for x in s.progressive(NAMES, rounds, withdrawn=frozenset({DI}))}
    assert table["Eve"].by_round == (4, 6) and table["Eve"].points == 10
    assert table["Eve"].figures["missed"] == [1]
    assert table["Di"].by_round == (3, None) and table["Di"].points == 3
    assert "missed" not in table["Di"].figures and "missed" not in table["Ann"].figures
    zero = {x.name: x for x in s.progressive(NAMES, rounds, late="zero", withdrawn=frozenset({DI}))}
    assert zero["Eve"].by_round == (0, 6) and zero["Eve"].figures["missed"] == [1]
    # A fixed sit-out score is what a late arrival gets too.
    fixed = {x.name: x for x in s.progressive(NAMES, rounds, sit_out=3)}
    assert fixed["Eve"].by_round == (3, 6)


def test_a_late_arrival_in_a_mixer_and_a_ladder_scores_a_sit_outs_points_for_missed_rounds():
    from scorekeeper.events import ladder

    mixed = [
        [TableResult((ANN, BOB, CY), (30, 10, 20))],  # Di sits out (2 placing points); Eve not in yet
        [TableResult((DI, EVE, ANN), (5, 6, 1))],  # Bob and Cy sit out
    ]
    table = {x.name: x for x in s.mixer(NAMES, mixed, sitting_out=[frozenset({DI}), frozenset({BOB, CY})])}
    assert table["Eve"].by_round == (2, 3) and table["Eve"].figures["missed"] == [1]
    assert table["Di"].by_round == (2, 2) and "missed" not in table["Di"].figures
    ladder_rounds = [
        ladder.RoundScores(
            {ANN: Played(5), BOB: Played(3), CY: Played(5), DI: Played(3)}, frozenset({ANN, CY})
        ),
        ladder.RoundScores(
            {ANN: Played(4), BOB: Played(4), CY: Played(6), EVE: Played(6)}, frozenset({CY, EVE})
        ),
    ]
    rows = {x.name: x for x in ladder.ladder_standings(NAMES, ladder_rounds, withdrawn=frozenset({DI}))}
    assert rows["Eve"].by_round == (4, 6) and rows["Eve"].figures["missed"] == [1]
    rows = {x.name: x for x in ladder.ladder_standings(NAMES, ladder_rounds, late="zero")}
    assert rows["Eve"].by_round == (0, 6)


def test_placing_points_share_the_mean():
    assert s.placing_points([10, 20, 20, 5]) == [2, Fraction(7, 2), Fraction(7, 2), 1]
    assert s.placing_points([10, 20, 20, 5], low_wins=True) == [3, Fraction(3, 2), Fraction(3, 2), 4]
    # A tiebreak's winner stands first even on equal totals (a tally ended with shared winners is not).
    assert s.placing_points([7, 7, 1], winners=(1,)) == [2, 3, 1]


def test_mixer_by_hand():
    rounds = [
        [TableResult((ANN, BOB, CY), (30, 10, 20))],  # Di and Eve sit out: mean placing 2
        [TableResult((DI, EVE, ANN), (5, 5, 1))],  # Bob and Cy sit out
    ]
    table = s.mixer(NAMES, rounds)
    got = {x.name: (x.points, x.by_round, x.figures["game_points"]) for x in table}
    assert got["Ann"] == (4, (3, 1), 31)
    assert got["Di"] == (Fraction(9, 2), (2, Fraction(5, 2)), 5)
    assert got["Bob"] == (3, (1, 2), 10)
    assert s.plain(Fraction(9, 2)) == 4.5 and s.plain(Fraction(4)) == 4


def test_pairs_by_hand_bye_and_tiebreaks():
    names = ["Ann & Bob", "Cy & Di", "Eve & Fay"]
    rounds = [
        [Meeting(0, 1, 10, 7), Meeting(2, None)],
        [Meeting(1, 2, 10, 10), Meeting(0, None)],
        [Meeting(0, 2, 6, 10), Meeting(1, None)],
    ]
    table = s.pairs(names, rounds)
    got = [(x.rank, x.name, x.points, x.figures) for x in table]
    # Ann & Bob: W, bye, L = 4, for 16 against 17; Eve & Fay: bye, T, W = 5; Cy & Di: L, T, bye = 3.
    assert got == [
        (1, "Eve & Fay", 5, {"match_points": 5, "for": 20, "against": 16}),
        (2, "Ann & Bob", 4, {"match_points": 4, "for": 16, "against": 17}),
        (3, "Cy & Di", 3, {"match_points": 3, "for": 17, "against": 20}),
    ]


def test_knockout_round_reached_then_points_for():
    names = ["A", "B", "C", "D"]
    rounds = [[Meeting(0, 3, 10, 4), Meeting(1, 2, 10, 9)], [Meeting(0, 1, 7, 10)]]
    table = s.knockout(names, rounds)
    assert [(x.rank, x.name, x.figures["round_reached"]) for x in table] == [
        (1, "B", 3),
        (2, "A", 2),
        (3, "C", 1),
        (4, "D", 1),
    ]
    assert texts(table[2]) == ["ahead of D on points for: 9 to 4"]


meetings = st.lists(
    st.tuples(st.integers(0, 5), st.integers(0, 5), st.integers(0, 15), st.integers(0, 15)),
    min_size=1,
    max_size=12,
)


@settings(max_examples=60, deadline=None)
@given(st.lists(meetings, min_size=1, max_size=5))
def test_pairs_against_an_independent_computation(raw_rounds):
    names = [f"P{i}" for i in range(6)]
    rounds = []
    for raw in raw_rounds:
        used, round_ = set(), []
        for a, b, x, y in raw:
            if a == b or a in used or b in used:
                continue
            used |= {a, b}
            round_.append(Meeting(a, b, x, y))
        for p in range(6):
            if p not in used and len(used) % 2 == 1:
                round_.append(Meeting(p, None))
                used.add(p)
        rounds.append(round_)
    mp = dict.fromkeys(range(6), 0)
    pf = dict.fromkeys(range(6), 0)
    pa = dict.fromkeys(range(6), 0)
    for round_ in rounds:
        for m in round_:
            if m.second is None:
                mp[m.first] += 2
                continue
            pf[m.first] += m.first_points
            pf[m.second] += m.second_points
            pa[m.first] += m.second_points
            pa[m.second] += m.first_points
            if m.first_points > m.second_points:
                mp[m.first] += 2
            elif m.first_points < m.second_points:
                mp[m.second] += 2
            else:
                mp[m.first] += 1
                mp[m.second] += 1
    table = s.pairs(names, rounds)
    for x in table:
        p = x.entrant
        assert x.points == mp[p] and x.figures == {"match_points": mp[p], "for": pf[p], "against": pa[p]}
    keys = [(mp[x.entrant], pf[x.entrant] - pa[x.entrant], pf[x.entrant]) for x in table]
    assert keys == sorted(keys, reverse=True)
    for above, below in zip(table, table[1:], strict=False):
        same = (mp[above.entrant], pf[above.entrant] - pa[above.entrant], pf[above.entrant]) == (
            mp[below.entrant],
            pf[below.entrant] - pa[below.entrant],
            pf[below.entrant],
        )
        assert (above.rank == below.rank) == same
        if not same:
            assert below.rank == table.index(below) + 1
