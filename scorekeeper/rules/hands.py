"""A game of a fixed number of hands (game-record.md, ``hands``): what Euchre and Spades share for events.

With ``hands`` set, the game ends after that many hands (thrown-in hands not counted) and the
target is not used; equal totals are a tie that every leading side wins, unless
``hands_tiebreak`` is on: then one more hand at a time until the totals differ (a knockout's
table game never ends tied).
"""

from __future__ import annotations

from collections.abc import Sequence

from .base import N_, Option, Setup, leading_seats

HANDS = Option(
    "hands",
    N_("Hands per game"),
    None,
    minimum=1,
    maximum=100,
    nullable=True,
    help=N_(
        "Empty: play to the target. A number: the game ends after that many hands "
        "(thrown-in hands not counted) and equal totals are a tie."
    ),
)
HANDS_TIEBREAK = Option(
    "hands_tiebreak",
    N_("After the hands, equal totals play on"),
    False,
    kind="bool",
    help=N_("With a number of hands: one more hand at a time until the totals differ."),
)
OPTIONS = (HANDS, HANDS_TIEBREAK)


def hands(setup: Setup) -> int | None:
    """The fixed number of hands, or None for a game played to its target."""
    return setup.options.get("hands")


def decide(setup: Setup, totals: Sequence[int], sides: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """The winners after the last hand: the leading side, every leading side on a tie, or
    nobody yet (a tiebreak hand) when ``hands_tiebreak`` asks for one."""
    leaders = leading_seats(totals, sides)
    if len(leaders) > len(sides[0]) and setup.options.get("hands_tiebreak"):
        return ()
    return tuple(sorted(leaders))
