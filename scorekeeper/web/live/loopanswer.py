"""A follower's poll answered in ``scorekeeper serve``'s event loop, when its answer is kept (issue 40).

The worker (scorekeeper/serve/worker.py) serves writes before polls: a poll queued for a thread waited
behind every deal posted meanwhile, although most polls need no drawing at all (an unchanged
game's 304, or a changed game's answer drawn once by its write: web/live/livepoll.py). Such a poll is
answered here, in the worker's event loop, from the request's bytes as they arrived (peeked):
the same ``LivePoll.answer`` the threads run (one indexed query, then the kept answer), with the
same headers the layers outside add (``X-Poll-After``, ``X-Request-Id``, ``Date``). Anything it
does not answer (a region to draw, a deleted game, a request not wholly arrived, pipelined
requests behind it) goes to the threads as before.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from types import SimpleNamespace
from typing import Any
from urllib.parse import unquote

from werkzeug.http import http_date
from werkzeug.middleware.proxy_fix import ProxyFix

from ...request_ids import request_id
from .livepoll import PATH, LivePoll
from .shed import REFUSAL, poll_after, refusal_headers

# The largest request head answered here (a phone's poll is well under 2 KB; PEEK in the worker).
LARGEST_HEAD = 2048


def _unchanged(environ, start_response) -> list[bytes]:
    return []  # ProxyFix changed the environ in place: nothing else to do


def _no_start(status, headers, exc_info=None):
    return lambda data: None


Found = tuple[int, bool, bytes, tuple]


def kept_answer(app: Any, head: bytes, client: Any) -> Found | None:
    """The answer to the poll whose request is ``head`` (all of it), if kept; else None.

    Returns the request's length (to take off the socket), whether the connection stays open,
    the answer's bytes and the access log's arguments."""
    return kept_answers(app, [(head, client)])[0]


def kept_answers(app: Any, polls: Sequence[tuple[bytes, Any]]) -> list[Found | None]:
    """:func:`kept_answer` for each of ``polls`` (each request's bytes and client), their games'
    rows read in one query (LivePoll.rows): the event loop answers a turn's polls a few at a time."""
    environs = [poll_environ(app, head, client) for head, client in polls]
    poll: LivePoll = app.extensions["scorekeeper.livepoll"]
    load = app.extensions["scorekeeper.load"]
    rows = poll.rows({_game(environ) for environ in environs if environ is not None})
    answers: list[Found | None] = []
    for (head, _client), environ in zip(polls, environs, strict=True):
        if environ is None:
            answers.append(None)  # not a whole, plain poll: a thread reads it
            continue
        game = _game(environ)
        found = poll.answer(environ, game, rows.get(game))
        if not isinstance(found, tuple):
            answers.append(None)  # to draw (or the view's business): a thread does it
            continue
        status, headers, body = found
        after = poll_after(load, environ, load.in_flight, 0.0)
        answers.append(_answer(environ, len(head), status, headers, b"".join(body), after))
    return answers


def _game(environ: dict[str, Any]) -> str:
    """The game a poll's environ asks for (its path matched livepoll.PATH in poll_environ)."""
    return environ["PATH_INFO"].split("/")[2]


def refusal(app: Any, head: bytes, client: Any) -> Found | None:
    """The "later" (503 with Retry-After) web/live/shed.py gives a poll that waited too long for a
    thread, given here before it queues: the polls queued before it already wait longer than
    that. A refusal from a thread took that thread from the polls it could serve (and from the
    writes behind them) for as long as a 304; here it costs no query and no thread. None where
    the request is not a whole, plain poll (a thread reads it)."""
    environ = poll_environ(app, head, client)
    if environ is None:
        return None
    load = app.extensions["scorekeeper.load"]
    later = load.refused()
    return _answer(environ, len(head), "503 SERVICE UNAVAILABLE", refusal_headers(later), REFUSAL, later)


def poll_environ(app: Any, head: bytes, client: Any) -> dict[str, Any] | None:
    """The WSGI environ of the plain poll whose request is ``head`` (all of it), or None."""
    end = head.find(b"\r\n\r\n")
    if end < 0 or end + 4 != len(head) or end + 4 > LARGEST_HEAD:
        return None  # not wholly arrived, or another request behind it: the thread reads them
    lines = head[:end].decode("latin-1").split("\r\n")
    parts = lines[0].split(" ")
    if len(parts) != 3 or parts[0] != "GET" or parts[2] not in ("HTTP/1.1", "HTTP/1.0"):
        return None
    target, protocol = parts[1], parts[2]
    path, _, query = target.partition("?")
    if "%" in path or not PATH.fullmatch(path):
        return None
    poll: LivePoll | None = app.extensions.get("scorekeeper.livepoll")
    load = app.extensions.get("scorekeeper.load")
    if poll is None or load is None or not app.config.get("LIVE_FAST_PATH", True):
        return None
    environ: dict[str, Any] = {
        "REQUEST_METHOD": "GET",
        "PATH_INFO": unquote(path),
        "QUERY_STRING": query,
        "RAW_URI": target,
        "SERVER_PROTOCOL": protocol,
        "wsgi.url_scheme": "http",
        "REMOTE_ADDR": str(client[0]) if isinstance(client, tuple) else "",
    }
    for line in lines[1:]:
        name, colon, value = line.partition(":")
        if not colon or not name or name != name.strip():
            return None  # a malformed header: gunicorn's parser says what it makes of it
        key = "HTTP_" + name.strip().upper().replace("-", "_")
        if key in ("HTTP_CONTENT_LENGTH", "HTTP_TRANSFER_ENCODING", "HTTP_EXPECT", "HTTP_UPGRADE"):
            return None  # a body, or a change of protocol: not a plain poll
        value = value.strip()
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    proxies = int(app.config.get("PROXY_FIX") or 0)
    if proxies > 0:  # what middleware.py's ProxyFix makes of the proxy's headers, as the view sees them
        ProxyFix(
            _unchanged, x_for=proxies, x_proto=proxies, x_host=proxies, x_port=proxies, x_prefix=proxies
        )(environ, _no_start)
    return environ


def _answer(
    environ: dict[str, Any], size: int, status: str, headers: list[tuple[str, str]], data: bytes, after: int
) -> Found:
    """The answer's bytes, as gunicorn and the layers outside the app would send them."""
    protocol = environ["SERVER_PROTOCOL"]
    rid = request_id(environ)  # as middleware.RequestId
    asked_close = "close" in environ.get("HTTP_CONNECTION", "").lower()
    keep_alive = protocol == "HTTP/1.1" and not asked_close
    out = [
        f"HTTP/1.1 {status}",
        "Server: gunicorn",
        f"Date: {http_date()}",
        f"Connection: {'keep-alive' if keep_alive else 'close'}",
        *(
            f"{k}: {v}"
            for k, v in headers
            if k.lower() not in ("content-length", "x-request-id", "x-poll-after")
        ),
        f"X-Poll-After: {after}",
        f"X-Request-Id: {rid}",
    ]
    if not status.startswith("304"):
        out.append(f"Content-Length: {len(data)}")
    else:
        data = b""
    answer = ("\r\n".join(out) + "\r\n\r\n").encode("latin-1") + data
    response = SimpleNamespace(status=status, sent=len(data), headers=[("X-Request-Id", rid)])
    return size, keep_alive, answer, (response, None, environ, timedelta(0))
