"""Records pages: exports (JSON, CSV, PDF fallback), import, game lists, players, the chart, the sheet."""

import csv
import io
import json
import random
import re

import pytest
from sqlalchemy import func, select

from scorekeeper import service
from scorekeeper.db import db
from scorekeeper.games import GAMES
from scorekeeper.keys import key_matches
from scorekeeper.models import Game
from scorekeeper.rules.base import check_setup
from tests.conftest import PLAYERS
from tests.rules.test_contract import NAMES, random_game

FLAT = {"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"]}  # Ann 12, Bob 9, Cid 9, Dee 9
MISERE = {"tricks": [13, 0, 0, 0], "agents": ["S", "L", "O", "R"], "trump": "H"}  # 169, 100, 130, 100
TIE = {"tricks": [4, 3, 3, 3], "agents": ["L", "R", "S", "O"]}  # Ann 12, Bob 12, Cid 9, Dee 9

# Every registered game, at every player count, plus the variants that change a record's shape.
VARIANTS = {
    "spades": [{"mode": "partnership"}],
    "secrets": [{"hidden": True, "values": "per player"}],
}


def setups_of(key):
    game = GAMES.get(key)
    options = [{}, *VARIANTS.get(key, [])]
    for raw in options:
        defaults = {o.key: o.default for o in game.options}
        for n in game.allowed_player_counts({**defaults, **raw}):
            opts = dict(raw)
            if opts.get("values") == "per player":
                opts["values"] = [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]] * n
            errors, setup = check_setup(game, NAMES[:n], opts, 1 % n)
            if not errors:
                yield setup


# The lists and player pages are a club's: every test's client is a member of "Rec" (its owner),
# and store() makes the club's games.
REC: dict = {}


@pytest.fixture(autouse=True)
def rec_club(app, client):
    made = client.post("/api/clubs", json={"name": "Rec", "player": "Olga"})
    assert made.status_code == 201
    client.set_cookie("member", made.json["member_key"])
    with app.app_context():
        from scorekeeper.models import Club

        REC["id"] = db.session.scalar(select(Club.id).where(Club.slug == "rec"))
    yield
    REC.pop("id", None)


def store(app, kind, players=PLAYERS, deals=(), options=None, first_dealer=0):
    """A game stored through the service, as the set-up page does it; returns (id, key). Here the
    club's; in other modules (which import it), a personal game."""
    with app.app_context():
        game_rules = GAMES.get(kind)
        errors, setup = check_setup(game_rules, list(players), options or {}, first_dealer)
        assert not errors, errors
        game, key = service.create_game(game_rules, setup, list(deals), club_id=REC.get("id"))
        return game.id, key


def game_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Game))


def upload(client, payload, name="game.json"):
    body = payload if isinstance(payload, bytes) else json.dumps(payload).encode()
    return client.post(
        "/import", data={"record": (io.BytesIO(body), name)}, content_type="multipart/form-data"
    )


def errors_in(html: str) -> list[str]:
    return [re.sub(r"\s+", " ", e).strip() for e in re.findall(r'class="error"[^>]*>(.*?)</p>', html, re.S)]


def text(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


# -- export and import ------------------------------------------------------------------


@pytest.mark.parametrize("kind", sorted(GAMES))
def test_export_import_round_trip_gives_identical_records_for_every_game_kind(app, client, kind):
    rng = random.Random(kind)
    for setup in setups_of(kind):
        game_rules = GAMES.get(kind)
        deals, result = random_game(game_rules, setup, rng)
        with app.app_context():
            game, _ = service.create_game(game_rules, setup, deals)
            game_id = game.id
        exported = client.get(f"/g/{game_id}/record.json")
        assert exported.status_code == 200
        assert exported.headers["Content-Disposition"].startswith("attachment; filename=")
        record = exported.get_json()
        assert record == client.get(f"/api/games/{game_id}").get_json()
        response = upload(client, record)
        assert response.status_code == 303, errors_in(response.get_data(as_text=True))
        new_id = response.headers["Location"].rsplit("/", 1)[-1]
        assert new_id != game_id
        again = client.get(f"/api/games/{new_id}").get_json()
        assert {**again, "id": None} == {**record, "id": None}
        assert again["totals"] == list(result.totals)


def test_the_importer_becomes_the_scorer_of_the_new_game(app, client):
    game_id, _ = store(app, "secret_agent", deals=[FLAT])
    record = client.get(f"/g/{game_id}/record.json").get_json()
    response = upload(client, record)
    new_id = response.headers["Location"].rsplit("/", 1)[-1]
    cookie = client.get_cookie("edit_key", path=f"/g/{new_id}")
    assert cookie is not None and cookie.http_only
    with app.app_context():
        assert key_matches(db.session.get(Game, new_id).edit_key_hash, cookie.value)
    page = client.get(f"/g/{new_id}", follow_redirects=True).get_data(as_text=True)
    assert "Game imported" in page and 'id="entry"' in page  # the scorer's form is there


@pytest.mark.parametrize(
    ("payload", "problem"),
    [
        (b"\x89PNG\r\n", "This file is not text"),
        (
            b'{"game": "secret_agent", ',
            "This file is not JSON: Expecting property name enclosed in double quotes (line 1, column 26).",
        ),
        ([1, 2], "format: A game record must be a JSON object."),
        ({"game": "chess", "players": PLAYERS}, "game: Unknown game; known games:"),
        ({"game": "secret_agent", "players": ["Ann", "Bob"]}, "players: This game needs 4 players."),
        (
            {
                "game": "secret_agent",
                "players": PLAYERS,
                "deals": [FLAT, {"tricks": [4, 3, 3, 4], "agents": ["L", "O", "R", "S"]}],
            },
            "Deal 2, tricks: The tricks add up to 14; a deal has 13.",
        ),
        ({"format": "scorekeeper-backup/1", "games": []}, "This is a backup of many games"),
    ],
)
def test_a_bad_file_is_refused_with_the_first_problem_and_creates_nothing(app, client, payload, problem):
    response = upload(client, payload)
    assert response.status_code == 422
    errors = errors_in(response.get_data(as_text=True))
    assert len(errors) == 1 and errors[0].startswith("Nothing was imported.") and problem in errors[0], errors
    assert game_count(app) == 0


def test_an_import_without_a_file_asks_for_one(app, client):
    response = client.post("/import", data={}, content_type="multipart/form-data")
    assert response.status_code == 422 and "Choose a file." in errors_in(response.get_data(as_text=True))
    assert game_count(app) == 0


def test_the_import_form_is_a_multipart_form_with_a_csrf_token(database_url):
    from scorekeeper import create_app

    app = create_app({"SECRET_KEY": "k", "SQLALCHEMY_DATABASE_URI": database_url, "AUTO_MIGRATE": False})
    client = app.test_client()
    page = client.get("/import").get_data(as_text=True)
    assert 'enctype="multipart/form-data"' in page and 'name="csrf_token"' in page and 'type="file"' in page
    # Without the token the post is refused, and nothing is created.
    response = upload(client, {"game": "secret_agent", "players": PLAYERS})
    assert response.status_code == 400
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 0


def test_an_import_whose_totals_differ_keeps_the_rules_totals(app, client):
    record = {"game": "secret_agent", "players": PLAYERS, "deals": [FLAT], "totals": [99, 0, 0, 0]}
    response = upload(client, record)
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "the rules&#39; totals are shown" in page or "the rules' totals are shown" in page
    new_id = response.headers["Location"].rsplit("/", 1)[-1]
    assert client.get(f"/api/games/{new_id}").get_json()["totals"] == [12, 9, 9, 9]


def test_csv_has_one_row_per_deal_and_matches_the_totals(app, client):
    game_id, _ = store(app, "secret_agent", ["Ann", "=Bob", "Cid", "Dee"], [FLAT, MISERE, FLAT, FLAT])
    response = client.get(f"/g/{game_id}/scores.csv")
    assert response.status_code == 200 and response.mimetype == "text/csv"
    assert (
        response.headers["Content-Disposition"]
        == f'attachment; filename="secret_agent-{today(app, game_id)}-{game_id}.csv"'
    )
    rows = list(csv.reader(io.StringIO(response.data.decode("utf-8-sig"))))
    assert rows[0] == ["Deal", "Ann", "'=Bob", "Cid", "Dee"]
    assert rows[1:-1] == [
        ["1", "12", "9", "9", "9"],
        ["2", "169", "100", "130", "100"],
        ["3", "12", "9", "9", "9"],
        ["4", "12", "9", "9", "9"],
    ]
    assert rows[-1] == ["Total", "205", "127", "157", "127"]
    record = client.get(f"/api/games/{game_id}").get_json()
    per_player = [sum(int(row[s + 1]) for row in rows[1:-1]) for s in range(4)]
    assert per_player == record["totals"] == [int(x) for x in rows[-1][1:]]


def today(app, game_id):
    with app.app_context():
        return f"{db.session.get(Game, game_id).created_at:%Y-%m-%d}"


def test_csv_of_a_pairs_game_gives_each_partner_the_pairs_points(app, client):
    march = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 5}
    game_id, _ = store(app, "euchre", deals=[march, march])
    rows = list(csv.reader(io.StringIO(client.get(f"/g/{game_id}/scores.csv").data.decode("utf-8-sig"))))
    assert rows == [
        ["Deal", *PLAYERS],
        ["1", "2", "0", "2", "0"],
        ["2", "2", "0", "2", "0"],
        ["Total", "4", "0", "4", "0"],
    ]


def test_exports_of_a_missing_game_are_404(client):
    for suffix in ("record.json", "scores.csv", "sheet.pdf"):
        assert client.get(f"/g/nope/{suffix}").status_code == 404


# -- the PDF where the server cannot make one ------------------------------------------------


def test_without_chromium_the_pdf_link_says_how_to_save_a_pdf(app, client):
    app.config["PDF_CHROMIUM"] = ""
    game_id, _ = store(app, "secret_agent", deals=[FLAT])
    sheet = client.get(f"/g/{game_id}/sheet").get_data(as_text=True)
    assert "sheet.pdf" not in sheet and "Use Print and choose “Save as PDF”." in sheet
    response = client.get(f"/g/{game_id}/sheet.pdf")
    assert response.status_code == 303 and response.headers["Location"].endswith(f"/g/{game_id}/sheet")
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "This server cannot make PDF files (it has no Chromium)." in page


def test_a_failing_chromium_sends_the_user_back_with_a_message(app, client, tmp_path):
    broken = tmp_path / "chromium"
    broken.write_text("#!/bin/sh\nexit 3\n")
    broken.chmod(0o755)
    app.config["PDF_CHROMIUM"] = str(broken)
    game_id, _ = store(app, "secret_agent", deals=[FLAT])
    sheet = client.get(f"/g/{game_id}/sheet").get_data(as_text=True)
    assert f"/g/{game_id}/sheet.pdf?paper=a4" in sheet and "paper=letter" in sheet
    response = client.get(f"/g/{game_id}/sheet.pdf")
    assert response.status_code == 303
    assert "The PDF could not be made just now." in client.get(response.headers["Location"]).get_data(
        as_text=True
    )


# -- the sheet and the chart -------------------------------------------------------------------


def test_the_sheet_has_game_date_options_players_facts_totals_winner_and_tiebreaks(app, client):
    game_id, _ = store(app, "secret_agent", deals=[TIE, TIE, TIE, TIE, MISERE], first_dealer=2)
    html = client.get(f"/g/{game_id}/sheet").get_data(as_text=True)
    page = text(html)
    assert "Secret Agent" in page and "Number of deals: 4" in page
    assert "Players: Ann, Bob, Cid, Dee (first dealer: Cid)" in page
    assert "Dealer: Cid" in page and "Dealer: Cid · Trump: ♥ hearts" in page  # deal 5 is dealt by Cid again
    assert "Ann: 13 x 13" not in page and "13 x 13 (own agent, Self) = 169" in page
    totals = re.search(r"<tfoot>(.*?)</tfoot>", html, re.S).group(1)
    assert re.findall(r"<b>(\d+)</b>", totals) == ["217", "148", "166", "136"]
    assert "Ann wins." in page
    assert html.count('class="tag" title="tiebreak deal"') == 1 and "TB: a tiebreak deal" in page
    assert '<tbody class="tiebreak">' in html


def test_a_pairs_sheet_has_a_column_per_pair(app, client):
    march = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 5}
    game_id, _ = store(app, "euchre", deals=[march])
    html = client.get(f"/g/{game_id}/sheet").get_data(as_text=True)
    head = re.search(r"<thead>(.*?)</thead>", html, re.S).group(1)
    assert re.findall(r'<th scope="col"[^>]*>([^<]*)</th>', head) == ["#", "Ann &amp; Cid", "Bob &amp; Dee"]
    assert "Players: Ann &amp; Cid · Bob &amp; Dee" in text(html)


def test_the_game_page_charts_one_line_per_side(app, client):
    game_id, _ = store(app, "secret_agent", deals=[FLAT, MISERE])
    html = client.get(f"/g/{game_id}").get_data(as_text=True)
    svg = re.search(r'<svg class="chart-svg".*?</svg>', html, re.S).group(0)
    assert 'role="img"' in svg and "<title" in svg and "Ann 181, Bob 109, Cid 139, Dee 109" in text(svg)
    assert len(re.findall(r'<path class="chart-line"', svg)) == 4
    assert "<script" not in svg and "style=" not in svg
    legend = text(re.search(r'<ul class="chart-legend">.*?</ul>', html, re.S).group(0))
    assert legend.split() == ["Ann", "181", "Bob", "109", "Cid", "139", "Dee", "109"]
    # Pairs: one line per pair.
    march = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 5}
    pairs_id, _ = store(app, "euchre", deals=[march])
    html = client.get(f"/g/{pairs_id}").get_data(as_text=True)
    assert len(re.findall(r'<path class="chart-line"', html)) == 2 and "Ann &amp; Cid" in html


def test_the_chart_follows_a_deal_entered_with_htmx(client, new_game):
    path = new_game()
    assert 'class="chart"' not in client.get(path).get_data(as_text=True)  # nothing to draw yet
    data = {f"tricks_{s}": str(t) for s, t in enumerate(FLAT["tricks"])}
    data.update({f"agents_{s}": a for s, a in enumerate(FLAT["agents"])})
    html = client.post(f"{path}/deals", data=data, headers={"HX-Request": "true"}).get_data(as_text=True)
    assert 'class="chart"' in html and "Ann 12, Bob 9, Cid 9, Dee 9" in text(html)


# -- lists and players ----------------------------------------------------------------------------


@pytest.fixture
def four_games(app):
    """Four games of two kinds, with Ann in three of them."""
    return {
        "won": store(app, "secret_agent", deals=[FLAT, MISERE, FLAT, FLAT])[0],  # Ann 205 wins
        "lost": store(app, "secret_agent", ["Bob", "Cid", "Ann", "Dee"], [MISERE, FLAT, FLAT, FLAT])[
            0
        ],  # Ann 157
        "going": store(app, "secret_agent", deals=[FLAT])[0],
        "euchre": store(app, "euchre", ["Eve", "Fay", "Gus", "Hal"])[0],
    }


def listed(html: str) -> list[str]:
    return re.findall(r'href="/g/([^"/?]+)"', html)


def test_games_list_filters_by_kind_and_player(client, four_games):
    assert sorted(listed(client.get("/c/rec/games").get_data(as_text=True))) == sorted(four_games.values())
    assert listed(client.get("/c/rec/games?kind=euchre").get_data(as_text=True)) == [four_games["euchre"]]
    ann = listed(client.get("/c/rec/games?player=Ann").get_data(as_text=True))
    assert sorted(ann) == sorted([four_games["won"], four_games["lost"], four_games["going"]])
    assert listed(client.get("/c/rec/games?kind=euchre&player=Ann").get_data(as_text=True)) == []
    page = client.get("/c/rec/games?kind=euchre&player=Ann").get_data(as_text=True)
    assert "No game matches." in page and '<option value="euchre" selected>' in page
    # An unknown kind shows every game rather than an error.
    assert len(listed(client.get("/c/rec/games?kind=chess").get_data(as_text=True))) == 4


def test_games_list_pages(app, client, monkeypatch):
    from scorekeeper.web.games import records as web_exports

    monkeypatch.setattr(web_exports, "PER_PAGE", 2)
    for _ in range(3):
        store(app, "secret_agent")
    first = client.get("/c/rec/games").get_data(as_text=True)
    second = client.get("/c/rec/games?page=2").get_data(as_text=True)
    assert len(listed(first)) == 2 and len(listed(second)) == 1
    assert "page=2" in first and "page=1" in second and set(listed(first)).isdisjoint(listed(second))


def test_players_page_lists_everyone_with_their_game_count(client, four_games):
    page = client.get("/c/rec/players").get_data(as_text=True)
    rows = dict(re.findall(r'<strong class="names">([^<]+)</strong>\s*<span class="muted">(\d+) game', page))
    assert rows == {
        "Ann": "3",
        "Bob": "3",
        "Cid": "3",
        "Dee": "3",
        "Eve": "1",
        "Fay": "1",
        "Gus": "1",
        "Hal": "1",
    }
    assert "/c/rec/player?name=Ann" in page


def test_player_page_numbers_checked_by_hand(client, four_games):
    page = client.get("/c/rec/player?name=Ann").get_data(as_text=True)
    assert "3 games" in page and "won 1 of 2 finished" in page
    row = re.search(r"<tbody>(.*?)</tbody>", page, re.S).group(1)
    assert "Secret Agent" in row and "1 in progress" in row
    # Played 2 (finished), won 1, average (205 + 157) / 2 = 181, best 205.
    assert re.findall(r'<td class="num">([^<]*)</td>', row) == ["2", "1", "181", "205"]
    recent = listed(page.split("Last games", 1)[1])
    assert recent[:3] == [four_games["going"], four_games["lost"], four_games["won"]]
    assert "Won with 205" in page and "Finished with 157" in page and "In progress: 12" in page


def test_player_page_of_a_stranger_is_404_and_a_blank_name_lists_players(client, four_games):
    assert client.get("/c/rec/player?name=Nobody").status_code == 404
    assert client.get("/c/rec/player?name=").headers["Location"].endswith("/c/rec/players")


def test_player_page_loads_games_in_a_constant_number_of_queries(app, client, count_queries, four_games):
    for _ in range(6):
        store(app, "secret_agent", deals=[FLAT, FLAT])
    with count_queries() as seen:
        assert client.get("/c/rec/player?name=Ann").status_code == 200
    few = len(seen)
    with count_queries() as seen:
        assert client.get("/c/rec/games").status_code == 200
    # One more than before clubs: the member cookie's membership, checked on every request.
    assert len(seen) <= 7, seen.statements
    # The games (3), plus the club rating: its cache key, and when the games changed, their
    # stamps and one batched load of the changed games (seats and deals with them).
    assert few <= 10, few
    for _ in range(6):
        store(app, "secret_agent", deals=[FLAT, FLAT])
    with count_queries() as seen:
        assert client.get("/c/rec/player?name=Ann").status_code == 200
    assert len(seen) == few, seen.statements


def test_new_game_offers_earlier_names(client, four_games):
    page = client.get("/new/secret_agent").get_data(as_text=True)
    known = re.search(r'<datalist id="known-players">(.*?)</datalist>', page, re.S).group(1)
    assert {"Ann", "Eve", "Hal"} <= set(re.findall(r'value="([^"]+)"', known))


def test_home_links_to_the_records(client):
    page = client.get("/").get_data(as_text=True)
    assert 'href="/games"' in page and 'href="/import"' in page and 'href="/c/rec"' in page
    club = client.get("/c/rec").get_data(as_text=True)
    assert (
        'href="/c/rec/games"' in club and 'href="/c/rec/players"' in club and 'href="/c/rec/ratings"' in club
    )


def test_a_hidden_game_in_progress_shows_no_score_in_the_records(app, client):
    """Hidden Secrets keeps its scores secret until the end: the records leave them out too."""
    game_rules = GAMES.get("secrets")
    setup = next(s for s in setups_of("secrets") if s.options.get("hidden") and s.n == 3)
    deals, _ = random_game(game_rules, setup, random.Random(3), limit=1)
    with app.app_context():
        game, _ = service.create_game(game_rules, setup, deals, club_id=REC["id"])
        game_id, name = game.id, game.players[0]
        result = service.replay(game)
        hidden = not result.finished and game_rules.hides_scores(result.setup)
    assert hidden
    page = client.get(f"/c/rec/player?name={name}").get_data(as_text=True)
    assert "In progress: ?" in page
    record = client.get(f"/g/{game_id}/record.json").get_json()
    rows = list(csv.reader(io.StringIO(client.get(f"/g/{game_id}/scores.csv").data.decode("utf-8-sig"))))
    assert [r[1:] for r in rows[1:]] == [
        ["" if s is None else str(s) for s in row] for row in [*record["scores"], record["totals"]]
    ]
