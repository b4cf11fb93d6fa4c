"""Issue 27: the app as game master. Each player's private page is his console: his allotment
(Hidden Secrets), then each turn his own orders, sent through the same service and checks as the
API's seat entry (spec "Seat entry"); the scorer may type one seat's orders for a player without a
phone, and his whole turn replaces what the seats had sent. Played here through real forms, with
their CSRF tokens, as browsers post them."""

from __future__ import annotations

import difflib
import html as html_lib
import random
import re

import pytest
from sqlalchemy import func, select

from scorekeeper import create_app
from scorekeeper.db import db
from scorekeeper.games import GAMES
from scorekeeper.games.secrets.rules import HIDDEN_SECRETS
from scorekeeper.models import PendingEntry
from scorekeeper.rules.base import check_setup, play
from tests.conftest import app_config, emptied
from tests.web.pages import checked, errors_in
from tests.web.test_secrets_pages import text_of

NAMES = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]
SPIES = ("club", "diamond", "heart", "spade")
HX = {"HX-Request": "true"}


@pytest.fixture
def csrf_app(database_url, tmp_path):
    """The app as it runs: every form needs its CSRF token."""
    app = create_app(app_config(database_url, PDF_FOLDER=str(tmp_path / "pdf"), WTF_CSRF_ENABLED=True))
    yield app
    emptied(app)


# -- reading and posting forms as a browser does ----------------------------------------------
def form_fields(page: str, action: str) -> dict[str, str]:
    """The hidden inputs of the form posting to ``action`` (its CSRF token, version, submission
    token, turn), as the browser sends them back."""
    found = re.search(rf'<form[^>]*action="{re.escape(action)}"[^>]*>(.*?)</form>', page, re.S)
    assert found, f"no form posting to {action}"
    fields = {}
    for tag in re.findall(r"<input[^>]*>", found.group(1)):
        if 'type="hidden"' in tag:
            name = re.search(r'name="([^"]+)"', tag).group(1)
            value = re.search(r'value="([^"]*)"', tag)
            fields[name] = html_lib.unescape(value.group(1)) if value else ""
    return fields


def post_form(client, page_url: str, action: str, data: dict[str, str], headers=None):
    """GET ``page_url``, then post ``data`` with the hidden inputs of its form to ``action``."""
    page = client.get(page_url)
    assert page.status_code == 200, page.status_code
    return client.post(
        action, data={**form_fields(page.get_data(as_text=True), action), **data}, headers=headers
    )


def seat_orders(seat: int, orders, guard) -> dict[str, str]:
    """One seat's orders as its form posts them: ``orders`` a list of {spy, target, secret}.
    Both layouts' inputs (one tap with three players; the player then the secret with more)."""
    data = {f"guards_{seat}": str(guard)}
    for o in orders:
        data[f"order_{seat}_{o['spy']}"] = f"{o['target']}-{o['secret']}"
        data[f"target_{seat}_{o['spy']}"] = str(o["target"])
        data[f"secret_{seat}_{o['spy']}"] = str(o["secret"])
    return data


def path_of(link: str) -> str:
    return "/" + link.split("://", 1)[-1].split("/", 1)[1]


class Table:
    """A game set up through the set-up page by its scorer, and each seat's phone on its console."""

    def __init__(self, app, n: int, hidden: bool, turns: int = 5, may_stay: bool = False):
        self.app = app
        self.scorer = app.test_client()
        data = {f"players_{s}": NAMES[s] for s in range(n)}
        data.update(first_dealer="0", opt_turns=str(turns))
        if hidden:
            data["opt_hidden"] = "y"
        if may_stay:
            data["opt_spies_may_stay"] = "y"
        created = self._create(data)
        self.path = created
        self.id = created.rsplit("/", 1)[-1]
        self.n = n
        self.links = [self.link(seat) for seat in range(n)]
        self.phones = [app.test_client() for _ in range(n)]

    def _create(self, data) -> str:
        page = self.scorer.get("/new/secrets").get_data(as_text=True)
        token = re.search(r'name="csrf_token" type="hidden" value="([^"]+)"', page) or re.search(
            r'name="csrf_token" value="([^"]+)"', page
        )
        response = self.scorer.post("/new/secrets", data={**data, "csrf_token": token.group(1)})
        assert response.status_code == 303, errors_in(response.get_data(as_text=True))
        return response.headers["Location"]

    def link(self, seat: int) -> str:
        """The seat's private link, as the scorer's links page shows it (one seat at a time)."""
        page = self.scorer.get(f"{self.path}/secrets/links?seat={seat}").get_data(as_text=True)
        found = re.findall(r'<p class="sx-url"><a href="([^"]+)"', page)
        assert len(found) == 1
        return path_of(html_lib.unescape(found[0]))

    def console(self, seat: int) -> str:
        response = self.phones[seat].get(self.links[seat])
        assert response.status_code == 200
        assert response.headers["Cache-Control"] == "no-store"
        return response.get_data(as_text=True)

    def allot(self, seat: int, values) -> None:
        data = {f"v_{s}": str(v) for s, v in zip(HIDDEN_SECRETS, values, strict=True)}
        response = post_form(self.phones[seat], self.links[seat], self.links[seat], data)
        assert response.status_code == 303, errors_in(response.get_data(as_text=True))

    def send(self, seat: int, orders, guard, headers=None):
        """The seat's phone sends its orders from its console's form."""
        action = self.links[seat] + "/orders"
        return post_form(
            self.phones[seat], self.links[seat], action, seat_orders(seat, orders, guard), headers
        )

    def record(self) -> dict:
        return self.scorer.get(f"/api/games/{self.id}").get_json()


def pending_rows(app) -> int:
    with app.app_context():
        return db.session.scalar(select(func.count()).select_from(PendingEntry))


def standings_shown(page: str) -> dict[str, int]:
    """The final standings a page shows: name -> total."""
    block = re.search(r'<ol class="sx-standings">(.*?)</ol>', page, re.S).group(1)
    rows = re.findall(r'<span class="sx-name">(.*?)</span>\s*<b>([^<]*)</b>', block, re.S)
    return {text_of(name).replace("★", "").strip(): int(total) for name, total in rows}


# -- a whole game from the consoles -----------------------------------------------------------
@pytest.mark.parametrize("n", [3, 4])
def test_a_whole_hidden_secrets_game_played_from_the_seats_consoles(csrf_app, n):
    """Every allotment and every turn's orders posted from each seat's own console, CSRF token and
    all; the game scores exactly as the rules score the same turns, and each console ends on the
    final standings with no form."""
    rng = random.Random(27 + n)
    table = Table(csrf_app, n, hidden=True)
    values = [[4, 4, 4, 4, 4, 5, 5, 5, 5, 5][i:] + [4, 4, 4, 4, 4, 5, 5, 5, 5, 5][:i] for i in range(n)]
    for seat in rng.sample(range(n), n):
        table.allot(seat, values[seat])
    kind = GAMES.get("secrets")
    _errors, setup = check_setup(kind, NAMES[:n], {"hidden": True, "values": values, "turns": 5}, 0)
    turns: list[dict] = []
    while not play(kind, setup, turns).finished:
        turn = kind.random_deal(setup, play(kind, setup, turns).state, 0, rng)
        # (A form sends a seat's orders spy by spy, Club first: the rules' own order of facts.)
        turn["orders"] = [sorted(mine, key=lambda o: SPIES.index(o["spy"])) for mine in turn["orders"]]
        order = rng.sample(range(n), n)
        for i, seat in enumerate(order):
            page = table.console(seat)
            # Only his own free spies and his own policeman are on his form.
            assert f'name="guards_{seat}"' in page
            assert not re.search(rf'name="(order|target|guards)_(?!{seat}_?)\d', page)
            response = table.send(seat, turn["orders"][seat], turn["guards"][seat])
            assert response.status_code == 303, errors_in(response.get_data(as_text=True))
            page = table.console(seat)
            if i < n - 1:
                assert "Your orders are in; you may change them until the turn resolves." in text_of(page)
                assert table.record()["waiting"] == {"turn": len(turns) + 1, "in": sorted(order[: i + 1])}
        turns.append(turn)
        assert len(table.record()["turns"]) == len(turns)
    record = table.record()
    expected = play(kind, setup, turns)
    assert record["finished"] and record["turns"] == turns
    assert record["totals"] == list(expected.totals) and record["winners"] == list(expected.winners)
    assert pending_rows(csrf_app) == 0
    for seat in range(n):
        page = table.console(seat)
        assert 'id="entry"' not in page and "The game is over: no more orders." in text_of(page)
        assert standings_shown(page) == {NAMES[s]: expected.totals[s] for s in range(n)}
    # (No form is left on the page: the token of its language form.)
    token = re.search(r'name="csrf_token" value="([^"]+)"', table.console(0)).group(1)
    late = table.phones[0].post(
        table.links[0] + "/orders", data={"csrf_token": token, **seat_orders(0, [], "A"), "turn": "6"}
    )
    assert late.status_code == 422 and "The game is over: no more orders." in text_of(
        late.get_data(as_text=True)
    )


def test_a_plain_secrets_game_has_consoles_and_no_allotment(csrf_app):
    table = Table(csrf_app, 3, hidden=False, turns=1, may_stay=True)
    page = table.console(0)
    assert "Your orders for turn 1" in page and "Your allotment" not in page
    # The plain game's secrets are 1-9, all his, every value his own number.
    assert text_of(re.search(r'<table class="board sx-own-values">.*?</table>', page, re.S).group(0)).split()[
        -9:
    ] == [str(v) for v in range(1, 10)]
    assert table.phones[0].put(
        f"/api/games/{table.id}/allotment/0", json={"values": [1] * 10}
    ).status_code in (
        403,
        404,
    )
    for seat in range(3):
        response = table.send(seat, [{"spy": "club", "target": (seat + 1) % 3, "secret": 9}], 1)
        assert response.status_code == 303
    record = table.record()
    assert record["finished"] and record["totals"] == [9, 9, 9]


# -- refusals ---------------------------------------------------------------------------------
def test_bad_orders_are_refused_naming_the_rule_at_the_field_the_entry_kept_and_nothing_kept(csrf_app):
    table = Table(csrf_app, 3, hidden=False)
    before = table.record()
    three = [{"spy": s, "target": 1, "secret": k + 1} for k, s in enumerate(SPIES[:3])]
    # A spy left at home where every free spy must go: the rule named at his orders.
    response = table.send(0, three, 5)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert any("Ann gives no order to Spade; every free spy is sent" in e for e in errors_in(page))
    assert re.search(r'<p class="error" id="orders_0-error">', page)
    # What was typed is still there.
    assert checked(page, "order_0_club", "1-1") and checked(page, "order_0_heart", "1-3")
    assert checked(page, "guards_0", "5")
    # Spying on himself (a forged chip): named too.
    forged = [*three, {"spy": "spade", "target": 0, "secret": 4}]
    page = table.send(0, forged, 5).get_data(as_text=True)
    assert any("cannot spy on Ann" in e for e in errors_in(page)), errors_in(page)
    # A guard on a secret that does not exist: said next to the guard.
    good = [*three, {"spy": "spade", "target": 2, "secret": 4}]
    response = table.send(0, good, 12)
    page = response.get_data(as_text=True)
    assert response.status_code == 422
    assert re.search(r'<p class="error" id="guards_0-error">[^<]*guards one of Ann', page), errors_in(page)
    # Nothing of any of them was kept.
    assert table.record() == before and pending_rows(csrf_app) == 0
    # Without its CSRF token a post is refused, and keeps nothing either.
    forged = table.phones[0].post(table.links[0] + "/orders", data=seat_orders(0, good, 5))
    assert forged.status_code in (400, 422) and pending_rows(csrf_app) == 0
    # And after the second turn the policeman who caught nobody must move: the rule at the guard.
    for seat in range(3):
        orders = [{"spy": s, "target": (seat + 1) % 3, "secret": 9} for s in SPIES]
        assert table.send(seat, orders, 1).status_code == 303
    assert len(table.record()["turns"]) == 1
    response = table.send(1, [{"spy": s, "target": 0, "secret": 2} for s in SPIES], 1)
    assert response.status_code == 422
    assert "must" in " ".join(errors_in(response.get_data(as_text=True)))
    assert pending_rows(csrf_app) == 0


def test_a_form_drawn_for_a_resolved_turn_sends_nothing(csrf_app):
    table = Table(csrf_app, 3, hidden=False, may_stay=True)
    stale = table.console(0)
    for seat in range(3):
        assert table.send(seat, [], seat + 1).status_code == 303
    action = table.links[0] + "/orders"
    response = table.phones[0].post(action, data={**form_fields(stale, action), **seat_orders(0, [], 4)})
    assert response.status_code == 409
    page = response.get_data(as_text=True)
    assert "That turn was resolved meanwhile: nothing was sent." in text_of(page)
    assert "Your orders for turn 2" in page and pending_rows(csrf_app) == 0


def test_no_orders_before_every_allotment_is_in(csrf_app):
    table = Table(csrf_app, 3, hidden=True)
    table.allot(0, [4, 4, 4, 4, 4, 5, 5, 5, 5, 5])
    page = table.console(0)
    assert 'name="guards_0"' not in page and "Still to come: Bob and Cid." in text_of(page)
    own = form_fields(page, table.links[0])
    sent = table.phones[0].post(
        table.links[0] + "/orders", data={**own, **seat_orders(0, [], "A"), "turn": "1"}
    )
    assert sent.status_code == 422
    assert "Turn 1 waits for every player's allotment first." in text_of(sent.get_data(as_text=True))
    assert pending_rows(csrf_app) == 0


def test_a_seats_link_opens_its_own_console_only(csrf_app):
    table = Table(csrf_app, 3, hidden=True)
    phone = table.phones[0]
    token = table.links[0].rsplit("/", 1)[-1]
    other = f"/g/{table.id}/p/1/{token}"
    assert phone.get(other).status_code == 404
    assert phone.get(other + "/live?at=x").status_code == 404
    # (With his own form's CSRF token: a post without one is refused before any route.)
    own = form_fields(table.console(0), table.links[0])
    assert phone.post(other + "/orders", data={**own, **seat_orders(1, [], "A")}).status_code == 404
    assert phone.post(other, data={**own, "v_A": "45"}).status_code == 404
    # The scorer's pages are not his either.
    for url in (
        f"{table.path}/secrets/links",
        f"{table.path}/secrets/orders/0",
        f"{table.path}/secrets/allot/0",
    ):
        assert phone.get(url).status_code == 403


# -- the scorer ---------------------------------------------------------------------------------
def test_the_scorers_whole_turn_replaces_the_orders_the_seats_sent(csrf_app):
    table = Table(csrf_app, 3, hidden=False, may_stay=True)
    assert table.send(0, [{"spy": "club", "target": 1, "secret": 3}], 4).status_code == 303
    page = table.scorer.get(table.path).get_data(as_text=True)
    assert (
        "Orders are in from Ann, sent from their phones. Resolving the whole turn here replaces them."
        in text_of(page)
    )
    whole = {"guards_0": "2", "guards_1": "2", "guards_2": "2"}
    response = post_form(table.scorer, table.path, f"{table.path}/deals", whole)
    assert response.status_code == 303, errors_in(response.get_data(as_text=True))
    record = table.record()
    assert record["turns"] == [{"orders": [[], [], []], "guards": [2, 2, 2]}] and "waiting" not in record
    assert pending_rows(csrf_app) == 0
    page = table.console(0)
    assert "Your orders for turn 2" in page and "Your orders are in" not in page
    assert not checked(page, "order_0_club", "1-3")


def test_the_scorer_types_one_seats_orders_for_a_player_without_a_phone(csrf_app):
    table = Table(csrf_app, 3, hidden=True, may_stay=True)
    for seat in range(3):
        table.allot(seat, [4, 4, 4, 4, 4, 5, 5, 5, 5, 5])
    links = table.scorer.get(f"{table.path}/secrets/links").get_data(as_text=True)
    url = f"{table.path}/secrets/orders/2"
    assert f'href="{url}"' in links
    assert table.send(0, [{"spy": "club", "target": 2, "secret": "J"}], "A").status_code == 303
    assert table.send(2, [{"spy": "club", "target": 0, "secret": "B"}], "A").status_code == 303
    page = table.scorer.get(url).get_data(as_text=True)
    assert "You will see these orders" in text_of(page)
    # Cid sent his from his phone: the scorer is told so, never what (his chip is not ticked).
    assert "Cid's orders for this turn are in: what you send replaces them." in text_of(page)
    assert not checked(page, "order_2_club", "0-B")
    # Bad orders: the same refusal as on the phone.
    response = post_form(
        table.scorer, url, url, seat_orders(2, [{"spy": "club", "target": 2, "secret": "A"}], "A")
    )
    assert response.status_code == 422 and any(
        "cannot spy on Cid" in e for e in errors_in(response.get_data(as_text=True))
    )
    # The scorer's replaces Cid's; Bob's phone is the last: the turn resolves with the scorer's.
    response = post_form(
        table.scorer, url, url, seat_orders(2, [{"spy": "heart", "target": 1, "secret": "C"}], "B")
    )
    assert response.status_code == 303
    assert table.send(1, [], "A").status_code == 303
    record = table.record()
    assert record["turns"][0]["orders"][2] == [{"spy": "heart", "target": 1, "secret": "C"}]
    assert record["turns"][0]["guards"] == ["A", "A", "B"]


# -- the links page: one code at a time ---------------------------------------------------------
def test_the_links_page_shows_one_seats_code_at_a_time(csrf_app):
    table = Table(csrf_app, 4, hidden=True)
    tokens = [link.rsplit("/", 1)[-1] for link in table.links]
    page = table.scorer.get(f"{table.path}/secrets/links").get_data(as_text=True)
    assert "<svg" not in page and not any(t in page for t in tokens)
    for seat in range(4):
        for headers in ({}, HX):
            response = table.scorer.get(f"{table.path}/secrets/links?seat={seat}", headers=headers)
            page = response.get_data(as_text=True)
            assert response.headers["Cache-Control"] == "no-store"
            assert page.count("<svg") == 1 and [t for t in tokens if t in page] == [tokens[seat]]
            assert f"{NAMES[seat]}'s private link" in html_lib.unescape(page)
            if headers:  # htmx: the chosen seat's region alone
                assert page.lstrip().startswith('<section id="seat-link"') and "<html" not in page
    page = table.scorer.get(f"{table.path}/secrets/links?seat=9").get_data(as_text=True)
    assert "<svg" not in page


# -- live: the console follows the game ----------------------------------------------------------
def test_the_console_follows_the_game_and_never_says_public(csrf_app):
    table = Table(csrf_app, 3, hidden=False, may_stay=True)
    page = table.console(1)
    live = html_lib.unescape(re.search(r'<div id="seat-status"[^>]*hx-get="([^"]+)"', page).group(1))
    etag = html_lib.unescape(re.search(r'<div id="seat-status"[^>]*data-etag="([^"]+)"', page).group(1))
    phone = table.phones[1]
    unchanged = phone.get(live, headers={**HX, "If-None-Match": etag})
    assert unchanged.status_code == 304
    # Ann sends: Bob's status says so, his board comes out of band, his form (being filled in) stays.
    assert table.send(0, [{"spy": "club", "target": 1, "secret": 3}], 4).status_code == 303
    answer = phone.get(live, headers={**HX, "If-None-Match": etag})
    body = answer.get_data(as_text=True)
    assert answer.status_code == 200 and "public" not in answer.headers["Cache-Control"]
    assert "Orders in: Ann; 2 to come." in text_of(body)
    assert (
        'id="seat-board" class="sx-seat-board" hx-swap-oob="true"' in body and 'id="seat-orders"' not in body
    )
    # Never what Ann sent.
    assert "1-3" not in body
    # The turn resolves: the new turn's form comes with the answer, out of band.
    assert table.send(1, [], 4).status_code == 303
    assert table.send(2, [], 4).status_code == 303
    body = phone.get(live, headers=HX).get_data(as_text=True)
    assert re.search(r'<section id="seat-orders"[^>]*hx-swap-oob="true"', body)
    assert "Your orders for turn 2" in body


def test_with_htmx_the_answer_to_the_orders_is_the_console_alone(csrf_app):
    table = Table(csrf_app, 3, hidden=False, may_stay=True)
    response = table.send(2, [{"spy": "diamond", "target": 0, "secret": 7}], 3, headers=HX)
    body = response.get_data(as_text=True)
    assert response.status_code == 200 and body.lstrip().startswith('<div id="console"')
    assert "Your orders for turn 1 are in." in text_of(body)
    assert "Your orders are in; you may change them until the turn resolves." in text_of(body)
    assert checked(body, "order_2_diamond", "0-7") and checked(body, "guards_2", "3")
    assert "Orders in: Cid; 2 to come." in text_of(body)
    refused = table.send(2, [{"spy": "diamond", "target": 2, "secret": 7}], 3, headers=HX)
    assert refused.status_code == 422 and refused.get_data(as_text=True).lstrip().startswith(
        '<div id="console"'
    )
    # He changes his orders: the new ones replace the old (the turn is still collected).
    assert table.send(2, [{"spy": "heart", "target": 1, "secret": 2}], 6).status_code == 303
    page = table.console(2)
    assert checked(page, "order_2_heart", "1-2") and not checked(page, "order_2_diamond", "0-7")


# -- nobody else sees what a seat sent -----------------------------------------------------------
def test_what_a_seat_sent_is_on_no_other_console_or_scorer_page(csrf_app):
    """Two games the same but for what Ann sent: every other page (the other seats' consoles and
    their polls, the scorer's pages, his form for Ann) reads the same, ids and tokens aside."""
    tables = []
    for secret in (1, 7):
        table = Table(csrf_app, 3, hidden=False, may_stay=True)
        sent = table.send(0, [{"spy": "club", "target": 2, "secret": secret}], secret + 1)
        assert sent.status_code == 303
        tables.append(table)

    def look(table) -> list[str]:
        seen = []
        urls = [
            (table.phones[1], table.links[1]),
            (table.phones[2], table.links[2]),
            (table.phones[1], table.links[1] + "/live?at=x"),
            (table.scorer, table.path),
            (table.scorer, f"{table.path}/secrets/orders/0"),
            (table.scorer, f"{table.path}/secrets/links"),
            (table.scorer, f"{table.path}/history"),
            (csrf_app.test_client(), f"/api/games/{table.id}"),
        ]
        for client, url in urls:
            text = client.get(url, headers=HX if "live" in url else {}).get_data(as_text=True)
            for token in (table.id, *(link.rsplit("/", 1)[-1] for link in table.links)):
                text = text.replace(token, "<id>")
            text = re.sub(r'(name="(csrf_token|submit_token)"[^>]*value=")[^"]*', r"\1", text)
            text = re.sub(r'value="[A-Za-z0-9_.-]{20,}"', 'value=""', text)
            text = re.sub(r' d="[^"]*"', ' d=""', text)  # QR codes of links that hold the ids
            text = re.sub(
                r"\d+ seconds? ago|just now|\d{1,2}:\d{2}(:\d{2})?|[A-Z][a-z]{2} \d{1,2}, \d{4}", "", text
            )
            seen.append(text)
        return seen

    first, second = (look(t) for t in tables)
    for a, b in zip(first, second, strict=True):
        assert a == b
    # Ann's own console does show hers back.
    assert checked(tables[0].console(0), "order_0_club", "2-1")
    assert checked(tables[1].console(0), "order_0_club", "2-7")


def test_the_console_in_polish(csrf_app):
    table = Table(csrf_app, 3, hidden=False, may_stay=True)
    table.phones[0].set_cookie("lang", "pl")
    assert table.send(0, [], 2).status_code == 303
    page = text_of(table.console(0))
    assert "Twoje rozkazy" in page and "Your orders" not in page


def normalized(text: str, table: Table) -> str:
    """A page with what differs between two games by construction taken out: ids, tokens, times."""
    for token in (table.id, *(link.rsplit("/", 1)[-1] for link in table.links)):
        text = text.replace(token, "<id>")
    text = re.sub(r'(name="(csrf_token|submit_token)"[^>]*value=")[^"]*', r"\1", text)
    text = re.sub(r'value="[A-Za-z0-9_.-]{20,}"', 'value=""', text)
    text = re.sub(r"key=[A-Za-z0-9_-]{20,}", "key=", text)  # the scorer's own link
    text = re.sub(r' d="[^"]*"', ' d=""', text)  # QR codes of links that hold the ids
    text = re.sub(r'"(edit_key|etag|ETag)": "[^"]*"', r'"\1": ""', text)
    return re.sub(r"\d+ seconds? ago|just now|\d{1,2}:\d{2}(:\d{2})?|[A-Z][a-z]{2} \d{1,2}, \d{4}", "", text)


@pytest.mark.parametrize("hidden", [False, True], ids=["orders", "allotment"])
def test_one_seats_pending_part_changes_no_other_answer_on_any_route(csrf_app, hidden):
    """Spec "Seat entry": two games the same but for what Ann sent (her orders; in Hidden Secrets
    her allotment, the others' not in yet) answer every GET route of the URL map the same, to a
    viewer, the scorer and the other seats, ids and tokens aside."""
    from tests.web.test_read_side import route_urls

    tables = []
    for secret in (1, 7):
        table = Table(csrf_app, 3, hidden=hidden, may_stay=True)
        if hidden:
            table.allot(0, [secret, 0, 0, 0, 0, 0, 0, 0, 0, 45 - secret])
        else:
            sent = table.send(0, [{"spy": "club", "target": 2, "secret": secret}], secret + 1)
            assert sent.status_code == 303
        tables.append(table)

    def look(table: Table) -> list[tuple[str, int, str, str]]:
        seen = []
        callers = [("viewer", csrf_app.test_client(), ""), ("scorer", table.scorer, "")]
        callers += [(f"seat {s}", table.phones[s], table.links[s]) for s in (1, 2)]
        for who, client, link in callers:
            for method, url, _rule in route_urls(csrf_app, table.id, link or table.links[1]):
                if (
                    method != "GET"
                    or "/p/0/" in url
                    or url.startswith(("/static", "/c/", "/e/", "/api/clubs"))
                ):
                    continue  # Ann's own console shows hers back; the rest are no game's
                answer = client.get(url)
                if answer.mimetype.startswith("text/") or answer.is_json:
                    body = normalized(answer.get_data(as_text=True), table)
                else:  # a PDF or a picture: its bytes hold the game's id, so its kind is compared
                    body = answer.mimetype
                seen.append((who, answer.status_code, url.replace(table.id, "<id>"), body))
        return seen

    first, second = (look(t) for t in tables)
    assert len(first) > 60
    for a, b in zip(first, second, strict=True):
        assert a == b, "\n".join(
            difflib.unified_diff(a[3].splitlines(), b[3].splitlines(), a[2], lineterm="", n=1)
        )


def test_an_allotment_sent_with_htmx_says_so_once_in_the_console(csrf_app):
    """With htmx the console alone comes back, saying the allotment is saved; no flash is left
    waiting to say it again, late, on the next whole page."""
    table = Table(csrf_app, 3, hidden=True)
    values = {f"v_{s}": str(v) for s, v in zip(HIDDEN_SECRETS, [4, 4, 4, 4, 4, 5, 5, 5, 5, 5], strict=True)}
    sent = post_form(table.phones[0], table.links[0], table.links[0], values, HX)
    assert sent.status_code == 200
    answer = text_of(sent.get_data(as_text=True))
    assert "Your allotment is saved." in answer and "<html" not in sent.get_data(as_text=True)
    assert "Your allotment is saved." not in text_of(table.console(0))
