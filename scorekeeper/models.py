"""What the table did, and nothing derived: games, their seats and deal facts.

Points, totals, winners and tiebreaks are never stored: ``scorekeeper.rules``
computes them from these rows, so a corrected deal rescores what follows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any, ClassVar, Protocol

from sqlalchemy import (
    JSON,
    Boolean,
    ForeignKey,
    Index,
    Integer,
    String,
    UniqueConstraint,
    bindparam,
    false,
    func,
    inspect,
    select,
    text,
)
from sqlalchemy.orm import Mapped, mapped_column, relationship, validates
from sqlalchemy.orm.attributes import set_committed_value

from .confusables import fold_name
from .db import Model, Prepared, db


def utcnow() -> datetime:
    return datetime.now(UTC).replace(tzinfo=None)


class Game(Model):
    # The public id is unguessable: reading a game needs nothing more.
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    kind: Mapped[str] = mapped_column(String(40), index=True)
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    first_dealer: Mapped[int] = mapped_column(Integer, default=0)
    edit_key_hash: Mapped[str] = mapped_column(String(64))
    # Bumped on every change, so a client can tell its copy is stale.
    version: Mapped[int] = mapped_column(Integer, default=1)
    # A deal being entered in steps (bids before tricks, tricks one by one).
    draft: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(default=utcnow, index=True)
    # A deleted game is kept (and can be restored by its scorer) until this is cleared.
    deleted_at: Mapped[datetime | None] = mapped_column(nullable=True, default=None)
    # An archived game leaves the home page (and the ratings) but is kept, listed under /games.
    archived: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false(), index=True)
    # The club whose game it is (listed to its members); None: a personal game, listed only to
    # the devices that created, scored or opened it (clubs.md, who sees what).
    club_id: Mapped[int | None] = mapped_column(
        ForeignKey("club.id", ondelete="CASCADE"), nullable=True, default=None, index=True
    )

    seats: Mapped[list[Seat]] = relationship(
        back_populates="game", order_by="Seat.position", cascade="all, delete-orphan", lazy="selectin"
    )
    deals: Mapped[list[Deal]] = relationship(
        back_populates="game", order_by="Deal.position", cascade="all, delete-orphan", lazy="selectin"
    )

    @property
    def players(self) -> list[str]:
        return [seat.name for seat in self.seats]

    @property
    def facts(self) -> list[dict[str, Any]]:
        return [deal.facts for deal in self.deals]

    # What the write gate asks of a game (:class:`AnyGame`), answered alike by the API's GameHead.
    # A Game has not read the highest deal position its history used: the gate looks it up.
    top_known: ClassVar[bool] = False
    top_position: ClassVar[int | None] = None

    def written(self, **values: Any) -> None:
        """The columns the write gate just stored: the loaded object shows them, nothing to flush."""
        for name, value in values.items():
            set_committed_value(self, name, value)

    def reread(self) -> None:
        """After a lost race: the session's rollback expired this object, read again when next used."""

    @property
    def deals_loaded(self) -> bool:
        return "deals" not in inspect(self).unloaded


class Seat(Model):
    __table_args__ = (UniqueConstraint("game_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    # Players are remembered by name across games (the player history groups by it).
    name: Mapped[str] = mapped_column(String(40), index=True)

    game: Mapped[Game] = relationship(back_populates="seats")


class Deal(Model):
    # Positions only grow: a deleted deal leaves a gap, so nothing is renumbered in place.
    __table_args__ = (UniqueConstraint("game_id", "position"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    position: Mapped[int]
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    game: Mapped[Game] = relationship(back_populates="deals")


class Change(Model):
    """One change to a game, as the history shows it and undo reverses it.

    ``before``/``after`` are the facts (or the draft) the change replaced and
    wrote; ``position`` is the deal's stored position (positions are never
    reused, so a deleted deal can be put back where it was). ``token`` is the
    submission's idempotency token: a replayed submission finds its change here.
    """

    __tablename__ = "game_change"
    __table_args__ = (
        UniqueConstraint("game_id", "token"),
        # A creation's token is unique in the whole database: the new-game form sent four times
        # at once makes one game (the others find it), however many workers answer.
        Index(
            "uq_game_change_create_token",
            "token",
            unique=True,
            sqlite_where=text("kind = 'create'"),
            postgresql_where=text("kind = 'create'"),
        ),
        # The highest position a game's history used, read by every write: one index lookup;
        # and the changes since a version, read by a worker that missed them.
        Index("ix_game_change_game_position", "game_id", "position"),
        Index("ix_game_change_game_version", "game_id", "version"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    # The game's version this change produced.
    version: Mapped[int]
    # create, append, replace, delete, restore (a deleted deal put back), draft, delete_game, restore_game,
    # archive, unarchive
    kind: Mapped[str] = mapped_column(String(20))
    deal_index: Mapped[int | None] = mapped_column(nullable=True)
    position: Mapped[int | None] = mapped_column(nullable=True)
    # Any JSON value, null included.
    before: Mapped[Any] = mapped_column(JSON, nullable=True)
    after: Mapped[Any] = mapped_column(JSON, nullable=True)
    # The change this one undid, if it is an undo.
    undoes: Mapped[int | None] = mapped_column(nullable=True)
    token: Mapped[str | None] = mapped_column(String(64), nullable=True)
    device_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    device: Mapped[str] = mapped_column(String(80), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # A correction at an event's table after its round closed (or its result was confirmed):
    # why, and who gave it ("director": the event's key; else an owner or admin's member name).
    # Both None for every other change; the event's results list the changes that have them.
    reason: Mapped[str | None] = mapped_column(String(200), nullable=True, default=None)
    given_by: Mapped[str | None] = mapped_column(String(40), nullable=True, default=None)


class Player(Model):
    """A regular of a club, kept by its admins: the names offered in a new game, and who is private.

    Games still name their players in their seats (that name is the truth); this
    row only adds what a name cannot say. A name with no row is a public player.
    """

    __table_args__ = (UniqueConstraint("club_id", "name", name="uq_player_club_name"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    # Left out of the public leaderboard (still rated, so everyone else's ratings stay the same).
    private: Mapped[bool] = mapped_column(default=False)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class GameSummary(Model):
    """What the lists show of a game, as everybody may see it: a cache of its replay at ``version``.

    Kept by the write gate in the same transaction as the change; ``scorekeeper db
    rescore`` rebuilds it. A row whose version is not the game's is stale and not read
    (the list replays that game instead), so a summary can never show an old score.
    """

    __tablename__ = "game_summary"

    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), primary_key=True)
    version: Mapped[int]
    deals: Mapped[int]
    finished: Mapped[bool]
    tiebreak: Mapped[bool]
    # The deals the game will have, counting the ones that do not count (None: open-ended).
    planned: Mapped[int | None] = mapped_column(nullable=True)
    next_dealer: Mapped[int | None] = mapped_column(nullable=True)
    sides: Mapped[list[list[int]]] = mapped_column(JSON)
    totals: Mapped[list[int | None]] = mapped_column(JSON)  # None: a total nobody may know yet
    leaders: Mapped[list[int]] = mapped_column(JSON)
    winners: Mapped[list[int]] = mapped_column(JSON)
    last_activity: Mapped[datetime]


# -- clubs: many groups on one server, each apart (clubs.md) ----------------------------------
# Credentials (invites, member keys, devices) are stored as their hashes only, like edit keys.


def folded(name: str) -> str:
    """A name as clubs.md compares names: Unicode compatibility forms and case folded
    ("Zoe", "ZOE" and "Ｚｏｅ" are one name), and look-alike letters too (Unicode's confusable
    skeleton: "Own" and "Оwn" with a Cyrillic О are one name), the same on every database.
    Accents stay: "Jose" and "José" are two names."""
    return fold_name(name)  # at most the column's width: wide compatibility forms fold longer


class Club(Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    slug: Mapped[str] = mapped_column(String(40), unique=True)
    name: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The club's members, invites and devices change under this version (the house gate claims it).
    version: Mapped[int] = mapped_column(Integer, default=1, server_default="1")


class Member(Model):
    """A person of a club, by the player name they picked; ``role``: owner, admin or member.

    ``folded`` is the name as compared (:func:`folded`), unique per club in the database itself:
    two joins as "Zoe" and "zoe" at the same instant make one member, whatever the database."""

    __table_args__ = (
        UniqueConstraint("club_id", "name", name="uq_member_club_name"),
        UniqueConstraint("club_id", "folded", name="uq_member_club_folded"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"), index=True)
    name: Mapped[str] = mapped_column(String(40))
    folded: Mapped[str] = mapped_column(String(200))
    role: Mapped[str] = mapped_column(String(10))
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    @validates("name")
    def _fold(self, _key: str, name: str) -> str:
        self.folded = folded(name)
        return name


class MemberKey(Model):
    """One device's credential of a member: a page cookie or an API ``member_key``.

    Removing the member deletes these rows, and every request checks its key against them,
    so a removed member's devices stop at once. ``used_at`` moves at most daily (400 days of
    disuse end a key).
    """

    __tablename__ = "member_key"

    id: Mapped[int] = mapped_column(primary_key=True)
    member_id: Mapped[int] = mapped_column(ForeignKey("member.id", ondelete="CASCADE"), index=True)
    key_hash: Mapped[str] = mapped_column(String(64), unique=True)
    label: Mapped[str] = mapped_column(String(80), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    used_at: Mapped[datetime] = mapped_column(default=utcnow)


class Invite(Model):
    __table_args__ = (Index("ix_invite_club", "club_id"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int] = mapped_column(ForeignKey("club.id", ondelete="CASCADE"))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    # "member", "admin", or a device link's "device:<member id>" (ids past 999 outgrew 10).
    role: Mapped[str] = mapped_column(String(32), default="member")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)
    expires_at: Mapped[datetime | None] = mapped_column(nullable=True, default=None)
    revoked_at: Mapped[datetime | None] = mapped_column(nullable=True, default=None)


class DeviceGame(Model):
    """ "My games": a game this device created, scored or opened (kept on the server, so every
    worker and machine lists the same), by the device cookie's hash."""

    __tablename__ = "device_game"

    device_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    game_id: Mapped[str] = mapped_column(
        ForeignKey("game.id", ondelete="CASCADE"), primary_key=True, index=True
    )
    seen_at: Mapped[datetime] = mapped_column(default=utcnow)


# -- events: what a club evening stores ------------------------------------------------------
# Its settings, its players, its seating, and which game each table plays. Nothing derived is
# kept: standings come from the tables' games every time (facts in, points derived). The seating
# of every round is data, made when the event is created (so it can be printed), and re-made for
# the rounds not yet started when a player joins late or withdraws. The read side asks these
# tables where a game is played (its record's "event"), so they live here, below it.


class Event(Model):
    # The public id is unguessable, like a game's: the board is for anyone with its link.
    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    # The club whose evening it is (None only for an event made before clubs and not yet moved).
    club_id: Mapped[int | None] = mapped_column(
        ForeignKey("club.id", ondelete="CASCADE"), nullable=True, default=None, index=True
    )
    name: Mapped[str] = mapped_column(String(80))
    format: Mapped[str] = mapped_column(String(20))  # progressive | pairs | mixer
    kind: Mapped[str] = mapped_column(String(40))  # the game every table plays
    # The house rules, frozen when the event is made: every table game gets them.
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    # rounds, hands, minutes, sit_out, confirm, pairing, seed, table_size.
    settings: Mapped[dict[str, Any]] = mapped_column(JSON)
    # Entrants in the event's order: player names (progressive, mixer) or [name, name] pairs.
    entrants: Mapped[list[Any]] = mapped_column(JSON)
    # Entrant numbers withdrawn (they keep the rounds they played).
    withdrawn: Mapped[list[int]] = mapped_column(JSON, default=list)
    # Planned seating per round: {"tables": [[entrant, ...], ...], "sitting_out": [...]}.
    schedule: Mapped[list[dict[str, Any]]] = mapped_column(JSON)
    director_key_hash: Mapped[str] = mapped_column(String(64))
    # Bumped on every change of the event itself (a round started or closed, players changed).
    version: Mapped[int] = mapped_column(Integer, default=1)
    created_at: Mapped[datetime] = mapped_column(default=utcnow)

    rounds: Mapped[list[EventRound]] = relationship(
        back_populates="event", order_by="EventRound.number", cascade="all, delete-orphan", lazy="selectin"
    )


class EventRound(Model):
    """A round once started: its tables' games; ``closed_at`` when the director closed it."""

    __tablename__ = "event_round"
    __table_args__ = (UniqueConstraint("event_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    event_id: Mapped[str] = mapped_column(ForeignKey("event.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    started_at: Mapped[datetime] = mapped_column(default=utcnow)
    # The round clock: when the hand in play is the last (None: no clock).
    ends_at: Mapped[datetime | None] = mapped_column(nullable=True, default=None)
    closed_at: Mapped[datetime | None] = mapped_column(nullable=True, default=None)
    sitting_out: Mapped[list[int]] = mapped_column(JSON, default=list)

    event: Mapped[Event] = relationship(back_populates="rounds")
    tables: Mapped[list[EventTable]] = relationship(
        back_populates="round", order_by="EventTable.number", cascade="all, delete-orphan", lazy="selectin"
    )


class EventTable(Model):
    """One table of a started round: an ordinary game, and who sits where (entrant numbers)."""

    __tablename__ = "event_table"
    __table_args__ = (UniqueConstraint("round_id", "number"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    round_id: Mapped[int] = mapped_column(ForeignKey("event_round.id", ondelete="CASCADE"), index=True)
    number: Mapped[int]
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id"), unique=True)
    # Per seat, clockwise: the entrant number (pairs: the pair's number at both its seats).
    seats: Mapped[list[int]] = mapped_column(JSON)
    confirmed_by: Mapped[str | None] = mapped_column(String(40), nullable=True, default=None)

    round: Mapped[EventRound] = relationship(back_populates="tables")


class HouseChange(Model):
    """One change to a club (its members, invites, devices, players) or an event (its rounds,
    tables, players, confirmations), as the house gate recorded it: who, what, at which version.

    ``token``: the submission's idempotency token, unique: a repeated form or API call finds the
    change it made (and its ``detail``, the first answer) instead of making another.
    """

    __tablename__ = "house_change"
    __table_args__ = (Index("ix_house_change_club", "club_id"), Index("ix_house_change_event", "event_id"))

    id: Mapped[int] = mapped_column(primary_key=True)
    club_id: Mapped[int | None] = mapped_column(nullable=True, default=None)
    event_id: Mapped[str | None] = mapped_column(String(32), nullable=True, default=None)
    version: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(30))
    detail: Mapped[Any] = mapped_column(JSON, nullable=True, default=None)
    token: Mapped[str | None] = mapped_column(String(64), nullable=True, unique=True, default=None)
    by: Mapped[str] = mapped_column(String(80), default="")
    created_at: Mapped[datetime] = mapped_column(default=utcnow)


class GameHead:
    """A game's own row and its players, without its deals: what the JSON API's append and export read.

    One Core query instead of the ORM's load (which costs several times the query itself on
    every request). It reads like a :class:`Game` for the write gate and the read side;
    its deals' facts are read only when asked for. It is a snapshot: the write gate moves
    its version on as it writes, and :meth:`reread` reads it anew after a lost race.
    """

    __slots__ = (
        "id",
        "kind",
        "options",
        "first_dealer",
        "edit_key_hash",
        "version",
        "draft",
        "created_at",
        "updated_at",
        "deleted_at",
        "archived",
        "club_id",
        "_players",
        "top_position",
    )
    id: str
    kind: str
    options: dict[str, Any]
    first_dealer: int
    edit_key_hash: str
    version: int
    draft: dict[str, Any] | None
    created_at: datetime
    updated_at: datetime
    deleted_at: datetime | None
    archived: bool
    club_id: int | None
    _players: tuple[str, ...]
    top_position: int | None

    def __init__(self, rows: Sequence[dict[str, Any]]):
        first = rows[0]  # the game's columns repeat on each seat's row: read once
        read = _HEAD.readers()
        for name in self.__slots__[:-2]:
            setattr(self, name, read[name](first[name]))
        self._players = tuple(row["seat_name"] for row in rows if row["seat_name"] is not None)
        # The highest deal position ever used (None: none yet), as of this snapshot's version.
        self.top_position = max(
            (p for p in (first["top_change"], first["top_deal"]) if p is not None), default=None
        )

    @classmethod
    def load(cls, game_id: str) -> GameHead | None:
        rows = _HEAD.rows({"game_key": game_id})
        return cls(rows) if rows else None

    # The highest deal position came with the row (see ``_HEAD``), and the deals are never loaded.
    top_known: ClassVar[bool] = True
    deals_loaded: ClassVar[bool] = False

    def written(self, **values: Any) -> None:
        """The columns the write gate just stored (and the deal position it used)."""
        for name, value in values.items():
            setattr(self, name, value)

    def reread(self) -> None:
        """Read the row again (another writer took the version this one was about to write).

        Raises LookupError when the game is gone meanwhile."""
        fresh = GameHead.load(self.id)
        if fresh is None:
            raise LookupError(self.id)
        for name in self.__slots__:
            setattr(self, name, getattr(fresh, name))

    @property
    def players(self) -> list[str]:
        return list(self._players)

    @property
    def facts(self) -> list[dict[str, Any]]:
        return [row.facts for row in db.session.connection().execute(_FACTS, {"game_key": self.id})]


_GAME_TABLE, _SEAT_TABLE, _DEAL_TABLE = Game.__table__, Seat.__table__, Deal.__table__
_CHANGE_TABLE = Change.__table__
_HEAD = Prepared(
    select(
        _GAME_TABLE,
        _SEAT_TABLE.c.name.label("seat_name"),
        # What the write gate asks before an append, read in the same snapshot: the highest
        # position the history and the deals have used (a deleted deal's stays taken).
        select(func.max(_CHANGE_TABLE.c.position))
        .where(_CHANGE_TABLE.c.game_id == _GAME_TABLE.c.id)
        .scalar_subquery()
        .label("top_change"),
        select(func.max(_DEAL_TABLE.c.position))
        .where(_DEAL_TABLE.c.game_id == _GAME_TABLE.c.id)
        .scalar_subquery()
        .label("top_deal"),
    )
    .outerjoin(_SEAT_TABLE, _SEAT_TABLE.c.game_id == _GAME_TABLE.c.id)
    .where(_GAME_TABLE.c.id == bindparam("game_key"))
    .order_by(_SEAT_TABLE.c.position)
)
_FACTS = (
    select(_DEAL_TABLE.c.facts)
    .where(_DEAL_TABLE.c.game_id == bindparam("game_key"))
    .order_by(_DEAL_TABLE.c.position)
)


class AnyGame(Protocol):
    """A game as the read side and the write gate take it: the ORM's :class:`Game` (pages, every
    change) or the API's lighter :class:`GameHead` (append, export). Both are one by their shape,
    checked by the type checker; nothing asks which one it has.

    Read-only here: a change goes through the write gate, which tells the game what it stored
    (:meth:`written`). What only the ORM's game has (its deals, seats) is asked of a ``Game``.
    """

    @property
    def id(self) -> str: ...
    @property
    def kind(self) -> str: ...
    @property
    def options(self) -> dict[str, Any]: ...
    @property
    def first_dealer(self) -> int: ...
    @property
    def edit_key_hash(self) -> str: ...
    @property
    def version(self) -> int: ...
    @property
    def draft(self) -> dict[str, Any] | None: ...
    @property
    def created_at(self) -> datetime: ...
    @property
    def updated_at(self) -> datetime: ...
    @property
    def deleted_at(self) -> datetime | None: ...
    @property
    def archived(self) -> bool: ...
    @property
    def club_id(self) -> int | None: ...
    @property
    def players(self) -> list[str]: ...
    @property
    def facts(self) -> list[dict[str, Any]]: ...

    # What the write gate asks before and after it writes.
    @property
    def top_known(self) -> bool:
        """Whether the highest deal position ever used came with the game (then ``top_position``)."""
        ...

    @property
    def top_position(self) -> int | None:
        """The highest deal position the history and the deals have used (None: none), if ``top_known``."""
        ...

    @property
    def deals_loaded(self) -> bool:
        """Whether the deals are in memory (an append then adds to them, else inserts the row)."""
        ...

    def written(self, **values: Any) -> None:
        """The columns the write gate just stored: the game shows them without reading them back."""
        ...

    def reread(self) -> None:
        """After a lost race: read anew (now or when next used). LookupError: the game is gone."""
        ...


class PendingEntry(Model):
    """A pending seat entry (spec "Seat entry"): a seat's orders or allotment sent before its turn
    resolves. Facts not yet part of the game, so apart from Deal rows; only the service writes them.

    One seat's pending entry of one kind ("orders" or "allotment") for one turn."""

    __tablename__ = "pending_entry"
    # One row per seat, kind and turn: sending again replaces it.
    __table_args__ = (UniqueConstraint("game_id", "seat", "kind", "turn", name="uq_pending_entry"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    game_id: Mapped[str] = mapped_column(ForeignKey("game.id", ondelete="CASCADE"), index=True)
    seat: Mapped[int] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(16))
    turn: Mapped[int] = mapped_column(Integer)
    facts: Mapped[dict[str, Any]] = mapped_column(JSON)
    sent_at: Mapped[datetime] = mapped_column(default=utcnow)


# What a seat sends for a turn: its orders (Secrets), a PendingEntry's kind.
ORDERS = "orders"
