"""Deleting a club while its event is being changed (issue 57, N7): every request ends in its
answer or a 404/409, never a 500, and the club is gone with all its rows."""

from __future__ import annotations

from sqlalchemy import func, select

from scorekeeper.db import db
from scorekeeper.events import rounds
from scorekeeper.models import Club, Event, EventRound, Game, Member
from scorekeeper.refusals import Missing
from tests.races.test_house_races import (  # noqa: F401
    bearer,
    count,
    joins_at_once,
    new_club,
    new_event,
    served,
)
from tests.scenes import euchre_evening
from tests.web.test_table_concurrency import all_at_once, call

ROUNDS = 7


def delete_club(port, club):
    cookie = {"Cookie": f"member={club['member_key']}"}
    form = {"confirmed": "yes", "confirm": "Thursday Euchre"}
    return call(port, "POST", f"/c/{club['slug']}/delete", form, cookie, form=True)


def tasks(port, club, doc, attempt):
    """The event's changes and reads, with the club's delete among them (at another place each
    attempt)."""
    key = bearer(doc["director_key"])
    owner = {"Cookie": f"member={club['member_key']}"}
    path = f"/api/events/{doc['id']}"
    made = [
        lambda: call(port, "POST", f"{path}/rounds", {}, key),
        lambda: call(port, "POST", f"{path}/players", {"add": ["Newcomer"]}, key),
        lambda: call(port, "POST", f"{path}/rounds", {"close": True}, key),
        lambda: call(port, "GET", path, None, key),
        # The owner directs from the pages too (a member of the club: its cookie).
        lambda: call(port, "POST", f"/e/{doc['id']}/players", {"add": "Page newcomer"}, owner, form=True),
        lambda: call(port, "POST", f"/e/{doc['id']}/rounds", {"close": "y"}, owner, form=True),
    ]
    made.insert(attempt % (len(made) + 1), lambda: delete_club(port, club))
    return made


def test_a_club_deleted_while_its_event_changes_answers_404_or_409_never_500(served):  # noqa: F811
    app, port = served
    for attempt in range(ROUNDS):
        club = new_club(port)
        doc = new_event(port, club)
        results = all_at_once(tasks(port, club, doc, attempt))
        found = [status for status, _h, _b in results]
        assert 500 not in found, [(s, str(b)[:80]) for s, _h, b in results if s == 500]
        assert all(s in (200, 201, 204, 303, 403, 404, 409) for s in found), found
        assert count(app, select(func.count(Club.id)).where(Club.slug == club["slug"])) == 0
        assert count(app, select(func.count(Event.id)).where(Event.id == doc["id"])) == 0
    assert count(app, select(func.count(EventRound.id))) == 0
    assert count(app, select(func.count(Game.id))) == 0


def test_a_change_to_an_event_whose_club_went_meanwhile_is_missing(app, client):
    """The deterministic half: the event read, then its club deleted by another request, then
    the change: the gate finds it gone and answers 404 (Missing), not a LookupError."""
    made = client.post("/api/clubs", json={"name": "Thursday Euchre", "player": "Olga"}).json
    doc = client.post(
        "/api/clubs/thursday-euchre/events",
        json=euchre_evening(["A", "B", "C", "D"], "Night", hands=1),
        headers=bearer(made["member_key"]),
    ).json
    with app.app_context():
        event = db.session.get(Event, doc["id"])
        assert event.version == 1
        other = app.test_client()
        other.set_cookie("member", made["member_key"])
        gone = other.post(
            "/c/thursday-euchre/delete", data={"confirmed": "yes", "confirm": "Thursday Euchre"}
        )
        assert gone.status_code == 303
        for change in (
            lambda: rounds.change_players(event, ["Eve"], []),
            lambda: rounds.start_round(event),
        ):
            try:
                change()
            except Missing as exc:
                assert exc.status == 404
            else:  # pragma: no cover - the assertion says what happened instead
                raise AssertionError("a change to a deleted event went through")


def test_joins_at_once_as_names_that_look_the_same_make_one_member(served):  # noqa: F811
    """Issue 57, P15, raced: the look-alike rule is the database's unique folded name, so six
    joins at once as "Own", a Cyrillic "Оwn", "0wn" and "OWN" make one member."""
    app, port = served
    club = new_club(port)
    names = ["Own", "Оwn", "0wn", "OWN", "Оwn", "own"]
    results = joins_at_once(port, club, names)
    assert sorted(s for s, _h, _b in results) == [201] + [409] * 5
    assert count(app, select(func.count(Member.id))) == 2  # the owner and one of them
