"""Euchre: four players in two fixed pairs (seats 0+2 and 1+3), first pair to the target wins.

See ``shared/rules/euchre.md``. Facts per deal: ``thrown_in`` (optional; when
true nothing else is given), ``trump`` (a suit), ``round`` (1 = the turned-up
suit, 2 = named; optional), ``turned_up`` (a suit, optional: a round-2
trump differs from it, a round-1 trump is it), ``maker`` (seat), ``alone``
(false, true = the maker, or the seat of the making pair's lone player:
either maker may play alone; JSON ``true`` is not seat 1),
``defender_alone`` (seat or null; optional, absent means null) and
``maker_tricks`` (0-5). Only one pair scores in a deal:

==========================================  =====================
makers win 3 or 4 tricks (alone or not)     makers 1
makers win all 5                            makers 2
lone maker wins all 5                       makers 4
makers win fewer than 3 (euchred)           defenders 2
lone defender's pair wins all 5             defenders 4
==========================================  =====================

Options: ``lone_defender_four`` = "euchre" gives a lone defender 4 for any
euchre; ``lone_maker_euchred`` = 4 gives the defenders 4 when a lone maker
is euchred. When several rules apply to one euchre, the defenders take the
highest (never more than 4).

Who leads: the player left of the dealer, or, when that player sits out
(the partner of a lone maker or of a lone defender), the next player
clockwise who plays; see :func:`leader`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from ...rules import hands as fixed_hands
from ...rules.base import (
    N_,
    DealScore,
    FieldError,
    Game,
    GameResult,
    Msg,
    Option,
    Setup,
    in_range,
    is_int,
    is_seat,
    leading_seats,
    missing,
    msg,
    nmsg,
    one_of,
    refuse,
    require_keys,
)

SEATS = 4
TRICKS = 5
TO_MAKE = 3  # the makers must win at least this many tricks

SUITS = {
    "S": N_("Spades"),
    "H": N_("Hearts"),
    "D": N_("Diamonds"),
    "C": N_("Clubs"),
}

MADE = 1
MARCH = 2
LONE_MARCH = 4
EUCHRE = 2
LONE_FOUR = 4

DEFAULTS = {
    "target": 10,
    "stick_the_dealer": True,
    "defend_alone": True,
    "lone_defender_four": "march",
    "lone_maker_euchred": 2,
    "hands": None,
    "hands_tiebreak": False,
}


# -- pure helpers the web layer may call -----------------------------------------


def partner(seat: int) -> int:
    """The seat opposite ``seat``: its partner."""
    return (seat + 2) % SEATS


def pair_of(seat: int) -> tuple[int, int]:
    """Both seats of the pair ``seat`` belongs to, lower seat first: (0, 2) or (1, 3)."""
    return (seat % 2, seat % 2 + 2)


def pair_name(setup: Setup, seat: int) -> Msg:
    """The pair of ``seat`` in words, lower seat first: "Ann & Cid"."""
    first, second = pair_of(seat)
    return msg(N_("{first} & {second}"), first=setup.players[first], second=setup.players[second])


def lone_maker(facts: Mapping[str, Any]) -> int | None:
    """The seat of the making pair's lone player, or None; ``facts`` must be valid.

    ``alone`` is a bool or a seat, and seat 0 is falsy: never test it for truth.
    """
    alone = facts.get("alone")
    if alone is True:
        maker: int = facts["maker"]
        return maker
    if is_int(alone):
        return alone
    return None


def sitting_out(facts: Mapping[str, Any] | None) -> tuple[int, ...]:
    """Seats that sit the deal out: the partner of a lone maker and of a lone defender.

    ``facts`` must be valid (see :meth:`Euchre.check_deal`); a thrown-in deal
    or no facts at all means nobody sits out.
    """
    if not facts or facts.get("thrown_in"):
        return ()
    out = []
    lone = lone_maker(facts)
    if lone is not None:
        out.append(partner(lone))
    defender = facts.get("defender_alone")
    if defender is not None:
        out.append(partner(defender))
    return tuple(sorted(out))


def leader(setup: Setup, dealer: int, facts: Mapping[str, Any] | None = None) -> int:
    """The seat that leads the first trick.

    Without facts (before trump is fixed, e.g. for the next deal on the
    scoreboard) it is the player left of the dealer. With a deal's facts, a
    seat that sits out (partner of a lone player) is skipped and the lead
    passes on clockwise to the next player who plays.
    """
    out = set(sitting_out(facts))
    seat = (dealer + 1) % setup.n
    while seat in out:
        seat = (seat + 1) % setup.n
    return seat


def tricks_words(tricks: int) -> Msg:
    return nmsg("{n} trick", "{n} tricks", tricks, n=tricks)


def option(setup: Setup, key: str) -> Any:
    """An option's value, its default when the setup does not carry it."""
    return setup.options.get(key, DEFAULTS[key])


def deal_points(
    options: Mapping[str, Any], facts: Mapping[str, Any]
) -> tuple[tuple[int, ...], int, Msg | None]:
    """Who scores and how much: (seats of the scoring pair, points, reason or None).

    ``facts`` must be valid; a thrown-in deal scores nothing: ((), 0, None).
    """
    if facts.get("thrown_in"):
        return (), 0, None
    maker, tricks = facts["maker"], facts["maker_tricks"]
    alone = lone_maker(facts) is not None
    lone_defender = facts.get("defender_alone") is not None
    if tricks >= TO_MAKE:
        makers = pair_of(maker)
        if tricks < TRICKS:
            return makers, MADE, None
        if alone:
            return makers, LONE_MARCH, msg(N_("lone maker took all 5 tricks"))
        return makers, MARCH, msg(N_("march: all 5 tricks"))
    defenders = pair_of(maker + 1)
    if lone_defender and tricks == 0:
        return defenders, LONE_FOUR, msg(N_("lone defender's pair took all 5 tricks"))
    if lone_defender and options.get("lone_defender_four", DEFAULTS["lone_defender_four"]) == "euchre":
        return defenders, LONE_FOUR, msg(N_("lone defender: any euchre counts 4"))
    if alone and options.get("lone_maker_euchred", DEFAULTS["lone_maker_euchred"]) == 4:
        return defenders, LONE_FOUR, msg(N_("lone maker euchred counts 4"))
    return defenders, EUCHRE, None


class Euchre(Game):
    key = "euchre"
    title = N_("Euchre")
    player_counts = (4,)
    options = (
        Option(
            "target",
            N_("Points to win"),
            DEFAULTS["target"],
            minimum=1,
            help=N_("The first pair to reach this score wins."),
            suggestions=(5, 7, 10, 11),
        ),
        Option(
            "stick_the_dealer",
            N_("Stick the dealer"),
            DEFAULTS["stick_the_dealer"],
            kind="bool",
            help=N_(
                "On: the dealer must name trump. Off: the dealer may pass too and the deal is thrown in."
            ),
        ),
        Option(
            "defend_alone",
            N_("A defender may play alone"),
            DEFAULTS["defend_alone"],
            kind="bool",
        ),
        Option(
            "lone_defender_four",
            N_("A lone defender's pair scores 4"),
            DEFAULTS["lone_defender_four"],
            kind="choice",
            choices=(
                ("march", N_("only when it takes all 5 tricks")),
                ("euchre", N_("for any euchre")),
            ),
        ),
        Option(
            "lone_maker_euchred",
            N_("A lone maker euchred gives the defenders"),
            DEFAULTS["lone_maker_euchred"],
            kind="choice",
            choices=((2, N_("2 points")), (4, N_("4 points"))),
        ),
        *fixed_hands.OPTIONS,
    )
    fact_keys = (
        "thrown_in",
        "trump",
        "round",
        "turned_up",
        "maker",
        "alone",
        "defender_alone",
        "maker_tricks",
    )

    def sides(self, setup: Setup) -> tuple[tuple[int, ...], ...]:
        return ((0, 2), (1, 3))

    # -- checking ----------------------------------------------------------------

    def check_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> list[FieldError]:
        thrown_in = facts.get("thrown_in", False)
        if thrown_in is not None and not isinstance(thrown_in, bool):
            return [refuse("thrown_in", N_("Thrown in is yes or no."))]
        if thrown_in:
            return self._check_thrown_in(setup, facts)
        errors = require_keys(facts, self.fact_keys, ("trump", "maker", "alone", "maker_tricks"))
        if errors:
            return errors
        if facts["trump"] is None:
            errors.append(missing("trump", N_("Choose trump.")))
        elif not one_of(facts["trump"], SUITS):
            errors.append(
                refuse("trump", N_("Trump is one of the four suits: spades, hearts, diamonds or clubs."))
            )
        round_ = facts.get("round")
        if round_ is not None and not in_range(round_, 1, 2):
            text = N_("The round is 1 (the turned-up suit) or 2 (a suit named after everyone passed).")
            errors.append(refuse("round", text))
        errors += self._check_turned_up(facts, round_)
        maker = facts["maker"]
        maker_ok = is_seat(maker, SEATS)
        if maker is None:
            errors.append(missing("maker", N_("Choose the maker.")))
        elif not maker_ok:
            errors.append(refuse("maker", N_("The maker is one of the four players.")))
        alone = facts["alone"]
        lone = None
        if isinstance(alone, bool):
            lone = maker if alone and maker_ok else None
        elif not is_seat(alone, SEATS):
            text = N_("Maker alone is no, yes (the maker), or the seat of the makers' lone player.")
            errors.append(refuse("alone", text))
        elif maker_ok and alone not in pair_of(maker):
            text = N_(
                "Only a player of the making pair can play alone for it: "
                "{player} is not in {pair}. The lone maker is {first} or {second}."
            )
            first, second = pair_of(maker)
            errors.append(
                refuse(
                    "alone",
                    text,
                    alone,
                    player=setup.players[alone],
                    pair=pair_name(setup, maker),
                    first=setup.players[first],
                    second=setup.players[second],
                )
            )
        elif maker_ok:
            lone = alone
        if facts["maker_tricks"] is None:
            errors.append(missing("maker_tricks", N_("Choose the makers' tricks.")))
        elif not in_range(facts["maker_tricks"], 0, TRICKS):
            text = N_("The makers' tricks are a whole number from 0 to {hi}: a deal has {hi} tricks.")
            errors.append(refuse("maker_tricks", text, hi=TRICKS))
        defender = facts.get("defender_alone")
        if defender is not None:
            errors += self._check_defender(setup, defender, maker if maker_ok else None, lone)
        return errors

    def _check_turned_up(self, facts: Mapping[str, Any], round_: Any) -> list[FieldError]:
        if "turned_up" not in facts or facts["turned_up"] is None:
            return []
        turned = facts["turned_up"]
        if not one_of(turned, SUITS):
            text = N_("The turned-up suit is one of the four suits: spades, hearts, diamonds or clubs.")
            return [refuse("turned_up", text)]
        trump = facts.get("trump")
        if not one_of(trump, SUITS):
            return []
        if round_ == 2 and trump == turned:
            # In round 2 everyone passed the turned-up suit, so it cannot be named.
            text = N_("A trump named in round 2 differs from the turned-up suit ({suit}).")
            return [refuse("trump", text, suit=Msg(SUITS[turned]))]
        if round_ == 1 and trump != turned:
            text = N_("A trump accepted in round 1 is the turned-up suit ({suit}).")
            return [refuse("trump", text, suit=Msg(SUITS[turned]))]
        return []

    def _check_thrown_in(self, setup: Setup, facts: Mapping[str, Any]) -> list[FieldError]:
        errors = require_keys(facts, self.fact_keys, ())
        if errors:
            return errors
        if option(setup, "stick_the_dealer"):
            text = N_("With stick the dealer on, the dealer may not pass, so a deal cannot be thrown in.")
            errors.append(refuse("thrown_in", text))
        for key, value in facts.items():
            if key not in ("thrown_in", "dealer") and value is not None:
                errors.append(refuse(key, N_("A thrown-in deal is not played: leave this empty.")))
        return errors

    def _check_defender(
        self, setup: Setup, defender: Any, maker: int | None, lone: int | None
    ) -> list[FieldError]:
        if not is_seat(defender, SEATS):
            return [refuse("defender_alone", N_("The lone defender is one of the players, or nobody."))]
        if not option(setup, "defend_alone"):
            text = N_("Defending alone is not played in this game (see the options): choose nobody.")
            return [refuse("defender_alone", text, defender)]
        if maker is None or defender not in pair_of(maker):
            return []
        first, second = pair_of(maker + 1)
        names = {
            "player": setup.players[defender],
            "first": setup.players[first],
            "second": setup.players[second],
        }
        if lone is not None and defender == partner(lone):
            text = N_(
                "At most one player per side plays alone: {maker} plays alone, "
                "so {player} sits out. The lone defender is {first} or {second}, or nobody."
            )
            return [refuse("defender_alone", text, defender, maker=setup.players[lone], **names)]
        text = N_(
            "The maker and the lone defender are in different pairs: "
            "{player} is in the makers' pair ({pair}). "
            "The lone defender is {first} or {second}, or nobody."
        )
        return [refuse("defender_alone", text, defender, pair=pair_name(setup, maker), **names)]

    # -- scoring -----------------------------------------------------------------

    def score_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> DealScore:
        scored = self._score_deal(setup, facts, dealer)
        if fixed_hands.hands(setup) is None:
            return scored
        # A game of so many hands counts them in its state; a thrown-in hand does not count.
        return replace(scored, state=(state or 0) + (0 if facts.get("thrown_in") else 1))

    def _score_deal(self, setup: Setup, facts: Mapping[str, Any], dealer: int) -> DealScore:
        lead = leader(setup, dealer, facts)
        if facts.get("thrown_in"):
            line = msg(N_("0: thrown in, everyone passed"))
            return DealScore(
                (0,) * SEATS,
                (line,) * SEATS,
                summary=msg(N_("Thrown in: everyone passed, nobody scores")),
                detail={
                    "thrown_in": True,
                    "result": "thrown_in",
                    "makers": [],
                    "scoring_pair": [],
                    "points": 0,
                    "sitting_out": [],
                    "leader": lead,
                },
            )
        options = {key: option(setup, key) for key in DEFAULTS}
        scoring, points, reason = deal_points(options, facts)
        maker, tricks = facts["maker"], facts["maker_tricks"]
        made = tricks >= TO_MAKE
        context = self._context(setup, facts)
        if made:
            line = msg(
                N_("{context}, {tricks}: {points} for {pair}"),
                context=context,
                tricks=tricks_words(tricks),
                points=points,
                pair=pair_name(setup, maker),
            )
        else:
            line = msg(
                N_("{context}, {tricks}, euchred: {points} for {pair}"),
                context=context,
                tricks=tricks_words(tricks),
                points=points,
                pair=pair_name(setup, scoring[0]),
            )
        if reason is not None:
            line = msg(N_("{line} ({reason})"), line=line, reason=reason)
        other = msg(N_("0 ({pair} scored)"), pair=pair_name(setup, scoring[0]))
        scores = tuple(points if seat in scoring else 0 for seat in range(SEATS))
        explanations = tuple(line if seat in scoring else other for seat in range(SEATS))
        out = sitting_out(facts)
        notes = tuple(msg(N_("{player} sits out."), player=setup.players[seat]) for seat in out)
        if out:
            notes += (msg(N_("{player} leads."), player=setup.players[lead]),)
        if tricks == TRICKS:
            result = "march"
        elif made:
            result = "made"
        else:
            result = "euchred"
        return DealScore(
            scores,
            explanations,
            summary=self._summary(setup, facts),
            notes=notes,
            detail={
                "thrown_in": False,
                "result": result,
                "makers": list(pair_of(maker)),
                "scoring_pair": list(scoring),
                "points": points,
                "sitting_out": list(out),
                "leader": lead,
            },
        )

    def _context(self, setup: Setup, facts: Mapping[str, Any]) -> Msg:
        """ "Ann alone" / "Ann made trump", with ", Bob defending alone" when he did."""
        maker = setup.players[facts["maker"]]
        lone = lone_maker(facts)
        if lone == facts["maker"]:
            who = msg(N_("{maker} alone"), maker=maker)
        elif lone is not None:
            who = msg(N_("{maker} made trump, {player} alone"), maker=maker, player=setup.players[lone])
        else:
            who = msg(N_("{maker} made trump"), maker=maker)
        defender = facts.get("defender_alone")
        if defender is None:
            return who
        return msg(
            N_("{who}, {defender} defending alone"),
            who=who,
            defender=setup.players[defender],
        )

    def _summary(self, setup: Setup, facts: Mapping[str, Any]) -> Msg:
        """ "Hearts (turned up), Ann alone", "Clubs (named), made by Bob, Cid defends alone"."""
        suit = Msg(SUITS[facts["trump"]])
        round_ = facts.get("round")
        if round_ == 1:
            trump = msg(N_("{suit} (turned up)"), suit=suit)
        elif round_ == 2:
            trump = msg(N_("{suit} (named)"), suit=suit)
        else:
            trump = suit
        maker = setup.players[facts["maker"]]
        lone = lone_maker(facts)
        if lone == facts["maker"]:
            who = msg(N_("{maker} alone"), maker=maker)
        elif lone is not None:
            who = msg(N_("made by {maker}, {player} alone"), maker=maker, player=setup.players[lone])
        else:
            who = msg(N_("made by {maker}"), maker=maker)
        defender = facts.get("defender_alone")
        if defender is None:
            return msg(N_("{trump}, {who}"), trump=trump, who=who)
        return msg(
            N_("{trump}, {who}, {defender} defends alone"),
            trump=trump,
            who=who,
            defender=setup.players[defender],
        )

    # -- random deals for the contract and property tests ------------------------

    def random_deal(self, setup: Setup, state: Any, dealer: int, rng: random.Random) -> dict[str, Any]:
        if not option(setup, "stick_the_dealer") and rng.random() < 0.15:
            return {"thrown_in": True}
        maker = rng.randrange(SEATS)
        alone: bool | int = rng.random() < 0.25
        if alone and rng.random() < 0.5:
            alone = rng.choice(pair_of(maker))
        defender = None
        if option(setup, "defend_alone") and rng.random() < 0.2:
            defender = rng.choice(pair_of(maker + 1))
        facts: dict[str, Any] = {
            "trump": rng.choice(list(SUITS)),
            "maker": maker,
            "alone": alone,
            "defender_alone": defender,
            "maker_tricks": rng.randint(0, TRICKS),
        }
        if rng.random() < 0.7:
            facts["round"] = rng.choice((1, 2))
            if rng.random() < 0.5:
                others = [suit for suit in SUITS if suit != facts["trump"]]
                facts["turned_up"] = facts["trump"] if facts["round"] == 1 else rng.choice(others)
        return facts

    # -- the end -----------------------------------------------------------------

    def reached_end(self, setup: Setup, totals: tuple[int, ...], deals_played: int, state: Any) -> bool:
        hands = fixed_hands.hands(setup)
        if hands is not None:
            return (state or 0) >= hands
        target = option(setup, "target")
        return any(totals[side[0]] >= target for side in self.sides(setup))

    def decide(self, setup: Setup, totals: tuple[int, ...], state: Any) -> tuple[int, ...]:
        """The pair that reached the target; only one pair scores per deal, so only one can."""
        if fixed_hands.hands(setup) is not None:
            return fixed_hands.decide(setup, totals, self.sides(setup))
        target = option(setup, "target")
        reached = [side for side in self.sides(setup) if totals[side[0]] >= target]
        if len(reached) == 1:
            return reached[0]
        # Unreachable through play(): kept so a hand-built total cannot crown both pairs.
        leaders = leading_seats(totals, self.sides(setup))
        return leaders if len(leaders) == 2 else ()

    def planned_deals(self, setup: Setup) -> int | None:
        return fixed_hands.hands(setup)

    def counted_deals(self, result: GameResult) -> int:
        return sum(1 for deal in result.deals if not deal.facts.get("thrown_in"))
