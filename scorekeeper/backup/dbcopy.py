"""``scorekeeper backup --to FILE``: a consistent copy of the SQLite database while the app serves.

SQLite's online backup API copies the database page by page inside one read transaction: in
write-ahead-log mode the app's writers go on meanwhile, and the copy is the database as it
was when the copy began. Copying the file itself (``cp``) while the app runs can catch a
write half done, or miss the writes still in the ``-wal`` file. PostgreSQL has its own tool
for this, ``pg_dump``; the JSON export (``scorekeeper export --all``) is the way to move.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

import click
from flask.cli import with_appcontext

from ..db import db
from ..problems import HostProblem


class CopyError(HostProblem):
    """The database cannot be copied here, or the copy failed: nothing was replaced."""


def sqlite_path() -> Path:
    url = db.engine.url
    if url.get_backend_name() != "sqlite":
        raise CopyError(
            "This server's database is PostgreSQL: copy it with PostgreSQL's own pg_dump "
            "(pg_dump --format=custom --file=FILE DATABASE; pg_restore puts it back). "
            "`scorekeeper export --all` writes a backup that any install can import."
        )
    if not url.database or url.database == ":memory:" or url.database.startswith("file:"):
        raise CopyError("This server's SQLite database is not a file: there is nothing to copy.")
    path = Path(url.database)
    if not path.is_file():
        raise CopyError(f"No database at {path} (has this install been started?).")
    return path


def copy_database(source: Path, target: Path) -> int:
    """Copy ``source`` into ``target`` (replaced whole, only once the copy is complete and
    checked); return its size in bytes. The copy is one self-contained file (no -wal)."""
    partial = target.with_name(f".{target.name}.partial")
    partial.unlink(missing_ok=True)
    fd = os.open(partial, os.O_CREAT | os.O_WRONLY | os.O_EXCL, 0o600)  # holds every game: owner only
    os.close(fd)
    try:
        with (
            contextlib.closing(sqlite3.connect(source)) as src,
            contextlib.closing(sqlite3.connect(partial)) as dst,
        ):
            # All pages in one step: one read transaction, so one moment of the database; a
            # copy in steps would start again whenever the app wrote between two of them.
            src.backup(dst, pages=-1)
            dst.execute("PRAGMA journal_mode=DELETE")
            found = dst.execute("PRAGMA quick_check").fetchone()[0]
            if found != "ok":
                raise CopyError(f"The copy does not check out ({found}); {target} is left as it was.")
        os.replace(partial, target)
    finally:
        partial.unlink(missing_ok=True)
    return target.stat().st_size


@click.command("backup")
@click.option(
    "--to",
    "target",
    required=True,
    type=click.Path(dir_okay=False, path_type=Path),
    help="The copy's file (replaced if it is there).",
)
@with_appcontext
def backup_command(target: Path) -> None:
    """Copy the SQLite database, consistently, while the app goes on serving (PostgreSQL: use
    pg_dump). A restore is this file put in place of the database while the app is stopped."""
    source = sqlite_path()
    if target.resolve() == source.resolve():
        raise CopyError("--to names the database itself: give another file.")
    if not target.parent.is_dir():
        raise CopyError(f"No folder {target.parent} to write the copy in.")
    try:
        size = copy_database(source, target)
    except sqlite3.Error as exc:
        raise CopyError(f"The copy failed: {exc}. {target} is left as it was.") from None
    click.echo(f"Copied the database ({size / 1e6:.1f} MB) to {target}.")
