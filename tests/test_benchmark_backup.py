"""benchmarks/backup.py's generated server is a real one: every row restores, every game replays.

No timing here: the benchmark measures, the suite only checks that what it measures is real."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from scorekeeper import create_app
from scorekeeper.db import db, upgrade_schema
from tests.conftest import app_config

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "backup.py"


def load():
    spec = importlib.util.spec_from_file_location("bench_backup", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_the_generated_server_exports_and_restores_whole(tmp_path):
    bench = load()
    source = f"sqlite:///{tmp_path / 'source.sqlite'}"
    made = bench.generate(source, clubs=2, events=3, games=40)
    rows = made["rows"]
    # Two clubs of ten members; three evenings copied (six table games each) and the rest.
    assert rows["club"] == 2 and rows["member"] == 20 and rows["event"] == 3 and rows["event_table"] == 18
    assert rows["game"] == 40 and rows["deal"] > 40 * 2 and rows["game_change"] > rows["deal"]
    app = create_app(app_config(source))
    out = app.test_cli_runner().invoke(args=["export", "--all", "-o", str(tmp_path / "b.json")])
    assert out.exit_code == 0, out.output
    with app.app_context():
        db.engine.dispose()
    target = create_app(app_config(f"sqlite:///{tmp_path / 'target.sqlite'}"))
    upgrade_schema(target)
    done = target.test_cli_runner().invoke(args=["import", str(tmp_path / "b.json")])
    # The template evening's club and game come along: one more club, 41 games... all replayed.
    assert done.exit_code == 0 and "3 club," in done.output and "4 event, 46 game" in done.output, done.output
    with target.app_context():
        db.engine.dispose()
