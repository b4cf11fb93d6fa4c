"""Every column of a backup, fed a hostile value (issue 57, N8/N14): the import restores it (a
value the API would store too) or refuses in one line naming the problem; never a traceback,
and a refused restore writes nothing. A bounded loop: each column of each table gets two
values, drawn by a seeded generator from a list of the worst kinds."""

from __future__ import annotations

import copy
import json
import random

from tests.server_fixture import populate
from tests.test_backup_format import export_all, rows, wipe

HOSTILE = [
    None,
    -1,
    2**31,
    10**40,
    1.5,
    True,
    "",
    "²",
    "١٢",
    "x" * 5000,
    "\ud800",
    "\u202eevil",
    [],
    {},
    [[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]],
    {"rounds": 10**9},
    [10**9],
    "0001-01-01T00:00:00+01:00",
    "9999-12-31T23:59:59-01:00",
]


def test_a_hostile_value_in_any_column_is_restored_or_refused_in_one_line(app, tmp_path):
    populate(app)
    backup = export_all(app)
    rng = random.Random(57)
    tried = refused = 0
    failures = []
    for table, table_rows in backup["tables"].items():
        if not table_rows:
            continue
        for column in sorted(table_rows[0]):
            for value in rng.sample(HOSTILE, 2):
                bad = copy.deepcopy(backup)
                bad["tables"][table][rng.randrange(len(table_rows))][column] = value
                wipe(app)
                path = tmp_path / "backup.json"
                path.write_text(json.dumps(bad), encoding="utf-8")
                done = app.test_cli_runner().invoke(args=["import", str(path)])
                tried += 1
                where = f"{table}.{column} = {str(value)[:40]!r}"
                if "Traceback" in done.output or (
                    done.exception and not isinstance(done.exception, SystemExit)
                ):
                    failures.append(f"{where}: {type(done.exception).__name__}: {str(done.exception)[:120]}")
                elif done.exit_code == 1:
                    refused += 1
                    if "Nothing restored: " not in done.output or rows(app) != 0:
                        failures.append(f"{where}: refused without saying so, or with rows written")
                    elif len(done.output.strip().splitlines()) != 1:
                        failures.append(f"{where}: more than one line: {done.output[:200]}")
                elif done.exit_code != 0:
                    failures.append(f"{where}: exit {done.exit_code}: {done.output[:200]}")
    assert tried > 100 and refused > 50
    assert failures == [], "\n".join(failures[:30])
