"""The access layer's predicates (scorekeeper/access.py): each role of a club, and a stranger."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from scorekeeper.access import REFUSED, Access, Membership, Viewer


def viewer(role: str, member_id: int = 1, club_id: int = 7) -> Viewer:
    return Viewer("device", (Membership(club_id, "club", "Club", member_id, "Me", role, 1),))


def member(member_id: int, role: str):
    return SimpleNamespace(id=member_id, role=role)


@pytest.mark.parametrize(
    ("role", "see", "run", "own", "leave"),
    [
        ("owner", True, True, True, False),
        ("admin", True, True, False, True),
        ("member", True, False, False, True),
    ],
)
def test_a_clubs_roles(role, see, run, own, leave):
    may = Access(viewer(role))
    assert may.see_club(7) is see and may.run_club(7) is run and may.own_club(7) is own
    assert may.leave(7) is leave
    assert may.correct_game(SimpleNamespace(club_id=7)) is run
    assert may.direct_event(SimpleNamespace(club_id=7)) is run
    assert may.director_name(SimpleNamespace(club_id=7)) == ("Me" if run else None)
    # Nothing of another club, nor of a personal game.
    assert not may.see_club(8) and not may.run_club(8) and not may.correct_game(SimpleNamespace(club_id=None))


def test_members_and_devices():
    owner, admin, plain = Access(viewer("owner")), Access(viewer("admin")), Access(viewer("member"))
    other_admin, other_member, the_owner = member(2, "admin"), member(3, "member"), member(9, "owner")
    assert owner.remove_member(7, other_admin) and not admin.remove_member(7, other_admin)
    assert admin.remove_member(7, other_member) and not plain.remove_member(7, other_member)
    assert not owner.remove_member(7, the_owner) and plain.remove_member(7, member(1, "member"))  # leaving
    assert (
        admin.set_role(7, other_member)
        and not admin.set_role(7, the_owner)
        and not plain.set_role(7, other_member)
    )
    assert not admin.set_role(7, member(1, "admin"))  # not oneself
    # Unmaking an admin is the owner's, as removing one is (issue 56: the page offered it).
    assert owner.set_role(7, other_admin) and not admin.set_role(7, other_admin)
    assert owner.hand_over(7, other_admin) and not admin.hand_over(7, other_member)
    assert not owner.hand_over(7, member(1, "owner"))  # to oneself: nothing to hand
    assert plain.see_devices(7, 1) and not plain.see_devices(7, 3) and admin.sign_out(7, other_member)
    assert plain.sign_out(7, member(1, "member")) and not plain.sign_out(7, other_member)
    stranger = Access(Viewer())
    assert not any(
        (
            stranger.see_club(7),
            stranger.see_devices(7, 1),
            stranger.leave(7),
            stranger.remove_member(7, other_member),
        )
    )


def test_who_directs_an_event_is_the_access_layers_rule():
    """The club's owner and admins, and whoever holds the event's own key (judged by the web)."""
    event = SimpleNamespace(id="ev", club_id=7)
    assert Access(viewer("admin")).direct_event(event) and Access(viewer("owner")).direct_event(event)
    assert not Access(viewer("member")).direct_event(event)
    assert not Access(Viewer()).direct_event(event)
    assert Access(Viewer(), holds_event_key=lambda e: e.id == "ev").direct_event(event)
    assert Access(viewer("member"), holds_event_key=lambda e: True).direct_event(event)


def test_why_a_member_may_not_be_removed_or_signed_out():
    admin, owner = Access(viewer("admin")), Access(viewer("owner"))
    assert admin.removal_refused(7, member(2, "member")) is None
    assert admin.removal_refused(7, member(2, "admin")).status == 403
    assert admin.removal_refused(7, member(3, "owner")).status == 409
    assert owner.removal_refused(7, member(2, "admin")) is None
    assert admin.sign_out_refused(7, member(2, "admin")).status == 403
    assert admin.sign_out_refused(7, member(3, "owner")).status == 403
    assert admin.sign_out_refused(7, member(2, "member")) is None
    assert admin.sign_out_refused(7, member(1, "admin")) is None  # one's own devices
    assert owner.sign_out_refused(7, member(2, "admin")) is None


def test_every_refusal_names_the_thing_refused():
    """Each "no" of a club's controls has its own words (issue 56), never another's."""
    admin, plain = Access(viewer("admin")), Access(viewer("member"))
    said = {
        plain.removal_refused(7, member(2, "member")).message.text,
        admin.removal_refused(7, member(2, "admin")).message.text,
        plain.role_refused(7, member(2, "member")).message.text,
        admin.role_refused(7, member(2, "admin")).message.text,
        admin.hand_over_refused(7, member(2, "member")).message.text,
        plain.sign_out_refused(7, member(2, "member")).message.text,
        admin.sign_out_refused(7, member(2, "admin")).message.text,
    }
    assert len(said) == 7 and said <= set(REFUSED.values())


def test_a_club_route_for_admins_must_say_what_it_refuses():
    """Its 403 names the thing refused (issue 56: one said "Only the scorer's device can change
    this game"): a route for admins or the owner without words is refused when it is declared."""
    from scorekeeper.web.auth import club_route

    with pytest.raises(ValueError):
        club_route("admin")
    with pytest.raises(ValueError):
        club_route("owner")
    assert callable(club_route("admin", REFUSED["invites"])) and callable(club_route())
