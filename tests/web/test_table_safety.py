"""Nobody but the scorer changes a game, by any route; safe headers, cookies, escaping and limits."""

from __future__ import annotations

import io
import re
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import urljoin, urlsplit

import pytest
from flask import Flask
from sqlalchemy import select

from scorekeeper import DEFAULT_SECRET_KEY, create_app
from scorekeeper.db import db
from scorekeeper.models import Change
from scorekeeper.web.security import InsecureConfig, ensure_secret_key, instance_secret_key
from tests.conftest import bearer, sa_form
from tests.web.table_helpers import FLAT, api_game, games_of_every_kind, hidden, snapshot

WRITE_METHODS = {"POST", "PUT", "PATCH", "DELETE"}
# Routes whose credential is the address itself (a player's private link): a wrong one is 404.
URL_CREDENTIAL = {"secrets.private", "secrets.private_orders", "secrets.private_live"}


def game_write_routes(app: Flask):
    """Every route that can change a game: a write method and a game in its address."""
    for rule in app.url_map.iter_rules():
        methods = (rule.methods or set()) & WRITE_METHODS
        if methods and "game_id" in rule.arguments:
            for method in sorted(methods):
                yield rule, method


def fill(app: Flask, rule, game_id: str) -> str:
    values = {}
    for name in rule.arguments:
        if name == "game_id":
            values[name] = game_id
        elif name == "change_id":
            with app.app_context():
                values[name] = db.session.scalar(
                    select(Change.id).where(Change.game_id == game_id).order_by(Change.id).limit(1)
                )
        elif rule._converters[name].__class__.__name__ == "IntegerConverter":
            values[name] = 0
        else:
            values[name] = "x" * 20
    with app.test_request_context():
        return app.url_map.bind("localhost").build(rule.endpoint, values, method=None)


def attackers(app: Flask, other_key: str):
    """A viewer (no key), and clients with a wrong key: another game's real one, in each place a key goes."""
    yield "viewer", app.test_client(), {}, ""
    wrong_cookie = app.test_client()
    wrong_cookie.set_cookie("edit_key", other_key, path="/")
    yield "cookie", wrong_cookie, {}, ""
    yield "bearer", app.test_client(), bearer(other_key), ""
    yield "query", app.test_client(), {}, "?key=" + other_key
    yield "garbage", app.test_client(), {"Authorization": "Bearer \x7f' OR 1=1 --"}, ""


def test_every_write_route_refuses_viewers_and_wrong_keys_and_changes_nothing(app, client):
    games = games_of_every_kind(client)
    _other_id, other_key = api_game(client)
    # A deal in the Secret Agent game, so its deal routes have a deal to aim at.
    sa_id, sa_key = games["secret_agent"]
    assert client.post(f"/api/games/{sa_id}/deals", json=FLAT, headers=bearer(sa_key)).status_code == 201
    routes = list(game_write_routes(app))
    endpoints = {rule.endpoint for rule, _ in routes}
    # The routes this suite knows of are all there; any route added later is covered by itself.
    assert {
        "games.add_deal",
        "games.save_draft",
        "games.edit_deal",
        "games.delete_deal",
        "table.undo",
        "table.delete_game",
        "table.restore_game",
        "api.append_deal",
        "api.replace_deal",
        "api.delete_deal",
    } <= endpoints
    before = snapshot(app)
    version = client.get(f"/api/games/{sa_id}").headers["ETag"].strip('"')
    form = {**sa_form([4, 3, 3, 3], "LORS"), "base_version": version}
    refused: dict[str, set[int]] = {}
    for rule, method in routes:
        for kind, (game_id, _key) in games.items():
            path = fill(app, rule, game_id)
            for who, attacker, headers, query in attackers(app, other_key):
                if rule.endpoint.startswith("api."):
                    response = attacker.open(path + query, method=method, json=FLAT, headers=headers)
                else:
                    data = {**form, "submit_token": f"tok-{who}-{kind}".replace("/", "-")}
                    response = attacker.open(path + query, method=method, data=data, headers=headers)
                status = response.status_code
                refused.setdefault(rule.endpoint, set()).add(status)
                allowed = {404} if rule.endpoint in URL_CREDENTIAL else {403, 404}
                assert status in allowed, (rule.rule, method, kind, who, status)
    for endpoint, statuses in refused.items():
        if endpoint not in URL_CREDENTIAL:
            # 404 only where a route does not apply to a kind of game; each route asks for the key.
            assert 403 in statuses, (endpoint, statuses)
    assert snapshot(app) == before
    # And the key does open each of them (the matrix above is not refusing everything).
    assert client.get(f"/g/{sa_id}?key={sa_key}").status_code == 303  # the scorer's cookie
    for rule, method in routes:
        if rule.endpoint in URL_CREDENTIAL or rule.endpoint.startswith("secrets."):
            continue
        path = fill(app, rule, sa_id)
        if rule.endpoint.startswith("api."):
            response = client.open(path, method=method, json=FLAT, headers=bearer(sa_key))
        else:
            response = client.open(path, method=method, data={})
        assert response.status_code != 403, (rule.rule, method)


def test_history_and_hand_over_are_for_the_scorer_only(app, client, new_game):
    path = new_game()
    viewer = app.test_client()
    for page in ("history", "handover"):
        assert client.get(f"{path}/{page}").status_code == 200
        assert viewer.get(f"{path}/{page}").status_code == 403


# ---- Headers and cookies


def test_security_headers_on_pages_api_static_and_errors(client, new_game):
    path = new_game()
    gid = path.rsplit("/", 1)[1]
    for url in ("/", path, f"/api/games/{gid}", "/static/app.css", "/nope", f"{path}/live?part=live"):
        response = client.get(url)
        headers = response.headers
        csp = dict((part.split(" ", 1) + [""])[:2] for part in headers["Content-Security-Policy"].split("; "))
        assert csp["script-src"] == "'self'" and csp["style-src"] == "'self'", url
        assert csp["default-src"] == "'self'" and csp["frame-ancestors"] == "'none'"
        assert csp["object-src"] == "'none'" and csp["base-uri"] == "'none'"
        assert (
            "unsafe" not in headers["Content-Security-Policy"]
            and "http" not in headers["Content-Security-Policy"]
        )
        assert headers["X-Content-Type-Options"] == "nosniff"
        assert headers["Referrer-Policy"] in ("same-origin", "no-referrer")
        assert headers["X-Frame-Options"] == "DENY"
        assert "camera=()" in headers["Permissions-Policy"]


def test_scoring_links_never_leave_as_a_referer(app, client):
    gid, key = api_game(client)
    other = app.test_client()
    response = other.get(f"/g/{gid}?key={key}")
    assert response.status_code == 303 and response.headers["Location"] == f"/g/{gid}"
    assert response.headers["Referrer-Policy"] == "no-referrer"
    handover = other.get(f"/g/{gid}/handover")
    assert handover.headers["Referrer-Policy"] == "no-referrer"
    assert handover.headers["Cache-Control"] == "no-store"
    # The game page itself does not carry the key: only the hand-over page does.
    assert key not in other.get(f"/g/{gid}").get_data(as_text=True)
    assert key in handover.get_data(as_text=True)


def test_cookies_are_httponly_and_samesite(database_url):
    app = create_app(
        {"SECRET_KEY": "cookies", "SQLALCHEMY_DATABASE_URI": database_url, "AUTO_MIGRATE": False}
    )
    client = app.test_client()
    page = client.get("/new/secret_agent")
    session_cookie = page.headers["Set-Cookie"]
    assert session_cookie.startswith("session=")
    assert "HttpOnly" in session_cookie and "SameSite=Lax" in session_cookie
    token = hidden(page.get_data(as_text=True), "csrf_token")
    data = {"csrf_token": token, "players_0": "A", "players_1": "B", "players_2": "C", "players_3": "D"}
    created = client.post("/new/secret_agent", data=data)
    assert created.status_code == 303
    cookies = {c.split("=", 1)[0]: c for c in created.headers.getlist("Set-Cookie")}
    assert "HttpOnly" in cookies["edit_key"] and "SameSite=Lax" in cookies["edit_key"]
    assert f"Path={created.headers['Location']}" in cookies["edit_key"]
    assert "HttpOnly" in cookies["device"] and "SameSite=Lax" in cookies["device"]
    with app.app_context():
        db.session.remove()


class Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.problems: list[str] = []
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        names = dict(attrs)
        if tag == "script" and not names.get("src"):
            self.problems.append("inline <script>")
        if tag == "style":
            self.problems.append("<style>")
        for name, value in attrs:
            if (
                name == "style"
                or name.startswith("on")
                or (value or "").strip().lower().startswith("javascript:")
            ):
                self.problems.append(f"<{tag} {name}={value!r}>")
        if tag == "a" and names.get("href") and "download" not in names:
            self.links.append(names["href"])


def test_no_page_has_inline_script_style_or_handlers(app, client):
    """Crawl every page a scorer can reach (all games' kinds): nothing the CSP would block."""
    games = games_of_every_kind(client)
    sa_id, sa_key = games["secret_agent"]
    client.post(f"/api/games/{sa_id}/deals", json=FLAT, headers=bearer(sa_key))
    todo = ["/", "/new", *(f"/g/{gid}" for gid, _ in games.values()), "/nope"]
    todo += [f"/g/{sa_id}/history", f"/g/{sa_id}/handover"]
    seen: set[str] = set()
    while todo and len(seen) < 120:
        url = todo.pop(0)
        if url in seen:
            continue
        seen.add(url)
        response = client.get(url)
        if not response.content_type.startswith("text/html"):
            continue
        parser = Tags()
        parser.feed(response.get_data(as_text=True))
        assert not parser.problems, (url, parser.problems)
        for link in parser.links:
            target = urljoin(url, link)
            parts = urlsplit(target)
            local = parts.netloc in ("", "localhost") and parts.path.startswith("/")
            # Pages only: a PDF, a CSV or a JSON record is no page (and a PDF takes seconds to print).
            if local and "key=" not in target and not re.search(r"\.(pdf|csv|json)$", parts.path):
                todo.append(parts.path + (f"?{parts.query}" if parts.query else ""))
    assert len(seen) > 15


# ---- Escaping


NASTY = ["<script>alert(1)</script>", '"><img src=x onerror=alert(2)>', "Ann & <b>Bob</b>", "Dee"]


def test_player_names_are_shown_as_text_everywhere(app, client):
    gid, key = api_game(client, players=NASTY, options={"deals": 4})
    client.post(f"/api/games/{gid}/deals", json=FLAT, headers=bearer(key))
    client.put(f"/api/games/{gid}/deals/0", json={**FLAT, "trump": "H"}, headers=bearer(key))
    scorer = app.test_client()
    scorer.get(f"/g/{gid}?key={key}")
    pages = [
        scorer.get(f"/g/{gid}"),
        scorer.get(f"/g/{gid}/deals/0"),
        scorer.get(f"/g/{gid}/history"),
        scorer.get(f"/g/{gid}/sheet"),
        scorer.get(f"/g/{gid}/live?part=live"),
        scorer.get(f"/g/{gid}/live?part=board"),
        app.test_client().get(f"/g/{gid}"),
        app.test_client().get("/"),
    ]
    for response in pages:
        html = response.get_data(as_text=True)
        assert response.status_code == 200
        assert "<script>alert" not in html and "<img src=x" not in html and "<b>Bob" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in pages[0].get_data(as_text=True)
    assert "&lt;img src=x onerror=alert(2)&gt;" in pages[0].get_data(as_text=True)


# ---- The secret key


def test_production_refuses_the_default_secret_key(database_url):
    config = {"SQLALCHEMY_DATABASE_URI": database_url, "AUTO_MIGRATE": False}
    with pytest.raises(InsecureConfig):
        create_app({**config, "SECRET_KEY": DEFAULT_SECRET_KEY})
    # Debugging and testing may use it.
    assert create_app({**config, "SECRET_KEY": DEFAULT_SECRET_KEY, "TESTING": True}).testing
    assert create_app({**config, "SECRET_KEY": DEFAULT_SECRET_KEY, "DEBUG": True}).debug


def test_with_no_key_configured_an_instance_key_is_made_once_and_kept(tmp_path):
    app = Flask("fresh", instance_path=str(tmp_path / "instance"))
    app.config["SECRET_KEY"] = None
    ensure_secret_key(app, DEFAULT_SECRET_KEY)
    key = app.config["SECRET_KEY"]
    stored = Path(app.instance_path) / "secret_key"
    assert len(key) >= 32 and stored.read_text().strip() == key
    assert stored.stat().st_mode & 0o077 == 0  # its owner's only
    assert instance_secret_key(Path(app.instance_path)) == key  # the next start uses the same
    again = Flask("fresh", instance_path=str(tmp_path / "instance"))
    again.config["SECRET_KEY"] = None
    ensure_secret_key(again, DEFAULT_SECRET_KEY)
    assert again.config["SECRET_KEY"] == key


# ---- Limits and error pages


def test_requests_over_the_size_limit_are_413_with_a_styled_page(client, new_game):
    path = new_game()
    big = "x" * (1024 * 1024 + 10)
    page = client.post(f"{path}/deals", data={"tricks_0": big})
    assert page.status_code == 413
    html = page.get_data(as_text=True)
    assert "too large" in html and "app.css" in html and "Back to my entry" in html
    fragment = client.post(f"{path}/deals", data={"tricks_0": big}, headers={"HX-Request": "true"})
    assert fragment.status_code == 413 and "<html" not in fragment.get_data(as_text=True)
    api = client.post("/api/games", data=big, content_type="application/json")
    assert api.status_code == 413 and api.json["errors"][0]["message"]
    # One form field may not be huge either.
    assert client.post(f"{path}/deals", data={"tricks_0": "x" * 100_000}).status_code == 413


@pytest.mark.parametrize("multipart", [False, True], ids=["urlencoded", "multipart"])
def test_one_form_field_over_64_kib_is_413_whatever_werkzeug_does(client, new_game, multipart):
    """The per-field limit is the app's own (Werkzeug 3.1.9 stopped enforcing it for url-encoded forms)."""
    path = new_game()
    before = client.get(f"/api/games/{path.rsplit('/', 1)[-1]}").json

    def extra():
        return {"attachment": (io.BytesIO(b"x"), "x.txt")} if multipart else {}

    big = client.post(f"{path}/deals", data={"tricks_0": "1" * 100_000, **extra()})
    assert big.status_code == 413
    # Just under the limit is parsed, and the rules refuse it by name instead.
    near = client.post(f"{path}/deals", data={"tricks_0": "1" * 60_000, **extra()})
    assert near.status_code == 422
    assert client.get(f"/api/games/{path.rsplit('/', 1)[-1]}").json == before


@pytest.mark.parametrize("code", [400, 403, 404, 409, 413, 422])
def test_error_pages_are_styled_and_say_what_happened(app, code):
    from flask import abort

    @app.get(f"/boom-{code}")
    def boom():
        abort(code)

    response = app.test_client().get(f"/boom-{code}")
    html = response.get_data(as_text=True)
    assert response.status_code == code
    assert 'class="error-page"' in html and "app.css" in html and f"<h1>{code}</h1>" in html
    assert re.search(r'class="error-page"[^>]*>\s*<h1>\d+</h1>\s*<p>\s*\S', html)


def test_a_nul_character_anywhere_is_refused_not_a_crash(client, new_game):
    """PostgreSQL text cannot hold NUL: it is refused at the door (400), on every database."""
    path = new_game()
    names = {"players_0": "A\x00b", "players_1": "B", "players_2": "C", "players_3": "D"}
    assert client.post("/new/secret_agent", data=names).status_code == 400
    assert (
        client.post(
            "/api/games", json={"game": "secret_agent", "players": ["A\x00", "B", "C", "D"]}
        ).status_code
        == 400
    )
    assert client.post(f"{path}/deals", data={"tricks_0": "\x00"}).status_code == 400
    assert client.get(path + "?key=%00").status_code == 400
    from scorekeeper.service import RecordError, parse_record

    with pytest.raises(RecordError):
        parse_record({"game": "secret_agent", "players": ["A\x00", "B", "C", "D"]})
