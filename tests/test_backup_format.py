"""Format scorekeeper-backup/2 (docs/backup.md): every stored column in it, nothing derived, its
JSON Schema current, and every bad file refused before anything is written, naming the problem."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from sqlalchemy import func, select

from scorekeeper.backup import jsonstream, snapshot
from scorekeeper.db import db
from scorekeeper.models import GameSummary
from tests.server_fixture import populate

DOCS = Path(__file__).resolve().parents[1] / "docs"


def export_all(app) -> dict:
    out = app.test_cli_runner().invoke(args=["export", "--all"])
    assert out.exit_code == 0, out.output
    return json.loads(out.stdout)


def wipe(app) -> None:
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()


def rows(app) -> int:
    with app.app_context():
        return sum(db.session.scalar(select(func.count()).select_from(t)) for t in db.metadata.sorted_tables)


def restore(app, tmp_path, data, *extra):
    path = tmp_path / "backup.json"
    path.write_text(data if isinstance(data, str) else json.dumps(data), encoding="utf-8")
    return app.test_cli_runner().invoke(args=["import", *extra, str(path)])


def summaries(app) -> dict:
    with app.app_context():
        return {
            s.game_id: {c.name: getattr(s, c.name) for c in GameSummary.__table__.columns}
            for s in db.session.scalars(select(GameSummary))
        }


def test_every_stored_column_is_in_the_backup_and_every_other_is_listed_as_derived(app):
    populate(app)
    backup = export_all(app)
    with app.app_context():
        every = {t.name: t for t in db.metadata.sorted_tables}
    assert set(snapshot.DERIVED_TABLES) <= set(every)
    assert all(t in every and c in every[t].columns for t, c in snapshot.DERIVED_COLUMNS)
    for name, table in every.items():
        if name in snapshot.DERIVED_TABLES:
            assert name not in backup["tables"]
            continue
        stored = {c.name for c in table.columns} - {c for t, c in snapshot.DERIVED_COLUMNS if t == name}
        # The populated server has a row in every table, so a new table or column is seen here.
        assert backup["tables"][name], f"the test server has no {name} row: add one to populate()"
        assert all(set(row) == stored for row in backup["tables"][name]), name


def test_the_backup_holds_hashes_not_keys_and_no_derived_figure(app):
    server = populate(app)
    text = json.dumps(export_all(app))
    for key in [*server.keys.values(), *server.edit_keys.values(), server.invite]:
        assert key not in text
    assert '"totals"' not in text and '"standings"' not in text and '"rating' not in text


def test_the_json_schema_file_is_the_formats_and_a_backup_matches_it(app):
    populate(app)
    with app.app_context():
        current = snapshot.schema_text()
    assert (DOCS / "backup.schema.json").read_text("utf-8") == current, (
        "docs/backup.schema.json is out of date: write snapshot.schema_text() into it"
    )
    schema = json.loads(current)
    Draft202012Validator.check_schema(schema)
    backup = export_all(app)
    Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER).validate(backup)
    backup["tables"]["member"][0]["role"] = 5
    assert not Draft202012Validator(schema).is_valid(backup)


def test_the_restore_derives_the_summaries_the_source_had(app, tmp_path, monkeypatch):
    populate(app)
    before = summaries(app)
    backup = export_all(app)
    wipe(app)
    # Read in pieces of 7 characters: every row crosses a buffer's edge.
    monkeypatch.setattr(jsonstream, "CHUNK", 7)
    done = restore(app, tmp_path, json.dumps(backup, indent=3))
    assert done.exit_code == 0, done.output
    assert summaries(app) == before and before


def game_of(backup, kind):
    return next(g for g in backup["tables"]["game"] if g["kind"] == kind)


def tally_deal(backup):
    game = game_of(backup, "tally")
    return next(d for d in backup["tables"]["deal"] if d["game_id"] == game["id"])


BAD = [
    (lambda b: b["tables"].update(chess=[{}]), "table “chess”: this server has no such table"),
    (lambda b: b["tables"]["member"][0].update(x=1), "member row 1: this server has no column “x” in member"),
    (lambda b: b["tables"]["member"][0].update(role=5), "member row 1: “role” must be text of at most 10"),
    (lambda b: b["tables"]["member"][0].pop("name"), "member row 1: “name” is missing"),
    (lambda b: b["tables"]["member"][0].update(created_at="soon"), "“created_at” must be an ISO date"),
    (
        lambda b: b["tables"]["member"][0].update(club_id=999),
        "(row 1): “club_id” refers to club 999, which the backup does not hold",
    ),
    (lambda b: b["tables"]["game"].append(dict(b["tables"]["game"][0])), "appears twice"),
    (lambda b: tally_deal(b).update(facts={"points": "many"}), "game "),
    (lambda b: b.update(format="scorekeeper-backup/3"), "“format” must be “scorekeeper-backup/2” here"),
    (lambda b: b["tables"].pop("club"), "table “event” must come after “club”"),
]


@pytest.mark.parametrize("dry", [False, True])
@pytest.mark.parametrize(("change", "problem"), BAD)
def test_a_bad_backup_restores_nothing_and_names_the_problem(app, tmp_path, change, problem, dry):
    populate(app)
    backup = copy.deepcopy(export_all(app))
    change(backup)
    wipe(app)
    done = restore(app, tmp_path, backup, *(["--dry-run"] if dry else []))
    assert done.exit_code == 1, done.output
    assert "Nothing restored: " in done.output and problem in done.output, done.output
    assert "Traceback" not in done.output and rows(app) == 0


def test_a_cut_off_file_restores_nothing(app, tmp_path):
    populate(app)
    text = json.dumps(export_all(app))
    wipe(app)
    done = restore(app, tmp_path, text[: len(text) // 2])
    assert done.exit_code == 1 and "Nothing restored: not JSON" in done.output and rows(app) == 0


def test_a_refused_game_is_named_with_the_rules_reason(app, tmp_path):
    populate(app)
    backup = export_all(app)
    deal = tally_deal(backup)
    deal["facts"] = {"points": [1]}
    wipe(app)
    done = restore(app, tmp_path, backup)
    assert done.exit_code == 1 and f"Nothing restored: game {deal['game_id']}: deal 1, points" in done.output


def test_club_option_is_for_game_backups_only(app, tmp_path):
    populate(app)
    done = restore(app, tmp_path, export_all(app), "--club", "the-lodge")
    assert done.exit_code == 2 and "--club is for a backup of games" in done.output


def test_a_backup_file_is_its_owners_only(app, tmp_path):
    populate(app)
    target = tmp_path / "backup.json"
    out = app.test_cli_runner().invoke(args=["export", "--all", "-o", str(target)])
    assert (
        out.exit_code == 0
        and "Exported 2 club, 1 event, 7 game" in out.output
        and "13 house_change" in out.output
    ), out.output
    assert oct(target.stat().st_mode & 0o777) == "0o600"
    assert json.loads(target.read_text("utf-8"))["format"] == snapshot.FORMAT


def test_the_restores_id_maps_answer_as_a_dict_would():
    """IdMap keeps ids written in order as an array (memory flat in the history's size), and
    anything else as a set or a dict: it answers as the dict it stands for."""
    from hypothesis import given
    from hypothesis import strategies as st

    @given(st.integers(0, 5), st.lists(st.tuples(st.integers(1, 40), st.booleans()), max_size=30))
    def check(offset, rows):
        ids, plain = snapshot.IdMap(), {}
        ids.offset = offset
        for old, elsewhere in rows:
            if old in plain:
                continue
            new = old + 1000 if elsewhere else old + offset
            ids[old] = new
            plain[old] = new
        for old in range(0, 45):
            assert (old in ids) == (old in plain)
            if old in plain:
                assert ids[old] == plain[old]

    check()
    names = snapshot.IdMap()
    names["abc"] = "abc"
    assert "abc" in names and names["abc"] == "abc" and "abd" not in names
