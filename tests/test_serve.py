"""Running it for real: commands without side effects, serve under gunicorn, /healthz, request ids, proxies."""

from __future__ import annotations

import contextlib
import json
import os
import re
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from click.testing import CliRunner
from sqlalchemy import text

from scorekeeper import __version__, create_app
from scorekeeper.cli import build_cli
from scorekeeper.db import db, upgrade_schema
from scorekeeper.web.health import schema_heads

ROOT = Path(__file__).resolve().parent.parent
RECORD = {
    "format": "scorekeeper-game/1",
    "game": "secret_agent",
    "options": {"deals": 4},
    "players": ["Ann", "Bob", "Cid", "Dee"],
    "deals": [],
}
# The environment a fresh machine has: no database or key configured.
FRESH = {"DATABASE_URL": None, "SECRET_KEY": None, "AUTO_MIGRATE": None, "PROXY_FIX": None}


def invoke(args: list[str], instance: Path):
    env = {**FRESH, "SCOREKEEPER_INSTANCE": str(instance)}
    return CliRunner().invoke(build_cli(), args, env=env, prog_name="scorekeeper", catch_exceptions=False)


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["run", "--help"],
        ["serve", "--help"],
        ["export", "--help"],
        ["import", "--help"],
        ["db", "--help"],
        ["i18n", "--help"],
        ["routes"],
    ],
)
def test_help_and_listing_create_no_folder_database_or_key(tmp_path, args):
    instance = tmp_path / "instance"
    result = invoke(args, instance)
    assert result.exit_code == 0, result.output
    assert "Usage" in result.output or "Endpoint" in result.output
    assert not instance.exists()


def test_an_import_dry_run_writes_nothing_not_even_a_database_or_a_key(tmp_path):
    instance = tmp_path / "instance"
    record = tmp_path / "one.json"
    record.write_text(json.dumps({**RECORD, "deals": []}), encoding="utf-8")
    result = invoke(["import", "--dry-run", str(record)], instance)
    assert result.exit_code == 0, result.output
    assert "One secret_agent game with 0 deals checked; nothing written (--dry-run)." in result.output
    assert not instance.exists()


def test_instance_option_names_the_folder_and_a_real_command_starts_the_app(tmp_path, monkeypatch):
    monkeypatch.delenv("SCOREKEEPER_INSTANCE", raising=False)
    instance = tmp_path / "elsewhere"
    out = tmp_path / "backup.json"
    result = CliRunner().invoke(
        build_cli(),
        ["--instance", str(instance), "export", "--all", "-o", str(out)],
        env=FRESH,
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    # The export really used the app: the instance folder now holds the migrated database and key.
    assert (instance / "scorekeeper.sqlite").is_file() and (instance / "secret_key").is_file()
    assert '"scorekeeper-backup/2"' in out.read_text()


def test_a_checkout_keeps_instance_beside_the_code_unless_told(monkeypatch, tmp_path):
    monkeypatch.delenv("SCOREKEEPER_INSTANCE", raising=False)
    app = create_app({"SECRET_KEY": "t", "AUTO_MIGRATE": False}, start=False)
    assert Path(app.instance_path) == ROOT / "instance"
    assert Path(app.template_folder) == ROOT / "templates" and Path(app.static_folder) == ROOT / "static"
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "inst"))
    assert Path(create_app({"SECRET_KEY": "t"}, start=False).instance_path) == tmp_path / "inst"


# ---- /healthz and the version


def test_the_version_is_scorekeepers_own_and_written_once(capsys):
    from scorekeeper.cli import build_cli

    with pytest.raises(SystemExit) as done:
        build_cli()(["--version"], prog_name="scorekeeper")
    assert done.value.code == 0
    assert capsys.readouterr().out == f"Scorekeeper {__version__}\n"
    # The package metadata reads the same line (pyproject.toml: version from scorekeeper.__version__).
    pyproject = (Path(__file__).parent.parent / "pyproject.toml").read_text()
    assert (
        'version = { attr = "scorekeeper._version.__version__" }' in pyproject
        and '\nversion = "' not in pyproject
    )


def test_healthz_is_200_when_the_database_answers_at_the_newest_schema(client):
    answer = client.get("/healthz")
    assert answer.status_code == 200
    assert answer.json == {"status": "ok", "version": __version__, "schema": sorted(schema_heads())}
    # Cheap and stateless: no session, no cookie, never cached.
    assert "Set-Cookie" not in answer.headers and "Cookie" not in answer.headers.get("Vary", "")
    assert answer.headers["Cache-Control"] == "no-store"
    assert client.head("/healthz").status_code == 200


def test_healthz_is_503_when_the_schema_is_behind(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.sqlite'}"
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url, "AUTO_MIGRATE": False}
    )
    client = app.test_client()
    # No schema at all yet.
    answer = client.get("/healthz")
    assert answer.status_code == 503 and answer.json["status"] == "unavailable"
    upgrade_schema(app)
    assert client.get("/healthz").status_code == 200
    with app.app_context():
        db.session.execute(text("UPDATE alembic_version SET version_num = 'a2a667468676'"))
        db.session.commit()
    answer = client.get("/healthz")
    assert answer.status_code == 503
    assert answer.json == {
        "status": "schema-outdated",
        "version": __version__,
        "schema": ["a2a667468676"],
        "expected": sorted(schema_heads()),
    }
    with app.app_context():
        db.engine.dispose()


def test_healthz_is_503_when_the_database_does_not_answer():
    url = "postgresql+psycopg://nobody@127.0.0.1:1/none?connect_timeout=2"
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "SQLALCHEMY_DATABASE_URI": url, "AUTO_MIGRATE": False}
    )
    answer = app.test_client().get("/healthz")
    assert answer.status_code == 503 and answer.json["status"] == "unavailable"


# ---- Request ids and proxies


def test_every_answer_carries_a_request_id_and_keeps_a_sane_one_from_the_proxy(client):
    first, second = client.get("/"), client.get("/")
    assert re.fullmatch(r"[0-9a-f]{32}", first.headers["X-Request-Id"])
    assert first.headers["X-Request-Id"] != second.headers["X-Request-Id"]
    assert (
        client.get("/", headers={"X-Request-Id": "proxy-1234-abcd"}).headers["X-Request-Id"]
        == "proxy-1234-abcd"
    )
    # Something that would break a log line is replaced, not echoed.
    odd = client.get("/", headers={"X-Request-Id": 'a b"c'}).headers["X-Request-Id"]
    assert re.fullmatch(r"[0-9a-f]{32}", odd)


FORWARDED = {
    "X-Forwarded-Proto": "https",
    "X-Forwarded-Host": "scores.example.org",
    "X-Forwarded-For": "203.0.113.9",
}


def share_link(client) -> str:
    created = client.post("/api/games", json=RECORD).json
    page = client.get(f"/g/{created['id']}", headers=FORWARDED).get_data(as_text=True)
    return re.search(r'class="share-link"><a href="([^"]+)"', page).group(1)


def test_behind_a_proxy_share_links_carry_the_public_address(database_url):
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "t",
            "SQLALCHEMY_DATABASE_URI": database_url,
            "AUTO_MIGRATE": False,
            "PROXY_FIX": 1,
        }
    )
    try:
        link = share_link(app.test_client())
        assert link.startswith("https://scores.example.org/g/")
    finally:
        with app.app_context():
            for table in reversed(db.metadata.sorted_tables):
                db.session.execute(table.delete())
            db.session.commit()
            db.engine.dispose()


def test_without_the_setting_forwarded_headers_are_not_trusted(client):
    assert share_link(client).startswith("http://localhost/g/")


# ---- scorekeeper serve


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(base: str, server: subprocess.Popen, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        assert server.poll() is None, "the server stopped"
        try:
            with urllib.request.urlopen(base + "/healthz", timeout=5) as answer:
                if answer.status == 200:
                    return
        except OSError:
            time.sleep(0.3)
    raise AssertionError("the server did not become healthy")


def start_serve(port: int, env: dict[str, str], log, *args: str) -> subprocess.Popen:
    """``scorekeeper serve`` on ``port`` as a real process (two threads a worker unless told)."""
    return subprocess.Popen(
        [sys.executable, "-c", "from scorekeeper.cli import main; main()", "serve", "--port", str(port)]
        + ["--threads", "2", *args],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )


def test_serve_migrates_once_prints_the_lan_address_and_logs_a_line_per_request(tmp_path):
    port = free_port()
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY", "AUTO_MIGRATE")}
    env["SCOREKEEPER_INSTANCE"] = str(tmp_path / "instance")
    log = (tmp_path / "serve.log").open("w+")
    server = start_serve(port, env, log, "--host", "0.0.0.0", "--workers", "2")
    try:
        wait_healthy(f"http://127.0.0.1:{port}", server)
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=10) as answer:
            request_id = answer.headers["X-Request-Id"]
        # A scoring link and a private link: their keys must not reach the log.
        for path in ("/g/nothing?key=SECRETKEY123", "/g/nothing/p/1/SECRETTOKEN456"):
            with contextlib.suppress(urllib.error.HTTPError):
                urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10)
        time.sleep(0.5)
    finally:
        server.terminate()
        server.wait(timeout=30)
    log.seek(0)
    output = log.read()
    assert re.search(rf"open http://[0-9.]+:{port}/ on the phones", output)
    assert "▀" in output or "▄" in output  # the QR code, in block characters
    assert "\x1b[" not in output
    # A quiet first start (issue 54, item 10): the migrations ran (the page answered) but print
    # nothing before the address; `serve -v` shows them (test below). Two workers booted with
    # AUTO_MIGRATE off.
    assert "Running upgrade" not in output and "INFO  [alembic" not in output
    assert "Context impl" not in output and "Will assume" not in output
    assert output.count("Booting worker") == 2
    lines = [line for line in output.splitlines() if '"GET / HTTP/1.1"' in line]
    assert len(lines) == 1 and lines[0].endswith(f"id={request_id}")
    # Each access line starts with its time in ISO 8601.
    assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}[+-]\d\d:\d\d ", lines[0]), lines[0]
    assert "SECRETKEY123" not in output and "SECRETTOKEN456" not in output
    assert '"GET /g/nothing?key=… HTTP/1.1" 404' in output


def test_proxy_and_migration_settings_come_from_the_environment(monkeypatch, tmp_path):
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "inst"))
    monkeypatch.setenv("PROXY_FIX", "2")
    monkeypatch.setenv("AUTO_MIGRATE", "off")
    app = create_app(start=False)
    assert app.config["PROXY_FIX"] == 2 and app.config["AUTO_MIGRATE"] == 0
    assert not (tmp_path / "inst").exists()


def test_a_new_instance_keeps_its_data_to_its_owner(tmp_path):
    instance = tmp_path / "instance"
    url = f"sqlite:///{instance / 'scorekeeper.sqlite'}"
    app = create_app({"SECRET_KEY": None, "SQLALCHEMY_DATABASE_URI": url}, start=False)
    app.instance_path = str(instance)
    from scorekeeper import start_app

    start_app(app)
    with app.app_context():
        db.engine.dispose()
    assert (instance.stat().st_mode & 0o777) == 0o700
    assert ((instance / "scorekeeper.sqlite").stat().st_mode & 0o777) == 0o600
    assert ((instance / "secret_key").stat().st_mode & 0o077) == 0
    # The write-ahead log and its index, made by SQLite when the database is written.
    with app.app_context():
        with db.engine.connect() as conn:
            conn.execute(text("CREATE TABLE probe (x INTEGER)"))
            conn.commit()
            journal = [instance / "scorekeeper.sqlite-wal", instance / "scorekeeper.sqlite-shm"]
            assert all(path.exists() for path in journal)
            assert [path.stat().st_mode & 0o777 for path in journal] == [0o600, 0o600]
        db.engine.dispose()


@pytest.mark.parametrize(
    "line, secret",
    [
        ('"GET /g/abc?key=K3Y HTTP/1.1"', "K3Y"),
        ('"GET /g/abc?lang=pl&key=K3Y HTTP/1.1"', "K3Y"),
        ('"GET /g/abc/p/2/T0KEN HTTP/1.1"', "T0KEN"),
        ('"GET /e/ev/p/12/T0KEN HTTP/1.1"', "T0KEN"),
        ('"GET /c/thursday/join/INV1TE HTTP/1.1"', "INV1TE"),
        ('"GET /c/thursday/join/INV1TE?lang=pl HTTP/1.1"', "INV1TE"),
        ('"GET /api/clubs/x?member_key=M3MBER HTTP/1.1"', "M3MBER"),
        ('"GET /e/ev/direct?key=D1R HTTP/1.1"', "D1R"),
        ('"POST /c/x/join?invite=INV1TE&token=T0KEN HTTP/1.1"', "INV1TE"),
        # An event's table link and the poll each table's phone sends every 3 seconds (issue 57, N6).
        ('"GET /e/ev/table/7/TABL3TOKEN HTTP/1.1"', "TABL3TOKEN"),
        ('"GET /e/ev/table/7/TABL3TOKEN/now?at=r2-g HTTP/1.1"', "TABL3TOKEN"),
        ('"GET /e/ev/TABLE/7/TABL3TOKEN/now HTTP/1.1"', "TABL3TOKEN"),
        ('"GET /e/ev/table%2F7%2FTABL3TOKEN/now HTTP/1.1"', "TABL3TOKEN"),
    ],
)
def test_the_access_log_carries_no_key_or_token(line, secret):
    from scorekeeper.serve.server import redact

    redacted = redact(line)
    assert secret not in redacted and "…" in redacted
    assert redacted.split(" ")[0] == line.split(" ")[0] and redacted.endswith(' HTTP/1.1"')


def test_a_configured_club_key_is_named_retired_at_start(database_url, caplog):
    from tests.conftest import app_config

    with caplog.at_level("WARNING", logger="scorekeeper"):
        app = create_app(app_config(database_url, CLUB_KEY="old-club-key"))
    with app.app_context():
        db.engine.dispose()
    said = [r.getMessage() for r in caplog.records if "CLUB_KEY" in r.getMessage()]
    assert len(said) == 1 and "no longer used" in said[0]
    assert "scorekeeper clubs invite <slug> --admin" in said[0]
    assert "old-club-key" not in said[0]
    caplog.clear()
    with caplog.at_level("WARNING", logger="scorekeeper"):
        app = create_app(app_config(database_url))
    with app.app_context():
        db.engine.dispose()
    assert not [r for r in caplog.records if "CLUB_KEY" in r.getMessage()]


def test_an_installed_package_offers_no_db_command_that_writes_migrations(tmp_path, monkeypatch):
    import flask_migrate.cli

    from scorekeeper import cli

    kept = dict(flask_migrate.cli.db.commands)
    monkeypatch.setattr(cli, "is_checkout", lambda: False)
    try:
        result = invoke(["db", "--help"], tmp_path / "instance")
        assert result.exit_code == 0
        for name in ("upgrade", "current", "history", "rescore"):
            assert f"  {name} " in result.output, name
        for name in ("init", "migrate", "revision", "merge"):
            assert f"  {name} " not in result.output, name
    finally:
        flask_migrate.cli.db.commands.clear()
        flask_migrate.cli.db.commands.update(kept)


def test_the_access_line_is_written_as_gunicorns_format_would(monkeypatch):
    """serve's access log writes its line directly (gunicorn's atoms were a tenth of a worker's
    time under a crowd): the same line as gunicorn's own formatting of ACCESS_LOG_FORMAT."""
    from datetime import timedelta
    from types import SimpleNamespace

    from gunicorn import glogging
    from gunicorn.config import Config

    from scorekeeper.serve.server import ACCESS_LOG_FORMAT, AccessLog

    cfg = Config()
    cfg.set("accesslog", "-")
    cfg.set("access_log_format", ACCESS_LOG_FORMAT)
    log = AccessLog(cfg)
    monkeypatch.setattr(log, "now", lambda: "2026-11-26T20:00:00.000+00:00")
    lines: list[str] = []
    monkeypatch.setattr(
        log.access_log, "info", lambda msg, *args: lines.append(msg % args[0] if args else msg)
    )
    environ = {
        "REQUEST_METHOD": "GET",
        "RAW_URI": '/g/abc/live?part=live&key=S3CRET&x="q"',
        "SERVER_PROTOCOL": "HTTP/1.1",
        "REMOTE_ADDR": "10.0.0.7",
        "PATH_INFO": "/g/abc/live",
        "QUERY_STRING": 'part=live&key=S3CRET&x="q"',
    }
    for headers, sent in (([("X-Request-Id", "abc123"), ("ETag", 'W/"x"')], 512), ([], None)):
        resp = SimpleNamespace(status="200 OK", sent=sent, headers=headers)
        req = SimpleNamespace(headers=[("HOST", "h")])
        took = timedelta(seconds=1, microseconds=234567)
        log.access(resp, req, environ, took)
        glogging.Logger.access(log, resp, req, environ, took)
    assert lines[0] == lines[1] and lines[2] == lines[3], lines
    assert "S3CRET" not in lines[0] and lines[0].endswith(" 200 512 1234ms id=abc123")
    assert lines[2].endswith(" 200 - 1234ms id=-")
    # The event loop's answers of one turn: their lines in one write, the same lines.
    written = len(lines)
    entries = [
        (
            SimpleNamespace(status="304 NOT MODIFIED", sent=0, headers=[("X-Request-Id", f"r{n}")]),
            None,
            environ,
            took,
        )
        for n in range(3)
    ]
    log.access_lines(entries)
    [together] = lines[written:]
    assert together.split("\n") == [log.line(resp, environ, took) for resp, _, _, _ in entries]
    assert together.split("\n")[2].endswith(" 304 0 1234ms id=r2")


def test_the_migrations_lines_show_only_when_asked(tmp_path, capfd, monkeypatch):
    from scorekeeper import db as database

    for verbose, shown in (("", False), ("1", True)):
        monkeypatch.setenv("SCOREKEEPER_VERBOSE", verbose)
        url = f"sqlite:///{tmp_path / f'quiet{verbose}.sqlite'}"
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "SECRET_KEY": "x" * 32}, start=False)
        capfd.readouterr()
        database.upgrade_schema(app)
        out = "".join(capfd.readouterr())
        assert ("Running upgrade  -> a2a667468676" in out) is shown, out[-500:]
        assert "QUIET_MIGRATIONS" not in app.config
