"""Clubs, members, invites and the devices' keys: every change to them goes through here.

Credentials are random tokens handed out once and stored as their SHA-256 only (like edit
keys): an invite's token, a member's keys (a page cookie per device, or an API ``member_key``),
and a one-time "add a device" link. A key is checked against these rows on every request, so
revoking an invite or removing a member takes effect at once.
"""

from __future__ import annotations

import re
import secrets
import unicodedata
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from flask import current_app
from sqlalchemy import delete, func, select, update

from .. import stores
from ..access import REFUSED, Access, Membership, of_club
from ..db import db
from ..keys import hash_key
from ..models import (
    Change,
    Club,
    Deal,
    DeviceGame,
    Event,
    EventRound,
    EventTable,
    Game,
    GameSummary,
    HouseChange,
    Invite,
    Member,
    MemberKey,
    PendingEntry,
    Player,
    Seat,
    folded,
    utcnow,
)
from ..refusals import Clash, Denied, Missing, Refusal
from ..rules.base import MAX_NAME, N_, UNSAFE_NAME, unsafe_name
from ..service import house_gate, new_token
from ..service.house_gate import Stale, Step

ROLES = ("owner", "admin", "member")
# A member key unused this long stops working (clubs.md: 400 days of disuse).
KEY_LIFE = timedelta(days=400)
# How often a key's last use is written: often enough for the 400 days, rarely enough for reads.
USE_STEP = timedelta(days=1)
# A one-time link to add a device of an existing member.
DEVICE_LINK_LIFE = timedelta(hours=1)
MAX_CLUB_NAME = 80
SLUG = re.compile(r"[a-z0-9][a-z0-9-]{0,39}")


def slugify(name: str) -> str:
    plain = unicodedata.normalize("NFKD", name).encode("ascii", "ignore").decode().lower()
    return re.sub(r"[^a-z0-9]+", "-", plain).strip("-")[:40] or "club"


SLUG_TAIL = "abcdefghijkmnpqrstuvwxyz23456789"  # no 0/o, 1/l: read aloud or typed from paper


def _free_slug(name: str) -> str:
    """The name's slug with a random tail (``CLUB_SLUG_TAIL``, on by default), whether or not
    another club has the name: a tail only on a second "Thursday Euchre" would tell its maker
    that the first exists (clubs.md). Off (a server whose club names are no secret): the plain
    slug, then -2, -3."""
    base = slugify(name)[:34]
    if current_app.config.get("CLUB_SLUG_TAIL", True):
        while True:
            slug = f"{base}-{''.join(secrets.choice(SLUG_TAIL) for _ in range(5))}"
            if db.session.scalar(select(Club.id).where(Club.slug == slug)) is None:
                return slug
    full = slugify(name)
    taken = set(db.session.scalars(select(Club.slug).where(Club.slug.like(f"{base}%"))))
    if full not in taken:
        return full
    n = 2
    while f"{base}-{n}" in taken:
        n += 1
    return f"{base}-{n}"


def clean_name(value: Any, field: str = "name", limit: int = MAX_NAME) -> str:
    if not isinstance(value, str) or not value.strip():
        raise Refusal(field, N_("A name is needed."))
    if unsafe_name(value.strip()):  # before the spaces are collapsed: a newline is refused, not joined
        raise Refusal(field, UNSAFE_NAME)
    name = " ".join(value.split())
    if len(name) > limit:
        raise Refusal(field, N_("A name has 1 to {max} characters."), max=limit)
    return name


def find_club(slug_or_name: str) -> Club | None:
    """A club by its slug, or (for the operator's command line) by its name, any case."""
    club = db.session.scalar(select(Club).where(Club.slug == slug_or_name.lower()))
    if club is None:
        club = db.session.scalar(select(Club).where(func.lower(Club.name) == slug_or_name.lower()))
    return club


def _issue_key(member: Member, label: str, key: str | None = None) -> str:
    key = key or new_token(24)
    db.session.add(MemberKey(member_id=member.id, key_hash=hash_key(key), label=label[:80]))
    return key


def _new_invite(
    club: Club,
    role: str = "member",
    days: int | None = None,
    member: Member | None = None,
    token: str | None = None,
) -> str:
    token = token or new_token(16)
    expires = None
    if member is not None:
        expires = utcnow() + DEVICE_LINK_LIFE
    elif days is not None:
        expires = utcnow() + timedelta(days=days)
    db.session.add(
        Invite(
            club_id=club.id,
            token_hash=hash_key(token),
            role=f"device:{member.id}" if member is not None else role,
            expires_at=expires,
        )
    )
    return token


@dataclass(frozen=True)
class Made:
    club: Club
    member: Member
    key: str
    invite: str


def create_club(name: Any, owner: Any = None, label: str = "") -> Made:
    """A new club, its owner (by the player name given, else "Owner") and a member invite, in one
    transaction. Two clubs of one name made at once get two slugs (the gate tries again when the
    slug was taken meanwhile)."""
    clean = clean_name(name, "name", MAX_CLUB_NAME)
    owner_name = clean_name(owner, "player") if owner not in (None, "") else "Owner"

    def build() -> tuple[Club, Made]:
        club = _add_club(clean)
        member = Member(club_id=club.id, name=owner_name, role="owner")
        db.session.add(member)
        db.session.flush()
        key = _issue_key(member, label)
        invite = _new_invite(club)
        return club, Made(club, member, key, invite)

    return _made(build, "create_club", owner_name)


def new_club(name: Any) -> Club:
    """A club with no member yet (the operator's command line: an admin joins by its link)."""
    clean = clean_name(name, "name", MAX_CLUB_NAME)

    def build() -> tuple[Club, Club]:
        club = _add_club(clean)
        return club, club

    return _made(build, "create_club", "operator")


def _add_club(clean: str) -> Club:
    club = Club(slug=_free_slug(clean), name=clean, version=1)
    db.session.add(club)
    db.session.flush()
    return club


def _made(build: Any, kind: str, by: str) -> Any:
    try:
        return house_gate.make(build, kind, by=by)
    except Stale:
        raise Clash(
            "name", N_("Another club was made with this name at the same moment: try again.")
        ) from None


def _change(club: Club, plan: Any, by: str = "", token: str | None = None) -> Any:
    """Every change to a club, its members, invites and devices: through the house gate.

    A change raced by another is judged again on the newer club; a refusal the second look
    finds (the name taken meanwhile, the one-time link spent) is answered as such."""
    try:
        return house_gate.change(club, plan, token=token, by=by)
    except house_gate.Gone:
        raise Missing(None, N_("No such club.")) from None
    except Stale:
        raise Clash(None, N_("The club changed at the same moment: try again.")) from None


def acting(club: Club, by: Member) -> Access:
    """The acting member's predicates (scorekeeper.access), as their row is now: asked inside a
    change's plan, so a role changed or a member removed meanwhile is what is judged."""
    current = db.session.get(Member, by.id)
    if current is None or current.club_id != club.id:
        raise Missing(None, N_("No such club."))
    return Access.acting_as(current, club)


def _name(by: Member | None) -> str:
    # No member acting: the operator's command line (the history names who did it, issue 56).
    return by.name if by is not None else "operator"


def _run_club(club: Club, by: Member | None, message: str) -> None:
    """Invites: the owner and admins (``message`` names what was refused); ``by`` None: the
    operator's command line, who may do anything to the server's clubs."""
    if by is not None and not acting(club, by).run_club(club.id):
        raise Denied(None, message)


def make_invite(club: Club, role: Any = "member", expires: Any = None, by: Member | None = None) -> str:
    if role not in ("member", "admin"):
        raise Refusal("role", N_("An invite makes a member or an admin."))
    if expires is not None and (
        isinstance(expires, bool) or not isinstance(expires, int) or not 1 <= expires <= 3650
    ):
        raise Refusal("expires", N_("An invite lasts 1 to 3650 days, or leave it out for no end."))
    token = new_token(16)

    def plan() -> Step[str]:
        _run_club(club, by, REFUSED["invites"])

        def apply() -> Any:
            _new_invite(club, role, expires, token=token)
            return {"role": role, "expires": expires}

        return Step(token, apply, "invite")

    return _change(club, plan, _name(by))


def live_invite(club: Club, token: str) -> Invite | None:
    """The invite this token opens, if it is still open (not revoked, not expired)."""
    if not token or len(token) > 64:
        return None
    invite = db.session.scalar(
        select(Invite).where(Invite.club_id == club.id, Invite.token_hash == hash_key(token))
    )
    if invite is None or invite.revoked_at is not None:
        return None
    if invite.expires_at is not None and invite.expires_at <= utcnow():
        return None
    return invite


def revoke_invite(club: Club, token: str, by: Member | None = None) -> None:
    def plan() -> Step[None]:
        _run_club(club, by, REFUSED["invites"])
        invite = live_invite(club, token)
        if invite is None:
            raise Missing("invite", N_("No such invite."))
        return Step(None, lambda: _spend(invite), "revoke_invite")

    _change(club, plan, _name(by))


def _spend(invite: Invite) -> dict[str, Any]:
    """Revoke an invite, or spend a one-time link, by a conditional UPDATE: of two uses at once,
    one finds it open; the other's whole change is refused (404, as any closed invite)."""
    spent = house_gate.rows_changed(
        update(Invite).where(Invite.id == invite.id, Invite.revoked_at.is_(None)).values(revoked_at=utcnow())
    )
    if spent != 1:
        raise Missing("invite", N_("This invite is not valid (wrong, revoked or expired)."))
    return {"invite": invite.id}


def open_invites(club: Club) -> list[Invite]:
    now = utcnow()
    return list(
        db.session.scalars(
            select(Invite)
            .where(
                Invite.club_id == club.id,
                Invite.revoked_at.is_(None),
                Invite.role.in_(("member", "admin")),
                (Invite.expires_at.is_(None)) | (Invite.expires_at > now),
            )
            .order_by(Invite.id)
        )
    )


def revoke_invite_by_id(club: Club, invite_id: int, by: Member | None = None) -> None:
    def plan() -> Step[None]:
        _run_club(club, by, REFUSED["invites"])
        invite = db.session.get(Invite, invite_id)
        if invite is None or invite.club_id != club.id or invite.revoked_at is not None:
            raise Missing("invite", N_("No such invite."))
        return Step(None, lambda: _spend(invite), "revoke_invite")

    _change(club, plan, _name(by))


def members(club: Club) -> list[Member]:
    order = {role: n for n, role in enumerate(ROLES)}
    rows = db.session.scalars(select(Member).where(Member.club_id == club.id)).all()
    return sorted(rows, key=lambda m: (order.get(m.role, 9), m.name.casefold()))


def member_named(club: Club, name: str) -> Member | None:
    return db.session.scalar(select(Member).where(Member.club_id == club.id, Member.name == name))


def member_folded(club: Club, name: str) -> Member | None:
    """The member whose name is ``name`` once case and compatibility forms are folded."""
    return db.session.scalar(select(Member).where(Member.club_id == club.id, Member.folded == folded(name)))


def players(club: Club) -> list[str]:
    """The club's players: everyone seated at one of its games, and the kept list."""
    seated = db.session.scalars(
        of_club(select(Seat.name).distinct().join(Game, Game.id == Seat.game_id), club.id)
    )
    kept = db.session.scalars(select(Player.name).where(Player.club_id == club.id))
    return sorted(set(seated) | set(kept), key=str.casefold)


def free_players(club: Club) -> list[str]:
    """The players a newcomer may pick: the club's players no member has taken yet."""
    taken = {m.folded for m in members(club)}
    return [name for name in players(club) if folded(name) not in taken]


def join(club: Club, token: Any, name: Any, label: str = "") -> tuple[Member, str]:
    """A device joins by an invite: as the player it picks (not yet taken) or a new name.

    A one-time device link (:func:`device_link`) instead signs this device in as its member,
    once: the link is spent by a conditional update, so four uses at once give one key.
    Refused with 404 for any invite that is not open (wrong, revoked, expired): existence is
    not revealed. Two joins with one name (folded: Zoe, zoe, ZOE) make one member: the folded
    name is unique in the database, and the loser, judged again, is told the name is taken.
    """
    raw = token if isinstance(token, str) else ""

    def plan() -> Step[tuple[Member, str]]:
        invite = live_invite(club, raw)
        if invite is None:
            raise Missing("invite", N_("This invite is not valid (wrong, revoked or expired)."))
        key = new_token(24)
        if invite.role.startswith("device:"):
            member = db.session.get(Member, int(invite.role.split(":", 1)[1]))
            if member is None or member.club_id != club.id:
                raise Missing("invite", N_("This invite is not valid (wrong, revoked or expired)."))
            found = member

            def apply_device() -> Any:
                _spend(invite)
                _issue_key(found, label, key)
                return {"device": found.name}

            return Step((found, key), apply_device, "device_join")
        clean = clean_name(name)
        if member_folded(club, clean) is not None:
            raise Clash(
                "name",
                N_(
                    "{name} is a member already. On a new phone of theirs, use “Add a device” on their club page."
                ),
                name=clean,
            )
        member = Member(club_id=club.id, name=clean, role=invite.role)

        def apply_join() -> Any:
            db.session.add(member)
            db.session.flush()
            _issue_key(member, label, key)
            return {"member": member.name, "role": member.role}

        return Step((member, key), apply_join, "join")

    return _change(club, plan, clean_or(name))


def clean_or(name: Any) -> str:
    return name.strip()[:40] if isinstance(name, str) else ""


def device_link(member: Member) -> str:
    """A one-time invite that signs one more device in as ``member`` (an hour to use it)."""
    club = db.session.get(Club, member.club_id)
    assert club is not None
    token = new_token(16)

    def plan() -> Step[str]:
        def apply() -> Any:
            _new_invite(club, member=member, token=token)
            return {"member": member.name}

        return Step(token, apply, "device_link")

    return _change(club, plan, member.name)


def remove_member(club: Club, name: str, by: Member) -> None:
    """Remove a member (or ``by`` leaves), as :meth:`Access.removal_refused` says: their keys go
    with them, so their devices stop at once."""

    def plan() -> Step[None]:
        member = member_named(club, name)
        if member is None:
            raise Missing("name", N_("No such member."))
        refused = acting(club, by).removal_refused(club.id, member)
        if refused is not None:
            raise refused

        def apply() -> Any:
            db.session.execute(delete(MemberKey).where(MemberKey.member_id == member.id))
            db.session.delete(member)
            return {"member": name}

        return Step(None, apply, "remove_member")

    _change(club, plan, by.name)


def set_role(club: Club, name: str, role: str, by: Member) -> None:
    """Make or unmake an admin, as :meth:`Access.role_refused` says (the owner unmakes admins)."""
    if role not in ("admin", "member"):
        raise Refusal("role", N_("A member is an admin or a member."))

    def plan() -> Step[None]:
        member = member_named(club, name)
        if member is None:
            raise Missing("name", N_("No such member."))
        refused = acting(club, by).role_refused(club.id, member)
        if refused is not None:
            raise refused

        def apply() -> Any:
            member.role = role
            return {"member": name, "role": role}

        return Step(None, apply, "role")

    _change(club, plan, by.name)


def hand_over(club: Club, owner: Member, name: str) -> None:
    def plan() -> Step[None]:
        member = member_named(club, name)
        if member is None:
            raise Missing("name", N_("No such member."))
        refused = acting(club, owner).hand_over_refused(club.id, member)
        if refused is not None:
            raise refused
        current = db.session.get(Member, owner.id)
        assert current is not None  # acting() found it

        def apply() -> Any:
            member.role, current.role = "owner", "admin"
            return {"member": name}

        return Step(None, apply, "hand_over")

    _change(club, plan, owner.name)


def keys_of(member: Member) -> list[MemberKey]:
    return list(
        db.session.scalars(select(MemberKey).where(MemberKey.member_id == member.id).order_by(MemberKey.id))
    )


def sign_out(member: Member, key_id: int, by: Member) -> None:
    """Sign one of ``member``'s devices out, by ``by`` as :meth:`Access.sign_out_refused` says."""
    club = db.session.get(Club, member.club_id)
    if club is None:
        raise Missing("device", N_("No such device."))

    def plan() -> Step[None]:
        row = db.session.get(MemberKey, key_id)
        if row is None or row.member_id != member.id:
            raise Missing("device", N_("No such device."))
        refused = acting(club, by).sign_out_refused(club.id, member)
        if refused is not None:
            raise refused

        def apply() -> Any:
            db.session.execute(delete(MemberKey).where(MemberKey.id == key_id))
            return {"member": member.name}

        return Step(None, apply, "sign_out")

    _change(club, plan, by.name)


def memberships(keys: list[str]) -> list[Membership]:
    """The clubs these keys (a device's cookie, or an API key) are live members of, in one query.

    A key left unused for :data:`KEY_LIFE` is dead. Each live key's last use is written at most
    daily, so reading stays a read.
    """
    hashes = [hash_key(k) for k in keys if k and len(k) <= 64][:200]
    if not hashes:
        return []
    now = utcnow()
    rows = db.session.execute(
        select(MemberKey, Member, Club)
        .join(Member, Member.id == MemberKey.member_id)
        .join(Club, Club.id == Member.club_id)
        .where(MemberKey.key_hash.in_(hashes), MemberKey.used_at > now - KEY_LIFE)
        .order_by(Club.name)
    ).all()
    stale = [key.id for key, _m, _c in rows if key.used_at < now - USE_STEP]
    if stale:
        house_gate.keep(
            lambda: db.session.execute(
                update(MemberKey)
                .where(MemberKey.id.in_(stale))
                .values(used_at=now)
                .execution_options(synchronize_session=False)
            )
        )
    return [Membership(c.id, c.slug, c.name, m.id, m.name, m.role, k.id) for k, m, c in rows]


# -- devices' games ------------------------------------------------------------------------


def device_hash(device_id: str) -> str:
    return hash_key(f"device:{device_id}")


# (device, game) pairs this process has written: a device that looks again costs no query.
DEVICE_GAMES = stores.store("device_games", 20_000, doc="devices' games already listed")


def remember_game(device_id: str | None, game_id: str) -> None:
    """List ``game_id`` under this device's "My games" (created, scored or opened here).

    A device that looks again costs no query: each process remembers the pairs it has written.
    """
    if not device_id:
        return
    found = device_hash(device_id)
    written = DEVICE_GAMES()
    if written.get((found, game_id)):
        return
    written.put((found, game_id), True)
    row = db.session.get(DeviceGame, (found, game_id))
    if row is None:
        # The same device opening the game twice at once: one row is enough.
        house_gate.keep(lambda: db.session.add(DeviceGame(device_hash=found, game_id=game_id)))


# -- deleting a club ----------------------------------------------------------------------------


def delete_club(club: Club, by: Member | None = None) -> dict[str, int]:
    """Delete a club and everything that is only its: games, events, players, members, invites,
    and its history (one row stays: that it was deleted), in one transaction.

    Row by row rather than by the database's cascades, which SQLite leaves off.
    """

    def plan() -> Step[dict[str, int]]:
        if by is not None and not acting(club, by).own_club(club.id):
            raise Denied(None, REFUSED["delete"])
        game_ids = list(db.session.scalars(of_club(select(Game.id), club.id)))
        event_ids = list(db.session.scalars(select(Event.id).where(Event.club_id == club.id)))
        players_gone = len(db.session.scalars(select(Player.id).where(Player.club_id == club.id)).all())
        counts = {"games": len(game_ids), "events": len(event_ids), "players": players_gone}

        def apply() -> Any:
            round_ids = select(EventRound.id).where(EventRound.event_id.in_(event_ids))
            db.session.execute(delete(EventTable).where(EventTable.round_id.in_(round_ids)))
            db.session.execute(delete(EventRound).where(EventRound.event_id.in_(event_ids)))
            db.session.execute(delete(Event).where(Event.id.in_(event_ids)))
            for start in range(0, len(game_ids), 500):
                chunk = game_ids[start : start + 500]
                db.session.execute(delete(EventTable).where(EventTable.game_id.in_(chunk)))
                for table in (Change, GameSummary, PendingEntry, DeviceGame, Deal, Seat):
                    db.session.execute(delete(table).where(table.game_id.in_(chunk)))
                db.session.execute(delete(Game).where(Game.id.in_(chunk)))
            member_ids = select(Member.id).where(Member.club_id == club.id)
            db.session.execute(delete(MemberKey).where(MemberKey.member_id.in_(member_ids)))
            db.session.execute(delete(Member).where(Member.club_id == club.id))
            db.session.execute(delete(Invite).where(Invite.club_id == club.id))
            db.session.execute(delete(Player).where(Player.club_id == club.id))
            db.session.execute(delete(HouseChange).where(HouseChange.club_id == club.id))
            db.session.delete(club)
            return counts

        return Step(counts, apply, "delete_club")

    return _change(club, plan, _name(by))


def club_of(game_club_id: int | None) -> Club | None:
    return db.session.get(Club, game_club_id) if game_club_id is not None else None


def when(value: datetime | None) -> str | None:
    return value.isoformat(timespec="seconds") + "Z" if value is not None else None
