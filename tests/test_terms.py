"""The card-game terms of the catalogs, as the Polish Euchre and Portuguese Spades texts use them.

Issue 19 found Brazilian words in pt-PT, English words left untranslated and
Polish words with the wrong meaning. A term fixed across every entry stays
fixed: a new or edited entry that brings one back fails here.
"""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po

from scorekeeper import catalogs


def load(locale: str):
    with catalogs.po_path(locale).open("rb") as f:
        return read_po(f, locale=locale, domain=catalogs.DOMAIN)


def strings(message) -> list[str]:
    return [message.string] if isinstance(message.string, str) else list(message.string)


def entries(locale: str) -> list[tuple[str, str | None, list[str]]]:
    """(msgid, context, translations) of every translated entry."""
    out = []
    for message in load(locale):
        if message.id:
            msgid = message.id if isinstance(message.id, str) else message.id[0]
            out.append((msgid, message.context, strings(message)))
    return out


def offending(locale: str, pattern: str, flags: int = 0) -> list[str]:
    found = re.compile(pattern, flags)
    return [
        f"{msgid!r} -> {text!r}"
        for msgid, _ctx, texts in entries(locale)
        for text in texts
        if found.search(text)
    ]


def translation(locale: str, msgid: str, context: str | None = None) -> str:
    message = load(locale).get(msgid, context)
    assert message is not None, msgid
    return message.string


# (pattern, why): none of these may appear in a European-Portuguese translation.
PT_BANNED = [
    (r"(?i)carteador", "Brazilian: the dealer is the “distribuidor” / “quem dá as cartas”"),
    (r"(?i)leil[ãa]o", "the bidding is the “licitação”, as in the Portuguese Spades text"),
    (r"\beuchre", "English left in: the makers “falharam”, a “falhanço” (the game's name Euchre stays)"),
    (r"(?i)\bduplas?\b", "a side is an “equipa”; the partnership game is played “a pares”"),
    (r"(?i)segunda volta", "the second round of naming trump is the “segunda ronda”"),
    (r"(?i)\bchoques?\b", "spies meet “em colisão”"),
    (r"(?i)\bmarcha\b", "a march is “todas as vazas”"),
    (r"(?i)nada lá", "a spy found “nada encontrado”"),
    (r"(?i)\S é sim ou não", "say “X: sim ou não.”"),
    (r"(?i)falhado de", "say “{player} falhou o nil”"),
]


@pytest.mark.parametrize(("pattern", "why"), PT_BANNED, ids=[p for p, _ in PT_BANNED])
def test_portuguese_uses_european_portuguese_card_terms(pattern, why):
    assert not offending("pt", pattern), why + ":\n" + "\n".join(offending("pt", pattern))


@pytest.mark.parametrize("locale", catalogs.LOCALES)
def test_no_english_cutthroat_is_left_in_a_translation(locale):
    assert not offending(locale, r"(?i)cutthroat")


def test_the_dealer_mark_is_the_initial_of_the_dealer_in_each_language():
    assert translation("pt", "D", "dealer mark") == "D"  # Distribuidor
    assert translation("pt", "Dealer").startswith("Distribuidor")
    assert translation("pl", "D", "dealer mark") == "R"  # Rozdający


def test_portuguese_words_of_the_issue():
    assert translation("pt", "Auction") == "Licitação"
    assert translation("pt", "Letter").startswith("Letter")  # the US paper size, not a playing card
    assert "continua abaixo" in translation(
        "pt",
        "Not saved: this game was changed on another device meanwhile. The newest state is shown; your entry "
        "is kept below. Check it against the scoreboard and save it again if it still applies.",
    )
    assert "valor do contrato" in translation(
        "pt", "Cutthroat only: otherwise a set scores 0. A set pair always loses its contract."
    )
    assert translation("pt", "Save these trick winners") == "Guardar quem ganhou as vazas"
    assert translation("pt", "last %(date)s") == "último jogo: %(date)s"
    assert translation("pt", "({player}'s nil failed)") == "({player} falhou o nil)"


def test_polish_self_card_is_you_not_alone():
    # "Sam" means "alone", which is a different thing in a card game.
    assert translation("pl", "Self") == "Ty"
    assert not offending("pl", r"\bSam\b")


def test_polish_game_names_are_in_sentence_case():
    assert translation("pl", "Secret Agent") == "Tajny agent"
    assert translation("pl", "Hidden Secrets") == "Ukryte sekrety"
    assert not offending("pl", r"Tajny Agent|Ukryt\w* Sekret")


def test_polish_lose_at_floor_is_the_losing_threshold():
    assert translation("pl", "Lose at (floor)") == "Próg przegranej"
    assert not offending("pl", r"(?i)\bdn[ao]\b")


def test_polish_entry_is_wpis_and_zapis_stays_for_records_and_saving():
    noun = re.compile(r"(?i)\bzapis(u|em|ie|y|ów)?\b")
    for msgid, _ctx, texts in entries("pl"):
        if re.search(r"\bentry\b", msgid):
            for text in texts:
                assert "wpis" in text and not noun.search(text), f"{msgid!r} -> {text!r}"
    assert translation("pl", "Game record (JSON)") == "Zapis gry (JSON)"
    assert translation("pl", "Record deal") == "Zapisz rozdanie"


def test_polish_words_of_the_issue():
    assert "oś pozioma" in translation("pl", "Running totals after each %(deal)s")
    assert translation("pl", "Save these trick winners") == "Zapisz, kto wziął lewy"
    assert not offending("pl", r"(?i)stuknię")
    # The Declarer wins the trick, not the card.
    assert "jeśli Rozgrywający weźmie tę lewę" in translation(
        "pl",
        "Bid cards the Declarer turned up and moved to his right: each scores 2 x its rank if he wins that "
        "trick, minus 2 x its rank if he loses it.",
    )
