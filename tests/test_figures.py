"""The pure figures module: CSV rows, player statistics and the chart's geometry."""

import csv
import io
from datetime import datetime

from scorekeeper.clubs import figures
from scorekeeper.games import GAMES
from scorekeeper.rules.base import check_setup, play

PLAYERS = ["Ann", "Bob", "Cid", "Dee"]


def sa_deal(tricks, agents):
    return {"tricks": tricks, "agents": list(agents)}


def secret_agent(deals):
    game = GAMES.get("secret_agent")
    _, setup = check_setup(game, PLAYERS, {"deals": 4}, 0)
    return play(game, setup, deals)


FLAT = sa_deal([4, 3, 3, 3], "LORS")  # Ann 12, Bob 9, Cid 9, Dee 9
MISERE = sa_deal([13, 0, 0, 0], "SLOR")  # Ann 169, Bob 100, Cid 130, Dee 100
TIE = sa_deal([4, 3, 3, 3], "LRSO")  # Ann 12, Bob 12, Cid 9, Dee 9


def test_csv_has_a_row_per_deal_and_the_totals():
    record = {
        "players": PLAYERS,
        "scores": [[12, 9, 9, 9], [169, 100, 130, 100]],
        "totals": [181, 109, 139, 109],
    }
    text = figures.csv_text(figures.csv_rows(record))
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.removeprefix("\ufeff"))))
    assert rows == [
        ["Deal", *PLAYERS],
        ["1", "12", "9", "9", "9"],
        ["2", "169", "100", "130", "100"],
        ["Total", "181", "109", "139", "109"],
    ]


def test_csv_names_cannot_become_formulas_and_withheld_scores_stay_empty():
    record = {"players": ["=1+2", "Bob, Jr.", '"Q"'], "scores": [[5, None, -3]], "totals": [5, None, -3]}
    rows = list(csv.reader(io.StringIO(figures.csv_text(figures.csv_rows(record)).removeprefix("\ufeff"))))
    assert rows[0] == ["Deal", "'=1+2", "Bob, Jr.", '"Q"']
    assert rows[1] == ["1", "5", "", "-3"]  # a negative score stays a number


def played(game_id, when, players, result, kind="secret_agent"):
    return figures.Played(game_id, kind, datetime(2026, 1, when), tuple(players), result)


def test_player_statistics_by_hand():
    won = secret_agent([FLAT, MISERE, FLAT, FLAT])  # Ann 205, Bob 127, Cid 157, Dee 127: Ann wins
    lost = secret_agent([MISERE, FLAT, FLAT, FLAT])  # the same totals; Ann in seat 2 this time
    going = secret_agent([FLAT])
    tied = secret_agent([TIE] * 4)  # Ann and Bob tied at 48: a tiebreak deal is due
    games = [
        played("a", 1, PLAYERS, won),
        played("b", 2, ["Bob", "Cid", "Ann", "Dee"], lost),  # Ann has Cid's 157
        played("c", 3, PLAYERS, going),
        played("d", 4, PLAYERS, tied),
        played("e", 5, ["Eve", "Fay", "Gus", "Hal"], won),  # not Ann's
    ]
    stats = figures.player_stats("Ann", games)
    assert stats.games == 4 and stats.played == 2 and stats.won == 1
    (kind,) = stats.kinds
    assert (kind.kind, kind.played, kind.won, kind.in_progress) == ("secret_agent", 2, 1, 2)
    assert kind.best == 205 and kind.average == (205 + 157) / 2 and kind.win_rate == 0.5
    assert [line.game_id for line in stats.recent] == ["d", "c", "b", "a"]
    assert [(line.total, line.finished, line.won) for line in stats.recent] == [
        (48, False, False),
        (12, False, False),
        (157, True, False),
        (205, True, True),
    ]
    assert figures.player_stats("Ann", games, recent=1).recent[0].game_id == "d"


def test_a_player_with_no_finished_game_has_no_average():
    stats = figures.player_stats("Ann", [played("c", 3, PLAYERS, secret_agent([FLAT]))])
    assert stats.kinds[0].average is None and stats.kinds[0].best is None and stats.kinds[0].win_rate is None


def test_pairs_games_count_the_pair_total_and_a_shared_win():
    game = GAMES.get("euchre")
    _, setup = check_setup(game, PLAYERS, {}, 0)
    march = {"trump": "H", "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 5}
    result = play(game, setup, [march] * 5)  # 2 points a march: Ann & Cid reach 10
    assert result.finished
    stats = figures.player_stats("Cid", [played("x", 1, PLAYERS, result, "euchre")])
    assert (stats.kinds[0].won, stats.kinds[0].best) == (1, 10)
    assert figures.player_stats("Bob", [played("x", 1, PLAYERS, result, "euchre")]).won == 0


def test_running_totals_start_at_zero_and_stop_when_unknown():
    scores = [[1, 2], [3, None], [5, 6]]
    assert figures.running_totals(scores, (0,)) == [0, 1, 4, 9]
    assert figures.running_totals(scores, (1,)) == [0, 2, None, None]


def test_nice_steps():
    assert [figures.nice_step(s) for s in (0, 4, 10, 35, 205, 900, 4000)] == [1, 1, 2, 10, 50, 200, 1000]


def test_chart_geometry():
    chart = figures.running_chart(
        ["Ann", "Bob"], [[0, 12, 181], [0, -20, 100]], [False, True], width=360, height=200
    )
    assert chart.deals == 2
    assert chart.left < chart.right == 350 and chart.top < chart.bottom == 178
    labels = [t.label for t in chart.y_ticks]
    assert labels == ["-50", "0", "50", "100", "150", "200"]  # the range covers every total, on round numbers
    ys = [t.at for t in chart.y_ticks]
    assert ys == sorted(ys, reverse=True) and ys[0] == chart.bottom and ys[-1] == chart.top
    assert chart.zero is not None and chart.top < chart.zero < chart.bottom
    ann, bob = chart.series
    assert ann.label == "Ann" and ann.total == 181 and bob.total == 100
    assert ann.path.startswith(f"M{chart.left:g} ") and ann.path.count("L") == 2
    assert len(ann.dots) == 2 and ann.dots[-1] == (
        chart.right,
        round(chart.top + (chart.bottom - chart.top) * 19 / 250, 1),
    )
    assert [t.label for t in chart.x_ticks] == ["1", "2"]
    (band,) = chart.bands  # deal 2 was a tiebreak deal: from point 1 to point 2
    assert band == (chart.x_ticks[0].at, chart.x_ticks[1].at)


def test_chart_breaks_the_line_where_a_total_is_unknown_and_needs_a_deal():
    chart = figures.running_chart(["Ann"], [[0, 5, None, 9]])
    assert chart.series[0].path.count("M") == 2 and chart.series[0].total == 9
    assert figures.running_chart(["Ann"], [[0]]) is None


def test_long_games_label_every_few_deals():
    chart = figures.running_chart(["Ann"], [list(range(61))])
    labels = [int(t.label) for t in chart.x_ticks]
    assert len(labels) <= 13 and labels[-1] == 60
