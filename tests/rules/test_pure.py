"""The scoring core is pure: every rules module (the vocabulary in ``rules/``, each game's
``games/<key>/rules.py`` and the games' registry) imports no web or database code, not even
through a relative import of a sibling that does."""

import ast
from pathlib import Path

import pytest

import scorekeeper

PACKAGE = Path(scorekeeper.__file__).parent
WEB_OR_DB = {
    "flask",
    "flask_sqlalchemy",
    "sqlalchemy",
    "wtforms",
    "flask_wtf",
    "flask_babel",
    "werkzeug",
    "jinja2",
}
# Modules of ours a rules module may import (all pure themselves, checked below).
PURE = {
    "scorekeeper.rules",
    "scorekeeper.rules.base",
    "scorekeeper.rules.cards",
    "scorekeeper.games",
    "scorekeeper.games.folder",
    "scorekeeper.games.traits",
}


def rules_modules():
    yield from sorted((PACKAGE / "rules").glob("*.py"))
    yield PACKAGE / "games" / "__init__.py"
    # The registry and what each folder declares to it (its __init__.py: its pure parts).
    yield PACKAGE / "games" / "folder.py"
    yield from sorted((PACKAGE / "games").glob("*/__init__.py"))
    yield from sorted((PACKAGE / "games").glob("*/rules.py"))
    # A game's traits at an event (games/<key>/event.py) are registered beside its rules: pure too.
    yield PACKAGE / "games" / "traits.py"
    yield from sorted((PACKAGE / "games").glob("*/event.py"))


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(path: Path):
    """Every module ``path`` imports, relative imports resolved to absolute names."""
    name = module_name(path)
    package = name if path.name == "__init__.py" else name.rsplit(".", 1)[0]
    tree = ast.parse(path.read_text())
    # Names imported only for the type checker (``if TYPE_CHECKING:``) are never loaded.
    typing_only = {
        id(inner)
        for node in ast.walk(tree)
        if isinstance(node, ast.If) and isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
        for inner in ast.walk(node)
    }
    for node in ast.walk(tree):
        if id(node) in typing_only:
            continue
        if isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level == 0:
                yield node.module
                continue
            base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
            yield f"{base}.{node.module}" if node.module else base


@pytest.mark.parametrize("path", list(rules_modules()), ids=lambda p: str(p.relative_to(PACKAGE)))
def test_rules_module_is_pure(path):
    found = set(imports(path))
    assert not {m.split(".")[0] for m in found} & WEB_OR_DB, found
    ours = {m for m in found if m.startswith("scorekeeper")}
    games_rules = {
        m for m in ours if m.startswith("scorekeeper.games.") and m.endswith((".rules", ".event", ".folder"))
    }
    assert ours - games_rules <= PURE, ours - games_rules - PURE
