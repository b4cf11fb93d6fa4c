"""The clubs' forms: parse and keep what was typed; the service names what is wrong."""

from __future__ import annotations

from flask_babel import lazy_gettext as _l
from flask_wtf import FlaskForm
from wtforms import RadioField, SelectField, StringField
from wtforms.validators import DataRequired, Length, NumberRange, Optional

from ...clubs.service import MAX_CLUB_NAME
from ...forms.base import WholeField, choices
from ...rules.base import MAX_NAME


class NewClubForm(FlaskForm):
    name = StringField(_l("Club name"), validators=[DataRequired(), Length(max=MAX_CLUB_NAME)])
    player = StringField(_l("Your name in the club"), validators=[DataRequired(), Length(max=MAX_NAME)])


class JoinForm(FlaskForm):
    # An existing player of the club not yet taken, or "" for a new name typed below.
    pick = RadioField(_l("Who are you?"), choices=[], validate_choice=False, default="")
    name = StringField(_l("Or a new name"), validators=[Optional(), Length(max=MAX_NAME)])

    def chosen(self) -> str:
        return (self.pick.data or "").strip() or (self.name.data or "").strip()


class InviteForm(FlaskForm):
    role = SelectField(
        _l("Joins as"), choices=choices([("member", _l("member")), ("admin", _l("admin"))]), default="member"
    )
    expires = WholeField(
        _l("Lasts (days; empty: until revoked)"), validators=[Optional(), NumberRange(1, 3650)]
    )
