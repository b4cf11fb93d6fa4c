"""Secrets through the pages: the game master's turn form, turn reports, corrections, the end;
Hidden Secrets' allotments, private links and reports, and no hidden value on any public page."""

from __future__ import annotations

import html as html_lib
import json
import re

import pytest
from sqlalchemy import func, select

from scorekeeper.db import db
from scorekeeper.games import GAMES
from scorekeeper.games.secrets.rules import HIDDEN_SECRETS
from scorekeeper.models import Deal
from tests.web.pages import checked, errors_in

A, B, C, D = 0, 1, 2, 3
NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


# -- helpers -----------------------------------------------------------------------
def start(client, n=3, hidden=False, turns=5, may_stay=True) -> str:
    """Set up a game through the set-up page; returns the game page's path.

    Spies may stay at home unless ``may_stay`` is false: most tests send a few spies.
    """
    data = {f"players_{s}": NAMES[s] for s in range(n)}
    data.update(first_dealer="0", opt_turns=str(turns))
    if hidden:
        data["opt_hidden"] = "y"
    if may_stay:
        data["opt_spies_may_stay"] = "y"
    response = client.post("/new/secrets", data=data)
    assert response.status_code == 303, response.get_data(as_text=True)
    return response.headers["Location"]


def turn(orders, guards) -> dict[str, str]:
    """The turn form as a browser posts it: orders per player as (spy, target, secret).

    Both layouts' inputs: one tap per order (three players), or the player then the secret
    (more); each form reads its own."""
    data = {}
    for seat, mine in enumerate(orders):
        for spy, target, secret in mine:
            data[f"order_{seat}_{spy}"] = f"{target}-{secret}"
            data[f"target_{seat}_{spy}"] = str(target)
            data[f"secret_{seat}_{spy}"] = str(secret)
    for seat, guard in enumerate(guards):
        data[f"guards_{seat}"] = str(guard)
    return data


def quiet(n, guards) -> dict[str, str]:
    """A turn in which every spy stays at home."""
    return turn([[]] * n, guards)


# The worked turn of secrets.md (three players A, B, C).
WORKED = turn(
    [
        [("club", B, 2), ("diamond", C, 9), ("heart", B, 7), ("spade", C, 5)],
        [("club", A, 3), ("diamond", C, 9), ("heart", A, 8), ("spade", C, 1)],
        [("club", A, 8), ("diamond", B, 2), ("heart", A, 1), ("spade", B, 4)],
    ],
    [3, 7, 5],
)


def game_id(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def text_of(page: str) -> str:
    """The words a reader sees (tags dropped, entities decoded, spaces squeezed)."""
    page = re.sub(r"<(script|style)\b.*?</\1>", " ", page, flags=re.S)
    return re.sub(r"\s+", " ", html_lib.unescape(re.sub(r"<[^>]+>", " ", page)))


def totals(page: str) -> list[str]:
    foot = re.search(r'<table class="board sx-board[^"]*">.*?<tfoot>\s*<tr>(.*?)</tr>', page, re.S).group(1)
    return [text_of(c).strip() for c in re.findall(r"<td[^>]*>(.*?)</td>", foot, re.S)]


def report(page: str, number: int) -> str:
    """The text of the turn report of turn ``number``."""
    found = re.search(rf'<details class="sx-turn" id="turn-{number}".*?</details>', page, re.S)
    assert found, f"no report of turn {number}"
    return text_of(found.group(0))


def offered(page: str, name: str) -> list[str]:
    """The chips the page offers for the radio ``name``."""
    return re.findall(rf'<input[^>]*name="{name}"[^>]*value="([^"]*)"', page)


def deal_count(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(Deal))


def play(client, path, data, status=303):
    response = client.post(f"{path}/deals", data=data)
    assert response.status_code == status, errors_in(response.get_data(as_text=True))
    return response


# -- the plain game ------------------------------------------------------------------
def test_set_up_offers_plain_or_hidden_and_says_turn(client):
    page = client.get("/new/secrets").get_data(as_text=True)
    assert 'name="opt_hidden"' in page and 'name="opt_turns"' in page
    assert "Secrets has no dealer" in page
    path = start(client)
    page = client.get(path).get_data(as_text=True)
    assert "Turn 1 of 5." in text_of(page)
    assert "Orders for turn 1" in page and "Resolve turn 1" in page
    # Three players: an order is one tap, on every other player's secrets 1-9, or "home" (the table
    # plays that spies may stay); nobody spies on himself.
    assert offered(page, "order_0_club") == ["", *(f"{t}-{s}" for t in (1, 2) for s in range(1, 10))]
    assert offered(page, "order_1_club")[:3] == ["", "0-1", "0-2"]
    assert offered(page, "guards_2") == [str(s) for s in range(1, 10)]
    assert checked(page, "order_0_club", "")  # a spy stays at home unless sent
    assert 'name="target_0_club"' not in page
    # Too few players is refused by the rules.
    response = client.post("/new/secrets", data={"players_0": "Ann", "players_1": "Bob"})
    assert response.status_code == 422 and "This game needs 3-6 players." in errors_in(
        response.get_data(as_text=True)
    )


def test_the_worked_turn_of_secrets_md(client):
    path = start(client)
    play(client, path, WORKED)
    page = client.get(path).get_data(as_text=True)
    assert "Turn 1 resolved." in page and "Turn 2 of 5." in text_of(page)
    assert totals(page)[:3] == ["10", "11", "15"]
    assert (
        "Cid: 1 x 10 (spies caught at secret 5) + 1 (secret 1 stolen from Ann) + 4 (secret 4 stolen from Bob) = 15"
        in text_of(page)
    )
    one = report(page, 1)
    assert "Spies captured: 3, clashed: 6, stole: 3, found nothing: 0" in one
    # Per order: the clashes at B2, C9, A8, the captures, the thefts.
    assert "Ann policeman at 3 · score 10" in one
    assert "♣ Club → Bob · 2 clashed" in one and "♦ Diamond → Cid · 9 clashed" in one
    assert "♥ Heart → Bob · 7 captured +10 for Bob" in one
    assert "♠ Spade → Cid · 5 captured +10 for Cid" in one
    assert "♣ Club → Ann · 3 captured +10 for Ann" in one
    assert "♠ Spade → Cid · 1 stolen +1 for Bob" in one
    assert "♥ Heart → Ann · 1 stolen +1 for Cid" in one and "♠ Spade → Bob · 4 stolen +4 for Cid" in one
    # Only free spies are offered for turn 2: Ann Club and Diamond; Bob Diamond, Heart, Spade; Cid all four.
    free = {
        seat: [spy for spy in ("club", "diamond", "heart", "spade") if f'name="order_{seat}_{spy}"' in page]
        for seat in range(3)
    }
    assert free == {
        0: ["club", "diamond"],
        1: ["diamond", "heart", "spade"],
        2: ["club", "diamond", "heart", "spade"],
    }
    assert "Heart captured in turn 1 · Spade captured in turn 1" in text_of(page)
    # Every policeman caught a spy: each may stay.
    assert "He guarded 3 last turn and caught a spy: he may stay." in text_of(page)
    assert offered(page, "guards_0") == [str(s) for s in range(1, 10)]
    # The API agrees.
    record = client.get(f"/api/games/{game_id(path)}").get_json()
    assert record["totals"] == [10, 11, 15] and len(record["turns"]) == 1


def test_several_spies_on_a_guarded_secret_are_all_captured_10_each(client):
    path = start(client, n=4)
    play(
        client,
        path,
        turn(
            [[("club", B, 5)], [], [("club", B, 5), ("spade", B, 5)], [("heart", B, 5)]],
            [1, 5, 1, 1],
        ),
    )
    page = client.get(path).get_data(as_text=True)
    assert totals(page)[:4] == ["0", "40", "0", "0"]
    assert "Bob: 4 x 10 (spies caught at secret 5) = 40" in text_of(page)
    one = report(page, 1)
    assert one.count("captured +10 for Bob") == 4 and "stolen" not in one.replace("stole: 0", "")
    # The captured spies are out: Cid keeps Diamond and Heart only.
    assert [spy for spy in ("club", "diamond", "heart", "spade") if f'name="order_2_{spy}"' in page] == [
        "diamond",
        "heart",
    ]


def test_two_spies_of_one_player_clash(client):
    path = start(client)
    play(client, path, turn([[("club", B, 3), ("diamond", B, 3)], [], []], [1, 1, 1]))
    page = client.get(path).get_data(as_text=True)
    one = report(page, 1)
    assert "♣ Club → Bob · 3 clashed" in one and "♦ Diamond → Bob · 3 clashed" in one
    assert totals(page)[:3] == ["0", "0", "0"]
    # Both spies stay free, and the secret stays with Bob: one spy alone steals it next turn.
    assert 'name="order_0_club"' in page and 'name="order_0_diamond"' in page
    play(client, path, turn([[("diamond", B, 3)], [], []], [2, 2, 2]))
    page = client.get(path).get_data(as_text=True)
    assert "♦ Diamond → Bob · 3 stolen +3 for Ann" in report(page, 2)
    assert totals(page)[:3] == ["3", "0", "0"]


def test_a_spy_sent_to_an_already_stolen_secret_finds_nothing(client):
    path = start(client)
    play(client, path, turn([[("club", B, 4)], [], []], [1, 1, 1]))
    play(client, path, turn([[], [], [("club", B, 4)]], [2, 2, 2]))
    page = client.get(path).get_data(as_text=True)
    assert "♣ Club → Bob · 4 nothing there already stolen" in report(page, 2)
    assert totals(page)[:3] == ["4", "0", "0"]
    assert "Cid: Nothing stolen, no spy caught: 0" in text_of(page)


def test_a_policeman_who_caught_nobody_must_move(client, app):
    path = start(client)
    play(client, path, turn([[("club", B, 4)], [], []], [1, 1, 1]))
    page = client.get(path).get_data(as_text=True)
    # Nobody caught a spy: the form leaves out each one's last post and says why, beside the guard.
    assert offered(page, "guards_0") == [str(s) for s in range(2, 10)]
    assert "He guarded 1 last turn and caught no spy: he must guard another secret now." in text_of(page)
    # Posted anyway (a stale page, a crafted post): refused next to Ann's guard, the entry kept, nothing recorded.
    data = turn([[("diamond", C, 6)], [("club", A, 2)], []], [1, 3, 4])
    for headers in ({}, {"HX-Request": "true"}):
        response = client.post(f"{path}/deals", data=data, headers=headers)
        assert response.status_code == 422
        page = response.get_data(as_text=True)
        error = re.search(r'<p class="error" id="guards_0-error">([^<]*)</p>', page)
        assert error and html_lib.unescape(error.group(1)) == (
            "Turn 2: Ann's policeman guarded secret 1 in turn 1 and caught no spy, so he must guard a different secret now."
        )
        assert len(errors_in(page)) == 1
        assert checked(page, "order_0_diamond", "2-6")
        assert checked(page, "order_1_club", "0-2") and checked(page, "guards_1", "3")
        assert checked(page, "guards_0", "1")  # the refused post stays on the form, marked
        assert 'class="chip sx-banned"' in page
    assert deal_count(app) == 1


def test_a_correction_re_resolves_every_later_turn(client, app):
    path = start(client)
    play(client, path, turn([[("club", B, 4)], [], []], [1, 1, 1]))  # Ann steals B4
    play(client, path, turn([[], [], [("club", B, 4)]], [2, 2, 2]))  # Cid finds nothing there
    page = client.get(f"{path}/deals/0").get_data(as_text=True)
    assert "Turn 1" in page and "Correct this turn" in page and "Save correction" in page
    assert checked(page, "order_0_club", "1-4")
    # Turn 1 was in fact Ann's Club on B5: now Cid's spy steals B4 in turn 2.
    response = client.post(f"{path}/deals/0", data=turn([[("club", B, 5)], [], []], [1, 1, 1]))
    assert response.status_code == 303
    page = client.get(path).get_data(as_text=True)
    assert "Turn 1 corrected; the turns after it are resolved again." in page
    assert "♣ Club → Bob · 4 stolen +4 for Cid" in report(page, 2)
    assert totals(page)[:3] == ["5", "0", "4"]
    assert deal_count(app) == 2


def test_a_correction_that_breaks_a_later_turn_is_refused_naming_it(client):
    path = start(client)
    play(client, path, turn([[("heart", B, 7)], [], []], [1, 3, 1]))  # Ann steals B7
    play(client, path, turn([[("heart", C, 2)], [], []], [2, 7, 2]))  # Ann's Heart again
    before = client.get(f"/api/games/{game_id(path)}").get_json()
    # Bob guarded 7 in turn 1 after all: Ann's Heart was captured, so turn 2's order is illegal.
    response = client.post(f"{path}/deals/0", data=turn([[("heart", B, 7)], [], []], [1, 7, 1]))
    assert response.status_code == 422
    errors = errors_in(response.get_data(as_text=True))
    assert (
        "Turn 2: Ann's Heart was captured in turn 1 and is out of the game; only free spies can be ordered."
        in errors
    )
    # And a correction that makes a later guard stay where it had to move.
    response = client.post(f"{path}/deals/0", data=turn([[("heart", B, 5)], [], []], [2, 3, 1]))
    assert response.status_code == 422
    assert (
        "Turn 2: Ann's policeman guarded secret 2 in turn 1 and caught no spy, so he must guard a different secret now."
        in errors_in(response.get_data(as_text=True))
    )
    assert client.get(f"/api/games/{game_id(path)}").get_json() == before


def test_final_standings_after_turn_5_with_a_shared_win(client):
    path = start(client)
    play(client, path, turn([[("club", C, 9)], [("club", A, 9)], []], [1, 1, 1]))  # Ann 9, Bob 9
    for k in range(2, 6):
        play(client, path, quiet(3, [k, k, k]))
    page = client.get(path).get_data(as_text=True)
    words = text_of(page)
    assert "Ann and Bob share the win." in words
    assert "Final standings 1. ★ Ann 9 1. ★ Bob 9 3. Cid 0" in words
    assert 'id="entry"' not in page
    assert totals(page)[:3] == ["9", "9", "0"]
    record = client.get(f"/api/games/{game_id(path)}").get_json()
    assert record["finished"] and record["winners"] == [0, 1]
    response = client.post(f"{path}/deals", data=quiet(3, [1, 1, 1]))
    assert response.status_code == 422
    assert "The game ended after turn 5: no turn can follow it." in errors_in(response.get_data(as_text=True))
    assert "Ann and Bob share the win." in text_of(client.get("/").get_data(as_text=True))


def test_six_players_fit_and_a_viewer_sees_no_form(app, client):
    path = start(client, n=6)
    play(client, path, quiet(6, [1] * 6))
    viewer = app.test_client()
    page = viewer.get(path).get_data(as_text=True)
    assert 'id="entry"' not in page and "Turn 1 report" in page
    assert viewer.post(f"{path}/deals", data=quiet(6, [2] * 6)).status_code == 403
    # Plain Secrets has private links too (each seat's console sends its orders), not allotments.
    assert client.get(f"{path}/secrets/links").status_code == 200
    assert len(private_links(client, path)) == 6
    assert client.get(f"{path}/secrets/allot/0").status_code == 404


# -- Hidden Secrets ------------------------------------------------------------------
# Distinctive values (37 and more never show up as other figures in these games), so a leak is seen.
VALUES = [
    [4, 0, 0, 0, 0, 0, 0, 0, 0, 41],  # Ann: A 4, J 41
    [0, 6, 0, 0, 0, 0, 0, 0, 0, 39],  # Bob: B 6, J 39
    [0, 0, 8, 0, 0, 0, 0, 0, 0, 37],  # Cid: C 8, J 37
]
# Turn 1: Bob's Club steals Ann's J (41, only Bob learns it); Ann's and Cid's Clubs clash at
# Bob's J (39: Ann and Cid learn it); Bob's Diamond is caught at Cid's C (8, made public).
HIDDEN_TURN = turn(
    [[("club", B, "J")], [("club", A, "J"), ("diamond", C, "C")], [("club", B, "J")]],
    ["A", "A", "C"],
)
SECRET_FIGURES = ("41", "39", "37")  # never public before the end (Bob's total is 41 too)


def allot_row(values) -> dict[str, str]:
    return {f"v_{s}": str(v) for s, v in zip(HIDDEN_SECRETS, values, strict=True)}


def private_links(client, path) -> list[str]:
    """Each seat's private link, as the links page shows them: one chosen seat at a time."""
    page = client.get(f"{path}/secrets/links").get_data(as_text=True)
    seats = len(re.findall(r'href="[^"]*/secrets/links\?seat=\d+"', page))
    links = []
    for seat in range(seats):
        page = client.get(f"{path}/secrets/links?seat={seat}").get_data(as_text=True)
        links += [html_lib.unescape(u) for u in re.findall(r'<p class="sx-url"><a href="([^"]+)"', page)]
    assert len(links) == seats
    return links


def hidden_game(client, turns=1, length=5):
    """A Hidden Secrets game of ``length`` turns with VALUES allotted (Ann and Bob on their phones,
    Cid by the GM), ``turns`` of them played."""
    path = start(client, hidden=True, turns=length)
    links = private_links(client, path)
    assert len(links) == 3
    phone = client.application.test_client()
    for seat in (A, B):
        response = phone.post(links[seat], data=allot_row(VALUES[seat]))
        assert response.status_code == 303, errors_in(response.get_data(as_text=True))
    response = client.post(f"{path}/secrets/allot/{C}", data=allot_row(VALUES[C]))
    assert response.status_code == 303, errors_in(response.get_data(as_text=True))
    if turns:
        play(client, path, HIDDEN_TURN)
    return path, links


def test_hidden_allotments_are_checked_and_turn_1_waits_for_them(client, app):
    path = start(client, hidden=True)
    page = client.get(path).get_data(as_text=True)
    assert "Before turn 1: the allotments" in page and 'name="target_0_club"' not in page
    assert "Still to come: Ann, Bob and Cid." in text_of(page)
    # Turn 1 cannot be resolved yet, through the pages or the API.
    response = client.post(f"{path}/deals", data=HIDDEN_TURN)
    assert response.status_code == 422
    assert "Ann: give ten whole numbers of 0 or more, one for each secret A to J." in errors_in(
        response.get_data(as_text=True)
    )
    api_turn = {"orders": [[], [], []], "guards": ["A", "A", "A"]}
    key = client.get_cookie("edit_key", path=path).value
    headers = {"Authorization": f"Bearer {key}"}
    response = client.post(f"/api/games/{game_id(path)}/deals", json=api_turn, headers=headers)
    assert response.status_code == 422
    assert response.get_json()["errors"][0]["field"] == "values"
    created = client.post(
        "/api/games", json={"game": "secrets", "players": NAMES[:3], "options": {"hidden": True}}
    )
    # Spec "Seat entry": a record may come without values; turn 1 then waits for every seat's.
    assert created.status_code == 201 and created.get_json()["waiting"] == {"turn": 1, "in": []}
    assert deal_count(app) == 0
    # The game master types Bob's: the rules check the row.
    for row, message in [
        (
            [5, 5, 5, 5, 5, 5, 5, 5, 5, -1],
            "Bob: give ten whole numbers of 0 or more, one for each secret A to J.",
        ),
        ([5, 5, 5, 5, 5, 5, 5, 5, 4, 0], "Bob: the ten values must add up to 45 (they add up to 44)."),
        (
            ["a", 5, 5, 5, 5, 5, 5, 5, 5, 5],
            "Bob: give ten whole numbers of 0 or more, one for each secret A to J.",
        ),
    ]:
        response = client.post(f"{path}/secrets/allot/{B}", data=allot_row(row))
        assert response.status_code == 422
        assert errors_in(response.get_data(as_text=True)) == [message]
    assert client.post(f"{path}/secrets/allot/{B}", data=allot_row(VALUES[B])).status_code == 303
    # Never shown back, to the game master either.
    page = client.get(f"{path}/secrets/allot/{B}").get_data(as_text=True)
    assert "Already entered" in page and not re.search(r'name="v_J"[^>]*value="39"', page)
    assert leaks(client.get(path).get_data(as_text=True), ("39",)) == []
    # A player's own link: blanks count as 0; a wrong token finds nothing.
    links = private_links(client, path)
    phone = app.test_client()
    assert phone.get(links[A][:-3] + "xyz").status_code == 404
    assert phone.get(links[A].replace("/p/0/", "/p/1/")).status_code == 404
    row = {"v_A": "4", "v_J": "41"}
    response = phone.post(links[A], data=row)
    assert response.status_code == 303
    page = phone.get(links[A]).get_data(as_text=True)
    assert "Your allotment is saved." in page and re.search(r'name="v_J"[^>]*value="41"', page)
    assert "Still to come: Cid." in text_of(page)
    # The links page is the game master's only.
    assert phone.get(f"{path}/secrets/links").status_code == 403
    assert phone.post(f"{path}/secrets/allot/{C}", data=allot_row(VALUES[C])).status_code == 403
    phone.post(links[C], data=allot_row(VALUES[C]))
    page = client.get(path).get_data(as_text=True)
    assert "Resolve turn 1" in page
    assert offered(page, "order_0_club") == ["", *(f"{t}-{s}" for t in (1, 2) for s in HIDDEN_SECRETS)]
    play(client, path, HIDDEN_TURN)
    # Once turn 1 is resolved, the allotments are fixed.
    response = phone.post(links[A], data=allot_row(VALUES[A]))
    assert response.status_code == 200 and "Save my allotment" not in response.get_data(as_text=True)
    response = client.post(f"{path}/secrets/allot/{A}", data=allot_row([45] + [0] * 9))
    assert response.status_code == 422
    assert errors_in(response.get_data(as_text=True)) == ["The allotments are fixed once turn 1 is resolved."]


def test_private_reports_show_what_each_player_learned(client, app):
    path, links = hidden_game(client)
    phone = app.test_client()
    pages = [phone.get(link).get_data(as_text=True) for link in links]
    ann, bob, cid = (text_of(page) for page in pages)
    # Everybody: Cid's C is worth 8 (a capture made it public); the theft's value is hidden.
    public = text_of(phone.get(path).get_data(as_text=True))
    assert "♦ Diamond → Cid · C captured +10 for Cid · worth 8" in public
    assert "♣ Club → Ann · J stolen +? for Bob (value hidden)" in public
    assert "Bob: ? (secret J stolen from Ann, value hidden) = ?" in public
    # Ann: her own values, Bob's J seen in the clash, Cid's C; and Bob's theft, since she knows her J.
    assert "Bob · J = 39 your spy saw it in a clash in turn 1" in ann
    assert "Cid · C = 8 made public by a capture in turn 1" in ann
    assert "♣ Club → Ann · J stolen +41 for Bob" in ann
    assert leaks(pages[A]) == ["41", "39"]  # not Cid's J (37)
    # Bob: the value he stole, his own J (where the others clashed); not Cid's J.
    assert "Ann · J = 41 you stole it in turn 1" in bob and leaks(pages[B]) == ["41", "39"]
    assert "♣ Club → Bob · J clashed worth 39" in bob
    # Cid: the clash value, his own values; not what Bob stole.
    assert "Bob · J = 39 your spy saw it in a clash in turn 1" in cid
    assert leaks(pages[C]) == ["39", "37"] and "+? for Bob (value hidden)" in cid
    for page in (ann, bob, cid):
        assert "private report" in page


def leaks(body: str, figures=SECRET_FIGURES) -> list[str]:
    """The secret figures found in what a page shows: its text and the attributes people or tools read."""
    shown = text_of(body)
    shown += " " + " ".join(
        html_lib.unescape(v)
        for _k, v in re.findall(
            r'\s(title|aria-label|alt|value|placeholder|content|data-[\w-]+)="([^"]*)"', body
        )
    )
    return [f for f in figures if re.search(rf"(?<![\w.:/-]){f}(?![\w-]|\.\d)", shown)]


def json_leaks(data, figures=SECRET_FIGURES) -> list[str]:
    found = []

    def walk(value):
        if isinstance(value, dict):
            for v in value.values():
                walk(v)
        elif isinstance(value, list):
            for v in value:
                walk(v)
        elif isinstance(value, int | str) and not isinstance(value, bool):
            found.extend(f for f in figures if re.search(rf"(?<![\w.:/-]){f}(?![\w-]|\.\d)", str(value)))

    walk(data)
    return found


# Query strings some game routes read (which live region, which paper): tried on every GET route.
QUERIES = ("", "?part=live", "?part=board", "?paper=letter", "?same=1")


def every_game_url(app, gid: str) -> list[tuple[str, str]]:
    """(method, url) of every route about one game, filled in; GET where it can, else its first method."""
    values = {"game_id": gid, "k": 0, "seat": 0, "token": "not-the-token", "change_id": 1}
    out = []
    with app.test_request_context():
        for rule in app.url_map.iter_rules():
            if "game_id" not in rule.arguments:
                continue
            args = {name: values.get(name, "x") for name in rule.arguments}
            url = app.url_for(rule.endpoint, **args)
            methods = sorted(rule.methods - {"HEAD", "OPTIONS"})
            if "GET" in methods:
                out.extend(("GET", url + query) for query in QUERIES)
            else:
                out.append((methods[0], url))
    return out


@pytest.fixture
def readable_pdf(monkeypatch):
    """The PDF sheet's HTML instead of a PDF, so its text can be read (no Chromium needed)."""
    try:
        from scorekeeper import pdf
        from scorekeeper.web.games import records
    except ImportError:  # pragma: no cover - no PDF sheet here
        return
    monkeypatch.setattr(pdf, "html_to_pdf", lambda html, *args, **kwargs: html.encode())
    monkeypatch.setattr(records, "pdf_printer", lambda: "chromium")


def test_no_page_or_api_route_shows_a_hidden_value_before_the_end(app, client, readable_pdf):
    path, _links = hidden_game(client)
    gid = game_id(path)
    viewer = app.test_client()
    routes = every_game_url(app, gid)
    assert len(routes) >= 8, routes
    seen = []
    for who, browser in (("viewer", viewer), ("game master", client)):
        for method, url in routes:
            if who == "game master" and method != "GET":
                continue  # the game master's writes are not reads; the viewer's are refused
            for headers in ({}, {"HX-Request": "true"}):
                response = browser.open(url, method=method, headers=headers)
                seen.append((who, method, url, response.status_code))
                if who == "viewer" and method != "GET":
                    assert response.status_code in (400, 403, 404, 405), (method, url)
                body = response.get_data(as_text=True)
                if response.is_json:
                    assert not json_leaks(response.get_json()), (who, url)
                else:
                    assert not leaks(body), (who, url, leaks(body))
        # The lists and player pages show this game too.
        for url in ("/", "/games", "/players", "/player?name=Bob", "/games?player=Bob", "/import"):
            response = browser.get(url)
            if response.status_code != 404:
                assert not leaks(response.get_data(as_text=True)), (who, url)
    # The pages that matter were really read, with their content.
    got = {url: status for who, method, url, status in seen if who == "viewer" and method == "GET"}
    assert got[path] == 200 and got[f"/api/games/{gid}"] == 200 and got[f"{path}/sheet"] == 200
    assert got[f"{path}/deals/0"] == 200 and got[f"{path}/live?part=board"] == 200
    assert got[f"{path}/live?part=live"] == 200 and got[f"{path}/sheet.pdf"] in (200, 303)
    assert got[f"/g/{gid}/p/0/not-the-token"] == 404
    # The record: no values, no score or total made of a hidden value.
    record = viewer.get(f"/api/games/{gid}").get_json()
    assert record["options"]["values"] is None
    assert record["scores"] == [[0, None, 10]] and record["totals"] == [0, None, 10]
    assert record["explanations"][0][1] == "? (secret J stolen from Ann, value hidden) = ?"
    assert not json_leaks(record) and "41" not in json.dumps(record["turns"])


def test_after_the_last_turn_everything_is_public(client, app):
    path, _links = hidden_game(client)
    for k in range(4):
        play(client, path, quiet(3, ["BCDE"[k], "BCDE"[k], "ABDE"[k]]))
    viewer = app.test_client()
    record = viewer.get(f"/api/games/{game_id(path)}").get_json()
    assert record["finished"] and record["options"]["values"] == VALUES
    assert record["totals"] == [0, 41, 10] and record["winners"] == [B]
    page = viewer.get(path).get_data(as_text=True)
    assert "Bob wins." in text_of(page) and "♣ Club → Ann · J stolen +41 for Bob" in text_of(page)
    assert "Values of the secrets" in page and set(leaks(page)) == set(SECRET_FIGURES)


def test_the_read_side_redacts_only_hidden_unfinished_games(app):
    from scorekeeper.read import redact as public_result
    from scorekeeper.rules.base import check_setup, play

    kind = GAMES.get("secrets")
    _errors, plain = check_setup(kind, NAMES[:3], {"spies_may_stay": True}, 0)
    _errors, hidden = check_setup(
        kind, NAMES[:3], {"hidden": True, "values": VALUES, "spies_may_stay": True}, 0
    )
    facts = {
        "orders": [[{"spy": "club", "target": 1, "secret": "J"}], [], []],
        "guards": ["A", "A", "A"],
    }
    result = play(kind, plain, [{"orders": [[], [], []], "guards": [1, 1, 1]}])
    assert public_result(kind, result) is result
    result = play(kind, hidden, [facts])
    shown = public_result(kind, result)
    assert result.totals == (39, 0, 0)  # Ann stole Bob's J, worth 39: nobody else may know
    assert shown.totals == (None, 0, 0) and shown.deals[0].scores == (None, 0, 0)
    assert shown.deals[0].detail == {}
    assert shown.setup.options["values"] is None and shown.leaders == ()
    assert public_result(kind, shown) is shown
    result = play(kind, hidden, [facts, *[{"orders": [[], [], []], "guards": [g] * 3} for g in "BCDE"]])
    assert result.finished and public_result(kind, result) is result


def test_by_default_every_free_spy_must_be_sent(app, client):
    page = client.get("/new/secrets").get_data(as_text=True)
    assert 'name="opt_spies_may_stay"' in page and "Spies may stay at home" in page
    path = start(client, may_stay=False)
    assert play(client, path, WORKED).status_code == 303
    # Turn 2: Ann orders only her Club; her Diamond is still free.
    response = play(client, path, turn([[("club", B, 1)], [], []], [3, 7, 5]), status=422)
    errors = " ".join(errors_in(response.get_data(as_text=True)))
    assert "Turn 2: Ann gives no order to Diamond; every free spy is sent each turn" in errors
    assert deal_count(app) == 1


# -- fewer taps, and the turn's points before it is resolved ----------------------------------
HX = {"HX-Request": "true"}


def preview_totals(page: str) -> list[str]:
    return [text_of(t).strip() for t in re.findall(r'<td class="pv-total">(.*?)</td>', page, re.S)]


def test_an_order_is_one_tap_at_every_table_size(client):
    path = start(client, may_stay=False)
    page = client.get(path).get_data(as_text=True)
    # No "home" where every spy must go, and nothing chosen for the scorer.
    assert offered(page, "order_0_club")[:2] == ["1-1", "1-2"] and len(offered(page, "order_0_club")) == 18
    assert " checked" not in "".join(re.findall(r'<input[^>]*name="order_[^>]*>', page))
    assert "For each spy: the player and the secret it tries, in one tap." in text_of(page)
    # The chip says whose secret it is to a screen reader: "Bob 4".
    assert re.search(r'value="1-4"[^>]*><span><span class="visually-hidden">Bob </span>4</span>', page)
    path = start(client, n=4, may_stay=False)
    page = client.get(path).get_data(as_text=True)
    # Issue 41: a keypad per other player at four too (and up to six), one tap an order.
    assert len(offered(page, "order_0_club")) == 27 and 'name="target_0_club"' not in page
    assert "For each spy: the player and the secret it tries, in one tap." in text_of(page)
    # The two-tap inputs, posted by a page drawn before, are still read.
    posted = turn(
        [
            [("club", B, 4), ("diamond", C, 4), ("heart", D, 1), ("spade", D, 2)],
            [("club", A, 1), ("diamond", A, 2), ("heart", A, 3), ("spade", A, 4)],
            [("club", A, 5), ("diamond", A, 6), ("heart", A, 7), ("spade", A, 8)],
            [("club", A, 9), ("diamond", B, 9), ("heart", C, 9), ("spade", B, 8)],
        ],
        [5, 5, 5, 5],
    )
    two_taps = {key: value for key, value in posted.items() if not key.startswith("order_")}
    assert play(client, path, two_taps).status_code == 303
    turns = client.get(f"/api/games/{game_id(path)}").get_json()["turns"]
    assert "club" in str(turns[0]) and len(turns) == 1


def test_same_orders_as_last_turn_fill_in_what_this_turn_allows_and_record_nothing(client, app):
    path = start(client, may_stay=False)
    assert "Same orders as" not in client.get(path).get_data(as_text=True)  # no turn before turn 1
    play(client, path, WORKED)
    page = client.get(path).get_data(as_text=True)
    # Every policeman caught a spy, so each may stay: he is shown there already.
    assert (
        checked(page, "guards_0", "3") and checked(page, "guards_1", "7") and checked(page, "guards_2", "5")
    )
    link = re.search(r'<a class="button block sx-same" href="([^"]+)"', page).group(1)
    assert html_lib.unescape(link) == f"{path}?same=1#entry"
    assert "Same orders as turn 1" in text_of(page)
    for headers in ({}, HX):  # a plain link, or htmx redrawing the region
        page = client.get(f"{path}?same=1", headers=headers).get_data(as_text=True)
        assert ("<html" in page) is not bool(headers)
        assert "Turn 1's orders are filled in, as far as this turn allows them." in text_of(page)
        # The free spies' orders of turn 1; the captured ones have no row.
        assert checked(page, "order_0_club", "1-2") and checked(page, "order_0_diamond", "2-9")
        assert 'name="order_0_heart"' not in page and 'name="order_1_club"' not in page
        assert checked(page, "order_2_spade", "1-4") and checked(page, "guards_2", "5")
        # What the rules make of it, at once: every spy clashes again or finds its secret gone.
        assert "If recorded:" in page and preview_totals(page) == ["10", "11", "15"]
    assert deal_count(app) == 1  # nothing recorded


def test_same_orders_leave_a_policeman_who_must_move_to_choose(client, app):
    path = start(client)
    play(client, path, turn([[("club", B, 4)], [("spade", C, 2)], []], [1, 1, 1]))  # nobody caught a spy
    page = client.get(f"{path}?same=1").get_data(as_text=True)
    assert checked(page, "order_0_club", "1-4") and checked(page, "order_1_spade", "2-2")
    assert checked(page, "order_0_diamond", "")  # at home last turn, at home again
    assert not any(checked(page, f"guards_{seat}", str(s)) for seat in range(3) for s in range(2, 10))
    assert "Still to enter:" in page and "Record would" not in page  # issue 53: neutral, no "Record"
    assert "Choose the secret Ann's policeman guards." in text_of(page)
    # Chosen, the turn resolves as the preview says; Ann's spy finds B4 gone (she stole it).
    data = turn([[("club", B, 4)], [("spade", C, 2)], []], [2, 3, 4])
    shown = client.post(f"{path}/preview", data=data, headers=HX).get_data(as_text=True)
    assert preview_totals(shown) == ["4", "2", "0"]
    play(client, path, data)
    assert totals(client.get(path).get_data(as_text=True))[:3] == ["4", "2", "0"]
    assert deal_count(app) == 2


def test_the_secrets_preview_is_what_the_turn_then_records(client):
    path = start(client)
    page = client.get(path).get_data(as_text=True)
    assert f'hx-post="{path}/preview"' in page and ">Check<" in page
    shown = client.post(f"{path}/preview", data=WORKED, headers=HX).get_data(as_text=True)
    assert "If recorded:" in shown and preview_totals(shown) == ["10", "11", "15"]
    assert "1 x 10 (spies caught at secret 5) + 1 (secret 1 stolen from Ann)" in text_of(shown)
    broken = client.post(f"{path}/preview", data=turn([[("club", A, 4)], [], []], [1, 1, 1]), headers=HX)
    assert "Ann's Club cannot spy on Ann: the target must be another player." in text_of(
        broken.get_data(as_text=True)
    )
    # Without JavaScript, "Check" answers the page with the entry as typed and the preview in it.
    full = client.post(f"{path}/preview", data=WORKED).get_data(as_text=True)
    assert (
        "<html" in full
        and checked(full, "order_2_spade", "1-4")
        and preview_totals(full) == ["10", "11", "15"]
    )
    play(client, path, WORKED)
    assert totals(client.get(path).get_data(as_text=True))[:3] == ["10", "11", "15"]


def test_the_hidden_secrets_preview_shows_the_scorer_only_what_the_board_will(client, app):
    # One turn: the preview is of the last turn, which makes every value public once recorded.
    path, _links = hidden_game(client, turns=0, length=1)
    shown = client.post(f"{path}/preview", data=HIDDEN_TURN, headers=HX).get_data(as_text=True)
    assert "If recorded:" in shown and preview_totals(shown) == ["0", "?", "10"]
    assert "? (secret J stolen from Ann, value hidden) = ?" in text_of(shown)
    assert "?: a stolen value stays hidden until the game ends." in text_of(shown)
    assert leaks(shown) == []
    # Whatever is tried: a theft of each of Ann's secrets tells nothing of its value.
    for secret in HIDDEN_SECRETS:
        tried = turn([[], [("club", A, secret)], []], ["A", "A", "C"] if secret != "A" else ["B", "A", "C"])
        body = client.post(f"{path}/preview", data=tried, headers=HX).get_data(as_text=True)
        assert preview_totals(body) == ["0", "?", "0"], secret
    assert deal_count(app) == 0
    play(client, path, HIDDEN_TURN)  # recorded, the game is over: now everything is public
    record = client.get(f"/api/games/{game_id(path)}").get_json()
    assert record["finished"] and record["totals"] == [0, 41, 10]


def test_a_private_report_cuts_long_names_as_the_public_board_does(client):
    names = ["Annabelle", "Bartholomew", "Christopher"]
    created = client.post(
        "/api/games",
        json={
            "game": "secrets",
            "players": names,
            "options": {"hidden": True, "spies_may_stay": True, "values": VALUES},
            "turns": [{"orders": [[], [], []], "guards": ["A", "A", "A"]}],
        },
    ).get_json()
    path = f"/g/{created['id']}"
    client.get(f"{path}?key={created['edit_key']}")
    link = private_links(client, path)[B]
    page = client.get(link).get_data(as_text=True)
    board = re.search(r'<table class="board sx-board.*?</thead>', page, re.S).group(0)
    heads = re.findall(r'<span class="short" aria-hidden="true">([^<]*)</span>', board)
    assert heads == ["Annab…", "Barth…", "Chris…"]  # the full name a tap away, as on the game page
    assert "Bartholomew" in board
