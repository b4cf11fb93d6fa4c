"""Where the package, its site folders (templates, static, docs) and the instance folder are.

Below everything: the factory, the catalogs and the web's help and docs pages all ask here.
"""

from __future__ import annotations

import os
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent


def site_folder(name: str) -> Path:
    """templates/ or static/: inside the package in an installed wheel, else at the top of the checkout."""
    shipped = PACKAGE / name
    return shipped if shipped.is_dir() else ROOT / name


def instance_folder() -> Path:
    """Where the SQLite database, the secret key and config.py live.

    ``SCOREKEEPER_INSTANCE`` (``scorekeeper --instance``) names it. Otherwise a
    checkout keeps ``instance/`` beside the code, and an installed wheel (whose
    package folder may be read-only or replaced on upgrade) keeps the user's data
    folder, ``$XDG_DATA_HOME/scorekeeper`` (``~/.local/share/scorekeeper``).
    """
    named = os.environ.get("SCOREKEEPER_INSTANCE")
    if named:
        return Path(named).expanduser().resolve()
    if (ROOT / "pyproject.toml").is_file():
        return ROOT / "instance"
    data = os.environ.get("XDG_DATA_HOME") or Path.home() / ".local" / "share"
    return Path(data) / "scorekeeper"
