"""Club ratings: OpenSkill's own numbers, who counts as a team, finishing order, and rebuilds."""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from scorekeeper.clubs import ratings
from scorekeeper.clubs.ratings import Match, as_api, match_from, rate
from scorekeeper.games import GAMES
from scorekeeper.rules.base import DealResult, GameResult, Setup, check_setup, play

T0 = datetime(2026, 1, 1, 20, 0)
NAMES = ["Ann", "Bob", "Cid", "Dee"]


def at(minutes: int) -> datetime:
    return T0 + timedelta(minutes=minutes)


def solo(kind: str, game_id: str, when: datetime, *placing: str | tuple[str, ...]) -> Match:
    """A match of players on their own; a tuple in ``placing`` is players tied for that place."""
    teams, ranks, place = [], [], 1
    for entry in placing:
        group = entry if isinstance(entry, tuple) else (entry,)
        for name in group:
            teams.append((name,))
            ranks.append(place)
        place += len(group)
    return Match(kind, game_id, when, tuple(teams), tuple(ranks))


def openskill_replay(games: list[tuple[list[list[str]], list[int]]]) -> dict[str, tuple[float, float]]:
    """OpenSkill called directly, game by game: the numbers our ratings must reproduce."""
    model = PlackettLuce()
    current: dict[str, object] = {}
    for teams, ranks in games:
        rated = model.rate([[current.get(n) or model.rating() for n in team] for team in teams], ranks=ranks)
        for names, team in zip(teams, rated, strict=True):
            for name, r in zip(names, team, strict=True):
                current[name] = r
    return {name: (r.mu, r.sigma) for name, r in current.items()}


def assert_same(result: ratings.Ratings, expected: dict[str, tuple[float, float]]) -> None:
    assert {p.name for p in result.leaderboard} == set(expected)
    for name, (mu, sigma) in expected.items():
        p = result.player(name)
        assert p.mu == pytest.approx(mu, abs=1e-9)
        assert p.sigma == pytest.approx(sigma, abs=1e-9)
        assert p.ordinal == pytest.approx(mu - 3 * sigma, abs=1e-9)


# -- OpenSkill's own numbers -------------------------------------------------------------


def test_the_installed_openskill_reproduces_its_documented_example():
    # openskill.py's README example (a1 & a2 beat b1 & b2), documented before the
    # dynamics factor tau existed, so tau=0 here; all other parameters are the defaults.
    model = PlackettLuce(tau=0)
    a1, a2 = model.rating(), model.rating(mu=32.444, sigma=5.123)
    b1, b2 = model.rating(mu=43.381, sigma=2.421), model.rating(mu=25.188, sigma=6.211)
    [[x1, x2], [y1, y2]] = model.rate([[a1, a2], [b1, b2]])
    documented = [
        (28.669648436582808, 8.071520788025197),
        (33.83086971107981, 5.062772998705765),
        (43.071274808241974, 2.4166900452721256),
        (23.149503312339064, 6.1378606973362135),
    ]
    for rating, (mu, sigma) in zip([x1, x2, y1, y2], documented, strict=True):
        assert rating.mu == pytest.approx(mu, rel=1e-12)
        assert rating.sigma == pytest.approx(sigma, rel=1e-12)


def test_one_game_between_newcomers_gives_the_hand_checked_numbers():
    # Worked by hand from Weng & Lin's Algorithm 4 with OpenSkill's defaults:
    # sigma^2 = (25/3)^2 + (25/300)^2 = 69.4514; c^2 = 2 (69.4514 + (25/6)^2) = 173.625, c = 13.1767;
    # both win probabilities 1/2, so mu = 25 +- 69.4514 / 13.1767 / 2 = 25 +- 2.6354;
    # delta = (sigma / c) (sigma^2 / c^2) / 4 = 0.63246 * 0.4 / 4 = 0.063246,
    # sigma' = 8.33375 * sqrt(1 - 0.063246) = 8.0659.
    result = rate([solo("spades", "g1", at(0), "Ann", "Bob")])
    ann, bob = result.player("Ann"), result.player("Bob")
    assert ann.mu == pytest.approx(27.6354, abs=1e-4)
    assert bob.mu == pytest.approx(22.3646, abs=1e-4)
    assert ann.sigma == pytest.approx(8.0659, abs=1e-4)
    assert bob.sigma == pytest.approx(8.0659, abs=1e-4)
    assert ann.ordinal == pytest.approx(27.6354 - 3 * 8.0659, abs=1e-3)
    assert [p.name for p in result.leaderboard] == ["Ann", "Bob"]


def test_a_small_club_reproduces_openskill_game_by_game():
    games = [
        solo("spades", "g1", at(0), "Ann", "Bob", "Cid"),
        solo("spades", "g2", at(10), "Cid", ("Ann", "Dee"), "Bob"),
        Match("euchre", "g3", at(20), (("Ann", "Cid"), ("Bob", "Dee")), (2, 1)),
        solo("secret_agent", "g4", at(30), ("Bob", "Cid"), "Dee", "Ann"),
    ]
    expected = openskill_replay(
        [
            ([["Ann"], ["Bob"], ["Cid"]], [1, 2, 3]),
            ([["Cid"], ["Ann"], ["Dee"], ["Bob"]], [1, 2, 2, 4]),
            ([["Ann", "Cid"], ["Bob", "Dee"]], [2, 1]),
            ([["Bob"], ["Cid"], ["Dee"], ["Ann"]], [1, 1, 3, 4]),
        ]
    )
    result = rate(games)
    assert_same(result, expected)
    assert result.matches == 4 and result.game is None
    assert {p.name: p.games for p in result.leaderboard} == {"Ann": 4, "Bob": 4, "Cid": 4, "Dee": 3}
    ordinals = [p.ordinal for p in result.leaderboard]
    assert ordinals == sorted(ordinals, reverse=True)


def test_a_tie_moves_nobodys_mu_between_equals():
    result = rate([solo("tally", "g1", at(0), ("Ann", "Bob"))])
    expected = openskill_replay([([["Ann"], ["Bob"]], [1, 1])])
    assert_same(result, expected)
    assert result.player("Ann").mu == pytest.approx(25.0)
    assert result.player("Ann").sigma < 25 / 3


def test_equal_ordinals_list_by_name():
    result = rate([solo("tally", "g1", at(0), ("Bob", "Ann", "Cid"))])
    assert [p.name for p in result.leaderboard] == ["Ann", "Bob", "Cid"]


# -- matches from games ------------------------------------------------------------------


def played(kind: str, players: list[str], options: dict, deals: list[dict]) -> GameResult:
    game = GAMES.get(kind)
    errors, setup = check_setup(game, players, options, 0)
    assert not errors, errors
    return play(game, setup, deals)


def euchre_deal(maker: int, tricks: int) -> dict:
    return {"trump": "H", "maker": maker, "alone": False, "defender_alone": None, "maker_tricks": tricks}


def test_euchre_pairs_are_rated_as_teams():
    # rules/euchre.md: Ann & Cid march five times (2 each) to 10 while Bob & Dee make 1.
    deals = [euchre_deal(m, t) for m, t in [(0, 5), (1, 3), (2, 5), (0, 5), (2, 5), (0, 5)]]
    result = played("euchre", NAMES, {}, deals)
    match = match_from("euchre", "e1", at(0), NAMES, result.setup.options, result)
    assert match == Match("euchre", "e1", at(0), (("Ann", "Cid"), ("Bob", "Dee")), (1, 2))
    rated = rate([match])
    assert_same(rated, openskill_replay([([["Ann", "Cid"], ["Bob", "Dee"]], [1, 2])]))
    assert rated.player("Ann").mu == rated.player("Cid").mu > rated.player("Bob").mu


def test_partnership_spades_pairs_are_rated_as_teams_and_cutthroat_alone():
    hand = {"bids": [3, 3, 3, 3], "tricks": [4, 3, 3, 3]}  # Ann & Cid 61 a deal, Bob & Dee 60
    pairs = played("spades", NAMES, {"mode": "partnership", "target": 100}, [hand, hand])
    assert pairs.totals == (122, 120, 122, 120)
    match = match_from("spades", "s1", at(0), NAMES, pairs.setup.options, pairs)
    assert match.teams == (("Ann", "Cid"), ("Bob", "Dee")) and match.ranks == (1, 2)
    alone = played("spades", NAMES[:2], {"target": 200}, [{"bids": [10, 10], "tricks": [16, 10]}] * 2)
    match = match_from("spades", "s2", at(1), NAMES[:2], alone.setup.options, alone)
    assert alone.finished and match.teams == (("Ann",), ("Bob",)) and match.ranks == (1, 2)


def test_places_follow_the_final_totals_and_equal_totals_share_one():
    result = played("secret_agent", NAMES, {"deals": 1}, [{"tricks": [13, 0, 0, 0], "agents": list("SLOR")}])
    assert result.finished
    match = match_from("secret_agent", "a1", at(0), NAMES, result.setup.options, result)
    by_name = dict(zip((t[0] for t in match.teams), match.ranks, strict=True))
    assert by_name["Ann"] == 1
    # The three others' totals decide their places, ties sharing one.
    totals = dict(zip(NAMES, result.totals, strict=True))
    for a in NAMES[1:]:
        for b in NAMES[1:]:
            assert (by_name[a] < by_name[b]) == (totals[a] > totals[b])
            assert (by_name[a] == by_name[b]) == (totals[a] == totals[b])


def test_the_winners_of_a_tiebreak_rank_first():
    # rules/secret-agent.md: four even deals tie N and E on 48; N's 13 tricks break it.
    even = {"tricks": [4, 3, 3, 3], "agents": list("LRSO")}
    breaker = {"tricks": [13, 0, 0, 0], "agents": list("SLOR")}
    result = played("secret_agent", NAMES, {"deals": 4}, [even] * 5 + [breaker])
    assert result.finished and result.winners == (0,) and result.deals[-1].tiebreak
    match = match_from("secret_agent", "a2", at(0), NAMES, result.setup.options, result)
    assert match.ranks[0] == 1 and all(rank > 1 for rank in match.ranks[1:])


def fake(players, totals, winners, deals=(), sides=None, finished=True) -> GameResult:
    """A result as a rules module would give it, for cases the five games cannot reach."""
    n = len(players)
    setup = Setup(tuple(players), {})
    results = tuple(
        DealResult(k, None, facts, tuple(facts.get("points", [0] * n)), (), tuple(totals), False)
        for k, facts in enumerate(deals)
    )
    return GameResult(
        setup,
        results,
        tuple(totals),
        None,
        finished,
        tuple(winners),
        False,
        sides or tuple((s,) for s in range(n)),
    )


def test_winners_rank_first_even_when_a_total_says_otherwise():
    # A rules module may break a tie by something other than the totals: its winners still come first.
    result = fake(NAMES, [30, 50, 50, 10], winners=[0])
    match = match_from("secret_agent", "x", at(0), NAMES, {}, result)
    assert match.ranks == (1, 2, 2, 4)


def test_shared_wins_tie_for_first():
    result = fake(NAMES, [30, 30, 20, 10], winners=[0, 1])
    match = match_from("secrets", "x", at(0), NAMES, {}, result)
    assert match.ranks == (1, 1, 3, 4)


def test_tally_low_wins_places_the_lowest_total_first():
    deals = [{"points": [10, 3, 7, 3]}, {"points": [5, 1, 0, 2]}, {"end": True}]
    result = fake(NAMES, [15, 4, 7, 5], winners=[1], deals=deals)
    match = match_from("tally", "t1", at(0), NAMES, {"low_wins": True, "teams": None}, result)
    assert match.teams == (("Ann",), ("Bob",), ("Cid",), ("Dee",))
    assert match.ranks == (4, 1, 3, 2)
    high = match_from("tally", "t2", at(0), NAMES, {"low_wins": False}, fake(NAMES, [15, 4, 7, 5], [0]))
    assert high.ranks == (1, 4, 2, 3)


def test_tally_teams_come_from_the_option_and_sum_their_seats_points():
    # Teams of unequal size: Ann alone (12) against Bob, Cid & Dee (3 + 4 + 2 = 9).
    deals = [{"points": [12, 3, 4, 2]}, {"end": True}]
    teams = [[0], [1, 2, 3]]
    result = fake(NAMES, [12, 9, 9, 9], winners=[0], deals=deals, sides=((0,), (1, 2, 3)))
    match = match_from("tally", "t3", at(0), NAMES, {"teams": teams, "low_wins": False}, result)
    assert match.teams == (("Ann",), ("Bob", "Cid", "Dee")) and match.ranks == (1, 2)
    # With low_wins the same points put the trio first, whatever seats the rules call winners.
    low = fake(NAMES, [12, 9, 9, 9], winners=[1, 2, 3], deals=deals)
    match = match_from("tally", "t4", at(0), NAMES, {"teams": teams, "low_wins": True}, low)
    assert match.ranks == (2, 1)
    assert_same(rate([match]), openskill_replay([([["Ann"], ["Bob", "Cid", "Dee"]], [2, 1])]))


def test_unfinished_games_give_no_match():
    result = played("euchre", NAMES, {}, [euchre_deal(0, 5)])
    assert not result.finished
    assert match_from("euchre", "e2", at(0), NAMES, {}, result) is None
    assert match_from("euchre", "e2", at(0), NAMES, {}, None) is None


# -- order, scope, privacy ---------------------------------------------------------------


def test_games_count_in_the_order_they_finished_then_by_id():
    first = solo("spades", "b", at(0), "Ann", "Bob")
    second = solo("spades", "a", at(5), "Bob", "Ann")
    expected = openskill_replay([([["Ann"], ["Bob"]], [1, 2]), ([["Bob"], ["Ann"]], [1, 2])])
    assert_same(rate([second, first]), expected)
    # At the same moment, the smaller id counts first.
    same_a = solo("spades", "a", at(0), "Bob", "Ann")
    same_b = solo("spades", "b", at(0), "Ann", "Bob")
    expected = openskill_replay([([["Bob"], ["Ann"]], [1, 2]), ([["Ann"], ["Bob"]], [1, 2])])
    assert_same(rate([same_b, same_a]), expected)
    assert [h.game_id for h in rate([same_b, same_a]).player("Ann").history] == ["a", "b"]


def test_per_kind_and_overall_ratings():
    games = [
        solo("spades", "s1", at(0), "Ann", "Bob"),
        solo("euchre", "e1", at(1), "Bob", "Ann"),
        solo("spades", "s2", at(2), "Ann", "Cid"),
    ]
    spades = rate(games, "spades")
    assert spades.game == "spades" and spades.matches == 2
    assert_same(spades, openskill_replay([([["Ann"], ["Bob"]], [1, 2]), ([["Ann"], ["Cid"]], [1, 2])]))
    assert spades.player("Ann").games == 2
    overall = rate(games)
    assert overall.game is None and overall.matches == 3
    assert_same(
        overall,
        openskill_replay(
            [([["Ann"], ["Bob"]], [1, 2]), ([["Bob"], ["Ann"]], [1, 2]), ([["Ann"], ["Cid"]], [1, 2])]
        ),
    )
    assert rate(games, "abracadabra").leaderboard == ()


def test_the_api_answer_leaves_private_players_out_but_rates_them():
    games = [
        solo("spades", "s1", at(0), "Ann", "Bob", "Cid"),
        solo("spades", "s2", at(1), "Bob", "Cid", "Ann"),
    ]
    result = rate(games, "spades")
    everybody = as_api(result, "spades")
    hidden = as_api(result, "spades", hidden={"Bob"})
    assert everybody["game"] == "spades" and everybody["model"] == "openskill.PlackettLuce"
    assert [p["name"] for p in hidden["players"]] == [
        p["name"] for p in everybody["players"] if p["name"] != "Bob"
    ]
    # Bob still counted: the others' numbers are those of the three-player games.
    expected = openskill_replay(
        [([["Ann"], ["Bob"], ["Cid"]], [1, 2, 3]), ([["Bob"], ["Cid"], ["Ann"]], [1, 2, 3])]
    )
    for p in hidden["players"]:
        assert set(p) == {"name", "mu", "sigma", "ordinal", "games"}
        assert (p["mu"], p["sigma"]) == pytest.approx(expected[p["name"]])
        assert p["ordinal"] == pytest.approx(p["mu"] - 3 * p["sigma"]) and p["games"] == 2
    ordinals = [p["ordinal"] for p in everybody["players"]]
    assert ordinals == sorted(ordinals, reverse=True)


def test_the_api_answer_for_every_game_is_null():
    answer = as_api(rate([solo("spades", "s1", at(0), "Ann", "Bob")]), None)
    assert answer["game"] is None and len(answer["players"]) == 2
    with pytest.raises(ValueError):
        as_api(rate([], "spades"), None)


# -- history, trend, head to head ---------------------------------------------------------


def test_history_trend_and_head_to_head():
    games = [solo("spades", f"g{k}", at(k), "Ann", "Bob") for k in range(6)]
    games.append(solo("spades", "g6", at(6), "Cid", "Ann"))
    games.append(Match("euchre", "g7", at(7), (("Ann", "Bob"), ("Cid", "Dee")), (1, 1)))
    ann = rate(games).player("Ann")
    assert ann.games == 8 and len(ann.history) == 8
    assert [h.game_id for h in ann.history] == [f"g{k}" for k in range(8)]
    assert ann.history[-1].ordinal == ann.ordinal
    assert ann.trend == pytest.approx(ann.ordinal - ann.history[-6].ordinal)
    records = {h.opponent: (h.wins, h.losses, h.ties) for h in ann.head_to_head}
    # Bob was Ann's partner in g7: partners are not opponents.
    assert records == {"Bob": (6, 0, 0), "Cid": (0, 1, 1), "Dee": (0, 0, 1)}
    assert [h.opponent for h in ann.head_to_head] == ["Bob", "Cid", "Dee"]
    assert ann.best_opponent == "Bob" and ann.worst_opponent == "Cid"
    # A newcomer's trend runs from the starting rating (ordinal 0).
    dee = rate(games).player("Dee")
    assert (
        dee.trend == pytest.approx(dee.ordinal) and dee.best_opponent is None and dee.worst_opponent is None
    )


# -- a rebuild is a function of the set of games -------------------------------------------

PEOPLE = ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"]


@st.composite
def matches(draw, game_id: str) -> Match:
    kind = draw(st.sampled_from(["spades", "euchre", "tally"]))
    seated = draw(st.lists(st.sampled_from(PEOPLE), min_size=2, max_size=5, unique=True))
    if kind == "euchre" and len(seated) == 4:
        teams = ((seated[0], seated[2]), (seated[1], seated[3]))
    else:
        teams = tuple((name,) for name in seated)
    ranks = tuple(draw(st.lists(st.integers(1, len(teams)), min_size=len(teams), max_size=len(teams))))
    # Few distinct minutes, so equal finishing times (ordered by id) come up often.
    return Match(kind, game_id, at(draw(st.integers(0, 5))), teams, ranks)


@st.composite
def histories(draw):
    """A club's life: games added, corrected and deleted in any order; the survivors are what counts."""
    alive: dict[str, Match] = {}
    for k in range(draw(st.integers(0, 14))):
        step = draw(st.sampled_from(["add", "correct", "delete"])) if alive else "add"
        if step == "add":
            alive[f"g{k:02d}"] = draw(matches(f"g{k:02d}"))
        elif step == "correct":
            # A correction changes the result and is the game's latest change: it moves in time.
            game_id = draw(st.sampled_from(sorted(alive)))
            alive[game_id] = draw(matches(game_id))
        else:
            del alive[draw(st.sampled_from(sorted(alive)))]
    return list(alive.values())


@settings(max_examples=60, deadline=None)
@given(histories(), st.randoms(use_true_random=False), st.sampled_from([None, "spades", "euchre", "tally"]))
def test_rating_after_additions_and_deletions_equals_a_rebuild_from_scratch(survivors, rng, game):
    shuffled = list(survivors)
    rng.shuffle(shuffled)
    in_order = sorted(survivors, key=lambda m: m.order)
    assert rate(shuffled, game) == rate(in_order, game)
    again = rate(in_order, game)
    assert as_api(again, game) == as_api(rate(shuffled, game), game)
    counted = [m for m in in_order if game is None or m.kind == game]
    expected = openskill_replay([([list(t) for t in m.teams], list(m.ranks)) for m in counted])
    assert_same(again, expected)


def test_the_teams_rated_are_the_games_own_hook(monkeypatch):
    # Ratings name no game: who played together and each side's points are the rules' hook
    # (Game.rating_sides), so a game whose teams are not its seats says so in its own folder.
    class Doubles(type(GAMES["secret_agent"])):
        def rating_sides(self, options, result):
            return ((0, 2), (1, 3)), (10, 20)

    monkeypatch.setitem(GAMES, "secret_agent", Doubles())
    match = match_from("secret_agent", "x", at(0), NAMES, {}, fake(NAMES, [30, 50, 50, 10], winners=[1]))
    assert match.teams == (("Ann", "Cid"), ("Bob", "Dee")) and match.ranks == (2, 1)
