"""Tally's pages and API: set-up with teams, the number pad form with and without htmx, End game,
corrections, undo, exports, and bad input named.

Seats: Ann 0, Bob 1, Cid 2, Dee 3. Expected totals worked out by hand from
shared/spec/game-record.md (``tally``).
"""

import csv
import io
import re

from scorekeeper.db import db
from scorekeeper.models import Game
from tests.web.pages import errors_in, status, text

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]
HX = {"HX-Request": "true"}


def start(client, players=PLAYERS, teams=None, **options) -> str:
    data = {f"players_{s}": name for s, name in enumerate(players)}
    data["first_dealer"] = "0"
    for key, value in options.items():
        data[f"opt_{key}"] = "y" if value is True else str(value)
    for seat, label in enumerate(teams or []):
        data[f"team_{seat}"] = label
    response = client.post("/new/tally", data=data)
    assert response.status_code == 303, errors_in(response.get_data(as_text=True))
    return response.headers["Location"]


def points(*values, note=None):
    data = {f"points_{s}": str(v) for s, v in enumerate(values)}
    if note is not None:
        data["note"] = note
    return data


def record(client, path):
    return client.get(f"/api{path.replace('/g/', '/games/')}").get_json()


def test_the_new_game_page_offers_tally_with_its_options_and_teams(client):
    page = client.get("/new/tally").get_data(as_text=True)
    assert 'name="opt_target"' in page and 'name="opt_rounds"' in page and 'name="opt_low_wins"' in page
    assert 'name="team_0"' in page and 'name="team_11"' in page
    assert "tally" in client.get("/new").get_data(as_text=True)


def test_points_recorded_on_the_number_pad_add_up_with_a_note(client):
    path = start(client)
    page = client.get(path).get_data(as_text=True)
    assert 'inputmode="numeric"' in page and "data-pm=" in page and 'name="end_game"' in page
    assert client.post(f"{path}/deals", data=points(10, -5, 0, 3, note="shot the moon")).status_code == 303
    version = re.search(r'name="base_version" value="(\d+)"', client.get(path).get_data(as_text=True)).group(
        1
    )
    fragment = client.post(
        f"{path}/deals", data={**points(3, 4, 26, -1), "base_version": version}, headers=HX
    )
    assert fragment.status_code == 200
    body = fragment.get_data(as_text=True)
    # Only what the deal changed: its row after the one before, the totals, a fresh form.
    assert re.search(r'hx-swap-oob="afterend:#deal-0">\s*<tr id="deal-1"', body) and 'id="deal-0"' not in body
    assert 'id="totals-bar" hx-swap-oob="true"' in body and "<html" not in body
    rec = record(client, path)
    assert rec["totals"] == [13, -1, 26, 2]
    assert rec["deals"][0] == {"points": [10, -5, 0, 3], "note": "shot the moon"}
    assert rec["explanations"][0][1] == "-5 as entered"
    assert not rec["finished"]
    deal = client.get(f"{path}/deals/0").get_data(as_text=True)
    assert "shot the moon" in deal


def test_end_game_records_the_end_and_tied_players_share_the_win(client):
    path = start(client, players=PLAYERS[:3])
    client.post(f"{path}/deals", data=points(5, 5, 1))
    response = client.post(f"{path}/deals", data={**points("", "", ""), "end_game": "1"}, headers=HX)
    assert response.status_code == 200
    rec = record(client, path)
    assert rec["deals"][-1] == {"end": True}
    assert rec["finished"] and rec["winners"] == [0, 1]
    assert "Ann" in status(client.get(path).get_data(as_text=True))
    # Nothing may follow the end.
    refused = client.post(f"{path}/deals", data=points(1, 2, 3))
    assert refused.status_code in (403, 422)


def test_entry_after_the_end_is_refused_naming_it_through_the_api(client):
    path = start(client, players=PLAYERS[:2])
    gid = path.rsplit("/", 1)[1]
    client.post(f"{path}/deals", data={"end_game": "1"})
    with client.application.app_context():
        game = db.session.get(Game, gid)
    assert game is not None
    made = client.post("/api/games", json={"game": "tally", "players": ["A", "B"], "deals": [{"end": True}]})
    assert made.status_code == 201
    key = made.json["edit_key"]
    answer = client.post(
        f"/api/games/{made.json['id']}/deals",
        json={"points": [1, 2]},
        headers={"Authorization": f"Bearer {key}"},
    )
    assert answer.status_code == 422
    assert answer.json["errors"][0]["field"] == "deals"
    assert "nothing can follow" in answer.json["errors"][0]["message"]


def test_target_ends_the_game_and_low_wins_picks_the_lowest(client):
    path = start(client, target=50, low_wins=True)
    client.post(f"{path}/deals", data=points(20, 10, 30, 5))
    client.post(f"{path}/deals", data=points(30, 10, 0, 5))
    rec = record(client, path)
    assert rec["totals"] == [50, 20, 30, 10]
    assert rec["finished"] and rec["winners"] == [3]


def test_rounds_end_the_game_and_a_tie_plays_another_deal(client):
    path = start(client, players=PLAYERS[:2], rounds=1)
    client.post(f"{path}/deals", data=points(4, 4))
    rec = record(client, path)
    assert rec["tiebreak"] and not rec["finished"]
    client.post(f"{path}/deals", data=points(1, 0))
    rec = record(client, path)
    assert rec["finished"] and rec["winners"] == [0]


def test_teams_from_a_team_number_per_seat_sum_their_seats(client):
    path = start(client, teams=["1", "2", "1", "2"], target=30)
    rec = record(client, path)
    assert rec["options"]["teams"] == [[0, 2], [1, 3]]
    client.post(f"{path}/deals", data=points(10, 3, 25, 4))
    rec = record(client, path)
    assert rec["scores"][0] == [35, 7, 35, 7]
    assert rec["explanations"][0][0] == "Ann 10 + Cid 25 = 35"
    assert rec["finished"] and rec["winners"] == [0, 2]


def test_a_seat_without_a_team_is_named(client):
    data = {f"players_{s}": name for s, name in enumerate(PLAYERS)}
    data.update(first_dealer="0", team_0="1", team_1="2", team_2="1")
    response = client.post("/new/tally", data=data)
    assert response.status_code == 422
    assert any("missing: Dee" in e for e in errors_in(response.get_data(as_text=True)))


def test_bad_points_are_named_and_nothing_is_recorded(client):
    path = start(client, players=PLAYERS[:3])
    response = client.post(f"{path}/deals", data=points("7.5", "x", "3"))
    assert response.status_code == 422
    errors = errors_in(response.get_data(as_text=True))
    assert any(e.startswith("Ann: points are a whole number") for e in errors)
    assert any(e.startswith("Bob: points are a whole number") for e in errors)
    assert record(client, path)["deals"] == []
    # The entry stays as typed.
    assert 'value="7.5"' in response.get_data(as_text=True)


def test_wrong_count_and_repeated_team_seat_through_the_api(client):
    made = client.post("/api/games", json={"game": "tally", "players": ["A", "B", "C"]})
    assert made.status_code == 201
    auth = {"Authorization": f"Bearer {made.json['edit_key']}"}
    gid = made.json["id"]
    answer = client.post(f"/api/games/{gid}/deals", json={"points": [1, 2]}, headers=auth)
    assert answer.status_code == 422
    assert answer.json["errors"][0]["field"] == "points"
    assert "not 2" in answer.json["errors"][0]["message"]
    teams = client.post(
        "/api/games",
        json={"game": "tally", "players": ["A", "B", "C", "D"], "options": {"teams": [[0, 1], [1, 2, 3]]}},
    )
    assert teams.status_code == 422
    assert teams.json["errors"][0]["field"] == "teams"
    assert "more than one team" in teams.json["errors"][0]["message"]


def test_api_game_round_trip_with_end(client):
    made = client.post(
        "/api/games",
        json={
            "format": "scorekeeper-game/1",
            "game": "tally",
            "players": ["A", "B"],
            "options": {"target": 100},
            "deals": [{"points": [60, 40], "note": "first"}],
        },
    )
    assert made.status_code == 201
    gid, auth = made.json["id"], {"Authorization": f"Bearer {made.json['edit_key']}"}
    assert made.json["totals"] == [60, 40]
    answer = client.post(f"/api/games/{gid}/deals", json={"points": [50, 80]}, headers=auth)
    assert answer.status_code == 201
    assert answer.json["finished"] is True and answer.json["winners"] == [1]
    fixed = client.put(f"/api/games/{gid}/deals/1", json={"points": [50, 10]}, headers=auth)
    assert fixed.status_code == 200 and fixed.json["winners"] == [0]
    gone = client.delete(f"/api/games/{gid}/deals/1", headers=auth)
    assert gone.status_code == 200 and gone.json["finished"] is False


def test_correction_undo_sheet_csv_and_chart(client):
    path = start(client, players=PLAYERS[:2])
    client.post(f"{path}/deals", data=points(5, 1))
    client.post(f"{path}/deals", data=points(2, 2))
    corrected = client.post(f"{path}/deals/0", data=points(6, 1))
    assert corrected.status_code == 303
    assert record(client, path)["totals"] == [8, 3]
    page = client.get(path).get_data(as_text=True)
    assert "Undo" in page and "<svg" in page
    history = client.get(f"{path}/history").get_data(as_text=True)
    assert "Undo" in history
    sheet = client.get(f"{path}/sheet")
    assert sheet.status_code == 200 and "Ann" in text(sheet.get_data(as_text=True))
    rows = list(csv.reader(io.StringIO(client.get(f"{path}/scores.csv").get_data(as_text=True))))
    assert rows[-1][-2:] == ["8", "3"]
    assert client.get(f"{path}/record.json").get_json()["totals"] == [8, 3]


def test_a_follower_sees_the_game_without_the_pad(app, client):
    path = start(client, players=PLAYERS[:2])
    client.post(f"{path}/deals", data=points(5, 1))
    viewer = app.test_client()
    page = viewer.get(path).get_data(as_text=True)
    assert "data-pm=" not in page and "/live" in page


def test_an_empty_box_is_zero_but_an_empty_entry_is_refused(client):
    path = start(client, players=PLAYERS[:3])
    assert client.post(f"{path}/deals", data=points(7, "", "")).status_code == 303
    assert record(client, path)["deals"] == [{"points": [7, 0, 0]}]
    refused = client.post(f"{path}/deals", data=points("", "", ""))
    assert refused.status_code == 422
    assert len([e for e in errors_in(refused.get_data(as_text=True)) if "whole number" in e]) == 3
    assert len(record(client, path)["deals"]) == 1


def value_of(page: str, name: str) -> str:
    tag = next(t for t in re.findall(r"<input[^>]*>", page) if f'name="{name}"' in t)
    return re.search(r'value="([^"]*)"', tag).group(1)


def test_same_as_last_deal_fills_the_form_and_records_nothing(client):
    path = start(client)
    page = client.get(path).get_data(as_text=True)
    assert "Same as last deal" not in page  # nothing to repeat yet
    client.post(f"{path}/deals", data=points(10, -5, 0, 3, note="a round won"))
    page = client.get(path).get_data(as_text=True)
    assert f'href="{path}?same=last#entry"' in page and "Same as last deal" in text(page)
    # The link draws the form again, filled from deal 1 (without JavaScript: the page; with htmx,
    # the live region), with the new totals it would make; nothing is recorded by it.
    for headers in ({}, HX):
        filled = client.get(f"{path}?same=last", headers=headers).get_data(as_text=True)
        assert [value_of(filled, f"points_{s}") for s in range(4)] == ["10", "-5", "0", "3"]
        assert value_of(filled, "note") == "a round won"
        assert "Filled in from deal 1: change what differs, then Record." in text(filled)
        assert "Same as last deal" not in text(filled)
        shown = re.findall(r'data-new-total="[^"]*">([^<]*)</output>', filled)
        assert [text(t) for t in shown] == ["Σ 20", "Σ -10", "Σ 0", "Σ 6"]
        assert len(record(client, path)["deals"]) == 1
        assert filled.lstrip().startswith('<section id="live"') == bool(headers)
    # Record as filled in: deal 2 equals deal 1.
    assert client.post(f"{path}/deals", data=points(10, -5, 0, 3, note="a round won")).status_code == 303
    assert record(client, path)["totals"] == [20, -10, 0, 6]
    # The page after Record is empty again, and offers the last deal again.
    page = client.get(path).get_data(as_text=True)
    assert value_of(page, "points_0") == "" and "Same as last deal" in text(page)


def test_same_as_last_deal_is_for_the_scorer_and_only_where_offered(app, client):
    path = start(client)
    client.post(f"{path}/deals", data=points(1, 2, 3, 4))
    viewer = app.test_client()
    page = viewer.get(f"{path}?same=last").get_data(as_text=True)
    assert '<form id="entry"' not in page and "Same as last deal" not in page
    # A game whose deals the cards decide afresh offers nothing of the kind.
    created = client.post(
        "/api/games",
        json={
            "game": "euchre",
            "players": PLAYERS,
            "deals": [{"trump": "H", "maker": 0, "alone": False, "maker_tricks": 3}],
        },
    ).json
    assert client.get(f"/g/{created['id']}?key={created['edit_key']}").status_code == 303
    page = client.get(f"/g/{created['id']}?same=last").get_data(as_text=True)
    assert "Same as last deal" not in text(page) and "Filled in from" not in text(page)


def test_end_game_with_points_typed_records_that_deal_first(client):
    """Issue 41: type the last deal, tap End game: the deal is kept, then the game ends."""
    path = start(client, players=PLAYERS[:3])
    client.post(f"{path}/deals", data=points(5, 5, 1))
    response = client.post(f"{path}/deals", data={**points(0, 7, ""), "end_game": "1"}, headers=HX)
    assert response.status_code == 200
    rec = record(client, path)
    assert rec["deals"][-2:] == [{"points": [0, 7, 0]}, {"end": True}]
    assert rec["totals"] == [5, 12, 1] and rec["finished"] and rec["winners"] == [1]
    # Each is its own change: undo takes back the end, then the deal.
    history = client.get(f"{path}/history").get_data(as_text=True)
    assert text(history).count("Undo") >= 2
    # The end is no deal on the board: no third numbered row of zeros.
    page = client.get(path).get_data(as_text=True)
    assert 'class="end-row"' in page and ">3</a>" not in page
    assert "The scorer ended the game here." in text(page)


def test_end_game_with_bad_points_typed_is_refused_and_records_nothing(client):
    path = start(client, players=PLAYERS[:2])
    response = client.post(f"{path}/deals", data={**points("x", 2), "end_game": "1"})
    assert response.status_code == 422
    assert any("Ann" in e for e in errors_in(response.get_data(as_text=True)))
    rec = record(client, path)
    assert rec["deals"] == [] and not rec["finished"]


def test_the_end_adds_no_step_to_the_chart(app):
    from scorekeeper.games.tally.rules import Tally
    from scorekeeper.read.views import chart_series
    from scorekeeper.rules import Setup, play

    result = play(Tally(), Setup(("A", "B"), {}), [{"points": [3, 1]}, {"end": True}])
    series = chart_series(result)
    assert series.totals == ((0, 3), (0, 1))
