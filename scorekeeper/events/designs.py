"""Perfect progressive schedules (whist tournament designs) as data.

Each entry is a cyclic design found offline by ``scripts/whist_designs.py``: for ``n`` players,
the group's moduli (``[m]`` for the integers mod m, ``[3, 3]`` for their product) and the initial
round's tables ``(a, b, c, d)`` (a and c partner against b and d; ``None`` is the player who
stays put, for 4k players). Round r adds the r-th group element to every seat. Tests check
that every design here is perfect: everyone partners everyone else once and opposes everyone
else twice. They are used for the evenings that play a whole design (and their first rounds
where those keep the rules); other evenings are developed from a base round of their own
(:mod:`scorekeeper.events.cyclic`) or taken from :mod:`scorekeeper.events.small_schedules`.
"""

from __future__ import annotations

from typing import Any

DESIGNS: dict[int, tuple[list[int], list[tuple[Any, ...]]]] = {
    4: ([3], [(None, 1, 0, 2)]),
    5: ([5], [(4, 2, 1, 3)]),
    8: ([7], [(None, 5, 6, 3), (0, 1, 4, 2)]),
    9: ([3, 3], [([1, 1], [2, 0], [2, 2], [1, 0]), ([0, 1], [2, 1], [0, 2], [1, 2])]),
    12: ([11], [(None, 9, 5, 10), (1, 3, 8, 0), (7, 4, 2, 6)]),
    13: ([13], [(8, 2, 1, 12), (4, 7, 5, 9), (10, 11, 6, 3)]),
    16: ([15], [(None, 13, 0, 1), (4, 5, 12, 7), (8, 6, 2, 11), (10, 14, 9, 3)]),
    17: ([17], [(3, 7, 15, 1), (13, 2, 12, 5), (10, 11, 6, 9), (8, 14, 16, 4)]),
    20: ([19], [(None, 9, 8, 17), (6, 12, 10, 13), (0, 11, 16, 2), (1, 5, 14, 7), (15, 4, 3, 18)]),
    21: ([21], [(12, 1, 3, 20), (11, 9, 8, 5), (14, 4, 7, 19), (13, 6, 18, 17), (16, 2, 15, 10)]),
    24: (
        [23],
        [(None, 12, 11, 5), (7, 18, 4, 14), (1, 13, 10, 2), (22, 16, 20, 15), (21, 8, 6, 3), (9, 0, 19, 17)],
    ),
    25: (
        [25],
        [(21, 15, 13, 14), (17, 20, 6, 11), (8, 5, 1, 24), (16, 7, 18, 3), (10, 22, 23, 2), (19, 9, 4, 12)],
    ),
    28: (
        [27],
        [
            (None, 12, 0, 24),
            (1, 16, 14, 21),
            (26, 25, 7, 5),
            (3, 17, 9, 20),
            (6, 11, 15, 10),
            (4, 23, 2, 13),
            (22, 19, 18, 8),
        ],
    ),
    29: (
        [29],
        [
            (7, 6, 17, 2),
            (21, 25, 23, 10),
            (22, 14, 4, 5),
            (16, 11, 9, 19),
            (20, 13, 26, 12),
            (24, 18, 27, 1),
            (3, 28, 8, 15),
        ],
    ),
}
