"""The yardstick for benchmarks/run.py: a bare Flask app rendering a 2 KB Jinja template.

Scorekeeper's figures are given as a ratio of this app's, measured in the same run
under the same gunicorn worker model, so the machine's speed cancels out.
"""

from __future__ import annotations

import json
import os
import sqlite3
import tempfile
import threading
from pathlib import Path

from flask import Flask, render_template, request

# templates/bare.html renders to about 2 KB. A file, not a string, so Jinja compiles it once, as the
# app's templates are.
PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
ROWS = [[(k * 37 + s * 11) % 200 - 50 for s in range(4)] for k in range(8)]

app = Flask(__name__)


@app.route("/", methods=["GET", "POST"])
def index() -> str:
    return render_template(
        "bare.html",
        title="A bare Flask page",
        subtitle="The same worker model as the app, and nothing else: no database, no session.",
        players=PLAYERS,
        rows=ROWS,
        posted=request.form,
        footer="benchmarks/bare.py: the yardstick of benchmarks/run.py",
    )


# The durable-write anchor (issue 28): the least a saved deal can cost, a JSON body parsed and one
# row inserted and committed in a SQLite file in write-ahead-log mode (synchronous=NORMAL, as the
# app's db.py sets it). The app's API POST is reported as a ratio of this.
DATABASE = Path(os.environ.get("BARE_DATABASE") or Path(tempfile.gettempdir()) / "bare-anchor.sqlite")
_local = threading.local()


def connection() -> sqlite3.Connection:
    conn = getattr(_local, "conn", None)
    if conn is None:
        conn = sqlite3.connect(DATABASE, timeout=30, isolation_level=None)
        conn.execute("PRAGMA journal_mode=WAL")
        conn.execute("PRAGMA synchronous=NORMAL")
        conn.execute("CREATE TABLE IF NOT EXISTS deal (id INTEGER PRIMARY KEY, game TEXT, facts TEXT)")
        _local.conn = conn
    return conn


@app.post("/write")
def write() -> tuple[str, int]:
    facts = request.get_json(force=True, silent=True) or {}
    conn = connection()
    conn.execute("BEGIN IMMEDIATE")
    conn.execute("INSERT INTO deal (game, facts) VALUES (?, ?)", ("bare", json.dumps(facts)))
    conn.execute("COMMIT")
    return "{}", 201
