"""The HTML pages: set-up, deal entry with and without htmx, corrections, the sheet."""

import re

from sqlalchemy import func, select

from scorekeeper.db import db
from scorekeeper.models import Deal, Game
from tests.conftest import sa_form
from tests.web.pages import checked, errors_in

FLAT = sa_form([4, 3, 3, 3], "LORS")  # Ann 12, Bob 9, Cid 9, Dee 9 (see the rules tests)


def deal_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Deal))


def test_home_lists_games_in_progress_and_finished(client, new_game):
    page = client.get("/").get_data(as_text=True)
    assert "No game in progress on this device." in page
    path = new_game()
    for _ in range(4):
        client.post(f"{path}/deals", data=FLAT)
    new_game(players=["Eve", "Fay", "Gus", "Hal"])
    page = client.get("/").get_data(as_text=True)
    in_progress, finished = page.split("Finished", 1)
    assert "Eve, Fay, Gus, Hal" in in_progress and "Ann wins." in finished


def test_new_game_lists_the_registered_games(client):
    page = client.get("/new").get_data(as_text=True)
    assert "Secret Agent" in page and "/new/secret_agent" in page
    assert client.get("/new/no_such_game").status_code == 404


def test_set_up_refuses_bad_names_keeps_the_input_and_creates_nothing(client, app):
    data = {
        "players_0": "Ann",
        "players_1": "x" * 41,
        "players_2": "ann",
        "players_3": "Dee",
        "first_dealer": "0",
    }
    response = client.post("/new/secret_agent", data=data)
    assert response.status_code == 422
    page = response.get_data(as_text=True)
    assert "A name has at most 40 characters." in errors_in(page)
    assert "“ann” is already at the table." in errors_in(page)
    assert 'value="Dee"' in page and 'value="' + "x" * 41 + '"' in page
    with app.app_context():
        assert db.session.scalar(select(func.count()).select_from(Game)) == 0


def test_set_up_needs_four_players_and_a_seated_dealer(client):
    response = client.post(
        "/new/secret_agent",
        data={"players_0": "Ann", "players_1": "Bob", "players_2": "Cid", "first_dealer": "9"},
    )
    errors = errors_in(response.get_data(as_text=True))
    assert response.status_code == 422
    assert "This game needs 4 players." in errors
    assert "The first dealer must be one of the players." in errors


def test_set_up_refuses_a_bad_option(client):
    data = {"players_0": "A", "players_1": "B", "players_2": "C", "players_3": "D", "opt_deals": "zero"}
    response = client.post("/new/secret_agent", data=data)
    assert "Number of deals: a whole number from 1 to 52." in errors_in(response.get_data(as_text=True))


def test_game_page_shows_scoreboard_dealer_and_next_dealer(client, new_game):
    path = new_game(first_dealer=2)
    page = client.get(path).get_data(as_text=True)
    assert "Deal 1 of 4. Cid deals." in page
    response = client.post(f"{path}/deals", data=FLAT)
    assert response.status_code == 303
    page = client.get(response.headers["Location"]).get_data(as_text=True)
    assert "Deal 1 recorded." in page
    assert "Deal 2 of 4. Dee deals." in page
    assert "Ann: 4 x 3 (agent Bob, Left) = 12" in page
    # Cid dealt deal 1: the dealer's cell is marked.
    row = re.search(r"<tbody>(.*?)</tr>", page, re.S).group(1)
    cells = re.findall(r'<td class="([^"]*)"', row)
    assert cells == ["", "", "dealer", ""]


def test_htmx_entry_returns_only_the_live_region(client, new_game):
    path = new_game()
    response = client.post(f"{path}/deals", data=FLAT, headers={"HX-Request": "true"})
    assert response.status_code == 200
    html = response.get_data(as_text=True)
    assert html.lstrip().startswith('<section id="live"') and "<html" not in html
    assert "HX-Request" in response.headers["Vary"]
    assert "Deal 2 of 4" in html and 'id="entry"' in html
    # A boosted navigation is a whole page.
    boosted = client.get(path, headers={"HX-Request": "true", "HX-Boosted": "true"})
    assert "<html" in boosted.get_data(as_text=True)
    assert "<html" not in client.get(path, headers={"HX-Request": "true"}).get_data(as_text=True)


def test_bad_deal_is_refused_next_to_the_field_and_keeps_the_input(client, app, new_game):
    path = new_game()
    client.post(f"{path}/deals", data=FLAT)
    bad = sa_form([4, 3, 3, 4], "LLRS")
    for headers in ({}, {"HX-Request": "true"}):
        response = client.post(f"{path}/deals", data=bad, headers=headers)
        assert response.status_code == 422
        html = response.get_data(as_text=True)
        errors = errors_in(html)
        assert "The tricks add up to 14; a deal has 13." in errors
        assert "Left is given to both Ann and Bob: each card is dealt once." in errors
        # What was typed is still selected.
        assert checked(html, "tricks_3", "4") and checked(html, "agents_1", "L")
        assert not checked(html, "tricks_3", "3")
    assert deal_count(app) == 1


def test_garbage_in_the_deal_form_is_a_message_not_a_crash(client, app, new_game):
    path = new_game()
    response = client.post(f"{path}/deals", data={"tricks_0": "lots", "agents_2": "Q", "trump": "X"})
    assert response.status_code == 422
    errors = errors_in(response.get_data(as_text=True))
    assert "Ann: tricks must be a whole number from 0 to 13." in errors
    assert "Cid: the card is Left, Opposite, Right or Self." in errors
    assert deal_count(app) == 0


def play_four(client, path):
    deals = [sa_form([4, 3, 3, 3], "LORS"), sa_form([13, 0, 0, 0], "SLOR"), FLAT, FLAT]
    for data in deals:
        assert client.post(f"{path}/deals", data=data).status_code == 303


def test_after_the_last_deal_the_winner_is_shown_and_entry_stops(client, new_game):
    path = new_game()
    play_four(client, path)
    page = client.get(path).get_data(as_text=True)
    assert "Ann wins." in page and 'id="entry"' not in page
    response = client.post(f"{path}/deals", data=FLAT)
    assert response.status_code == 422
    assert "The game ended after deal 4: no deal can follow it." in errors_in(response.get_data(as_text=True))


def test_a_tie_asks_for_a_tiebreak_deal(client, new_game):
    path = new_game()
    tie = sa_form([4, 3, 3, 3], "LRSO")  # Ann 12, Bob 12, Cid 9, Dee 9
    for _ in range(4):
        client.post(f"{path}/deals", data=tie)
    page = client.get(path).get_data(as_text=True)
    assert "Ann and Bob are tied for the lead: another deal breaks the tie. Ann deals." in page
    client.post(f"{path}/deals", data=sa_form([13, 0, 0, 0], "SLOR"))
    page = client.get(path).get_data(as_text=True)
    assert "Ann wins." in page and "tiebreak deal" in page


def test_correcting_an_earlier_deal_rescores_everything_after_it(client, app, new_game):
    path = new_game()
    play_four(client, path)
    page = client.get(f"{path}/deals/1").get_data(as_text=True)
    assert "Correct this deal" in page and checked(page, "tricks_0", "13") and checked(page, "agents_0", "S")
    response = client.post(f"{path}/deals/1", data=FLAT)
    assert response.status_code == 303
    page = client.get(path).get_data(as_text=True)
    totals = re.search(r"<tfoot>(.*?)</tfoot>", page, re.S).group(1)
    assert re.findall(r"<td[^>]*>(\d+)</td>", totals) == ["48", "36", "36", "36"]
    assert deal_count(app) == 4


def test_a_correction_that_breaks_a_rule_changes_nothing(client, new_game):
    path = new_game()
    play_four(client, path)
    response = client.post(f"{path}/deals/0", data=sa_form([4, 4, 4, 4], "LORS"))
    assert response.status_code == 422
    assert "The tricks add up to 16; a deal has 13." in errors_in(response.get_data(as_text=True))
    assert client.get("/api/games/" + path.split("/")[-1]).json["deals"][0]["tricks"] == [4, 3, 3, 3]


def test_deleting_a_deal_rescores_and_reopens_the_game(client, new_game):
    path = new_game()
    play_four(client, path)
    response = client.post(f"{path}/deals/1/delete")
    assert response.status_code == 303
    record = client.get("/api/games/" + path.split("/")[-1]).json
    assert len(record["deals"]) == 3 and record["totals"] == [36, 27, 27, 27]
    assert not record["finished"] and record["next_dealer"] == 3
    assert client.post(f"{path}/deals/7/delete").status_code == 404


def test_a_correction_that_ends_the_game_earlier_is_refused(client, new_game):
    path = new_game()
    tie = sa_form([4, 3, 3, 3], "LRSO")
    for _ in range(4):
        client.post(f"{path}/deals", data=tie)
    client.post(f"{path}/deals", data=sa_form([13, 0, 0, 0], "SLOR"))  # tiebreak deal 5
    response = client.post(f"{path}/deals/0", data=sa_form([13, 0, 0, 0], "SLOR"))
    assert response.status_code == 422
    assert "The game ended after deal 4: no deal can follow it." in errors_in(response.get_data(as_text=True))


def test_without_the_edit_key_the_game_is_read_only(app, client, new_game):
    path = new_game()
    client.post(f"{path}/deals", data=FLAT)
    viewer = app.test_client()
    page = viewer.get(path).get_data(as_text=True)
    assert "Ann: 4 x 3 (agent Bob, Left) = 12" in page
    assert 'id="entry"' not in page and "only the scorer's device" in page
    assert viewer.post(f"{path}/deals", data=FLAT).status_code == 403
    assert viewer.post(f"{path}/deals/0", data=FLAT).status_code == 403
    assert viewer.post(f"{path}/deals/0/delete").status_code == 403
    assert "Correct this deal" not in viewer.get(f"{path}/deals/0").get_data(as_text=True)
    assert len(client.get("/api/games/" + path.split("/")[-1]).json["deals"]) == 1


def test_the_scoring_link_hands_the_key_to_another_device(app, client):
    created = client.post("/api/games", json={"game": "secret_agent", "players": ["A", "B", "C", "D"]}).json
    other = app.test_client()
    path = f"/g/{created['id']}"
    assert other.get(f"{path}?key=wrong").status_code == 200
    assert other.post(f"{path}/deals", data=FLAT).status_code == 403
    response = other.get(f"{path}?key={created['edit_key']}")
    assert response.status_code == 303 and response.headers["Location"] == path
    assert other.post(f"{path}/deals", data=FLAT).status_code == 303


def test_unknown_game_and_deal_are_404(client, new_game):
    assert client.get("/g/nope").status_code == 404
    path = new_game()
    assert client.get(f"{path}/deals/0").status_code == 404


def test_score_sheet_has_every_deal_totals_and_winner(client, new_game):
    path = new_game()
    for data in ({**FLAT, "trump": "H"}, sa_form([13, 0, 0, 0], "SLOR"), FLAT, FLAT):
        assert client.post(f"{path}/deals", data=data).status_code == 303
    sheet = client.get(f"{path}/sheet").get_data(as_text=True)
    assert sheet.count('<th scope="row">') == 5  # four deals and the total
    assert "Trump: ♥ hearts" in sheet and "Ann wins." in sheet
    assert "Number of deals: 4" in sheet
    assert "@media print" in client.get("/static/app.css").get_data(as_text=True)


def test_a_deal_entry_does_a_handful_of_queries_whatever_the_length(client, new_game, count_queries):
    counts = []
    for deals in (4, 40):
        path = new_game(deals=deals)
        for _ in range(deals - 1):
            client.post(f"{path}/deals", data=FLAT)
        with count_queries() as seen:
            response = client.post(f"{path}/deals", data=FLAT, headers={"HX-Request": "true"})
        assert response.status_code == 200
        counts.append(len(seen))
    assert counts[0] == counts[1] and counts[0] <= 8, counts
