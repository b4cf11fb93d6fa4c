"""The ``radio`` macro writes a chip's radio button exactly as WTForms does, for every entry form."""

from __future__ import annotations

from flask import render_template_string
from wtforms import FieldList, RadioField

from scorekeeper import plugins
from scorekeeper.games import GAMES
from scorekeeper.rules.base import check_setup

MACRO = '{% from "_macros.html" import radio %}{{ radio(sub) }}'


def radio_fields(form):
    for field in form:
        if isinstance(field, RadioField):
            yield field
        elif isinstance(field, FieldList):  # a radio per seat
            for entry in field.entries:
                if isinstance(entry, RadioField):
                    yield entry


def test_every_entry_forms_radios_read_as_wtforms_writes_them(app):
    compared = 0
    with app.test_request_context():
        for kind, game in GAMES.items():
            plugin = plugins.get(kind)
            if plugin is None:
                continue
            n = max(game.player_counts)
            errors, setup = check_setup(game, [f"P{s}" for s in range(n)], {}, 0, True)
            assert not errors, (kind, errors)
            form = plugin.entry_form.for_setup(setup, None)
            for field in radio_fields(form):
                choices = [sub.data for sub in field]
                # Each choice once the checked one, and once not, as a form after a refusal shows it.
                for chosen in (None, *choices[:3]):
                    field.data = chosen
                    for sub in field:
                        mine = render_template_string(MACRO, sub=sub)
                        assert mine == str(sub()), (kind, field.name, chosen)
                        compared += 1
    assert compared > 300  # Spades' bids and tricks alone give more


def test_values_that_need_escaping_are_escaped_alike(app):
    from flask_wtf import FlaskForm

    class Odd(FlaskForm):
        pick = RadioField(choices=['a"b', "<x>", "&"])

    with app.test_request_context():
        form = Odd(meta={"csrf": False}, data={"pick": "<x>"})
        for sub in form.pick:
            assert render_template_string(MACRO, sub=sub) == str(sub())
