"""The pack's vocabulary shared by the games: suits as the game record spells them."""

from .base import N_

SUIT_NAMES = {
    "S": N_("♠ spades"),
    "H": N_("♥ hearts"),
    "D": N_("♦ diamonds"),
    "C": N_("♣ clubs"),
}
SUITS = tuple(SUIT_NAMES)
# The suits' marks, for pages and forms (one place: the spies of Secrets are named after them too).
SUIT_MARKS = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
# A trump call: one of the suits, or No Trump.
TRUMPS = {**SUIT_NAMES, "NT": N_("No Trump")}
