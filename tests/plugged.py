"""A plug-in of the tests' own, a game's folder (tests/plugin_game) or a format's file
(tests/plugin_format), for the length of one test: written under a temporary folder, made
importable and registered with the registry's one line; afterwards unregistered and forgotten
(its modules too), so that the next test meets the built-in registry alone.
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")


@contextmanager
def plugged_in(
    root: Path,
    package: str,
    write: Callable[[Path], object],
    register: Callable[[str], T],
    unregister: Callable[[], None],
) -> Iterator[T]:
    """``write(root)``, then ``register(package)`` with ``root`` importable: what it registered,
    for a ``with`` block; ``unregister()`` after it, passed or failed."""
    write(root)
    sys.path.insert(0, str(root))
    try:
        yield register(package)
    finally:
        unregister()
        sys.path.remove(str(root))
        for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
            del sys.modules[name]
