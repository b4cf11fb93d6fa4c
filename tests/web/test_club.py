"""A club's ratings through the app (API, pages, CLI, cache) and its players list (rename, merge, private).

Every test runs as the owner of one club ("Test club"): games are the club's, made through the
API with the owner's member key; the pages see the club through the owner's member cookie.

Expected numbers come from OpenSkill itself, called directly game by game
(``openskill_replay``), to its documented precision.
"""

from datetime import timedelta

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce
from sqlalchemy import select, update

from scorekeeper import service
from scorekeeper.clubs import roster as club
from scorekeeper.db import db
from scorekeeper.models import Game
from scorekeeper.rules import InvalidFacts
from tests.conftest import bearer

END = {"end": True}


def openskill_replay(games):
    model = PlackettLuce()
    current = {}
    for teams, ranks in games:
        rated = model.rate([[current.get(n) or model.rating() for n in team] for team in teams], ranks=ranks)
        for names, team in zip(teams, rated, strict=True):
            for name, r in zip(names, team, strict=True):
                current[name] = r
    return {name: (r.mu, r.sigma) for name, r in current.items()}


SLUG = "test-club"
OWNER: dict = {}


@pytest.fixture(autouse=True)
def member(app, client):
    return make_club(app, client)


def make_club(app, client):
    made = client.post("/api/clubs", json={"name": "Test club", "player": "Owner"})
    assert made.status_code == 201, made.json
    assert made.json["slug"] == SLUG
    OWNER["key"] = made.json["member_key"]
    client.set_cookie("member", made.json["member_key"])
    with app.app_context():
        from scorekeeper.models import Club

        OWNER["club_id"] = db.session.scalar(select(Club.id).where(Club.slug == SLUG))
    return made.json


def auth():
    """The owner's credential, as the API takes it."""
    return bearer(OWNER["key"])


def tally(client, players, *deals, **options):
    response = client.post(
        "/api/games",
        json={"game": "tally", "players": players, "options": options, "deals": list(deals), "club": SLUG},
        headers=auth(),
    )
    assert response.status_code == 201, response.json
    return response.json["id"], response.json["edit_key"]


def board(client, game=None):
    response = client.get(f"/api/clubs/{SLUG}/ratings" + (f"?game={game}" if game else ""), headers=auth())
    assert response.status_code == 200
    return response.json


def numbers(answer):
    return {p["name"]: (p["mu"], p["sigma"]) for p in answer["players"]}


def assert_numbers(answer, expected):
    got = numbers(answer)
    assert set(got) == set(expected)
    for name, (mu, sigma) in expected.items():
        assert got[name][0] == pytest.approx(mu, abs=1e-6)
        assert got[name][1] == pytest.approx(sigma, abs=1e-6)


def test_the_api_reproduces_openskill_for_a_hand_checked_evening(client):
    # Game 1: Ann 30, Bob 20, Cid 20 (Bob and Cid share second). Game 2: teams Ann+Cid 12 vs Bob+Dee 9.
    # Game 3 (Euchre, pairs Ann+Cid v Bob+Dee) is unfinished and does not count.
    tally(client, ["Ann", "Bob", "Cid"], {"points": [30, 20, 20]}, END)
    tally(client, ["Ann", "Bob", "Cid", "Dee"], {"points": [5, 4, 7, 5]}, END, teams=[[0, 2], [1, 3]])
    client.post(
        "/api/games",
        json={"game": "euchre", "players": ["Ann", "Bob", "Cid", "Dee"], "club": SLUG},
        headers=auth(),
    )
    answer = board(client)
    assert answer["game"] is None and answer["model"] == "openskill.PlackettLuce"
    expected = openskill_replay(
        [
            ([["Ann"], ["Bob"], ["Cid"]], [1, 2, 2]),
            ([["Ann", "Cid"], ["Bob", "Dee"]], [1, 2]),
        ]
    )
    assert_numbers(answer, expected)
    ordinals = [p["ordinal"] for p in answer["players"]]
    assert ordinals == sorted(ordinals, reverse=True)
    for p in answer["players"]:
        assert p["ordinal"] == pytest.approx(p["mu"] - 3 * p["sigma"], abs=1e-9)
    assert {p["name"]: p["games"] for p in answer["players"]} == {"Ann": 2, "Bob": 2, "Cid": 2, "Dee": 1}
    assert set(answer["players"][0]) == {"name", "mu", "sigma", "ordinal", "games"}
    tally_board = board(client, "tally")
    assert tally_board["game"] == "tally" and numbers(tally_board) == numbers(answer)
    assert board(client, "euchre") == {"game": "euchre", "model": "openskill.PlackettLuce", "players": []}
    missing = client.get(f"/api/clubs/{SLUG}/ratings?game=chess", headers=auth())
    assert missing.status_code == 404 and "chess" in missing.json["errors"][0]["message"]


def test_low_wins_ranks_the_lowest_first(client):
    tally(client, ["Ann", "Bob"], {"points": [10, 60]}, target=50, low_wins=True)
    assert_numbers(board(client), openskill_replay([([["Ann"], ["Bob"]], [1, 2])]))


def test_a_deleted_game_leaves_the_ratings_and_a_restore_brings_it_back(app, client):
    tally(client, ["Ann", "Bob"], {"points": [9, 1]}, END)
    gid, _key = tally(client, ["Ann", "Bob"], {"points": [1, 9]}, END)
    both = board(client)
    with app.app_context():
        service.delete_game(db.session.get(Game, gid))
    assert_numbers(board(client), openskill_replay([([["Ann"], ["Bob"]], [1, 2])]))
    with app.app_context():
        service.restore_game(db.session.get(Game, gid))
    # The restore is the game's last change: it now counts last, as it did.
    assert numbers(board(client)) == numbers(both)


def test_an_archived_game_leaves_the_ratings_and_unarchiving_brings_it_back(app, client):
    tally(client, ["Ann", "Bob"], {"points": [9, 1]}, END)
    gid, _key = tally(client, ["Ann", "Bob"], {"points": [1, 9]}, END)
    with app.app_context():
        service.archive_game(db.session.get(Game, gid))
    assert_numbers(board(client), openskill_replay([([["Ann"], ["Bob"]], [1, 2])]))
    with app.app_context():
        service.archive_game(db.session.get(Game, gid), archived=False)
    assert board(client)["players"][0]["games"] == 2


def test_an_old_game_imported_later_slots_into_date_order(app, client):
    first, _ = tally(client, ["Ann", "Bob", "Cid"], {"points": [9, 5, 1]}, END)
    second, _ = tally(client, ["Ann", "Bob", "Cid"], {"points": [1, 5, 9]}, END)
    in_order = numbers(board(client))
    # A restored backup keeps its games' dates: an old game stored after a newer one.
    with app.app_context():
        late = db.session.get(Game, first).updated_at + timedelta(days=1)
        db.session.execute(update(Game).where(Game.id == first).values(updated_at=late))
        db.session.execute(update(Game).where(Game.id == second).values(updated_at=late - timedelta(days=2)))
        db.session.commit()
    swapped = numbers(board(client))
    expected = openskill_replay(
        [([["Cid"], ["Bob"], ["Ann"]], [1, 2, 3]), ([["Ann"], ["Bob"], ["Cid"]], [1, 2, 3])]
    )
    assert swapped != in_order
    for name, (mu, sigma) in expected.items():
        assert swapped[name] == pytest.approx((mu, sigma), abs=1e-6)


def test_a_private_player_is_left_off_the_lists_but_still_rated(client):
    tally(client, ["Ann", "Bob", "Cid"], {"points": [9, 5, 1]}, END)
    before = numbers(board(client))
    assert client.post(f"/c/{SLUG}/players/private", data={"name": "Bob", "private": "1"}).status_code == 303
    after = numbers(board(client))
    assert "Bob" not in after and after == {k: v for k, v in before.items() if k != "Bob"}
    page = client.get(f"/c/{SLUG}/ratings").get_data(as_text=True)
    assert "Bob" not in page and "Ann" in page
    assert client.post(f"/c/{SLUG}/players/private", data={"name": "Bob", "private": "0"}).status_code == 303
    assert numbers(board(client)) == before
    assert client.post(f"/c/{SLUG}/players/private", data={"name": "Zed", "private": "1"}).status_code == 422


def test_leaderboard_pages_and_the_players_page(client):
    tally(client, ["Ann", "Bob"], {"points": [9, 1]}, END)
    tally(client, ["Ann", "Cid"], {"points": [1, 9]}, END)
    tally(client, ["Ann", "Bob"], {"points": [9, 1]}, END)
    page = client.get(f"/c/{SLUG}/ratings").get_data(as_text=True)
    assert "<table" in page and "Ann" in page and "▲" in page
    assert client.get(f"/c/{SLUG}/ratings?game=tally").status_code == 200
    assert client.get(f"/c/{SLUG}/ratings?game=chess").status_code == 404
    player = client.get(f"/c/{SLUG}/player?name=Ann").get_data(as_text=True)
    assert 'id="rating-chart"' in player and "<svg" in player
    assert "Best against: Bob" in player and "Worst against: Cid" in player
    assert "head-to-head" in player


def test_ratings_rebuild_command_prints_every_leaderboard(app, client):
    tally(client, ["Ann", "Bob"], {"points": [9, 1]}, END)
    result = app.test_cli_runner().invoke(args=["ratings", "rebuild"])
    assert result.exit_code == 0, result.output
    assert "overall: 1 game, 2 players" in result.output and "tally: 1 game" in result.output
    assert "1. Ann" in result.output
    bad = app.test_cli_runner().invoke(args=["ratings", "rebuild", "--game", "chess"])
    assert bad.exit_code != 0


# -- the players list ------------------------------------------------------------------


def test_rename_everywhere_and_undo(app, client):
    g1, _ = tally(client, ["Ann", "Bob"], {"points": [9, 1]}, END)
    g2, key = tally(client, ["Bob", "Cid"], {"points": [9, 1]})
    assert client.get(f"/g/{g2}?key={key}").status_code == 303  # this device scores g2
    before = numbers(board(client))
    assert client.post(f"/c/{SLUG}/players/rename", data={"old": "Bob", "new": "Robert"}).status_code == 303
    assert client.get(f"/api/games/{g1}").json["players"] == ["Ann", "Robert"]
    assert client.get(f"/api/games/{g2}").json["players"] == ["Robert", "Cid"]
    # Same numbers under the new name: a rename is no play, the order of games stays.
    assert numbers(board(client)) == {("Robert" if k == "Bob" else k): v for k, v in before.items()}
    history = client.get(f"/g/{g2}/history").get_data(as_text=True)
    assert "Player renamed" in history and "Bob → Robert" in history
    tidy = client.get(f"/c/{SLUG}/players/tidy").get_data(as_text=True)
    assert "Bob → Robert" in tidy
    group = tidy.split('name="group" value="')[1].split('"')[0]
    assert client.post(f"/c/{SLUG}/players/undo", data={"group": group}).status_code == 303
    assert client.get(f"/api/games/{g1}").json["players"] == ["Ann", "Bob"]
    assert numbers(board(client)) == before
    assert client.post(f"/c/{SLUG}/players/undo", data={"group": group}).status_code == 409


def test_merge_two_spellings_and_refuse_a_game_that_seats_both(client):
    tally(client, ["Ann", "bob"], {"points": [9, 1]}, END)
    tally(client, ["Bob", "Cid"], {"points": [9, 1]}, END)
    assert client.post(f"/c/{SLUG}/players/rename", data={"old": "bob", "new": "Bob"}).status_code == 303
    assert {p["name"]: p["games"] for p in board(client)["players"]}["Bob"] == 2
    clash, _ = tally(client, ["Bob", "Cid"], {"points": [1, 2]})
    refused = client.post(f"/c/{SLUG}/players/rename", data={"old": "Cid", "new": "Bob"})
    assert refused.status_code == 422 and clash in refused.get_data(as_text=True)
    assert client.get(f"/api/games/{clash}").json["players"] == ["Bob", "Cid"]
    assert client.post(f"/c/{SLUG}/players/rename", data={"old": "Nobody", "new": "X"}).status_code == 422
    assert client.post(f"/c/{SLUG}/players/rename", data={"old": "Cid", "new": "x" * 41}).status_code == 422


def test_only_the_clubs_admins_tidy_its_players_list(app, client):
    tally(client, ["Ann", "Bob"], {"points": [9, 1]}, END)
    invite = client.post(f"/api/clubs/{SLUG}/invites", json={}, headers=auth()).json["invite"]
    joined = app.test_client().post(f"/api/clubs/{SLUG}/join", json={"invite": invite, "name": "Ann"})
    assert joined.status_code == 201 and joined.json["role"] == "member"
    plain = app.test_client()
    plain.set_cookie("member", joined.json["member_key"])
    stranger = app.test_client()
    for who, status in ((plain, 403), (stranger, 404)):
        assert who.post(f"/c/{SLUG}/players/rename", data={"old": "Bob", "new": "Rob"}).status_code == status
        assert (
            who.post(f"/c/{SLUG}/players/private", data={"name": "Bob", "private": "1"}).status_code == status
        )
        assert who.get(f"/c/{SLUG}/players/tidy").status_code == status
    assert client.get(f"/api/games/{tally(client, ['Ann', 'Cid'])[0]}").json["players"] == ["Ann", "Cid"]
    assert board(client)["players"][0]["name"] == "Ann"  # nothing was renamed
    ok = client.post(f"/c/{SLUG}/players/rename", data={"old": "Bob", "new": "Rob"})
    assert ok.status_code == 303


def test_a_new_game_offers_the_players_list(client):
    tally(client, ["Ann", "Bob"], {"points": [9, 1]})
    page = client.get("/new/tally").get_data(as_text=True)
    assert '<datalist id="known-players"><option value="Ann"><option value="Bob"></datalist>' in page


# -- the cache against a rebuild ---------------------------------------------------------

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve"]
operation = st.one_of(
    st.tuples(
        st.just("game"),
        st.lists(st.sampled_from(NAMES), min_size=2, max_size=4, unique=True),
        st.lists(st.integers(-5, 20), min_size=4, max_size=4),
        st.booleans(),
    ),
    st.tuples(st.just("correct"), st.integers(0, 50), st.integers(-5, 20)),
    st.tuples(st.just("drop_deal"), st.integers(0, 50)),
    st.tuples(st.just("delete"), st.integers(0, 50)),
    st.tuples(st.just("restore"), st.integers(0, 50)),
    st.tuples(st.just("rename"), st.sampled_from(NAMES), st.sampled_from([*NAMES, "Zoe"])),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(ops=st.lists(operation, min_size=1, max_size=8))
def test_the_cached_ratings_equal_a_rebuild_after_games_corrections_and_deletions(app, ops):
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
        app.extensions.pop("scorekeeper.club_ratings", None)
        from scorekeeper.models import Club

        home = Club(slug="home", name="Home")
        db.session.add(home)
        db.session.commit()
        club_id = home.id
        for op in ops:
            games = db.session.scalars(select(Game).order_by(Game.id)).all()
            try:
                if op[0] == "game":
                    _tag, players, points, ended = op
                    deals = [{"points": points[: len(players)]}] + ([END] if ended else [])
                    game_rules, setup, checked, _ = service.check_record(
                        {"game": "tally", "players": players, "deals": deals}
                    )
                    service.create_game(game_rules, setup, checked, club_id=club_id)
                elif games and op[0] == "correct":
                    game = games[op[1] % len(games)]
                    if game.deals and "points" in game.deals[0].facts:
                        n = len(game.players)
                        service.replace_deal(game, 0, {"points": [op[2]] + [0] * (n - 1)})
                elif games and op[0] == "drop_deal":
                    game = games[op[1] % len(games)]
                    if game.deals:
                        service.delete_deal(game, len(game.deals) - 1)
                elif games and op[0] == "delete":
                    service.delete_game(games[op[1] % len(games)])
                elif games and op[0] == "restore":
                    service.restore_game(games[op[1] % len(games)])
                elif op[0] == "rename" and op[1] != op[2]:
                    club.rename_everywhere(club_id, op[1], op[2], service.Via())
            except (service.CannotUndo, service.GameGone, club.NameClash, InvalidFacts):
                # Refused (a rule, a game already deleted, two seats for one person): nothing changed.
                db.session.rollback()
            for scope in (None, "tally"):
                cached = club.club_ratings(club_id, scope)
                fresh = club.from_scratch(club_id, [scope])[scope]
                assert cached == fresh, (op, scope)


def test_a_restored_backup_keeps_private_players_and_slots_old_games_into_date_order(app, client, tmp_path):
    first, _ = tally(client, ["Ann", "Bob", "Cid"], {"points": [9, 5, 1]}, END)
    client.post(f"/c/{SLUG}/players/private", data={"name": "Cid", "private": "1"})
    runner = app.test_cli_runner()
    path = tmp_path / "old.json"
    assert runner.invoke(args=["export", first, "-o", str(path)]).exit_code == 0
    backup = path.read_text(encoding="utf-8")
    with app.app_context():
        for table in reversed(db.metadata.sorted_tables):
            db.session.execute(table.delete())
        db.session.commit()
    make_club(app, client)
    # A newer game first, then the old one restored from the backup with its dates.
    tally(client, ["Ann", "Bob", "Cid"], {"points": [1, 5, 9]}, END)
    path.write_text(backup, encoding="utf-8")
    result = runner.invoke(args=["import", str(path)])
    assert result.exit_code == 0 and "Restored 1 game." in result.output, result.output
    expected = openskill_replay(
        [([["Ann"], ["Bob"], ["Cid"]], [1, 2, 3]), ([["Cid"], ["Bob"], ["Ann"]], [1, 2, 3])]
    )
    del expected["Cid"]  # private again after the restore
    assert_numbers(board(client), expected)
