"""The house gate: every change to a club or an event passes through :func:`change` (or
:func:`make`, for a new one), as every change to a game passes through the game gate.

One transaction per user action. Its first statement claims the aggregate's version by a
conditional UPDATE (``... WHERE id = :id AND version = :old``): on PostgreSQL it waits for a
concurrent writer of the same club or event and then matches no row; on SQLite it runs in the
app's one-writer turn. Either way one writer per version gets through. The loser is judged
again on the newer state (a change that still applies applies: no lost update), or, when it
was based on a version it saw (``If-Match``, a round start), refused with :class:`Stale`.
A repeated submission (its token recorded) raises :class:`Repeat` with the first answer.
Every change leaves a row of history (:class:`~scorekeeper.models.HouseChange`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, cast

from sqlalchemy import select, update
from sqlalchemy.engine import CursorResult
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm.attributes import set_committed_value
from sqlalchemy.orm.exc import ObjectDeletedError

from ..db import db, one_writer
from ..models import Club, Event, HouseChange
from ..refusals import Gone, Repeat, Retry, Stale

__all__ = ["Gone", "Repeat", "Retry", "Stale", "Step", "change", "keep", "make", "recorded"]

R = TypeVar("R")
Aggregate = Club | Event
# A change without a version it was based on is judged again on the newer state, this many times.
RETRIES = 24


@dataclass(frozen=True)
class Step(Generic[R]):
    """A judged change: the answer to hand back, the function that writes it (returning what the
    history keeps of it), and the history's kind."""

    result: R
    apply: Callable[[], Any]
    kind: str


_Raced = Retry


def recorded(token: str | None) -> HouseChange | None:
    """The change a submission with this token made, if any."""
    if not token:
        return None
    return db.session.scalar(select(HouseChange).where(HouseChange.token == token))


def _where(aggregate: Aggregate) -> dict[str, Any]:
    if isinstance(aggregate, Club):
        return {"club_id": aggregate.id}
    return {"event_id": aggregate.id, "club_id": aggregate.club_id}


def rows_changed(statement: Any) -> int:
    """Run a conditional UPDATE in the change's transaction: how many rows it matched."""
    result = cast(
        "CursorResult[Any]", db.session.execute(statement.execution_options(synchronize_session=False))
    )
    return result.rowcount


def _claim(aggregate: Aggregate) -> None:
    model = type(aggregate)
    old = aggregate.version
    claimed = rows_changed(
        update(model).where(model.id == aggregate.id, model.version == old).values(version=old + 1)
    )
    if claimed != 1:
        raise _Raced
    set_committed_value(aggregate, "version", old + 1)


def _reread(aggregate: Aggregate) -> None:
    """After a lost race: everything this session read may be older than the winner's change
    (an event's rounds and tables too), so all of it is read again when next used."""
    db.session.expire_all()
    try:
        db.session.refresh(aggregate)
    except Exception:  # deleted meanwhile (InvalidRequestError / ObjectDeletedError)
        raise Gone(aggregate.id) from None


def change(
    aggregate: Aggregate,
    plan: Callable[[], Step[R]],
    based_on: int | None = None,
    token: str | None = None,
    by: str = "",
) -> R:
    """Judge ``plan()`` on the aggregate as stored, then claim its version and apply it, once.

    ``plan`` reads and refuses (raising what refuses it) and returns a :class:`Step`; its
    ``apply`` writes in the claim's transaction, and may raise to refuse after all (a spent
    link): nothing of the change is kept then.
    """
    for attempt in range(RETRIES):
        done = recorded(token)
        if done is not None:
            # The caller answers what the first one did: from the state it left, not the one
            # this request read before it.
            _reread(aggregate)
            raise Repeat(done)
        try:
            version = aggregate.version
        except ObjectDeletedError:
            raise Gone(aggregate.id) from None
        if based_on is not None and version != based_on:
            raise Stale(aggregate, based_on)
        step = plan()
        try:
            with one_writer():
                _claim(aggregate)
                detail = step.apply()
                db.session.add(
                    HouseChange(
                        **_where(aggregate),
                        version=aggregate.version,
                        kind=step.kind,
                        detail=detail,
                        token=token,
                        by=by[:80],
                    )
                )
                db.session.commit()
        except (_Raced, IntegrityError):
            # Someone else changed it meanwhile (or took the name, the token): read it again.
            db.session.rollback()
            _reread(aggregate)
            if based_on is not None and recorded(token) is None:
                raise Stale(aggregate, based_on) from None
            time.sleep(random.uniform(0, 0.002 * (attempt + 1)))
            continue
        except BaseException:
            db.session.rollback()
            raise
        return step.result
    done = recorded(token)
    if done is not None:
        _reread(aggregate)
        raise Repeat(done)
    raise Stale(aggregate, based_on)


def make(build: Callable[[], tuple[Aggregate, R]], kind: str, token: str | None = None, by: str = "") -> R:
    """A new club or event, and what comes with it, in one transaction.

    ``build()`` adds the rows (judged anew on each attempt: a slug taken meanwhile is another
    one next time) and returns the new aggregate and the answer. A unique value taken by a
    concurrent maker (a club's slug) makes it try again; after :data:`RETRIES`, :class:`Stale`.
    """
    last: Aggregate | None = None
    for attempt in range(RETRIES):
        done = recorded(token)
        if done is not None:
            raise Repeat(done)
        try:
            with one_writer():
                aggregate, result = build()
                last = aggregate
                db.session.flush()
                db.session.add(
                    HouseChange(
                        **_where(aggregate),
                        version=aggregate.version or 1,
                        kind=kind,
                        token=token,
                        by=by[:80],
                    )
                )
                db.session.commit()
        except IntegrityError:
            db.session.rollback()
            time.sleep(random.uniform(0, 0.002 * (attempt + 1)))
            continue
        except BaseException:
            db.session.rollback()
            raise
        return result
    assert last is not None
    raise Stale(last, None)


def keep(write: Callable[[], object]) -> bool:
    """A write of no aggregate's (a device's "My games" row, a key's last use) in its own
    transaction; False when a concurrent one wrote the same row first (one row is enough)."""
    try:
        with one_writer():
            write()
            db.session.commit()
    except IntegrityError:
        db.session.rollback()
        return False
    except BaseException:
        db.session.rollback()
        raise
    return True
