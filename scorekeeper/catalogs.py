"""Translation catalogs: extract the messages, update the .po files, compile the .mo files.

The .po files in ``scorekeeper/translations/<lang>/LC_MESSAGES/`` are the
sources kept in the repository; the .mo files the app reads are built from
them (:func:`compile_catalogs`, run at every app start, quick when nothing
changed) and never committed. ``scorekeeper i18n update`` re-extracts every
message from the code and templates (see ``babel.cfg``) and merges it into
the catalogs, leaving the new ones empty for a translator.

Nothing here needs Flask: the tests call :func:`extract` directly.
"""

from __future__ import annotations

import io
import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import DEFAULT_KEYWORDS, extract_from_dir
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

# Its own, not paths.py's: setup.py loads this file alone, outside the package, to compile the
# catalogs into the wheel (it can import nothing of the package).
PACKAGE = Path(__file__).resolve().parent
ROOT = PACKAGE.parent

TRANSLATIONS = PACKAGE / "translations"
MAPPING = ROOT / "babel.cfg"
DOMAIN = "messages"
LOCALES = ("pl", "pt")
# Directories of the repository that hold messages (babel.cfg says which files in them).
SOURCE_DIRS = ("scorekeeper", "templates")

# The names that mark a message, also given per file type in babel.cfg:
# N_ (rules msgids), _ / gettext / ngettext (views, templates), _l / lazy_gettext (forms),
# nmsg (a rules message with plural forms: singular and plural literals).
KEYWORDS = {
    **DEFAULT_KEYWORDS,
    "_l": None,
    "lazy_gettext": None,
    "lazy_ngettext": (1, 2),
    "nmsg": (1, 2),
}
COMMENT_TAGS = ("TRANSLATORS:",)


def po_path(locale: str, directory: Path = TRANSLATIONS) -> Path:
    return directory / locale / "LC_MESSAGES" / f"{DOMAIN}.po"


def _mapping() -> tuple[list[tuple[str, str]], dict]:
    from babel.messages.frontend import parse_mapping_cfg  # only for extraction, not at app start

    with MAPPING.open(encoding="utf-8") as f:
        return parse_mapping_cfg(f, str(MAPPING))


def extract(root: Path = ROOT) -> Catalog:
    """Every message marked in the code and templates now, as a template catalog (.pot)."""
    method_map, options_map = _mapping()
    catalog = Catalog(project="scorekeeper", version="0.1.0", charset="utf-8", fuzzy=False)
    catalog.msgid_bugs_address = ""
    catalog.copyright_holder = ""

    def wanted(path: str) -> bool:
        parts = Path(path).relative_to(root).parts
        return bool(parts) and parts[0] in SOURCE_DIRS and not any(p.startswith((".", "_")) for p in parts)

    found = extract_from_dir(
        str(root),
        method_map,
        options_map,
        keywords=KEYWORDS,
        comment_tags=COMMENT_TAGS,
        strip_comment_tags=True,
        directory_filter=wanted,
    )
    for filename, lineno, message, comments, context in found:
        catalog.add(
            message,
            None,
            [(Path(filename).as_posix(), lineno)],
            auto_comments=comments,
            context=context,
        )
    return catalog


def _write_po(path: Path, catalog: Catalog) -> bool:
    """Write ``catalog`` to ``path`` unless only its dates would change; True if written."""
    out = io.BytesIO()
    # No line numbers: a catalog should change when a message does, not when code moves.
    # Messages gone from the code are dropped (git keeps their history).
    write_po(out, catalog, width=100, include_lineno=False, sort_by_file=True, ignore_obsolete=True)
    text = out.getvalue()
    if path.exists() and _undated(path.read_bytes()) == _undated(text):
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    with _atomic(path) as f:
        f.write(text)
    return True


def _undated(po: bytes) -> bytes:
    return re.sub(rb'^"(POT-Creation-Date|PO-Revision-Date): .*$', b"", po, flags=re.MULTILINE)


def update(locales: Iterable[str] = LOCALES, directory: Path = TRANSLATIONS) -> dict[str, dict[str, list]]:
    """Re-extract and merge into each locale's .po; return, per locale, the new and the untranslated.

    New messages come in empty (or with a fuzzy guess from a similar old one,
    which the app ignores until a translator confirms it and removes the flag);
    messages no longer in the code are dropped.
    """
    template = extract()
    _write_po(directory / f"{DOMAIN}.pot", template)
    report: dict[str, dict[str, list]] = {}
    for locale in locales:
        path = po_path(locale, directory)
        if path.exists():
            with path.open("rb") as f:
                catalog = read_po(f, locale=locale, domain=DOMAIN)
        else:
            catalog = Catalog(
                locale=locale, domain=DOMAIN, project="scorekeeper", version="0.1.0", fuzzy=False
            )
        known = {m.id for m in catalog if m.id}
        catalog.update(template, update_header_comment=False)
        _write_po(path, catalog)
        report[locale] = {
            "new": [m.id for m in catalog if m.id and m.id not in known],
            "untranslated": [m.id for m in catalog if m.id and (m.fuzzy or not is_translated(m))],
        }
    compile_catalogs(directory)
    return report


def is_translated(message) -> bool:
    strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
    return bool(strings) and all(s for s in strings)


def _atomic(path: Path, mode: str = "wb"):
    """A file written beside ``path`` and moved over it on success (readers never see half a file)."""

    class Writer:
        def __enter__(self):
            fd, self.tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.")
            self.f = os.fdopen(fd, mode)
            return self.f

        def __exit__(self, exc_type, *exc):
            self.f.close()
            if exc_type is None:
                os.chmod(self.tmp, 0o644)
                os.replace(self.tmp, path)
            else:
                os.unlink(self.tmp)
            return False

    return Writer()


def compile_catalogs(
    source: Path = TRANSLATIONS, target: Path | None = None, force: bool = False
) -> list[Path]:
    """Build each .mo missing or older than its .po (into ``target`` if given); return those built.

    Fuzzy (unconfirmed) translations are left out, as gettext's msgfmt does.
    """
    built = []
    for po in sorted(source.glob(f"*/LC_MESSAGES/{DOMAIN}.po")):
        mo = (target / po.relative_to(source) if target else po).with_suffix(".mo")
        if not force and mo.exists() and mo.stat().st_mtime_ns >= po.stat().st_mtime_ns:
            continue
        locale = po.parent.parent.name
        with po.open("rb") as f:
            catalog = read_po(f, locale=locale, domain=DOMAIN)
        mo.parent.mkdir(parents=True, exist_ok=True)
        with _atomic(mo) as f:
            write_mo(f, catalog)
        built.append(mo)
    return built
