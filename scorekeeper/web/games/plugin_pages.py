"""The games' own pages, registered by walking the registry: a game folder with a ``pages.py``
(its ``PAGES``, :class:`scorekeeper.games.pages.Pages`) gets a blueprint of its views, each
behind :func:`~scorekeeper.web.auth.game_route` as the page declares, and the web's helpers
(:data:`KIT`) handed to them. The web imports the games; a game's folder never imports the web.
"""

from __future__ import annotations

from importlib import import_module
from importlib.util import find_spec

from flask import Blueprint

from ... import games, read, service
from ...games.folder import Folder
from ...games.pages import Pages, WebKit
from ..auth import game_route, private_token, role
from ..etags import changed_at
from ..form_tokens import answers_version, stamp_form
from ..live.shed import CHANGED_AT
from ..regions import is_htmx, render_region
from ..templating import qr_svg
from ..via import form_via
from .pages import page_context

KIT = WebKit(
    read=read,
    service=service,
    role=role,
    private_token=private_token,
    changed_at=changed_at,
    changed_at_key=CHANGED_AT,
    answers_version=answers_version,
    stamp_form=stamp_form,
    is_htmx=is_htmx,
    render_region=render_region,
    qr_svg=qr_svg,
    form_via=form_via,
    page_context=page_context,
)


def pages_of(folder: Folder) -> Pages | None:
    """The folder's own pages (``<package>.pages``'s ``PAGES``), or None: most games have none."""
    name = f"{folder.package}.pages"
    if find_spec(name) is None:
        return None
    pages: Pages = import_module(name).PAGES
    return pages


def blueprints() -> list[Blueprint]:
    """A blueprint for each registered game that has pages of its own (made for each app)."""
    made = []
    for folder in games.FOLDERS.values():
        pages = pages_of(folder)
        if pages is None:
            continue
        pages.bind(KIT)
        bp = Blueprint(pages.name, f"{folder.package}.pages", url_prefix=pages.url_prefix)
        for page in pages.pages:
            view = game_route(**page.guard)(page.view)
            bp.add_url_rule(page.rule, page.view.__name__, view, methods=list(page.methods))
        made.append(bp)
    return made
