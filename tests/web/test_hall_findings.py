"""Issue 39's smaller findings, each shown on the outcome a caller sees: nothing of a club reaches
a stranger, every CSV is safe to open, compressed ETags are usable, sizes are checked first."""

from __future__ import annotations

import re

from scorekeeper.clubs import roster
from scorekeeper.models import Club
from tests.clubs.helpers import as_member, club_game, new_club


def datalist(html: str) -> list[str]:
    found = re.search(r'<datalist id="known-players">(.*?)</datalist>', html, re.S)
    assert found, "no datalist"
    return re.findall(r'<option value="([^"]*)">', found.group(1))


def test_a_club_games_again_page_lists_the_clubs_players_to_its_members_only(app, client):
    club = new_club(client, "Leaky", player="Olga")
    game = club_game(client, club["slug"], club["member_key"], ["Ann", "Bob"])
    club_game(client, club["slug"], club["member_key"], ["Zed", "Yvo"])
    with app.app_context():
        club_id = app.extensions["sqlalchemy"].session.query(Club).filter_by(slug=club["slug"]).one().id
        roster.set_private(club_id, "Quill", True)
    stranger = app.test_client()
    page = stranger.get(f"/g/{game['id']}/again")
    assert page.status_code == 200
    html = page.get_data(as_text=True)
    assert datalist(html) == []
    assert "Zed" not in html and "Yvo" not in html and "Quill" not in html
    member = as_member(app, club["member_key"])
    assert {"Zed", "Yvo"} <= set(datalist(member.get(f"/g/{game['id']}/again").get_data(as_text=True)))


FORMULAS = ["=cmd|' /C calc'!A0", "+1+1", "@SUM(A1)", "-2+3", "Ann", "Bob", "Cid", "Dee"]


def test_an_events_results_csv_neutralises_formulas_as_the_game_csv_does(app, client):
    import csv
    import io

    from scorekeeper.events import service as events

    with app.app_context():
        event, _key = events.create_event(
            {"name": "Formulas", "format": "progressive", "game": "euchre", "players": FORMULAS, "hands": 1}
        )
        event_id = event.id
    text = client.get(f"/e/{event_id}/results.csv").get_data(as_text=True)
    cells = [cell for row in csv.reader(io.StringIO(text)) for cell in row]
    assert {"'=cmd|' /C calc'!A0", "'+1+1", "'@SUM(A1)", "'-2+3"} <= set(cells)
    assert not any(cell.startswith(("=", "+", "@", "-", "\t", "\r")) for cell in cells)


def test_if_match_takes_a_compressed_answers_etag_whatever_the_accept_encoding(client):
    from tests.web.table_helpers import FLAT, api_game, auth

    gid, key = api_game(client, deals=[FLAT] * 6)
    got = client.get(f"/api/games/{gid}", headers={"Accept-Encoding": "br"})
    assert got.headers.get("Content-Encoding") == "br"
    etag = got.headers["ETag"]
    assert etag.endswith(':br"')
    written = client.post(
        f"/api/games/{gid}/deals",
        json=FLAT,
        headers={**auth(key), "If-Match": etag, "Accept-Encoding": "gzip"},
    )
    assert written.status_code == 201, written.get_data(as_text=True)
    stale = client.post(f"/api/games/{gid}/deals", json=FLAT, headers={**auth(key), "If-Match": etag})
    assert stale.status_code == 409
    fresh = client.get(f"/api/games/{gid}", headers={"Accept-Encoding": "gzip"}).headers["ETag"]
    assert fresh.endswith(':gzip"')
    assert client.get(f"/api/games/{gid}", headers={"If-None-Match": fresh}).status_code == 304
