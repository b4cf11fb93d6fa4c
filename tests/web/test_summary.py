"""The lists' per-game summary: kept by the write gate, always what a fresh replay says.

Random writes, corrections, deletions, undos, drafts and game deletions go
through the gate; after each, the stored summary (when at the game's version)
equals the summary of a fresh replay. ``scorekeeper db rescore`` rebuilds them,
and a list reads them without replaying any game.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from sqlalchemy import delete, select

from scorekeeper import read, rules, service
from scorekeeper.db import db
from scorekeeper.models import Game, GameSummary
from scorekeeper.rules import InvalidFacts
from scorekeeper.rules import base as rules_base
from tests.web.table_helpers import api_game

AGENTS = st.permutations(["L", "O", "R", "S"])


@st.composite
def tricks(draw):
    """Four trick counts; most add up to 13 (the rules refuse the others, which is tried too)."""
    cuts = sorted(draw(st.lists(st.integers(0, 13), min_size=3, max_size=3)))
    counts = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 13 - cuts[2]]
    if draw(st.integers(0, 9)) == 0:
        counts[0] += 1
    return counts


FACTS = st.builds(lambda t, a: {"tricks": t, "agents": list(a)}, tricks(), AGENTS)
STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("append"), FACTS),
        st.tuples(st.just("replace"), st.integers(0, 5), FACTS),
        st.tuples(st.just("delete"), st.integers(0, 5)),
        st.tuples(st.just("undo")),
        st.tuples(st.just("draft"), st.booleans()),
        st.tuples(st.just("delete_game")),
        st.tuples(st.just("restore_game")),
    ),
    min_size=1,
    max_size=12,
)


def apply(game: Game, step: tuple) -> None:
    kind = step[0]
    try:
        if kind == "append":
            service.append_deal(game, step[1])
        elif kind == "replace":
            service.replace_deal(game, step[1], step[2])
        elif kind == "delete":
            service.delete_deal(game, step[1])
        elif kind == "undo":
            change = service.latest_change(game)
            if change is not None:
                service.undo(game, change)
        elif kind == "draft":
            service.save_draft(game, {"agents": ["L", "O", "R", "S"]} if step[1] else None)
        elif kind == "delete_game":
            service.delete_game(game)
        else:
            service.restore_game(game)
    except (
        InvalidFacts,
        LookupError,
        service.GameGone,
        service.DealGone,
        service.CannotUndo,
        service.AlreadyDone,
    ):
        db.session.rollback()


def fresh(game: Game) -> dict:
    return read.summarize(game, service.replay(game))


def stored(game: Game) -> dict | None:
    row = db.session.get(GameSummary, game.id)
    if row is None:
        return None
    db.session.refresh(row)
    return {name: getattr(row, name) for name in fresh(game)}


def test_the_summary_is_a_fresh_replay_after_any_writes(app, client):
    # A short game (3 deals), so writes also finish it, and corrections un-finish it.
    gid, _key = api_game(client, options={"deals": 3})

    @settings(
        max_examples=25,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(steps=STEPS)
    def check(steps):
        with app.app_context():
            game = db.session.get(Game, gid)
            for step in steps:
                apply(game, step)
                game = db.session.get(Game, gid)
                # Never stale: every change through the gate leaves the summary at the game's version.
                assert stored(game) == fresh(game), step

    check()


def test_rescore_rebuilds_every_summary(app, client):
    gid, key = api_game(client, deals=[{"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"]}])
    other, _ = api_game(client)
    with app.app_context():
        db.session.execute(delete(GameSummary))
        db.session.commit()
    result = app.test_cli_runner().invoke(args=["db", "rescore"])
    assert result.exit_code == 0 and "2 games summarised" in result.output, result.output
    with app.app_context():
        for game_id in (gid, other):
            game = db.session.get(Game, game_id)
            assert stored(game) == fresh(game)
            assert stored(game)["version"] == game.version


def test_lists_read_the_summaries_without_replaying(app, client, monkeypatch):
    gid, key = api_game(client, deals=[{"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"]}])
    # The lists are this device's (it opened the game) and the club's (its member cookie).
    made = client.post("/api/clubs", json={"name": "S"})
    client.set_cookie("member", made.json["member_key"])
    client.get(f"/g/{gid}")
    with app.app_context():
        from scorekeeper.models import Club

        db.session.get(Game, gid).club_id = db.session.scalar(select(Club.id))
        db.session.commit()
    calls = []
    real = rules_base.play

    def counted(*args, **kwargs):
        calls.append(args)
        return real(*args, **kwargs)

    monkeypatch.setattr(rules_base, "play", counted)
    monkeypatch.setattr(rules, "play", counted)
    for url in ("/", "/games", "/c/s/games", "/c/s/players", "/c/s/player?name=Ann"):
        response = client.get(url)
        assert response.status_code == 200, url
    assert calls == []
    assert "Deal 2 of 52." in client.get("/games").get_data(as_text=True)
    # A game whose summary is missing (a database from before them) is replayed, and still listed.
    with app.app_context():
        db.session.execute(delete(GameSummary).where(GameSummary.game_id == gid))
        db.session.commit()
        assert db.session.scalar(select(GameSummary).where(GameSummary.game_id == gid)) is None
    assert "Deal 2 of 52." in client.get("/games").get_data(as_text=True)
    assert len(calls) <= 1  # none when the shared cache still holds its scored result
