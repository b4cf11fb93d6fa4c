"""benchmarks/run.py's helpers: the games it seeds are valid, its scorer follows the real form, its report reads.

No timing here: the benchmark measures, the suite only checks that what it measures is real.
"""

from __future__ import annotations

import importlib.util
import random
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from scorekeeper import rules
from scorekeeper.games import GAMES
from scorekeeper.rules.base import play

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "run.py"


@pytest.fixture(scope="module")
def bench():
    spec = importlib.util.spec_from_file_location("bench_run", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    # Dataclasses look their module up by name while the script is being loaded.
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)  # it imports its siblings (wire.py, crowd.py) by name
    yield module
    for name in (spec.name, "wire", "wrk", "crowd", "seed", "inprocess", "evening"):
        sys.modules.pop(name, None)


def replay(record):
    game = GAMES.get(record["game"])
    setup = rules.base.check_setup(game, record["players"], record["options"], record["first_dealer"])[1]
    assert not rules.check(game, setup, record["deals"])
    return play(game, setup, record["deals"])


def test_the_finished_game_is_a_short_finished_spades_game(bench, client):
    record = bench.finished_game_record(random.Random(bench.SEED))
    assert 9 <= len(record["deals"]) <= 12
    assert replay(record).finished
    created = client.post("/api/games", json=record)
    assert created.status_code == 201, created.get_json()
    assert created.get_json()["finished"] is True


def test_long_games_hold_their_deals_and_never_end(bench, client):
    rng = random.Random(bench.SEED)
    record = bench.long_game_record(240, rng)
    assert len(record["deals"]) == 240 and not replay(record).finished
    created = client.post("/api/games", json=record).get_json()
    assert len(created["scores"]) == 240 and created["finished"] is False
    # Any of the bodies the API POSTs round-robin is a valid next deal.
    for body in bench.deal_bodies(8, rng):
        answer = client.post(
            f"/api/games/{created['id']}/deals",
            json=body,
            headers={"Authorization": f"Bearer {created['edit_key']}"},
        )
        assert answer.status_code == 201, answer.get_json()
    assert len(client.get(f"/api/games/{created['id']}").get_json()["deals"]) == 248


def scorers_page(bench, client, seed: int):
    """A 12-deal game on its scorer's device: (game id, the next deal, the page's entry form)."""
    rng = random.Random(seed)
    created = client.post("/api/games", json=bench.long_game_record(12, rng)).get_json()
    game_id = created["id"]
    client.set_cookie("edit_key", created["edit_key"], path=f"/g/{game_id}")
    deal = bench.deal_bodies(1, rng)[0]
    return game_id, deal, sys.modules["wire"].EntryForm(client.get(f"/g/{game_id}").get_data(as_text=True))


def test_the_scorer_enters_a_deal_through_the_real_form_in_two_steps(bench, client):
    game_id, deal, form = scorers_page(bench, client, 1)
    assert form.step == "bids" and form.action.endswith("/draft")
    assert {"base_version", "submit_token"} <= form.hidden.keys()
    reply = client.post(form.action, data=bench.entry_post(form, deal), headers={"HX-Request": "true"})
    assert reply.status_code == 200
    form = sys.modules["wire"].EntryForm(reply.get_data(as_text=True))
    assert form.step == "tricks" and form.action.endswith("/deals")
    reply = client.post(form.action, data=bench.entry_post(form, deal), headers={"HX-Request": "true"})
    assert reply.status_code == 200
    record = client.get(f"/api/games/{game_id}").get_json()
    assert record["deals"][-1] == deal and len(record["deals"]) == 13


def test_the_scorer_enters_a_deal_as_the_pages_script_does(bench, client):
    """What Scorer.record_deal sends: the bids kept in the background (the answer is the form's new
    stamp only), then Record with bids and tricks from the same form."""
    game_id, deal, form = scorers_page(bench, client, 2)
    assert form.save.endswith("/draft") and form.record.endswith("/deals")
    bids = {f"bids_{s}": str(v) for s, v in enumerate(deal["bids"])}
    kept = client.post(
        form.save, data={**form.hidden, **bids, "autosave": "1"}, headers={"HX-Request": "true"}
    )
    assert kept.status_code == 200
    stamp = sys.modules["wire"].EntryForm(f'<form id="entry">{kept.get_data(as_text=True)}</form>').hidden
    assert int(stamp["base_version"]) == int(form.hidden["base_version"]) + 1
    assert stamp["submit_token"] != form.hidden["submit_token"]
    form.hidden.update(stamp)
    tricks = {f"tricks_{s}": str(v) for s, v in enumerate(deal["tricks"])}
    reply = client.post(form.record, data={**form.hidden, **bids, **tricks}, headers={"HX-Request": "true"})
    assert reply.status_code == 200
    assert (
        sys.modules["wire"].EntryForm(reply.get_data(as_text=True)).save
    )  # the next deal's form, bids first
    record = client.get(f"/api/games/{game_id}").get_json()
    assert record["deals"][-1] == deal and len(record["deals"]) == 13


def test_a_chunked_reply_is_counted_as_sent_and_read_as_one_body(bench):
    raw = (
        b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\nSet-Cookie: session=abc; Path=/\r\n"
        b'Set-Cookie: device=d1; HttpOnly\r\nETag: W/"x.1"\r\n\r\n5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n'
    )
    reply = bench.parse_reply(raw)
    assert reply.status == 200 and reply.body == b"hello world" and reply.wire == len(raw)
    assert reply.cookies == {"session": "abc", "device": "d1"}
    assert reply.headers["etag"] == 'W/"x.1"'


def test_wrk_output_gives_the_rate_and_every_failure(bench):
    out = """Running 5s test @ http://127.0.0.1:1/
  1 threads and 8 connections
  8000 requests in 5.00s, 1.2MB read
  Socket errors: connect 0, read 1, write 0, timeout 2
  Non-2xx or 3xx responses: 4
Requests/sec:   1600.25
Transfer/sec:    240.00KB
"""
    assert bench.parse_wrk(out) == (1600.25, 7)
    # benchmarks/edge.py's crowd: requests answered, answers not 2xx/3xx, and failures on the wire
    assert sys.modules["wrk"].wrk_counts(out) == {"polls": 8000, "not 2xx/3xx": 4, "failed": 3}
    with pytest.raises(RuntimeError):
        bench.parse_wrk("wrk: connection refused")


def test_the_post_script_round_robins_games_with_their_keys(bench):
    lua = bench.post_deals_lua([("g1", "k1"), ("g2", "k2")], [{"bids": [1, 2, 3, 4], "tricks": [3, 3, 4, 3]}])
    assert '{"g1", "k1"}' in lua and '{"g2", "k2"}' in lua
    assert '"{\\"bids\\": [1, 2, 3, 4], \\"tricks\\": [3, 3, 4, 3]}"' in lua
    assert '"Bearer " .. g[2]' in lua


def test_the_tables_schedule_is_open_loop_and_bounded(bench):
    events = sys.modules["crowd"].schedule(10, 2, 3.0, 60.0, 30.0, random.Random(0))
    views = [e for e in events if e.kind == "view"]
    assert len(views) == 10 * 2 * 10  # a poll every 3 s for 30 s, per viewer
    assert all(0 <= e.at < 30 for e in events)
    assert [e.at for e in events] == sorted(e.at for e in events)
    assert bench.percentile([float(x) for x in range(1, 101)], 99) == 99.0


def test_cold_load_finds_every_asset_a_page_references(bench):
    html = (
        '<link rel="stylesheet" href="/static/app.css"><link rel="icon" href="/static/favicon.svg">'
        '<script src="/static/htmx.min.js" defer></script><a href="/games">games</a>'
        '<img src="https://elsewhere.example/x.png"><script src="/static/app.js"></script>'
    )
    assert bench.asset_paths(html, "/g/abc") == [
        "/static/app.css",
        "/static/favicon.svg",
        "/static/htmx.min.js",
        "/static/app.js",
    ]


def test_the_report_is_a_markdown_table_with_ratios_and_goals(bench):
    report = bench.Report()
    bench.rate_row(report, "game page", 43.0, 0, 2574.0, note="finished game")
    bench.rate_row(report, "API POST deal", 100.0, 3, 2574.0)
    report.add("htmx reply, 240 deals", bench.kb(430080))
    lines = bench.format_table(report.rows).splitlines()
    assert lines[0].startswith("| figure") and set(lines[1]) <= {"|", "-"}
    assert len({len(line) for line in lines}) == 1  # columns line up
    assert "| 43 req/s" in lines[2] and "0.017" in lines[2] and ">= 0.25" in lines[2]
    assert "3 failed" in lines[3]
    assert "420.0 KB" in lines[4] and "<= 12 KB" in lines[4]
    assert report.data["game page"]["ratio"] == pytest.approx(43 / 2574)


def test_page_timing_takes_turns_and_answers_one_figure_per_page(bench, client):
    created = client.post("/api/games", json=bench.long_game_record(3, random.Random(2))).get_json()
    figures = bench.time_pages(client, [f"/g/{created['id']}", "/"], budget=0, least=2)
    assert len(figures) == 2 and all(f > 0 for f in figures)


def test_the_evening_has_two_hands_at_each_table_and_a_correction_moves_its_standings(bench, app, client):
    """What the board and correction rows measure: round 1 of a 4-table progressive night with
    two hands played at each table, and a corrected second hand that changes the standings (and
    changes them back), as the served loop's every step relies on."""
    seed = sys.modules["seed"]
    event_id, games = bench.seed_event(app, client, 4)
    doc = client.get(f"/api/events/{event_id}").get_json()
    assert [(t["hands_played"], t["finished"]) for t in doc["rounds"][0]["tables"]] == [(2, False)] * 4
    # Each pair made 1 point: all 16 players level on 1, no loners.
    assert {(s["points"], s["loners"]) for s in doc["standings"]} == {(1, 0)}
    game_id, key = games[0]
    seats = doc["rounds"][0]["tables"][0]["seats"]

    def correct(hand):
        answer = client.put(
            f"/api/games/{game_id}/deals/1", json=hand, headers={"Authorization": f"Bearer {key}"}
        )
        assert answer.status_code == 200, answer.get_json()
        standings = client.get(f"/api/events/{event_id}").get_json()["standings"]
        return {s["name"]: (s["points"], s["loners"]) for s in standings}

    # Table 1's second seat alone takes all 5: 4 points for it and its partner, and its lone hand.
    after = correct(seed.SECOND_HAND_CORRECTED)
    assert after[seats[1]] == (4, 1) and after[seats[3]] == (4, 0)
    assert after[seats[0]] == after[seats[2]] == (1, 0)
    assert set(after.values()) == {(4, 1), (4, 0), (1, 0)}
    assert set(correct(seed.EVENT_HANDS[1]).values()) == {(1, 0)}


def test_the_evening_rows_put_40_tables_beside_4(bench, monkeypatch):
    evening = sys.modules["evening"]
    seen = evening.Corrections(
        app_ms=20.0, bare_ms=5.0, put_ms=8.0, get_ms=12.0, steps=40, failed=0, ratio=0.25
    )
    asked = []
    monkeypatch.setattr(evening, "corrections", lambda *args: asked.append(args[2]) or seen)
    report = bench.Report()
    rates = {"board 304, 4 tables": 1000.0, "board 304, 40 tables": 950.0}
    rates |= {"board 200, 4 tables": 500.0, "board 200, 40 tables": 250.0}
    seeded = {4: ("ev4", [("g", "k")]), 40: ("ev40", [("g", "k")])}
    evening.event_rows(report, rates, 2000.0, 1, 2, seeded, 1.0, lambda text: None)
    assert asked == ["ev4", "ev40"]
    rows = {r.figure: r for r in report.rows}
    assert rows["board 304, 40 vs 4 tables"].app == "950 vs 1,000 req/s"
    assert rows["board 304, 40 vs 4 tables"].ratio == "0.950" and rows["board 304, 40 vs 4 tables"].goal
    assert "0.475 at 40 tables, 0.500 at 4" in rows["board 304, 40 vs 4 tables"].note
    assert rows["board 200, 40 vs 4 tables"].ratio == "0.500"
    row = rows["standings after a correction, 40 tables"]
    assert (row.app, row.bare, row.ratio) == ("20.0 ms", "5.0 ms", "0.250")
    assert "PUT a hand 8.0 ms + GET /api/events 12.0 ms" in row.note
    assert report.data["standings after a correction, 4 tables"]["ratio"] == 0.25


def test_the_boards_polls_are_a_304_and_a_200_and_the_sizes_take_turns(bench, app, client, monkeypatch):
    """What wrk is pointed at: the board's own URL as its htmx poll asks for it, a 304 with the
    ETag the board gave (so the figure is the unchanged poll's) and a 200 without."""
    evening = sys.modules["evening"]
    seeded = {4: bench.seed_event(app, client, 4), 8: bench.seed_event(app, client, 8)}

    def fetch(port, method, path, headers=None, body=b""):
        answer = client.open(path, method=method, headers=headers or {})
        return SimpleNamespace(status=answer.status_code, headers={"etag": answer.headers.get("ETag")})

    calls = []

    def wrk(url, seconds, headers):
        path = url.removeprefix("http://127.0.0.1:1")
        calls.append((path, headers.get("If-None-Match") is not None, seconds))
        return 100.0 * client.get(path, headers=headers).status_code, 0

    monkeypatch.setattr(evening, "fetch", fetch)
    got = evening.board_figures(1, seeded, 5.0, wrk, lambda text: None)
    # The status each wrk target answers, as the rate: every 304 target a 304, every 200 a 200.
    assert got == [
        ("board 304, 4 tables", 30400.0, 0),
        ("board 200, 4 tables", 20000.0, 0),
        ("board 304, 8 tables", 30400.0, 0),
        ("board 200, 8 tables", 20000.0, 0),
    ]
    boards = [f"/e/{seeded[n][0]}/board" for n in (4, 8)]
    # In slices, the two sizes one after the other for each kind, twice over.
    turn = [(boards[0], False), (boards[1], False), (boards[0], True), (boards[1], True)]
    assert [(path, conditional) for path, conditional, _ in calls] == turn * evening.BOARD_TURNS
    assert {seconds for *_, seconds in calls} == {5.0 / evening.BOARD_TURNS}


@pytest.fixture(scope="module")
def seating_bench():
    path = SCRIPT.parent / "seating.py"
    spec = importlib.util.spec_from_file_location("bench_seating", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    yield module


def test_the_seating_sweep_judges_by_the_rules(seating_bench):
    from scorekeeper.events import checks

    judge = seating_bench.judge
    # 9 players, 2 rounds (9 >= 3 x 2 + 1: every opponent new, every partner new).
    good = [
        {"tables": [(0, 1, 2, 3), (4, 5, 6, 7)], "sitting_out": [8]},
        {"tables": [(0, 4, 1, 5), (2, 6, 3, 8)], "sitting_out": [7]},
    ]
    assert judge(9, 2, good)["broken"] == []
    # The first round again: partners and opponents twice, and 8 sits out twice before the rest.
    broken = judge(9, 2, [good[0], good[0]])["broken"]
    assert any(b.startswith("partners met 2 times (at most 1)") for b in broken)
    assert any(b.startswith("opponents met 2 times (at most 1") for b in broken)
    assert "sitting out not in turn" in broken
    # 13 players, 2 rounds: 0 and 1 oppose again in the second.
    again = [{"tables": [(0, 1, 2, 3), (4, 5, 6, 7), (8, 9, 10, 11)], "sitting_out": [12]}]
    again.append({"tables": [(0, 1, 4, 5), (2, 12, 6, 7), (8, 9, 10, 3)], "sitting_out": [11]})
    assert any(b.startswith("opponents met 2 times (at most 1") for b in judge(13, 2, again)["broken"])
    # The plans the app makes: 14 players at 13 rounds (the known gap before) keep every rule.
    assert judge(14, 13, checks.plan("progressive", None, 14, 13, 4))["broken"] == []
    assert seating_bench.sweep_evenings(5)[-1] == (400, 13) and (5, 13) in seating_bench.sweep_evenings(5)
