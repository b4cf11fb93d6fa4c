"""A mixer's seating is bounded by its work, not by its count of players alone (issue 57, P4):
400 players at 12 a table took 152 s to create and 108 s to change players, the repair's moves
counted in tables whatever their size."""

from __future__ import annotations

import itertools
import random
import time
from collections import Counter

import pytest

from scorekeeper.events import repair, seating
from tests.clubs.helpers import bearer, new_club


@pytest.fixture
def repairs(monkeypatch):
    """Each repair's (moves, seats a table): recorded, and not run, so the test costs nothing."""
    asked: list[tuple[int, int]] = []

    def recorded(rounds, players, partnership, limits, rng, moves, before=()):
        asked.append((moves, max(len(t) for tables in rounds for t in tables)))
        return 0

    monkeypatch.setattr(repair, "repair", recorded)
    return asked


def work(asked):
    return max(moves * (size - 1) for moves, size in asked)


@pytest.mark.parametrize(
    ("players", "size", "rounds"), [(400, 12, 13), (400, 12, 60), (400, 8, 60), (400, 4, 60)]
)
def test_the_repair_of_a_big_mixer_is_bounded_by_its_work(repairs, players, size, rounds):
    seating.mixer(players, size, rounds)
    assert repairs and work(repairs) <= seating.MIXER_WORK


def test_creating_and_changing_a_400_player_mixer_at_12_a_table_is_bounded(app, client, repairs):
    made = new_club(client, "The Lodge", "Olga")
    body = {
        "name": "Big night",
        "format": "mixer",
        "game": "tally",
        "table_size": 12,
        "players": [f"P{i}" for i in range(399)],
        "rounds": 13,
    }
    event = client.post("/api/clubs/the-lodge/events", json=body, headers=bearer(made["member_key"]))
    assert event.status_code == 201, event.json
    assert work(repairs) <= seating.MIXER_WORK
    repairs.clear()
    key = bearer(event.json["director_key"])
    changed = client.post(f"/api/events/{event.json['id']}/players", json={"add": ["Late"]}, headers=key)
    assert changed.status_code == 200, changed.json
    assert repairs and work(repairs) <= seating.MIXER_WORK


def test_a_small_mixer_is_seated_as_well_as_before():
    """The bound changes nothing where the budget by tables is smaller: 20 at 4 for 5 rounds."""
    made = seating.mixer(20, 4, 5)
    met = Counter(
        seating._pair(a, b)
        for r in made.rounds
        for t in r.tables
        for a, b in itertools.combinations(t.seats, 2)
    )
    assert max(met.values()) <= 2


def test_the_quick_weighing_of_a_mixers_swap_still_finds_a_seating_without_repeats():
    """A mixer's swap is weighed by the movers' meetings only (their table size, not its square):
    16 players at 4 tables for 4 rounds, shuffled, are still repaired to no pair meeting twice."""
    rng = random.Random(5)
    rounds = [[list(range(i, i + 4)) for i in range(0, 16, 4)] for _ in range(4)]
    for tables in rounds:
        flat = [p for t in tables for p in t]
        rng.shuffle(flat)
        tables[:] = [flat[i : i + 4] for i in range(0, 16, 4)]
    start = time.perf_counter()
    left = repair.repair(
        [[list(t) for t in ts] for ts in rounds], 16, False, {repair.MET: 1}, random.Random(1), 2000
    )
    assert left == 0 and time.perf_counter() - start < 10
