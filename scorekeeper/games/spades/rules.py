"""Spades: 2-5 players on their own ("cutthroat", the original), or 4 in two pairs.

See ``shared/rules/spades.md``. Facts per deal: ``bids`` (one int per
player; 0 is nil, partnership only), ``tricks`` (one int per player, summing
to the tricks per deal) and, in the partnership game only, an optional
``blind`` (one bool per player: that player's nil was bid blind).

Scoring in brief (the rules file is authoritative):

- Cutthroat: made (tricks >= bid) scores 10 x bid + 1 per overtrick (bag);
  set scores 0, or -10 x bid with the ``set_penalty`` option. With the
  ``sandbags`` option each player's bags accumulate and every 10 cost 100.
- Partnership (seats 0+2 and 1+3): the pair's contract is the sum of its
  non-nil bids and its tricks the sum of both members' tricks (a nil
  bidder's included); made 10 x contract + bags, set -10 x contract; each
  nil +/-100 (blind nil +/-200) on top; bags always accumulate per pair.

Decisions where the rules are silent (also in the module's tests):

- Options that belong to the other mode are accepted and ignored, never
  refused: in the partnership game a set always costs the contract and bags
  always count (so ``set_penalty`` and ``sandbags`` change nothing there);
  in cutthroat there is no nil, so ``blind_nil`` changes nothing.
- ``lose_at`` (a floor below zero, or null) applies in both modes: after a
  deal in which any side (a player in cutthroat, a pair in partnership) has
  a total at or below the floor, the game ends just as when the target is
  reached, and the highest total wins; a tie for the top plays another deal.
  When one side alone falls, every other side is above it, so "a pair at
  the floor loses" holds; cutthroat cannot drop one player and play on (the
  tricks per deal depend on the number of players), so the whole game ends.
- Bag penalties: every full 10 of the bags held after the deal costs 100,
  so a deal that brings the count from 8 to 33 costs 300 and leaves 3.
- Two nils in one pair: the contract is 0, always made, so every trick the
  pair wins is a bag (the rule counts the nil bidders' tricks as the pair's).
- A set scores no bags; a set pair's bag count is unchanged.
- ``blind`` marks a bid of 0 as blind nil; a blind mark on a bid other than
  0, or any blind mark when the ``blind_nil`` option is off, is refused; a
  list of all ``false`` is accepted in the partnership game. ``blind`` null
  is the same as leaving it out. In cutthroat the ``blind`` fact is refused.
- The score state (bags held) is per seat; both seats of a pair carry the
  pair's count. Without the sandbags rule (cutthroat, option off) no bags
  are held and ``detail["bags"]`` is ``None``.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ...rules import hands as fixed_hands
from ...rules.base import (
    N_,
    DealScore,
    FieldError,
    Game,
    Msg,
    Option,
    Setup,
    check_counts,
    in_range,
    is_int,
    missing,
    msg,
    nmsg,
    per_seat,
    refuse,
    require_keys,
)

CUTTHROAT = "cutthroat"
PARTNERSHIP = "partnership"

# Tricks per deal by number of players, with and without the two jokers.
TRICKS_WITH_JOKERS = {2: 26, 3: 18, 4: 13, 5: 10}
TRICKS_WITHOUT_JOKERS = {2: 26, 3: 17, 4: 13, 5: 10}

BAG_LIMIT = 10
BAG_PENALTY = 100
NIL_POINTS = 100
BLIND_NIL_POINTS = 200


# -- pure helpers the web layer calls ---------------------------------------
def tricks_for(players: int, jokers: bool = True) -> int:
    """Tricks per deal for ``players`` seats (the same for cutthroat and pairs)."""
    table = TRICKS_WITH_JOKERS if jokers else TRICKS_WITHOUT_JOKERS
    if players not in table:
        raise ValueError(f"Spades is played by 2 to 5 players, not {players}")
    return table[players]


def is_partnership(setup: Setup) -> bool:
    mode: str = setup.options.get("mode", CUTTHROAT)
    return mode == PARTNERSHIP


def tricks_per_deal(setup: Setup) -> int:
    """How many tricks each deal has under this setup (the page shows it)."""
    return tricks_for(setup.n, bool(setup.options.get("jokers", True)))


def bid_range(setup: Setup) -> tuple[int, int]:
    """Lowest and highest bid: 1..tricks in cutthroat, 0 (nil)..13 in pairs."""
    return (0 if is_partnership(setup) else 1), tricks_per_deal(setup)


def blind_allowed(setup: Setup) -> bool:
    """Whether a player may bid blind nil (partnership with the option on)."""
    return is_partnership(setup) and bool(setup.options.get("blind_nil", True))


def counts_bags(setup: Setup) -> bool:
    """Whether bags accumulate (10 cost 100): always in pairs, by option in cutthroat."""
    return is_partnership(setup) or bool(setup.options.get("sandbags", False))


def set_costs_bid(setup: Setup) -> bool:
    """Whether a set scores -10 x bid: always in pairs, by option in cutthroat."""
    return is_partnership(setup) or bool(setup.options.get("set_penalty", False))


def sides_of(setup: Setup) -> tuple[tuple[int, ...], ...]:
    """The scoring units: each seat alone, or the pairs 0+2 and 1+3."""
    if is_partnership(setup) and setup.n == 4:
        return ((0, 2), (1, 3))
    return tuple((s,) for s in range(setup.n))


def side_name(setup: Setup, side: Sequence[int]) -> Msg | str:
    if len(side) == 1:
        return setup.players[side[0]]
    return msg(N_("{first} & {second}"), first=setup.players[side[0]], second=setup.players[side[1]])


def check_bids(setup: Setup, facts: Mapping[str, Any]) -> list[FieldError]:
    """Check the first half of a deal: ``bids`` and (pairs only) ``blind``.

    Other keys are ignored here, so the web layer can check the bids before
    the tricks are known; :meth:`Spades.check_deal` checks the whole deal.
    """
    errors: list[FieldError] = []
    lo, hi = bid_range(setup)
    bids = facts.get("bids")
    if "bids" not in facts:
        errors.append(missing("bids", N_("This is required.")))
    elif not per_seat(bids, setup.n):
        errors.append(refuse("bids", N_("Give one bid per player ({n} players)."), n=setup.n))
    else:
        for seat, bid in enumerate(bids):
            player = setup.players[seat]
            if is_int(bid) and bid == 0 and lo == 1:
                text = N_("{player}: nil (0) is only bid in the partnership game; bid from 1 to {hi}.")
                errors.append(refuse("bids", text, seat, player=player, hi=hi))
            elif bid is None:  # a choice still to make, not a wrong number
                errors.append(missing("bids", N_("Choose {player}'s bid."), seat, player=player))
            elif not in_range(bid, lo, hi):
                text = N_("{player}: a bid is a whole number from {lo} to {hi}.")
                errors.append(refuse("bids", text, seat, player=player, lo=lo, hi=hi))
    errors += _check_blind(setup, facts)
    return errors


def _check_blind(setup: Setup, facts: Mapping[str, Any]) -> list[FieldError]:
    blind = facts.get("blind")
    if blind is None:
        return []
    if not is_partnership(setup):
        return [refuse("blind", N_("Blind nil is only bid in the partnership game."))]
    if not per_seat(blind, setup.n) or not all(isinstance(b, bool) for b in blind):
        return [refuse("blind", N_("Give one yes or no per player ({n} players) for blind nil."), n=setup.n)]
    bids = facts.get("bids")
    lo, hi = bid_range(setup)
    errors = []
    for seat, is_blind in enumerate(blind):
        if not is_blind:
            continue
        player = setup.players[seat]
        if not blind_allowed(setup):
            text = N_("{player}: blind nil is not played in this game (the option is off).")
            errors.append(refuse("blind", text, seat, player=player))
        elif per_seat(bids, setup.n) and in_range(bids[seat], lo + 1, hi):
            # (A bid out of range is reported under "bids".)
            text = N_("{player}: a blind bid is a blind nil, so the bid must be 0 (nil).")
            errors.append(refuse("blind", text, seat, player=player))
    return errors


def check_tricks(setup: Setup, facts: Mapping[str, Any]) -> list[FieldError]:
    """Check ``tricks``: one whole number per player, summing to the tricks per deal."""
    if "tricks" not in facts:
        return [missing("tricks", N_("This is required."))]
    total = tricks_per_deal(setup)
    return check_counts(facts["tricks"], "tricks", setup, 0, total, total=total)[0]


# -- explanations --------------------------------------------------------------
def _number(value: int) -> Msg:
    return msg("{n}", n=value)


def _bags_word(count: int) -> Msg:
    return nmsg("bag", "bags", count)


def _calculation(first: Msg, first_value: int, extras: Sequence[tuple[int, Msg]]) -> tuple[int, Msg]:
    """``first`` then each signed extra ("+ 3 bags", "- 100 (10 bags)"), then "= total"."""
    total = first_value + sum(value for value, _ in extras)
    line = first
    for value, what in extras:
        template = "{acc} + {n} {what}" if value >= 0 else "{acc} - {n} {what}"
        line = msg(template, acc=line, n=abs(value), what=what)
    if extras:
        line = msg("{acc} = {total}", acc=line, total=total)
    return total, line


def _sum_line(values: Sequence[Msg], total: int | None) -> Msg:
    line = values[0]
    for value in values[1:]:
        line = msg("{acc} + {n}", acc=line, n=value)
    if total is not None and len(values) > 1:
        line = msg("{acc} = {total}", acc=line, total=total)
    return line


class Spades(Game):
    key = "spades"
    title = N_("Spades")
    player_counts = (2, 3, 4, 5)
    options = (
        Option(
            "mode",
            N_("Seating"),
            CUTTHROAT,
            kind="choice",
            choices=(
                (CUTTHROAT, N_("Each player on their own (cutthroat), 2-5 players")),
                (PARTNERSHIP, N_("Two pairs, partners opposite (4 players)")),
            ),
        ),
        Option(
            "jokers",
            N_("Play with the two jokers"),
            True,
            kind="bool",
            help=N_(
                "The jokers are the two highest trumps; they change the cards removed and the tricks per deal."
            ),
        ),
        Option(
            "target",
            N_("Target score"),
            500,
            minimum=1,
            suggestions=(500, 200),
            help=N_("500 is the usual game, 200 a short one."),
        ),
        Option(
            "sandbags",
            N_("Sandbags: every 10 bags cost 100"),
            False,
            kind="bool",
            help=N_("Cutthroat only: pairs always count their bags."),
        ),
        Option(
            "set_penalty",
            N_("A set costs 10 per trick bid"),
            False,
            kind="bool",
            help=N_("Cutthroat only: otherwise a set scores 0. A set pair always loses its contract."),
        ),
        Option(
            "blind_nil",
            N_("Blind nil allowed"),
            True,
            kind="bool",
            help=N_("Pairs only: a nil bid before looking at the cards scores 200 or loses 200."),
        ),
        Option(
            "lose_at",
            N_("Lose at (floor)"),
            None,
            minimum=-10000,
            maximum=-1,
            nullable=True,
            suggestions=(-200,),
            help=N_(
                "Empty for no floor. A side at or below this total after a deal ends the game; "
                "the highest total wins. Usual: -200."
            ),
        ),
        *fixed_hands.OPTIONS,
    )
    fact_keys = ("bids", "tricks", "blind")

    # -- setup ---------------------------------------------------------------
    def allowed_player_counts(self, options: Mapping[str, Any]) -> tuple[int, ...]:
        if options.get("mode") == PARTNERSHIP:
            return (4,)
        return self.player_counts

    def option_in_force(self, key: str, options: Mapping[str, Any]) -> bool:
        # Sandbags and a set's penalty are cutthroat rules; blind nil is a partnership's.
        pairs = options.get("mode") == PARTNERSHIP
        if key in ("sandbags", "set_penalty") and pairs or key == "blind_nil" and not pairs:
            return False
        return super().option_in_force(key, options)

    def sides(self, setup: Setup) -> tuple[tuple[int, ...], ...]:
        return sides_of(setup)

    def check_setup(self, setup: Setup) -> list[FieldError]:
        if setup.n not in self.allowed_player_counts(setup.options):
            if is_partnership(setup):
                return [refuse("players", N_("The partnership game is for 4 players in two pairs."))]
            return [refuse("players", N_("Spades on your own is for 2 to 5 players."))]
        return []

    # -- the two-step entry, as methods for callers holding the game ---------
    def tricks_per_deal(self, setup: Setup) -> int:
        return tricks_per_deal(setup)

    def check_bids(self, setup: Setup, facts: Mapping[str, Any]) -> list[FieldError]:
        return check_bids(setup, facts)

    # -- deals ---------------------------------------------------------------
    def start(self, setup: Setup) -> tuple[int, ...]:
        """Bags held per seat (both seats of a pair hold the pair's count)."""
        return (0,) * setup.n

    def check_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> list[FieldError]:
        errors = require_keys(facts, self.fact_keys, ())
        errors += check_bids(setup, facts)
        errors += check_tricks(setup, facts)
        return errors

    def random_deal(self, setup: Setup, state: Any, dealer: int, rng: random.Random) -> dict[str, Any]:
        total = tricks_per_deal(setup)
        tricks = [0] * setup.n
        for _ in range(total):
            tricks[rng.randrange(setup.n)] += 1
        lo, hi = bid_range(setup)
        bids, blind = [], []
        for won in tricks:
            roll = rng.random()
            if lo == 0 and roll < 0.15:
                bids.append(0)
                blind.append(blind_allowed(setup) and rng.random() < 0.3)
                continue
            # Mostly a bid near what was won (so most contracts are made), else any bid.
            bid = won + rng.randint(-2, 2) if roll < 0.8 else rng.randint(lo, hi)
            bids.append(min(max(bid, 1), hi))
            blind.append(False)
        facts: dict[str, Any] = {"bids": bids, "tricks": tricks}
        if is_partnership(setup) and (any(blind) or rng.random() < 0.3):
            facts["blind"] = blind
        return facts

    def score_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> DealScore:
        bids, tricks = facts["bids"], facts["tricks"]
        blind = facts.get("blind") or [False] * setup.n
        held = tuple(state) if state is not None else self.start(setup)
        counted = counts_bags(setup)
        scores = [0] * setup.n
        explanations: list[Msg] = [Msg("")] * setup.n
        bags_after = list(held)
        bags_won = [0] * setup.n
        penalised = [False] * setup.n
        made_list = [False] * setup.n
        nil_made: list[bool | None] = [None] * setup.n
        notes = []
        for side in sides_of(setup):
            if len(side) == 1:
                contract, won = bids[side[0]], tricks[side[0]]
                nils: tuple[int, ...] = ()
            else:
                contract = sum(bids[s] for s in side if bids[s] > 0)
                won = sum(tricks[s] for s in side)
                nils = tuple(s for s in side if bids[s] == 0)
            made = won >= contract
            extras: list[tuple[int, Msg]] = []
            if made:
                first, first_value = _number(10 * contract), 10 * contract
                over = won - contract
                if over:
                    extras.append((over, _bags_word(over)))
            else:
                first_value = -10 * contract if set_costs_bid(setup) else 0
                first = msg(N_("set {points}"), points=first_value)
                over = 0
            bags = held[side[0]]
            penalties = 0
            if counted:
                bags += over
                penalties, bags = divmod(bags, BAG_LIMIT)
                if penalties:
                    extras.append(
                        (
                            -BAG_PENALTY * penalties,
                            msg(N_("({bags} bags)"), bags=BAG_LIMIT * penalties),
                        )
                    )
                    notes.append(
                        msg(
                            N_("{side}: {bags} bags cost {points} (bags now {left})."),
                            side=side_name(setup, side),
                            bags=BAG_LIMIT * penalties,
                            points=BAG_PENALTY * penalties,
                            left=bags,
                        )
                    )
            for s in nils:
                value = BLIND_NIL_POINTS if blind[s] else NIL_POINTS
                player = setup.players[s]
                if tricks[s] == 0:
                    what = N_("({player}'s blind nil)") if blind[s] else N_("({player}'s nil)")
                    extras.append((value, msg(what, player=player)))
                else:
                    what = N_("({player}'s blind nil failed)") if blind[s] else N_("({player}'s nil failed)")
                    extras.append((-value, msg(what, player=player)))
            points, calculation = _calculation(first, first_value, extras)
            line = self._explain(setup, side, bids, tricks, blind, contract, won, calculation)
            for s in side:
                scores[s] = points
                explanations[s] = line
                bags_after[s] = bags
                bags_won[s] = over
                penalised[s] = penalties > 0
                made_list[s] = made
                if bids[s] == 0 and len(side) > 1:
                    nil_made[s] = tricks[s] == 0
        detail = {
            "tricks_per_deal": tricks_per_deal(setup),
            "bags": list(bags_after) if counted else None,
            "bags_won": bags_won,
            "bag_penalty": penalised,
            "made": made_list,
            "nil_made": nil_made,
        }
        return DealScore(
            scores=tuple(scores),
            explanations=tuple(explanations),
            state=tuple(bags_after),
            notes=tuple(notes),
            detail=detail,
        )

    @staticmethod
    def _explain(
        setup: Setup,
        side: Sequence[int],
        bids: Sequence[int],
        tricks: Sequence[int],
        blind: Sequence[bool],
        contract: int,
        won: int,
        calculation: Msg,
    ) -> Msg:
        if len(side) == 1:
            return msg(N_("bid {bid}, won {won}: {calc}"), bid=contract, won=won, calc=calculation)
        shown = []
        for s in side:
            if bids[s] == 0:
                shown.append(Msg(N_("blind nil")) if blind[s] else Msg(N_("nil")))
            else:
                shown.append(_number(bids[s]))
        has_nil = any(bids[s] == 0 for s in side)
        return msg(
            N_("bid {bids}, won {won}: {calc}"),
            bids=_sum_line(shown, None if has_nil else contract),
            won=_sum_line([_number(tricks[s]) for s in side], won),
            calc=calculation,
        )

    # -- end of the game -----------------------------------------------------
    def planned_deals(self, setup: Setup) -> int | None:
        return fixed_hands.hands(setup)

    def reached_end(self, setup: Setup, totals: tuple[int, ...], deals_played: int, state: Any) -> bool:
        """After a deal in which a side reaches the target or falls to the floor, or after the
        game's fixed number of hands (then neither target nor floor is used)."""
        hands = fixed_hands.hands(setup)
        if hands is not None:
            return deals_played >= hands
        target = setup.options.get("target", 500)
        floor = setup.options.get("lose_at")
        if any(t >= target for t in totals):
            return True
        return floor is not None and any(t <= floor for t in totals)

    def decide(self, setup: Setup, totals: tuple[int, ...], state: Any) -> tuple[int, ...]:
        if fixed_hands.hands(setup) is not None:
            return fixed_hands.decide(setup, totals, self.sides(setup))
        return super().decide(setup, totals, state)
