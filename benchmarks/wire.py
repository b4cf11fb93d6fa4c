"""HTTP on raw sockets for the benchmark: exact bytes on the wire, no client library in between,
and a scorer that fills the entry form as the page gives it (benchmarks/run.py, crowd.py)."""

from __future__ import annotations

import socket
from dataclasses import dataclass
from html.parser import HTMLParser
from typing import Any
from urllib.parse import urlencode

# What a phone's browser asks for: compressed answers.
PHONE = {"Accept-Encoding": "gzip, br"}

# --- HTTP on raw sockets: exact bytes on the wire, no client library in between ---


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    cookies: dict[str, str]
    body: bytes  # as sent (still compressed), de-chunked
    wire: int  # every byte of the answer: status line, headers and body as transferred


def build_request(method: str, path: str, port: int, headers: dict[str, str], body: bytes = b"") -> bytes:
    lines = [f"{method} {path} HTTP/1.1", f"Host: 127.0.0.1:{port}", "Connection: close"]
    lines += [f"{k}: {v}" for k, v in headers.items()]
    if body or method in ("POST", "PUT"):
        lines.append(f"Content-Length: {len(body)}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode() + body


def parse_reply(raw: bytes) -> Reply:
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers: dict[str, str] = {}
    cookies: dict[str, str] = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        name, value = name.strip().lower(), value.strip()
        if name == "set-cookie":
            cookie = value.split(";", 1)[0]
            cookies[cookie.split("=", 1)[0]] = cookie.split("=", 1)[1] if "=" in cookie else ""
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    if headers.get("transfer-encoding", "").lower() == "chunked":
        out, rest = bytearray(), body
        while rest:
            size_line, _, rest = rest.partition(b"\r\n")
            size = int(size_line.split(b";")[0], 16)
            if size == 0:
                break
            out += rest[:size]
            rest = rest[size + 2 :]
        body = bytes(out)
    return Reply(status, headers, cookies, body, len(raw))


def fetch(port: int, method: str, path: str, headers=None, body: bytes = b"", timeout: float = 30) -> Reply:
    with socket.create_connection(("127.0.0.1", port), timeout=timeout) as sock:
        sock.sendall(build_request(method, path, port, dict(headers or {}), body))
        chunks = []
        while chunk := sock.recv(65536):
            chunks.append(chunk)
    return parse_reply(b"".join(chunks))


def decoded(reply: Reply) -> str:
    """The body as text, whatever the server compressed it with."""
    encoding = reply.headers.get("content-encoding", "")
    body = reply.body
    if encoding == "gzip":
        import gzip

        body = gzip.decompress(body)
    elif encoding == "br":
        import brotli  # only if the server sends brotli, in which case Flask-Compress brought it

        body = brotli.decompress(body)
    return body.decode("utf-8")


# --- The entry form as a page gives it ---


class EntryForm(HTMLParser):
    """The ``<form id="entry">`` of a page or an htmx region: where it posts and its hidden inputs."""

    def __init__(self, html: str):
        super().__init__()
        self.action: str | None = None
        # With script, Spades' bids step also holds the tricks: the bids are kept in the background
        # (``save``) and its Record button posts bids and tricks together (``record``).
        self.save: str | None = None
        self.record: str | None = None
        self.classes = ""
        self.hidden: dict[str, str] = {}
        self.names: set[str] = set()
        self._inside = False
        self.feed(html)

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "form" and a.get("id") == "entry":
            self._inside = True
            self.action = a.get("hx-post") or a.get("action")
            self.classes = a.get("class") or ""
        elif self._inside and tag == "input" and a.get("name"):
            self.names.add(a["name"])
            if a.get("type") == "hidden":
                self.hidden[a["name"]] = a.get("value") or ""
        elif self._inside and "data-sp-save" in a:
            self.save = a.get("hx-post")
        elif self._inside and tag == "button" and a.get("formaction"):
            self.record = a.get("hx-post") or a.get("formaction")

    def handle_endtag(self, tag):
        if tag == "form":
            self._inside = False

    @property
    def step(self) -> str:
        # The bids step holds the tricks too (shown by script once the bids are in): its class says
        # which step it is; posted as here, bids alone, it keeps them as "Bids done" does.
        if "sp-step-bids" in self.classes.split():
            return "bids"
        return "bids" if "bids_0" in self.names and "tricks_0" not in self.names else "tricks"


def entry_post(form: EntryForm, deal: dict[str, Any]) -> dict[str, str]:
    """The fields a scorer taps for ``deal`` at the form's step, with the form's own hidden inputs."""
    fields = dict(form.hidden)
    key = "bids" if form.step == "bids" else "tricks"
    for seat, value in enumerate(deal[key]):
        fields[f"{key}_{seat}"] = str(value)
    return fields


class Scorer:
    """One scorer's phone on one game: its cookies (session, edit key) and the last form it was given."""

    def __init__(self, port: int, game_id: str, key: str, extra: dict[str, str] | None = None):
        self.port, self.game_id = port, game_id
        self.cookies = {"edit_key": key}
        self.extra = dict(extra or {})
        self.form: EntryForm | None = None

    def headers(self, htmx: bool) -> dict[str, str]:
        h = {**self.extra, "Cookie": "; ".join(f"{k}={v}" for k, v in self.cookies.items())}
        if htmx:
            h["HX-Request"] = "true"
        return h

    def take(self, reply: Reply) -> Reply:
        self.cookies.update(reply.cookies)
        if reply.status < 300 or reply.status == 422:
            form = EntryForm(decoded(reply))
            self.form = form if form.action else None
        return reply

    def open_page(self) -> Reply:
        return self.take(fetch(self.port, "GET", f"/g/{self.game_id}", self.headers(False)))

    def post_step(self, deal: dict[str, Any]) -> Reply:
        """Post the form's current step (bids, or tricks which records the deal) as htmx does."""
        if self.form is None:
            self.open_page()
        assert self.form is not None and self.form.action, "no entry form on the page"
        body = urlencode(entry_post(self.form, deal)).encode()
        headers = {**self.headers(True), "Content-Type": "application/x-www-form-urlencoded"}
        reply = self.take(fetch(self.port, "POST", self.form.action, headers, body))
        if reply.status >= 300:
            self.form = None  # refused or stale: the next step starts from a fresh page
        return reply

    def record_deal(self, deal: dict[str, Any]) -> tuple[Reply, int]:
        """One deal as the page's script enters it; the reply that recorded it, and the posts made.

        Spades with script: the bids are kept in the background once all are in (its answer is
        only the form's new version and token), the board above the form looks again at once,
        and Record sends bids and tricks together. Without that form, step by step as posted.
        """
        if self.form is None:
            self.open_page()
        form = self.form
        if form is not None and form.save and form.record:
            bids = {f"bids_{s}": str(v) for s, v in enumerate(deal["bids"])}
            headers = {**self.headers(True), "Content-Type": "application/x-www-form-urlencoded"}
            body = urlencode({**form.hidden, **bids, "autosave": "1"}).encode()
            kept = fetch(self.port, "POST", form.save, headers, body)
            self.cookies.update(kept.cookies)
            if kept.status != 200:
                self.form = None
                return kept, 1
            form.hidden.update(EntryForm(f'<form id="entry">{decoded(kept)}</form>').hidden)
            fetch(self.port, "GET", f"/g/{self.game_id}/live?part=board", self.headers(True))
            tricks = {f"tricks_{s}": str(v) for s, v in enumerate(deal["tricks"])}
            body = urlencode({**form.hidden, **bids, **tricks}).encode()
            reply = self.take(fetch(self.port, "POST", form.record, headers, body))
            if reply.status >= 300:
                self.form = None
            return reply, 2
        posts = 0
        reply = None
        for _ in range(3):
            if self.form is None:
                self.open_page()
            step = self.form.step if self.form else "bids"
            reply = self.post_step(deal)
            posts += 1
            if step == "tricks" and reply.status == 200:
                break
        return reply, posts
