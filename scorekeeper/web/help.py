"""The players' help: the rules of each game, at ``/help`` and ``/help/<game>``, in the page's language.

Each page is a Markdown file in the game's own folder, ``games/<key>/help/<lang>.md``,
turned into HTML once per process (the files change only with a release). Markdown rather
than gettext msgids or Jinja templates: a game's rules are long prose with lists, tables and
worked examples that a translator writes whole, in their own language's order and idiom;
cut into msgids they would lose that, and as templates every line would carry markup. The
files are ours (never a user's input), so their HTML is trusted as it stands.

The language is the one every page uses (Flask-Babel's ``get_locale``: the device's
choice, else the browser's). A file's first line is its title (``# ...``). A game whose page is
missing in that language shows its English page; a game with no page at all is left off the
index (and its page answers 404) rather than breaking the index for every game. The folder
guard (tests/games/test_folders.py) keeps a shipped game from missing any.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

import markdown
from flask import Blueprint, abort, render_template
from flask.typing import ResponseReturnValue
from flask_babel import get_locale
from markupsafe import Markup

from ..games import FOLDERS
from ..games.folder import LANGUAGES

bp = Blueprint("help", __name__)


# Not a registered store: one entry per help file that exists, languages times games: bounded by
# nature. Keyed by the file's path, so a game registered later (a test's) is read afresh.
@cache
def rendered(path: Path) -> tuple[str, Markup]:
    """A help file's title and its body as HTML."""
    text = path.read_text(encoding="utf-8")
    first, _, body = text.partition("\n")
    if not first.startswith("# "):
        raise ValueError(f"{path} must start with its title ('# ...')")
    html = markdown.markdown(body, extensions=["tables", "sane_lists"], output_format="html")
    return first[2:].strip(), Markup(html)


def page(lang: str, game: str) -> tuple[str, Markup] | None:
    """The game's help in ``lang``, else in English, else None (a game shipped without it)."""
    folder = FOLDERS.get(game)
    if folder is None:
        return None
    for path in (folder.help_file(lang), folder.help_file("en")):
        if path.is_file():
            return rendered(path)
    return None


def language() -> str:
    locale = get_locale()
    return locale.language if locale is not None and locale.language in LANGUAGES else "en"


@bp.get("/help")
def index() -> ResponseReturnValue:
    """Every game's rules, one link each."""
    lang = language()
    pages = ((key, folder, page(lang, key)) for key, folder in FOLDERS.items())
    games = [(key, found[0], folder.rules) for key, folder, found in pages if found is not None]
    return render_template("help/index.html", games=games)


@bp.get("/help/<game>")
def show(game: str) -> ResponseReturnValue:
    """One game's rules for the players: how it is played and how it is scored."""
    found = page(language(), game)
    if found is None:
        abort(404)
    title, body = found
    return render_template("help/game.html", key=game, title=title, body=body)
