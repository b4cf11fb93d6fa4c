"""Languages: Flask-Babel set-up and the bridge that renders rules' messages.

The catalogs are ``translations/<lang>/LC_MESSAGES/messages.po`` in this
package; their .mo files are compiled here at start when missing or stale
(see :mod:`scorekeeper.catalogs`), so no step is needed after an install or
a pull. ``scorekeeper i18n update`` re-extracts the messages into the .po files.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import click
from babel import numbers
from flask import Flask, current_app, g, request
from flask_babel import Babel, format_decimal, get_locale, get_translations

from . import catalogs, stores
from .rules import Msg

babel = Babel()

# The locale whose formats (numbers, dates) a language uses: our Portuguese is European.
FORMATS = {"pt": "pt_PT"}


def _page() -> tuple[str, Any]:
    """This request's locale (as text) and translations, looked up once per request.

    Flask-Babel finds both through several context proxies on every call (and Babel spells the
    locale out anew each time): a board calls them hundreds of times, a cold Spades board of 10
    deals about 750, which was a third of drawing it. Kept beside Flask-Babel's own per-request
    state (``g``), which nothing here changes within a request.
    """
    try:
        space = g._get_current_object()
    except RuntimeError:  # no app context: Flask-Babel's own answer (English, untranslated)
        return str(get_locale() or "en"), get_translations()
    found = getattr(space, "_scorekeeper_i18n", None)
    if found is None:
        found = (str(get_locale() or "en"), get_translations())
        space._scorekeeper_i18n = found
    return found


def _gettext(string: str, **variables: Any) -> str:
    # As flask_babel.gettext: the message in the page's language, %-formatted when given variables.
    text = _page()[1].ugettext(string)
    return text % variables if variables else text


# A number formatted in a language depends on no database: one map for the process.
NUMBERS = stores.store("numbers", 8192, scope="process", doc="numbers formatted per language")


def _formatted(value: int | float, locale: str) -> str:
    formatted = NUMBERS()
    found = formatted.get((value, locale))
    if found is None:
        found = numbers.format_decimal(value, locale=locale)
        formatted.put((value, locale), found)
    return found


def number(value: int | float) -> str:
    """``value`` in the page's number format, each (value, language) formatted once per process.

    A scoreboard shows the same few hundred numbers over and over: Babel's formatting
    (pattern lookup, locale symbols) is done once for each, not once per cell.
    """
    if isinstance(value, bool) or not isinstance(value, int | float):
        return format_decimal(value)
    return _formatted(value, _page()[0])


def select_locale() -> str | None:
    """The language a URL names (``?lang=``: a followed region's, so a shared cache can keep it),
    else the one remembered on this device, else the browser's best match."""
    languages = current_app.config["LANGUAGES"]
    chosen = request.args.get("lang")
    if chosen not in languages:
        chosen = request.cookies.get("lang")
    if request.path.startswith("/api/"):
        # The API's refusals speak the caller's Accept-Language only (game-record.md): a program
        # gets the same answer whatever cookie a browser of the same site holds.
        chosen = None
    if chosen not in languages:
        chosen = request.accept_languages.best_match(languages)
    return FORMATS.get(chosen, chosen) if chosen is not None else None


def language() -> str:
    """The page's language as LANGUAGES and ``?lang=`` name it ("pt", not "pt_PT")."""
    locale = str(get_locale() or current_app.config["BABEL_DEFAULT_LOCALE"])
    for code, form in FORMATS.items():
        if form == locale:
            return code
    return locale


def html_lang() -> str:
    """The page's language as HTML wants it (BCP 47: "pt-PT", not "pt_PT")."""
    locale = get_locale()
    return str(locale).replace("_", "-") if locale else "en"


def _ngettext(singular: str, plural: str, n: int) -> str:
    # Not flask_babel.ngettext: that one %-formats, and rules' messages are str.format templates.
    return _page()[1].ungettext(singular, plural, n)


def render(message: Msg | str | None) -> str:
    """A rules message in the page's language, with numbers in its format."""
    if message is None:
        return ""
    if isinstance(message, str):
        return _gettext(message) if message else ""
    return message.render(_gettext, number, _ngettext)


def compile_translations(app: Flask) -> None:
    """Build the .mo files that are missing or older than their .po (quick when none is).

    Where the package is read-only (an installed wheel), they go to the instance folder.
    """
    directories = [str(catalogs.TRANSLATIONS)]
    try:
        catalogs.compile_catalogs()
    except OSError:
        fallback = Path(app.instance_path) / "translations"
        catalogs.compile_catalogs(target=fallback)
        directories.insert(0, str(fallback))
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", ";".join(directories))


@click.group("i18n")
def i18n_cli() -> None:
    """Translation catalogs (scorekeeper/translations)."""


@i18n_cli.command("update")
def update_command() -> None:
    """Extract every message from the code and templates and merge it into the .po files."""
    report = catalogs.update()
    for locale, found in report.items():
        click.echo(f"{locale}: {len(found['new'])} new, {len(found['untranslated'])} to translate")
        for text in found["untranslated"]:
            click.echo(f"  {text if isinstance(text, str) else ' | '.join(text)}")


@i18n_cli.command("compile")
def compile_command() -> None:
    """Rebuild every .mo file from its .po (the app also does this at start when needed)."""
    for path in catalogs.compile_catalogs(force=True):
        click.echo(path)


def init_app(app: Flask) -> None:
    compile_translations(app)
    babel.init_app(app, locale_selector=select_locale)
    # Flask-Babel's callables, with the request's translations looked up once (_page). The i18n
    # extension (added by Flask-Babel just above) gives the environment this method at run time.
    app.jinja_env.install_gettext_callables(  # type: ignore[attr-defined]
        gettext=lambda s: _page()[1].ugettext(s),
        ngettext=lambda s, p, n: _page()[1].ungettext(s, p, n),
        newstyle=True,
        pgettext=lambda c, s: _page()[1].upgettext(c, s),
        npgettext=lambda c, s, p, n: _page()[1].unpgettext(c, s, p, n),
    )
    app.jinja_env.filters["t"] = render
    # None is a figure the page may not show yet (Hidden Secrets' scores before the end).
    app.jinja_env.filters["num"] = lambda value: "?" if value is None else number(value)
    app.jinja_env.globals["get_locale"] = get_locale
    app.jinja_env.globals["html_lang"] = html_lang
    app.cli.add_command(i18n_cli)

    @app.after_request
    def vary_by_language(response):
        # A page's words depend on the browser's languages and the "lang" cookie; a static file's do not.
        if request.endpoint == "static":
            return response
        response.vary.add("Accept-Language")
        response.vary.add("Cookie")
        return response


def counted(singular: str, plural: str, num: int, **variables: object) -> str:
    """A command-line message in the operator's English, its form chosen by ``num`` through
    Babel's plural rules ("1 game", "2 games"). The command line is not translated: these are
    not catalog messages."""
    from babel.support import NullTranslations

    return NullTranslations().ngettext(singular, plural, num) % {"num": num, **variables}
