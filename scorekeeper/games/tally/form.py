"""The tally deal form: points per player (a number pad with a ± key), an optional note,
and "End game", which records ``{"end": true}``.

The points are parsed leniently (``NumberField``): "7.5" or "x" reach the rules
as text, which refuse them naming the player. The new-game form's team number
per seat (``team_<seat>``) becomes the ``teams`` option here too
(:func:`teams_from_form`): seats with the same team label play together.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from flask import request
from flask_babel import lazy_gettext as _l
from wtforms import StringField

from ...forms.base import NumberField, RulesForm, strip
from ...rules import Setup
from .rules import MAX_NOTE

END_BUTTON = "end_game"


class TallyEntry(RulesForm):
    """Fields ``points_<seat>`` are added per seat by :meth:`for_setup`; ``note`` is shared."""

    template = "games/tally/_entry.html"

    @classmethod
    def for_setup(cls, setup: Setup, data: dict[str, Any] | None = None) -> TallyEntry:
        fields: dict[str, Any] = {
            # The browser stops at the limit; the rules refuse a longer note from anywhere else.
            "note": StringField(_l("Note (optional)"), filters=[strip], render_kw={"maxlength": MAX_NOTE}),
        }
        for seat, name in enumerate(setup.players):
            fields[f"points_{seat}"] = NumberField(name)
        return type("TallyEntryForm", (cls,), fields)(data=data)

    def ending(self) -> bool:
        """Whether the scorer tapped "End game" (its button's value comes with the form)."""
        return bool(request.form.get(END_BUTTON))

    def to_deals(self, setup: Setup) -> list[dict[str, Any]]:
        """*End game* with points typed records that deal first, then the end: typing the last
        deal and tapping *End game* must not lose it (issue 41)."""
        if self.ending() and self.typed():
            return [self.points_facts(setup), {"end": True}]
        return [self.to_facts(setup)]

    def typed(self) -> bool:
        """Whether any points were typed in the form (a deal to keep)."""
        return any(
            field.data not in (None, "") for name, field in self._fields.items() if name.startswith("points_")
        )

    def to_facts(self, setup: Setup) -> dict[str, Any]:
        if self.ending():
            return {"end": True}
        return self.points_facts(setup)

    def points_facts(self, setup: Setup) -> dict[str, Any]:
        points = [getattr(self, f"points_{s}").data for s in range(setup.n)]
        if any(value is not None for value in points):
            # A box left empty reads as its placeholder, 0 (a player who scored nothing needs no tap);
            # an entry with nothing typed at all stays empty, for the rules to name every player.
            points = [0 if value is None else value for value in points]
        facts: dict[str, Any] = {"points": points}
        if self.note.data:
            facts["note"] = self.note.data
        return facts

    def repeat(self) -> None:
        """ "Same as last deal": the last deal's points and note, to check and record."""
        if self.previous is not None:
            self.process(formdata=None, data=self.data_from(self.previous))

    @staticmethod
    def data_from(facts: Mapping[str, Any]) -> dict[str, Any]:
        data: dict[str, Any] = {"note": facts.get("note") or ""}
        points = facts.get("points")
        for seat, value in enumerate(points if isinstance(points, list) else []):
            data[f"points_{seat}"] = value
        return data


def teams_from_form(formdata: Mapping[str, Any], n: int) -> list[list[int]] | None:
    """The ``teams`` option from a team label per seat; None when no label is given.

    A seat left blank while others have labels is in no team: the rules name it missing.
    Teams are listed in the order their first seat sits.
    """
    labels = [str(formdata.get(f"team_{seat}", "") or "").strip() for seat in range(n)]
    if not any(labels):
        return None
    teams: dict[str, list[int]] = {}
    for seat, label in enumerate(labels):
        if label:
            teams.setdefault(label, []).append(seat)
    return list(teams.values())
