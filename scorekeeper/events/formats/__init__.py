"""The event formats' registry (events.md, Formats): one class per format, one file each.

Adding a format: the checklist in docs/developers.md ("Adding an event format"); here, its file
(a :class:`~.base.Format` subclass and ``FORMAT``) and one line below.
"""

from __future__ import annotations

from .base import Column, Entry, Format
from .ladder import FORMAT as LADDER
from .mixer import FORMAT as MIXER
from .pairs import FORMAT as PAIRS
from .progressive import FORMAT as PROGRESSIVE

FORMATS: dict[str, Format] = {f.key: f for f in (PROGRESSIVE, PAIRS, MIXER, LADDER)}


def of(key: str) -> Format:
    """The format called ``key`` (a stored event's: always registered)."""
    return FORMATS[key]


__all__ = ["FORMATS", "Column", "Entry", "Format", "of"]
