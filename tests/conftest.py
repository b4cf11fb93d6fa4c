"""Fixtures: an app on a fresh database (SQLite by default, PostgreSQL when DATABASE_URL says so)."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from flask import Flask, request
from hypothesis import settings
from jinja2 import BytecodeCache
from jsonschema import Draft202012Validator
from sqlalchemy import MetaData, event
from werkzeug.routing.rules import Rule

from scorekeeper import create_app
from scorekeeper.db import db, upgrade_schema

# Property tests: the suite's run ("ci", loaded here) tries half Hypothesis' default 100 examples
# where a test names no number of its own, with no deadline (a shared 2-core machine runs late,
# and a late example is no failure); `--hypothesis-profile thorough` tries ten times as many.
# Tests that name their max_examples keep them in every profile.
settings.register_profile("ci", max_examples=50, deadline=None)
settings.register_profile("thorough", max_examples=500, deadline=None)
settings.load_profile("ci")


class _SharedBytecode(BytecodeCache):
    """Templates compiled once per test process, not once per test's app (a template's code
    depends only on its source and the environment's options, the same for every test app)."""

    def __init__(self) -> None:
        self.codes: dict[str, bytes] = {}

    def load_bytecode(self, bucket) -> None:
        if bucket.key in self.codes:
            bucket.bytecode_from_string(self.codes[bucket.key])

    def dump_bytecode(self, bucket) -> None:
        self.codes[bucket.key] = bucket.bytecode_to_string()


Flask.jinja_options = {**Flask.jinja_options, "bytecode_cache": _SharedBytecode()}

# Every test builds its own app, and Werkzeug compiles a URL builder (Python source, through
# ast and compile()) for each of its ~100 rules: 0.7 s an app, most of a short test's time.
# A builder depends only on the rule's text, defaults and converters, never on the app (it
# reads its rule at call time), so one process compiles each once. Only where Werkzeug still
# has this method; without it the tests run as before, only slower.
_compile_builder = getattr(Rule, "_compile_builder", None)
if _compile_builder is not None:
    _BUILDERS: dict = {}

    def _shared_builder(self, append_unknown=True):
        converters = tuple(
            (name, type(c), repr({k: v for k, v in vars(c).items() if k != "map"}))
            for name, c in self._converters.items()
        )
        key = (
            self.rule,
            repr(self._trace),
            repr(sorted((self.defaults or {}).items())),
            converters,
            append_unknown,
        )
        if key not in _BUILDERS:
            _BUILDERS[key] = _compile_builder(self, append_unknown)
        return _BUILDERS[key]

    Rule._compile_builder = _shared_builder


def worker_database(url: str) -> str:
    """Under pytest-xdist each worker gets a PostgreSQL database of its own (``test_gw0``...),
    created from the server's maintenance database when missing: the workers' fixtures empty and
    migrate their database, which must never be another worker's."""
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    if not worker:
        return url
    from sqlalchemy import create_engine, text
    from sqlalchemy.engine import make_url

    given = make_url(url)
    name = f"{given.database}_{worker}"
    engine = create_engine(given.set(database="postgres"), isolation_level="AUTOCOMMIT")
    with engine.connect() as conn:
        if not conn.execute(text("SELECT 1 FROM pg_database WHERE datname = :n"), {"n": name}).first():
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    engine.dispose()
    return given.set(database=name).render_as_string(hide_password=False)


def dropped(engine) -> None:
    """Every table of ``engine``'s database dropped, Alembic's mark too: a database as new. Reflected
    into a metadata of its own: in the models' it would take in alembic_version, which the
    fixtures' clean-up would then empty (an app started later would migrate again)."""
    existing = MetaData()
    existing.reflect(engine)
    existing.drop_all(engine)
    with engine.begin() as conn:
        conn.exec_driver_sql("DROP TABLE IF EXISTS alembic_version")


def migrated_to(url: str, revision: str):
    """An app on ``url``'s database dropped to nothing and migrated up to ``revision``: the old
    schema a migration's test puts its old rows into."""
    from flask_migrate import upgrade

    from scorekeeper.db import MIGRATIONS

    app = create_app({"SQLALCHEMY_DATABASE_URI": url, "AUTO_MIGRATE": False, "SECRET_KEY": "m"})
    with app.app_context():
        dropped(db.engine)
        upgrade(directory=MIGRATIONS, revision=revision)
    return app


@pytest.fixture(scope="session")
def database_url(tmp_path_factory) -> str:
    """One database for the session, migrated from empty by our own Alembic scripts."""
    url = os.environ.get("DATABASE_URL")
    if url:
        url = worker_database(url)
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "AUTO_MIGRATE": False, "SECRET_KEY": "t"})
        with app.app_context():
            dropped(db.engine)  # from nothing, so that the migrations themselves are tested
    else:
        url = f"sqlite:///{tmp_path_factory.mktemp('db') / 'test.sqlite'}"
        app = create_app({"SQLALCHEMY_DATABASE_URI": url, "AUTO_MIGRATE": False, "SECRET_KEY": "t"})
    upgrade_schema(app)
    with app.app_context():
        db.engine.dispose()
    return url


def app_config(database_url: str, **extra) -> dict:
    """A test app's config on the session's database (another "worker" takes one more of these)."""
    return {
        "TESTING": True,
        "SECRET_KEY": "test",
        "SQLALCHEMY_DATABASE_URI": database_url,
        "AUTO_MIGRATE": False,
        "WTF_CSRF_ENABLED": False,
        # Tests try many wrong keys and make many games from one address: counted, never refused.
        # tests/web/test_limits.py tests the limits on figures of its own.
        "LIMIT_FAILED_CREDENTIALS": "100000 per minute",
        "LIMIT_CREATE_GAMES": "100000 per hour",
        # Clubs' slugs as the tests name them ("/c/rec"); tests/web/test_hall_findings.py tests the tail.
        "CLUB_SLUG_TAIL": False,
        **extra,
    }


_EMPTYING: dict[str, list[str]] = {}


def emptied(app) -> None:
    """Empty a test app's database after its test, and close its connections now, not at garbage
    collection, so PostgreSQL never runs out of client slots (every test builds its own engine).
    The DELETEs are written once per dialect: building them from the tables each time (SQLAlchemy's
    delete() constructs and compiles anew) cost 60 ms a test. DELETE, not TRUNCATE: PostgreSQL's ids
    go on growing across the run, as a server's do (tests/clubs/test_device_link_ids.py)."""
    with app.app_context():
        db.session.remove()
        dialect = db.engine.dialect
        if dialect.name not in _EMPTYING:
            quote = dialect.identifier_preparer.format_table
            _EMPTYING[dialect.name] = [f"DELETE FROM {quote(t)}" for t in reversed(db.metadata.sorted_tables)]
        with db.engine.begin() as conn:
            if dialect.name == "postgresql":
                # One round trip for all of them (psycopg runs several statements sent without
                # parameters as one): forty in turn cost 11 ms a test on a local server.
                conn.exec_driver_sql("; ".join(_EMPTYING[dialect.name]))
            else:
                for statement in _EMPTYING[dialect.name]:
                    conn.exec_driver_sql(statement)
        db.engine.dispose()


@pytest.fixture
def app(database_url, tmp_path):
    # Printed sheets are kept per version: each test its own folder.
    app = create_app(app_config(database_url, PDF_FOLDER=str(tmp_path / "pdf")))
    app.after_request(errors_as_published)
    yield app
    emptied(app)


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def count_queries(app):
    """Count the SQL statements run inside a ``with count_queries() as seen:`` block."""

    class Counter:
        def __init__(self):
            self.statements: list[str] = []

        def __enter__(self):
            with app.app_context():
                self.engine = db.engine
            event.listen(self.engine, "before_cursor_execute", self.record)
            return self

        def record(self, conn, cursor, statement, *args):
            if not re.match(r"\s*(SAVEPOINT|RELEASE)", statement):
                self.statements.append(statement)

        def __exit__(self, *exc):
            event.remove(self.engine, "before_cursor_execute", self.record)

        def __len__(self):
            return len(self.statements)

    return Counter


_ERRORS = Draft202012Validator(
    {
        **json.loads(
            (Path(__file__).resolve().parents[1] / "docs" / "game-record.schema.json").read_text("utf-8")
        ),
        "$ref": "#/$defs/Errors",
    }
)


def errors_as_published(response):
    """Every refusal under /api/ that any test provokes is the published one (issue 56): the
    ``Errors`` schema of docs/game-record.schema.json, the one the OpenAPI description names."""
    if request.path.startswith("/api/") and 400 <= response.status_code < 500:
        body = response.get_json(silent=True)
        problems = [e.message for e in _ERRORS.iter_errors(body)] if body is not None else ["not JSON"]
        assert not problems, f"{request.method} {request.path} {response.status_code}: {problems} in {body}"
    return response


PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


def bearer(key: str, **more: str) -> dict[str, str]:
    """The API's credential header (a game's edit key, a member's key, a director's key), with
    ``more`` headers beside it (``**{"If-Match": '"3"'}``)."""
    return {"Authorization": f"Bearer {key}", **more}


def make_event(app, **body) -> tuple[str, str]:
    """An event made by the service from ``body`` (events.md), outside any club: its id and its
    director key. A file fixes its own evening with ``functools.partial(make_event, ...)``."""
    from scorekeeper.events import service as events

    with app.app_context():
        event, key = events.create_event(body)
        return event.id, key


def play_table(client, table: dict, *deals: dict) -> None:
    """Each deal scored at an event's table through the API, with the table's edit key (``table``
    as a round of the event document lists it, for a director)."""
    for facts in deals:
        answer = client.post(
            f"/api/games/{table['game']}/deals", json=facts, headers=bearer(table["edit_key"])
        )
        assert answer.status_code == 201, answer.get_json()


def new_club(client, name: str, player: str = "Olga") -> dict:
    """A club made through the API (its owner ``player``): slug, member_key, invite..."""
    made = client.post("/api/clubs", json={"name": name, "player": player})
    assert made.status_code == 201, made.json
    return made.json


def join(client, slug: str, invite: str, name: str) -> dict:
    """``client``'s device joins the club by the invite, as ``name``: member_key, role, player."""
    joined = client.post(f"/api/clubs/{slug}/join", json={"invite": invite, "name": name})
    assert joined.status_code == 201, joined.json
    return joined.json


@pytest.fixture
def club(app, client):
    """The Lodge (``the-lodge``): its owner Olga, an admin Ada, a member Mel, and Gus who was
    removed; and Elsewhere, another club (Otto's). Each one's member key by role."""
    made = new_club(client, "The Lodge", "Olga")
    admin_invite = client.post(
        "/api/clubs/the-lodge/invites", json={"role": "admin"}, headers=bearer(made["member_key"])
    ).json["invite"]
    admin = join(app.test_client(), "the-lodge", admin_invite, "Ada")
    member = join(app.test_client(), "the-lodge", made["invite"], "Mel")
    gone = join(app.test_client(), "the-lodge", made["invite"], "Gus")
    removed = client.delete("/api/clubs/the-lodge/members/Gus", headers=bearer(made["member_key"]))
    assert removed.status_code == 204
    other = new_club(client, "Elsewhere", "Otto")
    return {
        "slug": "the-lodge",
        "owner": made["member_key"],
        "admin": admin["member_key"],
        "member": member["member_key"],
        "removed": gone["member_key"],
        "other club": other["member_key"],
    }


def sa_form(tricks, agents, trump=None) -> dict[str, str]:
    """The Secret Agent deal form as a browser posts it."""
    data = {f"tricks_{s}": str(t) for s, t in enumerate(tricks)}
    data.update({f"agents_{s}": a for s, a in enumerate(agents)})
    if trump:
        data["trump"] = trump
    return data


@pytest.fixture
def new_game(client):
    """Start a Secret Agent game through the set-up form; returns its page's path."""

    def start(players=PLAYERS, deals=4, first_dealer=0):
        data = {f"players_{s}": name for s, name in enumerate(players)}
        data.update(first_dealer=str(first_dealer), opt_deals=str(deals))
        response = client.post("/new/secret_agent", data=data)
        assert response.status_code == 303, response.get_data(as_text=True)
        return response.headers["Location"]

    return start


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config):
    """``-n auto`` distributes by work stealing unless ``--dist`` says otherwise: a worker that runs
    out takes the other's tests not yet started, so neither waits alone at the end. Set here, not
    in addopts, so that a run without pytest-xdist (``-p no:xdist``) still parses its options, and
    a run without ``-n`` stays undistributed."""
    if getattr(config.option, "numprocesses", None) and getattr(config.option, "dist", None) == "no":
        config.option.dist = "worksteal"


# The longest tests (each 15-150 s of one worker, measured on the 2-core machine) run first, then
# the browser tests, then the rest: with work stealing (above) a worker that runs out steals the
# other's not yet started tests, so the run ends on short tests and neither worker waits alone
# on a long one. Only the order changes; a name that goes stale merely runs in its usual place.
LONGEST = (
    "test_read_side.py::test_every_route_replays_a_game_at_most_once_per_request",
    "test_limits_round_keys.py::test_a_forty_table_hall_with_a_prankster_across_three_round_changes",
    "test_secrets_console_e2e.py::test_a_whole_hidden_secrets_game_played_from_each_players_phone",
    "test_schemathesis.py::test_schemathesis_finds_no_failure",
    "test_whole_evening_e2e.py::",
    "test_evening_door_e2e.py::",
    "test_backup_server.py::test_sqlite_to_sqlite_every_answer_the_same",
    "test_limits.py::test_forty_tables_behind_one_address_play_an_evening_without_a_429",
    "test_ladder_evening_e2e.py::",
    "test_hall_fuzz.py::test_every_route_with_hostile_names_and_numbers_never_answers_500",
    "test_table_fuzz.py::test_no_route_answers_a_server_error_to_garbage",
    "test_limits_hall.py::test_a_forty_table_evening_with_a_prankster_and_a_removed_members_phone",
    "test_crowd.py::test_a_public_answer_is_the_same_for_everyone_and_no_private_one_is_public",
    "test_radio_macro.py::test_every_entry_forms_radios_read_as_wtforms_writes_them",
    "test_secrets_console.py::test_one_seats_pending_part_changes_no_other_answer_on_any_route",
    "test_screens_e2e.py::",
    "test_taps_e2e.py::test_whole_spades_games_cutthroat_and_pairs",
    "test_limits_hall.py::test_four_worker_processes_count_together_without_redis",
    "test_benchmark_script.py::test_long_games_hold_their_deals_and_never_end",
    "test_accessibility_e2e.py::test_every_page_kind_passes_axe_light_and_dark",
    "test_evening_walk_accessibility_e2e.py::",
    "test_secrets_e2e.py::test_hidden_secrets_allotments_and_a_private_report",
    "test_where_i_sit_e2e.py::test_a_players_page_moves_on_by_itself",
)


def pytest_collection_modifyitems(config, items):
    def rank(item) -> int:
        if any(name in item.nodeid for name in LONGEST):
            return 0
        return 1 if "/browser/" in item.nodeid else 2

    items.sort(key=rank)  # stable: each group keeps the collection's order
