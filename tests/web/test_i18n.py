"""English, Polish and Portuguese: every page in each language, the switch, and what stays neutral.

Pages are driven through the test client with the ``lang`` cookie (the
switch's memory) or Accept-Language (the browser's choice). In Polish and
Portuguese a page must not look up a message the catalog lacks (a gettext
spy records every lookup) nor show English words that escaped marking.
"""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from html.parser import HTMLParser

import flask_babel
import pytest
from babel.dates import format_date
from babel.numbers import format_decimal

from scorekeeper.games import GAMES
from scorekeeper.rules.base import check_setup, play
from tests.conftest import sa_form

LANGS = ("en", "pl", "pt")
HTML_LANG = {"en": "en", "pl": "pl", "pt": "pt-PT"}
DEALER_MARK = {"pl": "R", "pt": "D"}
NAMES = ["Ana", "Bea", "Cyd", "Dan", "Eli", "Flo"]
FLAT = sa_form([4, 3, 3, 3], "LORS")  # Ana 4 x 3 (agent Bea, Left) = 12

# Words of English UI text that neither Polish nor Portuguese uses: one in a translated page
# means a string that is not marked for translation (or a translation left in English).
ENGLISH = re.compile(
    r"\b(the|and|with|your|this|that|deals?|dealer|tricks?|trump|scores?|players?|games?|wins?|won|"
    r"back|print|delete|save|record|new|change|home|finished|yet|not|only|each|every|nobody|yes)\b",
    re.IGNORECASE,
)
TEXT_ATTRIBUTES = {"title", "placeholder", "aria-label", "alt", "data-send-error", "hx-confirm", "label"}


class VisibleText(HTMLParser):
    """The words a user reads or hears: text nodes and the attributes shown or spoken."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self.skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("script", "style"):
            self.skip += 1
        self.parts += [value for name, value in attrs if name in TEXT_ATTRIBUTES and value]

    def handle_endtag(self, tag):
        if tag in ("script", "style"):
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def visible_text(page: str) -> str:
    parser = VisibleText()
    parser.feed(page)
    return re.sub(r"\s+", " ", " ".join(parser.parts))


def has_words(msgid: str) -> bool:
    """Whether a msgid is text to translate, not only placeholders and signs ("{acc} + {n}")."""
    return bool(re.search(r"[^\W\d_]", re.sub(r"\{\w*\}|%\(\w+\)s", "", msgid)))


@pytest.fixture
def lookups(monkeypatch):
    """Every msgid the pages look up that the language's catalog does not hold."""
    misses: set[str] = set()
    original = flask_babel.Domain.get_translations

    class Spy:
        def __init__(self, translations):
            self.translations = translations

        def _check(self, key, msgid):
            if key not in self.translations._catalog and has_words(msgid):
                misses.add(msgid)

        def ugettext(self, message):
            self._check(message, message)
            return self.translations.ugettext(message)

        def ungettext(self, singular, plural, n):
            self._check((singular, 0), singular)
            return self.translations.ungettext(singular, plural, n)

        def upgettext(self, context, message):
            self._check(f"{context}\x04{message}", message)
            return self.translations.upgettext(context, message)

        gettext, ngettext, pgettext = ugettext, ungettext, upgettext

        def __getattr__(self, name):
            return getattr(self.translations, name)

    def spied(self):
        translations = original(self)
        locale = flask_babel.get_locale()
        return Spy(translations) if locale is not None and locale.language != "en" else translations

    monkeypatch.setattr(flask_babel.Domain, "get_translations", spied)
    return misses


def record(kind: str, finished: bool, seed: int = 3) -> dict:
    """A game record of ``kind`` with default options, its deals drawn by the rules themselves."""
    game = GAMES.get(kind)
    n = max(game.allowed_player_counts({o.key: o.default for o in game.options}))
    errors, setup = check_setup(game, NAMES[:n], {}, 0)
    assert not errors, errors
    rng = random.Random(seed)
    deals: list[dict] = []
    result = play(game, setup, deals)
    while len(deals) < (60 if finished else 2) and not result.finished:
        dealer = result.next_dealer if result.next_dealer is not None else 0
        deals.append(game.random_deal(setup, result.state, dealer, rng))
        result = play(game, setup, deals)
    assert result.finished or not finished, "the game did not end"
    # A tally note is the table's own text ("shot the moon"), never translated: not a leak.
    deals = [{k: v for k, v in deal.items() if k != "note"} for deal in deals]
    return {"game": kind, "players": list(setup.players), "options": {}, game.record_key: deals}


def create(client, data: dict) -> tuple[str, str]:
    response = client.post("/api/games", json=data)
    assert response.status_code == 201, response.json
    return response.json["id"], response.json["edit_key"]


def every_page(app, client) -> list[tuple[str, str, int, object]]:
    """(name, path, status, client) of every page: home, set-ups, records, games in play and over
    as their scorer and as a follower, deals, sheets, history, hand-over, a deleted game,
    Hidden Secrets' private pages, and the error pages.
    """
    viewer = app.test_client()
    made = client.post("/api/clubs", json={"name": "Klub", "player": "Olga"}).json
    client.set_cookie("member", made["member_key"])
    club_game = client.post(
        "/api/games",
        json={
            "game": "tally",
            "players": ["Ann", "Bob"],
            "deals": [{"points": [3, 1]}, {"end": True}],
            "club": "klub",
        },
        headers={"Authorization": f"Bearer {made['member_key']}"},
    )
    assert club_game.status_code == 201
    pages = [
        ("home", "/", 200, client),
        ("choose", "/new", 200, client),
        ("my games", "/games", 200, client),
        ("new club", "/clubs/new", 200, client),
        ("club", "/c/klub", 200, client),
        ("club games", "/c/klub/games", 200, client),
        ("players", "/c/klub/players", 200, client),
        ("player", "/c/klub/player?name=Ann", 200, client),
        ("ratings", "/c/klub/ratings", 200, client),
        ("tidy", "/c/klub/players/tidy", 200, client),
        ("join", f"/c/klub/join/{made['invite']}", 200, viewer),
        ("import", "/import", 200, client),
        ("404", "/no/such/page", 404, client),
    ]
    for kind in GAMES:
        pages.append((f"new {kind}", f"/new/{kind}", 200, client))
        for finished in (False, True):
            game_id, key = create(client, record(kind, finished))
            assert client.get(f"/g/{game_id}?key={key}").status_code == 303
            state = "over" if finished else "in play"
            pages += [
                (f"{kind} {state}", f"/g/{game_id}", 200, client),
                (f"{kind} {state}, followed", f"/g/{game_id}", 200, viewer),
                (f"{kind} {state} deal 1", f"/g/{game_id}/deals/0", 200, client),
                (f"{kind} {state} deal 1, followed", f"/g/{game_id}/deals/0", 200, viewer),
                (f"{kind} {state} sheet", f"/g/{game_id}/sheet", 200, client),
                (f"{kind} {state} history", f"/g/{game_id}/history", 200, client),
                (f"{kind} {state} hand-over", f"/g/{game_id}/handover", 200, client),
            ]

    game_id, key = create(client, record("secret_agent", False))
    assert client.get(f"/g/{game_id}?key={key}").status_code == 303
    assert client.post(f"/g/{game_id}/delete").status_code == 303
    pages += [
        ("deleted game", f"/g/{game_id}", 200, client),
        ("deleted, followed", f"/g/{game_id}", 404, viewer),
    ]

    players = {f"players_{s}": name for s, name in enumerate(NAMES[:3])}
    hidden = client.post(
        "/new/secrets", data={**players, "first_dealer": "0", "opt_hidden": "y", "opt_turns": "5"}
    )
    assert hidden.status_code == 303, hidden.get_data(as_text=True)
    path = hidden.headers["Location"]
    links = client.get(f"{path}/secrets/links?seat=0").get_data(as_text=True)
    private = re.search(rf"{path}/p/0/[\w-]+", links).group(0)
    pages += [
        ("hidden secrets, allotments", path, 200, client),
        ("hidden secrets, links", f"{path}/secrets/links", 200, client),
        ("hidden secrets, a seat's link and code", f"{path}/secrets/links?seat=0", 200, client),
        ("hidden secrets, allot", f"{path}/secrets/allot/1", 200, client),
        ("hidden secrets, private page", private, 200, viewer),
    ]
    # Seat entry: a console with its orders form, and the scorer's form for one seat.
    game_id, key = create(client, record("secrets", False))
    assert client.get(f"/g/{game_id}?key={key}").status_code == 303
    seats = client.get(f"/api/games/{game_id}/seats", headers={"Authorization": f"Bearer {key}"}).json
    console = "/" + seats["seats"][1]["link"].split("://", 1)[1].split("/", 1)[1]
    pages += [
        ("secrets, a console", console, 200, viewer),
        ("secrets, a seat's orders by the scorer", f"/g/{game_id}/secrets/orders/0", 200, client),
    ]
    return pages


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_renders_in_each_language_with_nothing_left_in_english(app, client, lookups, lang):
    pages = every_page(app, client)
    leaks = {}
    marks = 0
    for name, path, status, browser in pages:
        browser.set_cookie("lang", lang)
        response = browser.get(path)
        assert response.status_code == status, (name, response.status_code)
        page = response.get_data(as_text=True)
        assert f'<html lang="{HTML_LANG[lang]}">' in page, name
        if lang != "en":
            # The mark is the initial of the dealer's word: Rozdający, Distribuidor (the same D as English).
            for mark in re.finditer(r'class="dealer-mark" title="([^"]*)">([^<]*)<', page):
                assert mark.group(2) == DEALER_MARK[lang], f"{name}: the dealer mark {mark.group(2)!r}"
                assert not re.search(r"\bdealt?\b", mark.group(1)), f"{name}: the English dealer title"
                marks += 1
            found = sorted({m.group(0) for m in ENGLISH.finditer(visible_text(page))})
            if found:
                leaks[name] = found
    assert not lookups, f"messages missing from the {lang} catalog: {sorted(lookups)}"
    assert not leaks, f"English left on {lang} pages: {leaks}"
    assert lang == "en" or marks, "no dealer mark was checked"


@pytest.mark.parametrize("lang", LANGS)
def test_set_up_errors_and_403_pages_in_each_language(client, lookups, lang):
    client.set_cookie("lang", lang)
    for kind in GAMES:
        response = client.post(
            f"/new/{kind}", data={"players_0": "Ana", "players_1": "ana", "first_dealer": "0"}
        )
        assert response.status_code == 422
    game_id, _key = create(client, record("secret_agent", False))
    forbidden = client.post(f"/g/{game_id}/deals", data=FLAT)
    assert forbidden.status_code == 403
    fragment = client.post(f"/g/{game_id}/deals", data=FLAT, headers={"HX-Request": "true"})
    assert fragment.status_code == 403
    expected = {
        "en": "Only the scorer's device can change this game.",
        "pl": "Tę grę może zmieniać tylko urządzenie zapisującego.",
        "pt": "Só o dispositivo do marcador pode alterar este jogo.",
    }[lang]
    assert expected in forbidden.get_data(as_text=True).replace("&#39;", "'")
    assert expected in fragment.get_data(as_text=True).replace("&#39;", "'")
    if lang != "en":
        assert not ENGLISH.search(visible_text(forbidden.get_data(as_text=True)))
    assert not lookups


def secret_agent_game(client, new_game, lang: str) -> str:
    client.set_cookie("lang", lang)
    return new_game(players=["Ann", "Bob", "Cid", "Dee"])


@pytest.mark.parametrize(
    ("lang", "refusal", "explanation"),
    [
        ("en", "The tricks add up to 14; a deal has 13.", "4 x 3 (agent Bob, Left) = 12"),
        ("pl", "Lewy dają razem 14, a rozdanie ma 13.", "4 x 3 (agent Bob, Lewy) = 12"),
        ("pt", "As vazas somam 14; uma mão tem 13.", "4 x 3 (agente Bob, Esquerda) = 12"),
    ],
)
def test_a_validation_message_and_a_score_explanation_in_each_language(
    client, new_game, lang, refusal, explanation
):
    path = secret_agent_game(client, new_game, lang)
    refused = client.post(f"{path}/deals", data=sa_form([4, 4, 3, 3], "LORS"))
    assert refused.status_code == 422
    assert refusal in refused.get_data(as_text=True)
    assert client.post(f"{path}/deals", data=FLAT).status_code == 303
    assert explanation in client.get(f"{path}/deals/0").get_data(as_text=True)
    assert explanation in client.get(path).get_data(as_text=True)


@pytest.mark.parametrize(
    ("lang", "lines"),
    [
        ("en", ["Deal 1 recorded.", "Ann wins.", "13 x 13 (own agent, Self) = 169", "(agent Cid, Left)"]),
        (
            "pl",
            [
                "Zapisano rozdanie 1.",
                "Wygrywa Ann.",
                "13 x 13 (własny agent, Ty) = 169",
                "(agent Cid, Lewy)",
            ],
        ),
        (
            "pt",
            [
                "Mão 1 registada.",
                "Ann ganha.",
                "13 x 13 (agente de si próprio, Próprio) = 169",
                "(agente Cid, Esquerda)",
            ],
        ),
    ],
)
def test_flash_game_end_and_misere_in_each_language(client, new_game, lang, lines):
    client.set_cookie("lang", lang)
    path = new_game(players=["Ann", "Bob", "Cid", "Dee"], deals=1)
    response = client.post(f"{path}/deals", data=sa_form([13, 0, 0, 0], "SLOR"), follow_redirects=True)
    page = response.get_data(as_text=True)
    assert lines[0] in page and lines[1] in page  # the flash and the game-end message
    deal = client.get(f"{path}/deals/0").get_data(as_text=True)
    assert lines[2] in deal
    assert f"10 (misère) x 10 (misère) {lines[3]} = 100" in deal  # Bob: misère, his agent Cid too


EUCHRE_PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


@pytest.mark.parametrize(
    ("lang", "three", "five"),
    [
        ("en", "Ann made trump, 3 tricks: 1 for Ann &amp; Cid", "Ann alone, 5 tricks: 4 for Ann &amp; Cid"),
        ("pl", "Ann wybiera atut, 3 lewy: 1 dla Ann i Cid", "Ann w pojedynkę, 5 lew: 4 dla Ann i Cid"),
        ("pt", "Ann escolheu o trunfo, 3 vazas: 1 para Ann e Cid", "Ann sozinho, 5 vazas: 4 para Ann e Cid"),
    ],
)
def test_euchre_explanations_use_the_plural_forms_of_each_language(client, lang, three, five):
    deals = [
        {"trump": "H", "maker": 0, "alone": False, "maker_tricks": 3},
        {"trump": "S", "maker": 0, "alone": True, "maker_tricks": 5},
    ]
    game_id, _key = create(client, {"game": "euchre", "players": EUCHRE_PLAYERS, "deals": deals})
    client.set_cookie("lang", lang)
    assert three in client.get(f"/g/{game_id}/deals/0").get_data(as_text=True)
    assert five in client.get(f"/g/{game_id}/deals/1").get_data(as_text=True)


def test_the_printed_sheet_in_polish_keeps_its_diacritics_and_polish_formats(client, new_game):
    path = secret_agent_game(client, new_game, "pl")
    for _ in range(4):
        client.post(f"{path}/deals", data=FLAT)
    response = client.get(f"{path}/sheet")
    assert response.status_code == 200 and response.mimetype == "text/html"
    assert "charset=utf-8" in response.content_type
    sheet = response.data.decode("utf-8")
    for words in (
        "Arkusz wyników · Tajny agent",  # the title
        "Gracze:",
        "(pierwszy rozdający: Ann)",
        "Liczba rozdań: 4",  # an option, its label translated
        "4 x 3 (agent Bob, Lewy) = 12",  # an explanation
        "Rozdający: Ann",  # a deal's dealer
        "Razem",  # the totals row
        "Wygrywa Ann.",  # the verdict
        "Język",
    ):
        assert words in sheet, words
    # The date in Polish (day, Polish month abbreviation, year), as Babel writes it.
    shown = re.search(r"<dt>Data:</dt><dd>([^<]+)</dd>", sheet).group(1)
    today = datetime.now(UTC).date()
    assert shown in {format_date(day, "medium", locale="pl") for day in (today, today - timedelta(days=1))}


def test_numbers_follow_the_locale_and_the_json_record_stays_neutral(client):
    # Spades for two, set penalty on: big totals, one of them negative.
    deal = {"bids": [26, 26], "tricks": [26, 0]}  # 260 made, -260 set
    data = {
        "game": "spades",
        "players": ["Ann", "Bob"],
        "options": {"set_penalty": True, "target": 100000},
        "deals": [deal] * 5,
    }
    game_id, _key = create(client, data)
    for lang, locale in (("en", "en"), ("pl", "pl"), ("pt", "pt_PT")):
        client.set_cookie("lang", lang)
        for path in (f"/g/{game_id}", f"/g/{game_id}/sheet"):
            page = client.get(path).get_data(as_text=True)
            assert format_decimal(1300, locale=locale) in page
            assert format_decimal(-1300, locale=locale) in page
            if lang != "en":
                assert "1,300" not in page
        record_json = client.get(f"/api/games/{game_id}").json
        assert record_json["totals"] == [1300, -1300]
        assert record_json["explanations"][0][1] == "bid 26, won 0: set -260"
        refused = client.post("/api/games", json={**data, "deals": [{"bids": [26, 26], "tricks": [26, 1]}]})
        assert refused.status_code == 422
        assert refused.json["errors"][0]["message"] == "The tricks add up to 27; a deal has 26."


def test_the_browser_language_is_used_until_the_switch_chooses_one(client, new_game):
    path = new_game(players=["Ann", "Bob", "Cid", "Dee"])
    assert '<html lang="en">' in client.get(path).get_data(as_text=True)
    polish = client.get(path, headers={"Accept-Language": "pl-PL,pl;q=0.9,en;q=0.5"})
    assert '<html lang="pl">' in polish.get_data(as_text=True)
    assert "Accept-Language" in polish.headers["Vary"]
    brazilian = client.get(path, headers={"Accept-Language": "pt-BR,pt;q=0.8"})
    assert '<html lang="pt-PT">' in brazilian.get_data(as_text=True)
    assert "Arkusz" not in client.get(f"{path}/sheet", headers={"Accept-Language": "de, fr"}).get_data(
        as_text=True
    )

    # The switch: a plain form post (no JavaScript), remembered in a cookie on this device.
    switch = client.post("/lang", data={"lang": "pt", "next": path})
    assert switch.status_code == 303 and switch.headers["Location"].endswith(path)
    assert "lang=pt" in switch.headers["Set-Cookie"]
    page = client.get(path, headers={"Accept-Language": "pl"}).get_data(as_text=True)
    assert '<html lang="pt-PT">' in page and "Folha de pontuação" in page

    # Boosted by htmx the same post works; the switch itself opts out of boosting so the
    # whole page (<html lang> and <head> included) is reloaded in the new language.
    boosted = client.post("/lang", data={"lang": "pl", "next": path}, headers={"HX-Request": "true"})
    assert boosted.status_code == 303
    page = client.get(path).get_data(as_text=True)
    assert '<html lang="pl">' in page
    assert re.search(r'<form[^>]*action="/lang"[^>]*hx-boost="false"', page)
    # The switch marks the language in force and offers the others by their own names.
    assert re.search(r'<option value="pl"\s+selected>Polski</option>', page)
    assert "Português" in page and "English" in page

    # An unknown language or a foreign target changes nothing dangerous.
    odd = client.post("/lang", data={"lang": "xx", "next": "//evil.example"})
    assert odd.headers["Location"] == "/" and "lang=" not in odd.headers.get("Set-Cookie", "")


def test_a_shared_viewer_link_opens_in_the_viewers_own_language(app, client, new_game):
    path = secret_agent_game(client, new_game, "pl")
    client.post(f"{path}/deals", data=FLAT)
    assert "Zapisz rozdanie" in client.get(path).get_data(as_text=True)  # the scorer, in Polish
    viewer = app.test_client()
    page = viewer.get(path, headers={"Accept-Language": "pt-PT,pt;q=0.9"}).get_data(as_text=True)
    assert '<html lang="pt-PT">' in page
    assert "Está a acompanhar este jogo" in page and "4 x 3 (agente Bob, Esquerda) = 12" in page
    viewer.set_cookie("lang", "en")
    page = viewer.get(path, headers={"Accept-Language": "pt"}).get_data(as_text=True)
    assert "You are following this game" in page


def test_translations_come_from_the_package_catalogs(app):
    from scorekeeper import catalogs

    assert app.config["BABEL_TRANSLATION_DIRECTORIES"].split(";")[-1] == str(catalogs.TRANSLATIONS)
    for locale in ("pl", "pt"):
        assert catalogs.po_path(locale).with_suffix(".mo").exists()
