"""The rules' vocabulary: what every game's pure rules module is written in.

The games themselves live one folder each under :mod:`scorekeeper.games` (``games/<key>/rules.py``),
whose registry (:data:`scorekeeper.games.GAMES`, :func:`scorekeeper.games.get`) names them.
"""

from .base import (
    N_,
    DealResult,
    FieldError,
    Game,
    GameResult,
    InvalidFacts,
    Msg,
    Option,
    Setup,
    check,
    check_setup,
    msg,
    nmsg,
    play,
)

__all__ = [
    "N_",
    "DealResult",
    "FieldError",
    "Game",
    "GameResult",
    "InvalidFacts",
    "Msg",
    "Option",
    "Setup",
    "check",
    "check_setup",
    "msg",
    "nmsg",
    "play",
]
