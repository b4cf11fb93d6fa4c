"""The translation catalogs against the code as it is now.

The messages are extracted fresh from the source (babel.cfg, the same
extraction as ``scorekeeper i18n update``), so a string added anywhere later
fails here until it is translated: run ``scorekeeper i18n update`` and fill in
the empty entries of scorekeeper/translations/{pl,pt}/LC_MESSAGES/messages.po.
"""

from __future__ import annotations

import os
import re
import shutil

import pytest
from babel.messages.pofile import read_po
from babel.numbers import format_decimal
from babel.support import Translations

from scorekeeper import catalogs
from scorekeeper.rules import msg, nmsg

PLACEHOLDER = re.compile(r"\{\w*\}|%\(\w+\)[sd]")


def placeholders(text: str) -> set[str]:
    return set(PLACEHOLDER.findall(text))


def key(message) -> tuple:
    return (message.id if isinstance(message.id, str) else tuple(message.id), message.context)


@pytest.fixture(scope="module")
def extracted():
    return {key(m): m for m in catalogs.extract() if m.id}


def load(locale: str):
    with catalogs.po_path(locale).open("rb") as f:
        return read_po(f, locale=locale, domain=catalogs.DOMAIN)


def describe(k: tuple) -> str:
    msgid, context = k
    text = msgid if isinstance(msgid, str) else " | ".join(msgid)
    return f"{context}: {text}" if context else text


def test_the_extraction_finds_the_messages_of_every_kind_of_source(extracted):
    # Rules (N_), plural rules messages (nmsg), views (_), forms (_l), templates (_ and pgettext).
    assert ("The tricks add up to {sum}; a deal has {total}.", None) in extracted
    assert (("{n} trick", "{n} tricks"), None) in extracted
    assert ("Deal %(n)s recorded.", None) in extracted
    assert ("First dealer", None) in extracted
    assert ("Score sheet", None) in extracted
    assert ("D", "dealer mark") in extracted
    brace = extracted[("{player} leads.", None)]
    assert "python-brace-format" in brace.flags and "python-format" not in brace.flags


@pytest.mark.parametrize("locale", catalogs.LOCALES)
def test_every_message_in_the_code_has_a_translation(extracted, locale):
    catalog = load(locale)
    translated = {}
    for message in catalog:
        if message.id and not message.fuzzy and catalogs.is_translated(message):
            translated[key(message)] = message
    missing = [describe(k) for k in extracted if k not in translated]
    assert not missing, (
        f"{len(missing)} messages have no {locale} translation (run `scorekeeper i18n update`, "
        f"then translate them in {catalogs.po_path(locale)}):\n" + "\n".join(missing)
    )


@pytest.mark.parametrize("locale", catalogs.LOCALES)
def test_translations_keep_the_placeholders_of_their_msgid(locale):
    catalog = load(locale)
    wrong = []
    for message in catalog:
        if not message.id or not catalogs.is_translated(message):
            continue
        if isinstance(message.id, str):
            pairs = [(message.id, message.string)]
        else:
            singular, plural = message.id
            expected = placeholders(singular) | placeholders(plural)
            pairs = [(plural, form) for form in message.string]
            if placeholders(singular) != placeholders(plural):
                pairs = [(singular if i == 0 else plural, form) for i, form in enumerate(message.string)]
            assert all(placeholders(form) <= expected for form in message.string), message.id
        for source, text in pairs:
            if placeholders(source) != placeholders(text):
                wrong.append(f"{source!r} -> {text!r}")
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize("locale", catalogs.LOCALES)
def test_babel_finds_no_format_or_plural_errors(locale):
    catalog = load(locale)
    problems = [(m.id, [str(e) for e in errors]) for m, errors in catalog.check()]
    assert not problems
    assert catalog.num_plurals == {"pl": 3, "pt": 2}[locale]
    for message in catalog:
        if message.id and not isinstance(message.id, str):
            assert len(message.string) == catalog.num_plurals, message.id


def test_compiled_catalogs_hold_the_translations_and_are_rebuilt_only_when_stale(tmp_path):
    source = tmp_path / "translations"
    shutil.copytree(catalogs.TRANSLATIONS, source, ignore=shutil.ignore_patterns("*.mo"))
    built = catalogs.compile_catalogs(source)
    assert sorted(p.parent.parent.name for p in built) == ["pl", "pt"]
    assert catalogs.compile_catalogs(source) == []  # up to date: nothing to do
    po = catalogs.po_path("pl", source)
    later = po.with_suffix(".mo").stat().st_mtime_ns + 10**9
    os.utime(po, ns=(later, later))
    assert [p.parent.parent.name for p in catalogs.compile_catalogs(source)] == ["pl"]

    polish = Translations.load(str(source), ["pl"], catalogs.DOMAIN)
    assert polish.gettext("Score sheet") == "Arkusz wyników"
    assert [polish.ngettext("{n} trick", "{n} tricks", n) for n in (1, 2, 5, 22, 12)] == [
        "{n} lewa",
        "{n} lewy",
        "{n} lew",
        "{n} lewy",
        "{n} lew",
    ]
    portuguese = Translations.load(str(source), ["pt_PT"], catalogs.DOMAIN)  # falls back to "pt"
    assert portuguese.gettext("Trump") == "Trunfo"
    assert portuguese.ngettext("{n} trick", "{n} tricks", 0) == "{n} vazas"


def test_update_merges_into_the_catalogs_and_keeps_every_translation(tmp_path):
    target = tmp_path / "translations"
    shutil.copytree(catalogs.TRANSLATIONS, target, ignore=shutil.ignore_patterns("*.mo"))
    before = {loc: {key(m): m.string for m in load(loc) if m.id and m.string} for loc in catalogs.LOCALES}
    report = catalogs.update(directory=target)
    assert (target / "messages.pot").exists()
    for locale in catalogs.LOCALES:
        with catalogs.po_path(locale, target).open("rb") as f:
            after = {key(m): m.string for m in read_po(f, locale=locale) if m.id}
        extracted_now = {k for k in after}
        for k, string in before[locale].items():
            if k in extracted_now:
                assert after[k] == string, k
        assert set(report[locale]) == {"new", "untranslated"}
        assert catalogs.po_path(locale, target).with_suffix(".mo").exists()


def test_rules_messages_render_through_the_catalog_with_plural_forms(app):
    from scorekeeper.i18n import render

    with app.test_request_context(headers={"Cookie": "lang=pl"}):
        assert [render(nmsg("{n} trick", "{n} tricks", n, n=n)) for n in (1, 3, 5)] == [
            "1 lewa",
            "3 lewy",
            "5 lew",
        ]
        assert render(msg("Trump: {trump}", trump=msg("No Trump"))) == "Atut: Bez atu"
        # Numbers in a message follow the locale, negative ones too.
        assert render(msg("set {points}", points=-1300)) == f"wpadka {format_decimal(-1300, locale='pl')}"
        assert render(msg("{n}", n=-1300)) != "-1,300"
    with app.test_request_context(headers={"Accept-Language": "pt-PT"}):
        assert render(nmsg("bag", "bags", 1)) == "saco"
        assert render(nmsg("bag", "bags", 3)) == "sacos"
    # Without translation (the JSON record), the English forms.
    assert nmsg("{n} trick", "{n} tricks", 1, n=1).render() == "1 trick"
    assert nmsg("{n} trick", "{n} tricks", 0, n=0).render() == "0 tricks"


def test_a_read_only_package_gets_its_catalogs_compiled_into_the_instance_folder(monkeypatch, tmp_path):
    from scorekeeper import create_app

    built_into = []
    real = catalogs.compile_catalogs

    def compile_catalogs(source=catalogs.TRANSLATIONS, target=None, force=False):
        built_into.append(target)
        if target is None:
            raise PermissionError("the installed package is read-only")
        return real(source, tmp_path, force)  # not the real instance folder

    monkeypatch.setattr(catalogs, "compile_catalogs", compile_catalogs)
    app = create_app({"SQLALCHEMY_DATABASE_URI": "sqlite://", "AUTO_MIGRATE": False, "SECRET_KEY": "t"})
    fallback = os.path.join(app.instance_path, "translations")
    assert built_into == [None, catalogs.Path(fallback)]
    assert app.config["BABEL_TRANSLATION_DIRECTORIES"].split(";") == [fallback, str(catalogs.TRANSLATIONS)]
    assert (tmp_path / "pl" / "LC_MESSAGES" / "messages.mo").exists()


def test_catalogs_loads_alone_as_setup_py_loads_it():
    """setup.py compiles the catalogs into the wheel by loading catalogs.py alone, outside the
    package: it must import nothing of the package (a relative import broke the wheel's build once)."""
    import importlib.util

    from scorekeeper import catalogs

    spec = importlib.util.spec_from_file_location("_catalogs_alone", catalogs.__file__)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert module.TRANSLATIONS == catalogs.TRANSLATIONS
