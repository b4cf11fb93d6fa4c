"""Hardening of the web layer (issue 16, items 1, 3 and 6): each a clean 4xx or a safe answer."""

import pytest

RECORD = {
    "game": "secret_agent",
    "options": {"deals": 4},
    "players": ["Ann", "Bob", "Cid", "Dee"],
    "deals": [],
}
FLAT = {"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"]}


def created(client):
    record = client.post("/api/games", json=RECORD).get_json()
    return record["id"], record["edit_key"]


@pytest.mark.parametrize("tag", ['""', '"1", ""', '"", "1"', 'W/""', ",", '""""'])
def test_an_empty_if_match_tag_is_a_400_naming_the_header(client, tag):
    gid, key = created(client)
    headers = {"Authorization": f"Bearer {key}", "If-Match": tag}
    for call in (
        lambda: client.post(f"/api/games/{gid}/deals", json=FLAT, headers=headers),
        lambda: client.put(f"/api/games/{gid}/deals/0", json=FLAT, headers=headers),
        lambda: client.delete(f"/api/games/{gid}/deals/0", headers=headers),
    ):
        response = call()
        assert response.status_code in (400, 404), response.status_code
        if response.status_code == 400:
            assert "If-Match" in response.get_json()["errors"][0]["message"]
    answer = client.post(f"/api/games/{gid}/deals", json=FLAT, headers=headers)
    assert answer.status_code == 400 and "If-Match" in answer.get_json()["errors"][0]["message"]
    assert client.get(f"/api/games/{gid}").get_json()["deals"] == []


@pytest.mark.parametrize(
    "target",
    [
        "/\t/evil.example",
        "/\t/evil.example?",
        "/%09/evil.example",
        "//evil.example",
        "///evil.example",
        "/\\evil.example",
        "\\\\evil.example",
        "/%5Cevil.example",
        "/%2Fevil.example",
        "%2F%2Fevil.example",
        "/\n/evil.example",
        "/\r\n/evil.example",
        "https://evil.example/",
        "http:/evil.example",
        "javascript:alert(1)",
        " //evil.example",
        "evil.example",
        "//[",
        "/%2F[",
        "",
    ],
)
def test_the_language_switch_goes_only_to_same_site_paths(client, target):
    response = client.post("/lang", data={"lang": "pl", "next": target})
    assert response.status_code == 303 and response.headers["Location"] == "/"


@pytest.mark.parametrize("target", ["/games", "/g/abc?part=live", "/players#top", "/g/x%20y"])
def test_the_language_switch_keeps_a_same_site_path(client, target):
    response = client.post("/lang", data={"lang": "pl", "next": target})
    assert response.headers["Location"] == target


def test_the_404_pages_language_form_cannot_be_turned_into_a_redirect(client):
    page = client.get("/%09/evil.example").get_data(as_text=True)
    assert 'name="next"' in page
    response = client.post("/lang", data={"lang": "pl", "next": "/\t/evil.example?"})
    assert response.headers["Location"] == "/"


def test_the_api_takes_the_edit_key_from_the_authorization_header_only(client):
    gid, key = created(client)
    # A browser sends a cookie on its own: it must not authorize a CSRF-exempt API write.
    client.set_cookie("edit_key", key, path="/")
    client.set_cookie("edit_key", key, path=f"/api/games/{gid}")
    refused = client.post(f"/api/games/{gid}/deals", json=FLAT)
    assert refused.status_code == 403 and "Authorization" in refused.get_json()["errors"][0]["message"]
    assert client.delete(f"/api/games/{gid}/deals/0").status_code in (403, 404)
    assert client.get(f"/api/games/{gid}").get_json()["deals"] == []
    ok = client.post(f"/api/games/{gid}/deals", json=FLAT, headers={"Authorization": f"Bearer {key}"})
    assert ok.status_code == 201


def test_a_page_number_past_any_database_integer_is_an_empty_page(client):
    response = client.get(f"/games?page={2**70}")
    assert response.status_code == 200 and "No game matches." in response.get_data(as_text=True)


def session_cookie(response) -> str:
    found = [c for c in response.headers.getlist("Set-Cookie") if c.startswith("session=")]
    assert len(found) == 1, response.headers.getlist("Set-Cookie")
    return found[0]


@pytest.mark.parametrize("scheme", ["https", "http"])
def test_the_session_cookie_is_secure_when_the_request_came_over_https(app, scheme):
    client = app.test_client()
    gid, _key = created(client)
    # A wrong scoring link flashes a notice: the session is written.
    response = client.get(f"/g/{gid}?key=wrong", base_url=f"{scheme}://localhost")
    cookie = session_cookie(response)
    assert ("; Secure" in cookie) is (scheme == "https")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie


def test_behind_a_proxy_the_session_cookie_follows_the_forwarded_scheme(database_url):
    from scorekeeper import create_app
    from tests.conftest import app_config

    app = create_app(app_config(database_url, PROXY_FIX=1))
    client = app.test_client()
    gid, _key = created(client)
    response = client.get(f"/g/{gid}?key=wrong", headers={"X-Forwarded-Proto": "https"})
    assert "; Secure" in session_cookie(response)
    from scorekeeper.db import db

    with app.app_context():
        db.engine.dispose()


def test_every_cookie_set_over_https_is_secure_httponly_and_lax(app):
    """The app's cookies are set one way (web.cookies.keep_cookie): over HTTPS each one a new
    game, a language switch and a first look at a game set says Secure, HttpOnly, SameSite=Lax."""
    base = "https://localhost"
    client = app.test_client()
    seen = []
    made = client.post(
        "/new/tally", data={"players_0": "Ann", "players_1": "Bob", "first_dealer": "0"}, base_url=base
    )
    assert made.status_code == 303
    seen += made.headers.getlist("Set-Cookie")
    seen += client.post("/lang", data={"lang": "pl"}, base_url=base).headers.getlist("Set-Cookie")
    first_look = app.test_client().get(made.headers["Location"], base_url=base)
    seen += first_look.headers.getlist("Set-Cookie")
    names = {c.split("=", 1)[0] for c in seen}
    assert {"edit_key", "device", "new_club", "lang", "opened"} <= names, names
    for cookie in seen:
        assert "; Secure" in cookie and "HttpOnly" in cookie and "SameSite=Lax" in cookie, cookie
