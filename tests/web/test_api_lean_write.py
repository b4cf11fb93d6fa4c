"""The JSON API's append without the ORM: the game's row read by one query (GameHead), the
gate's prepared statements, and the record's JSON built from the deals encoded before.

Each test checks what was stored or answered against the ORM path or a fresh replay.
"""

from __future__ import annotations

import random

from sqlalchemy import select, text

from scorekeeper import create_app, read, service
from scorekeeper.db import db
from scorekeeper.games import GAMES
from scorekeeper.models import Change, Deal, Game, GameHead, GameSummary
from scorekeeper.rules import base as rules_base
from tests.conftest import app_config, bearer
from tests.web.table_helpers import FLAT, SWEEP, api_game

SPADES = {"bids": [3, 3, 3, 3], "tricks": [4, 3, 3, 3]}


def spades_game(client, deals=()) -> tuple[str, str]:
    record = {"game": "spades", "players": ["Ann", "Bob", "Cid", "Dee"], "options": {"target": 1000}}
    reply = client.post("/api/games", json={**record, "deals": list(deals)})
    assert reply.status_code == 201, reply.json
    return reply.json["id"], reply.json["edit_key"]


def jsonify_text(app, record: dict) -> str:
    """The body Flask's ``jsonify`` writes for ``record`` (without its newline)."""
    with app.test_request_context():
        return app.json.response(record).get_data(as_text=True).rstrip("\n")


def test_the_head_reads_like_the_game(app, client):
    gid, _ = api_game(client, deals=[FLAT, SWEEP])
    with app.app_context():
        game = db.session.get(Game, gid)
        head = GameHead.load(gid)
        for name in ("id", "kind", "options", "first_dealer", "version", "draft", "updated_at", "deleted_at"):
            assert getattr(head, name) == getattr(game, name), name
        assert head.players == game.players == ["Ann", "Bob", "Cid", "Dee"]
        assert head.facts == game.facts == [FLAT, SWEEP]
        assert head.top_position == 1
        assert GameHead.load("no-such-game") is None


def test_an_api_append_stores_what_the_orm_path_stores(app, client):
    """The same deal appended through the API (lean) and through the service on the ORM game."""
    lean_id, key = api_game(client, deals=[FLAT])
    orm_id, _ = api_game(client, deals=[FLAT])
    with app.app_context():
        for gid in (lean_id, orm_id):  # a half-entered deal each, which the append must clear
            service.save_draft(db.session.get(Game, gid), {"tricks": [1, 2, 3, 7]})
    reply = client.post(f"/api/games/{lean_id}/deals", json=SWEEP, headers=bearer(key))
    assert reply.status_code == 201
    with app.app_context():
        service.append_deal(db.session.get(Game, orm_id), SWEEP)
        db.session.expunge_all()
        stored = {}
        for gid in (lean_id, orm_id):
            game = db.session.get(Game, gid)
            deals = db.session.execute(select(Deal.position, Deal.facts).where(Deal.game_id == gid)).all()
            change = db.session.scalars(
                select(Change).where(Change.game_id == gid).order_by(Change.version.desc())
            ).first()
            summary = db.session.get(GameSummary, gid)
            # SQL NULL, not JSON 'null': what the ORM writes for no draft.
            draft_is_null = db.session.execute(
                text("SELECT draft IS NULL FROM game WHERE id = :id"), {"id": gid}
            ).scalar()
            stored[gid] = (
                game.version,
                game.draft,
                bool(draft_is_null),
                [tuple(d) for d in sorted(deals)],
                (change.kind, change.version, change.deal_index, change.position, change.after),
                change.created_at is not None,
                (summary.version, summary.deals, summary.totals, summary.last_activity == game.updated_at),
            )
        assert stored[lean_id] == stored[orm_id]
        assert stored[lean_id][:3] == (3, None, True)
        assert stored[lean_id][4] == ("append", 3, 1, 1, SWEEP)


def test_the_answer_is_what_jsonify_writes_of_the_record(app, client):
    gid, key = spades_game(client, deals=[SPADES] * 3)
    for _ in range(3):
        reply = client.post(f"/api/games/{gid}/deals", json=SPADES, headers=bearer(key))
        assert reply.status_code == 201
    with app.app_context():
        game = db.session.get(Game, gid)
        expected = read.public_record(game, service.replay(game))
    body = reply.get_data(as_text=True)
    assert body == jsonify_text(app, expected) + "\n"
    assert client.get(f"/api/games/{gid}").get_data(as_text=True) == body


def test_two_workers_answer_the_same_records_through_appends_corrections_and_deletes(
    app, database_url, tmp_path
):
    """Two apps on one database (two workers): each answers every write with exactly the record a
    fresh replay gives, whichever of them wrote the versions between (their caches are their own)."""
    # Each worker its own cache, as without Redis.
    workers = [
        create_app(app_config(database_url, PDF_FOLDER=str(tmp_path / "pdf"), CACHE_KEY_PREFIX=f"w{i}:"))
        for i in range(2)
    ]
    clients = [w.test_client() for w in workers]
    rng = random.Random(13)
    kind = GAMES.get("spades")
    try:
        gid, key = spades_game(clients[0], deals=[SPADES] * 2)
        for step in range(40):
            client = clients[rng.randrange(2)]
            deals = client.get(f"/api/games/{gid}").json["deals"]
            roll = rng.random()
            if roll < 0.7 or len(deals) < 3:
                with workers[0].app_context():
                    game = db.session.get(Game, gid)
                    setup = service.setup_of(game)
                    state = service.replay(game)
                facts = kind.random_deal(setup, state.state, state.next_dealer, rng)
                reply = client.post(f"/api/games/{gid}/deals", json=facts, headers=bearer(key))
                assert reply.status_code == 201, reply.json
            elif roll < 0.85:
                k = rng.randrange(len(deals))
                reply = client.put(f"/api/games/{gid}/deals/{k}", json=SPADES, headers=bearer(key))
            else:
                reply = client.delete(
                    f"/api/games/{gid}/deals/{rng.randrange(len(deals))}", headers=bearer(key)
                )
            if reply.status_code == 422:  # a later deal the change would make illegal: nothing changed
                assert clients[0].get(f"/api/games/{gid}").json["deals"] == deals
                continue
            assert reply.status_code in (200, 201), reply.json
            with workers[0].app_context():
                game = db.session.get(Game, gid)
                expected = read.public_record(game, service.replay(game))
            assert reply.get_data(as_text=True) == jsonify_text(workers[0], expected) + "\n", step
            for other in clients:
                assert other.get(f"/api/games/{gid}").json == expected, step
    finally:
        for worker in workers:
            with worker.app_context():
                db.engine.dispose()


def test_a_lost_race_reads_the_head_again_and_writes_after_the_winner(app, client):
    gid, key = api_game(client, deals=[FLAT])
    with app.app_context():
        head = GameHead.load(gid)  # this writer read version 1 ...
        service.append_deal(db.session.get(Game, gid), SWEEP)  # ... another wrote version 2 meanwhile
        result = service.append_deal(head, FLAT)
        assert head.version == 3 and len(result.deals) == 3
        db.session.expunge_all()
        positions = db.session.scalars(select(Deal.position).where(Deal.game_id == gid)).all()
        assert sorted(positions) == [0, 1, 2]
        assert service.replay(db.session.get(Game, gid)) == result


def test_an_append_plays_one_deal_however_long_the_game(app, client, monkeypatch):
    gid, key = spades_game(client, deals=[SPADES] * 30)
    client.get(f"/api/games/{gid}")  # scored once here
    played = []
    spades = type(GAMES.get("spades"))
    real = spades.score_deal

    def counted(self, *args, **kwargs):
        played.append(1)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(spades, "score_deal", counted)
    reply = client.post(f"/api/games/{gid}/deals", json=SPADES, headers=bearer(key))
    assert reply.status_code == 201 and len(reply.json["deals"]) == 31
    assert played == [1]


def test_play_on_equals_a_replay():
    kind = GAMES.get("spades")
    _errors, setup = rules_base.check_setup(kind, ["A", "B", "C"], {"mode": "cutthroat", "target": 10**6}, 0)
    rng = random.Random(5)
    deals: list[dict] = []
    result = rules_base.play(kind, setup, deals)
    for _ in range(12):
        deals.append(kind.random_deal(setup, result.state, result.next_dealer, rng))
        result = rules_base.play(kind, setup, deals)
    known = rules_base.play(kind, setup, deals[:7])
    assert rules_base.play_on(kind, setup, known, deals[7:]) == result
    assert rules_base.play_on(kind, setup, result, []) == result


def test_a_prepared_statement_raises_what_sqlalchemy_raises(app, client):
    """A duplicate deal position (a writer that lost the race) is SQLAlchemy's IntegrityError,
    which the write gate takes as "read the game again"."""
    import pytest
    from sqlalchemy.exc import IntegrityError

    from scorekeeper.models import utcnow
    from scorekeeper.service import gate

    gid, _ = api_game(client, deals=[FLAT])
    with app.app_context():
        with pytest.raises(IntegrityError):
            gate._INSERT_DEAL.run({"game_id": gid, "position": 0, "facts": FLAT, "created_at": utcnow()})
        db.session.rollback()
        assert (
            gate._INSERT_DEAL.run({"game_id": gid, "position": 5, "facts": SWEEP, "created_at": utcnow()})
            == 1
        )
        db.session.commit()
        assert db.session.get(Game, gid).facts == [FLAT, SWEEP]


def test_a_scorers_page_reads_no_deal_row_and_the_gates_statements_are_counted(client, count_queries):
    """The entry form counts the deals from the scored result (kept per version), not from the rows;
    the gate's prepared statements reach SQLAlchemy's statement listeners like any other."""
    gid, key = spades_game(client, deals=[SPADES] * 30)
    client.set_cookie("edit_key", key, path=f"/g/{gid}")
    client.get(f"/api/games/{gid}")  # this process has scored the game
    with count_queries() as seen:
        page = client.get(f"/g/{gid}")
    assert page.status_code == 200 and 'id="entry"' in page.get_data(as_text=True)
    assert not [s for s in seen.statements if "FROM deal" in s]
    with count_queries() as seen:
        assert client.post(f"/api/games/{gid}/deals", json=SPADES, headers=bearer(key)).status_code == 201
    written = " ".join(seen.statements)
    for statement in (
        "UPDATE game SET",
        "INSERT INTO deal",
        "UPDATE game_summary",
        "INSERT INTO game_change",
    ):
        assert statement in written, statement
