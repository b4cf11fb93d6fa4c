"""The form that makes a club's event (``/c/<slug>/events/new``).

Parsing is lenient, judging is the service's: the form turns what was typed into the API's
body (events.md, "Creating") and :func:`scorekeeper.events.service.check_event` refuses it by field, so the page
and the API give the same answers. A number that is not one is passed on as typed, for the
service to refuse by name.

A format's own settings (a pairs event's pairing, a ladder's shuffle) are asked as their format
says (:class:`scorekeeper.events.formats.Field`): the form is made for the registry of the
moment, so a format registered later is asked for its settings with nothing written here.
"""

from __future__ import annotations

from collections.abc import Sequence
from threading import Lock
from typing import Any

from flask_babel import gettext as _
from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import (
    BooleanField,
    SelectField,
    SelectMultipleField,
    StringField,
    TextAreaField,
    ValidationError,
)

from ...events.formats import FORMATS, Field, Option
from ...events.formats import options as format_options
from ...forms.base import choices, lenient_int, strip
from ...games import GAMES, event_traits
from ...i18n import render
from ...rules import FieldError

# A service field the form shows elsewhere: pairs are typed in the players' box, options and
# a mixer's table size are the game's, and a refusal of the whole body goes to the top.
SHOWN_AT = {"pairs": "players", "options": "game", "table_size": "game", "event": "name"}
NUMBERS = ("rounds", "hands", "minutes")


def hands_description() -> str:
    """Which games are played for a number of hands, and their usual number in progressive: as
    each game's folder says (its event traits), not named here."""
    played = [
        (_(rules.title), event_traits(key)) for key, rules in GAMES.items() if event_traits(key).partnership
    ]
    usual = ", ".join(
        _("%(n)s of %(game)s", n=traits.default_hands, game=title)
        for title, traits in played
        if traits.default_hands
    )
    return _(
        "Only games of partnerships (%(games)s). Empty: %(usual)s in progressive, otherwise to the target.",
        games=", ".join(title for title, _traits in played),
        usual=usual,
    )


class EventFormBase(FlaskForm):
    name = StringField(_l("Name of the event"), filters=[strip])
    # A value not offered is the service's to refuse, by name, as the API's would be.
    game = SelectField(_l("Game"), choices=[], default="euchre", validate_choice=False)  # the usual evening
    # Every registered format, in the registry's order, labelled as it labels itself (__init__).
    format = SelectField(_l("Format"), choices=[], default="progressive", validate_choice=False)
    # The club's players, ticked when here tonight (the page fills the choices); a name not in
    # the club yet is typed below.
    here = SelectMultipleField(_l("Who is here tonight"), choices=[], validate_choice=False)
    players = TextAreaField(
        _l("Players"),
        description=_l('One name a line. For pairs, one pair a line: "Ann & Bob".'),
    )
    rounds = StringField(
        _l("Rounds"), filters=[strip], description=_l("Leave empty for the format's usual length.")
    )
    # Its description names the games that play hands, from their folders (hands_description).
    hands = StringField(_l("Hands a round"), filters=[strip])
    minutes = StringField(_l("Minutes a round"), filters=[strip], description=_l("Empty: no clock."))
    sit_out = StringField(
        _l("Points for sitting out"),
        filters=[strip],
        description=_l("Empty: the round's average; or a whole number of points."),
    )
    confirm = BooleanField(_l("The side that did not win confirms each table's result"))
    late = SelectField(
        _l("A player who arrives late scores, for each round missed"),
        choices=choices([("sit_out", _l("what a player sitting out scores")), ("zero", _l("nothing (0)"))]),
        default="sit_out",
        validate_choice=False,
    )
    check_in = BooleanField(_l("Players check in at the door (a QR code card to print)"))
    # The formats' own settings that have a field, by key (set on each class event_form makes).
    format_options: dict[str, Option] = {}

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.game.choices = choices((key, _(rules.title)) for key, rules in GAMES.items())
        self.format.choices = choices((key, _(fmt.label)) for key, fmt in FORMATS.items())
        self.hands.description = hands_description()
        # Errors that belong to no one field (none today; kept so nothing is ever lost).
        self.general_errors: list[str] = []

    def format_fields(self, near: str) -> list[Any]:
        """The formats' own fields shown ``near`` ("format": under the format's choice; "end")."""
        return [self[key] for key, option in self.format_options.items() if option.field.near == near]  # type: ignore[union-attr]

    def takes_pairs(self) -> bool:
        """The chosen format's entrants are pairs typed "Ann & Bob" (its plug-in says)."""
        return bool(getattr(FORMATS.get(self.format.data), "takes_pairs", False))

    def validate_here(self, field: SelectMultipleField) -> None:
        if field.data and self.takes_pairs():
            raise ValidationError(
                _('A pairs event takes its pairs typed, one pair a line ("Ann & Bob"): untick the players.')
            )

    def body(self) -> dict[str, Any]:
        """What was ticked and typed, as the API's creation body: the ticked players first, then
        the typed names not ticked already."""
        lines = [line.strip() for line in (self.players.data or "").splitlines() if line.strip()]
        if not self.takes_pairs():
            lines = merge_names(self.here.data or [], lines)
        data: dict[str, Any] = {
            "name": self.name.data or "",
            "game": self.game.data,
            "format": self.format.data,
            "confirm": bool(self.confirm.data),
        }
        if self.takes_pairs():
            data["pairs"] = [[name.strip() for name in line.split("&")] for line in lines]
        else:
            data["players"] = lines
        for field in NUMBERS:
            value = lenient_int(getattr(self, field).data)
            if value is not None:
                data[field] = value
        sit_out = lenient_int(self.sit_out.data)
        if sit_out is not None:
            data["sit_out"] = "average" if str(sit_out).casefold() == "average" else sit_out
        chosen = FORMATS.get(self.format.data)
        for key, option in self.format_options.items():
            asked = option.field
            assert asked is not None  # only options with a field are here
            if not (asked.always or (chosen is not None and option in chosen.options)):
                continue  # another format's setting, not sent (its box may be ticked still)
            if asked.kind == "check":
                if self[key].data:
                    data[key] = asked.sends
            else:
                data[key] = self[key].data
        if self.check_in.data:
            data["check_in"] = True
        if self.late.data and self.late.data != "sit_out":
            data["late"] = self.late.data  # anything else is the service's to refuse, by name
        return data

    def show_errors(self, errors: Sequence[FieldError]) -> None:
        for error in errors:
            name = SHOWN_AT.get(error.field, error.field)
            field = getattr(self, name, None) if name in self._fields else None
            text = render(error.message)
            if field is None:
                self.general_errors.append(text)
            else:
                field.errors = [*list(field.errors or []), text]

    def error_items(self) -> list[tuple[str, str]]:
        """Every problem and where it is, for the summary at the top of the refused form."""
        items = [(text, self.name.id) for text in self.general_errors]
        for field in self:
            items += [(text, field.id) for text in field.errors if isinstance(text, str)]
        return items


def _field(option: Option) -> Any:
    """The WTForms field asking ``option`` as its format's :class:`Field` says, in its words."""
    field: Field = option.field  # type: ignore[assignment]
    description: Any = _l(field.description) if field.description else ""
    if field.kind == "select":
        return SelectField(
            _l(field.label),
            choices=choices((value, _l(label)) for value, label in field.choices),
            default=field.default,
            description=description,
            validate_choice=False,  # a value not offered is the service's to refuse, by name
        )
    return BooleanField(_l(field.label), description=description)


_made: dict[tuple[int, ...], type[EventFormBase]] = {}
_making = Lock()


def event_form(*args: Any, **kwargs: Any) -> EventFormBase:
    """The new-event form for the formats registered now: :class:`EventFormBase` and a field for
    each format's setting that has one (one class per registry, made once)."""
    asked = {key: o for key, o in format_options().items() if o.field is not None}
    mark = tuple(id(o) for o in asked.values())
    with _making:
        cls = _made.get(mark)
        if cls is None:
            fields = {key: _field(option) for key, option in asked.items()}
            cls = _made[mark] = type("EventForm", (EventFormBase,), {**fields, "format_options": asked})
    return cls(*args, **kwargs)


# The pages make the form as they would a class: EventForm() is the form for today's registry.
EventForm = event_form


def merge_names(ticked: list[str], typed: list[str]) -> list[str]:
    """The ticked names, then each typed one not among them (whatever its case): a name ticked
    and typed too is one player, not a duplicate to refuse."""
    out = [name.strip() for name in ticked if isinstance(name, str) and name.strip()]
    seen = {name.casefold() for name in out}
    for name in typed:
        if name.casefold() not in seen:
            out.append(name)
            seen.add(name.casefold())
    return out
