"""Viewers' live answers kept whole, in files every worker of one server shares (issue 28).

A viewer's region on a URL that names its language is the same for every phone that asks: the
view marks it ``Cache-Control: public`` (etags.follow_caching), so a proxy cache may keep it.
Without one, each worker drew it anew after every deal and compressed it for each phone: under a
crowd, most of the server's time went on drawing the same region once per worker
(benchmarks/run.py --sweep). Here the first answer of a version, as sent (compressed, with its
headers), is written to a file named by the game, the region, the language and the phone's
``Accept-Encoding``; any worker's next poll of that version is answered from it below Flask
(web/live/livepoll.py), with one file read. Only what a shared cache could keep is kept: a ``200``
marked public, with no cookie.

A file holds one version and is replaced by the next (written whole, then renamed, so a reader
sees the old answer or the new, never half of one). It is checked against the game's version
and last change, so a game restored under an old id never gets an answer of another history.
``scorekeeper serve`` gives each start a directory of its own and empties the earlier ones: an
upgrade's templates never meet the answers of the code before it.
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
from pathlib import Path

from ... import stores
from ...lru import LocalLRU
from ...rules.base import read_whole

log = logging.getLogger(__name__)

# Headers drawn per request (by the layers outside, or by the scheme): never kept.
PER_REQUEST = {"date", "strict-transport-security", "x-request-id", "x-poll-after", "set-cookie"}
# The answers a region's file may hold: anything bigger is answered by the view each time.
LARGEST = 512 * 1024
# The deltas kept per region: one per version behind, up to this many (table.MAX_BEHIND's 8).
DELTA_SLOTS = 8
# A drawing's note: the version, in digits, zero-filled to this width (AnswerStore._note).
NOTE_WIDTH = 20


class AnswerStore:
    """Whole answers kept under one directory, one file per game region, language and encoding."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)

    def path(self, game_id: str, part: str, locale: str, accept_encoding: str) -> Path:
        # The game id and the part are checked names; the locale is one of the app's; the phone's
        # Accept-Encoding is free text, so it is hashed into the name.
        encoding = hashlib.blake2b(accept_encoding.encode("latin-1", "replace"), digest_size=8).hexdigest()
        return self.root / game_id / f"{part}.{locale}.{encoding}"

    def drawing(self, game_id: str, version: int) -> None:
        """Note that a drawing of ``version`` of the game is on its way (a write queued it)."""
        self._note(game_id, version)

    def drawn(self, game_id: str, version: int) -> None:
        """A drawing of ``version`` (or none, when it was not queued after all) is done: the polls of
        what it did not draw (a region nobody followed for it) draw it, never wait on it."""
        noted = self.drawn_next(game_id)
        if noted is not None and noted <= version:  # a later write's note (a higher version) stays
            self._note(game_id, 0)

    def drawn_next(self, game_id: str) -> int | None:
        """The version whose drawing a write queued last, if any."""
        try:
            with open(self.root / game_id / "drawing", "rb") as note:
                return int(note.read(NOTE_WIDTH)) or None
        except (OSError, ValueError):
            return None

    def _note(self, game_id: str, version: int) -> None:
        """The note written in place, a fixed width, never truncated: every write notes its drawing,
        and a file truncated and written again cost 0.35 ms on this ext4 (a fifth of a deal's
        write under a crowd), written in place 0.02 ms. A torn read is a poll that draws itself."""
        path = self.root / game_id / "drawing"
        data = b"%0*d" % (NOTE_WIDTH, version)
        try:
            try:
                fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
            except FileNotFoundError:
                path.parent.mkdir(parents=True, exist_ok=True)
                fd = os.open(path, os.O_WRONLY | os.O_CREAT, 0o644)
            try:
                os.pwrite(fd, data, 0)
            finally:
                os.close(fd)
        except OSError:
            log.warning("drawing not noted", exc_info=True)

    def delta_path(self, path: Path, since: str) -> Path:
        """Where what changed since the page's version ``since`` (its ETag) is kept, beside the
        region's whole answer: one slot per version behind (a few), so that pages at two versions
        (one missed a deal while it waited) do not draw over each other's answer in turn."""
        version = since.split(".")[1] if since.count(".") >= 4 else ""
        slot = (read_whole(version, 9) or 0) % DELTA_SLOTS
        return path.parent / "delta" / f"d{slot}-{path.name.replace('.', '-')}"

    def get(self, path: Path, stamp: str) -> tuple[list[tuple[str, str]], bytes] | None:
        """The answer kept at ``path`` for ``stamp`` (the game's version and last change), or None."""
        found = self.get_any(path)
        if found is None or found[0] != stamp:
            return None  # an answer of another version: the view draws this one
        return found[1], found[2]

    def get_any(self, path: Path) -> tuple[str, list[tuple[str, str]], bytes] | None:
        """The answer kept at ``path``, whatever its version: its stamp, headers and body."""
        try:
            data = path.read_bytes()
        except OSError:
            return None
        kept, _, rest = data.partition(b"\n")
        head, _, body = rest.partition(b"\n")
        try:
            headers = [(str(k), str(v)) for k, v in json.loads(head)]
        except (ValueError, TypeError):
            return None
        return kept.decode("latin-1"), headers, body

    def put(self, path: Path, stamp: str, headers: list[tuple[str, str]], body: bytes) -> None:
        """Keep an answer for ``stamp``, replacing the file's earlier one whole."""
        if len(body) > LARGEST:
            return
        kept = [(k, v) for k, v in headers if k.lower() not in PER_REQUEST]
        data = stamp.encode("latin-1") + b"\n" + json.dumps(kept).encode() + b"\n" + body
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd, temporary = tempfile.mkstemp(dir=path.parent, prefix=".")
            try:
                with os.fdopen(fd, "wb") as out:
                    out.write(data)
                os.replace(temporary, path)
            except BaseException:
                Path(temporary).unlink(missing_ok=True)
                raise
        except OSError:  # a full or read-only disk: the view answers, as it did before
            log.warning("live answer not kept", exc_info=True)


# How long a region asked for counts as followed: a write draws it for its followers meanwhile.
FOLLOWED_FOR = 300.0
# A worker marks a region asked for at most this often (one file's time touched).
MARK_EVERY = 60.0


ASKED = stores.store("live_asks", "LOCAL_GAMES", doc="followed live regions per game, when marked")


class Asks:
    """Which viewers' regions of a game are followed, and how they were asked (issue 40).

    A write draws its game's followed regions once (web/live/livepoll.py ``Drawer``), so that the
    polls that follow are answered from what it drew. A write's worker may never have seen the
    polls, so the mark is shared: one small file per region, language and encoding asked,
    holding what the drawing needs to ask again (the region, the language, the phone's
    ``Accept-Encoding``, and whether it asked for what changed or for the whole region), its time touched by a worker answering that region's polls, at most
    once a minute per worker. Without a directory (``LIVE_ANSWERS_DIR`` unset: one process, the
    shared cache), the marks are this process's only.
    """

    def __init__(
        self,
        root: Path | None,
        marked: LocalLRU[str, dict[tuple[str, str, str, bool], float]] | None = None,
        clock=time.time,
    ) -> None:
        self.root = root
        self.clock = clock
        # Per game (a plain dict: its single gets and sets are atomic), when each ask was marked:
        # the app's registered store (``ASKED``), or a map of this object's own.
        self._marked = marked if marked is not None else LocalLRU(16384)

    def mark(self, game_id: str, part: str, lang: str, accept_encoding: str, since: bool = False) -> None:
        """A viewer asked for this region (a poll, answered however); ``since``: it asked for what
        changed since its version (``X-Live-Since``, a page's own poll), else for the whole region
        (a proxy's cache, which clears that header, or a page without the script)."""
        asks = self._marked.setdefault(game_id, dict)
        ask = (part, lang, accept_encoding, since)
        now = self.clock()
        last = asks.get(ask)
        if last is not None and now - last < MARK_EVERY:
            return
        asks[ask] = now
        if self.root is None:
            return
        path = self._path(game_id, part, lang, accept_encoding, since)
        try:
            try:
                os.utime(path)
            except FileNotFoundError:
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps([part, lang, accept_encoding, since]))
        except OSError:
            log.warning("followed region not marked", exc_info=True)

    def followed(self, game_id: str) -> list[tuple[str, str, str, bool]]:
        """The regions of ``game_id`` asked for lately: (part, lang, accept_encoding, since)."""
        now = self.clock()
        found: set[tuple[str, str, str, bool]] = set()
        if self.root is None:
            asks = self._marked.get(game_id) or {}
            return sorted(ask for ask, at in list(asks.items()) if now - at < FOLLOWED_FOR)
        try:
            entries = list(os.scandir(self.root / game_id / "asked"))
        except OSError:
            return []
        for entry in entries:
            try:
                if now - entry.stat().st_mtime >= FOLLOWED_FOR:
                    continue
                part, lang, encoding, since = json.loads(Path(entry.path).read_text())
            except (OSError, ValueError, TypeError):
                continue
            found.add((str(part), str(lang), str(encoding), since is True))
        return sorted(found)

    def _path(self, game_id: str, part: str, lang: str, accept_encoding: str, since: bool) -> Path:
        assert self.root is not None
        encoding = hashlib.blake2b(accept_encoding.encode("latin-1", "replace"), digest_size=8).hexdigest()
        return self.root / game_id / "asked" / f"{encoding}-{part}-{lang}{'-since' if since else ''}"


def fresh_directory(parent: Path) -> Path:
    """A new, empty directory for one server start under ``parent``; the earlier starts' removed."""
    parent.mkdir(parents=True, exist_ok=True)
    for earlier in parent.iterdir():
        if earlier.is_dir():
            shutil.rmtree(earlier, ignore_errors=True)
    return Path(tempfile.mkdtemp(dir=parent, prefix="start-"))
