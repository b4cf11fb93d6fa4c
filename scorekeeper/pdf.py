"""The score sheet as a PDF file: the print page rendered by a headless Chromium on the server.

Chromium prints the very page and print stylesheet a browser prints, so the
file and the paper sheet are the same. Where no Chromium is installed (or
``PDF_CHROMIUM`` is set to ``""``), :func:`find_chromium` gives None and the
pages say to use the browser's Print → Save as PDF instead.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable
from contextlib import contextmanager, suppress
from pathlib import Path

from .problems import HostProblem

CANDIDATES = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "chrome")
# The page is ours and self-contained (inline CSS; its Content-Security-Policy
# allows no script and no fetch): keep Chromium from reaching out or keeping state.
FLAGS = (
    "--headless",
    "--disable-gpu",
    "--no-first-run",
    "--no-default-browser-check",
    "--disable-extensions",
    "--disable-sync",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-default-apps",
    "--mute-audio",
    "--no-pdf-header-footer",
    "--print-to-pdf-no-header",  # the same, for Chromium before 120
)
# One render at a time in this process (and, through :func:`render_once`'s file lock, on this
# machine): each is a whole browser for a second or two, and the other requests need the CPU.
_renders = threading.BoundedSemaphore(1)
# How long a PDF request waits for the render before it (never another request) gives up.
WAIT_SECONDS = 90


class PdfError(HostProblem):
    """Chromium is missing or failed to print."""


def find_chromium(setting: str | None = None) -> str | None:
    """The Chromium to print with: ``setting`` when given ("" turns PDF off), else the first found."""
    if setting is not None:
        return shutil.which(setting) if setting else None
    for name in CANDIDATES:
        found = shutil.which(name)
        if found:
            return found
    return None


def html_to_pdf(html: str, chromium: str, timeout: float = 60) -> bytes:
    """Print a self-contained HTML document to PDF bytes with headless ``chromium``."""
    with _renders, tempfile.TemporaryDirectory(prefix="scorekeeper-pdf-") as tmp:
        page = Path(tmp) / "sheet.html"
        out = Path(tmp) / "sheet.pdf"
        page.write_text(html, encoding="utf-8")
        args = [chromium, *FLAGS, f"--user-data-dir={tmp}/profile", f"--print-to-pdf={out}"]
        nice = shutil.which("nice")
        if nice:
            # Below the web workers: pages keep their CPU while a sheet prints.
            args = [nice, "-n", "10", *args]
        if hasattr(os, "geteuid") and os.geteuid() == 0:
            args.append("--no-sandbox")  # Chromium will not start its sandbox as root
        args.append(page.as_uri())
        try:
            done = subprocess.run(
                args, capture_output=True, timeout=timeout, check=False, stdin=subprocess.DEVNULL
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise PdfError(str(exc)) from exc
        data = out.read_bytes() if out.exists() else b""
        if not data.startswith(b"%PDF"):
            tail = done.stderr.decode(errors="replace")[-500:]
            raise PdfError(f"Chromium exited {done.returncode} without a PDF: {tail}")
        return data


def render_once(
    folder: Path,
    version: int,
    name: str,
    make_html: Callable[[], str],
    chromium: str,
    keep_others: bool = False,
) -> bytes:
    """The PDF kept as ``folder/<version>-<name>.pdf``, printed first if it is not there yet.

    ``folder`` is the game's, ``name`` says everything else the sheet depends on
    (language, role, paper): once printed, every later request reads the file. A
    file lock lets one render run at a time on this machine, whichever worker asks;
    a request waiting for it holds nothing other requests need. The game's sheets
    of older versions are removed when a newer one is written (with ``keep_others``, only those
    of this ``name``: the newest copy of each other name stays, for :func:`render_latest`).
    """
    path = folder / f"{version}-{name}.pdf"
    if path.is_file():
        return path.read_bytes()
    folder.mkdir(parents=True, exist_ok=True)
    with _machine_lock(folder.parent / ".render.lock"):
        if path.is_file():  # printed by another request while this one waited
            return path.read_bytes()
        data = html_to_pdf(make_html(), chromium)
        partial = folder / f".{os.getpid()}-{threading.get_ident()}.part"
        partial.write_bytes(data)
        os.replace(partial, path)
    for old in folder.glob("*.pdf"):
        stem, _, rest = old.name.partition("-")
        if keep_others and rest != f"{name}.pdf":
            continue
        if stem.isascii() and stem.isdigit() and int(stem) < version:
            old.unlink(missing_ok=True)
    return data


def newest_kept(folder: Path, name: str) -> Path | None:
    """The newest sheet kept in ``folder`` under ``name``, whatever its version."""
    found: list[tuple[int, Path]] = []
    for path in folder.glob(f"*-{name}.pdf"):
        stem, _, rest = path.name.partition("-")
        if rest == f"{name}.pdf" and stem.isascii() and stem.isdigit():
            found.append((int(stem), path))
    return max(found)[1] if found else None


def render_latest(
    folder: Path,
    version: int,
    name: str,
    make_html: Callable[[], str],
    chromium: str,
    fresh_within: float | None = None,
) -> bytes:
    """An event's sheets, which anyone with the event's link may ask for and which change with
    every hand played: :func:`render_once`, bounded per event (``folder``).

    One print at a time per event: a request that finds one under way is served the newest copy
    kept under its ``name`` instead (waiting, bounded, only when there is none yet). With
    ``fresh_within`` (a viewer's request), a copy printed less than that many seconds ago is
    served though the event changed since: at most one print a minute per event and name,
    however many ask. A director's request (``fresh_within`` None) waits for the newest.
    """
    path = folder / f"{version}-{name}.pdf"
    if path.is_file():
        return path.read_bytes()
    folder.mkdir(parents=True, exist_ok=True)
    kept = newest_kept(folder, name)
    if kept is not None and fresh_within is not None and time.time() - kept.stat().st_mtime < fresh_within:
        with suppress(FileNotFoundError):  # removed by a newer print meanwhile: print
            return kept.read_bytes()
    lock = folder / ".printing.lock"
    with _try_lock(lock) as mine:
        if mine:
            return render_once(folder, version, name, make_html, chromium, keep_others=True)
    if kept is not None:  # this event is being printed now: the copy there is, not a second print
        with suppress(FileNotFoundError):  # removed by a newer print meanwhile: print
            return kept.read_bytes()
    with _machine_lock(lock):  # the first print of this name is under way: wait for it
        return render_once(folder, version, name, make_html, chromium, keep_others=True)


@contextmanager
def _try_lock(path: Path):
    """Yields whether this request holds the exclusive lock on ``path`` (not waiting for it)."""
    try:
        import fcntl
    except ImportError:  # not POSIX: every request prints (the in-process semaphore bounds it)
        yield True
        return
    with open(path, "a+b") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@contextmanager
def _machine_lock(path: Path):
    """An exclusive lock on ``path`` (every process on this machine), given up after WAIT_SECONDS."""
    try:
        import fcntl
    except ImportError:  # not POSIX: the in-process semaphore alone
        yield
        return
    with open(path, "a+b") as handle:
        deadline = time.monotonic() + WAIT_SECONDS
        while True:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    raise PdfError("another PDF is still being printed") from None
                time.sleep(0.05)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)
