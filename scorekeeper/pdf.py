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
from pathlib import Path

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
# A few renders at once at most: each is a whole browser for a second or two.
_renders = threading.BoundedSemaphore(2)


class PdfError(RuntimeError):
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
