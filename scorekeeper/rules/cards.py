"""The pack's vocabulary shared by the games: suits as the game record spells them."""

from .base import N_

SUIT_NAMES = {
    "S": N_("♠ spades"),
    "H": N_("♥ hearts"),
    "D": N_("♦ diamonds"),
    "C": N_("♣ clubs"),
}
SUITS = tuple(SUIT_NAMES)
# A trump call: one of the suits, or No Trump.
TRUMPS = {**SUIT_NAMES, "NT": N_("No Trump")}
