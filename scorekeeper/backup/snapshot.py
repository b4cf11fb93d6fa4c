"""The whole server, or one club, as a backup: format ``scorekeeper-backup/2`` (docs/backup.md).

The backup is the database's stored facts, table by table, read from the models' own table
definitions: a column added to a model is in the next backup without a line here. Only what is
derived stays out (:data:`DERIVED_TABLES`, :data:`DERIVED_COLUMNS`); a test holds every column
to being one or the other. Credentials are in it as the hashes the database keeps, never as keys.

A restore reads the file as a stream (one row in memory at a time), checks every row against
its table (types, lengths, references), keeps the ids, and renumbers generated ids only where
the target already uses them. A row whose identity (its id, or a unique column such as a club's
slug) is already in the target is the same thing when every column matches (kept, not written
again), and a clash otherwise: the restore then writes nothing and names it. Every restored
game is replayed through the rules (its summary for the lists derived anew) before the one
commit.
"""

from __future__ import annotations

import bisect
import json
import re
from array import array
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import IO, Any

from sqlalchemy import (
    Boolean,
    Column,
    DateTime,
    Integer,
    String,
    Table,
    UniqueConstraint,
    and_,
    func,
    insert,
    or_,
    select,
)
from sqlalchemy.exc import DataError, IntegrityError
from sqlalchemy.sql.elements import ColumnElement

from ..db import db
from ..problems import HostProblem
from .jsonstream import JSONStreamError, Reader
from .restore_checks import MAX_INT, check_draft, decoder, first_problem

FORMAT = "scorekeeper-backup/2"
# Derived from the stored facts, so never in a backup: the restore derives them again.
DERIVED_TABLES = {
    "game_summary": "a game's list summary, a cache of its replay (the restore replays every game)",
}
DERIVED_COLUMNS: dict[tuple[str, str], str] = {}
# Columns holding another row's generated id without a foreign key: renumbered along with it.
IMPLICIT_REFERENCES = {
    ("game_change", "undoes"): "game_change",
    # The house gate's history names its club or event without a foreign key (it outlives them).
    ("house_change", "club_id"): "club",
    ("house_change", "event_id"): "event",
}
# References that may name what is gone (a deleted club's history): kept as they are then.
LOOSE_REFERENCES = {("house_change", "club_id"), ("house_change", "event_id")}
BATCH = 1000


class BackupError(HostProblem):
    """A backup that cannot be restored; nothing was written."""


def tables() -> list[Table]:
    """Every table a backup holds, parents before the rows that refer to them."""
    kept = [t for t in db.metadata.sorted_tables if t.name not in DERIVED_TABLES]
    # A table that refers to another's rows without a foreign key comes after all the others.
    late = {name for (name, _), parent in IMPLICIT_REFERENCES.items() if parent != name}
    return [t for t in kept if t.name not in late] + [t for t in kept if t.name in late]


def columns(table: Table) -> list[Column]:
    return [c for c in table.columns if (table.name, c.name) not in DERIVED_COLUMNS]


def generated_key(table: Table) -> Column | None:
    """The table's primary key when the database numbers it (then it may be renumbered)."""
    keys = list(table.primary_key.columns)
    if len(keys) == 1 and isinstance(keys[0].type, Integer):
        return keys[0]
    return None


def references(table: Table) -> list[tuple[str, str]]:
    """(column, referred table) for every column that holds another row's id."""
    found = [(fk.parent.name, fk.column.table.name) for fk in table.foreign_keys]
    found += [(col, parent) for (name, col), parent in IMPLICIT_REFERENCES.items() if name == table.name]
    return sorted(found)


# -- export ------------------------------------------------------------------------------------


def club_scope(club_id: int) -> dict[str, ColumnElement[bool] | None]:
    """Which rows are one club's: the club, and every row that refers to one of its rows
    (its members, their keys, its games and their deals, its events and their tables...)."""
    scope: dict[str, ColumnElement[bool] | None] = {}
    for table in tables():
        if table.name == "club":
            scope["club"] = table.c.id == club_id
            continue
        parts = []
        for fk in table.foreign_keys:
            parent = scope.get(fk.column.table.name)
            if parent is not None:
                parts.append(fk.parent.in_(select(fk.column).where(parent)))
        scope[table.name] = or_(*parts) if parts else None
    return scope


def _encoder(column: Column) -> Callable[[Any], Any]:
    if isinstance(column.type, DateTime):
        # Stored as UTC without a zone: written as RFC 3339 says, with its "Z".
        return lambda v: None if v is None else v.replace(tzinfo=None).isoformat() + "Z"
    return lambda v: v


def begin_snapshot() -> None:
    """Every table of the export read from one moment, while the app goes on writing."""
    session = db.session()
    if session.in_transaction():
        # A read before (the club looked up by its slug) began a transaction at the default
        # level, and PostgreSQL fixes a transaction's level at its start: that one is ended (it
        # wrote nothing), so the snapshot's is the first, and its objects are read again inside it.
        if session.new or session.dirty or session.deleted:
            raise RuntimeError("a backup is begun with changes not yet written: they would be lost")
        session.rollback()
    if db.engine.dialect.name == "postgresql":
        db.session.connection(execution_options={"isolation_level": "REPEATABLE READ"})
    elif db.engine.dialect.name == "sqlite":
        # The driver begins a transaction only before a write: a read one is begun here, and
        # its first read fixes what the export sees (write-ahead log).
        db.session.connection().exec_driver_sql("BEGIN")


def write(out: IO[str], club: Any = None) -> dict[str, int]:
    """Write the backup of the server (or of ``club``) to ``out``; return the rows per table."""
    begin_snapshot()
    scope = club_scope(club.id) if club is not None else None
    head = {
        "format": FORMAT,
        "exported_at": datetime.now(UTC).replace(microsecond=0).isoformat(),
        "scope": {"club": club.slug} if club is not None else "all",
    }
    out.write("{\n")
    for key, value in head.items():
        out.write(f"{json.dumps(key)}: {json.dumps(value, ensure_ascii=False)},\n")
    out.write('"tables": {')
    counts: dict[str, int] = {}
    for t, table in enumerate(tables()):
        cols = columns(table)
        encode = [(c.name, _encoder(c)) for c in cols]
        out.write(("," if t else "") + f"\n{json.dumps(table.name)}: [")
        query = select(*cols).order_by(*table.primary_key.columns)
        n = 0
        if scope is not None:
            where = scope[table.name]
            if where is None:
                out.write("]")
                counts[table.name] = 0
                continue
            query = query.where(where)
        for row in db.session.execute(query, execution_options={"yield_per": BATCH}):
            values = {name: enc(value) for (name, enc), value in zip(encode, row, strict=True)}
            out.write(
                ("," if n else "") + "\n" + json.dumps(values, ensure_ascii=False, separators=(",", ":"))
            )
            n += 1
        out.write("\n]" if n else "]")
        counts[table.name] = n
    out.write("\n}\n}\n")
    db.session.rollback()  # the read-only snapshot ends
    return counts


# -- the format's JSON Schema (docs/backup.schema.json, made from the models) ---------------------


def _column_schema(column: Column) -> dict[str, Any]:
    kind = column.type
    schema: dict[str, Any]
    if isinstance(kind, Boolean):
        schema = {"type": "boolean"}
    elif isinstance(kind, Integer):
        schema = {"type": "integer", "minimum": -MAX_INT - 1, "maximum": MAX_INT}
    elif isinstance(kind, DateTime):
        schema = {"type": "string", "format": "date-time"}
    elif isinstance(kind, String):
        schema = {"type": "string"} | ({"maxLength": kind.length} if kind.length else {})
    else:  # JSON: any value the app stored
        return {"description": "any JSON value"}
    if column.nullable:
        schema["type"] = [schema["type"], "null"]
    return schema


def json_schema() -> dict[str, Any]:
    """The JSON Schema of format /2, from the tables as this version defines them."""
    table_schemas = {}
    for table in tables():
        table_schemas[table.name] = {
            "type": "array",
            "items": {
                "type": "object",
                "properties": {c.name: _column_schema(c) for c in columns(table)},
                "required": [c.name for c in columns(table) if not _optional(c)],
                "additionalProperties": False,
            },
        }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Scorekeeper backup, format scorekeeper-backup/2 (docs/backup.md)",
        "type": "object",
        "required": ["format", "tables"],
        "properties": {
            "format": {"const": FORMAT},
            "exported_at": {"type": "string", "format": "date-time"},
            "scope": {
                "oneOf": [
                    {"const": "all"},
                    {
                        "type": "object",
                        "required": ["club"],
                        "properties": {"club": {"type": "string"}},
                        "additionalProperties": False,
                    },
                ]
            },
            "tables": {"type": "object", "properties": table_schemas, "additionalProperties": False},
        },
    }


def schema_text() -> str:
    """docs/backup.schema.json as it must read: a column's schema on one line."""

    def flat(value: Any) -> bool:
        return not isinstance(value, dict | list) or (
            isinstance(value, list) and all(not isinstance(v, dict | list) for v in value)
        )

    def dump(value: Any, depth: int) -> str:
        if isinstance(value, dict) and value and not all(flat(v) for v in value.values()):
            pad = "  " * (depth + 1)
            inner = ",\n".join(f"{pad}{json.dumps(k)}: {dump(v, depth + 1)}" for k, v in value.items())
            return "{\n" + inner + "\n" + "  " * depth + "}"
        if isinstance(value, list) and not flat(value):
            pad = "  " * (depth + 1)
            return "[\n" + ",\n".join(pad + dump(v, depth + 1) for v in value) + "\n" + "  " * depth + "]"
        return json.dumps(value, ensure_ascii=False)

    return dump(json_schema(), 0) + "\n"


# -- reading rows back -------------------------------------------------------------------------


def _optional(column: Column) -> bool:
    """Whether a row may leave the column out (the database then fills it in). Never its id."""
    if column.primary_key:
        return False
    return column.nullable or column.default is not None or column.server_default is not None


def _keys(table: Table) -> list[tuple[str, ...]]:
    """What identifies a row in any database: its primary key unless generated, its unique columns."""
    found: list[tuple[str, ...]] = []
    if generated_key(table) is None:
        found.append(tuple(c.name for c in table.primary_key.columns))
    for constraint in sorted(table.constraints, key=lambda c: str(c.name)):
        if isinstance(constraint, UniqueConstraint):
            found.append(tuple(c.name for c in constraint.columns))
    found += [(c.name,) for c in table.columns if c.unique]
    found += [tuple(c.name for c in i.columns) for i in table.indexes if i.unique]
    return list(dict.fromkeys(found))


class IdMap:
    """One table's ids in the backup -> in the target, for the rows that refer to them.

    Compact, so memory does not grow with the history: an export writes generated ids in
    order and a restore moves them all by one offset, so those are an array of 8-byte numbers
    (500,000 changes: 4 MB, where a dict took 60); ids kept as they are (a game's) a set; any
    other (a row already in the target) a dict.
    """

    def __init__(self) -> None:
        self.offset: int | None = None
        self.ordered = array("q")
        self.same: set[Any] = set()
        self.other: dict[Any, Any] = {}

    def __setitem__(self, old: Any, new: Any) -> None:
        if (
            self.offset is not None
            and type(old) is int
            and new == old + self.offset
            and (not self.ordered or old > self.ordered[-1])
        ):
            self.ordered.append(old)
        elif new == old and self.offset is None:
            self.same.add(old)
        else:
            self.other[old] = new

    def _ordered(self, old: Any) -> bool:
        if type(old) is not int or not self.ordered:
            return False
        at = bisect.bisect_left(self.ordered, old)
        return at < len(self.ordered) and self.ordered[at] == old

    def __contains__(self, old: Any) -> bool:
        return old in self.other or old in self.same or self._ordered(old)

    def __getitem__(self, old: Any) -> Any:
        if old in self.other:
            return self.other[old]
        if old in self.same:
            return old
        if self._ordered(old):
            return old + self.offset
        raise KeyError(old)


@dataclass
class Restored:
    """What a restore wrote, per table: rows restored and rows found already there."""

    written: dict[str, int] = field(default_factory=dict)
    there: dict[str, int] = field(default_factory=dict)
    games: list[str] = field(default_factory=list)
    events: list[str] = field(default_factory=list)
    scope: Any = None


class Restore:
    """One restore in one transaction: rows in, references renumbered, games replayed."""

    def __init__(self) -> None:
        self.tables = {t.name: t for t in tables()}
        referred = {parent for t in self.tables.values() for _c, parent in references(t)}
        # Per referred table: the backup's id -> the target's id; and the ids of the rows the
        # target already held (their own rows are not written again).
        self.ids: dict[str, IdMap] = {name: IdMap() for name in referred}
        self.kept: dict[str, set[Any]] = {name: set() for name in referred}
        self.done: list[str] = []
        self.result = Restored()

    # The target's state before anything is written.
    def _prepare(self, table: Table) -> tuple[bool, int]:
        """(the table was empty, the offset for renumbered ids)."""
        key = generated_key(table)
        if key is None:
            return db.session.scalar(select(func.count()).select_from(table)) == 0, 0
        top = db.session.scalar(select(func.max(key))) or 0
        return top == 0, top

    def table(self, name: str, rows: Iterable[Any]) -> None:
        if name in DERIVED_TABLES:
            for _row in rows:  # derived: the restore makes it anew
                pass
            return
        table = self.tables.get(name)
        if table is None:
            raise BackupError(
                f"table “{name}”: this server has no such table (a backup of a newer version: upgrade first)"
            )
        if name in self.done:
            raise BackupError(f"table “{name}” appears twice")
        for _col, parent in references(table):
            if parent != name and parent not in self.done:
                raise BackupError(f"table “{name}” must come after “{parent}”, whose rows it refers to")
        empty, offset = self._prepare(table)
        cols = {c.name: (c, decoder(c)) for c in columns(table)}
        required = [c.name for c in columns(table) if not _optional(c)]
        refs = references(table)
        gen = generated_key(table)
        keys = _keys(table)
        pk = [c.name for c in table.primary_key.columns]
        ids, kept = self.ids.get(name), self.kept.get(name)
        if ids is not None and gen is not None:
            ids.offset = offset
        batch: list[dict[str, Any]] = []
        written = there = 0
        for i, raw in enumerate(rows):
            label = f"{name} row {i + 1}"
            if not isinstance(raw, dict):
                raise BackupError(f"{label}: a row must be an object")
            unknown = sorted(set(raw) - set(cols))
            if unknown:
                raise BackupError(f"{label}: this server has no column “{unknown[0]}” in {name}")
            values: dict[str, Any] = {}
            try:
                for key, value in raw.items():
                    values[key] = cols[key][1](value)
            except ValueError as exc:
                raise BackupError(f"{label}: {exc}") from None
            for key in required:
                if key not in values:
                    raise BackupError(f"{label}: “{key}” is missing")
            old = tuple(values.get(k) for k in pk)
            if gen is not None and values.get(gen.name) is None:
                raise BackupError(f"{label}: “{gen.name}” is missing")
            label = f"{name} {_show(old)} (row {i + 1})"
            own = old[0] if len(old) == 1 else old
            if ids is not None and own in ids:
                raise BackupError(f"{label} appears twice")
            parent_kept = False
            for col, parent in refs:
                value = values.get(col)
                if value is None:
                    continue
                if value not in self.ids[parent] and (name, col) in LOOSE_REFERENCES:
                    continue
                if value not in self.ids[parent]:
                    raise BackupError(
                        f"{label}: “{col}” refers to {parent} {value!r}, which the backup does not hold"
                    )
                parent_kept = parent_kept or value in self.kept[parent]
                values[col] = self.ids[parent][value]
            same = None if empty else self._find(table, keys, values, gen, label)
            if same == () and not parent_kept:
                same = None  # no identity of its own: new unless its owner is already there
            if same is not None:
                there += 1
                if ids is not None:
                    ids[own] = same[0] if len(same) == 1 else (same or None)
                    kept.add(own)  # type: ignore[union-attr]
                continue
            if gen is not None:
                values[gen.name] += offset
            if ids is not None:
                ids[own] = values[gen.name] if gen is not None else own
            if name == "game":
                self.result.games.append(values["id"])
            elif name == "event":
                self.result.events.append(values["id"])
            batch.append(values)
            written += 1
            if len(batch) >= BATCH:
                self._insert(table, batch)
        self._insert(table, batch)
        self.done.append(name)
        self.result.written[name] = written
        self.result.there[name] = there

    def _find(
        self,
        table: Table,
        keys: list[tuple[str, ...]],
        values: dict[str, Any],
        gen: Column | None,
        label: str,
    ) -> tuple[Any, ...] | None:
        """The target's row that is this one (its primary key), or None; a row with the same
        identity and other contents is a clash. () when the row has no identity to look up."""
        usable = False
        for key in keys:
            if any(values.get(k) is None for k in key):
                continue
            usable = True
            row = (
                db.session.execute(select(table).where(and_(*(table.c[k] == values[k] for k in key))))
                .mappings()
                .first()
            )
            if row is None:
                continue
            for col in columns(table):
                if col is gen or col.name not in values:
                    continue
                if row[col.name] != values[col.name]:
                    what = ", ".join(f"{k} {values[k]!r}" for k in key)
                    raise BackupError(
                        f"{label}: this server already holds a different {table.name} with {what} "
                        f"(its “{col.name}” differs)"
                    )
            return tuple(row[c.name] for c in table.primary_key.columns)
        return None if usable else ()

    def _insert(self, table: Table, batch: list[dict[str, Any]]) -> None:
        if not batch:
            return
        # One statement per shape of row (a row may leave out a column the database fills in).
        shapes: dict[tuple[str, ...], list[dict[str, Any]]] = {}
        for row in batch:
            shapes.setdefault(tuple(sorted(row)), []).append(row)
        try:  # a refusal rolls the whole restore back (no savepoint: pysqlite's would commit)
            for rows in shapes.values():
                db.session.execute(insert(table), rows)
        except IntegrityError as exc:
            raise BackupError(
                f"{table.name}: the backup holds two rows with the same {_unique_of(exc)}"
            ) from None
        except DataError as exc:  # a value the database itself refuses, in words, not a traceback
            raise BackupError(
                f"{table.name}: the database refuses a value: {_unique_of(exc)[5:-1]}"
            ) from None
        batch.clear()

    def finish(self) -> Restored:
        """Every restored game replayed through the rules (and its list summary kept); the
        database's own counters moved past the restored ids."""
        check_games(self.result.games)
        check_events(self.result.events)
        if db.engine.dialect.name == "postgresql":
            for table in self.tables.values():
                key = generated_key(table)
                if key is not None and self.result.written.get(table.name):
                    db.session.connection().exec_driver_sql(
                        f"SELECT setval(pg_get_serial_sequence('\"{table.name}\"', '{key.name}'), "
                        f'(SELECT COALESCE(MAX("{key.name}"), 0) + 1 FROM "{table.name}"), false)'
                    )
        return self.result


def _show(key: tuple[Any, ...]) -> str:
    return ", ".join(repr(k) if isinstance(k, str) else str(k) for k in key)


def _unique_of(exc: IntegrityError | DataError) -> str:
    text = str(exc.orig).splitlines()[0] if exc.orig else str(exc)
    return f"key ({text})"


def check_games(game_ids: list[str], batch: int = 200) -> None:
    """Replay every restored game through the rules; keep its list summary. A game the rules
    refuse stops the restore, naming it and the first problem."""
    from ..models import Game
    from ..rules import InvalidFacts
    from ..scoring import game_rules, replay
    from ..service import check_record
    from ..service.gate import keep_summary, summary_columns

    for start in range(0, len(game_ids), batch):
        chunk = game_ids[start : start + batch]
        for game in db.session.scalars(select(Game).where(Game.id.in_(chunk))):
            try:
                kind = game_rules(game)
            except LookupError:
                raise BackupError(f"game {game.id}: no rules score a “{game.kind}” game here") from None
            try:
                result = replay(game)
            except InvalidFacts as exc:
                record = {
                    "game": game.kind,
                    "players": game.players,
                    "options": game.options,
                    "first_dealer": game.first_dealer,
                    kind.record_key: game.facts,
                }
                try:  # a game whose set-up still waits for a seat's part: no summary yet, as ever
                    _, _, _, result = check_record(record, waiting_ok=True)
                except InvalidFacts:
                    raise BackupError(f"game {game.id}: {first_problem(exc.errors, kind)}") from None
            except (TypeError, ValueError, KeyError, AttributeError, IndexError):
                # A stored set-up of the wrong shape (options a list, players a number...): the
                # rules assume the shape the write gate checked.
                raise BackupError(f"game {game.id}: its players, options or deals are not a game's") from None
            else:
                keep_summary(game, summary_columns(game, result))
            try:
                check_draft(kind, result, game.draft)
            except ValueError as exc:
                raise BackupError(f"game {game.id}: {exc}") from None
        db.session.expunge_all()


def check_events(event_ids: list[str], batch: int = 200) -> None:
    """Hold every restored event (its JSON columns, its rounds' sit-outs and tables' seats) to
    what the API could have stored (events.checks.check_stored): a backup's event with 10^9
    rounds, or a seat naming no entrant, stops the restore naming it, instead of hanging or
    failing every page of it later."""
    from flask import current_app

    from ..events.checks import MAX_ENTRANTS, check_stored
    from ..models import Event

    # A server that lowered its bound since still restores its own backup.
    most = max(int(current_app.config.get("EVENT_MAX_PLAYERS") or 0), MAX_ENTRANTS)
    for start in range(0, len(event_ids), batch):
        chunk = event_ids[start : start + batch]
        for event in db.session.scalars(select(Event).where(Event.id.in_(chunk))):
            row = {c: getattr(event, c) for c in ("name", "format", "kind", "options", "settings")}
            row |= {"entrants": event.entrants, "withdrawn": event.withdrawn, "schedule": event.schedule}
            rounds = [(r.number, r.sitting_out, [t.seats for t in r.tables]) for r in event.rounds]
            try:
                check_stored(row, rounds, most)
            except ValueError as exc:
                raise BackupError(f"event {event.id}: {exc}") from None
        db.session.expunge_all()


HEAD = re.compile(r'\s*\{\s*"format"\s*:\s*"scorekeeper-backup/(\d+)"')


def is_snapshot(start: str) -> bool:
    """Whether a document beginning with ``start`` is a backup of this kind (or a newer one)."""
    found = HEAD.match(start)
    return found is not None and int(found.group(1)) >= 2


def restore(file: IO[str], start: str = "") -> Restored:
    """Restore a /2 backup read from ``file`` (``start``: its beginning, read already) in the
    session's transaction: the caller commits, or rolls back for a dry run.
    :class:`BackupError` names the first problem."""
    reader = Reader(file, start)
    job = Restore()
    seen_format = False
    try:
        keys = reader.members()
        for key in keys:
            if key == "format":
                value = reader.value()
                if value != FORMAT:
                    raise BackupError(f"“format” must be “{FORMAT}” here")
                seen_format = True
            elif key == "tables":
                if not seen_format:
                    raise BackupError("“format” must come first")
                for name in reader.members():
                    job.table(name, reader.items())
            elif key == "scope":
                job.result.scope = reader.value()
            else:
                reader.value()  # exported_at, and what a newer version may add
        reader.end()
    except JSONStreamError as exc:
        raise BackupError(f"not JSON: {exc}") from None
    if not seen_format:
        raise BackupError(f"“format” must be “{FORMAT}”")
    return job.finish()
