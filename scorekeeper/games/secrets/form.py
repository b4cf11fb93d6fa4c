"""The Secrets turn form, the Hidden Secrets allotment form, and the set-up finished later.

The turn form has one row per spy and player, and the policeman's post per
player (``guards_<seat>``). With three players a spy's order is one tap
(``order_<seat>_<spy>``: a chip per other player and secret, drawn as two
keypads side by side); with more, two (``target_<seat>_<spy>``, a chip per
other player, then ``secret_<seat>_<spy>``). "home" is a chip only when the
table plays that spies may stay. Every spy has its fields, but the template
shows rows only for the spies still free, and guard chips only for the posts
the rules allow (:meth:`SecretsEntry.offers`, from :meth:`Secrets.choices`);
the rules judge what is posted all the same. Their ``orders`` errors of a
seat are shown at that player's orders (``group_errors["orders_<seat>"]``),
``guards`` errors next to the guard.

In Hidden Secrets a game starts with no allotment (``values`` holds None for
each player, :func:`setup_later`); each one comes in through
:class:`AllotmentForm`, typed by the game master or by the player on his own
private page, and turn 1 waits until all are in.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from flask import has_request_context, request
from flask_babel import lazy_gettext as _l
from wtforms import HiddenField, RadioField

from ... import i18n
from ...forms.base import NumberField, RulesForm, choices, lenient_int
from ...rules import FieldError, Game, Setup, check_setup
from .. import GAMES
from .rules import HIDDEN_SECRETS, SPIES, Secrets, allotments_waiting, is_hidden, secret_ids

# The chip value of a spy kept at home (no order).
HOME = ""
# Up to this many players a spy's order is one tap: a keypad of 44 px chips per other player,
# two side by side on a 360 px screen. At every table size since issue 41 (37 taps on a 4-player
# turn 1 were 16 too many); the turn form folds each player's orders, and each spy's keypads, until
# they are the next to enter (games/secrets/_macros.html, static/app.js), so that six players'
# form stays within two screens.
ONE_TAP_PLAYERS = 6


def order_value(target: Any, secret: Any) -> str:
    """A one-tap order's chip value: "1-4" (seat 1's secret 4), "2-C"."""
    return f"{target}-{secret}"


def parse_order(value: Any) -> tuple[Any, Any] | None:
    """A one-tap chip's (target, secret), read leniently for the rules to judge; None: home."""
    if value in (None, HOME):
        return None
    target, _sep, secret = str(value).partition("-")
    return lenient_int(target), lenient_int(secret)


# A valid allotment, only to check the rest of a set-up whose allotments come later.
def radio(label: Any, pairs: Iterable[tuple[Any, Any]], default: Any = None) -> RadioField:
    return RadioField(
        label, choices=choices(pairs), coerce=lenient_int, validate_choice=False, default=default
    )


def waiting_seats(options: Mapping[str, Any], n: int) -> list[int]:
    """Seats whose Hidden Secrets allotment is still to come (none in the plain game)."""
    return list(allotments_waiting(options, n))


def setup_later(rules: Game, players: Any, options: Mapping[str, Any], first_dealer: Any) -> Setup | None:
    """The set-up of a Hidden Secrets game whose allotments come later, or None.

    Everything else is checked by the rules as usual; the game starts with
    every player's allotment waiting (``values`` all None).
    """
    if not options.get("hidden") or options.get("values") is not None or not isinstance(players, list):
        return None
    _errors, setup = check_setup(
        rules, players, {**options, "values": [None] * len(players)}, first_dealer, True
    )
    return setup


def seat_fields(setup: Setup, seat: int) -> dict[str, Any]:
    """One seat's inputs of the turn form: an order per spy, and the policeman's post."""
    ids = secret_ids(setup)
    secrets = [(s, str(s)) for s in ids]
    # "home" is offered only where the rules allow it, and is then where a spy starts.
    may_stay = bool(setup.options.get("spies_may_stay", False))
    home = [(HOME, _l("home"))] if may_stay else []
    start = HOME if may_stay else None
    name = setup.players[seat]
    others = [t for t in range(setup.n) if t != seat]
    fields: dict[str, Any] = {}
    for spy in SPIES:
        if setup.n <= ONE_TAP_PLAYERS:
            orders = [(order_value(t, s), str(s)) for t in others for s in ids]
            fields[f"order_{seat}_{spy}"] = RadioField(
                name, choices=choices([*home, *orders]), validate_choice=False, default=start
            )
        # The two-tap inputs (the player, then the secret) are still read when posted (a page
        # drawn before issue 41, a script); the one-tap chip wins when both come.
        targets = [(t, setup.players[t]) for t in others]
        fields[f"target_{seat}_{spy}"] = radio(name, [*home, *targets], default=start)
        fields[f"secret_{seat}_{spy}"] = radio(name, secrets)
    fields[f"guards_{seat}"] = radio(name, secrets)
    return fields


class SecretsEntry(RulesForm):
    """Fields ``order_<seat>_<spy>`` (or ``target_``/``secret_``) and ``guards_<seat>``, added by :meth:`for_setup`."""

    template = "games/secrets/_entry.html"
    spies = SPIES
    # Set per game by for_setup.
    setup: Setup
    one_tap = False
    # Filled in from the previous turn ("Same orders as turn n"), for the page to say so.
    repeated = False

    @classmethod
    def for_setup(cls, setup: Setup, data: dict[str, Any] | None = None) -> SecretsEntry:
        """A form class with a row per player and spy, bound to the request or to ``data``."""
        fields: dict[str, Any] = {"setup": setup, "one_tap": setup.n <= ONE_TAP_PLAYERS}
        for seat in range(setup.n):
            fields.update(seat_fields(setup, seat))
        return type("SecretsEntryForm", (cls,), fields)(data=data)

    def order(self, seat: int, spy: str) -> tuple[Any, Any] | None:
        """The (target, secret) entered for ``seat``'s ``spy``, as typed; None: he stays at home."""
        if self.one_tap:
            chosen = parse_order(getattr(self, f"order_{seat}_{spy}").data)
            if chosen is not None or f"target_{seat}_{spy}" not in self.posted_names():
                return chosen
        target = getattr(self, f"target_{seat}_{spy}").data
        if target in (None, HOME):
            return None  # (a secret tapped for a spy at home does not count)
        return target, getattr(self, f"secret_{seat}_{spy}").data

    def posted_names(self) -> set[str]:
        """The names this request posted (empty for a form filled from data)."""
        return set(request.form) if has_request_context() else set()

    def set_order(self, seat: int, spy: str, order: tuple[Any, Any] | None) -> None:
        """Show ``order`` (None: none) as entered for ``seat``'s ``spy``."""
        if self.one_tap:
            start = HOME if self.setup.options.get("spies_may_stay", False) else None
            getattr(self, f"order_{seat}_{spy}").data = start if order is None else order_value(*order)
        else:
            # (The "home" chip's value reads as None, as a target not chosen does.)
            getattr(self, f"target_{seat}_{spy}").data = None if order is None else order[0]
            getattr(self, f"secret_{seat}_{spy}").data = None if order is None else order[1]

    def to_facts(self, setup: Setup) -> dict[str, Any]:
        orders = []
        for seat in range(setup.n):
            mine = []
            for spy in SPIES:
                entered = self.order(seat, spy)
                if entered is None:
                    continue  # this spy stays at home
                target, secret = entered
                order: dict[str, Any] = {"spy": spy, "target": target}
                if secret not in (None, ""):
                    order["secret"] = secret  # without it, the rules say an order needs one
                mine.append(order)
            orders.append(mine)
        return {"orders": orders, "guards": [getattr(self, f"guards_{s}").data for s in range(setup.n)]}

    @staticmethod
    def data_from(facts: Mapping[str, Any]) -> dict[str, Any]:
        # For either layout: a form takes the keys of its own fields only.
        data: dict[str, Any] = {}
        for seat, mine in enumerate(facts.get("orders") or []):
            for order in mine if isinstance(mine, list) else []:
                if isinstance(order, Mapping) and order.get("spy") in SPIES:
                    key = f"{seat}_{order['spy']}"
                    data[f"target_{key}"] = order.get("target")
                    data[f"secret_{key}"] = order.get("secret")
                    data[f"order_{key}"] = order_value(order.get("target"), order.get("secret"))
        for seat, guard in enumerate(facts.get("guards") or []):
            data[f"guards_{seat}"] = guard
        return data

    def apply_errors(self, errors: Iterable[FieldError]) -> None:
        for error in errors:
            if error.field == "orders" and error.seat is not None:
                # One player's orders: shown above his rows of spies.
                self.group_errors.setdefault(f"orders_{error.seat}", []).append(i18n.render(error.message))
            else:
                super().apply_errors([error])

    def prefill(self) -> None:
        """A policeman who may stay where he was is shown there: one tap less per player."""
        offers = self.offers()
        for seat, offer in enumerate(offers):
            field = getattr(self, f"guards_{seat}")
            if field.data in (None, "") and offer["last_guard"] in offer["guards"]:
                field.data = offer["last_guard"]

    @property
    def can_repeat(self) -> bool:
        """Whether the previous turn left anything this turn may repeat: an order of a spy
        still free, or a post its policeman may keep."""
        if self.previous is None:
            return False
        for seat, offer in enumerate(self.offers()):
            sent = {o["spy"] for o in self.previous["orders"][seat]}
            if sent & set(offer["spies"]) or self.previous["guards"][seat] in offer["guards"]:
                return True
        return False

    def repeat(self) -> None:
        """The previous turn's orders, as far as this turn allows them: those of spies still
        free, and each policeman's post where he may stay. The rest is left to choose; the
        rules judge the whole turn at Record (and in the preview) as always."""
        previous = self.previous
        if previous is None or not self.can_repeat:
            return
        for seat, offer in enumerate(self.offers()):
            last = {o["spy"]: (o["target"], o["secret"]) for o in previous["orders"][seat]}
            for spy in offer["spies"]:
                self.set_order(seat, spy, last.get(spy))
            guard = previous["guards"][seat]
            getattr(self, f"guards_{seat}").data = guard if guard in offer["guards"] else None
        self.repeated = True

    # -- for the template ------------------------------------------------------------
    def pads(self, seat: int, spy: str) -> tuple[Any, list[tuple[int, list[Any]]]]:
        """A one-tap order's chips: the "home" chip (or None), and per other player his secrets."""
        home = None
        pads: dict[Any, list[Any]] = {}
        for sub in getattr(self, f"order_{seat}_{spy}"):
            if sub.data == HOME:
                home = sub
            else:
                order = parse_order(sub.data)
                assert order is not None  # every chip but home's is an order
                pads.setdefault(order[0], []).append(sub)
        return home, list(pads.items())

    def offers(self) -> list[dict[str, Any]]:
        """Per seat, what the turn entered may order: free spies, allowed guards, last post."""
        return [self.offer(seat) for seat in range(self.setup.n)]

    def offer(self, seat: int) -> dict[str, Any]:
        """What ``seat`` may order in the turn entered: free spies, allowed guards, last post."""
        rules = GAMES["secrets"]
        assert isinstance(rules, Secrets)
        setup = self.setup
        state = self.prior()
        state = state if state is not None else rules.start(setup)
        offer = rules.choices(setup, state, seat)
        offer["captured"] = [
            (spy, state.captured_in(seat, spy)) for spy in SPIES if spy not in offer["spies"]
        ]
        offer["last_guard"] = state.guards[seat]
        offer["last_caught"] = state.guard_captured[seat]
        # A post the rules refuse stays on the form if it was entered, so the refusal shows at it.
        entered = getattr(self, f"guards_{seat}").data
        offer["guard_chips"] = [s for s in secret_ids(setup) if s in offer["guards"] or s == entered]
        return offer

    def waiting(self) -> list[int]:
        """Seats whose Hidden Secrets allotment is still to come: turn 1 waits for them."""
        return waiting_seats(self.setup.options, self.setup.n)

    @property
    def hidden(self) -> bool:
        return is_hidden(self.setup)


class SeatOrdersForm(SecretsEntry):
    """One seat's part of the turn (spec "Seat entry"): the same inputs as that seat's rows of the
    whole-turn form, sent from the player's console (or by the scorer for a player without a
    phone). ``turn`` is the turn the form was drawn for: orders never land on a later turn."""

    seat: int

    @classmethod
    def for_seat(cls, setup: Setup, seat: int, data: dict[str, Any] | None = None) -> SeatOrdersForm:
        fields: dict[str, Any] = {
            "setup": setup,
            "seat": seat,
            "one_tap": setup.n <= ONE_TAP_PLAYERS,
            "turn": HiddenField(filters=[lenient_int]),
            **seat_fields(setup, seat),
        }
        return type("SeatOrdersForm", (cls,), fields)(data=data)

    def entry(self) -> dict[str, Any]:
        """The seat's part as the rules take it: ``{"orders": [...], "guard": secret}``."""
        orders = []
        for spy in SPIES:
            entered = self.order(self.seat, spy)
            if entered is None:
                continue  # this spy stays at home
            target, secret = entered
            order: dict[str, Any] = {"spy": spy, "target": target}
            if secret not in (None, ""):
                order["secret"] = secret  # without it, the rules say an order needs one
            orders.append(order)
        return {"orders": orders, "guard": getattr(self, f"guards_{self.seat}").data}

    @staticmethod
    def data_from_entry(seat: int, entry: Mapping[str, Any]) -> dict[str, Any]:
        """The form's data for a part already sent (its own seat's only)."""
        orders = [[] for _ in range(seat)] + [list(entry.get("orders") or [])]
        guards = [None] * seat + [entry.get("guard")]
        return SecretsEntry.data_from({"orders": orders, "guards": guards})

    def offers(self) -> list[dict[str, Any]]:
        raise TypeError("a seat's form offers for its own seat only: offer()")

    def prefill(self) -> None:
        """A policeman who may stay where he was is shown there."""
        offer = self.offer(self.seat)
        field = getattr(self, f"guards_{self.seat}")
        if field.data in (None, "") and offer["last_guard"] in offer["guards"]:
            field.data = offer["last_guard"]


class AllotmentForm(RulesForm):
    """One player's ten values, ``v_A`` to ``v_J``; a blank counts as 0. The rules judge the row."""

    @classmethod
    def build(cls, data: dict[str, Any] | None = None) -> AllotmentForm:
        fields = {f"v_{s}": NumberField(s) for s in HIDDEN_SECRETS}
        return type("SecretsAllotmentForm", (cls,), fields)(data=data)

    def fields(self) -> list[Any]:
        return [getattr(self, f"v_{s}") for s in HIDDEN_SECRETS]

    def row(self) -> list[Any]:
        return [0 if f.data is None else f.data for f in self.fields()]

    def apply_errors(self, errors: Iterable[FieldError]) -> None:
        for error in errors:
            self.group_errors.setdefault("values", []).append(i18n.render(error.message))

    @property
    def total(self) -> int | None:
        row = self.row()
        return sum(row) if all(isinstance(v, int) for v in row) else None
