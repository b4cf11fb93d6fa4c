"""A device link names its member by id in the invite's role ("device:<id>"): a member numbered
past 999 still gets one (the column held 10 characters, and PostgreSQL refused the 11th)."""

from __future__ import annotations

from sqlalchemy import select

from scorekeeper.clubs import service
from scorekeeper.db import db
from scorekeeper.models import Invite, Member
from tests.conftest import new_club


def test_a_device_link_for_a_member_numbered_past_999(app, client):
    new_club(client, "The Lodge", "Olga")
    with app.app_context():
        owner = db.session.scalar(select(Member).where(Member.name == "Olga"))
        # A server's thousandth member, as a long-lived PostgreSQL sequence numbers it (a row of
        # its own is not needed: the link names the member by id only).
        far = Member(id=123456, club_id=owner.club_id, name=owner.name)
        token = service.device_link(far)
        assert token
        roles = db.session.scalars(select(Invite.role).where(Invite.club_id == owner.club_id)).all()
        assert "device:123456" in roles
