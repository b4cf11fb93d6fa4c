"""Issue 14's boards, endings and home: sharing, archiving, standings, rematch, player colours."""

from __future__ import annotations

import re

from sqlalchemy import select

from scorekeeper.db import db
from scorekeeper.models import Change, Game
from tests.conftest import sa_form
from tests.web.pages import text

FLAT = sa_form([4, 3, 3, 3], "LORS")  # Ann 12, Bob 9, Cid 9, Dee 9 per deal


def game_id(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def test_sharing_is_a_disclosure_that_says_so(client, new_game):
    page = client.get(new_game()).get_data(as_text=True)
    summary = re.search(r'<summary class="share-toggle">(.*?)</summary>', page, re.S).group(1)
    assert text(summary) == "Follow on other phones ▸"
    assert 'class="qr-box"' in page


def test_home_shows_leader_deals_played_and_last_activity(client, new_game):
    path = new_game()
    client.post(f"{path}/deals", data=FLAT)
    client.post(f"{path}/deals", data=FLAT)
    page = text(client.get("/").get_data(as_text=True))
    assert "Leader: Ann" in page
    assert "2 deals played" in page
    assert "ago" in page or "now" in page


def test_archive_hides_from_home_keeps_under_games_and_undo_brings_it_back(client, new_game, app):
    path = new_game()
    client.post(f"{path}/deals", data=FLAT)
    other = new_game(players=["Eve", "Fay", "Gus", "Hal"])
    response = client.post(f"{path}/archive")
    assert response.status_code == 303 and response.headers["Location"].endswith(
        f"/?archived={game_id(path)}"
    )
    home = client.get(response.headers["Location"]).get_data(as_text=True)
    lists = home.split("In progress", 1)[1]
    assert "Ann, Bob, Cid, Dee" not in lists and "Eve, Fay, Gus, Hal" in lists
    assert "Archived: Secret Agent (Ann, Bob, Cid, Dee)" in text(home)
    assert f"{path}/unarchive" in home  # the Undo
    # Kept, with its deals, listed under /games (and by the filter).
    assert "Ann, Bob, Cid, Dee" in client.get("/games").get_data(as_text=True)
    only = client.get("/games?archived=1").get_data(as_text=True)
    assert "Ann, Bob, Cid, Dee" in only and "Eve, Fay, Gus, Hal" not in only
    assert "Ann, Bob, Cid, Dee" not in client.get("/games?archived=0").get_data(as_text=True)
    assert client.get(path).status_code == 200
    with app.app_context():
        game = db.session.get(Game, game_id(path))
        assert game.archived and len(game.deals) == 1
        kinds = [c.kind for c in db.session.scalars(select(Change).where(Change.game_id == game.id))]
        assert kinds[-1] == "archive"
    # Undo: through the gate again, back on home.
    assert client.post(f"{path}/unarchive").status_code == 303
    assert "Ann, Bob, Cid, Dee" in client.get("/").get_data(as_text=True).split("In progress", 1)[1]
    with app.app_context():
        assert not db.session.get(Game, game_id(path)).archived
    assert other


def test_archiving_is_undone_from_the_history_too(client, new_game, app):
    path = new_game()
    client.post(f"{path}/archive")
    history = client.get(f"{path}/history").get_data(as_text=True)
    assert "Game archived" in history
    with app.app_context():
        change = db.session.scalars(select(Change).where(Change.kind == "archive")).one()
        change_id = change.id
    assert client.post(f"{path}/changes/{change_id}/undo").status_code == 303
    with app.app_context():
        assert not db.session.get(Game, game_id(path)).archived


def test_only_the_scorer_archives(client, new_game, app):
    path = new_game()
    client.delete_cookie("edit_key", path=path)
    assert client.post(f"{path}/archive").status_code == 403
    with app.app_context():
        assert not db.session.get(Game, game_id(path)).archived


def test_the_read_side_list_says_archived(client, new_game, app):
    from scorekeeper import read

    path = new_game()
    client.post(f"{path}/archive")
    with app.test_request_context():
        games = db.session.scalars(select(Game)).all()
        [(game, view)] = read.list_views(games)
        assert view.archived is True


def finished_game(client, new_game, **kw) -> str:
    path = new_game(**kw)
    for _ in range(4):
        client.post(f"{path}/deals", data=FLAT)
    return path


def test_final_standings_with_places_and_margins(client, new_game):
    page = client.get(finished_game(client, new_game)).get_data(as_text=True)
    ending = re.search(r'<section class="ending".*?</section>', page, re.S).group(0)
    rows = [text(li) for li in re.findall(r'<li class="standing[^"]*">(.*?)</li>', ending, re.S)]
    assert rows == [
        "1. Ann 48 wins by 12",
        "2. Bob 36 12 behind",
        "2. Cid 36 12 behind",
        "2. Dee 36 12 behind",
    ]
    assert 'class="standing pc0 winner"' in ending
    assert "★" in ending and "Ann wins." in text(ending)


def test_rematch_is_one_post_same_players_options_next_dealer(client, new_game, app):
    path = finished_game(client, new_game, deals=4, first_dealer=2)
    page = client.get(path).get_data(as_text=True)
    assert f'action="{path}/rematch"' in page
    response = client.post(f"{path}/rematch", data={"submit_token": "rematch-token-1"})
    assert response.status_code == 303
    new_path = response.headers["Location"]
    assert new_path != path
    with app.app_context():
        old, new = db.session.get(Game, game_id(path)), db.session.get(Game, game_id(new_path))
        assert new.players == old.players and new.options == old.options and new.kind == old.kind
        assert new.first_dealer == 3 and not new.deals
    # The scorer scores the rematch, and a double tap starts one game, not two.
    assert "Record" in client.get(new_path).get_data(as_text=True) or "entry" in client.get(
        new_path
    ).get_data(as_text=True)
    again = client.post(f"{path}/rematch", data={"submit_token": "rematch-token-1"})
    assert again.headers["Location"] == new_path
    with app.app_context():
        assert len(db.session.scalars(select(Game)).all()) == 2


def test_a_viewer_gets_no_rematch_but_the_prefilled_form(client, new_game):
    path = finished_game(client, new_game, first_dealer=3)
    client.delete_cookie("edit_key", path=path)
    page = client.get(path).get_data(as_text=True)
    assert "/rematch" not in page and f"{path}/again" in page
    assert client.post(f"{path}/rematch").status_code == 403
    form = client.get(f"{path}/again").get_data(as_text=True)
    for seat, name in enumerate(["Ann", "Bob", "Cid", "Dee"]):
        assert re.search(rf'name="players_{seat}"[^>]*value="{name}"', form)
    assert re.search(r'value="0"[^>]*checked|checked[^>]*value="0"', form)  # the next first dealer: seat 1
    assert 'action="/new/secret_agent"' in form


def test_short_names_keep_five_letters_and_differ():
    from scorekeeper.read import short_names

    names = ["Emmeline", "Emmett", "Annabelle", "Bob", "Christopher"]
    assert short_names(names) == ("Emmel…", "Emmett", "Annab…", "Bob", "Chris…")
    assert short_names(["Alexandra", "Alexander"]) == ("Alexandra", "Alexander")
    for short in short_names(names):
        assert len(short.rstrip("…")) >= 5 or short in names


def test_columns_have_the_seat_colour_and_the_full_name_on_tap(client):
    data = {"opt_mode": "cutthroat", "first_dealer": "0"}
    names = ["Emmeline", "Emmett", "Annabelle", "Bob", "Christopher"]
    data.update({f"players_{s}": n for s, n in enumerate(names)})
    response = client.post("/new/spades", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    heads = re.findall(r'<th scope="col" class="pcol (pc\d)[^"]*" title="([^"]*)">(.*?)</th>', page, re.S)
    assert [(pc, full) for pc, full, _ in heads] == [(f"pc{s}", n) for s, n in enumerate(names)]
    first = heads[0][2]
    assert '<span class="short" aria-hidden="true">Emmel…</span>' in first
    assert '<span class="full">Emmeline</span>' in first
    sheet = client.get(response.headers["Location"] + "/sheet").get_data(as_text=True)
    assert 'class="pcol pc4"' in sheet


def stored(app, client, kind, players, deals, options=None):
    from tests.web.test_records_pages import store

    gid, key = store(app, kind, players=players, deals=deals, options=options)
    assert client.get(f"/g/{gid}?key={key}").status_code == 303
    return f"/g/{gid}"


def test_spades_board_has_a_legend_and_red_only_for_negative_points(client, app):
    # Cutthroat, 3 players, 18 tricks: Ann bids 5 and wins 2 (set: -50), Bob and Cid 6 of 8.
    deals = [{"bids": [5, 6, 6], "tricks": [2, 8, 8]}]
    path = stored(
        app, client, "spades", ["Ann", "Bob", "Cid"], deals, {"mode": "cutthroat", "set_penalty": True}
    )
    page = client.get(path).get_data(as_text=True)
    legend = re.search(r'<details class="board-legend sp-legend">(.*?)</details>', page, re.S).group(1)
    for words in (
        "51 points; the bid, 5, raised beside them",
        "a nil that failed",
        "red: negative points",
        "set",
    ):
        assert words in text(legend)
    assert re.search(r'<b class="sp-set neg">-50</b>', page)  # a set with negative points: red
    assert not re.search(r'<b class="neg">\d', page)  # positive points never red


def test_partnership_spades_names_the_partner_who_dealt(client, app):
    deals = [{"bids": [3, 3, 3, 3], "tricks": [3, 3, 4, 3]}]
    path = stored(app, client, "spades", ["Ann", "Bob", "Cid", "Dee"], deals, {"mode": "partnership"})
    page = client.get(path).get_data(as_text=True)
    assert re.search(r'<span class="dealer-mark" title="Ann dealt" data-who="Ann">D</span>', page)


def test_euchre_board_shows_trump_maker_lone_hand_and_thrown_in(client, app):
    deals = [
        {"trump": "H", "maker": 2, "alone": True, "defender_alone": None, "maker_tricks": 5},
        {"thrown_in": True},
        {"trump": "S", "maker": 1, "alone": False, "defender_alone": 0, "maker_tricks": 1},
    ]
    path = stored(app, client, "euchre", ["Ann", "Bob", "Cid", "Dee"], deals, {"stick_the_dealer": False})
    page = client.get(path).get_data(as_text=True)
    calls = [text(c) for c in re.findall(r'<p class="e-call"[^>]*>(.*?)</p>', page, re.S)]
    assert calls == ["♥ Cid alone", "♠ Bob"]
    assert "Ann alone" in [text(a) for a in re.findall(r'<p class="e-alone">(.*?)</p>', page, re.S)]
    assert "thrown in" in text(page)


def test_the_archived_migration_keeps_games_unarchived_and_goes_down_and_up(tmp_path):
    from flask_migrate import downgrade, upgrade
    from sqlalchemy import inspect
    from sqlalchemy import text as sql

    from scorekeeper import create_app
    from scorekeeper.db import MIGRATIONS

    app = create_app(
        {
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{tmp_path / 'archive.sqlite'}",
            "AUTO_MIGRATE": False,
            "SECRET_KEY": "migrate",
        }
    )
    with app.app_context():
        upgrade(directory=MIGRATIONS, revision="5d1c0a7e9b21")
        with db.engine.begin() as conn:
            conn.execute(
                sql(
                    "INSERT INTO game (id, kind, options, first_dealer, edit_key_hash, version, created_at,"
                    " updated_at) VALUES ('old', 'secret_agent', '{}', 0, 'x', 1, '2026-01-01', '2026-01-01')"
                )
            )
        upgrade(directory=MIGRATIONS)
        assert "archived" in {c["name"] for c in inspect(db.engine).get_columns("game")}
        with db.engine.connect() as conn:
            assert conn.execute(sql("SELECT archived FROM game WHERE id = 'old'")).scalar() in (0, False)
        downgrade(directory=MIGRATIONS, revision="5d1c0a7e9b21")
        assert "archived" not in {c["name"] for c in inspect(db.engine).get_columns("game")}
        upgrade(directory=MIGRATIONS)
        db.engine.dispose()


def test_an_archived_game_stays_archived_after_a_backup_and_restore(app, client, tmp_path):
    from tests.test_backup import wipe
    from tests.web.test_records_pages import FLAT as FLAT_FACTS
    from tests.web.test_records_pages import store

    game_id, _ = store(app, "secret_agent", deals=[FLAT_FACTS])
    kept, _ = store(app, "secret_agent", ["Eve", "Fay", "Gus", "Hal"])
    with app.app_context():
        db.session.get(Game, game_id).archived = True
        db.session.commit()
    runner = app.test_cli_runner()
    path = tmp_path / "b.json"
    exported = runner.invoke(args=["export", "--all", "-o", str(path)])
    assert exported.exit_code == 0, exported.output
    wipe(app)
    assert runner.invoke(args=["import", str(path)]).exit_code == 0
    with app.app_context():
        assert db.session.get(Game, game_id).archived is True
        assert db.session.get(Game, kept).archived is False
