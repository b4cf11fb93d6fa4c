"""A backup's every column checked as the API checks it (issue 57, N8), and the import's reading
of the file bounded and worded (N14): a bad value restores nothing and says so in one line, never
a traceback, a page that hangs or a 500 later."""

from __future__ import annotations

import copy
import io
import json

import pytest

from scorekeeper.backup import jsonstream
from tests.server_fixture import populate
from tests.test_backup_format import export_all, restore, rows, wipe


def event_row(backup):
    return backup["tables"]["event"][0]


def set_setting(key, value):
    return lambda b: event_row(b)["settings"].update({key: value})


EVENT_BAD = [
    (set_setting("rounds", 10**9), "“settings”: “rounds”"),
    (set_setting("rounds", "3"), "“settings”: “rounds”"),
    (set_setting("minutes", -1), "“settings”: “minutes”"),
    (set_setting("table_size", 10**6), "“settings”: “table_size”"),
    (set_setting("extra", 1), "“settings” must be an object"),
    (lambda b: event_row(b).update(settings=[1, 2]), "“settings” must be an object"),
    (lambda b: event_row(b).update(format="poker"), "“format” must be one of"),
    (lambda b: event_row(b).update(options={"nope": 1}), "“options” must be an object"),
    (lambda b: event_row(b).update(entrants="Ann"), "“entrants” must be a list"),
    (lambda b: event_row(b).update(entrants=[1, 2, 3, 4]), "“entrants”:"),
    (lambda b: event_row(b).update(entrants=["x"] * 401), "“entrants”:"),
    (lambda b: event_row(b).update(withdrawn=[99]), "“withdrawn” must be a list"),
    (lambda b: event_row(b).update(withdrawn=[0, 0]), "“withdrawn” names an entrant twice"),
    (
        lambda b: event_row(b).update(schedule=[{"tables": [[0, 1, 2, 99]], "sitting_out": []}]),
        "schedule round 1",
    ),
    (lambda b: event_row(b).update(schedule=[{}] * 100), "“schedule” must be a list"),
    (lambda b: b["tables"]["event_round"][0].update(sitting_out=["a"]), "round 1, sitting_out"),
    (lambda b: b["tables"]["event_round"][0].update(number=10**6), "round 1000000"),
    (lambda b: b["tables"]["event_table"][0].update(seats=[0, 1, 2, 77]), "round 1, seats"),
    (lambda b: b["tables"]["event_table"][0].update(seats=[0] * 9), "round 1: a table seats"),
]


def restored_changed(app, tmp_path, change, written=lambda backup: backup):
    """The populated server's backup, changed by ``change``, restored (as ``written`` gives it)
    over the wiped server: the backup and the restore's result."""
    populate(app)
    backup = copy.deepcopy(export_all(app))
    change(backup)
    wipe(app)
    return backup, restore(app, tmp_path, written(backup))


@pytest.mark.parametrize(("change", "problem"), EVENT_BAD)
def test_a_restored_event_is_held_to_what_the_api_stores(app, tmp_path, change, problem):
    backup, done = restored_changed(app, tmp_path, change)
    assert done.exit_code == 1, done.output
    assert f"Nothing restored: event {event_row(backup)['id']}: " in done.output, done.output
    assert problem in done.output, done.output
    assert "Traceback" not in done.output and rows(app) == 0


def test_a_good_backup_with_its_event_restores(app, tmp_path):
    populate(app)
    backup = export_all(app)
    wipe(app)
    done = restore(app, tmp_path, backup)
    assert done.exit_code == 0, done.output
    assert client_sees_event(app, event_row(backup)["id"])


def client_sees_event(app, event_id):
    return app.test_client().get(f"/api/events/{event_id}").status_code == 200


BAD_VALUES = [
    # A whole number past Python's 4,300 digits, NaN, a number too large, deep nesting.
    (lambda t: t.replace('"version": 1,', '"version": ' + "9" * 5000 + ",", 1), "not JSON"),
    (lambda t: t.replace('"version": 1,', '"version": NaN,', 1), "NaN is not a JSON number"),
    (lambda t: t.replace('"version": 1,', '"version": 1e999,', 1), "too large a number"),
    (lambda t: t.replace('"detail": null', '"detail": ' + "[" * 100_000 + "]" * 100_000, 1), "not JSON"),
]


@pytest.mark.parametrize(("change", "problem"), BAD_VALUES)
def test_a_bad_value_is_one_line_not_a_traceback(app, tmp_path, change, problem):
    populate(app)
    text = json.dumps(export_all(app))
    bad = change(text)
    assert bad != text
    wipe(app)
    done = restore(app, tmp_path, bad)
    assert done.exit_code == 1, done.output
    assert "Nothing restored: " in done.output and problem in done.output, done.output[-500:]
    assert "Traceback" not in done.output and rows(app) == 0


def nested(depth):
    value = 1
    for _ in range(depth):
        value = [value]
    return value


COLUMN_BAD = [
    # A lone surrogate is valid JSON and no database's text; year 1 east of UTC is before year 1.
    (lambda b: b["tables"]["member"][0].update(name="\ud800"), "“name” must be text"),
    (lambda b: b["tables"]["member"][0].update(created_at="0001-01-01T00:00:00+01:00"), "ISO date"),
    (lambda b: b["tables"]["house_change"][0].update(detail={"a": "\ud800"}), "“detail” holds text"),
    (lambda b: b["tables"]["house_change"][0].update(detail=nested(40)), "nested deeper"),
    (lambda b: b["tables"]["game"][0].update(options=[1]), "its players, options or deals"),
]


@pytest.mark.parametrize(("change", "problem"), COLUMN_BAD)
def test_a_bad_column_value_is_named(app, tmp_path, change, problem):
    _backup, done = restored_changed(app, tmp_path, change, json.dumps)
    assert done.exit_code == 1, done.output
    assert "Nothing restored: " in done.output and problem in done.output, done.output[-800:]
    assert "Traceback" not in done.output and rows(app) == 0


def test_one_huge_value_is_read_in_a_few_tries_not_one_per_chunk(monkeypatch):
    """Each try decodes the value from its start: growing the buffer a chunk at a time made a
    50 MB value 800 tries (62 s); doubling makes it a handful."""
    size = 16 * jsonstream.CHUNK * 20  # 20 MB
    text = '{"a": ["' + "x" * size + '"]}'
    tries = []
    reader = jsonstream.Reader(io.StringIO(text))
    real = reader.decoder.raw_decode

    def counted(*args):
        tries.append(1)
        return real(*args)

    monkeypatch.setattr(reader.decoder, "raw_decode", counted)
    for _key in reader.members():
        assert len(reader.value()[0]) == size
    assert len(tries) <= 25, len(tries)
