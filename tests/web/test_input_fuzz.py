"""Every route of clubs, events and their tables, fed the numbers ``int()`` and ``isdigit()``
disagree on and look-alike names (issue 57: N5, P15): 0 answers of 500.

A bounded loop over the app's URL map (the routes under /c/, /e/, /clubs and their API): each URL
part in turn given ``²``, ``①``, ``١٢`` and ``٣``; every body field that takes a number given
them too; ``If-Match`` and ``X-Live-Since`` holding them; with the member's and the director's
credentials so the views run past their lookups."""

from __future__ import annotations

from tests.web.test_hall_fuzz import (
    INT_ARGUMENTS,
    credentials,
    methods_of,
    real_values,
    routes,
    signed_in,
    sweep,
    url_for_rule,
    world,
)

ODD = ["²", "①", "١٢", "٣", "⁴0", "1_0", "+1", " 1"]
LOOK_ALIKE = ["Оlga", "Fuzz Наll", "Оwn", "B0b"]
PREFIXES = ("/c/", "/e/", "/clubs", "/api/clubs", "/api/events")
INT_PARTS = set(INT_ARGUMENTS)
NUMERIC_FIELDS = (
    "expires", "rounds", "hands", "minutes", "sit_out", "table_size", "base_version", "best",
    "first_dealer", "page", "private", "close", "number", "table",
)  # fmt: skip


def bodies(odd: str, name: str) -> list[dict]:
    form = {field: odd for field in NUMERIC_FIELDS}
    form.update(name=name, player=name, add=name, withdraw=name, confirm=name, by=name, role="member")
    as_json = {field: odd for field in NUMERIC_FIELDS}
    as_json.update(
        name=name, player=name, add=[name], withdraw=[name], by=name, players=[name, "A", "B", "C"]
    )
    return [{"data": form}, {"json": as_json}]


def odd_calls(app, w: dict):
    for rule in routes(app, PREFIXES):
        real = real_values(rule.rule, w)
        urls = [url_for_rule(rule.rule, real)]
        urls += [
            url_for_rule(rule.rule, {**real, part: odd})
            for part in rule.arguments & INT_PARTS
            for odd in ODD[:4]
        ]
        for n, url in enumerate(urls):
            odd, name = ODD[n % len(ODD)], LOOK_ALIKE[n % len(LOOK_ALIKE)]
            headers = {
                **credentials(url, w),
                "If-Match": f'"{odd}"',
                "X-Live-Since": f'W/"{w["table_game"]}.{odd}.en"',
                "HX-Request": "true",
            }
            for method in methods_of(rule):
                query = f"?best={odd}&page={odd}&at={odd}&from={odd}&game=euchre" if method == "GET" else ""
                for variant in bodies(odd, name) if method != "GET" else [{}]:
                    yield method, url + query, headers, variant


def test_every_club_and_event_route_with_odd_digits_and_look_alikes_never_answers_500(app, client):
    w = world(app, client)
    calls, failures = sweep(signed_in(app, w), odd_calls(app, w))
    assert calls > 120
    assert failures == [], "\n".join(failures[:40])
