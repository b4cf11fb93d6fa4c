"""Who sees what (clubs.md): the one rule, for every page, API answer and export.

- A personal game (no club) is listed only to the devices that created, scored or opened it;
  a club's games, players, ratings, events and members are listed to its members only.
- Anyone with a game's link may open it (its id is unguessable); a club, its lists and its
  member pages open to its members only, and answer 404 to everyone else, like a club that
  does not exist.

The web resolves the caller's credentials once per request into a :class:`Viewer` (the device,
and the memberships its live keys prove); the lists and checks below take that viewer, and
no view filters on its own.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from sqlalchemy import Select, false, select

from ..models import DeviceGame, Game


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
        found = self.of(club_id)
        return found is not None and found.admin


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


def club_games(viewer: Viewer, club_id: int, archived: bool | None = False) -> Select:
    """A club's games for one of its members; for anyone else, nothing."""
    query = select(Game).where(Game.deleted_at.is_(None), Game.club_id == club_id)
    if viewer.of(club_id) is None:
        query = query.where(false())
    if archived is not None:
        query = query.where(Game.archived.is_(archived))
    return query.order_by(Game.updated_at.desc())
