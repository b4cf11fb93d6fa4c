"""A game's own pages (Secrets' consoles and private links), declared in its folder as plain
view functions (``games/<key>/pages.py``: ``PAGES``, a :class:`Pages`), and made into a Flask
blueprint by the web (``web/games/plugin_pages.py``), which finds them by walking the registry.

The folder never imports the web (the layers go one way: ``web`` imports ``games``): what its
views need of the web (the caller's role, a form's stamp, a region's rendering...) is handed to
them as a :class:`WebKit` when the web registers them, and they reach it as ``PAGES.web``; so
are the read and write sides (``read``, ``service``), which stand above the games (they import
the registry), so that nothing in a game's folder imports a layer above it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class WebKit:
    """The web's helpers a game's own pages call (each is the web's function of that name), and
    the layers above the games they use (the modules ``scorekeeper.read`` and ``service``)."""

    read: Any
    service: Any

    role: Callable[[], Any]  # the caller's role in the game (auth.role)
    private_token: Callable[[Any, int], str]  # a seat's private link's token (auth)
    changed_at: Callable[[Any], Any]  # a poll's change time (etags)
    changed_at_key: str  # where a poll keeps it in the request's environ (live.shed)
    answers_version: Callable[[Any], None]  # the answer names the game's version (form_tokens)
    stamp_form: Callable[..., Any]  # a form's version and submission token (form_tokens)
    is_htmx: Callable[[], bool]  # regions
    render_region: Callable[..., Any]  # a whole page, or to htmx the region alone (regions)
    qr_svg: Callable[..., str]  # templating
    form_via: Callable[[], Any]  # who wrote, through which form (via)
    page_context: Callable[..., dict[str, Any]]  # a game page's context (web/games/pages)


@dataclass(frozen=True)
class Page:
    """One route: its rule (under the prefix), view, methods and who may open it (the web's
    ``game_route`` keywords: ``scorer``, ``seat_link``...; the view takes ``game``)."""

    rule: str
    view: Callable[..., Any]
    methods: tuple[str, ...] = ("GET",)
    guard: Mapping[str, Any] = field(default_factory=dict)


class Pages:
    """A game's own pages: the blueprint's name and prefix, its routes, and the web's helpers
    (:attr:`web`, handed in when the web registers them)."""

    def __init__(self, name: str, url_prefix: str = "/g") -> None:
        self.name = name
        self.url_prefix = url_prefix
        self.pages: list[Page] = []
        self._web: WebKit | None = None

    def route(self, rule: str, methods: tuple[str, ...] = ("GET",), **guard: Any) -> Callable:
        """Declare the decorated view a page (the view itself is left as it is)."""

        def declare(view: Callable[..., Any]) -> Callable[..., Any]:
            self.pages.append(Page(rule, view, methods, guard))
            return view

        return declare

    @property
    def web(self) -> WebKit:
        if self._web is None:
            raise RuntimeError(f"{self.name}'s pages are used before the web registered them")
        return self._web

    def bind(self, web: WebKit) -> None:
        self._web = web
