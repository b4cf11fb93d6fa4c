"""The backup benchmark (issue 43): a generated server of clubs, events and games, then the size
and time of ``scorekeeper export --all`` / ``import`` (JSON, SQLite and PostgreSQL) and of
``scorekeeper backup --to`` (SQLite's copy), each in a process of its own with its peak memory.

    python benchmarks/backup.py                       # 100 clubs, 1,000 events, 50,000 games
    python benchmarks/backup.py --scale 0.1           # a tenth of each
    python benchmarks/backup.py --postgres URL        # also restore into (and export from) PostgreSQL

The server is written in batches of rows (nothing but one batch and the per-kind pools of
played deals is held), through SQLAlchemy Core, after one template evening made through the
JSON API as people make it: every event is a copy of that evening (8 players, 3 rounds of two
Euchre tables, played, confirmed, one correction with its reason), with its own ids. The other
games are Spades, Euchre and tally games of 6-14 deals drawn by the rules' own random deals,
each with its history (create, one append per deal); half a club's, a quarter personal, each on
a phone's "My games". Run twice at two scales, the peak memory of each step says whether
anything grows with the server (it must not: export and import stream).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import secrets
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

BATCH = 2000
MEMBERS_PER_CLUB = 10
KINDS = ("spades", "euchre", "tally")
NAMES = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal", "Ida", "Jo", "Kim", "Lu"]


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def new_id() -> str:
    return secrets.token_urlsafe(12).replace("-", "x")


def hashed() -> str:
    return secrets.token_hex(32)


# -- the template evening ----------------------------------------------------------------------


def template_evening(app) -> dict[str, list[dict[str, Any]]]:
    """One club evening made through the JSON API; its rows, to be copied for every event."""
    from sqlalchemy import select

    from scorekeeper.db import db
    from scorekeeper.models import Change, Deal, Event, Game, Seat

    client = app.test_client()
    made = client.post("/api/clubs", json={"name": "Template", "player": "Olga"}).get_json()
    owner = {"Authorization": f"Bearer {made['member_key']}"}
    night = {
        "name": "Euchre night",
        "format": "progressive",
        "game": "euchre",
        "players": NAMES[:8],
        "hands": 2,
        "rounds": 3,
        "confirm": True,
    }
    event = client.post(f"/api/clubs/{made['slug']}/events", json=night, headers=owner).get_json()
    director = {"Authorization": f"Bearer {event['director_key']}"}
    rng = random.Random(1)
    for number in (1, 2, 3):
        started = client.post(f"/api/events/{event['id']}/rounds", json={"close": True}, headers=director)
        for t, table in enumerate(started.get_json()["tables"]):
            key = {"Authorization": f"Bearer {table['edit_key']}"}
            for _ in range(2):
                deal = {
                    "trump": rng.choice("SHDC"),
                    "maker": rng.randrange(4),
                    "alone": False,
                    "defender_alone": None,
                    "maker_tricks": rng.randrange(3, 6),
                }
                assert (
                    client.post(f"/api/games/{table['game']}/deals", json=deal, headers=key).status_code
                    == 201
                )
            confirm = f"/api/events/{event['id']}/rounds/{number}/tables/{t + 1}/confirm"
            client.post(confirm, json={"by": table["seats"][1]}, headers=key)
    first = client.get(f"/api/events/{event['id']}").get_json()["rounds"][0]["tables"][0]["game"]
    fix = {"trump": "S", "maker": 1, "alone": False, "defender_alone": None, "maker_tricks": 5}
    client.put(f"/api/games/{first}/deals/0", json={**fix, "reason": "Bob had five tricks"}, headers=director)
    rows: dict[str, list[dict[str, Any]]] = {}
    with app.app_context():
        ev = db.session.get(Event, event["id"])

        def plain(obj: Any) -> dict[str, Any]:
            return {c.name: getattr(obj, c.key) for c in obj.__table__.columns}

        rows["event"] = [plain(ev)]
        rows["event_round"] = [plain(r) for r in ev.rounds]
        rows["event_table"] = [plain(t) for r in ev.rounds for t in r.tables]
        game_ids = [t["game_id"] for t in rows["event_table"]]
        for name, model in (("game", Game), ("seat", Seat), ("deal", Deal), ("game_change", Change)):
            key = model.id if model is Game else model.game_id
            rows[name] = [plain(o) for o in db.session.scalars(select(model).where(key.in_(game_ids)))]
    return rows


# -- the generated server ----------------------------------------------------------------------


def deal_pool(rng: random.Random, per_kind: int = 60) -> dict[str, list[tuple[dict, list]]]:
    """Played games' set-ups and deals, per kind, drawn by the rules: the games reuse them."""
    from scorekeeper.games import GAMES
    from scorekeeper.rules.base import check_setup, play

    pool: dict[str, list[tuple[dict, list]]] = {}
    for kind in KINDS:
        game = GAMES.get(kind)
        options = {"mode": "cutthroat", "target": 100_000} if kind == "spades" else {}
        errors, setup = check_setup(game, NAMES[:4], options, 0)
        assert not errors and setup is not None, errors
        pool[kind] = []
        for _ in range(per_kind):
            deals: list[dict[str, Any]] = []
            result = play(game, setup, deals)
            for _ in range(rng.randrange(6, 15)):
                if result.finished:
                    break
                dealer = result.next_dealer if result.next_dealer is not None else 0
                deals.append(game.random_deal(setup, result.state, dealer, rng))
                result = play(game, setup, deals)
            pool[kind].append((dict(setup.options), deals))
    return pool


class Writer:
    """Rows into the database in batches per table, flushed parents first."""

    def __init__(self, conn, tables: dict[str, Any]):
        self.conn, self.tables = conn, tables
        self.pending: dict[str, list[dict[str, Any]]] = {}
        self.counts: dict[str, int] = {}

    def add(self, table: str, row: dict[str, Any]) -> None:
        # One statement per batch takes rows of one shape: a column left out is null.
        full = {c.name: row.get(c.name) for c in self.tables[table].columns}
        self.pending.setdefault(table, []).append(full)
        if len(self.pending[table]) >= BATCH:
            self.flush()

    def flush(self) -> None:
        for table in self.tables:  # the models' order: parents first
            rows = self.pending.pop(table, None)
            if rows:
                self.conn.execute(self.tables[table].insert(), rows)
                self.counts[table] = self.counts.get(table, 0) + len(rows)


def game_rows(
    game_id: str, kind: str, options: dict, players: list[str], deals: list, club_id, when: datetime
) -> Iterator[tuple[str, dict]]:
    yield (
        "game",
        {
            "id": game_id,
            "kind": kind,
            "options": options,
            "first_dealer": 0,
            "edit_key_hash": hashed(),
            "version": 1 + len(deals),
            "draft": None,
            "created_at": when,
            "updated_at": when + timedelta(minutes=4 * len(deals)),
            "deleted_at": None,
            "archived": False,
            "club_id": club_id,
        },
    )
    for seat, name in enumerate(players):
        yield "seat", {"game_id": game_id, "position": seat, "name": name}
    yield (
        "game_change",
        {
            "game_id": game_id,
            "version": 1,
            "kind": "create",
            "after": 0,
            "token": new_id(),
            "device": "Phone",
            "created_at": when,
        },
    )
    for k, facts in enumerate(deals):
        at = when + timedelta(minutes=4 * (k + 1))
        yield "deal", {"game_id": game_id, "position": k, "facts": facts, "created_at": at}
        yield (
            "game_change",
            {
                "game_id": game_id,
                "version": k + 2,
                "kind": "append",
                "deal_index": k,
                "position": k,
                "after": facts,
                "token": new_id(),
                "device": "Phone",
                "created_at": at,
            },
        )


def generate(url: str, clubs: int, events: int, games: int, seed: int = 43) -> dict[str, Any]:
    """The server on ``url`` (an empty database): its rows per table, time and peak memory."""
    from scorekeeper import create_app
    from scorekeeper.backup.snapshot import tables
    from scorekeeper.db import db, upgrade_schema

    started = time.perf_counter()
    config = {"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "bench", "AUTO_MIGRATE": False, "TESTING": True}
    config |= {"WTF_CSRF_ENABLED": False, "LIMIT_CREATE_GAMES": "1000000 per hour"}
    app = create_app(config)
    upgrade_schema(app)
    template = template_evening(app)
    rng = random.Random(seed)
    pool = deal_pool(rng)
    base = datetime(2026, 1, 1)
    table_games = len(template["event_table"])
    with app.app_context():
        by_name = {t.name: t for t in tables()}
        with db.engine.begin() as conn:
            top = {
                name: (
                    conn.execute(
                        by_name[name]
                        .select()
                        .with_only_columns(by_name[name].c.id)
                        .order_by(by_name[name].c.id.desc())
                        .limit(1)
                    ).scalar()
                    or 0
                )
                for name in (
                    "club",
                    "member",
                    "member_key",
                    "invite",
                    "player",
                    "event_round",
                    "event_table",
                    "seat",
                    "deal",
                    "game_change",
                )
            }
            write = Writer(conn, by_name)
            first_club = top["club"] + 1
            made = 0
            for c in range(clubs):
                club_id = first_club + c
                write.add(
                    "club",
                    {
                        "id": club_id,
                        "slug": f"club-{c:04d}",
                        "name": f"Club {c}",
                        "created_at": base,
                        "version": 1,
                    },
                )
                for m in range(MEMBERS_PER_CLUB):
                    top["member"] += 1
                    role = "owner" if m == 0 else "admin" if m < 3 else "member"
                    write.add(
                        "member",
                        {
                            "id": top["member"],
                            "club_id": club_id,
                            "name": NAMES[m],
                            "folded": NAMES[m].casefold(),  # NFKC + casefold of a plain name
                            "role": role,
                            "created_at": base,
                        },
                    )
                    top["member_key"] += 1
                    write.add(
                        "member_key",
                        {
                            "id": top["member_key"],
                            "member_id": top["member"],
                            "key_hash": hashed(),
                            "label": "Phone",
                            "created_at": base,
                            "used_at": base,
                        },
                    )
                for _ in range(2):
                    top["invite"] += 1
                    write.add(
                        "invite",
                        {
                            "id": top["invite"],
                            "club_id": club_id,
                            "token_hash": hashed(),
                            "role": "member",
                            "created_at": base,
                        },
                    )
                top["player"] += 1
                write.add(
                    "player",
                    {
                        "id": top["player"],
                        "club_id": club_id,
                        "name": NAMES[11],
                        "private": True,
                        "created_at": base,
                    },
                )
                # This club's events: copies of the template evening, with their own ids.
                share = events // clubs + (1 if c < events % clubs else 0)
                for e in range(share):
                    when = base + timedelta(days=7 * e)
                    event_id = new_id()
                    rename: dict[str, str] = {}
                    for row in template["game"]:
                        rename[row["id"]] = new_id()
                    write.add(
                        "event",
                        {
                            **template["event"][0],
                            "id": event_id,
                            "club_id": club_id,
                            "director_key_hash": hashed(),
                            "created_at": when,
                        },
                    )
                    rounds: dict[int, int] = {}
                    for row in template["event_round"]:
                        top["event_round"] += 1
                        rounds[row["id"]] = top["event_round"]
                        write.add("event_round", {**row, "id": top["event_round"], "event_id": event_id})
                    for row in template["event_table"]:
                        top["event_table"] += 1
                        write.add(
                            "event_table",
                            {
                                **row,
                                "id": top["event_table"],
                                "round_id": rounds[row["round_id"]],
                                "game_id": rename[row["game_id"]],
                            },
                        )
                    for table in ("game", "seat", "deal", "game_change"):
                        for row in template[table]:
                            copy = dict(row)
                            if table == "game":
                                copy.update(id=rename[row["id"]], club_id=club_id, edit_key_hash=hashed())
                            else:
                                top[table] += 1
                                copy.update(id=top[table], game_id=rename[row["game_id"]])
                                if table == "game_change":
                                    copy["token"] = None if row["token"] is None else new_id()
                            write.add(table, copy)
                    made += table_games
            # The other games: a club's or a phone's own, each on a phone's "My games".
            for g in range(max(0, games - made)):
                kind = KINDS[g % len(KINDS)]
                options, deals = pool[kind][rng.randrange(len(pool[kind]))]
                club_id = first_club + g % clubs if g % 4 else None
                game_id = new_id()
                players = rng.sample(NAMES, 4)
                for table, row in game_rows(
                    game_id, kind, options, players, deals, club_id, base + timedelta(minutes=g)
                ):
                    if table != "game":
                        top[table] += 1
                        row["id"] = top[table]
                    write.add(table, row)
                write.add("device_game", {"device_hash": hashed(), "game_id": game_id, "seen_at": base})
            write.flush()
        db.engine.dispose()
    counts = write.counts
    return {
        "rows": counts,
        "games": counts.get("game", 0),
        "seconds": time.perf_counter() - started,
        "peak_mb": rss_mb(),
    }


# -- the steps, each in a process of its own -----------------------------------------------------


# The step's own peak memory, printed by the process itself as it ends.
PEAK = (
    "import atexit, resource, sys\n"
    "atexit.register(lambda: sys.stderr.write('PEAK-KB %d\\n' % resource.getrusage(resource.RUSAGE_SELF).ru_maxrss))\n"
    "from scorekeeper.cli import main\n"
    "sys.argv = ['scorekeeper', *sys.argv[1:]]\n"
    "main()\n"
)


def run_step(args: list[str], env: dict[str, str]) -> dict[str, Any]:
    """``scorekeeper ARGS`` in a process of its own: its time and peak memory."""
    started = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", PEAK, *args], env=env, capture_output=True, text=True, cwd=ROOT
    )
    seconds = time.perf_counter() - started
    if done.returncode != 0:
        raise SystemExit(f"scorekeeper {' '.join(args)} failed:\n{done.stdout}\n{done.stderr}")
    peak = int(done.stderr.rsplit("PEAK-KB ", 1)[1].split()[0])
    return {"seconds": round(seconds, 1), "peak_mb": round(peak / 1024), "said": done.stdout.strip()[-200:]}


def environment(instance: Path, url: str) -> dict[str, str]:
    return {
        **os.environ,
        "SCOREKEEPER_INSTANCE": str(instance),
        "DATABASE_URL": url,
        "SECRET_KEY": "bench",
        "AUTO_MIGRATE": "1",
        "PYTHONPATH": str(ROOT),
    }


def empty_postgres(url: str) -> None:
    from sqlalchemy import MetaData, create_engine

    engine = create_engine(url)
    meta = MetaData()
    meta.reflect(engine)
    meta.drop_all(engine)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")
    engine.dispose()


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--scale", type=float, default=1.0, help="a share of 100 clubs, 1,000 events, 50,000 games"
    )
    parser.add_argument(
        "--postgres", default=None, help="an empty PostgreSQL database's URL for the PostgreSQL legs"
    )
    parser.add_argument(
        "--keep", default=None, help="a folder to keep the files in (default: a temporary one)"
    )
    options = parser.parse_args()
    clubs, events, games = (max(1, round(n * options.scale)) for n in (100, 1000, 50_000))
    folder = Path(options.keep or tempfile.mkdtemp(prefix="backup-bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    for old in ("source", "target"):  # a kept folder's earlier run: started anew
        shutil.rmtree(folder / old, ignore_errors=True)
    source = folder / "source"
    source.mkdir(exist_ok=True)
    source_url = f"sqlite:///{source / 'scorekeeper.sqlite'}"
    report: dict[str, Any] = {"clubs": clubs, "events": events, "games": games}
    made = generate(source_url, clubs, events, games)
    report["generate"] = {k: (round(v, 1) if isinstance(v, float) else v) for k, v in made.items()}
    report["database_mb"] = round((source / "scorekeeper.sqlite").stat().st_size / 1e6, 1)
    env = environment(source, source_url)
    # A command that starts the app and does nothing: what every step below pays first.
    report["start_only"] = run_step(["db", "current"], env)
    backup = folder / "backup.json"
    report["export"] = run_step(["export", "--all", "-o", str(backup)], env)
    report["export"]["mb"] = round(backup.stat().st_size / 1e6, 1)
    copy = folder / "copy.sqlite"
    report["copy"] = run_step(["backup", "--to", str(copy)], env)
    report["copy"]["mb"] = round(copy.stat().st_size / 1e6, 1)
    target = folder / "target"
    target.mkdir(exist_ok=True)
    target_env = environment(target, f"sqlite:///{target / 'scorekeeper.sqlite'}")
    report["import_dry_run"] = run_step(["import", "--dry-run", str(backup)], target_env)
    report["import_sqlite"] = run_step(["import", str(backup)], target_env)
    if options.postgres:
        empty_postgres(options.postgres)
        pg_env = environment(folder, options.postgres)
        report["import_postgres"] = run_step(["import", str(backup)], pg_env)
        again = folder / "from-postgres.json"
        report["export_postgres"] = run_step(["export", "--all", "-o", str(again)], pg_env)
        report["export_postgres"]["mb"] = round(again.stat().st_size / 1e6, 1)
    print(json.dumps(report, indent=1))


if __name__ == "__main__":
    main()
