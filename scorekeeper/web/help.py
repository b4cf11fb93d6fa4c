"""The players' help: the rules of each game, at ``/help`` and ``/help/<game>``, in the page's language.

Each page is a Markdown file shipped in the package, ``scorekeeper/help/<lang>/<game>.md``,
turned into HTML once per process (the files change only with a release). Markdown rather
than gettext msgids or Jinja templates: a game's rules are long prose with lists, tables and
worked examples that a translator writes whole, in their own language's order and idiom;
cut into msgids they would lose that, and as templates every line would carry markup. The
files are ours (never a user's input), so their HTML is trusted as it stands.

The language is the one every page uses (Flask-Babel's ``get_locale``: the device's
choice, else the browser's). A file's first line is its title (``# ...``).
"""

from __future__ import annotations

from functools import cache

import markdown
from flask import Blueprint, abort, render_template
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from markupsafe import Markup

from ..games import GAMES as KINDS
from ..paths import PACKAGE

bp = Blueprint("help", __name__)
FOLDER = PACKAGE / "help"
# The games with a help page, in the order the new-game page lists them.
GAMES = tuple(KINDS)
LANGUAGES = ("en", "pl", "pt")


# Not a registered store: one entry per help file that exists (a missing one raises, kept never),
# languages times games: bounded by nature.
@cache
def page(lang: str, game: str) -> tuple[str, Markup]:
    """A help file's title and its body as HTML."""
    text = (FOLDER / lang / f"{game}.md").read_text(encoding="utf-8")
    first, _, body = text.partition("\n")
    if not first.startswith("# "):
        raise ValueError(f"help/{lang}/{game}.md must start with its title ('# ...')")
    html = markdown.markdown(body, extensions=["tables", "sane_lists"], output_format="html")
    return first[2:].strip(), Markup(html)


def language() -> str:
    locale = get_locale()
    return locale.language if locale is not None and locale.language in LANGUAGES else "en"


@bp.get("/help")
def index() -> ResponseReturnValue:
    """Every game's rules, one link each."""
    lang = language()
    games = [(key, page(lang, key)[0], KINDS[key]) for key in GAMES]
    return render_template("help/index.html", games=games)


@bp.get("/help/<game>")
def show(game: str) -> ResponseReturnValue:
    """One game's rules for the players: how it is played and how it is scored."""
    if game not in GAMES:
        abort(404)
    title, body = page(language(), game)
    return render_template("help/game.html", key=game, title=title, body=body)
