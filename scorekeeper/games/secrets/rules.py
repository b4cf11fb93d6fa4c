"""Secrets (Allan Stagg, 1998) and its Hidden Secrets variant: spies, thefts, policemen.

See ``shared/rules/secrets.md``. A "deal" here is one turn. Facts per turn:
``orders`` (per player, a list of ``{"spy", "target", "secret"}``) and
``guards`` (per player, the own secret the policeman guards). The state
carried from turn to turn holds the captured spies, the stolen secrets and
each policeman's last post; it is always derived from the facts, never stored.

In Hidden Secrets each player's values (options ``values``) are private: the
helpers at the end of this module (:func:`public_report`,
:func:`private_report`, :func:`public_detail`, :func:`public_options`) give
what the public, or one player, may know. The raw :class:`DealScore` of a
hidden game carries every value and is for the game master only.

"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ...rules.base import (
    N_,
    Chosen,
    DealResult,
    DealScore,
    FieldError,
    Game,
    GameResult,
    Msg,
    Option,
    Setup,
    check_choices,
    is_int,
    is_seat,
    missing,
    msg,
    one_of,
    per_seat,
    refuse,
    require_keys,
)

SPIES = ("club", "diamond", "heart", "spade")
SPY_NAMES = {
    "club": N_("Club"),
    "diamond": N_("Diamond"),
    "heart": N_("Heart"),
    "spade": N_("Spade"),
}
PLAIN_SECRETS: tuple[int, ...] = tuple(range(1, 10))
HIDDEN_SECRETS: tuple[str, ...] = tuple("ABCDEFGHIJ")
CAPTURE_POINTS = 10
HIDDEN_TOTAL = 45
ORDER_KEYS = ("spy", "target", "secret")
GUARDS = Chosen(
    shape=N_("Give one guarded secret per player ({n} players)."),
    wrong=N_("{player}: the policeman guards one of {player}'s own secrets, {range}."),
    blank=N_("Choose the secret {player}'s policeman guards."),
)

CAPTURED, CLASH, STOLEN, NOTHING = "captured", "clash", "stolen", "nothing"
OUTCOMES = (CAPTURED, CLASH, STOLEN, NOTHING)
OUTCOME_NAMES = {
    CAPTURED: N_("captured"),
    CLASH: N_("clashed"),
    STOLEN: N_("stolen"),
    NOTHING: N_("nothing there"),
}


# -- secrets and values ------------------------------------------------------
def is_hidden(setup: Setup) -> bool:
    return bool(setup.options.get("hidden", False))


def allotments_waiting(options: Mapping[str, Any], n: int) -> tuple[int, ...]:
    """Hidden Secrets: seats whose allotment is still to come (each gives it before turn 1)."""
    if not options.get("hidden"):
        return ()
    values = options.get("values")
    if not isinstance(values, list) or len(values) != n:
        return tuple(range(n))
    return tuple(seat for seat, row in enumerate(values) if row is None)


def secret_ids(setup: Setup) -> tuple[Any, ...]:
    """Every player's secrets: 1-9 in the plain game, "A"-"J" in Hidden Secrets."""
    return HIDDEN_SECRETS if is_hidden(setup) else PLAIN_SECRETS


def is_secret(setup: Setup, value: Any) -> bool:
    """True when ``value`` names a secret that exists in this game."""
    if is_hidden(setup):
        return isinstance(value, str) and value in HIDDEN_SECRETS
    return is_int(value) and value in PLAIN_SECRETS


def secret_value(setup: Setup, owner: int, secret: int | str) -> int:
    """A secret's points: its number, or the owner's allotment in Hidden Secrets."""
    if is_hidden(setup):
        assert isinstance(secret, str)  # Hidden Secrets' secrets are letters (is_secret)
        value: int = setup.options["values"][owner][HIDDEN_SECRETS.index(secret)]
        return value
    assert isinstance(secret, int)  # the plain game's secrets are their numbers (is_secret)
    return secret


def secrets_range(setup: Setup) -> Msg:
    return msg(N_("A to J")) if is_hidden(setup) else msg(N_("1 to 9"))


# -- the state between turns -------------------------------------------------
@dataclass(frozen=True)
class SecretsState:
    """What earlier turns left behind; turn numbers here count from 1."""

    turn: int  # turns resolved so far
    captured: tuple[tuple[tuple[str, int], ...], ...]  # per seat: (spy, turn captured)
    stolen: tuple[tuple[int, Any, int, int], ...]  # (owner, secret, thief, turn), in order
    guards: tuple[Any, ...]  # last turn's guarded secret per seat (None before turn 1)
    guard_captured: tuple[bool, ...]  # whether that policeman caught a spy last turn

    def free_spies(self, seat: int) -> tuple[str, ...]:
        """The spies ``seat`` may still order, in the order Club, Diamond, Heart, Spade."""
        gone = {spy for spy, _ in self.captured[seat]}
        return tuple(spy for spy in SPIES if spy not in gone)

    def captured_in(self, seat: int, spy: str) -> int | None:
        """The turn in which ``seat``'s ``spy`` was captured, or None while it is free."""
        for name, turn in self.captured[seat]:
            if name == spy:
                return turn
        return None

    def stolen_by(self, owner: int, secret: Any) -> int | None:
        """The seat that stole ``owner``'s ``secret``, or None while the owner keeps it."""
        for who, what, thief, _ in self.stolen:
            if who == owner and what == secret:
                return thief
        return None

    def stolen_from(self, owner: int) -> tuple[Any, ...]:
        return tuple(what for who, what, _, _ in self.stolen if who == owner)

    def must_move(self, seat: int) -> Any | None:
        """The secret ``seat``'s policeman may not guard this turn (None: no restriction)."""
        if self.guards[seat] is None or self.guard_captured[seat]:
            return None
        return self.guards[seat]


# -- resolving a turn -----------------------------------------------------------
def resolve(setup: Setup, state: SecretsState, facts: Mapping[str, Any]) -> list[dict[str, Any]]:
    """Every order of a (valid) turn with its outcome, in entry order: player, then order.

    Each entry: player, order (index in the player's list), spy, target,
    secret, outcome, points, scorer (the seat the points go to, or None) and
    value (the secret's value, hidden or not).
    """
    guards = facts["guards"]
    flat = [
        (player, i, order) for player, orders in enumerate(facts["orders"]) for i, order in enumerate(orders)
    ]
    tries: dict[tuple[int, Any], int] = {}
    for _, _, order in flat:
        spot = (order["target"], order["secret"])
        tries[spot] = tries.get(spot, 0) + 1
    entries = []
    for player, i, order in flat:
        target, secret = order["target"], order["secret"]
        value = secret_value(setup, target, secret)
        if guards[target] == secret:
            outcome, points, scorer = CAPTURED, CAPTURE_POINTS, target
        elif state.stolen_by(target, secret) is not None:
            outcome, points, scorer = NOTHING, 0, None
        elif tries[(target, secret)] > 1:
            outcome, points, scorer = CLASH, 0, None
        else:
            outcome, points, scorer = STOLEN, value, player
        entries.append(
            {
                "player": player,
                "order": i,
                "spy": order["spy"],
                "target": target,
                "secret": secret,
                "outcome": outcome,
                "points": points,
                "scorer": scorer,
                "value": value,
            }
        )
    return entries


def spy_name(spy: str) -> Msg:
    return Msg(SPY_NAMES[spy])


def join_parts(parts: Sequence[Msg]) -> Msg:
    line = parts[0]
    for part in parts[1:]:
        line = msg(N_("{left} + {right}"), left=line, right=part)
    return line


def explain(
    setup: Setup,
    seat: int,
    orders: Sequence[Mapping[str, Any]],
    guard: Any,
    known: Callable[[int, Any], bool] | None = None,
) -> Msg:
    """One seat's line for a turn; values for which ``known`` is false read as "?"."""
    parts = []
    caught = sum(1 for o in orders if o["outcome"] == CAPTURED and o["target"] == seat)
    if caught:
        parts.append(
            msg(
                N_("{count} x 10 (spies caught at secret {secret})"),
                count=caught,
                secret=guard,
            )
        )
    hidden_part = False
    for o in orders:
        if o["outcome"] != STOLEN or o["player"] != seat:
            continue
        if known is None or known(o["target"], o["secret"]):
            parts.append(
                msg(
                    N_("{value} (secret {secret} stolen from {owner})"),
                    value=o["value"],
                    secret=o["secret"],
                    owner=setup.players[o["target"]],
                )
            )
        else:
            hidden_part = True
            parts.append(
                msg(
                    N_("? (secret {secret} stolen from {owner}, value hidden)"),
                    secret=o["secret"],
                    owner=setup.players[o["target"]],
                )
            )
    if not parts:
        return msg(N_("Nothing stolen, no spy caught: 0"))
    if hidden_part:
        return msg(N_("{parts} = ?"), parts=join_parts(parts))
    total = sum(o["points"] for o in orders if o["scorer"] == seat)
    return msg(N_("{parts} = {total}"), parts=join_parts(parts), total=total)


def summarize(orders: Sequence[Mapping[str, Any]]) -> Msg:
    counts = {outcome: 0 for outcome in OUTCOMES}
    for o in orders:
        counts[o["outcome"]] += 1
    return msg(
        N_("Spies captured: {captured}, clashed: {clash}, stole: {stolen}, found nothing: {nothing}"),
        **counts,
    )


# -- the game -------------------------------------------------------------------
class Secrets(Game):
    key = "secrets"
    title = N_("Secrets")
    player_counts = (3, 4, 5, 6)
    options = (
        Option(
            "hidden",
            N_("Hidden Secrets"),
            False,
            kind="bool",
            help=N_("Ten secrets A-J per player, worth 45 points allotted in private before turn 1."),
        ),
        Option(
            "turns",
            N_("Number of turns"),
            5,
            minimum=1,
            maximum=20,
            help=N_("The original game lasts five turns."),
            suggestions=(5,),
        ),
        Option(
            "spies_may_stay",
            N_("Spies may stay at home"),
            False,
            kind="bool",
            help=N_(
                "Off (the original): every free spy is sent each turn. "
                "On: a player may give orders to some of their spies, or none."
            ),
        ),
        Option(
            "values",
            N_("Values of secrets A-J (Hidden Secrets)"),
            None,
            kind="custom",
            nullable=True,
            help=N_("Per player, ten whole numbers of 0 or more adding up to 45; never shown to the others."),
        ),
    )
    fact_keys = ("orders", "guards")
    # The game record holds this game's rounds under "turns" instead of "deals".
    record_key = "turns"
    deal_word = N_("turn")
    ended_message = N_("The game ended after turn {n}: no turn can follow it.")
    ties_share = True
    has_dealer = False

    # -- setup ------------------------------------------------------------------
    def waiting_seats(self, options: Mapping[str, Any], n: int) -> tuple[int, ...]:
        """Hidden Secrets: players whose allotment is still to come (each gives it before turn 1)."""
        return allotments_waiting(options, n)

    def check_setup(self, setup: Setup) -> list[FieldError]:
        values = setup.options.get("values")
        if not is_hidden(setup):
            if values is not None:
                return [refuse("values", N_("Values of secrets are only given in Hidden Secrets."))]
            return []
        if values is None:
            # Each seat's part, so that a game made to wait for its seats' allotments (spec "Seat
            # entry": check_setup's waiting_ok) may come without any.
            text = N_("Hidden Secrets needs every player's values of secrets A to J.")
            return [refuse("values", text, seat) for seat in range(setup.n)]
        if not per_seat(values, setup.n):
            return [refuse("values", N_("Give one list of ten values per player ({n} players)."), n=setup.n)]
        errors = []
        for seat, row in enumerate(values):
            player = setup.players[seat]
            if not per_seat(row, len(HIDDEN_SECRETS)) or not all(is_int(v) and v >= 0 for v in row):
                text = N_("{player}: give ten whole numbers of 0 or more, one for each secret A to J.")
                errors.append(refuse("values", text, seat, player=player))
            elif sum(row) != HIDDEN_TOTAL:
                text = N_("{player}: the ten values must add up to 45 (they add up to {sum}).")
                errors.append(refuse("values", text, seat, player=player, sum=sum(row)))
        return errors

    def planned_deals(self, setup: Setup) -> int | None:
        return setup.options.get("turns")

    def reached_end(self, setup: Setup, totals: tuple[int, ...], deals_played: int, state: Any) -> bool:
        turns: int = setup.options.get("turns", 5)
        return deals_played >= turns

    def reports(self, setup: Setup, result: GameResult, seat: int | None) -> Mapping[str, Any] | None:
        return turn_reports(setup, result, seat)

    def has_private_pages(self, setup: Setup) -> bool:
        # Every seat sends its own orders from its console, in the plain game too.
        return True

    def takes_seat_allotments(self, setup: Setup) -> bool:
        return is_hidden(setup)

    def hides_scores(self, setup: Setup) -> bool:
        """Hidden Secrets: values, and the scores made of them, stay private until the game ends."""
        return is_hidden(setup)

    def public_export(self, setup: Setup, result: GameResult) -> Mapping[str, Any] | None:
        """The record's derived fields as everybody may know them (see :func:`public_report`)."""
        report = public_report(setup, result)
        return {
            "options": public_options(setup, result.finished),
            "scores": report["scores"],
            "explanations": report["explanations"],
            "totals": report["totals"],
        }

    # -- turns --------------------------------------------------------------------
    def start(self, setup: Setup) -> SecretsState:
        n = setup.n
        return SecretsState(
            turn=0,
            captured=((),) * n,
            stolen=(),
            guards=(None,) * n,
            guard_captured=(False,) * n,
        )

    def choices(self, setup: Setup, state: SecretsState | None, seat: int) -> dict[str, Any]:
        """What the turn form may offer ``seat``: free spies, targets, secrets, allowed guards."""
        state = state if state is not None else self.start(setup)
        banned = state.must_move(seat)
        ids = secret_ids(setup)
        return {
            "spies": list(state.free_spies(seat)),
            "targets": [t for t in range(setup.n) if t != seat],
            "secrets": list(ids),
            "guards": [s for s in ids if s != banned],
            "must_move_from": banned,
        }

    def check_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> list[FieldError]:
        errors = require_keys(facts, self.fact_keys, self.fact_keys)
        if errors:
            return errors
        state = state if state is not None else self.start(setup)
        return self._check_orders(setup, state, facts["orders"]) + self._check_guards(
            setup, state, facts["guards"]
        )

    def _check_orders(self, setup: Setup, state: SecretsState, orders: Any) -> list[FieldError]:
        n = setup.n
        if not per_seat(orders, n):
            return [refuse("orders", N_("Give one list of orders per player ({n} players)."), n=n)]
        errors: list[FieldError] = []
        for seat, mine in enumerate(orders):
            errors += self._check_seat_orders(setup, state, seat, mine)
        return errors

    def _check_seat_orders(self, setup: Setup, state: SecretsState, seat: int, mine: Any) -> list[FieldError]:
        """One seat's orders for the next turn: its free spies, real targets, real secrets."""
        n = setup.n
        errors: list[FieldError] = []
        turn = state.turn + 1

        def order_error(seat: int, text: str, **params: Any) -> None:
            errors.append(refuse("orders", text, seat, player=setup.players[seat], **params))

        if not isinstance(mine, list):
            text = N_("{player}: the orders must be a list (empty when every spy stays at home).")
            order_error(seat, text)
            return errors
        seen: list[str] = []
        for i, order in enumerate(mine):
            if not isinstance(order, Mapping) or set(order) != set(ORDER_KEYS):
                text = N_("{player}, order {number}: an order names a spy, a target player and a secret.")
                order_error(seat, text, number=i + 1)
                continue
            spy, target, secret = order["spy"], order["target"], order["secret"]
            if not one_of(spy, SPIES):
                text = N_(
                    "{player}, order {number}: “{spy}” is not a spy; "
                    "the spies are Club, Diamond, Heart and Spade."
                )
                order_error(seat, text, number=i + 1, spy=str(spy))
                continue
            name = spy_name(spy)
            captured = state.captured_in(seat, spy)
            if captured is not None:
                text = N_(
                    "Turn {turn}: {player}'s {spy} was captured in turn {captured} "
                    "and is out of the game; only free spies can be ordered."
                )
                order_error(seat, text, turn=turn, spy=name, captured=captured)
            elif spy in seen:
                text = N_("{player}'s {spy} has two orders; a spy carries out one order a turn.")
                order_error(seat, text, spy=name)
            seen.append(spy)
            if not is_seat(target, n):
                order_error(
                    seat, N_("{player}'s {spy}: the target must be one of the other players."), spy=name
                )
            elif target == seat:
                text = N_("{player}'s {spy} cannot spy on {player}: the target must be another player.")
                order_error(seat, text, spy=name)
            if not is_secret(setup, secret):
                text = N_("{player}'s {spy}: there is no secret “{secret}”; the secrets are {range}.")
                order_error(seat, text, spy=name, secret=str(secret), range=secrets_range(setup))
        # "Each turn a player must send his spies": a free spy left at home is an
        # order forgotten, unless the table plays that spies may stay.
        home = [spy for spy in state.free_spies(seat) if spy not in seen]
        if home and not setup.options.get("spies_may_stay", False):
            text = N_(
                "Turn {turn}: {player} gives no order to {spies}; every free spy is sent "
                "each turn (unless the option “Spies may stay at home” is on)."
            )
            # An order still to give, not one that breaks a rule: a preview says it neutrally.
            spies = join_parts([spy_name(spy) for spy in home])
            errors.append(missing("orders", text, seat, player=setup.players[seat], turn=turn, spies=spies))
        return errors

    def _check_guards(self, setup: Setup, state: SecretsState, guards: Any) -> list[FieldError]:
        turn = state.turn + 1

        def moved(seat: int, guard: Any) -> FieldError | None:
            if guard != state.must_move(seat):
                return None
            text = N_(
                "Turn {turn}: {player}'s policeman guarded secret {secret} in turn {last} "
                "and caught no spy, so he must guard a different secret now."
            )
            return refuse(
                "guards", text, seat, turn=turn, player=setup.players[seat], secret=guard, last=turn - 1
            )

        return check_choices(
            guards,
            "guards",
            setup,
            GUARDS,
            lambda guard: is_secret(setup, guard),
            moved,
            range=secrets_range(setup),
        )[0]

    # -- seat entry: each player sends their own orders (spec "Seat entry") -----------------

    def takes_seat_orders(self, setup: Setup) -> bool:
        return True

    def check_seat_orders(self, setup: Setup, state: Any, seat: int, entry: Any) -> list[FieldError]:
        """One seat's ``{"orders": [...], "guard": secret}`` judged as the whole turn's check
        would judge that seat's part: free spies only, real targets and secrets, every free spy
        sent (unless spies may stay), a guard that need not move."""
        state = state if state is not None else self.start(setup)
        if not isinstance(entry, Mapping) or set(entry) != {"orders", "guard"}:
            text = N_("{player}: send your orders and your policeman's guard, and nothing else.")
            return [refuse("orders", text, seat, player=setup.players[seat])]
        guards = [entry["guard"] if s == seat else None for s in range(setup.n)]
        # The whole turn's guard check, of this seat only (the others' are not in yet).
        guard_errors = [e for e in self._check_guards(setup, state, guards) if e.seat == seat]
        return self._check_seat_orders(setup, state, seat, entry["orders"]) + guard_errors

    def seat_turn(self, setup: Setup, entries: Mapping[int, Any]) -> dict[str, Any]:
        return {
            "orders": [list(entries[seat]["orders"]) for seat in range(setup.n)],
            "guards": [entries[seat]["guard"] for seat in range(setup.n)],
        }

    def score_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> DealScore:
        state = state if state is not None else self.start(setup)
        n = setup.n
        turn = state.turn + 1
        guards = list(facts["guards"])
        orders = resolve(setup, state, facts)
        scores = [0] * n
        for o in orders:
            if o["scorer"] is not None:
                scores[o["scorer"]] += o["points"]
        caught = [0] * n
        captured = [list(c) for c in state.captured]
        stolen = list(state.stolen)
        for o in orders:
            if o["outcome"] == CAPTURED:
                caught[o["target"]] += 1
                captured[o["player"]].append((o["spy"], turn))
            elif o["outcome"] == STOLEN:
                stolen.append((o["target"], o["secret"], o["player"], turn))
        new_state = SecretsState(
            turn=turn,
            captured=tuple(tuple(c) for c in captured),
            stolen=tuple(stolen),
            guards=tuple(guards),
            guard_captured=tuple(c > 0 for c in caught),
        )
        explanations = tuple(explain(setup, seat, orders, guards[seat]) for seat in range(n))
        notes = []
        if turn < setup.options.get("turns", 5):
            for seat in range(n):
                if not caught[seat]:
                    notes.append(
                        msg(
                            N_(
                                "{player}'s policeman caught no spy: next turn he must guard a secret other than {secret}."
                            ),
                            player=setup.players[seat],
                            secret=guards[seat],
                        )
                    )
        detail = {
            "turn": turn,
            "hidden": is_hidden(setup),
            "orders": orders,
            "guards": guards,
            "captures": caught,
            "spies_left": [list(new_state.free_spies(seat)) for seat in range(n)],
            "stolen_secrets": [list(new_state.stolen_from(seat)) for seat in range(n)],
        }
        return DealScore(
            tuple(scores),
            explanations,
            state=new_state,
            summary=summarize(orders),
            notes=tuple(notes),
            detail=detail,
        )

    def random_deal(self, setup: Setup, state: Any, dealer: int, rng: random.Random) -> dict[str, Any]:
        state = state if state is not None else self.start(setup)
        n = setup.n
        ids = secret_ids(setup)
        guards = [rng.choice([s for s in ids if s != state.must_move(seat)]) for seat in range(n)]
        # A narrow pool of secrets now and then, so clashes and repeat visits happen.
        pool = rng.sample(ids, rng.randint(1, 3)) if rng.random() < 0.5 else list(ids)
        orders = []
        for seat in range(n):
            mine = []
            for spy in state.free_spies(seat):
                if setup.options.get("spies_may_stay", False) and rng.random() < 0.2:
                    continue  # this spy stays at home
                target = rng.choice([t for t in range(n) if t != seat])
                secret = guards[target] if rng.random() < 0.2 else rng.choice(pool)
                mine.append({"spy": spy, "target": target, "secret": secret})
            rng.shuffle(mine)
            orders.append(mine)
        return {"orders": orders, "guards": guards}


# -- who learns what (Hidden Secrets) --------------------------------------------
def _deals_and_end(
    result: GameResult | Sequence[DealResult], finished: bool | None
) -> tuple[list[DealResult], bool]:
    if isinstance(result, GameResult):
        return list(result.deals), result.finished if finished is None else finished
    return list(result), bool(finished)


def _detail(deal: DealResult | Mapping[str, Any]) -> Mapping[str, Any]:
    return deal.detail if isinstance(deal, DealResult) else deal


def learned(
    setup: Setup,
    deals: Sequence[DealResult | Mapping[str, Any]],
    seat: int | None = None,
) -> dict[tuple[int, Any], tuple[str, int]]:
    """Values of other players' secrets that ``seat`` (None: everybody) learned in play.

    Maps (owner, secret) to (how, turn): how is "captured" (made public when a
    spy was caught there), "stolen" (``seat`` stole it) or "clash" (a spy of
    ``seat`` clashed there); the first way and turn it was learned count.
    ``seat``'s own secrets are not listed: he always knows them.
    """
    found: dict[tuple[int, Any], tuple[str, int]] = {}
    for k, deal in enumerate(deals):
        for o in _detail(deal)["orders"]:
            spot = (o["target"], o["secret"])
            if spot in found or o["target"] == seat:
                continue
            if o["outcome"] == CAPTURED:
                found[spot] = (CAPTURED, k + 1)
            elif seat is not None and o["player"] == seat and o["outcome"] in (STOLEN, CLASH):
                found[spot] = (o["outcome"], k + 1)
    return found


def knows(
    setup: Setup,
    deals: Sequence[DealResult | Mapping[str, Any]],
    seat: int | None = None,
    finished: bool = False,
) -> Callable[[int, Any], bool]:
    """A predicate: may ``seat`` (None: the public) see the value of (owner, secret)?"""
    if not is_hidden(setup) or finished:
        return lambda owner, secret: True
    spots = set(learned(setup, deals, seat))
    return lambda owner, secret: owner == seat or (owner, secret) in spots


def public_detail(
    setup: Setup,
    deal: DealResult | Mapping[str, Any],
    finished: bool,
    known: Callable[[int, Any], bool] | None = None,
) -> dict[str, Any]:
    """A turn's detail with every value the public may not know set to None.

    ``known`` decides (see :func:`knows`); without it, only the values made
    public in this very turn are shown. Orders whose value is withheld have
    ``value`` None, and ``points`` None too when they are a theft's points.
    """
    detail = _detail(deal)
    if known is None:
        known = knows(setup, [detail], None, finished)
    return _redact(detail, known)


def _redact(detail: Mapping[str, Any], known: Callable[[int, Any], bool]) -> dict[str, Any]:
    out = {key: value for key, value in detail.items() if key != "orders"}
    orders = []
    for o in detail["orders"]:
        entry = dict(o)
        if not known(o["target"], o["secret"]):
            entry["value"] = None
            if o["outcome"] == STOLEN:
                entry["points"] = None
        orders.append(entry)
    out["orders"] = orders
    return out


def public_options(setup: Setup, finished: bool) -> dict[str, Any]:
    """The options as anyone may see them: Hidden Secrets' values only once the game is over."""
    options = dict(setup.options)
    if is_hidden(setup) and not finished:
        options["values"] = None
    return options


def _report(setup: Setup, deals: Sequence[DealResult], finished: bool, seat: int | None) -> dict[str, Any]:
    known = knows(setup, deals, seat, finished)
    n = setup.n
    totals: list[int | None] = [0] * n
    known_totals = [0] * n
    turns = []
    for deal in deals:
        detail = _redact(deal.detail, known)
        orders = detail["orders"]
        scores: list[int | None] = []
        known_points = []
        for s in range(n):
            mine = [o for o in orders if o["scorer"] == s]
            points = [o["points"] for o in mine if o["points"] is not None]
            known_points.append(sum(points))
            scores.append(sum(points) if len(points) == len(mine) else None)
        totals = [
            t + p if t is not None and p is not None else None for t, p in zip(totals, scores, strict=True)
        ]
        known_totals = [t + p for t, p in zip(known_totals, known_points, strict=True)]
        turns.append(
            {
                "index": deal.index,
                "turn": deal.index + 1,
                "orders": orders,
                "guards": detail["guards"],
                "captures": detail["captures"],
                "spies_left": detail["spies_left"],
                "stolen_secrets": detail["stolen_secrets"],
                "scores": scores,
                "known_points": known_points,
                "totals": list(totals),
                "known_totals": list(known_totals),
                "explanations": [explain(setup, s, orders, detail["guards"][s], known) for s in range(n)],
                "summary": deal.summary,
                "notes": list(deal.notes),
            }
        )
    show_values = not is_hidden(setup) or finished
    return {
        "hidden": is_hidden(setup),
        "finished": finished,
        "values": [list(v) for v in setup.options["values"]] if is_hidden(setup) and show_values else None,
        "turns": turns,
        "scores": [t["scores"] for t in turns],
        "explanations": [t["explanations"] for t in turns],
        "totals": list(totals),
        "known_totals": list(known_totals),
    }


def public_report(
    setup: Setup, result: GameResult | Sequence[DealResult], finished: bool | None = None
) -> dict[str, Any]:
    """Everything the public pages, the export and the API may show about the turns.

    Before a Hidden Secrets game ends, a value is shown only once a capture
    made it public; a score or total that would reveal a withheld value is None
    (``known_points``/``known_totals`` hold the part everybody knows).
    ``finished`` defaults to ``result.finished`` for a :class:`GameResult`.
    """
    deals, finished = _deals_and_end(result, finished)
    return _report(setup, deals, finished, None)


def private_report(
    setup: Setup, result: GameResult | Sequence[DealResult], seat: int, finished: bool | None = None
) -> dict[str, Any]:
    """What ``seat`` knows: the public report plus his own values, values he stole,
    values his spies saw in clashes, and what follows from them (e.g. a score
    made of a value stolen from him). Same shape as :func:`public_report`, plus
    ``seat``, ``own_values`` (his ten values, or None in the plain game), ``own_secrets`` (list
    of {secret, value, held}) and ``learned`` (list of {owner, secret, value, how, turn})."""
    deals, finished = _deals_and_end(result, finished)
    report = _report(setup, deals, finished, seat)
    report["seat"] = seat
    report["own_values"] = list(setup.options["values"][seat]) if is_hidden(setup) else None
    # His secrets as his console lists them: each with its value, and whether he still holds it.
    lost = set(report["turns"][-1]["stolen_secrets"][seat]) if report["turns"] else set()
    report["own_secrets"] = [
        {"secret": s, "value": secret_value(setup, seat, s), "held": s not in lost} for s in secret_ids(setup)
    ]
    report["learned"] = [
        {
            "owner": owner,
            "secret": secret,
            "value": secret_value(setup, owner, secret),
            "how": how,
            "turn": turn,
        }
        for (owner, secret), (how, turn) in learned(setup, deals, seat).items()
    ]
    return report


def turn_reports(setup: Setup, result: GameResult, seat: int | None = None) -> dict[str, Any]:
    """The turn reports a page shows: the public ones, or ``seat``'s private ones, with the
    number of turns planned, the winners, the final standings and each player's free spies."""
    if seat is None or allotments_waiting(setup.options, setup.n):
        # (Before every allotment is in there is no turn yet, and nothing private to add.)
        report = public_report(setup, result)
    else:
        report = private_report(setup, result, seat)
    report["planned"] = setup.options.get("turns", 5)
    report["winners"] = list(result.winners)
    report["standings"] = standings(result.totals, result.winners) if result.finished else []
    report["spies_left"] = (
        report["turns"][-1]["spies_left"] if report["turns"] else [list(SPIES) for _ in range(setup.n)]
    )
    return report


def standings(totals: Sequence[int], winners: Sequence[int]) -> list[dict[str, Any]]:
    """Seats from the highest score down, each with its rank (equal scores share a rank)."""
    order = sorted(range(len(totals)), key=lambda s: (-totals[s], s))
    return [
        {
            "seat": s,
            "total": totals[s],
            "rank": 1 + sum(1 for t in totals if t > totals[s]),
            "won": s in winners,
        }
        for s in order
    ]
