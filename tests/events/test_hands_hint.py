"""The new-event page's hint on "Hands a round" names the games that play hands and their usual
number as each game's folder says (its event traits), in the page's language."""

from __future__ import annotations

import dataclasses

from scorekeeper import games
from scorekeeper.web.events.forms import hands_description


def hint(app, lang: str = "en") -> str:
    with app.test_request_context(headers={"Accept-Language": lang}):
        return hands_description()


def test_the_hint_names_the_partnership_games_and_their_usual_hands(app):
    assert (
        hint(app)
        == "Only games of partnerships (Euchre, Spades). Empty: 8 of Euchre, 4 of Spades in progressive, otherwise to the target."
    )
    assert (
        hint(app, "pt-PT")
        == "Só jogos a pares (Euchre, Espadas). Vazio: 8 de Euchre, 4 de Espadas no progressivo, nos outros até ao objetivo."
    )


def test_the_hint_follows_what_a_games_folder_says(app, monkeypatch):
    spades = games.FOLDERS["spades"]
    traits = dataclasses.replace(spades.event, default_hands=6)
    parts = dataclasses.replace(spades.parts, event=traits)
    monkeypatch.setitem(games.FOLDERS, "spades", dataclasses.replace(spades, parts=parts))
    assert "4 of Spades" not in hint(app) and "6 of Spades" in hint(app)
