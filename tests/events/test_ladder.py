"""The ladder's movement and standings (events.md, ``ladder``), pure: property-tested."""

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.events import ladder
from scorekeeper.events.seating import Round, Table
from scorekeeper.events.standings import Played


def partners(rnd):
    return {frozenset((t.seats[0], t.seats[2])) for t in rnd.tables} | {
        frozenset((t.seats[1], t.seats[3])) for t in rnd.tables
    }


def where(rnd):
    return {p: (t.number, i) for t in rnd.tables for i, p in enumerate(t.seats)}


def play(n, rounds, rng, changes=None):
    """An evening of ``rounds`` rounds, each table's winner drawn by ``rng``; ``changes`` per
    round: (players withdrawn, players added) before it. Returns the rounds, who was in each,
    and the results each later round was seated from."""
    players = list(range(n))
    made = [ladder.first_round(players)]
    present = [list(players)]
    results = [None]
    next_new = n
    for number in range(2, rounds + 1):
        gone, added = (changes or {}).get(number, (0, 0))
        for _ in range(min(gone, len(players) - 4)):
            players.remove(rng.choice(players))
        for _ in range(added):
            players.append(next_new)
            next_new += 1
        before = made[-1]
        played = [ladder.Played(t.seats, rng.random() < 0.5) for t in before.tables]
        sat = Counter(p for r in made for p in r.sitting_out)
        made.append(ladder.next_round(number, played, players, sat, before.sitting_out, made))
        present.append(list(players))
        results.append(played)
    return made, present, results


def check_evening(made, present):
    for rnd, players in zip(made, present, strict=True):
        seated = [p for t in rnd.tables for p in t.seats]
        assert all(len(t.seats) == 4 for t in rnd.tables)
        assert sorted(seated + list(rnd.sitting_out)) == sorted(players), rnd
        assert len(rnd.sitting_out) == len(players) % 4
        assert [t.number for t in rnd.tables] == list(range(1, len(rnd.tables) + 1))


def check_movement(made, present, results, exact):
    for r in range(1, len(made)):
        before, now, played = made[r - 1], made[r], results[r]
        # Partners always split: nobody partners the player they partnered the round before.
        assert not partners(before) & partners(now), (before, now)
        seats_now = where(now)
        for player in before.sitting_out:  # back in: at the last table (or below, if tables were added)
            if player in seats_now:
                assert seats_now[player][0] >= min(len(before.tables), len(now.tables)), (player, now)
                if len(now.tables) <= len(before.tables):
                    assert seats_now[player][0] == len(now.tables), (player, now)
        last = len(before.tables)
        for d, arrival in enumerate(ladder.arrivals(played), start=1):
            for seat, player in enumerate(arrival):
                if player not in seats_now:
                    continue  # sits out now, or withdrew
                got_table, got_seat = seats_now[player]
                if exact:
                    assert (got_table, got_seat) == (d, seat), (player, d, seat, now)
                elif got_table != d and present[r] == present[r - 1]:
                    # Only a player the movement sent to the last table fills a hole above it.
                    assert d == last and got_table < d, (player, d, got_table, now)
                elif got_table != d:
                    # Players left or joined: the bottom of the ladder moves up into the holes.
                    assert got_table < d or d > len(now.tables), (player, d, got_table, now)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(4, 41), rounds=st.integers(2, 9), seed=st.integers(0, 10**6))
def test_every_player_moves_as_the_rules_say(n, rounds, seed):
    made, present, results = play(n, rounds, random.Random(seed))
    check_evening(made, present)
    check_movement(made, present, results, exact=n % 4 == 0)
    # Sit-outs even: at every point nobody has sat out twice before everyone has once.
    out: Counter = Counter()
    for rnd in made:
        out.update(rnd.sitting_out)
        counts = [out[p] for p in range(n)]
        assert max(counts) - min(counts) <= 1, counts


@settings(max_examples=100, deadline=None)
@given(
    n=st.integers(4, 30),
    seed=st.integers(0, 10**6),
    gone=st.integers(0, 5),
    added=st.integers(0, 5),
)
def test_players_joining_and_leaving_keep_the_ladder_whole(n, seed, gone, added):
    made, present, results = play(n, 5, random.Random(seed), {3: (gone, added)})
    check_evening(made, present)
    check_movement(made, present, results, exact=False)


def test_the_exact_split_of_events_md():
    """Two tables: 0,1,2,3 at table 1 (0+2 win), 4,5,6,7 at table 2 (5+7 win)."""
    played = [ladder.Played((0, 1, 2, 3), True), ladder.Played((4, 5, 6, 7), False)]
    # Table 1: X = its winners (0, 2), Y = table 2's winners (5, 7): 0 = X first, 1 = Y first,
    # 2 = Y second, 3 = X second. Table 2: X = table 1's losers (1, 3), Y = its own losers (4, 6).
    assert ladder.arrivals(played) == [(0, 5, 7, 2), (1, 4, 6, 3)]
    rnd = ladder.next_round(2, played, range(8), Counter(), (), [ladder.first_round(range(8))])
    assert rnd.tables == (Table(1, (0, 5, 7, 2)), Table(2, (1, 4, 6, 3)))


def test_three_tables_winners_up_losers_down():
    played = [
        ladder.Played((0, 1, 2, 3), False),  # 1+3 win, stay at the head table
        ladder.Played((4, 5, 6, 7), True),  # 4+6 up to table 1, 5+7 down to table 3
        ladder.Played((8, 9, 10, 11), True),  # 8+10 up to table 2, 9+11 stay at the last
    ]
    assert ladder.arrivals(played) == [(1, 4, 6, 3), (0, 8, 10, 2), (5, 9, 11, 7)]


def test_round_one_in_the_order_given_or_shuffled():
    rnd = ladder.first_round(range(10))
    assert rnd.tables == (Table(1, (0, 1, 2, 3)), Table(2, (4, 5, 6, 7)))
    assert rnd.sitting_out == (8, 9)
    shuffled = ladder.first_round(range(12), shuffle=True, rng=random.Random(3))
    seats = [p for t in shuffled.tables for p in t.seats]
    assert sorted(seats) == list(range(12)) and seats != list(range(12))


def test_a_sit_out_comes_back_at_the_last_table():
    before = Round(1, (Table(1, (0, 1, 2, 3)), Table(2, (4, 5, 6, 7))), (8,))
    played = [ladder.Played(t.seats, True) for t in before.tables]
    rnd = ladder.next_round(2, played, range(9), Counter({8: 1}), (8,), [before])
    assert 8 in rnd.tables[-1].seats
    assert len(rnd.sitting_out) == 1 and rnd.sitting_out[0] != 8


def test_standings_points_then_rounds_won_then_loners():
    names = ["Ann", "Bob", "Cy", "Di", "Eve"]
    rounds = [
        ladder.RoundScores(
            {0: Played(5, 0), 1: Played(3, 1), 2: Played(5, 0), 3: Played(3, 0)},
            frozenset({0, 2}),
            frozenset({4}),
        ),
        ladder.RoundScores(
            {0: Played(3, 0), 4: Played(5, 0), 1: Played(5, 0), 2: Played(3, 0)},
            frozenset({4, 1}),
            frozenset({3}),
        ),
    ]
    table = ladder.ladder_standings(names, rounds)
    by_name = {s.name: s for s in table}
    # Eve: 4 (average of round 1) + 5; Ann 8 with 1 win; Bob 8 with 1 win and 1 loner; Cy 8, 1 win.
    assert by_name["Eve"].points == 9 and by_name["Eve"].figures["wins"] == 1
    assert [s.name for s in table][:1] == ["Eve"]
    assert by_name["Bob"].rank == 2 and by_name["Bob"].figures == {"wins": 1, "loners": 1}
    assert by_name["Ann"].rank == by_name["Cy"].rank == 3
    notes = [n.render() for n in by_name["Bob"].notes]
    assert notes == ["ahead of Ann on loners: 1 to 0"]
    assert [n.render() for n in by_name["Ann"].notes] == ["behind Bob on loners: 0 to 1", "shares place 3"]
    assert [n.render() for n in by_name["Cy"].notes] == ["shares place 3"]
    # Di: 3 + 4 (round 2's average); no win: behind on points.
    assert by_name["Di"].points == 7 and by_name["Di"].figures["wins"] == 0


def test_standings_rounds_won_before_loners():
    rounds = [
        ladder.RoundScores(
            {0: Played(5, 0), 1: Played(5, 3), 2: Played(5, 0), 3: Played(5, 3)}, frozenset({0, 2})
        )
    ]
    table = ladder.ladder_standings(["A", "B", "C", "D"], rounds)
    assert [s.name for s in table] == ["A", "C", "B", "D"]
    assert [n.render() for n in table[1].notes] == ["shares place 1", "ahead of B on rounds won: 1 to 0"]
    assert [n.render() for n in table[2].notes] == ["behind C on rounds won: 0 to 1", "shares place 3"]
    assert table[2].rank == table[3].rank == 3
