"""JSON nested 1,000 deep is a clean 400 on the API and a one-line error from the CLI (issue 16, item 2)."""

from __future__ import annotations

import io

import pytest

from tests.test_backup import count

DEPTH = 1000
DEEP = "[" * DEPTH + "]" * DEPTH
RECORD = {"game": "secret_agent", "players": ["Ann", "Bob", "Cid", "Dee"]}


def deep_in(key: str) -> str:
    """A game record whose ``key`` holds the deep list, as raw JSON text."""
    return '{"game": "secret_agent", "players": ["Ann", "Bob", "Cid", "Dee"], "' + key + '": ' + DEEP + "}"


@pytest.mark.parametrize(
    "body", [DEEP, deep_in("deals"), deep_in("options")], ids=["root", "deals", "options"]
)
def test_creating_a_game_from_deep_json_is_400(app, client, body):
    response = client.post("/api/games", data=body, content_type="application/json")
    assert response.status_code == 400
    assert "nested too deeply" in response.get_json()["errors"][0]["message"]
    assert count(app) == 0


def test_a_deep_deal_is_400_and_changes_nothing(app, client):
    created = client.post("/api/games", json=RECORD).get_json()
    headers = {"Authorization": f"Bearer {created['edit_key']}"}
    path = f"/api/games/{created['id']}/deals"
    for body in (DEEP, '{"tricks": ' + DEEP + "}"):
        response = client.post(path, data=body, content_type="application/json", headers=headers)
        assert (
            response.status_code == 400 and "nested too deeply" in response.get_json()["errors"][0]["message"]
        )
        put = client.put(f"{path}/0", data=body, content_type="application/json", headers=headers)
        assert put.status_code in (400, 404)
    assert client.get(f"/api/games/{created['id']}").get_json()["deals"] == []


def test_import_of_a_deep_file_is_a_one_line_error(app, tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"format": "scorekeeper-backup/1", "games": ' + DEEP + "}", encoding="utf-8")
    result = app.test_cli_runner().invoke(args=["import", str(path)])
    assert result.exit_code == 1
    assert result.output.strip() == f"Error: {path} is nested too deeply to be a backup or a game record."
    assert "Traceback" not in result.output and count(app) == 0


def test_the_import_page_refuses_a_deep_file(app, client):
    body = ('{"game": "secret_agent", "deals": ' + DEEP + "}").encode()
    response = client.post(
        "/import", data={"record": (io.BytesIO(body), "deep.json")}, content_type="multipart/form-data"
    )
    assert response.status_code in (200, 400, 422)
    assert "nested too deeply" in response.get_data(as_text=True) and count(app) == 0
