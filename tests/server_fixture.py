"""A populated server, made through the public API and pages as people would, and every answer
it gives to every credential: the differential tests of backup and restore compare these."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from scorekeeper.db import db
from scorekeeper.models import Player
from tests.clubs.helpers import bearer, join, new_club

SLUG = "the-lodge"
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
NIGHT = {
    "name": "Euchre night",
    "format": "progressive",
    "game": "euchre",
    "players": PLAYERS,
    "hands": 1,
    "rounds": 3,
    "confirm": True,
}
MADE_02 = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3}
MARCH_13 = {"trump": "S", "maker": 1, "alone": False, "defender_alone": None, "maker_tricks": 5}
VALUES = [[4, 0, 0, 0, 0, 0, 0, 0, 0, 41], [0, 6, 0, 0, 0, 0, 0, 0, 0, 39], [0, 0, 8, 0, 0, 0, 0, 0, 0, 37]]
DEVICE = "device-token-of-the-scorers-phone-0001"


@dataclass
class Server:
    """What the populated server's people hold: their keys and the things' ids."""

    keys: dict[str, str] = field(default_factory=dict)
    games: dict[str, str] = field(default_factory=dict)  # name -> id
    edit_keys: dict[str, str] = field(default_factory=dict)  # game id -> edit key
    event: str = ""
    invite: str = ""
    seat_links: list[str] = field(default_factory=list)
    player_links: list[str] = field(default_factory=list)


def ok(answer, status=(200, 201, 202, 204, 303)) -> Any:
    assert answer.status_code in status, (answer.status_code, answer.get_data(as_text=True)[:400])
    return answer.get_json(silent=True)


def populate(app) -> Server:
    """A club (owner, admin, member; a live invite, a revoked one, a private player), a
    progressive event played and confirmed with a director's correction and its reason, a club
    game, a personal game on a phone's list, a Hidden Secrets game with a seat's orders pending."""
    s = Server()
    client = app.test_client()
    made = new_club(client, "The Lodge", "Olga")
    s.keys["owner"] = made["member_key"]
    admin_invite = ok(
        client.post(f"/api/clubs/{SLUG}/invites", json={"role": "admin"}, headers=bearer(s.keys["owner"]))
    )["invite"]
    s.keys["admin"] = join(app.test_client(), SLUG, admin_invite, "Ada")["member_key"]
    s.keys["member"] = join(app.test_client(), SLUG, made["invite"], "Mel")["member_key"]
    gone = ok(client.post(f"/api/clubs/{SLUG}/invites", json={}, headers=bearer(s.keys["owner"])))["invite"]
    ok(client.delete(f"/api/clubs/{SLUG}/invites/{gone}", headers=bearer(s.keys["owner"])))
    s.invite = ok(client.post(f"/api/clubs/{SLUG}/invites", json={}, headers=bearer(s.keys["admin"])))[
        "invite"
    ]
    new_club(client, "Elsewhere", "Otto")

    # The evening: round 1 played, one table confirmed by an opponent, then corrected by the
    # director with a reason after the round closed; round 2 under way.
    night = ok(client.post(f"/api/clubs/{SLUG}/events", json=NIGHT, headers=bearer(s.keys["member"])))
    s.event, s.keys["director"] = night["id"], night["director_key"]
    director = bearer(s.keys["director"])
    tables = ok(client.post(f"/api/events/{s.event}/rounds", json={"close": False}, headers=director))[
        "tables"
    ]
    for n, table in enumerate(tables):
        s.edit_keys[table["game"]] = table["edit_key"]
        ok(client.post(f"/api/games/{table['game']}/deals", json=MADE_02, headers=bearer(table["edit_key"])))
        confirm = f"/api/events/{s.event}/rounds/1/tables/{n + 1}/confirm"
        ok(client.post(confirm, json={"by": table["seats"][1]}, headers=bearer(table["edit_key"])))
    s.games["table"] = tables[0]["game"]
    s.keys["table"] = tables[0]["edit_key"]
    round2 = ok(client.post(f"/api/events/{s.event}/rounds", json={"close": True}, headers=director))
    for table in round2["tables"]:
        s.edit_keys[table["game"]] = table["edit_key"]
    ok(
        client.put(
            f"/api/games/{s.games['table']}/deals/0",
            json={**MARCH_13, "reason": "Bob had five tricks"},
            headers=director,
        )
    )
    ok(
        client.post(
            f"/api/games/{round2['tables'][0]['game']}/deals",
            json=MADE_02,
            headers=bearer(round2["tables"][0]["edit_key"]),
        )
    )

    # A club game, a personal game on a phone's "My games", a Hidden Secrets game.
    club_game = ok(
        client.post(
            "/api/games",
            json={"game": "tally", "players": ["Ann", "Mel"], "deals": [{"points": [3, 5]}], "club": SLUG},
            headers=bearer(s.keys["owner"]),
        )
    )
    s.games["club"] = club_game["id"]
    s.edit_keys[club_game["id"]] = club_game["edit_key"]
    phone = app.test_client()
    phone.set_cookie("device", DEVICE)
    own = ok(
        phone.post(
            "/api/games", json={"game": "tally", "players": ["Zoe", "Yan"], "deals": [{"points": [1, 2]}]}
        )
    )
    s.games["personal"] = own["id"]
    s.edit_keys[own["id"]] = own["edit_key"]
    ok(phone.get(f"/g/{own['id']}"))
    ok(phone.get(f"/g/{club_game['id']}"))
    secrets = ok(
        client.post(
            "/api/games",
            json={
                "game": "secrets",
                "players": ["Ann", "Bob", "Cid"],
                "options": {"hidden": True, "values": VALUES, "spies_may_stay": True},
            },
        )
    )
    s.games["secrets"] = secrets["id"]
    s.edit_keys[secrets["id"]] = secrets["edit_key"]
    seats = ok(client.get(f"/api/games/{secrets['id']}/seats", headers=bearer(secrets["edit_key"])))["seats"]
    s.keys["seat"] = seats[0]["token"]
    s.seat_links = [seat["link"].split("://", 1)[-1].split("/", 1)[-1] for seat in seats]
    s.seat_links = ["/" + link for link in s.seat_links]
    ok(
        client.put(
            f"/api/games/{secrets['id']}/orders/0",
            json={"orders": [], "guard": "A"},
            headers=bearer(s.keys["seat"]),
        )
    )
    with app.app_context():
        db.session.add(Player(club_id=club_id(SLUG), name="Hal", private=True))
        db.session.commit()
    # The players' own links, as the director's page lists them.
    director_page = app.test_client()
    ok(director_page.get(f"/e/{s.event}/direct?key={s.keys['director']}"))
    page = director_page.get(f"/e/{s.event}").get_data(as_text=True)
    s.player_links = sorted(set(re.findall(rf"/e/{s.event}/p/\d+/[A-Za-z0-9_-]+", page)))[:2]
    assert len(s.player_links) == 2, "the director's page lists the players' links"
    # Archived: the personal game leaves the phone's home page.
    return s


def club_id(slug: str) -> int:
    from scorekeeper.models import Club

    return db.session.query(Club.id).filter(Club.slug == slug).scalar()


# -- every answer to every credential ----------------------------------------------------------

SKIPPED = {"static", "records.download_pdf", "docs.openapi", "pwa.service_worker", "pwa.manifest"}


def get_urls(app, s: Server) -> list[str]:
    """Every GET route of the app, with each of its parameters filled from the server's things."""
    values: dict[str, list[Any]] = {
        "slug": [SLUG, "elsewhere"],
        "game_id": sorted(s.edit_keys),
        "event_id": [s.event],
        "k": [0],
        "seat": [0, 1],
        "number": [1],
        "table_number": [1],
        "game": ["euchre", "secrets"],
        "token": [s.invite],
        "entrant": [0],
        "kind": ["tally", "secrets"],
    }
    urls: list[str] = []
    for rule in app.url_map.iter_rules():
        if "GET" not in rule.methods or rule.endpoint in SKIPPED:
            continue
        combos: list[dict[str, Any]] = [{}]
        for arg in sorted(rule.arguments):
            # A parameter of a route added later and not known here: that route is left out.
            combos = [{**c, arg: v} for c in combos for v in values.get(arg, [])]
        for combo in combos:
            if rule.endpoint.startswith("secrets.private") or rule.endpoint == "events.player":
                continue  # the tokens' links, below
            urls.append(re.sub(r"<(?:[a-z]+:)?([a-z_]+)>", lambda m, c=combo: str(c[m.group(1)]), rule.rule))
    urls += s.seat_links + [link + "/live" for link in s.seat_links] + s.player_links
    urls += [f"/c/{SLUG}/player?name=Ann", f"/c/{SLUG}/player?name=Hal", "/games?page=1"]
    return sorted(set(urls))


def credentials(s: Server) -> dict[str, dict[str, Any]]:
    """Who asks: a member's key (cookie and Bearer), the director's, a table's edit key, a seat's
    token, the phone with "My games", a stranger."""
    creds: dict[str, dict[str, Any]] = {"stranger": {}}
    for role in ("owner", "admin", "member"):
        creds[role] = {"cookies": [("member", s.keys[role], "/")], "bearer": s.keys[role]}
    creds["director"] = {"bearer": s.keys["director"], "direct": True}
    creds["table"] = {
        "cookies": [("edit_key", s.keys["table"], f"/g/{s.games['table']}")],
        "bearer": s.keys["table"],
    }
    creds["scorer"] = {
        "cookies": [("device", DEVICE, "/")]
        + [("edit_key", key, f"/g/{gid}") for gid, key in s.edit_keys.items()],
        "per_game": True,
    }
    creds["seat"] = {"bearer": s.keys["seat"]}
    return creds


TIMES = re.compile(r"\d{4}-\d\d-\d\d[T ]\d\d:\d\d(:\d\d(\.\d+)?)?(Z|[+-]\d\d:?\d\d)?")
# A page's one-time tokens (CSRF, a form's submission token) are new on every answer.
CSRF = re.compile(r'(name="(?:csrf_token|submit_token)"[^>]*value=")[^"]*"')
# "3 seconds ago": the same time, read a little later.
AGO = re.compile(r"\b(\d+|a|an) (second|minute|hour)s? ago\b")


def answers(app, s: Server) -> dict[tuple[str, str], tuple[int, str]]:
    """(credential, url) -> (status, body with times and CSRF tokens blanked)."""
    out: dict[tuple[str, str], tuple[int, str]] = {}
    urls = get_urls(app, s)
    for who, cred in credentials(s).items():
        client = app.test_client()
        for name, value, path in cred.get("cookies", []):
            client.set_cookie(name, value, path=path)
        if cred.get("direct"):
            ok(client.get(f"/e/{s.event}/direct?key={s.keys['director']}"), (200, 302, 303))
        for url in urls:
            headers = {}
            key = cred.get("bearer")
            if cred.get("per_game"):
                gid = re.match(r"/api/games/([^/]+)", url)
                key = s.edit_keys.get(gid.group(1)) if gid else None
            if key and url.startswith("/api/"):
                headers["Authorization"] = f"Bearer {key}"
            answer = client.get(url, headers=headers)
            if answer.status_code >= 300:
                body = answer.location or ""
            elif answer.mimetype == "application/pdf":
                body = answer.mimetype  # a printed sheet carries its printing time: its kind is compared
            else:
                body = answer.get_data(as_text=True)
            out[(who, url)] = (answer.status_code, AGO.sub("ago", CSRF.sub(r"\1", TIMES.sub("T", body))))
    return out
