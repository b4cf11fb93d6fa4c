"""A club's season through its page, its JSON and its CSV (events.md, Season): finished events
only, season points by place, best-N, members only, formula-safe CSV cells."""

from __future__ import annotations

import csv
import io
from datetime import datetime

import pytest

from scorekeeper.db import db
from scorekeeper.models import Event, utcnow
from tests.clubs.helpers import as_member, bearer

MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
YEAR = utcnow().year


def play_event(client, key, body, hands_made=True):
    """Make an event of one round, start it and, with ``hands_made``, play its one hand (seats 0+2
    make it): the event is then finished. Returns the document."""
    made = client.post(
        "/api/clubs/the-lodge/events", json={"rounds": 1, "hands": 1, **body}, headers=bearer(key)
    )
    assert made.status_code == 201, made.json
    doc = made.json
    rnd = client.post(f"/api/events/{doc['id']}/rounds", json={}, headers=bearer(doc["director_key"])).json
    if hands_made:
        for table in rnd["tables"]:
            r = client.post(
                f"/api/games/{table['game']}/deals", json=MADE_02, headers=bearer(table["edit_key"])
            )
            assert r.status_code == 201
    return client.get(f"/api/events/{doc['id']}").json, rnd


def move(app, event_id, when: datetime):
    """The event played on another day (its first round started then)."""
    with app.app_context():
        event = db.session.get(Event, event_id)
        event.rounds[0].started_at = when
        db.session.commit()


@pytest.fixture
def season(app, client, club):
    """Two finished euchre events this year, one unfinished, one last year, one of another game."""
    night, night_round = play_event(
        client,
        club["member"],
        {"name": "Night", "format": "progressive", "game": "euchre", "players": ["Ann", "Bob", "Cy", "=cmd"]},
    )
    move(app, night["id"], datetime(YEAR, 1, 5, 20))
    cup, _ = play_event(
        client,
        club["member"],
        {"name": "Cup", "format": "pairs", "game": "euchre", "pairs": [["Ann", "Eve"], ["Bob", "Fay"]]},
    )
    move(app, cup["id"], datetime(YEAR, 1, 12, 20))
    open_night, _ = play_event(
        client,
        club["member"],
        {"name": "Open", "format": "progressive", "game": "euchre", "players": ["Ann", "Bob", "Cy", "Di"]},
        hands_made=False,
    )
    move(app, open_night["id"], datetime(YEAR, 1, 19, 20))
    old, _ = play_event(
        client,
        club["member"],
        {"name": "Old", "format": "progressive", "game": "euchre", "players": ["Ann", "Bob", "Cy", "Di"]},
    )
    move(app, old["id"], datetime(YEAR - 1, 6, 1, 20))
    spades, _ = play_event(
        client,
        club["member"],
        {
            "name": "Spades",
            "format": "mixer",
            "game": "tally",
            "players": ["Ann", "Bob", "Cy", "Di"],
            "hands": None,
        },
        hands_made=False,
    )
    return {"night": night, "seats": night_round["tables"][0]["seats"], "cup": cup, "open": open_night}


def test_the_document_says_when_an_event_is_finished(season):
    assert season["night"]["finished"] is True and season["cup"]["finished"] is True
    assert season["open"]["finished"] is False


def test_the_season_api_ranks_by_season_points_then_events_played(client, club, season):
    answer = client.get(
        f"/api/clubs/the-lodge/season?game=euchre&from={YEAR}-01-01&to={YEAR}-12-31",
        headers=bearer(club["member"]),
    )
    assert answer.status_code == 200, answer.json
    doc = answer.json
    assert doc["game"] == "euchre" and doc["from"] == f"{YEAR}-01-01" and doc["to"] == f"{YEAR}-12-31"
    assert [(e["name"], e["date"]) for e in doc["events"]] == [
        ("Night", f"{YEAR}-01-05"),
        ("Cup", f"{YEAR}-01-12"),
    ]
    # Night: seats 0+2 made the hand: a shared first of four (4+3)/2 = 3.5, the others 1.5.
    # Cup: two pairs; Ann & Eve (seats 0+2) won: 2 each, Bob & Fay 1 each.
    seats = season["seats"]
    night = {seats[0]: 3.5, seats[2]: 3.5, seats[1]: 1.5, seats[3]: 1.5}
    cup = {"Ann": 2, "Eve": 2, "Bob": 1, "Fay": 1}
    expected = {n: (night.get(n), cup.get(n)) for n in {*night, *cup}}
    got = {s["name"]: s for s in doc["standings"]}
    assert set(got) == set(expected)
    for name, (a, b) in expected.items():
        assert got[name]["by_event"] == [a, b]
        assert got[name]["points"] == (a or 0) + (b or 0)
        assert got[name]["events"] == (a is not None) + (b is not None)
    points = [(s["points"], s["events"]) for s in doc["standings"]]
    assert points == sorted(points, reverse=True)
    assert doc["standings"][0]["rank"] == 1
    # Best 1: each player's best event only.
    best = client.get("/api/clubs/the-lodge/season?game=euchre&best=1", headers=bearer(club["member"])).json
    assert {s["name"]: s["points"] for s in best["standings"]} == {
        n: max(v for v in pair if v is not None) for n, pair in expected.items()
    }
    # Last year's evening only in last year's season.
    old = client.get(
        f"/api/clubs/the-lodge/season?game=euchre&from={YEAR - 1}-01-01&to={YEAR - 1}-12-31",
        headers=bearer(club["member"]),
    ).json
    assert [e["name"] for e in old["events"]] == ["Old"]


def test_ties_are_explained_in_the_answer(client, club, season):
    doc = client.get("/api/clubs/the-lodge/season?game=euchre", headers=bearer(club["member"])).json
    for upper, lower in zip(doc["standings"], doc["standings"][1:], strict=False):
        if upper["points"] == lower["points"]:
            assert upper["tiebreak"] and lower["tiebreak"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("game=chess", "game"),
        ("from=yesterday", "from"),
        ("from=2026-05-01&to=2026-04-01", "to"),
        ("best=0", "best"),
        ("best=two", "best"),
    ],
)
def test_a_bad_query_is_refused_by_field(client, club, query, field):
    answer = client.get(f"/api/clubs/the-lodge/season?{query}", headers=bearer(club["member"]))
    assert answer.status_code == 422
    assert [e["field"] for e in answer.json["errors"]] == [field]
    page = as_member(client.application, club["member"]).get(f"/c/the-lodge/season?{query}")
    assert page.status_code == 422 and f'id="season-{field}-error"' in page.get_data(as_text=True)


@pytest.mark.parametrize("who", ["stranger", "other club"])
def test_only_members_see_the_season(app, client, club, season, who):
    key = club["other club"] if who == "other club" else None
    headers = bearer(key) if key else {}
    assert client.get("/api/clubs/the-lodge/season", headers=headers).status_code == 404
    browser = as_member(app, key) if key else app.test_client()
    assert browser.get("/c/the-lodge/season").status_code == 404
    assert browser.get("/c/the-lodge/season.csv").status_code == 404


def test_the_page_and_the_csv(app, client, club, season):
    member = as_member(app, club["member"])
    page = member.get("/c/the-lodge/season?game=euchre")
    html = page.get_data(as_text=True)
    assert page.status_code == 200 and "Night" in html and "Cup" in html and "Open" not in html
    assert "=cmd" in html
    assert "/c/the-lodge/season" in member.get("/c/the-lodge").get_data(as_text=True)
    answer = member.get("/c/the-lodge/season.csv?game=euchre")
    assert answer.status_code == 200 and answer.mimetype == "text/csv"
    rows = list(csv.reader(io.StringIO(answer.get_data(as_text=True).lstrip("\ufeff"))))
    assert rows[0][:4] == ["Rank", "Name", "Points", "Events played"]
    assert rows[0][4:6] == [f"Night ({YEAR}-01-05)", f"Cup ({YEAR}-01-12)"]
    names = [r[1] for r in rows[1:]]
    assert "'=cmd" in names and "=cmd" not in names  # a formula is shown as text
    api = client.get("/api/clubs/the-lodge/season?game=euchre", headers=bearer(club["member"])).json
    assert [r[1].lstrip("'") for r in rows[1:]] == [s["name"] for s in api["standings"]]
