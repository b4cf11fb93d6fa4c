"""The published description is the API (issue 56): Schemathesis, a tool nobody here wrote, reads
/api/openapi.json and calls every operation of the app in-process with the keys a real client
holds (a game's edit key, a club member's key, an event's director key), every check on, a
fixed seed and bounded examples: 0 failures, on whichever database the suite runs.

What JSON Schema cannot state is named once, in :data:`BEYOND_SCHEMA`: there the one check that
would mistake the rule for a fault is off, for those calls only, and every other check stays on.
"""

from __future__ import annotations

import collections
import os

import pytest

schemathesis = pytest.importorskip("schemathesis")

from schemathesis.config import SchemathesisConfig  # noqa: E402
from schemathesis.engine import events, from_schema  # noqa: E402
from schemathesis.transport.wsgi import WSGITransport  # noqa: E402

from tests.clubs.helpers import bearer, new_club  # noqa: E402

SEED = 56
EXAMPLES = int(os.environ.get("SCHEMATHESIS_EXAMPLES", "2"))
PLAYERS = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
NIGHT = {"name": "Night", "format": "progressive", "game": "euchre", "players": PLAYERS, "hands": 1}

# The rules a JSON Schema cannot state, each with the calls it governs and the check it turns
# off there (a schema-valid request that the rule refuses is not a fault).
RULES = "positive_data_acceptance"
BEYOND_SCHEMA: list[tuple[str, str, str | tuple[str, ...]]] = [
    (
        "A game's rules: a deal's facts must fit the game being played (tricks summing to the "
        "deal's total, a bid per player...), a record's deals must replay; names are unique as "
        "the game compares them (trimmed, case-folded) and hold no invisible characters",
        "^/api/games",
        RULES,
    ),
    (
        "A record's keys its game does not read are left alone, as the spec says (a game of "
        "deals ignores turns, and Secrets deals); so are an event's settings its format does not read "
        "(a progressive evening's pairing)",
        "^/api/games$|^/api/clubs/[^/]+/events$",
        "negative_data_rejection",
    ),
    (
        "A club's and an event's names hold no line breaks, invisible characters or "
        "text-direction controls (Unicode categories: no JSON Schema pattern says it portably); "
        "an event's entrants are what its format takes (players, or pairs; enough for one table)",
        "^/api/clubs$|^/api/clubs/[^/]+/(events|join)$",
        RULES,
    ),
    (
        "An event's players: who is added is not in it yet, who withdraws is in it",
        "^/api/events/[^/]+/players$",
        RULES,
    ),
    (
        "A season ends on or after the day it starts",
        "^/api/clubs/[^/]+/season$",
        RULES,
    ),
    (
        "A call without its key is answered 403 (a game's write) or 404 (a club's or an event's, "
        "as for one that does not exist: clubs.md), never 401",
        "^/api/(games|clubs|events)",
        ("missing_required_header", "ignored_auth"),
    ),
]


@pytest.fixture
def wsgi_transport(monkeypatch):
    """Schemathesis 4's in-process transport passes the network's settings (max_redirects...)
    on to Werkzeug's client, which takes none of them: dropped, as its own requests path does."""
    send = WSGITransport.send

    def in_process(self, case, *, session=None, **kwargs):
        for name in ("max_redirects", "verify", "cert", "proxies"):
            kwargs.pop(name, None)
        return send(self, case, session=session, **kwargs)

    monkeypatch.setattr(WSGITransport, "send", in_process)


def keys(client) -> dict[str, dict]:
    game = client.post("/api/games", json={"game": "spades", "players": PLAYERS[:4]}).json
    club = new_club(client, "The Lodge", "Olga")
    event = client.post("/api/clubs/the-lodge/events", json=NIGHT, headers=bearer(club["member_key"])).json
    return {"game": game, "club": club, "event": event}


def config(held: dict[str, dict]) -> SchemathesisConfig:
    plain = {"Accept-Encoding": "identity"}  # the test client does not undo brotli or gzip

    def calls(regex: str, key: str, **parameters: str) -> dict:
        return {
            "include-path-regex": regex,
            "headers": {**plain, "Authorization": f"Bearer {key}"},
            "parameters": parameters,
        }

    operations = [
        {"include-path-regex": "^/api/openapi", "headers": plain},
        calls("^/api/games", held["game"]["edit_key"], id=held["game"]["id"]),
        calls("^/api/clubs", held["club"]["member_key"], slug=held["club"]["slug"]),
        calls("^/api/events", held["event"]["director_key"], id=held["event"]["id"]),
    ]
    # Time: a record's and a deal's schemas are large (one of six games), so their boundary values
    # are many; where the rules judge every schema-valid value anyway (positive acceptance off,
    # above) only the invalid ones are walked at the boundaries; the fuzzing phase still sends
    # valid ones.
    operations.append(
        {
            "include-path-regex": "^/api/games$|^/api/games/[^/]+/deals",
            "phases": {"coverage": {"generation": {"mode": "negative"}}},
        }
    )
    for _why, regex, checks in BEYOND_SCHEMA:
        off = (checks,) if isinstance(checks, str) else checks
        operations.append({"include-path-regex": regex, "checks": {c: {"enabled": False} for c in off}})
    return SchemathesisConfig.from_dict(
        {
            "seed": SEED,
            # No cache kept between runs (it would change what a fixed seed sends, and litter the
            # checkout with .schemathesis/).
            "cache": {"enabled": False},
            "generation": {"max-examples": EXAMPLES, "deterministic": True},
            # The stateful phase chains calls by links the description does not declare.
            "phases": {"stateful": {"enabled": False}},
            "checks": {"enabled": True},
            # Every failure counted, not only each call's first.
            "continue-on-failure": True,
            "operations": operations,
        }
    )


def test_schemathesis_finds_no_failure(app, client, wsgi_transport):
    held = keys(client)
    schema = schemathesis.openapi.from_wsgi("/api/openapi.json", app, config=config(held))
    failures: dict[str, list[str]] = collections.defaultdict(list)
    errors: list[str] = []
    requests = 0
    phases: collections.Counter[str] = collections.Counter()
    for event in from_schema(schema).execute():
        if isinstance(event, events.ScenarioFinished):
            requests += len(event.recorder.interactions)
            phases[str(event.phase)] += len(event.recorder.interactions)
            for case_id, checks in event.recorder.checks.items():
                for check in checks:
                    if check.failure_info is None:
                        continue
                    sent = event.recorder.interactions.get(case_id)
                    request = (
                        f"{sent.request.method} {sent.request.uri} {sent.request.body!r}" if sent else ""
                    )
                    if sent is not None and sent.response is not None:
                        answer = (sent.response.content or b"")[:300]
                        request += f" -> {sent.response.status_code} {answer!r}"
                    failure = check.failure_info.failure
                    failures[f"{event.label} [{check.name}]"].append(
                        f"{failure.title}: {failure.message} ({request[:700]})"
                    )
        elif isinstance(event, events.NonFatalError | events.FatalError):
            errors.append(f"{getattr(event, 'label', '')}: {getattr(event, 'info', event)}")
    assert requests > 300, f"Schemathesis made only {requests} calls"
    assert not errors, errors
    print(f"Schemathesis: {requests} calls {dict(phases)}, {sum(map(len, failures.values()))} failures")
    assert not failures, "\n".join(f"{k}: {v[:3]}" for k, v in sorted(failures.items()))
