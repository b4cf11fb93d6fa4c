"""Settings: docs/settings.md lists exactly what the code reads, and the environment sets each one
(SCOREKEEPER_* as JSON, the plain names as before)."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import scorekeeper
from scorekeeper import create_app, settings

ROOT = Path(scorekeeper.__file__).resolve().parent.parent
PACKAGE = Path(scorekeeper.__file__).resolve().parent
# app.config["X"], current_app.config.get('X', ...), app.config.setdefault("X", ...)
READ = re.compile(r"config(?:\[|\.get\(|\.setdefault\()\s*[\"']([A-Z][A-Z0-9_]*)[\"']")
ROW = re.compile(r"^\| `([A-Z][A-Z0-9_]*)` \|(.*)$", re.M)


def documented() -> dict[str, str]:
    """The settings table: each setting's name and the rest of its row."""
    return dict(ROW.findall((ROOT / "docs" / "settings.md").read_text(encoding="utf-8")))


def read_by_the_code() -> set[str]:
    names = set()
    for path in PACKAGE.rglob("*.py"):
        if "migrations" not in path.parts:
            names.update(READ.findall(path.read_text(encoding="utf-8")))
    return names


def test_the_table_lists_every_setting_the_code_reads_or_sets_and_nothing_else():
    code = read_by_the_code() | set(settings.defaults("/instance"))
    table = documented()
    assert code - set(table) == set(), "read by the code, missing from docs/settings.md"
    assert set(table) - code == set(), "in docs/settings.md, read by no code"
    # The scan finds the reads it should (a regex that matched nothing would pass the checks above).
    assert {"CLUB_KEY", "PDF_FOLDER", "LIVE_POLL_SECONDS", "COMPRESS_MIN_SIZE"} <= read_by_the_code()


def test_the_table_names_each_settings_variables():
    table = documented()
    for name, row in table.items():
        assert f"`{settings.PREFIX}_{name}`" in row or "(set by the app)" in row, name
    for variable, (name, _parse) in settings.ALIASES.items():
        assert f"alias `{variable}`" in table[name], variable
    for name in settings.TEXT:
        assert "*Text.*" in table[name], name
    assert set(settings.NUMBERS) <= set(table)


@pytest.fixture
def environ(monkeypatch, tmp_path):
    """A clean environment (none of the settings' variables) and an instance folder of its own."""
    for variable in list(os.environ):
        if variable.startswith(settings.PREFIX + "_") or variable in settings.ALIASES:
            monkeypatch.delenv(variable)
    monkeypatch.setenv("SCOREKEEPER_INSTANCE", str(tmp_path / "instance"))
    return monkeypatch


def configured():
    return create_app(start=False).config


def test_prefixed_variables_are_json(environ):
    environ.setenv("SCOREKEEPER_PROXY_FIX", "2")
    environ.setenv("SCOREKEEPER_AUTO_MIGRATE", "false")
    environ.setenv("SCOREKEEPER_LANGUAGES", '["en", "pl"]')
    environ.setenv("SCOREKEEPER_LIVE_FAST_PATH", "false")
    environ.setenv("SCOREKEEPER_MAX_CONTENT_LENGTH", "2097152")
    environ.setenv("SCOREKEEPER_SESSION_COOKIE_SAMESITE", "Strict")
    config = configured()
    assert config["PROXY_FIX"] == 2
    assert config["AUTO_MIGRATE"] is False
    assert config["LANGUAGES"] == ["en", "pl"]
    assert config["LIVE_FAST_PATH"] is False
    assert config["MAX_CONTENT_LENGTH"] == 2 * 1024 * 1024
    assert config["SESSION_COOKIE_SAMESITE"] == "Strict"


def test_without_variables_the_defaults_stand(environ, tmp_path):
    config = configured()
    assert config["PROXY_FIX"] == 0 and config["AUTO_MIGRATE"] is True and config["SECRET_KEY"] is None
    assert config["SQLALCHEMY_DATABASE_URI"] == f"sqlite:///{tmp_path / 'instance' / 'scorekeeper.sqlite'}"
    assert not (tmp_path / "instance").exists()  # start=False touches nothing


def test_text_settings_stay_text(environ):
    """A club key or secret key of digits is that text, not a number."""
    environ.setenv("SCOREKEEPER_CLUB_KEY", "1234")
    environ.setenv("SCOREKEEPER_SECRET_KEY", "31415926535897932384626433832795")
    environ.setenv("SCOREKEEPER_SQLALCHEMY_DATABASE_URI", "postgresql://db.example/club")
    config = configured()
    assert config["CLUB_KEY"] == "1234"
    assert config["SECRET_KEY"] == "31415926535897932384626433832795"
    assert config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://db.example/club"


def test_the_plain_names_still_work_and_win(environ):
    environ.setenv("PROXY_FIX", "1")
    environ.setenv("AUTO_MIGRATE", "off")
    environ.setenv("SCOREKEEPER_AUTO_MIGRATE", "true")  # the server's AUTO_MIGRATE=0 for its workers wins
    environ.setenv("DATABASE_URL", "postgres://db.example/club")
    environ.setenv("SECRET_KEY", "from-the-plain-name-" + "x" * 20)
    environ.setenv("CLUB_KEY", "sesame")
    environ.setenv("CACHE_REDIS_URL", "redis://127.0.0.1:1/0")
    config = configured()
    assert config["PROXY_FIX"] == 1 and config["AUTO_MIGRATE"] == 0
    assert config["SQLALCHEMY_DATABASE_URI"] == "postgresql+psycopg://db.example/club"
    assert config["SECRET_KEY"] == "from-the-plain-name-" + "x" * 20
    assert config["CLUB_KEY"] == "sesame"
    assert config["CACHE_REDIS_URL"] == "redis://127.0.0.1:1/0" and config["CACHE_TYPE"] == "RedisCache"


def test_an_empty_plain_name_is_unset(environ):
    environ.setenv("SCOREKEEPER_PROXY_FIX", "3")
    environ.setenv("PROXY_FIX", "")
    environ.setenv("SECRET_KEY", "")
    config = configured()
    assert config["PROXY_FIX"] == 3 and config["SECRET_KEY"] is None


def test_the_environment_beats_config_py(environ, tmp_path):
    (tmp_path / "instance").mkdir()
    (tmp_path / "instance" / "config.py").write_text("PROXY_FIX = 1\nCLUB_KEY = 'file'\n")
    environ.setenv("SCOREKEEPER_PROXY_FIX", "2")
    config = configured()
    assert config["PROXY_FIX"] == 2 and config["CLUB_KEY"] == "file"


@pytest.mark.parametrize(
    ("variable", "value", "named"),
    [
        ("SCOREKEEPER_PROXY_FIX", '"two"', "PROXY_FIX (SCOREKEEPER_PROXY_FIX)"),
        ("SCOREKEEPER_AUTO_MIGRATE", "[1]", "AUTO_MIGRATE (SCOREKEEPER_AUTO_MIGRATE)"),
        ("PROXY_FIX", "two", "PROXY_FIX must be"),
    ],
)
def test_a_number_that_is_none_stops_the_start_naming_it(environ, variable, value, named):
    environ.setenv(variable, value)
    with pytest.raises(settings.SettingError, match=re.escape(named)):
        configured()


def test_a_tests_config_ignores_the_environment(environ):
    environ.setenv("SCOREKEEPER_PROXY_FIX", "2")
    environ.setenv("CLUB_KEY", "sesame")
    app = create_app({"SECRET_KEY": "t", "AUTO_MIGRATE": False}, start=False)
    assert app.config["PROXY_FIX"] == 0 and "CLUB_KEY" not in app.config
