"""No input to an event's routes or to a new event's check gives a 500 or an unnamed refusal."""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.events import checks
from scorekeeper.events import service as events
from scorekeeper.refusals import Refusal

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(10**6), 10**6) | st.text(max_size=12),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=5),
    max_leaves=12,
)
FIELDS = [
    "name",
    "format",
    "game",
    "players",
    "pairs",
    "pairing",
    "rounds",
    "hands",
    "minutes",
    "sit_out",
    "confirm",
    "seed",
    "options",
    "table_size",
    "late",
    "check_in",
]
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
BASE = {"name": "N", "format": "progressive", "game": "euchre", "players": PLAYERS}


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.dictionaries(st.sampled_from(FIELDS), json_values, max_size=6) | json_values)
def test_a_new_events_check_names_the_field_or_accepts(app, body):
    with app.app_context():
        try:
            checked = events.check_event(body if not isinstance(body, dict) else {**BASE, **body})
        except Refusal as exc:
            assert exc.errors and all(e.field for e in exc.errors)
            assert all(e.message.render() for e in exc.errors)
        else:
            assert checked["format"] in checks.FORMATS


@pytest.fixture
def event(app):
    with app.app_context():
        made, key = events.create_event({**BASE, "hands": 1, "rounds": 3})
        return made.id, key


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(body=json_values, which=st.sampled_from(["rounds", "players"]))
def test_director_calls_never_fail_with_a_500(app, client, event, body, which):
    event_id, key = event
    headers = {"Authorization": f"Bearer {key}"}
    response = client.post(f"/api/events/{event_id}/{which}", json=body, headers=headers)
    assert response.status_code in (200, 201, 400, 409, 422), response.get_data(as_text=True)
    if response.status_code == 422:
        assert response.get_json()["errors"][0]["field"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    data=st.dictionaries(
        st.sampled_from(["add", "withdraw", "close", "csrf_token", "x"]), st.text(max_size=30), max_size=4
    )
)
def test_the_directors_forms_never_fail_with_a_500(app, client, event, data):
    event_id, key = event
    client.get(f"/e/{event_id}/direct?key={key}")
    for path in ("rounds", "players"):
        response = client.post(f"/e/{event_id}/{path}", data=data)
        assert response.status_code in (303, 400, 422), (path, data, response.status_code)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    tail=st.text(
        alphabet=st.characters(blacklist_categories=("Cs",), blacklist_characters="/?#"),
        min_size=1,
        max_size=40,
    )
)
def test_any_event_address_answers_without_a_500(client, tail):
    for path in (
        f"/e/{tail}",
        f"/e/{tail}/board",
        f"/api/events/{tail}",
        f"/e/{tail}/p/0/{tail}",
        f"/e/{tail}/results.csv",
    ):
        assert client.get(path).status_code in (200, 400, 404, 308), path


def test_a_name_listed_twice_is_named_as_typed():
    with pytest.raises(Refusal) as refused:
        checks.player_names(["Ann", "Bob", "ANN"], "players")
    assert refused.value.errors[0].field == "players"
    assert "Ann is listed twice" in refused.value.errors[0].message.render()


@pytest.fixture
def door(app):
    with app.app_context():
        made, key = events.create_event({**BASE, "hands": 1, "rounds": 2, "check_in": True, "confirm": True})
        return made.id, key, events.check_in_token(made)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    body=json_values,
    name=st.text(max_size=50),
    round_number=st.integers(0, 10**12),
    which=st.sampled_from(["arrive", "arrive-token", "remove", "close", "confirm", "page"]),
)
def test_the_evenings_new_calls_never_fail_with_a_500(app, client, door, body, name, round_number, which):
    """Issue 54's calls: arrivals, their removal, closing a round, a director's confirmation, the
    door's page; with any body, name and number, they answer a named refusal or succeed."""
    event_id, key, token = door
    director = {"Authorization": f"Bearer {key}"}
    if which == "arrive":
        r = client.post(f"/api/events/{event_id}/arrivals", json=body)
    elif which == "arrive-token":
        r = client.post(f"/api/events/{event_id}/arrivals", json={"name": body, "token": token})
    elif which == "remove":
        r = client.delete(f"/api/events/{event_id}/arrivals/{name.replace('/', '')}", headers=director)
    elif which == "close":
        r = client.post(f"/api/events/{event_id}/rounds/{round_number}/close", json=body, headers=director)
    elif which == "confirm":
        r = client.post(
            f"/api/events/{event_id}/rounds/{round_number}/tables/1/confirm", json=body, headers=director
        )
    else:
        r = client.post(f"/e/{event_id}/arrive/{token}", data={"name": name})
    assert r.status_code < 500, (which, body, name, r.get_data(as_text=True)[:300])
    if r.status_code >= 400 and r.is_json:
        assert r.get_json()["errors"]
