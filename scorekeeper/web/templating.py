"""Every template global, registered in one place.

None of them scores, redacts or queries: what a page shows of a game comes
in its context as a :class:`~scorekeeper.read.GameView` (``view``), already
scored once and redacted for the viewer. These only put it into words and shapes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from flask import Flask, current_app
from flask_babel import format_date
from flask_babel import gettext as _
from jinja2 import ChoiceLoader, FileSystemLoader
from markupsafe import Markup

from .. import cache, pdf
from ..clubs import figures
from ..events import formats
from ..games import TEMPLATE_FOLDERS
from ..games.secrets.rules import HIDDEN_SECRETS, OUTCOME_NAMES, SPIES, SPY_NAMES
from ..i18n import language, number, render
from ..read import GameView
from ..rules import DealResult
from ..rules.base import format_counts
from ..rules.cards import SUIT_MARKS
from ..service import new_token
from . import secrecy
from .auth import may
from .etags import live_etag
from .games import assets as game_assets
from .present import (
    ago,
    house_rules,
    join_names,
    option_text,
    pair_name,
    role_change,
    role_note,
    role_word,
    round_text,
    seating_line,
    side_names,
    status_line,
)
from .secrecy import secret_link

# How often (seconds) an open game page asks whether the game changed (htmx polling);
# the app's LIVE_POLL_SECONDS changes it.
POLL_SECONDS = 3
# How often (seconds) an event's board (the hall's TV) asks for the standings; the app's
# BOARD_REFRESH_SECONDS changes it.
BOARD_SECONDS = 10
# Secrets' spies are named after the suits: each shows its suit's mark.
SPY_MARKS = {spy: SUIT_MARKS[spy[0].upper()] for spy in SPIES}


def event_format(event: Any) -> formats.Format:
    """An event's format plug-in (from the event, or its document's ``format`` key): templates ask
    it (its partnerships, what an unseated round says) and never compare the format's name."""
    return formats.of(event if isinstance(event, str) else event.format)


def side_explanations(players: Sequence[str], deal: DealResult, side: Sequence[int]) -> list[str]:
    """A side's explanations for one deal: one line, or one per partner when theirs differ."""
    lines = [render(deal.explanations[s]) for s in side]
    if len(set(lines)) == 1:
        return lines[:1]
    return [f"{players[s]}: {line}" for s, line in zip(side, lines, strict=True)]


def running_chart(view: GameView) -> figures.Chart | None:
    """The geometry of the view's running-totals chart, one line per side, in this page's language."""
    series = view.chart
    return figures.running_chart(
        [pair_name(view.players, side) for side in series.sides],
        series.totals,
        series.tiebreak,
        number=number,
    )


def qr_svg(url: str, title: str = "", svgclass: str = "qr") -> Markup:
    """``url`` as a QR code: an inline SVG drawn on the server (no image request, no third party).

    Drawn once per URL (and title) and kept in the shared cache: a URL's code never changes.
    A scoring link (it carries the edit key) or a seat's private link (its token) is drawn each
    time: no secret goes into the cache.
    """
    if secret_link(url):
        secrecy.mark()  # the answer showing it is never stored (web/secrecy.py)
        return Markup(draw_qr(url, title, svgclass))
    return Markup(
        cache.remember(cache.key("qr", url, title, svgclass), lambda: draw_qr(url, title, svgclass))
    )


def draw_qr(url: str, title: str, svgclass: str) -> str:
    import segno

    code = segno.make(url, error="m", micro=False)
    return str(
        code.svg_inline(
            scale=1,
            border=4,
            dark="#000",
            light="#fff",
            omitsize=True,
            svgclass=svgclass,
            lineclass=None,
            title=title,
        )
    )


def pdf_printer() -> str | None:
    """The Chromium that prints PDF files here, or None (config ``PDF_CHROMIUM``; "" turns it off)."""
    return pdf.find_chromium(current_app.config.get("PDF_CHROMIUM"))


def pdf_unavailable() -> str:
    return _("This server cannot make PDF files (it has no Chromium). Use Print and choose “Save as PDF”.")


def write_token() -> str:
    """A new submission token for a form that changes a game."""
    return new_token(16)


def poll_seconds() -> int:
    """A followed region's first wait; then app.js waits what the server's X-Poll-After says."""
    return int(current_app.config.get("LIVE_POLL_SECONDS", POLL_SECONDS))


def board_seconds() -> int:
    """How often an event's board (the hall's TV) asks for the standings (BOARD_REFRESH_SECONDS)."""
    return int(current_app.config.get("BOARD_REFRESH_SECONDS", BOARD_SECONDS))


def secrets_words() -> dict:
    """Names and marks the Secrets templates show."""
    return {"spies": SPY_NAMES, "marks": SPY_MARKS, "outcomes": OUTCOME_NAMES, "letters": HIDDEN_SECRETS}


def init_app(app: Flask) -> None:
    # Each game keeps its own templates in its folder (games/<key>/templates/games/<key>/...):
    # the site's templates first, then the games', under the same names as ever.
    assert app.template_folder is not None  # the app is made with its templates folder
    app.jinja_loader = ChoiceLoader(
        [FileSystemLoader(app.template_folder), *(FileSystemLoader(folder) for folder in TEMPLATE_FOLDERS)]
    )

    app.jinja_env.globals.update(
        status_line=status_line,
        ago=ago,
        round_text=round_text,
        side_names=side_names,
        join_names=join_names,
        seating_line=seating_line,  # a table's seats with their partnerships: "Ann & Cy v Bob & Di"
        option_text=option_text,
        role_word=role_word,  # a member's role in words (what it may do is may()'s)
        role_note=role_note,
        role_change=role_change,
        house_rules=house_rules,  # a game's options in words: the score sheet's and the event's prints
        event_format=event_format,  # what an event's format plug-in says of itself
        format_date=format_date,
        format_counts=format_counts,
        side_explanations=side_explanations,
        running_chart=running_chart,
        qr_svg=qr_svg,
        pdf_printer=pdf_printer,
        pdf_unavailable=pdf_unavailable,
        write_token=write_token,
        live_etag=live_etag,
        poll_seconds=poll_seconds,
        board_seconds=board_seconds,
        language=language,
        secrets_words=secrets_words,
        game_assets=game_assets.tags,  # a game's own entry style and script (its folder's static/)
        suit_marks=SUIT_MARKS,
        # The access layer's predicates, by name (``may().run_club(club.id)``): asked, never re-decided.
        may=may,
    )
