"""A game nobody has yet, "High Card", made as a folder in a temporary directory and registered
with one line (tests/plugin_game/high_card.py), shows up everywhere a real game does: the new-game
page, its set-up, entry, the game page, ``/help`` in three languages, export and import, the
record schema and the served API description, the folder guard, ratings. Nothing of it is
written outside its folder.

Seats: Ann 0, Bob 1, Cid 2.
"""

from __future__ import annotations

import dataclasses
import json
from datetime import UTC, datetime

import pytest
from jsonschema import Draft202012Validator

from scorekeeper import create_app, games, plugins
from scorekeeper.clubs.ratings import match_from
from scorekeeper.events import service as events
from scorekeeper.games import schema
from scorekeeper.paths import site_folder
from scorekeeper.rules import check_setup, play
from tests.conftest import app_config, emptied
from tests.plugin_game import high_card
from tests.web.pages import errors_in

PLAYERS = ["Ann", "Bob", "Cid"]


@pytest.fixture
def registered(tmp_path):
    with high_card.installed(tmp_path / "plugins") as folder:
        yield folder


@pytest.fixture
def app(registered, database_url, tmp_path):
    # The app is made after the game is registered, as a server starts with its registry.
    app = create_app(app_config(database_url, PDF_FOLDER=str(tmp_path / "pdf")))
    yield app
    emptied(app)


@pytest.fixture
def client(app):
    return app.test_client()


def test_its_folder_is_whole_and_the_registry_knows_it(registered):
    assert registered.missing() == []
    assert games.GAMES["high_card"] is registered.rules
    assert plugins.get("high_card").entry_form.__module__ == "high_card.form"
    assert not games.event_traits("high_card").partnership  # it says nothing: mixers only


def test_it_is_offered_set_up_played_to_its_target_and_shown(client):
    assert 'href="/new/high_card"' in client.get("/new").get_data(as_text=True)
    setup = client.get("/new/high_card")
    assert setup.status_code == 200 and 'name="opt_target"' in setup.get_data(as_text=True)
    data = {f"players_{s}": name for s, name in enumerate(PLAYERS)} | {"first_dealer": "0", "opt_target": "2"}
    made = client.post("/new/high_card", data=data)
    assert made.status_code == 303, errors_in(made.get_data(as_text=True))
    path = made.headers["Location"]
    page = client.get(path).get_data(as_text=True)
    assert "Highest card" in page and 'name="high"' in page
    # A deal with no one named is refused by its rules, by name; nothing is recorded.
    refused = client.post(f"{path}/deals", data={})
    assert refused.status_code == 422
    assert "Name the player who turned the highest card." in refused.get_data(as_text=True)
    for seat in (2, 0, 2):
        assert client.post(f"{path}/deals", data={"high": str(seat)}).status_code == 303
    record = client.get(f"/api{path.replace('/g/', '/games/')}").get_json()
    assert record["deals"] == [{"high": 2}, {"high": 0}, {"high": 2}]
    assert record["totals"] == [1, 0, 2] and record["finished"] and record["winners"] == [2]
    assert "Cid" in client.get(path).get_data(as_text=True)
    # Its live region, as a phone following the game polls it.
    live = client.get(f"{path}/live?part=live")
    assert live.status_code == 200 and "Cid" in live.get_data(as_text=True)


def test_its_help_is_listed_and_shown_in_each_language(client):
    assert 'href="/help/high_card"' in client.get("/help").get_data(as_text=True)
    for lang, sentence in {
        "en": "the highest card scores one point",
        "pl": "najwyższa karta daje jeden punkt",
        "pt": "a carta mais alta ganha um ponto",
    }.items():
        client.set_cookie("lang", lang)
        page = client.get("/help/high_card")
        assert page.status_code == 200 and sentence in page.get_data(as_text=True)


def test_its_example_imports_exports_and_imports_again(client, registered):
    example = high_card.EXAMPLE
    made = client.post("/api/games", json=example)
    assert made.status_code == 201, made.get_json()
    exported = client.get(f"/g/{made.get_json()['id']}/record.json").get_json()
    assert exported["game"] == "high_card" and exported["totals"] == [1, 0, 1]
    again = client.post("/api/games", json={k: exported[k] for k in ("game", "options", "players", "deals")})
    assert again.status_code == 201 and again.get_json()["totals"] == exported["totals"]
    # Its rules refuse a deal of no seat, through the API too, in the errors' shape.
    bad = client.post("/api/games", json={**example, "deals": [{"high": 7}]})
    assert bad.status_code == 422 and bad.get_json()["errors"]


def test_its_schema_fragment_joins_the_record_schema(registered):
    whole = schema.assemble(games.FOLDERS.values())
    assert "high_card" in whole["$defs"]["GameKind"]["enum"] and "HighCardDeal" in whole["$defs"]
    validator = Draft202012Validator({**whole, "$ref": "#/$defs/GameRecord"})
    assert not list(validator.iter_errors(high_card.EXAMPLE))
    assert list(validator.iter_errors({**high_card.EXAMPLE, "deals": [{"high": 0, "low": 1}]}))


def test_the_served_api_description_knows_it_the_file_keeps_the_built_in_games(client):
    # /api/openapi.json is made from the registry of the moment: the game registered at run time
    # is a kind, its options are described as its rules check them, its deal is a schema.
    served = client.get("/api/openapi.json")
    assert served.status_code == 200
    schemas = served.get_json()["components"]["schemas"]
    assert "high_card" in schemas["GameKind"]["enum"] and "HighCardDeal" in schemas
    assert schemas["HighCardOptions"]["properties"]["target"] == {
        "type": "integer", "minimum": 1, "maximum": 50, "default": 5
    }  # fmt: skip
    # A record of it validates against the served description's record schema.
    record = {"$defs": {}, **{k: v for k, v in schemas.items()}}
    text = json.dumps(record).replace("#/components/schemas/", "#/$defs/")
    whole = {"$defs": json.loads(text), "$ref": "#/$defs/GameRecord"}
    assert not list(Draft202012Validator(whole).iter_errors(high_card.EXAMPLE))
    # docs/openapi.json remains the description of the built-in games (python -m
    # scorekeeper.web.api.describe writes it; tests/docs holds it to the code).
    written = json.loads((site_folder("docs") / "openapi.json").read_text(encoding="utf-8"))
    assert "high_card" not in written["components"]["schemas"]["GameKind"]["enum"]
    assert "HighCardDeal" not in written["components"]["schemas"]


def test_its_finished_games_count_in_ratings(registered):
    _, setup = check_setup(registered.rules, PLAYERS, {"target": 2}, 0)
    result = play(registered.rules, setup, [{"high": 1}, {"high": 1}])
    match = match_from("high_card", "h1", datetime(2026, 1, 1, tzinfo=UTC), PLAYERS, setup.options, result)
    assert match is not None and match.teams == (("Ann",), ("Bob",), ("Cid",))
    assert match.ranks == (2, 1, 2)


@pytest.mark.parametrize("part", sorted(high_card.FILES))
def test_a_part_removed_from_its_folder_is_named(registered, tmp_path, part):
    # The same folder written without one of its files: the guard names that one.
    files = {name: text for name, text in high_card.FILES.items() if name != part}
    partial = dataclasses.replace(registered, path=high_card.write_folder(tmp_path / "partial", files))
    assert partial.missing() == [part]


def test_an_evening_mixer_plays_it(app, client):
    with app.app_context():
        event, key = events.create_event(
            {"name": "Cards", "format": "mixer", "game": "high_card", "players": [*PLAYERS, "Dee", "Eve", "Fay"],
             "table_size": 3, "rounds": 1, "options": {"target": 1}}
        )  # fmt: skip
        event_id = event.id
    auth = {"Authorization": f"Bearer {key}"}
    tables = client.post(f"/api/events/{event_id}/rounds", json={}, headers=auth).get_json()["tables"]
    assert len(tables) == 2 and all(len(t["seats"]) == 3 for t in tables)
    for table in tables:
        deal = client.post(
            f"/api/games/{table['game']}/deals",
            json={"high": 0},
            headers={"Authorization": f"Bearer {table['edit_key']}"},
        )
        assert deal.status_code == 201 and deal.get_json()["finished"]
    doc = client.get(f"/api/events/{event_id}").get_json()
    assert doc["game"] == "high_card" and doc["rounds"][0]["status"] == "done"
    winners = {table["seats"][0] for table in tables}
    assert {s["name"] for s in doc["standings"] if s["rank"] == 1} == winners
