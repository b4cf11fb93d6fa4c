"""Event formats are plug-ins (scorekeeper/events/formats): the registry is all the house asks."""

from __future__ import annotations

from scorekeeper.events import formats
from scorekeeper.events.formats.base import Column
from scorekeeper.events.formats.progressive import Progressive
from scorekeeper.games import event_traits
from scorekeeper.rules import N_
from tests.clubs.helpers import bearer, new_club


class Whist(Progressive):
    """A format made in one class: progressive seating, its own title and its own column."""

    key = "whist_drive"
    label = N_("Whist drive")

    def title(self, pairing):
        return "Whist drive"

    def columns(self, pairing):
        return [Column("points", N_("Points"), True)]


def test_every_registered_format_plans_titles_and_names_its_columns():
    for key, fmt in formats.FORMATS.items():
        assert fmt.key == key and fmt.label and fmt.title(None)
        assert fmt.columns(None) and all(c.key and c.header for c in fmt.columns(None))
    assert set(formats.FORMATS) >= {"progressive", "pairs", "mixer"}
    # A game's event traits live with the game.
    assert event_traits("euchre").lone_hands is not None and event_traits("euchre").default_hands == 8
    assert event_traits("spades").partnership_options == {"mode": "partnership"}
    assert not event_traits("secret_agent").partnership


def test_a_new_format_is_one_class_in_the_registry(app, client, monkeypatch):
    monkeypatch.setitem(formats.FORMATS, "whist_drive", Whist())
    club = new_club(client, "Drive Club")
    made = client.post(
        f"/api/clubs/{club['slug']}/events",
        json={
            "name": "Drive",
            "format": "whist_drive",
            "game": "euchre",
            "players": list("ABCDEFGH"),
            "hands": 1,
        },
        headers=bearer(club["member_key"]),
    )
    assert made.status_code == 201, made.json
    event = made.json
    assert event["format"] == "whist_drive" and len(event["rounds"][0]["tables"]) == 2
    started = client.post(f"/api/events/{event['id']}/rounds", json={}, headers=bearer(event["director_key"]))
    assert started.status_code == 201
    page = client.get(f"/e/{event['id']}").get_data(as_text=True)
    assert "Whist drive" in page and "Loners" not in page
    assert (
        client.get(f"/e/{event['id']}/results.csv")
        .get_data(as_text=True)
        .startswith("rank,name,points,round 1")
    )
