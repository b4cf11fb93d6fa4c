"""The season table (events.md, Season): worked by hand, and a property against an independent count."""

from datetime import date
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.events.season import EventResult, Place, place_points, season


def texts(standing):
    return [note.render() for note in standing.notes]


def places(*ranked):
    """``places((1, "Ann"), (2, "Bob", "Cy"))``: a rank, then the players it stands for."""
    return tuple(Place(rank, tuple(names)) for rank, *names in ranked)


def test_place_points_first_gets_the_count_shared_places_the_mean():
    # Five entrants, two sharing first (5 and 4: 4.5 each), then third (3), fourth, fifth.
    got = place_points(places((1, "A"), (1, "B"), (3, "C"), (4, "D"), (5, "E")))
    assert got == [Fraction(9, 2), Fraction(9, 2), 3, 2, 1]
    # Three sharing second of four: (3 + 2 + 1) / 3 = 2 each.
    assert place_points(places((1, "A"), (2, "B"), (2, "C"), (2, "D"))) == [4, 2, 2, 2]


def test_a_season_worked_by_hand_with_best_and_every_tie_break_explained():
    # 12 January: four players. Ann 4, Bob 3, Cy 2, Di 1.
    jan = EventResult(
        "e1", "January", date(2026, 1, 12), places((1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Di"))
    )
    # 9 February: pairs. Three pairs: Cy & Di first (3 each), Ann & Eve second (2), Bob & Fay third (1).
    feb = EventResult(
        "e2", "February", date(2026, 2, 9), places((1, "Cy", "Di"), (2, "Ann", "Eve"), (3, "Bob", "Fay"))
    )
    # 9 March: four players, Bob and Eve share first: 3.5 each; Di third (2), Fay fourth (1).
    mar = EventResult("e3", "March", date(2026, 3, 9), places((1, "Bob"), (1, "Eve"), (3, "Di"), (4, "Fay")))
    table = season([mar, jan, feb])  # any order: listed oldest first
    assert [e.name for e in table.events] == ["January", "February", "March"]
    rows = [(s.rank, s.name, s.points, s.by_round, s.figures["events"]) for s in table.standings]
    assert rows == [
        (1, "Bob", Fraction(15, 2), (3, 1, Fraction(7, 2)), 3),  # 3 + 1 + 3.5
        (2, "Di", 6, (1, 3, 2), 3),
        (3, "Ann", 6, (4, 2, None), 2),
        (4, "Eve", Fraction(11, 2), (None, 2, Fraction(7, 2)), 2),
        (5, "Cy", 5, (2, 3, None), 2),
        (6, "Fay", 2, (None, 1, 1), 2),
    ]
    di, ann = table.standings[1], table.standings[2]
    assert texts(di) == ["ahead of Ann on events played: 3 to 2"]
    assert texts(ann) == ["behind Di on events played: 2 to 3"]
    assert texts(table.standings[0]) == []

    # Best 2 of each player's events: Bob 3.5 + 3 = 6.5, Di 3 + 2 = 5, Ann 6, Eve 5.5, Cy 5, Fay 2.
    best = season([jan, feb, mar], best=2)
    assert [(s.rank, s.name, s.points) for s in best.standings] == [
        (1, "Bob", Fraction(13, 2)),
        (2, "Ann", 6),
        (3, "Eve", Fraction(11, 2)),
        (4, "Di", 5),
        (5, "Cy", 5),
        (6, "Fay", 2),
    ]
    # Di and Cy: 5 each; Di played three events, Cy two.
    assert texts(best.standings[3]) == ["ahead of Cy on events played: 3 to 2"]
    # The events a player missed stay None; every event still counts for "events played".
    assert best.standings[3].by_round == (1, 3, 2) and best.standings[3].figures == {"events": 3}


def test_level_on_everything_shares_the_place_golf_style():
    one = EventResult("e1", "One", date(2026, 5, 1), places((1, "Ann"), (2, "Bob"), (3, "Cy"), (4, "Di")))
    two = EventResult("e2", "Two", date(2026, 5, 8), places((1, "Bob"), (2, "Ann"), (3, "Di"), (4, "Cy")))
    table = season([one, two])
    assert [(s.rank, s.name, s.points) for s in table.standings] == [
        (1, "Ann", 7),
        (1, "Bob", 7),
        (3, "Cy", 3),
        (3, "Di", 3),
    ]
    assert texts(table.standings[0]) == ["shares place 1"]
    assert texts(table.standings[3]) == ["shares place 3"]


def test_one_player_whatever_the_case_spelt_as_their_latest_event():
    one = EventResult("e1", "One", date(2026, 5, 1), places((1, "ann"), (2, "Bob")))
    two = EventResult("e2", "Two", date(2026, 5, 8), places((1, "Ann"), (2, "Bob")))
    table = season([two, one])
    assert [(s.name, s.points, s.figures["events"]) for s in table.standings] == [
        ("Ann", 4, 2),
        ("Bob", 2, 2),
    ]


def test_no_events_no_standings():
    assert season([]).standings == () and season([]).events == ()


NAMES = st.sampled_from(["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ivy", "Jo"])


@st.composite
def finished_event(draw, number):
    players = draw(st.lists(NAMES, min_size=2, max_size=8, unique=True))
    # Golf-style ranks from drawn scores: equal scores share the rank, the next skips.
    scores = draw(st.lists(st.integers(0, 3), min_size=len(players), max_size=len(players)))
    order = sorted(zip(scores, players, strict=True), key=lambda x: -x[0])
    ranked = tuple(Place(1 + sum(1 for s, _ in order if s > score), (name,)) for score, name in order)
    return EventResult(f"e{number}", f"Event {number}", date(2026, 1, 1 + number), ranked)


@settings(max_examples=150, deadline=None)
@given(st.data(), st.integers(0, 6), st.one_of(st.none(), st.integers(1, 4)))
def test_the_table_matches_an_independent_count(data, count, best):
    events = [data.draw(finished_event(n)) for n in range(count)]
    table = season(events, best=best)
    # Each event hands out 1 + 2 + ... + n points in all, whatever the ties.
    for event in events:
        n = len(event.places)
        assert sum(place_points(event.places)) == n * (n + 1) // 2
    # Independently: per player, the points of each place (first n, shared places the mean).
    expected = {}
    for event in events:
        n = len(event.places)
        for place in event.places:
            level = [p for p in event.places if p.rank == place.rank]
            share = Fraction(sum(n + 1 - r for r in range(place.rank, place.rank + len(level))), len(level))
            expected.setdefault(place.players[0], []).append(share)
    assert {s.name for s in table.standings} == set(expected)
    for s in table.standings:
        got = sorted(expected[s.name], reverse=True)
        assert s.points == sum(got[: best or len(got)])
        assert s.figures["events"] == len(got)
        assert sorted(v for v in s.by_round if v is not None) == sorted(got)
    # Ranked by points, then events played; equal on both share the rank, with a note saying so.
    rows = list(table.standings)
    for upper, lower in zip(rows, rows[1:], strict=False):
        assert (upper.points, upper.figures["events"]) >= (lower.points, lower.figures["events"])
        same = (upper.points, upper.figures["events"]) == (lower.points, lower.figures["events"])
        assert (upper.rank == lower.rank) == same
        if same:
            assert any("shares place" in t for t in texts(upper))
        elif upper.points == lower.points:
            assert any("on events played" in t for t in texts(upper))
