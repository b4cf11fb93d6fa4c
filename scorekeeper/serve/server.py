"""``scorekeeper serve``: the app under gunicorn.

Why gunicorn: the standard, well-understood pre-fork server, with worker
processes that are restarted when they die or hang, threads for requests that
wait on the database, an access log with a format of our choosing, and
graceful reloads (HUP). Waitress is a single process (one stuck request or
leak takes the whole server down, no worker recycling); granian is fast but
young, and its speed matters little for a handful of phones. Gunicorn runs on
POSIX only, which is where this app is deployed; ``scorekeeper run`` stays for
development anywhere.

The schema is migrated once, here in the master process before any worker
starts; the workers come up with AUTO_MIGRATE off.
"""

from __future__ import annotations

import os
import re
import socket
import sys
import traceback
from datetime import datetime
from pathlib import Path
from urllib.parse import quote, unquote, unquote_plus

from gunicorn import glogging
from gunicorn.app.base import BaseApplication

from .. import create_app, limits
from ..load import retry_ceiling
from ..web.live.answers import fresh_directory

# One line per request: its time (ISO 8601), client, request line, status, bytes, duration, and
# the request id (middleware.RequestId), which the proxy's log and a user's report can be matched with.
ACCESS_LOG_FORMAT = '%(t)s %(h)s "%(r)s" %(s)s %(b)s %(M)sms id=%({x-request-id}o)s'

# What a logged request line must not carry: scoring keys, member keys, private links' and
# invites' tokens. Read as the app reads them, parsed and percent-decoded (``?k%65y=`` is ``key``,
# ``join%2F<token>`` is the join route): a query parameter whose name ends in one of these words,
# and the path segment that is a token: /p/<seat or entrant>/<token>, /join/<token>,
# /invites/<token> (an admin's DELETE of an invite), an event's table link
# /e/<id>/table/<n>/<token> (and its poll, .../<token>/now, every 3 seconds from every table).
SECRET_PARAMETER = re.compile(r"(key|token|invite)$", re.IGNORECASE)
TOKEN_AFTER = {"join": 1, "invites": 1, "p": 2, "table": 2}
SECRET_MARKS = ("key", "token", "invite", "/p/", "/join/", "/invites/", "/table/", "%")
# What a re-encoded path segment keeps as it is (RFC 3986's pchar, less the percent sign).
PATH_SAFE = "!$&'()*+,;=:@-._~"


def redact_path(path: str) -> str:
    segments = unquote(path).split("/")
    hidden = set()
    for at, segment in enumerate(segments):
        step = TOKEN_AFTER.get(segment.lower())
        if step is not None and at + step < len(segments) and segments[at + step]:
            hidden.add(at + step)
    # Re-encoded: a decoded control character or space never reaches the log as itself.
    return "/".join("…" if at in hidden else quote(s, safe=PATH_SAFE) for at, s in enumerate(segments))


def redact_query(query: str) -> str:
    parts = []
    for part in query.split("&"):
        name, equals, _value = part.partition("=")
        if SECRET_PARAMETER.search(unquote_plus(name).strip()):
            part = f"{name}=…"
        parts.append(part)
    return "&".join(parts)


def redact_target(target: str) -> str:
    """A request target (path and query), or a query alone, without its credentials."""
    if not target.startswith("/") and "://" not in target:
        return redact_query(target)
    path, question, query = target.partition("?")
    if "://" in path:  # an absolute form: scheme://host/path
        scheme, _, rest = path.partition("://")
        host, slash, tail = rest.partition("/")
        path_part = f"{scheme}://{host}" + (redact_path(slash + tail) if slash else "")
    else:
        path_part = redact_path(path)
    return path_part + (question + redact_query(query) if question else "")


def redact(line: str) -> str:
    """A request line ("GET /g/x?key=… HTTP/1.1"), a path or a query, without any credential."""
    lowered = line.lower()
    if not any(mark in lowered for mark in SECRET_MARKS):
        return line  # most lines (polls, deals) carry none: written as they are, unparsed
    words = line.split(" ")
    if len(words) >= 2 and words[0].isalpha() and words[0].isupper():
        words[1] = redact_target(words[1])
        return " ".join(words)
    return " ".join(redact_target(word) if word else word for word in words)


def quoted(value: str) -> str:
    return value.replace('"', '\\"')


class AccessLog(glogging.Logger):
    """gunicorn's logger with sortable ISO 8601 times, and no credential in an access line."""

    def now(self) -> str:
        return datetime.now().astimezone().isoformat(timespec="milliseconds")

    def access(self, resp, req, environ, request_time) -> None:
        """Our format's line written directly: gunicorn's way (a dict of every header and environ
        entry, then %-formatting) was a tenth of a worker's time under a crowd of polls."""
        self.access_lines([(resp, req, environ, request_time)])

    def access_lines(self, entries: list[tuple]) -> None:
        """Several requests' lines (each ``access``'s arguments) in one write: the worker's event
        loop answers many polls a turn, and each write gives up the interpreter lock."""
        if not self.access_log_enabled:
            return
        if self.cfg.access_log_format != ACCESS_LOG_FORMAT:
            for entry in entries:
                super().access(*entry)
            return
        try:
            self.access_log.info(
                "\n".join(self.line(resp, environ, took) for resp, _, environ, took in entries)
            )
        except Exception:
            self.error(traceback.format_exc())

    def line(self, resp, environ, request_time) -> str:
        """One request's access line, in ACCESS_LOG_FORMAT."""
        status = resp.status.split(None, 1)[0] if isinstance(resp.status, str) else resp.status
        sent = getattr(resp, "sent", None)
        request_id = next((v for k, v in resp.headers if k.lower() == "x-request-id"), "-")
        line = redact(f"{environ['REQUEST_METHOD']} {environ['RAW_URI']} {environ['SERVER_PROTOCOL']}")
        ms = request_time.seconds * 1000 + request_time.microseconds // 1000
        # As gunicorn's atoms are quoted: a double quote in a value is escaped.
        return (
            f'{self.now()} {environ.get("REMOTE_ADDR", "-")} "{quoted(line)}" {status} '
            f"{'-' if sent is None else sent} {ms}ms id={quoted(str(request_id))}"
        )

    def atoms(self, resp, req, environ, request_time):
        atoms = super().atoms(resp, req, environ, request_time)
        for name in ("r", "U", "q"):
            if isinstance(atoms.get(name), str):
                atoms[name] = redact(atoms[name])
        return atoms


def default_workers() -> int:
    # A worker per core (threads cover requests waiting on the database); a small box has 1-4.
    return max(1, min(os.cpu_count() or 1, 4))


def lan_address() -> str:
    """This machine's address on the local network (the one the default route leaves by)."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("192.0.2.1", 9))  # UDP "connect" sends nothing: it only picks a route
            return probe.getsockname()[0]
        except OSError:
            pass
    try:
        return socket.gethostbyname(socket.gethostname())
    except OSError:
        return "127.0.0.1"


def public_url(host: str, port: int) -> str:
    if host in ("0.0.0.0", "::", ""):
        host = lan_address()
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def banner(host: str, port: int, out=None) -> None:
    """Say where to open the app; for the LAN, with a QR code the phones can scan."""
    import segno

    out = out or sys.stdout
    url = public_url(host, port)
    if host in ("0.0.0.0", "::", ""):
        print(f"Scorekeeper: open {url} on the phones at the table (scan the code):", file=out)
        # Compact: block characters, no colour codes, so it reads the same in a log file.
        segno.make(url, error="m").terminal(out=out, compact=True)
    else:
        print(f"Scorekeeper: open {url}", file=out)
    out.flush()


class Server(BaseApplication):
    def __init__(self, options: dict):
        self.options = options
        super().__init__()

    def load_config(self) -> None:
        for key, value in self.options.items():
            self.cfg.set(key, value)
        if "control_socket_disable" in self.cfg.settings:
            # gunicorn 24+ opens a control socket at one fixed path in $HOME: several servers on one
            # machine would fight over it, and nothing here uses it.
            self.cfg.set("control_socket_disable", True)

    def load(self):
        # Each worker builds its own app (its own database connections); the master migrated.
        return create_app()


def serve(host: str, port: int, workers: int, threads: int) -> None:
    from ..db import db

    app = create_app()  # started: instance folder, secret key, schema migrated once, here
    with app.app_context():
        db.engine.dispose()  # no connection is shared with the forked workers
    ceiling = int(app.config["LIVE_POLL_CEILING"])
    os.environ["AUTO_MIGRATE"] = "0"
    if app.config.get("LIVE_ANSWERS_DIR") is None:
        # The workers share the viewers' live answers (web/live/answers.py), in a directory of this
        # start's own: the answers an earlier start's code drew are removed, never served.
        folder = fresh_directory(Path(app.instance_path) / "live-answers")
        os.environ["SCOREKEEPER_LIVE_ANSWERS_DIR"] = str(folder)
    # The workers count the abuse limits together (clubs.md: 10 wrong keys a minute for the whole
    # server, not 10 per worker): without Redis, in one SQLite file of the instance (limitstore.py).
    shared = limits.shared_storage(app)
    if shared is not None:
        os.environ["SCOREKEEPER_RATELIMIT_STORAGE_URI"] = shared
    # Each worker's Load knows its thread count (web/live/shed.py, the rule for a server that does not
    # say how long requests wait; this one's worker does).
    os.environ["SCOREKEEPER_SERVER_THREADS"] = str(threads)
    banner(host, port)
    Server(
        {
            "bind": f"[{host}]:{port}" if ":" in host else f"{host}:{port}",
            "workers": workers,
            "threads": threads,
            # gthread, serving writes before polls and saying how long each request queued.
            "worker_class": "scorekeeper.serve.worker.WritesFirstWorker",
            "accesslog": "-",
            "errorlog": "-",
            "access_log_format": ACCESS_LOG_FORMAT,
            "logger_class": AccessLog,
            "timeout": 30,
            "graceful_timeout": 10,
            # A following phone is asked to wait up to the poll ceiling (a refused one up to half as
            # much again, within load.retry_ceiling, twice that): its connection is kept a little longer, so its next poll
            # does not pay for a new one (accepting, a thread waiting for its first bytes,
            # closing) as every poll of a slowed crowd did with 5 s.
            "keepalive": retry_ceiling(ceiling) + 5,
            # gthread accepts at most this many connections per worker (1,000 by default): with
            # every following phone keeping its connection alive, a scorer's new connection
            # waited in the backlog for a phone to let go (benchmarks/run.py --sweep: deal-post
            # p99 at 1,000 tables 6.2 s with the default, 3.4 s with this).
            "worker_connections": 10000,
            "proc_name": "scorekeeper",
        }
    ).run()
