"""The Abracadabra deal form: as the players report it after the deal, or as the table plays it.

On the game page a deal goes through stages kept on the game's draft
(``POST /g/<id>/draft``), each a real form that works without JavaScript:

- ``setup``: trump, bid suits, the Declarer and bid, each player's bid cards,
  the Declarer's exposed cards and the exposed piles; and below them, by
  default (issue 53), the tricks as the players report them after the deal
  (``told``: each player's trick count, the bid cards whose trick he won, his
  bid-suit cards), which "Score the deal" records at once
  (``POST /g/<id>/deals``, facts ``tricks`` with ``bid_won``). "Start play" (or
  trick 1's winner) keeps the set-up as the draft once
  :func:`check_setup_facts` accepts it, for entry trick by trick; "All passed"
  records a thrown-in deal at once.
- ``play``: one tap per trick winner appends to the draft's ``trick_winners``;
  "undo" takes the last one back, and the list of every trick fixes any
  earlier trick or enters all winners at once.
- ``suits``: each player's count of bid-suit cards won; "Score the deal"
  records it (``POST /g/<id>/deals``), which clears the draft.

The deal page uses the same class as a single full form (every fact at once)
for corrections.

A tap carries its trick number, so the same tap twice (a double tap) counts
once and a tap for a trick that is no longer the next one (another device
got there first) is refused; an undo names the trick it takes back.

Each stage posts only its own inputs. Every field here keeps its pre-filled
value (the draft's) when a post does not carry its name at all; the
templates put a hidden empty input before each group they show, so a group
shown with nothing chosen reads as empty rather than as absent.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from flask_babel import lazy_gettext as _l
from wtforms import Field, HiddenField, RadioField, SelectMultipleField
from wtforms.widgets import CheckboxInput, HiddenInput, ListWidget

from ... import i18n
from ...forms.base import DraftStep, RulesForm, choices, lenient_int
from ...rules import FieldError, Game, GameResult, Msg, Setup
from ...rules.base import N_, is_int, refuse
from ...rules.cards import SUIT_MARKS, SUIT_NAMES, SUITS, TRUMPS
from .rules import (
    bid_status,
    bid_trick_owners,
    cards_per_trick,
    check_setup_facts,
    check_trick_winners,
    deal_layout,
    declared_by_cards,
    has_dummy,
    rank_label,
    suit_size,
    trick_counts,
    trick_messages,
    tricks_per_deal,
    trump_choices,
)

# Where each fact's group of inputs is shown, for errors that name a fact.
SETUP_GROUPS = ("thrown_in", "trump", "suits", "declarer", "bid", "bid_cards", "exposed", "piles_exposed")
SHOWN = {
    # The set-up stage also takes the deal as the players report it after play (issue 53).
    "setup": {*SETUP_GROUPS, "tricks", "bid_won", "suit_cards"},
    "play": {"trick_winners"},
    "suits": {"trick_winners", "suit_cards"},
    "full": {*SETUP_GROUPS, "trick_winners", "tricks", "bid_won", "suit_cards"},
}
GROUP_LABELS = {
    "thrown_in": _l("All passed"),
    "trump": _l("Trump"),
    "suits": _l("Bid suits"),
    "declarer": _l("Declarer"),
    "bid": _l("Bid"),
    "bid_cards": _l("Bid cards"),
    "exposed": _l("Exposed cards"),
    "piles_exposed": _l("Piles exposed"),
    "trick_winners": _l("Trick winners"),
    "suit_cards": _l("Bid-suit cards won"),
    "tricks": _l("Tricks won"),
    "bid_won": _l("Bid cards won"),
}
YES = ("y", "yes", "1", "on", "true")


def _rank_choices(tricks: int) -> list:
    return choices((r, i18n.render(rank_label(r))) for r in range(1, tricks + 1))


def _posted(valuelist: Sequence[str]) -> list[str]:
    return [v for v in valuelist if v != ""]


class OneChoice(RadioField):
    """One choice drawn as chips; the last non-empty value posted wins; absent keeps the draft's."""

    def __init__(self, label: Any = None, pairs: Iterable[tuple[Any, Any]] = (), **kwargs: Any):
        kwargs.update(choices=choices(pairs), coerce=lenient_int, validate_choice=False)
        super().__init__(label, **kwargs)

    def process_formdata(self, valuelist: list[str]) -> None:
        if not valuelist:
            return
        values = _posted(valuelist)
        self.data = lenient_int(values[-1].strip()) if values else None


class ManyChoices(SelectMultipleField):
    """Several choices drawn as checkbox chips; absent keeps the draft's."""

    widget = ListWidget(prefix_label=False)
    option_widget = CheckboxInput()

    def __init__(self, label: Any = None, pairs: Iterable[tuple[Any, Any]] = (), **kwargs: Any):
        kwargs.update(choices=choices(pairs), coerce=lenient_int, validate_choice=False)
        super().__init__(label, **kwargs)

    def process_formdata(self, valuelist: list[str]) -> None:
        if not valuelist:
            return
        self.data = [lenient_int(v.strip()) for v in _posted(valuelist)]


class Flag(Field):
    """Yes when any posted value says so (a button or a checkbox); absent keeps the draft's.

    A hidden input holding a bool: a HiddenField's methods all replaced, its data no text.
    """

    widget = HiddenInput()

    def process_data(self, value: Any) -> None:
        self.data = bool(value)

    def process_formdata(self, valuelist: list[str]) -> None:
        if valuelist:
            self.data = any(v.strip().lower() in YES for v in valuelist)

    def _value(self) -> str:
        return "y" if self.data else ""


class Word(HiddenField):
    """A button's or hidden input's value, parsed leniently (an int when it is one)."""

    def process_formdata(self, valuelist: list[str]) -> None:
        if valuelist:
            self.data = lenient_int(valuelist[-1].strip())


@dataclass(frozen=True)
class TrickStep(DraftStep):
    """One post's effect on a deal entered in steps: the draft to keep, or why nothing changes.

    ``lost_setup``: a trick entered with no set-up kept (another device discarded or recorded it).
    ``stale_tap``: a tap for trick n that is no longer the next one (another device moved on).
    Either way :meth:`errors` refuses it and the draft kept is not touched.
    """

    lost_setup: bool = False
    stale_tap: int | None = None

    def errors(self, rules: Game, result: GameResult) -> list[FieldError]:
        """The rules' errors for this half-entered deal (empty: it may be kept)."""
        if self.lost_setup:
            text = N_("This deal has no set-up any more (it was discarded or recorded): enter it again.")
            return [refuse("setup", text)]
        if self.stale_tap is not None:
            text = N_(
                "That tap was for trick {trick}, but {count} tricks are entered now: "
                "nothing was changed. Check the tricks below."
            )
            count = len(self.facts.get("trick_winners") or [])
            return [refuse("trick_winners", text, trick=self.stale_tap, count=count)]
        setup = result.setup
        errors = list(check_setup_facts(setup, self.facts))
        errors += check_trick_winners(setup, self.facts.get("trick_winners") or [], complete=False)
        return errors


class _Card(TypedDict):
    """A bid card in the play view: its rank, how it reads, won, lost or pending, and shown."""

    rank: int
    label: Msg
    state: str
    right: bool


@dataclass(frozen=True)
class DraftState:
    """A half-entered deal and its stages: the set-up, then the tricks one by one, then the
    bid-suit cards. Each transition returns a :class:`TrickStep` (the next draft, or why not)."""

    facts: Mapping[str, Any]

    @property
    def winners(self) -> list[Any]:
        return list(self.facts.get("trick_winners") or [])

    @property
    def has_setup(self) -> bool:
        return "bid_cards" in self.facts

    def stage(self, tricks: int) -> str:
        """Where the deal stands: "setup", "play" (tricks to come) or "suits"."""
        if not self.has_setup:
            return "setup"
        return "play" if len(self.winners) < tricks else "suits"

    def _with(self, winners: list[Any]) -> TrickStep:
        if not self.has_setup:
            return TrickStep(dict(self.facts), lost_setup=True)
        return TrickStep({**self.facts, "trick_winners": winners})

    def tap(self, trick: int | None, winner: Any) -> TrickStep:
        """Trick ``trick`` was won by ``winner``; a double tap changes nothing, a stale one is refused."""
        winners = self.winners
        if not self.has_setup:
            return self._with(winners)
        if trick == len(winners) + 1 or trick is None:
            return self._with([*winners, winner])
        if winners and trick == len(winners) and winners[-1] == winner:
            return self._with(winners)
        # A second device (or a stale page) named another winner: refuse, change nothing.
        return TrickStep(dict(self.facts), stale_tap=trick)

    def undo(self, played: Any) -> TrickStep:
        """Take back trick ``played``, the last one; an undo that already happened is not done twice."""
        winners = self.winners
        if winners and played == len(winners):
            winners.pop()
        return self._with(winners)

    def tricks(self, winners: list[Any]) -> TrickStep:
        return self._with(winners)

    def set_up(self, facts: dict[str, Any]) -> TrickStep:
        """A (new) set-up; tricks entered so far are kept."""
        winners = self.winners
        return TrickStep({**facts, "trick_winners": winners} if winners else facts)


class AbracadabraEntry(RulesForm):
    """Inputs per seat and per trick are added by :meth:`for_setup`."""

    template = "games/abracadabra/_entry.html"
    setup: Setup
    # The bid suits shown are the last deal's (prefill): the page says so.
    suits_kept = False
    # For the templates: suit symbols and names, trump names.
    suit_marks = SUIT_MARKS
    suit_names = SUIT_NAMES
    trump_names = TRUMPS

    # -- building --------------------------------------------------------------
    @classmethod
    def for_setup(cls, setup: Setup, data: dict[str, Any] | None = None) -> AbracadabraEntry:
        n, tricks = setup.n, tricks_per_deal(setup)
        seats = list(enumerate(setup.players))
        fields: dict[str, Any] = {
            "stage": Word(),
            "step": Word(),
            "tap": Word(),
            "trick": Word(),
            "undo": Word(),
            # "1": the tricks are as the players report them (``tricks`` with ``bid_won``), the
            # form's default after the deal; else trick by trick (``trick_winners``).
            "told": Word(),
            "thrown_in": Flag(_l("All passed: the deal is thrown in")),
            # Only the trumps this table can have: no No Trump without the Joker.
            "trump": OneChoice(
                _l("Trump"), [(k, SUIT_MARKS.get(k) or _l("NT")) for k in trump_choices(setup)]
            ),
            "declarer": OneChoice(_l("Declarer"), seats),
            "bid": OneChoice(_l("Bid"), [(b, str(b)) for b in range(1, tricks + 1)]),
            "exposed": ManyChoices(_l("Exposed cards"), []),
            "piles_exposed": ManyChoices(_l("Piles exposed"), seats),
        }
        for seat, name in seats:
            fields[f"suits_{seat}"] = OneChoice(name, [(k, SUIT_MARKS[k]) for k in SUITS])
            fields[f"bid_cards_{seat}"] = ManyChoices(name, [])
            fields[f"suit_cards_{seat}"] = OneChoice(name, [(c, str(c)) for c in range(suit_size(setup) + 1)])
            fields[f"tricks_{seat}"] = OneChoice(name, [(c, str(c)) for c in range(tricks + 1)])
            fields[f"bid_won_{seat}"] = ManyChoices(name, [])
        for trick in range(1, tricks + 1):
            fields[f"trick_{trick}"] = OneChoice(_l("Trick %(n)s", n=trick), seats)
        form = type("AbracadabraEntryForm", (cls,), fields)(data=data)
        form.setup = setup
        # Rank labels (A, J, Q, K) in the page's language, made per request.
        ranks = _rank_choices(tricks)
        form.exposed.choices = ranks
        for seat in range(n):
            form[f"bid_cards_{seat}"].choices = ranks
            form[f"bid_won_{seat}"].choices = ranks
        return form

    @staticmethod
    def data_from(facts: Mapping[str, Any]) -> dict[str, Any]:
        """Inputs pre-filled from a recorded deal or from the draft (any part of a deal)."""
        piles = facts.get("piles_exposed") or []
        data: dict[str, Any] = {
            "thrown_in": bool(facts.get("thrown_in")),
            "trump": facts.get("trump"),
            "declarer": facts.get("declarer"),
            "bid": facts.get("bid"),
            "exposed": list(facts.get("exposed") or []),
            "piles_exposed": [seat for seat, shown in enumerate(piles) if shown is True],
        }
        for seat, suit in enumerate(facts.get("suits") or []):
            data[f"suits_{seat}"] = suit
        for seat, cards in enumerate(facts.get("bid_cards") or []):
            data[f"bid_cards_{seat}"] = list(cards) if isinstance(cards, list) else []
        for trick, winner in enumerate(facts.get("trick_winners") or [], start=1):
            data[f"trick_{trick}"] = winner
        for seat, count in enumerate(facts.get("suit_cards") or []):
            data[f"suit_cards_{seat}"] = count
        for seat, count in enumerate(facts.get("tricks") or []):
            data[f"tricks_{seat}"] = count
        for seat, cards in enumerate(facts.get("bid_won") or []):
            data[f"bid_won_{seat}"] = list(cards) if isinstance(cards, list) else []
        data["told"] = 1 if "tricks" in facts else None
        return data

    def prefill(self) -> None:
        """Each player's bid suit as in the last deal that named them: tables mostly keep theirs."""
        for facts in reversed(self.earlier()):
            suits = facts.get("suits")
            if isinstance(suits, list) and len(suits) == self.setup.n:
                for seat, suit in enumerate(suits):
                    field = self[f"suits_{seat}"]
                    if field.data is None:
                        field.data = suit
                self.suits_kept = True
                return

    # -- reading ---------------------------------------------------------------
    def value(self, name: str) -> Any:
        return self[name].data

    def pre_play(self, setup: Setup) -> dict[str, Any]:
        """The facts known before the first trick, as typed (the rules judge them).

        A Declarer or bid left empty is taken from the bid cards when they say it (the one
        player with the most laid cards, and his count): two taps fewer, and what the
        cards say cannot contradict them.
        """
        piles = self.piles_exposed.data or []
        bid_cards = [list(self.value(f"bid_cards_{s}") or []) for s in range(setup.n)]
        if self.told.data == 1:
            # As reported: a bid card won was laid, so its one tap under "won" lays it too (one tap
            # a card, won or lost; issue 53). The rules still judge a report sent by the API.
            for seat in range(setup.n):
                won = [r for r in self.value(f"bid_won_{seat}") or [] if r not in bid_cards[seat]]
                bid_cards[seat] = sorted([*bid_cards[seat], *won], key=_rank_order)
        declarer, bid = self.declarer.data, self.bid.data
        implied = declared_by_cards(bid_cards)
        if declarer is None and bid is None and implied is not None:
            declarer, bid = implied
        elif bid is None and is_int(declarer) and 0 <= declarer < setup.n and bid_cards[declarer]:
            bid = len(bid_cards[declarer])
        facts: dict[str, Any] = {}
        # Optional (they change no score): left out when not given, kept when given.
        if self.trump.data is not None:
            facts["trump"] = self.trump.data
        suits = last_suit([self.value(f"suits_{s}") for s in range(setup.n)])
        if any(suit is not None for suit in suits):
            facts["suits"] = suits
        return facts | {
            "declarer": declarer,
            "bid": bid,
            "bid_cards": bid_cards,
            "exposed": list(self.exposed.data or []),
            "piles_exposed": [s in piles for s in range(setup.n)],
        }

    def winners(self, setup: Setup) -> list[Any]:
        """Trick winners in trick order, up to the last trick given (a gap stays None)."""
        values = [self.value(f"trick_{t}") for t in range(1, tricks_per_deal(setup) + 1)]
        while values and values[-1] is None:
            values.pop()
        return values

    def to_facts(self, setup: Setup) -> dict[str, Any]:
        if self.thrown_in.data:
            # All passed: only what was known before the auction may be kept.
            facts: dict[str, Any] = {"thrown_in": True}
            if self.trump.data is not None:
                facts["trump"] = self.trump.data
            suits = last_suit([self.value(f"suits_{s}") for s in range(setup.n)])
            if any(suit is not None for suit in suits):
                facts["suits"] = suits
            return facts
        facts = self.pre_play(setup)
        if self.told.data == 1:
            # As the players report it after the deal: counts and bid cards won, no trick order.
            given = [self.value(f"tricks_{s}") for s in range(setup.n)]
            facts["tricks"] = last_count(given, tricks_per_deal(setup))
            won = [self.value(f"bid_won_{s}") or [] for s in range(setup.n)]
            facts["bid_won"] = [sorted(cards, key=_rank_order) for cards in won]
        else:
            facts["trick_winners"] = self.winners(setup)
        facts["suit_cards"] = [self.value(f"suit_cards_{s}") for s in range(setup.n)]
        return facts

    def to_draft(self, setup: Setup, current: Mapping[str, Any]) -> TrickStep:
        """What this post does to the draft: a tap, an undo, the list of winners, or the set-up."""
        draft = DraftState(current)
        if self.tap.data is not None and self.stage.data == "setup":
            # Trick 1's winner tapped on the set-up: the set-up is kept and play starts with it.
            started = draft.set_up(self.pre_play(setup))
            return DraftState(started.facts).tap(self.trick.data, self.tap.data)
        if self.tap.data is not None:
            return draft.tap(self.trick.data, self.tap.data)
        if self.undo.data is not None:
            return draft.undo(self.undo.data)
        if self.step.data == "tricks":
            return draft.tricks(self.winners(setup))
        return draft.set_up(self.pre_play(setup))

    # -- what the page shows -----------------------------------------------------
    def layout(self) -> dict[str, Any]:
        """The table's deal: tricks, cards a trick, cards of a suit (for the report's chips)."""
        return deal_layout(self.setup)

    def current_stage(self, draft: Mapping[str, Any] | None, live: bool, want_setup: bool = False) -> str:
        """The stage to show: the one posted when it was refused, else where the draft stands."""
        if not live:
            return "full"
        kept = DraftState(draft or {}).stage(tricks_per_deal(self.setup))
        posted = self.stage.data
        if self.has_errors and (posted == "setup" or posted == kept):
            return posted
        return "setup" if want_setup else kept

    def stray_errors(self, stage: str) -> list[str]:
        """Refusals about inputs this stage does not show, named so they make sense here."""
        shown = SHOWN[stage]
        lines = []
        for group, texts in self.group_errors.items():
            if group not in shown:
                label = GROUP_LABELS.get(group)
                lines += [f"{label}: {text}" if label else text for text in texts]
        for field in self:
            group = field.name.rsplit("_", 1)[0] if field.name[-1:].isdigit() else field.name
            if group == "trick":
                group = "trick_winners"
            if not field.errors or group in shown:
                continue
            label = GROUP_LABELS.get(group)
            lines += [f"{label} ({field.label.text}): {text}" if label else text for text in field.errors]
        return lines

    def rank(self, rank: int) -> str:
        """A bid card as printed on it (A, 2-10, J, Q, K) in the page's language."""
        return i18n.render(rank_label(rank))

    def typed_owners(self) -> dict[int, tuple[int, ...]]:
        """Who bid each trick, from the bid cards as typed in this form."""
        cards = [self.value(f"bid_cards_{s}") or [] for s in range(self.setup.n)]
        return {
            t: bid_trick_owners({"bid_cards": cards}, t) for t in range(1, tricks_per_deal(self.setup) + 1)
        }

    def play_view(self, draft: Mapping[str, Any] | None) -> dict[str, Any]:
        """Everything the play and suit-card stages show, from the kept draft."""
        setup = self.setup
        draft = dict(draft or {})
        tricks = tricks_per_deal(setup)
        winners = list(draft.get("trick_winners") or [])
        played = len(winners)
        counts = trick_counts(setup, winners)
        status = bid_status(draft, winners)
        declarer = draft.get("declarer")
        exposed = set(draft.get("exposed") or [])
        piles = draft.get("piles_exposed") or [False] * setup.n
        suits = draft.get("suits") or [None] * setup.n
        most = [min(suit_size(setup), counts[s] * cards_per_trick(setup)) for s in range(setup.n)]
        rows = []
        for seat, name in enumerate(setup.players):
            marks = status[seat] if seat < len(status) else {"won": [], "lost": [], "pending": []}
            cards = sorted(
                (
                    _Card(
                        rank=rank,
                        label=rank_label(rank),
                        state=state,
                        right=seat == declarer and rank in exposed,
                    )
                    for state in ("won", "lost", "pending")
                    for rank in marks[state]
                ),
                key=lambda card: card["rank"],
            )
            rows.append(
                {
                    "seat": seat,
                    "name": name,
                    "suit": suits[seat] if seat < len(suits) else None,
                    "tricks": counts[seat],
                    "cards": cards,
                    "pile": bool(piles[seat]) if seat < len(piles) else False,
                    "declarer": seat == declarer,
                    "most": most[seat],
                }
            )
        view: dict[str, Any] = {
            "tricks": tricks,
            "played": played,
            "rows": rows,
            "declarer": declarer,
            "bid": draft.get("bid"),
            "trump": draft.get("trump"),
            "dummy": has_dummy(setup),
            "owners": {t: bid_trick_owners(draft, t) for t in range(1, tricks + 1)},
            "last": None,
            "next": None,
        }
        if played and isinstance(winners[-1], int) and 0 <= winners[-1] < setup.n:
            view["last"] = {
                "trick": played,
                "winner": winners[-1],
                "messages": trick_messages(setup, draft, played, winners[-1]),
            }
        if played < tricks:
            view["next"] = {
                "trick": played + 1,
                "messages": trick_messages(setup, draft, played + 1, None),
            }
        return view

    def trick_script(self, draft: Mapping[str, Any] | None) -> list[dict[str, Any]]:
        """Per trick, what the rules say about it for static/app.js to show with no round trip:
        who bid it, "Trick n is bid by ..." and, for a tap on each player, the same sentences
        the server's own play page shows after that tap (an empty list: the plain "Trick n: X.").
        """
        setup = self.setup
        draft = dict(draft or {})
        return [
            {
                "owners": list(bid_trick_owners(draft, trick)),
                "bidby": [i18n.render(m) for m in trick_messages(setup, draft, trick, None)],
                "said": [
                    [i18n.render(m) for m in trick_messages(setup, draft, trick, seat)]
                    for seat in range(setup.n)
                ],
            }
            for trick in range(1, tricks_per_deal(setup) + 1)
        ]


def last_count(given: list[Any], total: int) -> list[Any]:
    """The trick counts, one player's left out filled in when the others' are whole numbers that
    leave 0 to ``total`` for him: they add up to the tricks in a deal, so the rules force it (as
    static/app.js fills it in with JavaScript; the server does the same for a page without it)."""
    counts = list(given)
    blank = [s for s, v in enumerate(counts) if v is None]
    known = [v for v in counts if v is not None]
    if len(blank) == 1 and all(is_int(v) for v in known) and 0 <= total - sum(known) <= total:
        counts[blank[0]] = total - sum(known)
    return counts


def _rank_order(rank: Any) -> tuple[int, Any]:
    """Ranks in order, anything else typed (refused by the rules) after them as it came."""
    return (0, rank) if is_int(rank) else (1, 0)


def last_suit(suits: list[Any]) -> list[Any]:
    """The bid suits, with the last player's filled in when the others hold all the other suits
    (four players take the four suits: the last one is forced; issue 41)."""
    blank = [s for s, v in enumerate(suits) if v is None]
    left = set(SUITS) - set(suits)
    if len(blank) == 1 and len(suits) == len(SUITS) and len(left) == 1:
        suits = [*suits]
        suits[blank[0]] = left.pop()
    return suits
