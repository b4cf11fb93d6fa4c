"""Languages: Flask-Babel set-up and the bridge that renders rules' messages."""

from __future__ import annotations

from flask import Flask, current_app, request
from flask_babel import Babel, format_decimal, get_locale
from flask_babel import gettext as _gettext

from .rules import Msg

babel = Babel()


def select_locale() -> str | None:
    """The language remembered on this device, else the browser's best match."""
    languages = current_app.config["LANGUAGES"]
    chosen = request.cookies.get("lang")
    if chosen in languages:
        return chosen
    return request.accept_languages.best_match(languages)


def render(message: Msg | str | None) -> str:
    """A rules message in the page's language, with numbers in its format."""
    if message is None:
        return ""
    if isinstance(message, str):
        return _gettext(message)
    return message.render(_gettext, format_decimal)


def init_app(app: Flask) -> None:
    babel.init_app(app, locale_selector=select_locale)
    app.jinja_env.filters["t"] = render
    app.jinja_env.filters["num"] = format_decimal
    app.jinja_env.globals["get_locale"] = get_locale
