"""Helpers for the at-the-table tests: reading a page's hidden inputs, games of every kind."""

from __future__ import annotations

import re

from sqlalchemy import func, select

from scorekeeper.db import db
from scorekeeper.games import GAMES
from scorekeeper.models import Change, Deal, Game

FLAT = {"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"]}
SWEEP = {"tricks": [13, 0, 0, 0], "agents": ["S", "L", "O", "R"]}


def hidden(html: str, name: str) -> str:
    """The value of the (first) hidden input ``name`` in a page."""
    found = re.search(rf'<input type="hidden" name="{name}" value="([^"]*)"', html)
    assert found, f"no hidden input {name}"
    return found.group(1)


def api_game(client, deals=(), options=None, players=("Ann", "Bob", "Cid", "Dee")) -> tuple[str, str]:
    """A Secret Agent game made through the API: (id, edit key)."""
    record = {"game": "secret_agent", "players": list(players), "options": options or {"deals": 52}}
    response = client.post("/api/games", json={**record, "deals": list(deals)})
    assert response.status_code == 201, response.json
    return response.json["id"], response.json["edit_key"]


def games_of_every_kind(client) -> dict[str, tuple[str, str]]:
    """One game of each registered kind (plus Hidden Secrets), as its scorer's client made it."""
    made = {}
    for kind, game in GAMES.items():
        n = min(game.player_counts)
        response = client.post("/api/games", json={"game": kind, "players": [f"P{s}" for s in range(n)]})
        assert response.status_code == 201, (kind, response.json)
        made[kind] = (response.json["id"], response.json["edit_key"])
    if "secrets" in GAMES:
        data = {"players_0": "A", "players_1": "B", "players_2": "C", "opt_hidden": "y", "first_dealer": "0"}
        response = client.post("/new/secrets", data=data)
        if response.status_code == 303:
            made["secrets/hidden"] = (response.headers["Location"].rsplit("/", 1)[1], None)
    return made


def snapshot(app) -> tuple:
    """Everything a write could change, for "nothing changed" checks."""
    with app.app_context():
        games = db.session.execute(
            select(Game.id, Game.version, Game.options, Game.draft, Game.deleted_at).order_by(Game.id)
        ).all()
        deals = db.session.execute(select(Deal.game_id, Deal.position, Deal.facts).order_by(Deal.id)).all()
        changes = db.session.scalar(select(func.count()).select_from(Change))
        return [tuple(g) for g in games], [tuple(d) for d in deals], changes


def deal_count(app, game_id: str) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Deal).where(Deal.game_id == game_id))
