"""Optional parts of an install, named by the pip extra that brings them.

A SQLite install needs neither PostgreSQL's driver nor Redis' client; a setting that asks for
one of them says which extra to install instead of failing later with an ImportError.
"""

from __future__ import annotations

import importlib.util

from .problems import HostProblem

EXTRAS = {"psycopg": "postgres", "redis": "redis"}


class MissingExtra(HostProblem):
    """A configured URL needs a package this install lacks."""


def require(module: str, setting: str) -> None:
    """Refuse to start, naming the extra, when ``setting`` needs ``module`` and it is not installed."""
    if importlib.util.find_spec(module) is None:
        extra = EXTRAS[module]
        raise MissingExtra(
            f"{setting} needs the '{extra}' extra, which is not installed: pip install 'scorekeeper[{extra}]'"
        )
