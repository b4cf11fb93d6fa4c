"""The director sees a silent table (issue 53): when each table of the round being played was last
heard from, and a table's deals in the standings as soon as they reach the server."""

import re

from tests.conftest import bearer
from tests.events.test_table_links import HTMX, entry, links, make, start


def heard(html: str) -> list[str]:
    return [
        re.sub(r"\s+", " ", s).strip() for s in re.findall(r'class="muted ev-heard">(.*?)</span>', html, re.S)
    ]


def test_the_directors_page_says_when_each_table_was_last_heard_from(app, client):
    event_id, key = make(app)
    one, _two = links(client, event_id, key)
    rnd = start(client, event_id, key)
    director = app.test_client()
    assert director.get(f"/e/{event_id}/direct?key={key}").status_code == 303
    # Round 1 started: its games exist, but no table has sent anything yet.
    assert heard(director.get(f"/e/{event_id}").get_data(as_text=True)) == ["· not heard from yet"] * 2

    phone = app.test_client()
    phone.get(one)  # the table's phone keeps its game's key
    game_id = rnd["tables"][0]["game"]
    saved = phone.post(f"/g/{game_id}/deals", data=entry(0, 4), headers=HTMX)
    assert saved.status_code == 200
    html = director.get(f"/e/{event_id}").get_data(as_text=True)
    assert heard(html)[0].startswith("· last heard from") and heard(html)[0].endswith("ago"), heard(html)
    assert heard(html)[1] == "· not heard from yet"
    # The deal is in the standings at once: Ann's pair made it (1 point each).
    doc = client.get(f"/api/events/{event_id}", headers=bearer(key)).get_json()
    assert doc["rounds"][0]["tables"][0]["hands_played"] == 1
    assert sorted(s["points"] for s in doc["standings"])[-2:] == [1, 1]
    # Nobody but a director is told.
    assert heard(app.test_client().get(f"/e/{event_id}").get_data(as_text=True)) == []
