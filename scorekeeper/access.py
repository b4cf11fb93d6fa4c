"""Who sees and does what (clubs.md, events.md): every such decision of the house, here and
nowhere else, as named predicates (:class:`Access`) and the list queries they allow.

- A personal game (no club) is listed only to the devices that created, scored or opened it;
  a club's games, players, ratings, events and members are listed to its members only.
- Anyone with a game's link may open it (its id is unguessable); a club, its lists and its
  member pages open to its members only, and answer 404 to everyone else, like a club that
  does not exist.

The web resolves the caller's credentials once per request into a :class:`Viewer` (the device,
and the memberships its live keys prove; ``web.auth.viewer``); the lists and predicates below
take that viewer. Views and templates ask them by name (``may.run_club(club_id)``) and never
filter by ``club_id`` or compare roles themselves. Below the web: no Flask here.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import Select, false, func, select

from .models import Club, DeviceGame, Event, Game, Member, Seat, folded
from .refusals import Clash, Denied, Missing, Refusal
from .rules.base import N_

# What a caller who may not is told (403), naming the thing refused: the predicates' refusals
# below, the routes' guards (``web.auth.club_route``, the events' pages) and the services say
# these words, never a generic "you may not".
REFUSED = {
    "invites": N_("Only the club's owner and admins make and revoke invites."),
    "remove": N_("Only the club's owner and admins remove members."),
    "remove_admin": N_("Only the owner removes an admin."),
    "roles": N_("Only the club's owner and admins make or unmake admins."),
    "unmake_admin": N_("Only the owner unmakes an admin."),
    "hand_over": N_("Only the owner hands the club over."),
    "delete": N_("Only the owner deletes the club."),
    "tidy": N_("Only the club's owner and admins tidy its players list."),
    "sign_out": N_("A device is signed out by its member or by the club's owner and admins."),
    "sign_out_admin": N_("Only the owner signs out an admin's devices."),
    "start_round": N_("Only the event's director starts a round. Open the director's link on this device."),
    "close_round": N_("Only the event's director closes a round. Open the director's link on this device."),
    "confirm_table": N_(
        "Only the event's director confirms for a table. Open the director's link on this device."
    ),
    "remove_arrival": N_(
        "Only the event's director takes a player off tonight's list. Open the director's link on this device."
    ),
    "players": N_("Only the event's director changes its players. Open the director's link on this device."),
    "correct_table": N_(
        "Only the event's director corrects a table after its round. Open the director's link on this device."
    ),
}


@dataclass(frozen=True)
class Membership:
    """One club the caller belongs to, as a live key proved."""

    club_id: int
    slug: str
    club_name: str
    member_id: int
    name: str
    role: str
    key_id: int

    @property
    def admin(self) -> bool:
        return self.role in ("owner", "admin")

    @property
    def owner(self) -> bool:
        return self.role == "owner"


@dataclass(frozen=True)
class Viewer:
    """The caller: its device's hash (None: a device that never showed one) and its clubs."""

    device_hash: str | None = None
    memberships: tuple[Membership, ...] = field(default=())

    def of(self, club_id: int | None) -> Membership | None:
        """The caller's membership of this club, or None: a club it may not see at all."""
        if club_id is None:
            return None
        return next((m for m in self.memberships if m.club_id == club_id), None)

    def in_club(self, slug: str) -> Membership | None:
        return next((m for m in self.memberships if m.slug == slug), None)

    def may_correct(self, club_id: int | None) -> bool:
        """A club's owner and admins may correct or delete any game of their club."""
        return Access(self).run_club(club_id)


NOBODY = Viewer()


def my_games(viewer: Viewer, archived: bool | None = False) -> Select:
    """This device's games (created, scored or opened here), newest first; nobody else's.

    ``archived``: False leaves archived games out (the home page), None keeps them (the list).
    """
    query = select(Game).where(Game.deleted_at.is_(None))
    if viewer.device_hash is None:
        query = query.where(false())
    else:
        query = query.where(
            Game.id.in_(select(DeviceGame.game_id).where(DeviceGame.device_hash == viewer.device_hash))
        )
    if archived is not None:
        query = query.where(Game.archived.is_(archived))
    return query.order_by(Game.updated_at.desc())


def of_club(query: Select, club_id: int) -> Select:
    """``query`` (over games) kept to one club's games, deleted ones too: the one place a club's
    games are picked. For what the club derives from them (ratings, its regular players, its
    renames), asked by callers that have asked :class:`Access` already."""
    return query.where(Game.club_id == club_id)


def club_games(viewer: Viewer, club_id: int, archived: bool | None = False) -> Select:
    """A club's games for one of its members; for anyone else, nothing."""
    query = of_club(select(Game), club_id).where(Game.deleted_at.is_(None))
    if viewer.of(club_id) is None:
        query = query.where(false())
    if archived is not None:
        query = query.where(Game.archived.is_(archived))
    return query.order_by(Game.updated_at.desc())


@dataclass(frozen=True)
class Access:
    """The named predicates, for one caller (``may`` in the views and templates)."""

    viewer: Viewer
    # Whether the caller holds an event's own director key (the one its creator was given). The
    # web judges that credential once per request (it counts a wrong key against the address)
    # and hands the answer in; the rule of who directs is :meth:`direct_event`'s.
    holds_event_key: Callable[[Event], bool] = field(default=lambda _event: False, compare=False)

    @classmethod
    def acting_as(cls, member: Member, club: Club) -> Access:
        """The predicates for ``member`` as their row stands now: what the services ask inside a
        change, so that a role changed meanwhile is the one judged (the web's :class:`Viewer`
        was read when the request began)."""
        found = Membership(club.id, club.slug, club.name, member.id, member.name, member.role, 0)
        return cls(Viewer(memberships=(found,)))

    def member(self, club_id: int | None) -> Membership | None:
        """The caller's membership of this club; None: a club it may not see (404, as none)."""
        return self.viewer.of(club_id)

    def see_club(self, club_id: int | None) -> bool:
        """A club, its games, players, ratings, events and members: its members only."""
        return self.member(club_id) is not None

    def run_club(self, club_id: int | None) -> bool:
        """Invites, members' roles, the players list's tidying, correcting any of the club's
        games, directing its events: the owner and admins."""
        found = self.member(club_id)
        return found is not None and found.admin

    def own_club(self, club_id: int | None) -> bool:
        """Handing the club over, deleting it: the owner."""
        found = self.member(club_id)
        return found is not None and found.owner

    def see_devices(self, club_id: int | None, member_id: int) -> bool:
        """A member's devices: that member, and the club's admins."""
        found = self.member(club_id)
        return found is not None and (found.admin or found.member_id == member_id)

    # Each decision about one member of the club is one rule below, answering why not (a
    # :class:`Refusal` whose message names the thing refused) or None; the page's button, the
    # view and the service (clubs/service.py, judged again inside the change) all ask it.

    def removal_refused(self, club_id: int | None, member: Member) -> Refusal | None:
        """Removing ``member``: a member leaves (not the owner, who hands the club over first);
        the owner and admins remove a member; only the owner removes an admin."""
        found = self.member(club_id)
        if found is None:
            return Missing("name", N_("No such member."))
        if member.role == "owner":
            return Clash("name", N_("The owner cannot be removed: hand the club over first."))
        if found.member_id == member.id:
            return None
        if not found.admin:
            return Denied("name", REFUSED["remove"])
        if member.role == "admin" and not found.owner:
            return Denied("name", REFUSED["remove_admin"])
        return None

    def remove_member(self, club_id: int | None, member: Member) -> bool:
        return self.removal_refused(club_id, member) is None

    def role_refused(self, club_id: int | None, member: Member) -> Refusal | None:
        """Making a member an admin (the owner and admins) or unmaking an admin (the owner only,
        as removing one is: else an admin removes an admin in two steps). The owner's own role
        changes only by handing the club over."""
        found = self.member(club_id)
        if found is None:
            return Missing("name", N_("No such member."))
        if member.role == "owner":
            return Clash("name", N_("The owner stays owner until the club is handed over."))
        if not found.admin:
            return Denied("name", REFUSED["roles"])
        if member.role == "admin" and not found.owner:
            return Denied("name", REFUSED["unmake_admin"])
        return None

    def set_role(self, club_id: int | None, member: Member) -> bool:
        return self.role_refused(club_id, member) is None

    def hand_over_refused(self, club_id: int | None, member: Member) -> Refusal | None:
        """Handing the club over to another member: the owner."""
        found = self.member(club_id)
        if found is None:
            return Missing("name", N_("No such member."))
        if not found.owner:
            return Denied("name", REFUSED["hand_over"])
        if found.member_id == member.id:
            return Clash("name", N_("You own this club already: hand it over to another member."))
        return None

    def hand_over(self, club_id: int | None, member: Member) -> bool:
        return self.hand_over_refused(club_id, member) is None

    def sign_out_refused(self, club_id: int | None, member: Member) -> Refusal | None:
        """Signing out a device of ``member``: that member, and the owner and admins; but every
        device of an admin signed out would remove them, so an admin's devices (the owner's
        too) are the owner's to sign out, as removing an admin is."""
        found = self.member(club_id)
        if found is None:
            return Missing("device", N_("No such device."))
        if found.member_id == member.id or found.owner:
            return None
        if not found.admin:
            return Denied("device", REFUSED["sign_out"])
        if member.role in ("admin", "owner"):
            return Denied("device", REFUSED["sign_out_admin"])
        return None

    def sign_out(self, club_id: int | None, member: Member) -> bool:
        return self.sign_out_refused(club_id, member) is None

    def leave(self, club_id: int | None) -> bool:
        """Leaving the club: any member but its owner (who hands it over first)."""
        found = self.member(club_id)
        return found is not None and not found.owner

    def correct_game(self, game: Any) -> bool:
        """Any game of a club, corrected or deleted by its owner and admins (besides its scorers)."""
        return self.run_club(getattr(game, "club_id", None))

    def direct_event(self, event: Event) -> bool:
        """An event, directed by the club's owner and admins, and by whoever holds the key its
        creator was given (events.md)."""
        return self.run_club(event.club_id) or self.holds_event_key(event)

    def plays_in(self, event: Event) -> int | None:
        """The entrant a member of the event's club plays as: their member name among the
        event's players still in (a pair's either name), compared as clubs.md compares names;
        None for anyone else (their page shows no "where I sit")."""
        found = self.member(event.club_id)
        if found is None:
            return None
        mine = folded(found.name)
        for entrant, names in enumerate(event.entrants):
            if entrant in event.withdrawn:
                continue
            if any(folded(name) == mine for name in (names if isinstance(names, list) else [names])):
                return entrant
        return None

    def director_name(self, event: Event) -> str | None:
        """The member name a director of the club signs their corrections with."""
        found = self.member(event.club_id)
        return found.name if found is not None and found.admin else None


def club_events(viewer: Viewer, club_id: int) -> Select:
    """A club's events, newest first, for its members; for anyone else, nothing."""
    query = select(Event).where(Event.club_id == club_id)
    if viewer.of(club_id) is None:
        query = query.where(false())
    return query.order_by(Event.created_at.desc())


def club_seats(viewer: Viewer, club_id: int) -> Select:
    """The club's players as seated at its games (not deleted): name, games, last seen; for its
    members only."""
    last = func.max(Game.updated_at)
    query = (
        select(Seat.name, func.count(Seat.id), last)
        .join(Game, Game.id == Seat.game_id)
        .where(Game.club_id == club_id, Game.deleted_at.is_(None))
        .group_by(Seat.name)
    )
    if viewer.of(club_id) is None:
        query = query.where(false())
    return query
