"""Abracadabra: bid on named tricks with the cards of a second pack.

See ``shared/rules/abracadabra.md`` (it overrides the original text). Four,
three or two players; a bid card's rank names a trick (Ace = trick 1 ...
King = trick 13) and a player wants to win the tricks his bid cards name.

Facts per deal (``shared/spec/game-record.md``), seats are indexes 0..n-1:

- ``thrown_in`` (optional, default false): all passed. A thrown-in deal may
  also carry ``trump`` and ``suits`` (both known before the auction) and
  nothing else; it scores 0 for everyone and the deal passes on.
- ``trump`` (optional): "S", "H", "D", "C" or "NT".
- ``suits`` (optional): n distinct suits, each player's bid suit.
- ``declarer`` (seat) and ``bid`` (1 to the tricks in a deal).
- ``bid_cards``: n lists of ranks (1-13, at most the tricks in a deal); the
  Declarer's list holds exactly ``bid`` ranks, including the exposed ones;
  every other list holds fewer than ``bid`` (an empty list is allowed).
- ``exposed`` (optional, default []): ranks of the Declarer's bid cards
  moved to his right.
- ``piles_exposed`` (optional, default all false): n bools.
- the tricks, in one of two forms (never both; both score a deal alike):
  ``trick_winners``, one seat per trick, in trick order (trick 1 first); or, as
  the players report them after the deal, ``tricks`` (n ints, each player's
  trick count, adding up to the tricks in a deal) with ``bid_won`` (n lists:
  the ranks of the player's own laid bid cards whose trick he won).
- ``suit_cards``: n ints, each player's cards of his own bid suit among the
  tricks he won.

Two players with a dummy: the dummy is not a seat. Every per-player list
has two entries (the live players); the dummy has no bid suit, bid cards or
pile, and a trick won by a dummy card is recorded for the live player who
played that card, so ``trick_winners`` holds only seats 0 and 1. A player's
``suit_cards`` counts every card of his bid suit in his tricks, dummy cards
included (three cards a trick).

Options: ``deals`` (null = as many deals as players, so each deals once),
``target`` (null = none). With neither set the game lasts n deals; with
only a target it lasts until a total reaches the target; with both it ends
at whichever comes first. A thrown-in deal passes the deal on but does not
count toward the number of deals (the state carried from deal to deal is
the count of deals played). A tie for the highest total after the end plays
further deals, one at a time.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ...rules.base import (
    N_,
    TRICKS,
    Chosen,
    Counted,
    DealScore,
    FieldError,
    Game,
    GameResult,
    Msg,
    Option,
    Setup,
    check_choices,
    check_counts,
    in_range,
    is_int,
    is_seat,
    missing,
    msg,
    one_of,
    per_seat,
    refuse,
    require_keys,
)
from ...rules.cards import SUIT_NAMES, SUITS, TRUMPS

KING = 13
RANK_LETTERS = {1: N_("A"), 11: N_("J"), 12: N_("Q"), 13: N_("K")}

# Facts known before the first trick, and those entered during and after play.
PRE_PLAY_KEYS = (
    "thrown_in",
    "trump",
    "suits",
    "declarer",
    "bid",
    "bid_cards",
    "exposed",
    "piles_exposed",
)
PLAY_KEYS = ("trick_winners", "suit_cards")
# The tricks as the players report them after the deal: the other form of ``trick_winners``.
REPORTED_KEYS = ("tricks", "bid_won")
FACT_KEYS = PRE_PLAY_KEYS + PLAY_KEYS + REPORTED_KEYS
# Trump and the bid suits' identity change no score (only the count of own-suit cards won does)
# and no rule in shared/rules/abracadabra.md needs them: optional, checked and kept when given
# (issue 41). The rules that name them judge their values: no No Trump without the Joker, the
# bid suits distinct.
PRE_PLAY_REQUIRED = ("declarer", "bid", "bid_cards")
THROWN_IN_KEYS = ("thrown_in", "trump", "suits")


# -- the layout of a deal ----------------------------------------------------
def has_dummy(setup: Setup) -> bool:
    """True for the two-player game with a dummy hand (the default for two)."""
    return setup.n == 2 and setup.options.get("two_player", "dummy") == "dummy"


def tricks_per_deal(setup: Setup) -> int:
    """13 tricks for four players, 12 for three and for two (either version)."""
    return 13 if setup.n == 4 else 12


def cards_per_trick(setup: Setup) -> int:
    """Cards in one trick: one per hand, the dummy's included."""
    return 3 if has_dummy(setup) else setup.n


def suit_size(setup: Setup) -> int:
    """Cards of one suit in play: 13 (52 cards), 9 (36 cards) or 6 (24 cards).

    With the Joker the turned-up card stays out of play and the Joker takes
    its identity, so the count in play is the same with or without it.
    """
    return tricks_per_deal(setup) * cards_per_trick(setup) // len(SUITS)


def success_bonus(n: int, successes: int) -> int:
    """Points for each successful player: 40/30/20/10 (four), 30/20/10 (three), 20/10 (two)."""
    if successes <= 0:
        return 0
    return 10 * (n - successes + 1)


def deal_layout(setup: Setup) -> dict[str, Any]:
    """What a deal looks like for this table, for forms and hints (JSON-friendly)."""
    return {
        "tricks": tricks_per_deal(setup),
        "cards_per_trick": cards_per_trick(setup),
        "suit_size": suit_size(setup),
        "dummy": has_dummy(setup),
        "success_bonus": [success_bonus(setup.n, k) for k in range(1, setup.n + 1)],
    }


def end_condition(setup: Setup) -> tuple[int | None, int | None]:
    """The agreed number of deals and target after defaults (either may be None)."""
    deals = setup.options.get("deals")
    target = setup.options.get("target")
    if deals is None and target is None:
        deals = setup.n
    return deals, target


def rank_label(rank: int) -> Msg:
    """A bid card as printed on it: A, 2-10, J, Q, K."""
    if rank in RANK_LETTERS:
        return msg(RANK_LETTERS[rank])
    return msg("{rank}", rank=rank)


# The court letters printed on English, Polish (Walet, Dama, Król) and Portuguese
# (Valete, Dama, Rei) cards; "D" is the queen in both, so no letter clashes.
RANK_INPUT_LETTERS = {"A": 1, "J": 11, "Q": 12, "K": 13, "W": 11, "D": 12, "V": 11, "R": 13}


def parse_rank(text: Any) -> int | None:
    """The rank a scorer typed ("A", "7", "10", "j", "Q", "K" or "1"-"13"), or None.

    Polish (W, D, K) and Portuguese (V, D, R) court letters are accepted too.
    """
    if not isinstance(text, str):
        return None
    text = text.strip().upper()
    letters = RANK_INPUT_LETTERS
    if text in letters:
        return letters[text]
    if text.isdigit() and 1 <= int(text) <= KING:
        return int(text)
    return None


# -- helpers for entry during play ----------------------------------------------
def trump_choices(setup: Setup) -> tuple[str, ...]:
    """The trumps a deal of this table may have: without the Joker nothing turns up No Trump."""
    return tuple(TRUMPS) if setup.options.get("joker", True) else SUITS


def declared_by_cards(bid_cards: Sequence[Any]) -> tuple[int, int] | None:
    """The Declarer and bid that laid bid cards imply, or None when they do not say.

    The Declarer lays as many bid cards as his bid and every other player fewer, so the one
    player with the most cards is the Declarer and his count the bid.
    """
    counts = [len(cards) if isinstance(cards, list) else -1 for cards in bid_cards]
    most = max(counts, default=0)
    if most < 1 or counts.count(most) != 1:
        return None
    return counts.index(most), most


def bid_trick_owners(facts: Mapping[str, Any], trick: int) -> tuple[int, ...]:
    """Seats whose bid cards (left or right) name ``trick`` (1-based), in seat order.

    Several players may bid the same trick. Facts are assumed checked.
    """
    return tuple(seat for seat, cards in enumerate(facts.get("bid_cards") or ()) if trick in cards)


def trick_counts(setup: Setup, trick_winners: Sequence[Any]) -> tuple[int, ...]:
    """Tricks won so far by each seat from a partial list of winners (non-seats are skipped)."""
    counts = [0] * setup.n
    for winner in trick_winners:
        if is_int(winner) and 0 <= winner < setup.n:
            counts[winner] += 1
    return tuple(counts)


def trick_messages(setup: Setup, facts: Mapping[str, Any], trick: int, winner: int | None) -> tuple[Msg, ...]:
    """What the page says when ``winner`` takes ``trick`` (1-based); before it, who bid it.

    "abracadabra: trick 5 is Helen's" when the winner bid it, and one line
    for every other player who bid it and lost it.
    """
    owners = bid_trick_owners(facts, trick)
    if winner is None:
        if not owners:
            return ()
        return (
            msg(
                N_("Trick {trick} is bid by {players}."),
                trick=trick,
                players=", ".join(setup.players[s] for s in owners),
            ),
        )
    lines = []
    if winner in owners:
        lines.append(
            msg(N_("abracadabra: trick {trick} is {player}'s"), trick=trick, player=setup.players[winner])
        )
    for seat in owners:
        if seat != winner:
            lines.append(
                msg(
                    N_("{player} bid trick {trick} and lost it."),
                    player=setup.players[seat],
                    trick=trick,
                )
            )
    return tuple(lines)


def bid_status(facts: Mapping[str, Any], trick_winners: Sequence[int]) -> list[dict[str, list[int]]]:
    """Per seat, the bid tricks won, lost and still to come after a partial play."""
    played = len(trick_winners)
    status = []
    for seat, cards in enumerate(facts.get("bid_cards") or ()):
        ranks = sorted(cards)
        status.append(
            {
                "won": [r for r in ranks if r <= played and trick_winners[r - 1] == seat],
                "lost": [r for r in ranks if r <= played and trick_winners[r - 1] != seat],
                "pending": [r for r in ranks if r > played],
            }
        )
    return status


# -- checks --------------------------------------------------------------------
BID_SUITS = Chosen(
    shape=N_("Give one bid suit per player ({n} players)."),
    wrong=N_("{player}: the bid suit is spades, hearts, diamonds or clubs."),
    blank=N_("Choose {player}'s bid suit."),
    repeat=N_("{player} and {other} both took {suit}: each player takes a different bid suit."),
    name="suit",
)
SUIT_CARDS = Counted(
    shape=N_("Give each player's count of cards of their bid suit won ({n} players)."),
    wrong=N_(
        "{player}: bid-suit cards won are a whole number from 0 to {size}, the cards of a suit in this pack."
    ),
    blank=N_("Choose {player}'s count of bid-suit cards won."),
)


def _check_thrown_in(facts: Mapping[str, Any]) -> tuple[list[FieldError], bool | None]:
    value = facts.get("thrown_in", False)
    if not isinstance(value, bool):
        return [refuse("thrown_in", N_("Thrown in is yes (all passed) or no."))], None
    return [], value


def _check_trump(setup: Setup, facts: Mapping[str, Any]) -> list[FieldError]:
    trump = facts["trump"]
    if trump is None:
        return []  # not recorded: trump changes no score
    if not setup.options.get("joker", True):
        # Without the Joker nothing can turn up No Trump: the Declarer names a suit.
        if not one_of(trump, SUIT_NAMES):
            return [refuse("trump", N_("Without the Joker, trump is one of the four suits: no No Trump."))]
        return []
    if not one_of(trump, TRUMPS):
        return [refuse("trump", N_("Trump is one of the four suits or No Trump."))]
    return []


def _check_declarer(setup: Setup, facts: Mapping[str, Any]) -> tuple[list[FieldError], int | None]:
    declarer = facts["declarer"]
    if declarer is None:
        return [missing("declarer", N_("Choose the Declarer: the highest bidder."))], None
    if not is_seat(declarer, setup.n):
        return [refuse("declarer", N_("The Declarer is one of the players: the highest bidder."))], None
    return [], declarer


def _check_bid(setup: Setup, facts: Mapping[str, Any]) -> tuple[list[FieldError], int | None]:
    bid = facts["bid"]
    tricks = tricks_per_deal(setup)
    if bid is None:
        return [missing("bid", N_("Choose the bid."))], None
    if not in_range(bid, 1, tricks):
        text = N_("The bid is a whole number from 1 to {tricks}, the number of tricks in a deal.")
        return [refuse("bid", text, tricks=tricks)], None
    return [], bid


def _check_ranks(setup: Setup, seat: int, cards: Any) -> list[FieldError]:
    player = setup.players[seat]
    tricks = tricks_per_deal(setup)
    if not isinstance(cards, list):
        return [
            refuse("bid_cards", N_("{player}: give the bid cards as a list of ranks."), seat, player=player)
        ]
    errors = []
    seen: set[int] = set()
    for rank in cards:
        if not in_range(rank, 1, KING):
            text = N_("{player}: a bid card is a rank from Ace (1) to King (13).")
            errors.append(refuse("bid_cards", text, seat, player=player))
        elif rank > tricks:
            text = N_("{player}: rank {rank} names trick {rank}, but a deal has only {tricks} tricks.")
            errors.append(refuse("bid_cards", text, seat, player=player, rank=rank, tricks=tricks))
        elif rank in seen:
            text = N_("{player} lays rank {rank} twice: a suit has each rank once.")
            errors.append(refuse("bid_cards", text, seat, player=player, rank=rank))
        else:
            seen.add(rank)
    return errors


def _check_bid_cards(
    setup: Setup, facts: Mapping[str, Any]
) -> tuple[list[FieldError], list[list[int]] | None]:
    value = facts["bid_cards"]
    if not per_seat(value, setup.n):
        text = N_(
            "Give one list of bid cards per player ({n} players); a player who laid none has an empty list."
        )
        return [refuse("bid_cards", text, n=setup.n)], None
    errors = []
    for seat, cards in enumerate(value):
        errors += _check_ranks(setup, seat, cards)
    return errors, ([list(cards) for cards in value] if not errors else None)


def _check_bid_counts(setup: Setup, declarer: int, bid: int, bid_cards: list[list[int]]) -> list[FieldError]:
    errors = []
    for seat, cards in enumerate(bid_cards):
        player, count = setup.players[seat], len(cards)
        if seat == declarer and count != bid:
            text = N_(
                "{player} is the Declarer with a bid of {bid}: the Declarer lays exactly {bid} bid cards, not {count}."
            )
            errors.append(refuse("bid_cards", text, seat, player=player, bid=bid, count=count))
        elif seat != declarer and count >= bid:
            text = N_(
                "{player} lays {count} bid cards: every player but the Declarer lays fewer than the bid ({bid})."
            )
            errors.append(refuse("bid_cards", text, seat, player=player, count=count, bid=bid))
    return errors


def _check_exposed(
    setup: Setup, facts: Mapping[str, Any], declarer: int | None, bid_cards: list[list[int]] | None
) -> list[FieldError]:
    value = facts.get("exposed", [])
    if not isinstance(value, list) or not all(is_int(rank) for rank in value):
        return [refuse("exposed", N_("The exposed cards are a list of ranks of the Declarer's bid cards."))]
    errors = []
    seen: set[int] = set()
    for rank in value:
        if rank in seen:
            errors.append(refuse("exposed", N_("Rank {rank} is exposed twice."), declarer, rank=rank))
        seen.add(rank)
    if declarer is not None and bid_cards is not None:
        player = setup.players[declarer]
        text = N_("Only the Declarer's own laid bid cards can be exposed: {player} laid no {rank}.")
        for rank in dict.fromkeys(value):
            if rank not in bid_cards[declarer]:
                errors.append(refuse("exposed", text, declarer, player=player, rank=rank))
    return errors


def _check_piles(
    setup: Setup, facts: Mapping[str, Any], bid_cards: list[list[int]] | None
) -> list[FieldError]:
    value = facts.get("piles_exposed")
    if value is None:
        return []
    if not per_seat(value, setup.n) or not all(isinstance(v, bool) for v in value):
        text = N_("Say for each player ({n} players) whether they exposed their pile: yes or no.")
        return [refuse("piles_exposed", text, n=setup.n)]
    errors = []
    tricks = tricks_per_deal(setup)
    if bid_cards is not None:
        text = N_("{player} laid all {tricks} bid cards: no pile is left to expose.")
        for seat, exposed in enumerate(value):
            if exposed and len(bid_cards[seat]) >= tricks:
                errors.append(refuse("piles_exposed", text, seat, player=setup.players[seat], tricks=tricks))
    return errors


def _check_pre_play(setup: Setup, facts: Mapping[str, Any]) -> tuple[list[FieldError], bool | None]:
    """Errors of the facts known before play, and whether the deal was thrown in (None if unknown)."""
    errors = require_keys(facts, FACT_KEYS, ())
    thrown_errors, thrown_in = _check_thrown_in(facts)
    errors += thrown_errors
    if thrown_in is None:
        return errors, None
    if thrown_in:
        text = N_("All passed: a thrown-in deal has no declarer, bid cards or play, so leave this out.")
        errors += [refuse(key, text) for key in facts if key in FACT_KEYS and key not in THROWN_IN_KEYS]
    else:
        errors += [missing(key, N_("This is required.")) for key in PRE_PLAY_REQUIRED if key not in facts]
    if "trump" in facts:
        errors += _check_trump(setup, facts)
    if "suits" in facts:
        errors += check_choices(facts["suits"], "suits", setup, BID_SUITS, SUIT_NAMES)[0]
    if thrown_in:
        return errors, True
    declarer = bid = bid_cards = None
    if "declarer" in facts:
        found, declarer = _check_declarer(setup, facts)
        errors += found
    if "bid" in facts:
        found, bid = _check_bid(setup, facts)
        errors += found
    if "bid_cards" in facts:
        found, bid_cards = _check_bid_cards(setup, facts)
        errors += found
    if declarer is not None and bid is not None and bid_cards is not None:
        errors += _check_bid_counts(setup, declarer, bid, bid_cards)
    errors += _check_exposed(setup, facts, declarer, bid_cards)
    errors += _check_piles(setup, facts, bid_cards)
    return errors, False


def check_setup_facts(setup: Setup, facts: Mapping[str, Any]) -> list[FieldError]:
    """Check the part of a deal entered before play: everything but trick winners and suit cards.

    ``trick_winners`` and ``suit_cards`` may be present; they are not checked here.
    """
    return _check_pre_play(setup, facts)[0]


def check_trick_winners(setup: Setup, trick_winners: Any, complete: bool = True) -> list[FieldError]:
    """Check the winners of the tricks; with ``complete=False`` a partial list (play under way) is fine."""
    tricks = tricks_per_deal(setup)
    if not isinstance(trick_winners, list):
        return [refuse("trick_winners", N_("Give the winner of each trick, in trick order."))]
    errors = []
    count = len(trick_winners)
    if count > tricks:
        text = N_("A deal has {tricks} tricks, but {count} winners are given.")
        errors.append(refuse("trick_winners", text, tricks=tricks, count=count))
    elif complete and count < tricks:
        text = N_("Give the winner of every trick: {count} of the {tricks} are given.")
        errors.append(refuse("trick_winners", text, count=count, tricks=tricks))
    if has_dummy(setup):
        text = N_(
            "Trick {trick}: the winner is one of the two players (a trick won by a dummy card belongs to whoever played it)."
        )
    else:
        text = N_("Trick {trick}: the winner must be one of the players.")
    for trick, winner in enumerate(trick_winners[:tricks], start=1):
        if not is_seat(winner, setup.n):
            errors.append(refuse("trick_winners", text, trick=trick))
    return errors


BID_WON_SHAPE = N_(
    "Give one list of bid cards won per player ({n} players); a player who won none has an empty list."
)


def check_reported(setup: Setup, facts: Mapping[str, Any]) -> tuple[list[FieldError], tuple[int, ...] | None]:
    """Check the tricks as reported after the deal (``tricks`` with ``bid_won``); with them
    right, each player's trick count (for the bid-suit cards' check), else None.

    The rules file's constraints: the counts add up to the tricks in a deal; a player's won bid
    cards are among his own laid bid cards; no two players won the same trick; a player's won bid
    cards are at most his trick count.
    """
    tricks = tricks_per_deal(setup)
    errors = [missing(key, N_("This is required.")) for key in REPORTED_KEYS if key not in facts]
    counts: list[int] | None = None
    if "tricks" in facts:
        found, counts = check_counts(facts["tricks"], "tricks", setup, 0, tricks, TRICKS, total=tricks)
        errors += found
    if "bid_won" not in facts:
        return errors, None
    value = facts["bid_won"]
    if not per_seat(value, setup.n) or not all(isinstance(cards, list) for cards in value):
        return [*errors, refuse("bid_won", BID_WON_SHAPE, n=setup.n)], None
    given = facts.get("bid_cards")
    laid: list[Any] | None = (
        given if per_seat(given, setup.n) and all(isinstance(cards, list) for cards in given) else None
    )
    owner: dict[int, int] = {}
    for seat, cards in enumerate(value):
        player = setup.players[seat]
        seen: set[int] = set()
        for rank in cards:
            if not in_range(rank, 1, tricks):
                text = N_("{player}: a bid card won names a trick from 1 to {tricks}.")
                errors.append(refuse("bid_won", text, seat, player=player, tricks=tricks))
                continue
            if rank in seen:
                text = N_("{player} won the trick of rank {rank} twice: give each card won once.")
                errors.append(refuse("bid_won", text, seat, player=player, rank=rank))
                continue
            seen.add(rank)
            if laid is not None and rank not in laid[seat]:
                text = N_(
                    "{player} laid no {rank}: a player's bid cards won are among his own laid bid cards."
                )
                errors.append(refuse("bid_won", text, seat, player=player, rank=rank))
            elif rank in owner:
                text = N_("{player} and {other} both won trick {rank}: a trick has one winner.")
                other = setup.players[owner[rank]]
                errors.append(refuse("bid_won", text, seat, player=player, other=other, rank=rank))
            else:
                owner[rank] = seat
        if counts is not None and len(cards) > counts[seat]:
            text = N_("{player} won {count} of his bid cards' tricks but only {tricks} tricks in all.")
            errors.append(refuse("bid_won", text, seat, player=player, count=len(cards), tricks=counts[seat]))
    if errors or counts is None:
        return errors, None
    return errors, tuple(counts)


def reported_form(setup: Setup, facts: Mapping[str, Any]) -> dict[str, Any]:
    """A deal's facts with ``trick_winners`` told the way the players report it (``tricks``
    with ``bid_won``); the other facts unchanged. Both forms score the deal alike."""
    winners = facts["trick_winners"]
    reported = {key: value for key, value in facts.items() if key != "trick_winners"}
    reported["tricks"] = list(trick_counts(setup, winners))
    reported["bid_won"] = [
        sorted(rank for rank in cards if rank <= len(winners) and winners[rank - 1] == seat)
        for seat, cards in enumerate(facts["bid_cards"])
    ]
    return reported


def _check_suit_cards(
    setup: Setup, facts: Mapping[str, Any], counts: tuple[int, ...] | None
) -> list[FieldError]:
    size = suit_size(setup)
    errors, value = check_counts(facts["suit_cards"], "suit_cards", setup, 0, size, SUIT_CARDS, size=size)
    if errors or counts is None:
        return errors
    assert value is not None  # check_counts gives the list whenever it finds no error
    per = cards_per_trick(setup)
    text = N_(
        "{player}: at most {most} bid-suit cards ({tricks} tricks won x {per} cards a trick), not {count}."
    )
    for seat, count in enumerate(value):
        most = counts[seat] * per
        if count > most:
            player = setup.players[seat]
            errors.append(
                refuse(
                    "suit_cards",
                    text,
                    seat,
                    player=player,
                    most=most,
                    tricks=counts[seat],
                    per=per,
                    count=count,
                )
            )
    if errors:
        return errors
    # Every card is in exactly one trick: the cards of a player's bid suit that
    # are not in his tricks must fit in the others' tricks beside their own suits.
    text = N_(
        "{player}: {count} of the {size} cards of their bid suit leaves {outside} for the other "
        "players' tricks, which have room for only {room} beside their own bid-suit cards."
    )
    for seat, count in enumerate(value):
        outside = size - count
        room = sum(counts[q] * per - value[q] for q in range(setup.n) if q != seat)
        if outside > room:
            player = setup.players[seat]
            errors.append(
                refuse(
                    "suit_cards",
                    text,
                    seat,
                    player=player,
                    count=count,
                    size=size,
                    outside=outside,
                    room=room,
                )
            )
    return errors


# -- scoring -------------------------------------------------------------------
def score_parts(setup: Setup, facts: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every part of every seat's score for a checked deal that was played (not thrown in)."""
    n = setup.n
    declarer = facts["declarer"]
    exposed = set(facts.get("exposed") or ())
    piles = facts.get("piles_exposed") or [False] * n
    mode = setup.options.get("success", "named")
    # Per seat: his trick count and the tricks he won among those his bid cards name. Either form
    # of the tricks gives both; nothing scores a trick no player bid on beyond its count.
    won: list[set[int]] = [set() for _ in range(n)]
    if "trick_winners" in facts:
        for trick, winner in enumerate(facts["trick_winners"], start=1):
            won[winner].add(trick)
        count = [len(tricks) for tricks in won]
    else:
        won = [set(cards) for cards in facts["bid_won"]]
        count = list(facts["tricks"])
    succeeded = []
    for seat, cards in enumerate(facts["bid_cards"]):
        if not cards:
            ok = False  # a player with no bid cards cannot succeed
        elif mode == "at_least":
            ok = count[seat] >= len(cards)
        elif mode == "exact":
            ok = count[seat] == len(cards)
        else:
            ok = all(rank in won[seat] for rank in cards)
        succeeded.append(ok)
    bonus = success_bonus(n, sum(succeeded))
    parts = []
    for seat, cards in enumerate(facts["bid_cards"]):
        right = sorted(r for r in cards if seat == declarer and r in exposed)
        left = sorted(r for r in cards if r not in right)
        factor = 4 if piles[seat] else 2
        part: dict[str, Any] = {
            "succeeded": succeeded[seat],
            "success": bonus if succeeded[seat] else 0,
            "bid_tricks_won": [r for r in left if r in won[seat]],
            "bid_tricks_lost": [r for r in left if r not in won[seat]],
            "right_won": [r for r in right if r in won[seat]],
            "right_lost": [r for r in right if r not in won[seat]],
            "tricks": count[seat],
            "suit_cards": facts["suit_cards"][seat],
            "suit_factor": factor,
        }
        part["bid_tricks"] = sum(part["bid_tricks_won"])
        part["right"] = 2 * sum(part["right_won"]) - 2 * sum(part["right_lost"])
        part["suit_points"] = part["suit_cards"] * factor
        part["total"] = (
            part["success"] + part["bid_tricks"] + part["right"] + part["tricks"] + part["suit_points"]
        )
        parts.append(part)
    return parts


def _right_terms(part: Mapping[str, Any]) -> str:
    """The Declarer's right-side cards as "+22 - 24"."""
    terms = [("+", 2 * r) for r in part["right_won"]] + [("-", 2 * r) for r in part["right_lost"]]
    text = ""
    for i, (sign, value) in enumerate(terms):
        text += f"{sign}{value}" if i == 0 else f" {sign} {value}"
    return text


def explain(part: Mapping[str, Any]) -> Msg:
    """One line with every part: "success 20 + bid tricks 5+11 + tricks 7 + suit cards 6 x 2 = 55"."""
    values = {
        "success": part["success"],
        "bid_tricks": "+".join(str(r) for r in part["bid_tricks_won"]) or "0",
        "tricks": part["tricks"],
        "suit_cards": part["suit_cards"],
        "factor": part["suit_factor"],
        "total": part["total"],
    }
    if part["right_won"] or part["right_lost"]:
        return msg(
            N_(
                "success {success} + bid tricks {bid_tricks} + right side ({right}) + tricks {tricks}"
                " + suit cards {suit_cards} x {factor} = {total}"
            ),
            right=_right_terms(part),
            **values,
        )
    return msg(
        N_(
            "success {success} + bid tricks {bid_tricks} + tricks {tricks} + suit cards {suit_cards} x {factor} = {total}"
        ),
        **values,
    )


# -- the game ------------------------------------------------------------------
class Abracadabra(Game):
    key = "abracadabra"
    title = N_("Abracadabra")
    player_counts = (2, 3, 4)
    options = (
        Option(
            "deals",
            N_("Number of deals"),
            None,
            minimum=1,
            maximum=100,
            nullable=True,
            help=N_(
                "Empty: as many deals as players, so each deals once (with a target: no limit). "
                "With both a number of deals and a target, the game ends at whichever comes first."
            ),
            suggestions=(2, 3, 4, 8),
        ),
        Option(
            "target",
            N_("Target score"),
            None,
            minimum=1,
            maximum=100000,
            nullable=True,
            help=N_("Empty: no target. The game ends after the deal in which a total reaches the target."),
            suggestions=(100, 200, 300),
        ),
        Option(
            "success",
            N_("Success"),
            "named",
            kind="choice",
            choices=(
                ("named", N_("Win every trick your bid cards name")),
                ("exact", N_("Win exactly as many tricks as your bid cards, whichever tricks")),
                ("at_least", N_("Win at least as many tricks as your bid cards, whichever tricks")),
            ),
        ),
        Option(
            "two_player",
            N_("Two players"),
            "dummy",
            kind="choice",
            choices=(
                ("dummy", N_("With a dummy hand (36 cards, three hands of 12)")),
                ("no_dummy", N_("No dummy (24 cards, Ace down to Nine, 12 each)")),
            ),
            help=N_("Only used when two play."),
        ),
        Option(
            "joker",
            N_("Play with the Joker"),
            True,
            kind="bool",
            help=N_(
                "The last card is turned up for trump; a turned-up Joker means No Trump. "
                "Without the Joker the Declarer names trump after laying the bid cards."
            ),
        ),
    )
    fact_keys = FACT_KEYS

    # -- setup ----------------------------------------------------------------
    def allowed_player_counts(self, options: Mapping[str, Any]) -> tuple[int, ...]:
        return self.player_counts

    # -- helpers the web layer may call on the game ------------------------------
    def tricks_per_deal(self, setup: Setup) -> int:
        return tricks_per_deal(setup)

    def check_setup_facts(self, setup: Setup, facts: Mapping[str, Any]) -> list[FieldError]:
        return check_setup_facts(setup, facts)

    def bid_trick_owners(self, facts: Mapping[str, Any], trick: int) -> tuple[int, ...]:
        return bid_trick_owners(facts, trick)

    def trick_counts(self, setup: Setup, trick_winners: Sequence[Any]) -> tuple[int, ...]:
        return trick_counts(setup, trick_winners)

    # -- deals ------------------------------------------------------------------
    def start(self, setup: Setup) -> int:
        """Deals played so far: thrown-in deals do not count toward the agreed number."""
        return 0

    def check_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> list[FieldError]:
        errors, thrown_in = _check_pre_play(setup, facts)
        if thrown_in is not False:
            return errors
        if "suit_cards" not in facts:
            errors.append(missing("suit_cards", N_("This is required.")))
        counts = None
        reported = any(key in facts for key in REPORTED_KEYS)
        if "trick_winners" in facts and reported:
            text = N_(
                "Give the tricks in one form: the winner of each trick (trick_winners), or each "
                "player's tricks and bid cards won (tricks with bid_won), not both."
            )
            errors.append(refuse("trick_winners", text))
        elif reported:
            reported_errors, counts = check_reported(setup, facts)
            errors += reported_errors
        elif "trick_winners" in facts:
            winner_errors = check_trick_winners(setup, facts["trick_winners"])
            errors += winner_errors
            if not winner_errors:
                counts = trick_counts(setup, facts["trick_winners"])
        else:
            text = N_(
                "This is required: the winner of each trick (trick_winners), or each player's "
                "tricks and bid cards won (tricks with bid_won)."
            )
            errors.append(refuse("trick_winners", text))
        if "suit_cards" in facts:
            errors += _check_suit_cards(setup, facts, counts)
        return errors

    def score_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> DealScore:
        tricks = tricks_per_deal(setup)
        played = state or 0
        if facts.get("thrown_in"):
            return DealScore(
                scores=(0,) * setup.n,
                state=played,
                explanations=tuple(msg(N_("thrown in: 0")) for _ in range(setup.n)),
                summary=msg(N_("All passed: the deal is thrown in and passes to the next dealer.")),
                detail={
                    "thrown_in": True,
                    "tricks_per_deal": tricks,
                    "declarer": None,
                    "bid": None,
                    "successes": 0,
                    "players": [],
                },
            )
        parts = score_parts(setup, facts)
        winners = [setup.players[s] for s, p in enumerate(parts) if p["succeeded"]]
        if winners:
            note = msg(
                N_("Succeeded: {players} ({points} each)."),
                players=", ".join(winners),
                points=success_bonus(setup.n, len(winners)),
            )
        else:
            note = msg(N_("Nobody succeeded."))
        declarer = facts["declarer"]
        return DealScore(
            scores=tuple(p["total"] for p in parts),
            explanations=tuple(explain(p) for p in parts),
            summary=msg(
                N_("{player} declared {bid}; trump: {trump}"),
                player=setup.players[declarer],
                bid=facts["bid"],
                trump=Msg(TRUMPS[facts["trump"]]),
            )
            if facts.get("trump") is not None
            else msg(N_("{player} declared {bid}"), player=setup.players[declarer], bid=facts["bid"]),
            notes=(note,),
            state=played + 1,
            detail={
                "thrown_in": False,
                "tricks_per_deal": tricks,
                "declarer": declarer,
                "bid": facts["bid"],
                "successes": len(winners),
                "players": parts,
            },
        )

    def random_deal(self, setup: Setup, state: Any, dealer: int, rng: random.Random) -> dict[str, Any]:
        n, tricks = setup.n, tricks_per_deal(setup)
        suits = rng.sample(SUITS, n)
        trump = rng.choice(list(TRUMPS if setup.options.get("joker", True) else SUITS))
        if rng.random() < 0.08:
            facts: dict[str, Any] = {"thrown_in": True}
            if rng.random() < 0.5:
                facts.update(trump=trump, suits=suits)
            return facts
        declarer = rng.randrange(n)
        bid = min(rng.randint(1, tricks), rng.randint(1, tricks))
        bid_cards = []
        for seat in range(n):
            count = bid if seat == declarer else rng.randint(0, bid - 1)
            bid_cards.append(sorted(rng.sample(range(1, tricks + 1), count)))
        exposed = []
        if rng.random() < 0.4:
            exposed = sorted(rng.sample(bid_cards[declarer], rng.randint(1, bid)))
        piles = [rng.random() < 0.25 and len(bid_cards[s]) < tricks for s in range(n)]
        winners = []
        for trick in range(1, tricks + 1):
            owners = [s for s in range(n) if trick in bid_cards[s]]
            winners.append(rng.choice(owners) if owners and rng.random() < 0.6 else rng.randrange(n))
        # Deal the whole pack into the won tricks to get counts that can happen.
        pack = [suit for suit in SUITS for _ in range(suit_size(setup))]
        rng.shuffle(pack)
        suit_cards, start = [], 0
        per = cards_per_trick(setup)
        for seat, count in enumerate(trick_counts(setup, winners)):
            taken = pack[start : start + count * per]
            start += count * per
            suit_cards.append(taken.count(suits[seat]))
        return {
            "trump": trump,
            "suits": suits,
            "declarer": declarer,
            "bid": bid,
            "bid_cards": bid_cards,
            "exposed": exposed,
            "piles_exposed": piles,
            "trick_winners": winners,
            "suit_cards": suit_cards,
        }

    # -- the end ----------------------------------------------------------------
    def reached_end(self, setup: Setup, totals: tuple[int, ...], deals_played: int, state: Any) -> bool:
        deals, target = end_condition(setup)
        if target is not None and totals and max(totals) >= target:
            return True
        played = deals_played if state is None else state
        return deals is not None and played >= deals

    def planned_deals(self, setup: Setup) -> int | None:
        deals, target = end_condition(setup)
        return deals if target is None else None

    def counted_deals(self, result: GameResult) -> int:
        return result.state or 0
