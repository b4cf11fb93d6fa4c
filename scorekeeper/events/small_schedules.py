"""Schedules for small progressive evenings, kept as data (found by ``scripts/small_schedules.py``).

Why data: with a few players and many rounds the numbers are tight (6 players in 5 rounds,
two sitting out each round, keep opponents to two meetings only with the right turns to sit
out), and neither a developed base round nor a quick repair finds such a schedule reliably
within a request. Each schedule is min(13, n-1) rounds long (14 players': 11) and every prefix of it keeps the
rules for an evening of that many rounds (nobody partners twice; opponents meet at most once in
the first (n-1)//3 rounds, at most twice in all; sitting out in turn): an evening of r rounds
plays the first r. Sizes with a perfect design (:mod:`.designs`) are not here.

One exception: for 14 players the random search found no 12th and 13th rounds within two
meetings of the same opponents (minutes of search), so :data:`SMALL` holds its first 11 rounds,
and an evening of 12 or 13 rounds plays the schedule in :data:`LONG` instead: the perfect
design of 13 players (every pair partners once and opposes twice) with a 14th player who sits
out once in each half of the evening and otherwise takes the seat of a player who then sits
out (``scripts/small_schedules.py --from-design 14``). The design's players only lose
meetings; the 14th partners nobody twice and opposes nobody three times. Its first rounds are
not used for shorter evenings: they may oppose a pair twice within four rounds.
A line is a round: its tables' seats four by four (0+2 partner 1+3), then '/' and who sits out.
The tests check every schedule here.
"""

from __future__ import annotations

SMALL: dict[int, tuple[str, ...]] = {
    6: (
        "2 5 4 0 / 1 3",
        "2 0 1 3 / 4 5",
        "1 4 3 5 / 0 2",
        "3 1 2 4 / 0 5",
        "0 5 4 1 / 2 3",
    ),
    7: (
        "2 0 5 4 / 1 3 6",
        "6 1 4 3 / 0 2 5",
        "1 3 2 5 / 0 4 6",
        "4 6 1 0 / 2 3 5",
        "6 5 3 0 / 1 2 4",
        "4 0 2 3 / 1 5 6",
    ),
    10: (
        "2 8 5 7 3 4 9 0 / 1 6",
        "7 0 4 6 1 5 9 8 / 2 3",
        "6 2 5 0 1 4 8 3 / 7 9",
        "0 2 1 9 5 6 3 7 / 4 8",
        "9 8 6 3 1 7 4 2 / 0 5",
        "3 8 7 9 4 5 6 0 / 1 2",
        "3 1 6 7 4 5 2 9 / 0 8",
        "6 8 2 4 5 9 1 0 / 3 7",
        "2 7 8 0 3 4 1 5 / 6 9",
    ),
    11: (
        "8 1 10 6 9 0 2 3 / 4 5 7",
        "4 0 5 7 10 3 1 9 / 2 6 8",
        "8 0 6 5 7 1 4 2 / 3 9 10",
        "9 2 4 8 5 7 3 10 / 0 1 6",
        "5 0 2 1 3 8 6 7 / 4 9 10",
        "2 1 4 5 6 10 7 9 / 0 3 8",
        "3 8 10 0 4 5 6 9 / 1 2 7",
        "7 8 2 9 6 1 0 3 / 4 5 10",
        "1 0 4 10 7 6 3 2 / 5 8 9",
        "0 9 4 7 2 8 10 5 / 1 3 6",
    ),
    14: (
        "2 11 12 10 8 0 13 7 4 5 9 1 / 3 6",
        "6 1 0 11 12 5 7 9 13 10 3 8 / 2 4",
        "1 5 10 8 4 6 2 13 0 9 3 7 / 11 12",
        "0 10 11 5 4 9 6 8 3 13 12 2 / 1 7",
        "6 10 12 0 5 1 13 2 4 11 3 7 / 8 9",
        "12 6 13 8 11 1 9 7 2 5 3 4 / 0 10",
        "12 0 10 9 8 3 2 11 4 1 7 6 / 5 13",
        "11 9 4 10 7 8 2 0 6 1 3 12 / 5 13",
        "9 10 3 6 8 2 7 5 13 11 1 12 / 0 4",
        "7 11 3 13 9 2 1 0 8 12 4 5 / 6 10",
        "2 9 11 12 7 4 10 1 6 13 5 0 / 3 8",
    ),
    15: (
        "3 13 9 8 14 4 5 2 6 11 10 0 / 1 7 12",
        "2 6 1 9 7 0 11 8 10 5 12 4 / 3 13 14",
        "3 2 1 7 12 9 14 0 6 4 13 8 / 5 10 11",
        "8 0 3 5 11 14 13 1 7 9 10 12 / 2 4 6",
        "3 2 13 6 5 10 12 1 11 7 14 4 / 0 8 9",
        "4 11 1 8 6 2 14 5 13 0 9 3 / 7 10 12",
        "8 4 12 6 0 1 10 11 9 7 5 13 / 2 3 14",
        "3 6 11 12 1 14 8 7 9 10 2 4 / 0 5 13",
        "10 13 2 1 14 3 9 5 12 8 0 7 / 4 6 11",
        "11 2 10 3 6 4 5 12 0 13 7 14 / 1 8 9",
        "13 6 5 11 14 9 2 8 3 0 10 4 / 1 7 12",
        "6 10 8 9 14 12 0 1 5 13 7 2 / 3 4 11",
        "11 7 2 12 4 0 9 1 3 14 6 10 / 5 8 13",
    ),
    18: (
        "15 8 11 10 14 7 4 1 3 12 5 6 2 13 17 0 / 9 16",
        "0 4 3 11 13 15 9 7 2 6 8 5 12 1 16 10 / 14 17",
        "0 7 8 12 3 15 14 2 9 5 1 13 6 4 17 16 / 10 11",
        "4 12 6 13 14 16 11 17 2 15 1 9 3 5 10 7 / 0 8",
        "10 0 6 14 11 12 13 5 16 9 8 3 7 15 17 1 / 2 4",
        "9 12 0 3 15 2 5 4 6 10 11 13 16 17 14 8 / 1 7",
        "11 2 10 14 0 9 17 6 3 1 8 16 15 7 12 4 / 5 13",
        "17 7 14 0 16 15 5 10 11 8 9 6 4 13 1 2 / 3 12",
        "11 13 8 7 17 5 9 2 14 12 10 1 16 0 3 4 / 6 15",
        "10 0 9 1 11 4 5 12 15 13 8 17 14 2 6 16 / 3 7",
        "2 3 9 4 13 16 15 10 7 11 14 12 8 1 5 6 / 0 17",
        "11 9 16 5 8 0 13 2 6 1 3 14 4 7 17 10 / 12 15",
        "11 16 0 15 10 9 17 4 6 3 13 7 2 8 12 1 / 5 14",
    ),
    19: (
        "4 2 3 1 8 13 15 16 18 0 5 12 10 17 9 7 / 6 11 14",
        "17 7 5 18 12 6 16 4 14 8 0 3 13 2 9 11 / 1 10 15",
        "6 11 1 5 10 3 15 12 7 18 9 13 17 14 2 8 / 0 4 16",
        "16 11 3 17 8 9 0 4 15 10 13 1 18 2 6 14 / 5 7 12",
        "16 12 1 9 8 7 11 10 4 14 0 13 6 15 5 3 / 2 17 18",
        "16 18 6 1 13 17 11 12 4 15 14 7 0 2 5 10 / 3 8 9",
        "16 15 9 6 1 17 12 0 7 3 11 2 10 18 4 8 / 5 13 14",
        "2 16 0 7 5 17 9 3 14 12 18 4 10 1 11 15 / 6 8 13",
        "13 2 1 15 16 5 11 14 17 4 9 18 8 0 12 6 / 3 7 10",
        "13 5 17 8 4 0 2 15 7 9 14 11 18 3 10 6 / 1 12 16",
        "1 8 3 6 5 13 10 0 9 12 15 14 16 7 18 2 / 4 11 17",
        "13 3 8 7 15 2 11 6 16 1 4 17 12 14 5 10 / 0 9 18",
        "11 5 14 16 8 12 4 6 17 10 18 13 1 3 9 0 / 2 7 15",
    ),
    22: (
        "12 18 4 10 20 11 16 0 7 19 13 17 21 15 6 1 2 5 14 8 / 3 9",
        "5 20 3 19 13 8 11 18 9 14 6 10 7 0 4 15 12 16 17 2 / 1 21",
        "20 4 21 17 6 2 11 7 3 10 18 8 19 12 15 1 9 0 5 13 / 14 16",
        "12 8 9 11 19 4 3 15 21 7 16 18 2 20 13 14 1 17 0 10 / 5 6",
        "4 11 10 17 21 14 7 8 9 2 3 5 6 0 13 16 1 12 20 18 / 15 19",
        "21 12 3 0 14 11 17 15 10 5 6 13 9 19 2 16 7 4 8 1 / 18 20",
        "10 15 20 7 21 11 19 16 13 3 14 4 17 9 6 18 1 0 8 5 / 2 12",
        "10 14 19 6 16 9 12 4 11 13 3 20 1 15 7 2 17 5 18 21 / 0 8",
        "9 12 17 10 15 8 20 21 1 16 18 7 14 0 11 2 6 19 3 5 / 4 13",
        "20 5 12 16 15 0 14 3 21 6 9 8 4 11 18 1 19 2 13 10 / 7 17",
        "2 3 18 15 7 21 14 4 6 1 5 16 13 9 17 0 8 19 20 12 / 10 11",
        "19 0 11 14 20 18 17 16 2 5 12 7 13 21 10 1 6 8 4 3 / 9 15",
        "2 17 19 8 3 7 16 10 6 0 15 20 4 13 11 9 5 21 12 14 / 1 18",
    ),
    23: (
        "9 11 7 3 21 2 13 6 4 22 17 15 12 0 18 16 5 19 1 10 / 8 14 20",
        "9 10 11 16 14 4 8 13 5 3 21 1 20 19 6 17 2 7 0 22 / 12 15 18",
        "16 5 4 7 19 15 12 18 8 14 1 3 21 0 2 10 13 11 6 20 / 9 17 22",
        "18 3 11 2 16 17 1 6 21 14 12 22 15 20 10 8 19 9 13 4 / 0 5 7",
        "2 9 5 8 20 11 4 12 18 7 1 15 3 14 0 16 22 13 17 10 / 6 19 21",
        "22 1 20 7 9 0 3 12 6 15 21 8 19 13 5 2 14 11 18 17 / 4 10 16",
        "11 0 15 22 4 6 10 16 8 20 21 19 2 12 7 14 17 5 18 9 / 1 3 13",
        "5 22 13 4 14 3 17 16 12 18 20 7 1 15 9 21 0 10 6 8 / 2 11 19",
        "20 13 15 16 11 22 19 12 4 3 1 8 21 9 10 0 5 6 17 7 / 2 14 18",
        "13 19 17 21 5 6 15 3 22 14 2 1 12 16 7 9 18 11 0 4 / 8 10 20",
        "19 7 4 0 2 18 8 20 1 16 13 11 15 9 6 14 12 17 3 10 / 5 21 22",
        "15 22 14 5 12 10 13 2 3 20 19 16 7 21 8 0 9 17 18 1 / 4 6 11",
        "11 17 8 3 2 10 1 7 14 4 21 15 16 20 5 13 18 19 22 6 / 0 9 12",
    ),
}

# Longer evenings for sizes whose :data:`SMALL` schedule stops short (see above): an evening of
# more rounds than SMALL holds, and at most as many as here, plays these rounds' first ones.
LONG: dict[int, tuple[str, ...]] = {
    14: (
        "8 2 1 12 4 7 5 9 10 11 6 3 / 0 13",
        "13 3 2 0 5 8 6 10 11 12 7 4 / 1 9",
        "10 4 3 1 6 9 7 11 12 0 13 5 / 2 8",
        "11 5 4 2 13 10 8 12 0 1 9 6 / 3 7",
        "12 6 5 3 8 13 9 0 1 2 10 7 / 4 11",
        "0 7 6 4 9 12 13 1 2 3 11 8 / 5 10",
        "1 8 7 5 10 0 11 2 3 4 13 9 / 6 12",
        "2 9 8 6 11 1 12 3 4 5 13 10 / 0 7",
        "3 10 9 7 12 2 0 4 5 6 13 11 / 1 8",
        "13 11 10 8 0 3 1 5 6 7 2 12 / 4 9",
        "5 12 11 9 1 4 13 6 7 8 3 0 / 2 10",
        "6 0 12 10 2 13 3 7 8 9 4 1 / 5 11",
        "7 1 0 11 3 6 4 8 9 10 5 2 / 12 13",
    ),
}

# Evenings of more rounds than others to partner (n - 1), for the sizes without a perfect
# design: the rounds after :data:`SMALL`'s, an evening of r rounds playing the first r of both.
# Partners must repeat there; every prefix keeps :func:`seating.repeat_limits`: nobody partners
# more often than the partnerships over the pairs (rounded up), opponents meet at most once more
# than theirs, sitting out in turn (``scripts/small_schedules.py --more 6 7 10 11``).
MORE: dict[int, tuple[str, ...]] = {
    6: (
        "2 3 0 5 / 1 4",
        "0 3 1 4 / 2 5",
        "5 4 1 2 / 0 3",
        "0 2 5 3 / 1 4",
        "2 3 5 0 / 1 4",
        "2 4 5 1 / 0 3",
        "1 0 3 4 / 2 5",
        "0 3 2 4 / 1 5",
    ),
    7: (
        "5 6 1 2 / 0 3 4",
        "5 2 6 0 / 1 3 4",
        "1 3 6 4 / 0 2 5",
        "2 1 3 0 / 4 5 6",
        "2 5 0 4 / 1 3 6",
        "4 6 1 5 / 0 2 3",
        "3 4 0 5 / 1 2 6",
    ),
    10: (
        "2 7 1 9 0 6 3 8 / 4 5",
        "5 8 7 0 2 4 3 9 / 1 6",
        "1 6 4 7 9 5 2 0 / 3 8",
        "1 6 7 2 9 4 8 3 / 0 5",
    ),
    11: (
        "4 8 10 3 5 1 6 9 / 0 2 7",
        "9 8 6 4 7 5 1 10 / 0 2 3",
        "7 10 5 6 2 3 0 4 / 1 8 9",
    ),
}
