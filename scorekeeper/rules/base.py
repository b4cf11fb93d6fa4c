"""The shape every game shares: value types, the Game interface and the walk.

Nothing here knows about the web or the database. A game is a set of pure
functions over *facts* (what happened at the table); every point, total,
winner and tiebreak is derived by :func:`play`, never stored.

Messages are :class:`Msg` values (a gettext msgid plus parameters) so the
web layer can translate them while this package stays free of Flask-Babel.
"""

from __future__ import annotations

import dataclasses
import random
import re
import unicodedata
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, TypeGuard, overload


def N_(text: str) -> str:
    """Mark a msgid for extraction without translating it here."""
    return text


@dataclass(frozen=True)
class Msg:
    """A translatable message: a msgid in ``str.format`` style and its parameters.

    A message whose wording depends on a number (``plural`` set, see
    :func:`nmsg`) is chosen by ``count`` through the language's plural forms.
    """

    text: str
    params: tuple[tuple[str, Any], ...] = ()
    plural: str | None = None
    count: int = 1

    def render(
        self,
        gettext: Callable[[str], str] | None = None,
        number: Callable[[int], str] | None = None,
        ngettext: Callable[[str, str, int], str] | None = None,
    ) -> str:
        """The message in words; ``gettext``/``ngettext`` translate, ``number`` formats ints."""
        if self.plural is not None:
            if ngettext:
                template = ngettext(self.text, self.plural, self.count)
            else:
                template = self.text if self.count == 1 else self.plural
        else:
            # "" is no msgid: gettext("") would answer the catalog's header.
            template = gettext(self.text) if gettext and self.text else self.text
        values = {}
        for key, value in self.params:
            if isinstance(value, Msg):
                value = value.render(gettext, number, ngettext)
            elif number is not None and isinstance(value, int) and not isinstance(value, bool):
                value = number(value)
            values[key] = value
        return template.format(**values) if values else template

    def __str__(self) -> str:
        return self.render()


def msg(text: str, **params: Any) -> Msg:
    """Build a :class:`Msg`; ``text`` must be a literal marked with ``N_``."""
    return Msg(text, tuple(params.items()))


def nmsg(singular: str, plural: str, count: int, **params: Any) -> Msg:
    """A :class:`Msg` worded by ``count`` ("{n} trick" / "{n} tricks"): both literals, not marked
    with ``N_`` (the extraction keyword ``nmsg:1,2`` finds them); pass ``n=count`` to show it."""
    return Msg(singular, tuple(params.items()), plural, count)


@dataclass(frozen=True)
class FieldError:
    """A fact that breaks a rule: which field, which seat (if one), and why."""

    field: str
    message: Msg
    seat: int | None = None
    deal: int | None = None
    # A choice still to make (a blank, a fact not given), not a fact that breaks a rule: a
    # preview shows it in neutral words until the scorer asks to record (issue 53).
    missing: bool = dataclasses.field(default=False, compare=False)

    def as_json(self) -> dict[str, Any]:
        return {
            "deal": self.deal,
            "field": self.field,
            "message": self.message.render(),
        }


class Refusal(Exception):
    """The root of the house's one refusal family (:mod:`scorekeeper.refusals` holds the rest of
    it): a request refused, nothing it asked for done. Each problem names its field (and the deal
    or seat where one is meant) with a translatable :class:`Msg`; ``status`` is the HTTP status it
    answers (422 unless said otherwise). Defined here, with the rules' vocabulary, so that the
    rules' own refusal (:class:`InvalidFacts`) belongs to the family while this package stays pure.
    """

    status = 422

    def __init__(
        self,
        field: str | None = None,
        message: Msg | str = "",
        status: int | None = None,
        *,
        seat: int | None = None,
        deal: int | None = None,
        errors: Sequence[FieldError] = (),
        **params: Any,
    ):
        if isinstance(message, str):
            message = msg(message, **params)
        # A refusal of no one field is field "" in the rules' vocabulary, null in the API's.
        self.errors: Sequence[FieldError] = list(errors) or [FieldError(field or "", message, seat, deal)]
        if status is not None:
            self.status = status
        super().__init__("; ".join(f"{e.field}: {e.message.render()}" for e in self.errors))

    @property
    def field(self) -> str | None:
        return self.errors[0].field or None

    @property
    def message(self) -> Msg:
        return self.errors[0].message


class InvalidFacts(Refusal, ValueError):
    """Raised by :func:`play` when facts break the rules; carries every error (422)."""

    def __init__(self, errors: Sequence[FieldError]):
        super().__init__(errors=errors)
        self.errors = tuple(errors)


@dataclass(frozen=True)
class Option:
    """One variant setting of a game, with its default (the original's rule)."""

    key: str
    label: str
    default: Any
    kind: str = "int"  # "int", "bool", "choice", or "custom" (the game checks it)
    choices: tuple[tuple[Any, str], ...] = ()
    minimum: int | None = None
    maximum: int | None = None
    nullable: bool = False
    help: str = ""
    # Values a form offers as quick picks for an int option (e.g. targets 500 and 200).
    suggestions: tuple[int, ...] = ()


@dataclass(frozen=True)
class Setup:
    """Who sits where and the options in force: everything fixed at the start."""

    players: tuple[str, ...]
    options: Mapping[str, Any]
    first_dealer: int = 0

    @property
    def n(self) -> int:
        return len(self.players)


@dataclass(frozen=True)
class DealScore:
    """What a game's ``score_deal`` returns for one deal."""

    scores: tuple[int, ...]
    explanations: tuple[Msg, ...]
    state: Any = None
    summary: Msg | None = None
    notes: tuple[Msg, ...] = ()
    # Game-specific values for the scoreboard (e.g. bags), JSON-friendly.
    detail: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class DealResult:
    """One scored deal as the scoreboard shows it."""

    index: int
    dealer: int | None
    facts: Mapping[str, Any]
    scores: tuple[int, ...]
    explanations: tuple[Msg, ...]
    totals: tuple[int, ...]
    tiebreak: bool
    summary: Msg | None = None
    notes: tuple[Msg, ...] = ()
    detail: Mapping[str, Any] = field(default_factory=dict)
    # The game's state after this deal: a correction's form starts from the one before, with no replay.
    state: Any = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class GameResult:
    """The derived state of a whole game after its recorded deals."""

    setup: Setup
    deals: tuple[DealResult, ...]
    totals: tuple[int, ...]
    next_dealer: int | None
    finished: bool
    winners: tuple[int, ...]
    tiebreak: bool
    sides: tuple[tuple[int, ...], ...]
    state: Any = None
    # A game where the lowest total leads (tally's ``low_wins``).
    low_wins: bool = False

    @property
    def leaders(self) -> tuple[int, ...]:
        """Seats of every side sharing the best total (the highest, or the lowest with ``low_wins``)."""
        return leading_seats(self.totals, self.sides, self.low_wins)


def leading_seats(
    totals: Sequence[int], sides: Sequence[Sequence[int]], low_wins: bool = False
) -> tuple[int, ...]:
    pick = min if low_wins else max
    best = pick(totals[side[0]] for side in sides)
    return tuple(s for side in sides if totals[side[0]] == best for s in side)


class Game:
    """Base class of a game's rules; a game module subclasses it once.

    Subclasses set the class attributes and implement ``check_deal`` and
    ``score_deal``; they override the other hooks only where the game differs.
    """

    key: ClassVar[str]
    title: ClassVar[str]
    player_counts: ClassVar[tuple[int, ...]]
    options: ClassVar[tuple[Option, ...]] = ()
    # Keys a deal's facts may carry; "dealer" is always allowed.
    fact_keys: ClassVar[tuple[str, ...]] = ()
    # Secrets calls its rounds turns and shares a tied win.
    deal_word: ClassVar[str] = N_("deal")
    # The game record's key for the list of deals (Secrets records "turns").
    record_key: ClassVar[str] = "deals"
    ties_share: ClassVar[bool] = False
    ended_message: ClassVar[str] = N_("The game ended after deal {n}: no deal can follow it.")
    has_dealer: ClassVar[bool] = True

    # -- setup ---------------------------------------------------------------
    def allowed_player_counts(self, options: Mapping[str, Any]) -> tuple[int, ...]:
        return self.player_counts

    def sides(self, setup: Setup) -> tuple[tuple[int, ...], ...]:
        """The scoring units: one seat each, or pairs of partners."""
        return tuple((s,) for s in range(setup.n))

    def check_setup(self, setup: Setup) -> list[FieldError]:
        """Game-specific checks of options against players (beyond the generic ones)."""
        return []

    # -- deals ---------------------------------------------------------------
    def start(self, setup: Setup) -> Any:
        """The state carried from deal to deal (bags, stolen secrets...)."""
        return None

    def check_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> list[FieldError]:
        raise NotImplementedError

    def score_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> DealScore:
        raise NotImplementedError

    def random_deal(self, setup: Setup, state: Any, dealer: int, rng: random.Random) -> dict[str, Any]:
        """Facts of a valid deal drawn at random: for the contract and property tests."""
        raise NotImplementedError

    def reached_end(self, setup: Setup, totals: tuple[int, ...], deals_played: int, state: Any) -> bool:
        """True once the game's end condition is met (ties are handled by :func:`play`)."""
        deals: int = setup.options.get("deals", 0)
        return deals_played >= deals

    def decide(self, setup: Setup, totals: tuple[int, ...], state: Any) -> tuple[int, ...]:
        """Winning seats once the end is reached; empty means a tie to play off."""
        sides = self.sides(setup)
        leaders = leading_seats(totals, sides)
        if len(leaders) > len(sides[0]) and not self.ties_share:
            return ()
        return leaders

    def waiting_seats(self, options: Mapping[str, Any], n: int) -> tuple[int, ...]:
        """Seats whose part of the set-up may still come after creation, before the first deal."""
        return ()

    def hides_scores(self, setup: Setup) -> bool:
        """True when scores would reveal private facts until the game ends (Hidden Secrets)."""
        return False

    def public_export(self, setup: Setup, result: GameResult) -> Mapping[str, Any] | None:
        """Record fields to show instead of the full ones while :meth:`hides_scores` holds.

        Keys are game-record keys (``options``, ``scores``, ``explanations``,
        ``totals``...); values may hold :class:`Msg`, rendered by the caller.
        """
        return None

    def reports(self, setup: Setup, result: GameResult, seat: int | None) -> Mapping[str, Any] | None:
        """The game's own turn reports beside the score table: the public ones (``seat`` None) or
        one seat's private ones. None for a game whose score table says it all."""
        return None

    def has_private_pages(self, setup: Setup) -> bool:
        """True when each seat has a private page of its own (Secrets' consoles: orders, reports)."""
        return False

    def takes_seat_allotments(self, setup: Setup) -> bool:
        """True when each seat gives a private part of the set-up before the first deal (Hidden
        Secrets' allotments)."""
        return False

    # -- seat entry (spec "Seat entry"): each seat sends its own part of the next deal ----------

    def takes_seat_orders(self, setup: Setup) -> bool:
        """True when each seat may send its own part of the next deal from its phone (Secrets)."""
        return False

    def check_seat_orders(self, setup: Setup, state: Any, seat: int, entry: Any) -> list[FieldError]:
        """The rules' refusals of one seat's part of the next deal, judged alone (nothing of the
        other seats' is known yet); empty when it is good."""
        return [refuse("orders", N_("This game takes no orders from the seats."))]

    def seat_turn(self, setup: Setup, entries: Mapping[int, Any]) -> dict[str, Any]:
        """The next deal's facts made of every seat's checked part (``entries`` by seat)."""
        raise NotImplementedError(self.key)

    def planned_deals(self, setup: Setup) -> int | None:
        """How many deals the game has before any tiebreak, when that is fixed."""
        return setup.options.get("deals")

    def low_wins(self, setup: Setup) -> bool:
        """True when the lowest total leads and wins."""
        return False

    def counted_deals(self, result: GameResult) -> int:
        """Deals played that count toward :meth:`planned_deals` (Abracadabra skips thrown-in ones)."""
        return len(result.deals)

    def rating_sides(
        self, options: Mapping[str, Any], result: GameResult
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[int, ...]]:
        """Who played together as the club's ratings count them, and each side's points (game
        record, "Ratings"), for a finished game set up with ``options``: the rules' sides, a side's total the one standing at its seats (a
        pair's points stand at both of them). A game whose teams count otherwise says so here."""
        sides = tuple(tuple(side) for side in result.sides)
        return sides, tuple(result.totals[side[0]] for side in sides)

    def option_in_force(self, key: str, options: Mapping[str, Any]) -> bool:
        """Whether the option ``key`` changes anything in a game set up with ``options``: a score
        sheet's house rules list only those (a game of a number of hands uses no target)."""
        hands = options.get("hands")
        if key == "target" and hands:
            return False
        return not (key in ("hands", "hands_tiebreak") and not hands)


def refuse(field: str, text: str | Msg, seat: int | None = None, **params: Any) -> FieldError:
    """A refusal of ``field`` (at ``seat`` when one player's entry is at fault).

    ``text`` is a msgid marked with ``N_`` in ``str.format`` style, worded with ``params``; or a
    ready :class:`Msg` (for a message whose placeholders are named ``field`` or ``seat``).
    """
    return FieldError(field, text if isinstance(text, Msg) else msg(text, **params), seat=seat)


def missing(field: str, text: str, seat: int | None = None, **params: Any) -> FieldError:
    """Like :func:`refuse`, for a choice still to make: nothing typed breaks a rule yet."""
    return FieldError(field, msg(text, **params), seat=seat, missing=True)


def require_keys(
    facts: Mapping[str, Any], allowed: Sequence[str], required: Sequence[str]
) -> list[FieldError]:
    """Refuse unknown keys and missing required ones."""
    errors = []
    for key in facts:
        if key not in allowed and key != "dealer":
            errors.append(refuse(key, N_("“{key}” is not a fact of this game."), key=key))
    errors += [missing(key, N_("This is required.")) for key in required if key not in facts]
    return errors


WHOLE_TEXT = re.compile(r"[+-]?[0-9]+")


def read_whole(text: Any, digits: int = 10, signed: bool = False) -> int | None:
    """The one reading of a whole number typed in a form, a path, a query or a header: ASCII
    digits only (at most ``digits`` of them, a sign only when ``signed``), else None.

    ``str.isdigit()`` accepts ``²``, ``①`` and ``⁴``, which ``int()`` refuses (a 500 where it was
    trusted), and ``int()`` itself accepts ``١٢``, ``1_000`` and spaces: neither is what a player
    typed as a number, so every reader of input asks here instead.
    """
    if not isinstance(text, str) or not WHOLE_TEXT.fullmatch(text):
        return None
    if text[0] in "+-" and not signed:
        return None
    if len(text.lstrip("+-")) > digits:
        return None
    return int(text)


def is_int(value: Any) -> bool:
    """A JSON whole number (booleans are not numbers at the table)."""
    return isinstance(value, int) and not isinstance(value, bool)


def in_range(value: Any, lo: int, hi: int) -> bool:
    """A whole number from ``lo`` to ``hi``."""
    return is_int(value) and lo <= value <= hi


def is_seat(value: Any, n: int) -> bool:
    """One of ``n`` seats: 0 to n - 1."""
    return in_range(value, 0, n - 1)


def one_of(value: Any, choices: Collection[Any]) -> bool:
    """``value`` is one of ``choices`` (keys such as "S" or "NT"); a list or an object from JSON is
    none of them rather than an error (it cannot be looked up in a dict or set)."""
    return isinstance(value, Hashable) and value in choices


def per_seat(value: Any, n: int) -> TypeGuard[list[Any]]:
    """A list of one entry per seat (what the entries hold is checked apart)."""
    return isinstance(value, list) and len(value) == n


@dataclass(frozen=True)
class Counted:
    """The messages of a per-seat count, worded for what it counts (msgids marked with ``N_``):
    each noun has its own, so a translation can decline it ("lewy", "as vazas").

    Placeholders: ``shape`` {n} (players) and {count} (entries given); ``wrong`` {player}, {lo},
    {hi}; ``blank`` {player}; ``total`` {sum} and {total}; and any extra the caller passes.
    """

    shape: str  # the list does not hold one entry per player
    wrong: str  # an entry that is no whole number in range
    blank: str | None = None  # an entry still blank (None); without it, a blank is wrong
    total: str | None = None  # the entries do not add up to the total


TRICKS = Counted(
    shape=N_("Give one number per player ({n} players)."),
    wrong=N_("{player}: tricks must be a whole number from {lo} to {hi}."),
    blank=N_("Choose {player}'s tricks."),
    total=N_("The tricks add up to {sum}; a deal has {total}."),
)


def check_counts(
    value: Any,
    field: str,
    setup: Setup,
    lo: int,
    hi: int,
    words: Counted = TRICKS,
    total: int | None = None,
    **params: Any,
) -> tuple[list[FieldError], list[int] | None]:
    """Check a list of one whole number per player in ``lo..hi`` (adding up to ``total``, if given).

    ``words`` names what is counted in the messages; ``params`` are extra placeholders for them.
    Returns the errors and, when all is right, the list.
    The message names the real problem: a sum already past ``total`` is the sum's fault, not the
    fault of the player still blank; a blank (None) is a choice still to make.
    """
    if not per_seat(value, setup.n):
        count = len(value) if isinstance(value, list) else 0
        return [refuse(field, words.shape, n=setup.n, count=count, **params)], None
    errors = []
    for seat, item in enumerate(value):
        player = setup.players[seat]
        if item is None and words.blank:
            errors.append(missing(field, words.blank, seat, player=player, **params))
        elif not in_range(item, lo, hi):
            errors.append(refuse(field, words.wrong, seat, player=player, lo=lo, hi=hi, **params))
    if total is not None and words.total:
        known = [item for item in value if in_range(item, lo, hi)]
        blanks = sum(item is None for item in value)
        typed = len(known) + blanks == len(value)
        if typed and (sum(known) > total or (not blanks and sum(known) != total)):
            # Only blanks (or nothing) besides: the sum is the problem to name.
            return [refuse(field, words.total, sum=sum(known), total=total, **params)], None
    return errors, (list(value) if not errors else None)


@dataclass(frozen=True)
class Chosen:
    """The messages of a per-seat choice (msgids marked with ``N_``).

    Placeholders: ``shape`` {n}; ``wrong`` and ``blank`` {player}; ``repeat`` {player}, {other}
    (who chose it first) and the chosen value's name under the placeholder ``name``.
    """

    shape: str  # the list does not hold one entry per player
    wrong: str  # an entry that is none of the choices
    blank: str | None = None  # an entry still blank (None or ""); without it, a blank is wrong
    repeat: str | None = None  # a choice two players made, when each takes a different one
    name: str = "value"


def check_choices(
    value: Any,
    field: str,
    setup: Setup,
    words: Chosen,
    choices: Mapping[Any, str] | Callable[[Any], bool],
    also: Callable[[int, Any], FieldError | None] | None = None,
    **params: Any,
) -> tuple[list[FieldError], list[Any] | None]:
    """Check a list of one choice per player, each one of ``choices`` (a mapping of each choice to
    the msgid of its name, or a test) and, with ``words.repeat``, all different.

    ``also``: a further check of one seat's valid choice (its error, or None).
    Returns the errors (at most one per seat, in seat order) and, when all is right, the list.
    """
    if not per_seat(value, setup.n):
        return [refuse(field, words.shape, n=setup.n, **params)], None
    valid = choices if callable(choices) else lambda item: one_of(item, choices)
    errors = []
    seen: dict[Any, int] = {}
    for seat, item in enumerate(value):
        player = setup.players[seat]
        if (item is None or item == "") and words.blank:
            errors.append(missing(field, words.blank, seat, player=player, **params))
        elif not valid(item):
            errors.append(refuse(field, words.wrong, seat, player=player, **params))
        elif words.repeat and item in seen:
            named = Msg(choices[item]) if isinstance(choices, Mapping) else item
            other = setup.players[seen[item]]
            errors.append(
                refuse(field, words.repeat, seat, player=player, other=other, **{words.name: named}, **params)
            )
        else:
            if words.repeat:
                seen[item] = seat
            error = also(seat, item) if also else None
            if error:
                errors.append(error)
    return errors, (list(value) if not errors else None)


def check_dealer(facts: Mapping[str, Any], setup: Setup) -> list[FieldError]:
    dealer = facts.get("dealer")
    if dealer is not None and not is_seat(dealer, setup.n):
        return [refuse("dealer", N_("The dealer must be a seat from 0 to {last}."), last=setup.n - 1)]
    return []


def check_options(game: Game, raw: Any) -> tuple[list[FieldError], dict[str, Any]]:
    """Fill defaults, refuse unknown options and values of the wrong kind."""
    if raw is None:
        raw = {}
    if not isinstance(raw, Mapping):
        return [refuse("options", N_("Options must be an object."))], {}
    known = {o.key: o for o in game.options}
    errors = []
    for key in raw:
        if key not in known:
            errors.append(refuse("options", N_("“{key}” is not an option of this game."), key=key))
    options: dict[str, Any] = {}
    for opt in game.options:
        value = raw.get(opt.key, opt.default)
        options[opt.key] = value
        if value is None and opt.nullable:
            continue
        ok = True
        if opt.kind == "int":
            ok = (
                is_int(value)
                and (opt.minimum is None or value >= opt.minimum)
                and (opt.maximum is None or value <= opt.maximum)
            )
        elif opt.kind == "bool":
            ok = isinstance(value, bool)
        elif opt.kind == "choice":
            ok = any(value == c and type(value) is type(c) for c, _ in opt.choices)
        if not ok:
            errors.append(FieldError(opt.key, option_message(opt)))
    return errors, options


def option_message(opt: Option) -> Msg:
    if opt.kind == "bool":
        return msg(N_("{label}: choose yes or no."), label=Msg(opt.label))
    if opt.kind == "choice":
        return msg(N_("{label}: choose one of the listed values."), label=Msg(opt.label))
    if opt.maximum is not None:
        return msg(
            N_("{label}: a whole number from {lo} to {hi}."),
            label=Msg(opt.label),
            lo=opt.minimum,
            hi=opt.maximum,
        )
    return msg(
        N_("{label}: a whole number of at least {lo}."),
        label=Msg(opt.label),
        lo=opt.minimum,
    )


MAX_NAME = 40
# What a name may not hold (clubs.md, "Members and roles"), by Unicode category: control characters
# (newlines, tabs), format characters (bidi overrides and isolates, zero-width spaces and joiners),
# surrogates, line and paragraph separators. They hide a name, or turn the text around it on every
# phone that shows it. One rule for every name: players, members, clubs, events.
NAME_FORBIDDEN = frozenset({"Cc", "Cf", "Cs", "Zl", "Zp"})
UNSAFE_NAME = N_("A name may not hold line breaks, invisible characters or text-direction controls.")


def unsafe_name(name: str) -> bool:
    """Whether ``name`` (trimmed) holds a character no name may hold (:data:`NAME_FORBIDDEN`)."""
    return any(unicodedata.category(ch) in NAME_FORBIDDEN for ch in name)


def check_players(game: Game, players: Any, options: Mapping[str, Any]) -> list[FieldError]:
    """Names are 1-40 characters after trimming, unique, and as many as the game seats."""
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        return [refuse("players", N_("Players must be a list of names."))]
    counts = game.allowed_player_counts(options)
    errors = []
    if len(players) not in counts:
        errors.append(
            refuse("players", N_("This game needs {counts} players."), counts=format_counts(counts))
        )
    seen: set[str] = set()
    for seat, name in enumerate(players):
        name = name.strip()
        if not name:
            errors.append(refuse("players", N_("Every player needs a name."), seat))
        elif len(name) > MAX_NAME:
            errors.append(refuse("players", N_("A name has at most {max} characters."), seat, max=MAX_NAME))
        elif unsafe_name(name):
            errors.append(refuse("players", UNSAFE_NAME, seat))
        elif name.casefold() in seen:
            errors.append(refuse("players", N_("“{name}” is already at the table."), seat, name=name))
        seen.add(name.casefold())
    return errors


def format_counts(counts: Sequence[int]) -> str:
    counts = sorted(counts)
    if len(counts) == 1:
        return str(counts[0])
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}-{counts[-1]}"
    return ", ".join(map(str, counts))


def check_setup(
    game: Game, players: Any, raw_options: Any, first_dealer: Any, waiting_ok: bool = False
) -> tuple[list[FieldError], Setup | None]:
    """Validate everything fixed at the start of a game; build the :class:`Setup`.

    With ``waiting_ok`` (a game with no deal yet) the parts of the set-up that
    :meth:`Game.waiting_seats` says may come later can still be missing.
    """
    errors, options = check_options(game, raw_options)
    errors += check_players(game, players, options)
    if first_dealer is None:
        first_dealer = 0
    n = len(players) if isinstance(players, list) else 0
    if not is_int(first_dealer) or not 0 <= first_dealer < max(n, 1):
        errors.append(refuse("first_dealer", N_("The first dealer must be one of the players.")))
    if errors:
        return errors, None
    setup = Setup(tuple(p.strip() for p in players), options, first_dealer)
    errors = game.check_setup(setup)
    if waiting_ok:
        waiting = set(game.waiting_seats(setup.options, setup.n))
        errors = [e for e in errors if e.seat is None or e.seat not in waiting]
    return errors, (None if errors else setup)


def play(
    game: Game, setup: Setup, deals: Sequence[Mapping[str, Any]], after: GameResult | None = None
) -> GameResult:
    """Score a whole game from its facts; raise :class:`InvalidFacts` on the first bad deal.

    This is the one check shared by the HTML forms and the JSON API: a deal is
    refused when its facts break a rule, or when the game had already ended
    before it (a tie-free result makes later deals impossible).

    ``after``: the result of the first deals of ``deals`` (the game as stored, when
    one deal is added): scoring goes on from it instead of replaying them.
    """
    sides = game.sides(setup)
    totals = (0,) * setup.n
    state = game.start(setup)
    results: list[DealResult] = []
    finished = False
    winners: tuple[int, ...] = ()
    tied = False
    if after is not None:
        totals, state, results = after.totals, after.state, list(after.deals)
        finished, winners, tied = after.finished, after.winners, after.tiebreak
    # Only the deals after ``after``'s are played: a long game's append costs one deal, not a loop.
    for k in range(len(results), len(deals)):
        facts = deals[k]
        if not isinstance(facts, Mapping):
            raise InvalidFacts([FieldError("deals", msg(N_("A deal must be an object.")), deal=k)])
        if finished:
            raise InvalidFacts(
                [
                    FieldError(
                        "deals",
                        msg(
                            game.ended_message,
                            n=k,
                        ),
                        deal=k,
                    )
                ]
            )
        errors = check_dealer(facts, setup)
        dealer = facts.get("dealer", (setup.first_dealer + k) % setup.n) if not errors else 0
        if not errors:
            errors = game.check_deal(setup, state, facts, dealer)
        if errors:
            raise InvalidFacts([FieldError(e.field, e.message, e.seat, k, e.missing) for e in errors])
        scored = game.score_deal(setup, state, facts, dealer)
        state = scored.state
        totals = tuple(t + s for t, s in zip(totals, scored.scores, strict=True))
        results.append(
            DealResult(
                index=k,
                dealer=dealer if game.has_dealer else None,
                facts=facts,
                scores=scored.scores,
                explanations=scored.explanations,
                totals=totals,
                tiebreak=tied,
                summary=scored.summary,
                notes=scored.notes,
                detail=scored.detail,
                state=scored.state,
            )
        )
        if game.reached_end(setup, totals, k + 1, state):
            winners = game.decide(setup, totals, state)
            finished = bool(winners)
            tied = not finished
        else:
            # A tiebreak deal that took every total back below the target: nobody is tied for a
            # win any more, the game plays on (game-record.md: ``tiebreak`` true while tied
            # players must play another deal).
            tied = False
    next_dealer = None
    if game.has_dealer and not finished:
        last = results[-1].dealer if results else setup.first_dealer - 1
        assert last is not None  # a game with a dealer names one in every deal
        next_dealer = (last + 1) % setup.n
    return GameResult(
        setup=setup,
        deals=tuple(results),
        totals=totals,
        next_dealer=next_dealer,
        finished=finished,
        winners=winners,
        tiebreak=tied,
        sides=sides,
        state=state,
        low_wins=game.low_wins(setup),
    )


def play_on(game: Game, setup: Setup, known: GameResult, more: Sequence[Mapping[str, Any]]) -> GameResult:
    """``known`` (the result of a game's first deals) with the deals ``more`` played after them."""
    return play(game, setup, _Continued(known.deals, more), after=known)


class _Continued(Sequence[Mapping[str, Any]]):
    """The facts of ``known``'s deals and then ``more``, without copying a long game's facts."""

    def __init__(self, known: Sequence[DealResult], more: Sequence[Mapping[str, Any]]):
        self.known, self.more = known, more

    def __len__(self) -> int:
        return len(self.known) + len(self.more)

    @overload
    def __getitem__(self, k: int) -> Mapping[str, Any]: ...

    @overload
    def __getitem__(self, k: slice) -> Sequence[Mapping[str, Any]]: ...

    def __getitem__(self, k: int | slice) -> Mapping[str, Any] | Sequence[Mapping[str, Any]]:
        # ``play`` asks by index from the first new deal on (no slices, no negative indexes).
        if isinstance(k, slice):
            raise TypeError("_Continued takes no slices")
        n = len(self.known)
        return self.known[k].facts if k < n else self.more[k - n]


def check(game: Game, setup: Setup, deals: Sequence[Mapping[str, Any]]) -> list[FieldError]:
    """The errors :func:`play` would raise, as a list (empty when all is well)."""
    try:
        play(game, setup, deals)
    except InvalidFacts as exc:
        return list(exc.errors)
    return []
