"""Form plumbing shared by every game: parsing lenient, judging left to the rules.

WTForms parses what was typed and keeps it for the re-rendered page; the
rules decide what is legal, and their errors land next to the field they
name (``tricks`` of seat 2 lands on ``tricks_2``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import BooleanField, Field, IntegerField, RadioField, SelectField, StringField

# WTForms 3.3 added SelectChoice; its stubs (types-WTForms) describe 3.2 and lack it.
from wtforms.fields.choices import SelectChoice  # type: ignore[attr-defined]
from wtforms.validators import Optional
from wtforms.widgets import NumberInput

from .. import i18n
from ..rules import FieldError, Game, GameResult, Option
from ..rules.base import read_whole


def strip(value: Any) -> Any:
    return value.strip() if isinstance(value, str) else value


def lenient_int(value: Any) -> Any:
    """An int when the text is one; otherwise the text, for the rules to refuse by name."""
    if value in (None, ""):
        return None
    if isinstance(value, int):
        return value
    number = read_whole(value.strip() if isinstance(value, str) else value, 18, signed=True)
    return value if number is None else number


@dataclass(frozen=True)
class DraftStep:
    """One post's effect on a deal entered in steps: the draft to keep (``facts``), if the
    rules let it be kept (:meth:`errors`). A game's form subclasses it for its own refusals."""

    facts: dict[str, Any]

    def errors(self, rules: Game, result: GameResult) -> list[FieldError]:
        return []


class RulesForm(FlaskForm):
    """A form whose errors come from the rules as :class:`FieldError` values."""

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # Errors about a whole group of inputs (all the tricks), shown at the group.
        self.group_errors: dict[str, list[str]] = {}
        # The rules' state before the deal entered (None: the start), asked for only when needed:
        # the page sets it from the game it has scored already, so the form replays nothing.
        self.prior: Callable[[], Any] = lambda: None
        # The facts of the deal before the one entered (None before the first), for a form that
        # offers to repeat them.
        self.previous: Mapping[str, Any] | None = None
        # The facts of the deals before the one entered, oldest first, asked for only by a form
        # that offers from them (Abracadabra keeps the last deal's bid suits).
        self.earlier: Callable[[], Sequence[Mapping[str, Any]]] = lambda: ()

    def field_name(self, error: FieldError) -> str:
        if error.seat is not None:
            return f"{error.field}_{error.seat}"
        return error.field

    def apply_errors(self, errors: Iterable[FieldError]) -> None:
        for error in errors:
            text = i18n.render(error.message)
            field = getattr(self, self.field_name(error), None)
            if isinstance(field, Field) and error.seat is not None:
                field.errors = [*field.errors, text]
            else:
                self.group_errors.setdefault(error.field, []).append(text)

    def to_deals(self, setup: Any) -> list[dict[str, Any]]:
        """The deals this one submission records, in order: usually the one deal of
        ``to_facts`` (a game's form that records more at once overrides it)."""
        return [self.to_facts(setup)]

    def prefill(self) -> None:
        """Fill a fresh next-deal form with what saves taps (a game's form overrides it)."""

    def repeat(self) -> None:
        """Fill a fresh next-deal form with :attr:`previous` as far as this deal allows it
        ("same as last deal"; a game's form that offers it overrides this)."""

    def error_items(self) -> list[tuple[str, str]]:
        """Every message with the id of the element it is about, for the summary atop the form:
        a group's message is shown at its group (``<name>-error``), a seat's at its first input."""
        items = []
        for name, texts in self.group_errors.items():
            items += [(text, f"{name}-error" + (f"-{i}" if i else "")) for i, text in enumerate(texts)]
        for field in self:
            if field.errors and isinstance(field.errors, list):
                target = f"{field.id}-0" if isinstance(field, RadioField) else field.id
                items += [(str(text), target) for text in field.errors]
        return items

    @property
    def has_errors(self) -> bool:
        return bool(self.group_errors) or any(f.errors for f in self)


class NumberField(StringField):
    """A whole-number input whose text the rules judge (so they can name the rule broken)."""

    widget = NumberInput()

    def process_formdata(self, valuelist: list[Any]) -> None:
        if valuelist:
            self.data = lenient_int(str(valuelist[0]).strip())

    def _value(self) -> str:
        return "" if self.data is None else str(self.data)


def whole_arg(text: str) -> int:
    """A query's or form's whole number as ``request.args.get(..., type=whole_arg)`` reads it:
    :func:`read_whole` (ASCII digits, at most 9), else ValueError (the caller's default)."""
    number = read_whole(text.strip(), 9)
    if number is None:
        raise ValueError(text)
    return number


# WTForms' own message, in its own catalogs (a name, so our extraction leaves it to them).
NOT_A_NUMBER = "Not a valid integer value."


class WholeField(IntegerField):
    """WTForms' IntegerField read with the one number reading (:func:`read_whole`): ``int()``
    would take ``١٢`` or ``1_0`` for a number of days."""

    def process_formdata(self, valuelist: list[Any]) -> None:
        if not valuelist:
            return
        text = str(valuelist[0]).strip()
        self.data = read_whole(text, 9, signed=True)
        if self.data is None and text:
            raise ValueError(self.gettext(NOT_A_NUMBER))


def choices(pairs: Iterable[tuple[Any, Any]]) -> list[SelectChoice]:
    return [SelectChoice(value, label) for value, label in pairs]


def seat_radio(label: str, pairs: Iterable[tuple[Any, Any]]) -> RadioField:
    """One choice per seat (tricks, a card...), parsed leniently for the rules to judge."""
    return RadioField(
        label, choices=choices(pairs), coerce=lenient_int, validate_choice=False, validators=[Optional()]
    )


def option_field(option: Option) -> Field:
    """The form input for one rules option, labelled in the page's language."""
    label = _l(option.label)
    if option.kind == "bool":
        return BooleanField(label, default=option.default)
    if option.kind == "choice":
        return RadioField(
            label,
            choices=choices((str(value), _l(text)) for value, text in option.choices),
            default=str(option.default),
            validate_choice=False,
        )
    return NumberField(label, default=option.default)


def option_value(option: Option, field: Field) -> Any:
    """The typed value of an option input, in the JSON type the rules expect."""
    if option.kind == "choice":
        for value, _text in option.choices:
            if str(value) == field.data:
                return value
        return field.data
    if option.kind == "int" and field.data is None:
        return None if option.nullable else option.default
    return field.data


def new_game_form(
    game: Game,
    max_players: int,
    data: dict[str, Any] | None = None,
    clubs: Sequence[tuple[str, str]] = (),
    club: str = "",
) -> RulesForm:
    """The set-up form of ``game``: whose game it is (personal, or one of the device's ``clubs``
    as (slug, name), ``club`` preselected), a name per seat, the first dealer, and the options."""
    fields: dict[str, Field] = {}
    fields["club"] = SelectField(
        _l("Whose game"),
        choices=choices([("", _l("Personal (only this device lists it)")), *clubs]),
        default=club if any(slug == club for slug, _name in clubs) else "",
        validate_choice=True,
    )
    for seat in range(max_players):
        fields[f"players_{seat}"] = StringField(_l("Player %(n)s", n=seat + 1), filters=[strip])
    fields["first_dealer"] = RadioField(
        _l("First dealer"),
        choices=choices((str(s), str(s + 1)) for s in range(max_players)),
        default="0",
        coerce=lenient_int,
        validate_choice=False,
    )
    for option in game.options:
        if option.kind != "custom":
            fields[f"opt_{option.key}"] = option_field(option)
    form_class = type(f"{type(game).__name__}SetupForm", (SetupForm,), fields)
    return form_class(data=data)


class SetupForm(RulesForm):
    def field_name(self, error: FieldError) -> str:
        if error.field == "players" and error.seat is not None:
            return f"players_{error.seat}"
        if hasattr(self, f"opt_{error.field}"):
            return f"opt_{error.field}"
        return error.field

    def apply_errors(self, errors: Iterable[FieldError]) -> None:
        for error in errors:
            field = getattr(self, self.field_name(error), None)
            if isinstance(field, Field):
                field.errors = [*field.errors, i18n.render(error.message)]
            else:
                self.group_errors.setdefault(error.field, []).append(i18n.render(error.message))

    def players(self) -> list[str]:
        """Names typed, in seat order; blank seats at the end are empty chairs."""
        names = [f.data or "" for name, f in self._fields.items() if name.startswith("players_")]
        while names and not names[-1]:
            names.pop()
        return names

    def options(self, game: Game) -> dict[str, Any]:
        return {
            o.key: option_value(o, getattr(self, f"opt_{o.key}")) for o in game.options if o.kind != "custom"
        }
