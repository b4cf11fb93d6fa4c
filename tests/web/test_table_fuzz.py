"""Garbage to every route (pages, forms, API): an answer, never a server error.

Every route of ``app.url_map`` is tried (a route added later is tried too), by
the scorer of real games of every kind, with hypothesis-made addresses, query
strings, headers, form fields and JSON bodies.
"""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import bearer
from tests.web.table_helpers import FLAT, games_of_every_kind

EXAMPLES = 6
# Printing a PDF takes a real Chromium a second or two: fewer tries there.
SLOW = {".pdf": 2}
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=30)
NASTY = st.sampled_from(
    ["", "0", "-1", "99999999999", "1e9", "null", "\x00", "<script>", "' OR 1=1 --", "é" * 50]
)
VALUES = st.one_of(TEXT, NASTY, st.integers(-(2**70), 2**70).map(str))
JSON = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**70), 2**70) | st.floats(allow_nan=False) | TEXT | NASTY,
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(TEXT | NASTY, inner, max_size=5),
    max_leaves=20,
)


def field_names(client, paths) -> list[str]:
    """Every input name the pages show (all games' entry forms, set-up, language...)."""
    names = {"base_version", "submit_token", "csrf_token", "discard", "back", "next", "lang", "key"}
    for path in paths:
        names.update(re.findall(r'name="([^"]+)"', client.get(path).get_data(as_text=True)))
    return sorted(names)


def test_no_route_answers_a_server_error_to_garbage(app, client):
    games = games_of_every_kind(client)
    sa_id, sa_key = games["secret_agent"]
    client.get(f"/g/{sa_id}?key={sa_key}")
    for _ in range(2):
        client.post(f"/api/games/{sa_id}/deals", json=FLAT, headers=bearer(sa_key))
    for gid, key in games.values():
        if key:
            client.get(f"/g/{gid}?key={key}")  # this client scores every game
    pages = ["/", "/new", *(f"/new/{kind}" for kind in games if "/" not in kind)]
    pages += [f"/g/{gid}" for gid, _ in games.values()] + [f"/g/{sa_id}/deals/0", f"/g/{sa_id}/history"]
    names = field_names(client, pages)
    ids = [gid for gid, _ in games.values()]
    keys = [key for _, key in games.values() if key]

    routes = [r for r in app.url_map.iter_rules() if r.endpoint != "static"]
    assert len(routes) > 20

    def fuzz(rule):
        methods = sorted((rule.methods or set()) - {"HEAD", "OPTIONS"})

        @settings(
            max_examples=next((n for end, n in SLOW.items() if rule.rule.endswith(end)), EXAMPLES),
            deadline=None,
            database=None,
            suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        )
        @given(data=st.data())
        def hit(data):
            values = {}
            for arg in sorted(rule.arguments):
                converter = type(rule._converters[arg]).__name__
                if arg == "game_id":
                    values[arg] = data.draw(st.sampled_from(ids) | TEXT.filter(bool), label=arg)
                elif converter == "IntegerConverter":
                    values[arg] = data.draw(st.integers(0, 2**40) | st.integers(0, 3), label=arg)
                else:
                    values[arg] = data.draw(
                        st.text(st.characters(blacklist_categories=("Cs",)), min_size=1, max_size=40),
                        label=arg,
                    )
            path = app.url_map.bind("localhost").build(rule.endpoint, values)
            method = data.draw(st.sampled_from(methods), label="method")
            query = data.draw(
                st.dictionaries(
                    st.sampled_from(["key", "part", "page", "kind", "paper", "lang"]) | TEXT,
                    VALUES,
                    max_size=3,
                ),
                label="query",
            )
            headers = data.draw(
                st.fixed_dictionaries(
                    {},
                    optional={
                        "HX-Request": st.just("true"),
                        "If-Match": VALUES,
                        "If-None-Match": VALUES,
                        "Idempotency-Key": VALUES,
                        "Authorization": st.sampled_from(keys).map(lambda k: f"Bearer {k}") | VALUES,
                        "Accept-Language": VALUES,
                    },
                ),
                label="headers",
            )
            headers = {k: v.replace("\r", "").replace("\n", "") for k, v in headers.items()}
            if rule.rule.startswith("/api/"):
                body = data.draw(
                    JSON.map(lambda j: {"json": j})
                    | st.binary(max_size=200).map(lambda b: {"data": b, "content_type": "application/json"}),
                    label="body",
                )
            else:
                form = data.draw(
                    st.dictionaries(st.sampled_from(names) | TEXT, VALUES, max_size=12), label="form"
                )
                body = {"data": form}
            response = client.open(path, method=method, query_string=query, headers=headers, **body)
            assert response.status_code < 500, (method, path, query, headers, body, response.status_code)

        return hit

    for rule in routes:
        fuzz(rule)()
