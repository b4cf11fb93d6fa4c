"""The games' rules: pure functions over facts, with an explicit registry.

Add a game by writing its module and listing its class in ``GAMES`` below;
every page, form and API call finds it through :func:`get`.
"""

from .abracadabra import Abracadabra
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
from .euchre import Euchre
from .secret_agent import SecretAgent
from .secrets import Secrets
from .spades import Spades
from .tally import Tally

GAMES: dict[str, Game] = {
    game.key: game for game in (SecretAgent(), Euchre(), Spades(), Secrets(), Abracadabra(), Tally())
}


def get(key: str) -> Game | None:
    """The registered game called ``key``, or None."""
    return GAMES.get(key)


__all__ = [
    "GAMES",
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
    "get",
    "msg",
    "nmsg",
    "play",
]
