"""The games as the web sees them: a view of the one registry (:data:`scorekeeper.games.REGISTRY`).

Each game's :class:`~scorekeeper.games.base.Plugin` (its ``games/<key>/plugin.py``) names its
rules, its entry form, its templates' folder and its optional steps (a set-up finished after
creation, deals entered in steps, a preview, "same as last deal", small htmx replies). Views
ask the plugin; they never probe a form or the rules with ``getattr``/``hasattr``.

Nothing is listed here: a registered game's plugin is found in its folder the first time the
web asks for it (:attr:`scorekeeper.games.folder.Folder.plugin`).
Adding a game: the checklist in docs/developers.md ("Adding a game"); nothing here.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping

from .games import FOLDERS
from .games.base import Plugin


class _Plugins(Mapping[str, Plugin]):
    """Every registered game's plugin by key, in the registry's order (a live view of it)."""

    def __getitem__(self, key: str) -> Plugin:
        return FOLDERS[key].plugin

    def __iter__(self) -> Iterator[str]:
        return iter(FOLDERS)

    def __len__(self) -> int:
        return len(FOLDERS)


PLUGINS: Mapping[str, Plugin] = _Plugins()


def get(key: str) -> Plugin | None:
    folder = FOLDERS.get(key)
    return folder.plugin if folder is not None else None


__all__ = ["PLUGINS", "Plugin", "get"]
