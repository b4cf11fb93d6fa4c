"""Unicode's confusable skeleton (UTS #39, section 4): what a name looks like, so that two names
that look the same ("Own" and "Оwn" with a Cyrillic О) are one name.

The table is Unicode's confusables.txt as the ``confusable_homoglyphs`` package ships it (each
character with the characters it is confusable with, both ways); this module only turns it into
one representative per look-alike group, once, on first use. Pure: no Flask, no database.
"""

from __future__ import annotations

import json
import threading
import unicodedata
from importlib import resources

_lock = threading.Lock()
_table: dict[str, str] | None = None
MARKS = "\u200e\u200f"  # the package wraps right-to-left characters in direction marks


def _load() -> dict[str, str]:
    raw = json.loads(resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8"))
    homoglyphs = {key: [entry["c"].strip(MARKS) for entry in entries] for key, entries in raw.items()}
    table: dict[str, str] = {}
    for char, likes in homoglyphs.items():
        if len(char) != 1 or len(likes) != 1:
            continue  # a prototype (listing its many sources), or a sequence: not mapped from
        target = likes[0]
        back = homoglyphs.get(target, [])
        if len(back) == 1 and back[0] == char and len(target) == 1:
            # Only each other's look-alike: either may be the prototype; the smaller stands for both.
            target = min(char, target)
        if target != char:
            table[char] = target
    return table


def table() -> dict[str, str]:
    global _table
    if _table is None:
        with _lock:
            if _table is None:
                _table = _load()
    return _table


def fold_name(name: str) -> str:
    """The one name rule's comparison (clubs.md): compatibility forms and case folded, then
    look-alike letters (the skeleton), at most 200 characters (the stored column's width)."""
    cased = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    return unicodedata.normalize("NFKC", skeleton(cased).casefold())[:200]


def skeleton(text: str) -> str:
    """``text`` as it looks: decomposed, every character replaced by its group's prototype,
    composed again (UTS #39's skeleton, with NFKC at the end as the name rule composes)."""
    mapping = table()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFKC", "".join(mapping.get(c, c) for c in decomposed))
