"""/api/openapi.json is a valid OpenAPI 3.1 document; real records match the game record's JSON Schema."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator
from openapi_spec_validator import validate

from tests.docs.examples import RECORDS

DOCS = Path(__file__).resolve().parents[2] / "docs"
SCHEMA = json.loads((DOCS / "game-record.schema.json").read_text("utf-8"))


def validator(definition: str) -> Draft202012Validator:
    return Draft202012Validator({**SCHEMA, "$ref": f"#/$defs/{definition}"})


def problems(definition: str, record: dict) -> list[str]:
    return [f"{list(e.absolute_path)}: {e.message}" for e in validator(definition).iter_errors(record)]


def test_the_schema_is_a_valid_2020_12_schema():
    Draft202012Validator.check_schema(SCHEMA)


def test_openapi_json_is_served_and_valid(client):
    answer = client.get("/api/openapi.json")
    assert answer.status_code == 200 and answer.mimetype == "application/json"
    document = answer.get_json()
    assert document["openapi"].startswith("3.1")
    validate(document)  # raises on any departure from the OpenAPI 3.1 specification
    # The record's definitions come from the one schema file, their references re-pointed.
    schemas = document["components"]["schemas"]
    assert set(SCHEMA["$defs"]) <= set(schemas)
    assert "#/$defs/" not in json.dumps(schemas)


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_import_examples_are_valid_records_and_the_app_accepts_them(client, name):
    record = RECORDS[name]
    assert problems("GameRecord", record) == []
    answer = client.post("/api/games", json=record)
    assert answer.status_code == 201, answer.get_json()


@pytest.mark.parametrize("name", sorted(RECORDS))
def test_real_exports_match_the_output_schema_and_the_openapi_components(client, name):
    created = client.post("/api/games", json=RECORDS[name]).get_json()
    assert problems("GameRecordOutput", created) == []  # with its edit_key
    game_id = created["id"]
    export = client.get(f"/api/games/{game_id}").get_json()
    assert problems("GameRecordOutput", export) == []
    assert problems("GameRecordOutput", client.get(f"/g/{game_id}/record.json").get_json()) == []
    # An export is itself an import: the schema's input half accepts it as it is.
    assert problems("GameRecord", export) == []
    # The same record against the schema as the OpenAPI document embeds it.
    document = client.get("/api/openapi.json").get_json()
    embedded = Draft202012Validator(
        {"$ref": "#/components/schemas/GameRecordOutput", "components": document["components"]}
    )
    assert not list(embedded.iter_errors(export))


def test_a_record_after_every_kind_of_write_still_matches(client):
    created = client.post("/api/games", json=RECORDS["euchre"]).get_json()
    key = {"Authorization": f"Bearer {created['edit_key']}"}
    deal = {"trump": "C", "round": 2, "maker": 2, "alone": 0, "defender_alone": 1, "maker_tricks": 1}
    appended = client.post(f"/api/games/{created['id']}/deals", json=deal, headers=key)
    assert appended.status_code == 201 and problems("GameRecordOutput", appended.get_json()) == []
    replaced = client.put(f"/api/games/{created['id']}/deals/0", json={"thrown_in": True}, headers=key)
    assert replaced.status_code == 200 and problems("GameRecordOutput", replaced.get_json()) == []
    removed = client.delete(f"/api/games/{created['id']}/deals/1", headers=key)
    assert removed.status_code == 200 and problems("GameRecordOutput", removed.get_json()) == []


def test_the_422_answer_matches_the_errors_schema(client):
    answer = client.post("/api/games", json={**RECORDS["secret_agent"], "deals": [{"tricks": [13, 0, 0, 1]}]})
    assert answer.status_code == 422
    assert problems("Errors", answer.get_json()) == []


@pytest.mark.parametrize(
    "change, where",
    [
        (lambda r: r["options"].update(colour="red"), "options"),
        (lambda r: r["deals"][0].pop("agents"), "deals"),
        (lambda r: r["deals"][0].update(trump="X"), "trump"),
        (lambda r: r.update(players=["Ann", "Bob", "Cid"]), "players"),
        (lambda r: r.update(game="bridge"), "game"),
        (lambda r: r.update(turns=[]), "turns"),
    ],
)
def test_the_schema_refuses_what_the_app_refuses(client, change, where):
    record = copy.deepcopy(RECORDS["secret_agent"])
    change(record)
    assert problems("GameRecord", record), f"the schema let a bad {where} through"
    if where != "turns":  # a key the rules do not read for this game: the app ignores it
        assert client.post("/api/games", json=record).status_code == 422


# -- the description is made from the code (issue 56) -------------------------------------------


def test_the_repository_file_is_what_the_code_makes():
    from scorekeeper.web.api import describe

    written = json.loads((DOCS / "openapi.json").read_text("utf-8"))
    assert written == describe.document(written), (
        "docs/openapi.json is behind the code: python -m scorekeeper.web.api.describe writes it again"
    )
    # ...and is what /api/openapi.json serves.
    assert describe.document() == written


def test_the_repository_file_validates_alone():
    document = json.loads((DOCS / "openapi.json").read_text("utf-8"))
    validate(document)  # every referenced schema is in the file itself
    assert "Problem" not in document["components"]["schemas"]


def test_kinds_options_and_formats_come_from_the_registries(client):
    from scorekeeper.events.formats import FORMATS
    from scorekeeper.games import GAMES

    schemas = client.get("/api/openapi.json").get_json()["components"]["schemas"]
    assert schemas["GameKind"]["enum"] == list(GAMES)
    assert schemas["EventInput"]["properties"]["format"]["enum"] == list(FORMATS)
    euchre = schemas["EuchreOptions"]["properties"]
    assert list(euchre) == [o.key for o in GAMES["euchre"].options]
    assert euchre["lone_maker_euchred"]["enum"] == [2, 4]
    assert schemas["SpadesOptions"]["properties"]["lose_at"]["type"] == ["integer", "null"]


def test_every_call_lists_its_refusals_with_the_one_error_body(client):
    document = client.get("/api/openapi.json").get_json()
    for path, item in document["paths"].items():
        for method in ("get", "put", "post", "delete"):
            if method not in item:
                continue
            responses = item[method]["responses"]
            assert "400" in responses, (method, path)  # a NUL anywhere, a bad header or body
            for status, response in responses.items():
                if status.startswith("4"):
                    assert response["$ref"].startswith("#/components/responses/"), (method, path, status)
    join = document["paths"]["/api/clubs/{slug}/join"]["post"]["responses"]
    assert "409" in join and "403" in document["paths"]["/api/events/{id}/rounds"]["post"]["responses"]
    by_round = document["components"]["schemas"]["Event"]["properties"]["standings"]["items"]
    assert by_round["properties"]["by_round"]["items"]["type"] == ["number", "null"]
