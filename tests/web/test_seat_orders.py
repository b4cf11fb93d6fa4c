"""Spec "Seat entry": each seat sends its own orders from its phone; the turn resolves by itself
when the last are in, exactly as if the scorer had entered it; nobody sees what a seat sent."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import bearer
from tests.web.test_seat_api import VALUES

PLAYERS = ["Ann", "Bob", "Cid"]
SPIES = ("club", "diamond", "heart", "spade")


def orders(seat: int, secret=1, n: int = 3) -> list[dict]:
    return [{"spy": s, "target": (seat + 1 + i % (n - 1)) % n, "secret": secret} for i, s in enumerate(SPIES)]


def new_game(client, hidden=False):
    options = {"hidden": True, "values": VALUES} if hidden else {}
    created = client.post("/api/games", json={"game": "secrets", "players": PLAYERS, "options": options}).json
    key = created["edit_key"]
    seats = client.get(f"/api/games/{created['id']}/seats", headers=bearer(key)).json["seats"]
    return created["id"], key, [s["token"] for s in seats]


def send(client, game_id, seat, token, body):
    return client.put(f"/api/games/{game_id}/orders/{seat}", json=body, headers=bearer(token))


def test_the_turn_resolves_when_the_last_seat_sends_and_scores_as_the_scorers_turn(client):
    game_id, key, tokens = new_game(client)
    twin_id, twin_key, _ = new_game(client)
    parts = [{"orders": orders(s, secret=s + 1), "guard": 9 - s} for s in range(3)]
    first = send(client, game_id, 0, tokens[0], parts[0])
    assert first.status_code == 202 and first.json == {"turn": 1, "waiting": [1, 2]}
    record = client.get(f"/api/games/{game_id}").json
    assert record["waiting"] == {"turn": 1, "in": [0]} and record["turns"] == []
    # The scorer enters Bob's for a player without a phone; Cid's last: the turn is recorded.
    assert send(client, game_id, 1, key, parts[1]).json == {"turn": 1, "waiting": [2]}
    last = send(client, game_id, 2, tokens[2], parts[2])
    assert last.status_code == 202 and last.json == {"turn": 1, "waiting": []}
    record = client.get(f"/api/games/{game_id}").json
    assert "waiting" not in record and len(record["turns"]) == 1
    # Exactly the scorer's whole turn: the same facts, scores and explanations.
    whole = {"orders": [p["orders"] for p in parts], "guards": [p["guard"] for p in parts]}
    assert client.post(f"/api/games/{twin_id}/deals", json=whole, headers=bearer(twin_key)).status_code == 201
    twin = client.get(f"/api/games/{twin_id}").json
    for field in ("turns", "scores", "explanations", "totals"):
        assert record[field] == twin[field], field
    # In the history: a line per seat that sent (who, never what), then the turn.
    assert client.get(f"/g/{game_id}?key={key}", follow_redirects=True).status_code == 200
    history = client.get(f"/g/{game_id}/history")
    text = history.get_data(as_text=True)
    assert history.status_code == 200
    assert [n for n in PLAYERS if f"{n}&#39;s orders are in (turn 1)" in text] == ["Ann", "Bob", "Cid"]
    assert "Turn 1" in text or "Deal 1 recorded" in text


def test_bad_orders_are_refused_with_the_rule_and_nothing_kept(client):
    game_id, key, tokens = new_game(client)
    before = client.get(f"/api/games/{game_id}").get_data()
    cases = [
        ({"orders": orders(0)[:2], "guard": 5}, "every free spy is sent"),
        ({"orders": orders(0), "guard": 12}, "guards one of Ann's own secrets"),
        ({"orders": [*orders(0)[:3], {**orders(0)[0], "target": 0}], "guard": 5}, "cannot spy on Ann"),
        ({"orders": orders(0)}, "send your orders and your policeman's guard"),
    ]
    for body, rule in cases:
        refused = send(client, game_id, 0, tokens[0], body)
        assert refused.status_code == 422, body
        assert any(rule in e["message"] for e in refused.json["errors"]), refused.json
    # A body that is not a JSON object is no orders at all: 400, before anything (issue 56).
    refused = send(client, game_id, 0, tokens[0], "nonsense")
    assert refused.status_code == 400 and "JSON object" in refused.json["errors"][0]["message"]
    assert client.get(f"/api/games/{game_id}").get_data() == before


def test_a_seats_token_opens_its_own_seat_only(client):
    game_id, _key, tokens = new_game(client)
    body = {"orders": orders(2), "guard": 1}
    assert send(client, game_id, 2, tokens[1], body).status_code == 404
    assert client.put(f"/api/games/{game_id}/orders/2", json=body).status_code == 403
    assert send(client, game_id, 7, tokens[1], body).status_code == 404
    other_id, _, _ = new_game(client)
    assert send(client, other_id, 2, tokens[2], body).status_code in (403, 404)
    # A game that takes no seat orders has no such route.
    tally = client.post("/api/games", json={"game": "tally", "players": PLAYERS}).json
    assert send(client, tally["id"], 0, tally["edit_key"], body).status_code == 404


def test_the_scorers_whole_turn_replaces_what_the_seats_had_sent(client):
    game_id, key, tokens = new_game(client)
    assert send(client, game_id, 0, tokens[0], {"orders": orders(0), "guard": 5}).status_code == 202
    whole = {"orders": [orders(s) for s in range(3)], "guards": [4, 4, 4]}
    assert client.post(f"/api/games/{game_id}/deals", json=whole, headers=bearer(key)).status_code == 201
    record = client.get(f"/api/games/{game_id}").json
    assert "waiting" not in record and record["turns"] == [whole]
    # The seats now send for turn 2: nothing of turn 1's is left over.
    again = send(client, game_id, 1, tokens[1], {"orders": orders(1), "guard": 3})
    assert again.json == {"turn": 2, "waiting": [0, 2]}


def test_what_a_seat_sent_shows_nowhere_but_to_that_seat(client, app):
    """Two games the same but for what seat 0 sent: every answer to a viewer, the scorer and the
    other seats is the same text, ids and keys aside."""
    games = []
    for secret in (1, 7):
        game_id, key, tokens = new_game(client, hidden=True)
        assert (
            send(
                client, game_id, 0, tokens[0], {"orders": orders(0, "A"), "guard": "ABCDEFGHIJ"[secret]}
            ).status_code
            == 202
        )
        games.append((game_id, key, tokens))

    def look(game_id, key, tokens) -> list[str]:
        answers = []
        scorer = {"Cookie": f"edit_key={key}"}
        for url, headers in [
            (f"/api/games/{game_id}", {}),
            (f"/api/games/{game_id}", bearer(key)),
            (f"/g/{game_id}", {}),
            (f"/g/{game_id}/live?part=live&lang=en", {}),
            (f"/g/{game_id}/history", scorer),
            (f"/g/{game_id}/sheet", {}),
            (f"/g/{game_id}/p/1/{tokens[1]}", {}),
            (f"/g/{game_id}/p/2/{tokens[2]}", {}),
        ]:
            fresh = app.test_client()
            text = fresh.get(url, headers=headers).get_data(as_text=True)
            for secret in (game_id, key, *tokens):
                text = text.replace(secret, "<id>")
            # Per-request tokens (CSRF, submission) and times differ between any two answers.
            text = re.sub(r'(name="(csrf_token|submit_token)"[^>]*value=")[^"]*', r"\1", text)
            text = re.sub(r'value="[A-Za-z0-9_.-]{20,}"', 'value=""', text)
            text = re.sub(r"\d+ seconds? ago|just now|\d{1,2}:\d{2}(:\d{2})?", "", text)
            text = re.sub(r' d="[^"]*"', ' d=""', text)  # QR codes of links that hold the ids
            answers.append(text)
        return answers

    first, second = (look(*g) for g in games)
    for a, b in zip(first, second, strict=True):
        assert a == b
    # Who has sent is public: the record says seat 0 is in, in both.
    assert '"in":[0]' in first[0].replace(" ", "")


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=25,
)
order = st.fixed_dictionaries(
    {
        "spy": st.sampled_from([*SPIES, "joker", 3]),
        "target": st.integers(-1, 4) | st.text(max_size=2),
        "secret": st.integers(0, 11) | st.sampled_from(["A", "J", "K"]),
    }
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=json_values
    | st.fixed_dictionaries(
        {"orders": st.lists(order | json_values, max_size=5), "guard": json_values | st.integers(0, 10)}
    ),
    seat=st.integers(-2, 5),
)
def test_the_orders_route_never_answers_500_and_keeps_only_good_orders(client, body, seat):
    game_id, key, _tokens = new_game(client)
    answer = client.put(f"/api/games/{game_id}/orders/{seat}", json=body, headers=bearer(key))
    assert answer.status_code in (202, 400, 404, 422), answer.get_data(as_text=True)
    record = client.get(f"/api/games/{game_id}").json
    if answer.status_code == 202:
        assert record["waiting"] == {"turn": 1, "in": [seat]}
    else:
        assert "waiting" not in record


@pytest.mark.parametrize("n", [3, 6])
def test_a_whole_hidden_secrets_game_played_from_the_seats_phones(client, n):
    """Allotments and every turn's orders sent by the seats themselves (a player without a phone
    by the scorer): the game ends scoring exactly as the same game entered by the scorer."""
    from scorekeeper.games import GAMES
    from scorekeeper.rules.base import check_setup, play

    rng = random.Random(n)
    players = [f"P{i}" for i in range(n)]
    values = [[4, 4, 4, 4, 4, 5, 5, 5, 5, 5][i:] + [4, 4, 4, 4, 4, 5, 5, 5, 5, 5][:i] for i in range(n)]
    created = client.post(
        "/api/games", json={"game": "secrets", "players": players, "options": {"hidden": True}}
    ).json
    game_id, key = created["id"], created["edit_key"]
    tokens = [
        s["token"] for s in client.get(f"/api/games/{game_id}/seats", headers=bearer(key)).json["seats"]
    ]
    # The last player has no phone: the scorer enters for them.
    senders = [*tokens[:-1], key]
    for seat in range(n):
        put = client.put(
            f"/api/games/{game_id}/allotment/{seat}",
            json={"values": values[seat]},
            headers=bearer(senders[seat]),
        )
        assert put.status_code == 204
    kind = GAMES.get("secrets")
    _errors, setup = check_setup(kind, players, {"hidden": True, "values": values}, 0)
    turns: list[dict] = []
    while not play(kind, setup, turns).finished:
        state = play(kind, setup, turns).state
        turn = kind.random_deal(setup, state, 0, rng)
        for seat in rng.sample(range(n), n):
            answer = client.put(
                f"/api/games/{game_id}/orders/{seat}",
                json={"orders": turn["orders"][seat], "guard": turn["guards"][seat]},
                headers=bearer(senders[seat]),
            )
            assert answer.status_code == 202, answer.get_data(as_text=True)
        turns.append(turn)
        record = client.get(f"/api/games/{game_id}").json
        assert len(record["turns"]) == len(turns) and "waiting" not in record
    twin = client.post(
        "/api/games",
        json={
            "game": "secrets",
            "players": players,
            "options": {"hidden": True, "values": values},
            "turns": turns,
        },
    ).json
    record = client.get(f"/api/games/{game_id}").json
    assert record["finished"] and record["turns"] == turns
    for field in ("scores", "totals", "winners", "explanations", "options"):
        assert record[field] == twin[field], field


def test_no_orders_before_the_allotments_or_after_the_end(client):
    created = client.post(
        "/api/games", json={"game": "secrets", "players": PLAYERS, "options": {"hidden": True}}
    ).json
    early = client.put(
        f"/api/games/{created['id']}/orders/0",
        json={"orders": orders(0, "A"), "guard": "B"},
        headers=bearer(created["edit_key"]),
    )
    assert (
        early.status_code == 422
        and "waits for every player's allotment" in early.json["errors"][0]["message"]
    )
    one_turn = client.post(
        "/api/games",
        json={
            "game": "secrets",
            "players": PLAYERS,
            "options": {"turns": 1},
            "turns": [{"orders": [orders(s) for s in range(3)], "guards": [4, 4, 4]}],
        },
    ).json
    assert one_turn["finished"]
    late = client.put(
        f"/api/games/{one_turn['id']}/orders/1",
        json={"orders": orders(1), "guard": 2},
        headers=bearer(one_turn["edit_key"]),
    )
    assert late.status_code == 422 and "The game is over" in late.json["errors"][0]["message"]


def test_the_pages_say_who_has_sent_never_what(client, app):
    game_id, key, tokens = new_game(client)
    assert send(client, game_id, 2, tokens[2], {"orders": orders(2), "guard": 6}).status_code == 202
    viewer = app.test_client().get(f"/g/{game_id}").get_data(as_text=True)
    assert "Orders in: Cid; 2 to come." in viewer
    scorer = client.get(f"/g/{game_id}?key={key}", follow_redirects=True).get_data(as_text=True)
    assert "Orders in: Cid; 2 to come." in scorer
    polish = app.test_client()
    polish.set_cookie("lang", "pl")
    assert "Rozkazy wysłali: Cid; brakuje jeszcze: 2." in polish.get(f"/g/{game_id}").get_data(as_text=True)
    # A follower's live region moves with it, and after the turn resolves the line is gone.
    send(client, game_id, 0, tokens[0], {"orders": orders(0), "guard": 6})
    assert "Orders in: Ann and Cid; 1 to come." in app.test_client().get(
        f"/g/{game_id}/live?part=live&lang=en"
    ).get_data(as_text=True)
    send(client, game_id, 1, tokens[1], {"orders": orders(1), "guard": 6})
    assert "Orders in" not in app.test_client().get(f"/g/{game_id}").get_data(as_text=True)
