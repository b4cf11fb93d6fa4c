"""Polls answered in ``scorekeeper serve``'s event loop (scorekeeper/web/live/loopanswer.py, issue 40):
a turn's polls a few at a time, their games' rows read in one query, each answered as it would be
alone."""

from __future__ import annotations

from scorekeeper.web.live.loopanswer import kept_answer, kept_answers
from tests.web.table_helpers import FLAT, api_game

URL = "/g/{}/live?part=live&lang=en"
HX = {"HX-Request": "true"}
CLIENT = ("127.0.0.1", 40000)


def poll(game_id: str, etag: str | None) -> bytes:
    lines = [f"GET {URL.format(game_id)} HTTP/1.1", "Host: localhost", "HX-Request: true"]
    if etag:
        lines.append(f"If-None-Match: {etag}")
    return ("\r\n".join(lines) + "\r\n\r\n").encode()


def same(found) -> tuple | None:
    """An answer without what is drawn for each one (the date, the request's id, the spread pace)."""
    if found is None:
        return None
    size, keep_alive, data, _log = found
    lines = [
        line
        for line in data.split(b"\r\n")
        if not line.startswith((b"Date:", b"X-Request-Id:", b"X-Poll-After:"))
    ]
    return size, keep_alive, lines


def test_a_turns_polls_are_answered_as_each_alone_with_one_query(app, client, tmp_path, count_queries):
    app.config["LIVE_ANSWERS_DIR"] = str(tmp_path / "answers")
    unchanged = [api_game(client, deals=[FLAT])[0] for _ in range(2)]
    etags = [client.get(URL.format(g), headers=HX).headers["ETag"] for g in unchanged]
    drawn, drawn_key = api_game(client, deals=[FLAT])
    undrawn, undrawn_key = api_game(client, deals=[FLAT])
    before = {g: client.get(URL.format(g), headers=HX).headers["ETag"] for g in (drawn, undrawn)}
    for game_id, key in ((drawn, drawn_key), (undrawn, undrawn_key)):
        posted = client.post(
            f"/api/games/{game_id}/deals", json=FLAT, headers={"Authorization": f"Bearer {key}"}
        )
        assert posted.status_code == 201
    fresh = client.get(URL.format(drawn), headers=HX)  # its new version drawn and kept by a thread
    heads = [
        poll(unchanged[0], etags[0]),
        poll(drawn, before[drawn]),
        poll(undrawn, before[undrawn]),
        poll("NoSuchGame", None),
        poll(unchanged[1], etags[1]),
        b"POST /api/games/x/deals HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\n",
    ]
    alone = [kept_answer(app, head, CLIENT) for head in heads]
    with count_queries() as seen:
        together = kept_answers(app, [(head, CLIENT) for head in heads])
    assert len(seen) == 1, seen.statements  # the four games' rows, in one query
    assert [same(found) for found in together] == [same(found) for found in alone]
    status = [None if found is None else found[2].split(b"\r\n", 1)[0] for found in together]
    # Unchanged: 304s; changed and drawn: its kept answer; changed and not drawn yet, no such game,
    # not a poll: the threads'.
    assert status == [
        b"HTTP/1.1 304 NOT MODIFIED",
        b"HTTP/1.1 200 OK",
        None,
        None,
        b"HTTP/1.1 304 NOT MODIFIED",
        None,
    ]
    assert together[1][2].endswith(b"\r\n\r\n" + fresh.data) and together[1][0] == len(heads[1])


def test_polls_that_name_no_game_read_nothing(app, count_queries):
    with count_queries() as seen:
        assert kept_answers(app, [(b"GET /g/ HTTP/1.1\r\n\r\n", CLIENT), (b"", CLIENT)]) == [None, None]
    assert len(seen) == 0
