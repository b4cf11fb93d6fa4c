"""The yardstick for benchmarks/run.py: a bare Flask app rendering a 2 KB Jinja template.

Scorekeeper's figures are given as a ratio of this app's, measured in the same run
under the same gunicorn worker model, so the machine's speed cancels out.
"""

from __future__ import annotations

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
