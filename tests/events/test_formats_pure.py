"""The formats seat and rank from plain values (events/played.Play): each a pure function of
what was played and the round, tested here without a database or an app. Their files import no
ORM row, no reading and no web."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

from scorekeeper.events import formats
from scorekeeper.events.played import Play, RoundPlay, TablePlay

FOLDER = Path(formats.__file__).parent
PAIRS = (("Ann", "Bob"), ("Cy", "Di"), ("Ed", "Flo"), ("Gil", "Hal"))
NAMES = ["Ann", "Bob", "Cy", "Di", "Ed", "Flo", "Gil", "Hal"]


@pytest.mark.parametrize("key", formats.REGISTRY)
def test_a_formats_file_imports_no_rows_no_reading_and_no_web(key):
    tree = ast.parse((FOLDER / f"{key.rsplit('.', 1)[1]}.py").read_text(encoding="utf-8"))
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            node.body = []  # types only
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
            imported |= {f"{node.module}.{a.name}" for a in node.names}
        elif isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
    banned = ("flask", "sqlalchemy", "models", "read", "db", "web")
    assert not [m for m in imported if any(part in banned for part in m.split("."))]


def test_swiss_pairs_the_next_round_from_the_standings():
    schedule = ({"tables": [[0, 1], [2, 3]], "sitting_out": []},)
    won_by_0 = TablePlay(1, (0, 1), (10, 4), True, (0, 2))
    won_by_3 = TablePlay(2, (2, 3), (2, 10), True, (1, 3))
    play = Play(PAIRS, {"pairing": "swiss"}, schedule=schedule, rounds=(RoundPlay(1, (won_by_0, won_by_3)),))
    pairs = formats.of("pairs")
    ranked = pairs.rank(play, [" & ".join(p) for p in PAIRS])
    assert [s.entrant for s in ranked][:2] in ([0, 3], [3, 0])
    # Round 2: the two winners meet, the two losers meet (no pair meets one it met).
    assert sorted(sorted(t) for t in pairs.seat(play, 2)["tables"]) == [[0, 3], [1, 2]]


def test_a_knockout_sends_the_winners_on():
    won_by_1 = TablePlay(1, (0, 1), (3, 10), True, (1, 3))
    won_by_2 = TablePlay(2, (2, 3), (10, 5), True, (0, 2))
    play = Play(PAIRS, {"pairing": "knockout"}, rounds=(RoundPlay(1, (won_by_1, won_by_2)),))
    assert formats.of("pairs").seat(play, 2)["tables"] == [[1, 2]]


def test_the_ladder_moves_winners_up_and_splits_them():
    first = ({"tables": [[0, 1, 2, 3], [4, 5, 6, 7]], "sitting_out": []},)
    top = TablePlay(1, (0, 1, 2, 3), (10, 4, 10, 4), True, (0, 2))
    low = TablePlay(2, (4, 5, 6, 7), (3, 10, 3, 10), True, (1, 3))
    play = Play(tuple(NAMES), {}, schedule=first, rounds=(RoundPlay(1, (top, low), closed=True),))
    ladder = formats.of("ladder")
    tables = ladder.seat(play, 2)["tables"]
    assert set(tables[0]) & {0, 2} and set(tables[0]) & {5, 7}  # the king's table: its winners, the risers
    assert set(tables[0]).isdisjoint({1, 3})  # its losers went down
    # Ranked without a database: the four who won their table (10 points, a round won) share first.
    assert [s.name for s in ladder.rank(play, NAMES) if s.rank == 1] == ["Ann", "Cy", "Flo", "Hal"]


def test_a_mixer_ranks_by_placing_points_from_plain_tables():
    tables = (TablePlay(1, (0, 1, 2), (5, 2, 1), True, (0,)), TablePlay(2, (3, 4, 5), (0, 4, 9), True, (2,)))
    play = Play(tuple(NAMES[:6]), {}, rounds=(RoundPlay(1, tables),))
    ranked = formats.of("mixer").rank(play, NAMES[:6])
    # Both won their table (the same placing points); Flo's 9 game points to Ann's 5 break it.
    assert [s.name for s in ranked][:2] == ["Flo", "Ann"]
    assert {s.name: s.points for s in ranked}["Ann"] == {s.name: s.points for s in ranked}["Flo"]
