"""The players' help pages: /help and /help/<game>, each game's rules in English, Polish and Portuguese."""

from __future__ import annotations

import dataclasses
import html as html_module
import re

import pytest

from scorekeeper import games as rules  # the registry of the games (their rules)
from scorekeeper.games.folder import LANGUAGES
from tests.web.test_i18n import ENGLISH, visible_text

# One sentence of each page, as a player reads it, in each language: the page really is that
# game's rules in that language (not a fallback to English, not another game's page).
SENTENCES = {
    "secret_agent": {
        "en": "Your score for the deal is your count × your agent's count.",
        "pl": "Twój wynik za rozdanie to twoja liczba × liczba twojego agenta.",
        "pt": "A sua pontuação na mão é a sua contagem × a contagem do seu agente.",
    },
    "secrets": {
        "en": "The owner scores 10 points per captured spy.",
        "pl": "Właściciel dostaje 10 punktów za każdego złapanego szpiega.",
        "pt": "O dono ganha 10 pontos por cada espião capturado.",
    },
    "euchre": {
        "en": "The first pair with 10 points or more wins; there are no ties.",
        "pl": "Wygrywa para, która pierwsza ma 10 punktów lub więcej; remisów nie ma.",
        "pt": "Ganha a primeira dupla com 10 pontos ou mais; não há empates.",
    },
    "spades": {
        "en": "Nil: +100 if the nil bidder wins no trick, −100 if they win any.",
        "pl": "Nil: +100, jeśli grający nil nie weźmie żadnej lewy, −100, jeśli weźmie choć jedną.",
        "pt": "Nil: +100 se quem apostou nil não ganhar nenhuma vaza, −100 se ganhar alguma.",
    },
    "abracadabra": {
        "en": "Tricks: + 1 per trick won.",
        "pl": "Lewy: + 1 za każdą wziętą lewę.",
        "pt": "Vazas: + 1 por cada vaza ganha.",
    },
    "tally": {
        "en": "A team's points are the sum of its players' points",
        "pl": "Punkty drużyny to suma punktów jej graczy",
        "pt": "Os pontos de uma equipa são a soma dos pontos dos seus jogadores",
    },
}
HTML_LANG = {"en": "en", "pl": "pl", "pt": "pt-PT"}


def prose(page: str) -> str:
    """The text as read: tags (bold, emphasis) dropped within sentences, spaces collapsed."""
    return re.sub(r"\s+", " ", html_module.unescape(re.sub(r"<[^>]+>", "", page)))


def test_every_game_has_a_help_page_in_every_language():
    assert set(SENTENCES) == set(rules.GAMES)
    for game in rules.GAMES:
        for lang in LANGUAGES:
            assert rules.FOLDERS[game].help_file(lang).is_file(), f"games/{game}/help/{lang}.md"


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("game", sorted(SENTENCES))
def test_each_rules_page_is_that_games_rules_in_that_language(client, game, lang):
    client.set_cookie("lang", lang)
    page = client.get(f"/help/{game}")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert f'<html lang="{HTML_LANG[lang]}">' in html
    text = prose(html)
    assert SENTENCES[game][lang] in text
    for other in LANGUAGES:
        if other != lang:
            assert SENTENCES[game][other] not in text
    # The way to start that game, and back to every game's rules.
    assert f'href="/new/{game}"' in html and 'href="/help"' in html


@pytest.mark.parametrize("lang", ["pl", "pt"])
def test_a_translated_rules_page_has_no_english_ui_words_in_its_frame(client, lang):
    client.set_cookie("lang", lang)
    html = client.get("/help").get_data(as_text=True)
    words = set(ENGLISH.findall(visible_text(html))) - {"Euchre"}
    assert not words, words


def test_the_browsers_language_picks_the_page_when_the_device_chose_none(client):
    page = client.get("/help/euchre", headers={"Accept-Language": "pt-PT,pt;q=0.9"})
    assert SENTENCES["euchre"]["pt"] in prose(page.get_data(as_text=True))


def test_the_index_links_every_game_with_its_title_in_the_language(client):
    client.set_cookie("lang", "pl")
    html = client.get("/help").get_data(as_text=True)
    for game in rules.GAMES:
        assert f'href="/help/{game}"' in html
    assert "Zasady gier" in html and "Tajny agent" in html and "Piki" in html


def test_an_unknown_game_is_404(client):
    for path in ("/help/poker", "/help/SPADES", "/help/..%2Fapi", "/help/euchre.md", "/help/_init"):
        assert client.get(path).status_code == 404, path


def test_every_page_links_the_rules_and_each_new_game_its_own(client):
    home = client.get("/").get_data(as_text=True)
    assert 'href="/help"' in home
    setup = client.get("/new/spades").get_data(as_text=True)
    assert 'href="/help/spades"' in setup


def test_tables_and_lists_render_as_html_not_markdown(client):
    html = client.get("/help/euchre").get_data(as_text=True)
    assert "<table>" in html and "<th>result</th>" in html
    assert not re.search(r"^\s*\|", visible_text(html), re.M)
    assert "**" not in html and "## " not in html


def test_a_game_missing_its_help_leaves_the_others_help_standing(client, monkeypatch, tmp_path):
    # Tally's folder as if shipped without its help (an empty folder): the index still lists every
    # other game, tally's page is 404 rather than every /help page a 500.
    tally = rules.FOLDERS["tally"]
    monkeypatch.setitem(rules.FOLDERS, "tally", dataclasses.replace(tally, path=tmp_path))
    index = client.get("/help")
    assert index.status_code == 200
    html = index.get_data(as_text=True)
    assert 'href="/help/tally"' not in html
    assert all(f'href="/help/{game}"' in html for game in rules.GAMES if game != "tally")
    assert client.get("/help/tally").status_code == 404
    assert client.get("/help/euchre").status_code == 200


def test_a_page_missing_in_one_language_shows_the_english_one(client, monkeypatch, tmp_path):
    euchre = rules.FOLDERS["euchre"]
    (tmp_path / "help").mkdir()
    (tmp_path / "help" / "en.md").write_text(
        euchre.help_file("en").read_text(encoding="utf-8"), encoding="utf-8"
    )
    monkeypatch.setitem(rules.FOLDERS, "euchre", dataclasses.replace(euchre, path=tmp_path))
    client.set_cookie("lang", "pl")
    page = client.get("/help/euchre")
    assert page.status_code == 200 and SENTENCES["euchre"]["en"] in prose(page.get_data(as_text=True))
