"""Every route, fed hostile names and numbers (issue 39): 0 answers of 500.

Each route of the app's URL map is called with every method it takes: once with real ids of a
club, its games, an event and a Hidden Secrets game (so the views run past their lookups, with the
scorer's, member's and director's credentials), then with each URL part hostile in turn; bodies as
JSON, as a form, and as JSON holding a 5,000-digit number. Names carry bidi overrides, zero-width
characters, line breaks, formulas and thousands of characters; numbers are huge, negative and
fractional."""

from __future__ import annotations

import json

from scorekeeper.events import service as events
from tests.clubs.helpers import bearer, club_game, new_club
from tests.web.table_helpers import FLAT, api_game

NAMES = [
    "A\u202eB",
    "\u200b",
    "Two\nlines",
    "=cmd|' /C calc'!A0",
    "+1+1",
    "😀" * 60,
    "x" * 5000,
    " ",
    "<script>alert(1)</script>",
    "../../etc/passwd",
    "\u2066Iso\u2069",
]
NUMBERS = [10**40, -(10**40), 2**63, -1, 0, 1.5, 1e308, -1e308, True]
HUGE = "9" * 5000  # more digits than Python reads as an int by default
INTS = ["0", "1", str(10**30), HUGE]
STRINGS = ["x" * 300, "%E2%80%AE", "Ünïcödé", "a.b", "0"]


def json_body(slug: str) -> dict:
    return {
        "game": "euchre",
        "players": NAMES[:4],
        "name": NAMES[0],
        "player": NAMES[2],
        "club": slug,
        "deals": [{"points": [10**40, -(10**40)]}, {"tricks": NUMBERS[:4], "agents": NAMES[:4]}],
        "tricks": NUMBERS[:4],
        "points": NUMBERS[:2],
        "options": {"deals": 10**40, "values": [[2**64] * 10]},
        "values": [2**64, -1, 1e308],
        "orders": NAMES[:3],
        "first_dealer": 10**40,
        "invite": NAMES[6],
        "role": "admin",
        "expires": 10**20,
        "format": "progressive",
        "rounds": 10**9,
        "hands": -5,
        "add": NAMES,
        "withdraw": NAMES[:2],
        "reason": "x" * 10000,
        "close": "yes",
        "confirm": True,
    }


def form_body() -> dict:
    form = {f"players_{n}": NAMES[n] for n in range(4)}
    form.update(
        {
            "first_dealer": HUGE,
            "name": NAMES[0],
            "player": NAMES[1],
            "pick": NAMES[2],
            "role": NAMES[3],
            "expires": HUGE,
            "confirm": NAMES[6],
            "confirmed": "yes",
            "add": "\n".join(NAMES),
            "withdraw": NAMES[0],
            "reason": "x" * 5000,
            "old": NAMES[0],
            "new": NAMES[1],
            "private": HUGE,
            "base_version": HUGE,
            "submit_token": NAMES[0],
            "k": "-1",
            "opt_deals": "-1",
            "format": "progressive",
            "game": "euchre",
            "players": "\n".join(NAMES),
            "hands": HUGE,
            "rounds": "-3",
            "lang": NAMES[0],
            "back": NAMES[1],
            "same": "1",
        }
    )
    for n in range(4):
        form[f"tricks_{n}"] = str(NUMBERS[n])
        form[f"points_{n}"] = HUGE if n % 2 else "-1e308"
        form[f"agent_{n}"] = NAMES[n]
    return form


def world(app, client) -> dict:
    """Real things for the URLs: a club and its game, a personal game, an event, Hidden Secrets."""
    club = new_club(client, "Fuzz Hall")
    game = club_game(client, club["slug"], club["member_key"], ["Ann", "Bob"], [{"points": [3, 1]}])
    gid, key = api_game(client, deals=[FLAT, FLAT])
    secrets = client.post(
        "/api/games",
        json={
            "game": "secrets",
            "players": ["Ann", "Bob", "Cid"],
            "options": {"hidden": True, "values": [[4, 0, 0, 0, 0, 0, 0, 0, 0, 41]] * 3},
        },
    ).get_json()
    seats = client.get(f"/api/games/{secrets['id']}/seats", headers=bearer(secrets["edit_key"])).get_json()
    with app.app_context():
        event, director = events.create_event(
            {
                "name": "Night",
                "format": "progressive",
                "game": "euchre",
                "players": list("ABCDEFGH"),
                "hands": 1,
            }
        )
        event_id = event.id
    rnd = client.post(f"/api/events/{event_id}/rounds", json={}, headers=bearer(director)).get_json()
    return {
        "club": club,
        "club_game": game["id"],
        "game": gid,
        "key": key,
        "secrets": secrets["id"],
        "secrets_key": secrets["edit_key"],
        "seat_token": seats["seats"][0]["token"],
        "event": event_id,
        "director": director,
        "table_game": rnd["tables"][0]["game"],
    }


def real_values(rule: str, w: dict) -> dict:
    secrets = "/secrets/" in rule or "/p/" in rule or "/orders/" in rule or "/allotment/" in rule
    return {
        "game_id": w["table_game"] if "/tables/" in rule else (w["secrets"] if secrets else w["game"]),
        "slug": w["club"]["slug"],
        "event_id": w["event"],
        "token": w["seat_token"] if secrets else w["club"]["invite"],
        "name": "Olga",
        "kind": "secret_agent",
        "game": "secret_agent",
        "k": "0",
        "seat": "0",
        "change_id": "1",
        "invite_id": "1",
        "member_id": "1",
        "key_id": "1",
        "number": "1",
        "table_number": "1",
        "entrant": "0",
    }


def url_for_rule(rule: str, values: dict) -> str:
    url = rule
    for name, value in values.items():
        for converter in ("", "int:"):
            url = url.replace(f"<{converter}{name}>", value)
    return url


def credentials(path: str, w: dict) -> dict:
    if path.startswith("/api/games"):
        return bearer(w["secrets_key"] if w["secrets"] in path else w["key"])
    if path.startswith("/api/events"):
        return bearer(w["director"])
    if path.startswith("/api/clubs"):
        return bearer(w["club"]["member_key"])
    return {}


# Routes that end what the others need: called after everything else.
LAST = ("/delete", "/remove", "/owner", "/signout", "/role")


def signed_in(app, w: dict, *games: tuple[str, str]):
    """A client holding the world's member cookie, the director's, and each of ``games``' keys
    (a (game id, edit key) pair), so the pages run past their lookups."""
    browser = app.test_client()
    browser.set_cookie("member", w["club"]["member_key"])
    for gid, key in games:
        browser.get(f"/g/{gid}?key={key}")
    browser.get(f"/e/{w['event']}/direct?key={w['director']}")
    return browser


def routes(app, prefixes: tuple[str, ...] = ("/",)) -> list:
    """The app's rules under ``prefixes`` (never static), the ones that end what others need last."""
    rules = [r for r in app.url_map.iter_rules() if r.endpoint != "static" and r.rule.startswith(prefixes)]
    rules.sort(key=lambda r: any(r.rule.endswith(tail) for tail in LAST))
    return rules


def methods_of(rule) -> list[str]:
    return sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})


def sweep(browser, calls) -> tuple[int, list[str]]:
    """Each ``(method, url, headers, variant)`` of ``calls`` sent once: how many were sent, and
    each one that raised (the suite's TESTING app raises what would be a 500) or answered 5xx."""
    failures: list[str] = []
    sent = 0
    for method, url, headers, variant in calls:
        sent += 1
        where = f"{method} {url[:130]} {list(variant)}"
        try:
            answer = browser.open(url, method=method, headers=headers, **variant)
        except Exception as exc:
            failures.append(f"{where}: {type(exc).__name__}: {str(exc)[:100]}")
            continue
        if answer.status_code >= 500:
            failures.append(f"{where}: {answer.status_code}")
    return sent, failures


INT_ARGUMENTS = (
    "k",
    "seat",
    "change_id",
    "invite_id",
    "member_id",
    "key_id",
    "number",
    "table_number",
    "entrant",
)


def hostile_calls(app, w: dict):
    for rule in routes(app):
        real = real_values(rule.rule, w)
        urls = [url_for_rule(rule.rule, real)]
        for argument in rule.arguments:
            for hostile in INTS if argument in INT_ARGUMENTS else STRINGS:
                urls.append(url_for_rule(rule.rule, {**real, argument: hostile}))
        for url in urls:
            queries = [
                "",
                f"?key={NAMES[0]}&player={NAMES[6]}&page={HUGE}&game={NAMES[3]}&part=live&as=scorer",
            ]
            for method in methods_of(rule):
                headers = credentials(url, w)
                variants: list[dict] = [{}]
                if method != "GET":
                    variants = [
                        {"json": json_body(w["club"]["slug"])},
                        {"data": form_body()},
                        {
                            "data": '{"players": ["A", "B"], "deals": [{"points": [' + HUGE + ", 1]}]}",
                            "content_type": "application/json",
                        },
                        {"json": [NAMES, NUMBERS]},
                    ]
                for query in queries if method == "GET" else [""]:
                    for variant in variants:
                        yield method, url + query, headers, variant


def test_every_route_with_hostile_names_and_numbers_never_answers_500(app, client):
    w = world(app, client)
    browser = signed_in(app, w, (w["game"], w["key"]), (w["secrets"], w["secrets_key"]))
    calls, failures = sweep(browser, hostile_calls(app, w))
    assert calls > 500
    assert failures == [], "\n".join(failures[:40])


def test_the_fuzz_bodies_are_what_they_say():
    """The JSON variant really holds the huge and hostile values (a guard on the test itself)."""
    text = json.dumps(json_body("s"))
    assert "\\u202e" in text and str(10**40) in text and len(HUGE) == 5000
