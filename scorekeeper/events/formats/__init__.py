"""The event formats' registry (events.md, Formats): one class per format, one file each.

Adding a format: the checklist in docs/developers.md ("Adding an event format"); here, its file
(a :class:`~.base.Format` subclass and ``FORMAT``) and one line in :data:`REGISTRY`. Everything
else asks :data:`FORMATS`: the creation checks, the new-event page's fields, the API's
description, the service, the pages and prints.
"""

from __future__ import annotations

from importlib import import_module

from .base import Column, Entry, Field, Format, Option

# The registry: one line a format, its file's module; the new-event page offers them in this order.
REGISTRY = (
    "scorekeeper.events.formats.progressive",
    "scorekeeper.events.formats.pairs",
    "scorekeeper.events.formats.mixer",
    "scorekeeper.events.formats.ladder",
)

FORMATS: dict[str, Format] = {}


def options() -> dict[str, Option]:
    """Every registered format's own settings by key, in the registry's order (each key one
    format's: :func:`register` refuses a second owner)."""
    return {option.key: option for fmt in FORMATS.values() for option in fmt.options}


def register(module: str) -> Format:
    """Register the format whose file is the module ``module`` (its ``FORMAT``): the registry's
    own lines are registered on import; a test registers a format of its own the same way (and
    :func:`unregister` takes it away again)."""
    fmt: Format = import_module(module).FORMAT
    if fmt.key in FORMATS:
        raise ValueError(f"a format called {fmt.key!r} is registered already")
    taken = set(options()) & {o.key for o in fmt.options}
    if taken:  # one stored setting, one meaning
        raise ValueError(f"the setting {sorted(taken)[0]!r} is another format's")
    FORMATS[fmt.key] = fmt
    return fmt


def unregister(key: str) -> None:
    del FORMATS[key]


for _module in REGISTRY:
    register(_module)


def of(key: str) -> Format:
    """The format called ``key`` (a stored event's: always registered)."""
    return FORMATS[key]


__all__ = ["FORMATS", "REGISTRY", "Column", "Entry", "Field", "Format", "Option", "of", "options", "register"]
