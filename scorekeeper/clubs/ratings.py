"""Club ratings, derived: OpenSkill's Plackett-Luce model over finished games.

Pure functions: nothing here reads the database or knows Flask. A finished
game becomes one :class:`Match` (:func:`match_from`); :func:`rate` replays
the matches in the order the games finished and answers every player's
rating, history and head-to-head records. Ratings are never the truth:
they are rebuilt from the games whenever asked, so a deleted game simply
leaves the input and an imported old game slots into its place in time.

The rating maths is OpenSkill's own (``openskill.models.PlackettLuce`` with
its defaults, mu 25 and sigma 25/3); this module only decides who played
whom and in which finishing order (``shared/spec/game-record.md``,
"Ratings").
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce

from ..games import GAMES
from ..rules import GameResult

MODEL_NAME = "openskill.PlackettLuce"

# A trend over a handful of games: long enough to mean something, short
# enough to show a player's current form.
TREND_GAMES = 5


@dataclass(frozen=True)
class Match:
    """One finished game as the ratings see it: who played on which team, and who placed where.

    ``ranks[i]`` is the place of ``teams[i]``: 1 is first, lower is better and
    equal ranks are a tie (competition ranking: 1, 2, 2, 4).
    """

    kind: str
    game_id: str
    finished_at: datetime
    teams: tuple[tuple[str, ...], ...]
    ranks: tuple[int, ...]

    @property
    def order(self) -> tuple[datetime, str]:
        """Games count in the order they finished, then by id (the spec's order)."""
        return (self.finished_at, self.game_id)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(name for team in self.teams for name in team)


def match_from(
    kind: str,
    game_id: str,
    finished_at: datetime,
    players: Sequence[str],
    options: Mapping[str, Any],
    result: GameResult | None,
) -> Match | None:
    """The match a game counts as, or None while it is unfinished (or has fewer than two teams).

    Teams and their totals are the game's to say (:meth:`~scorekeeper.rules.Game.rating_sides`):
    the rules' sides (Euchre's and partnership Spades' pairs), a side's total the one standing
    at its seats; tally's teams come from its ``teams`` option, summing their seats' points.
    The winners rank first (a tiebreak's winners included); every other team
    is placed by its final total, highest first or lowest first with
    ``low_wins``, and equal totals share a place.
    """
    if result is None or not result.finished:
        return None
    # Who played together and each side's points are the game's to say (its rules' hook).
    seat_sides, totals = GAMES[kind].rating_sides(options, result)
    if len(seat_sides) < 2:
        return None
    low_wins = bool(options.get("low_wins"))
    winners = set(result.winners)
    won = [any(seat in winners for seat in side) for side in seat_sides]

    def standing(i: int) -> tuple[int, int]:
        # Smaller is better: winners before everybody, then by total.
        return (0 if won[i] else 1, totals[i] if low_wins else -totals[i])

    standings = [standing(i) for i in range(len(seat_sides))]
    ranks = tuple(1 + sum(other < mine for other in standings) for mine in standings)
    teams = tuple(tuple(players[seat] for seat in side) for side in seat_sides)
    return Match(kind, game_id, finished_at, teams, ranks)


# -- ratings -------------------------------------------------------------------


@dataclass(frozen=True)
class HistoryPoint:
    """A player's rating just after one game: a point of the rating chart."""

    game_id: str
    kind: str
    finished_at: datetime
    mu: float
    sigma: float
    ordinal: float


@dataclass(frozen=True)
class HeadToHead:
    """A player's record against one opponent, over the games where they sat on different teams."""

    opponent: str
    wins: int
    losses: int
    ties: int

    @property
    def games(self) -> int:
        return self.wins + self.losses + self.ties

    @property
    def share(self) -> float:
        """Wins plus half the ties, per game: how well the player does against this opponent."""
        return (self.wins + self.ties / 2) / self.games


@dataclass(frozen=True)
class PlayerRating:
    """Where a player stands after every counted game."""

    name: str
    mu: float
    sigma: float
    ordinal: float  # mu - 3 sigma: the conservative rating the leaderboard sorts by
    games: int
    history: tuple[HistoryPoint, ...]
    trend: float  # ordinal now minus the ordinal before the last TREND_GAMES games
    head_to_head: tuple[HeadToHead, ...]  # most games together first, then by name
    best_opponent: str | None  # the opponent beaten most often (share above one half), if any
    worst_opponent: str | None  # the opponent lost to most often (share below one half), if any


@dataclass(frozen=True)
class Ratings:
    """The ratings of one scope: a game kind, or every game when ``game`` is None."""

    game: str | None
    leaderboard: tuple[PlayerRating, ...]  # ordinal highest first, then by name
    matches: int  # how many games counted
    by_name: Mapping[str, PlayerRating] = field(default_factory=dict, compare=False, repr=False)

    def player(self, name: str) -> PlayerRating | None:
        return self.by_name.get(name)


def model() -> PlackettLuce:
    """The rating model: OpenSkill's Plackett-Luce with its defaults (mu 25, sigma 25/3)."""
    return PlackettLuce()


def rate(matches: Iterable[Match], game: str | None = None, trend_games: int = TREND_GAMES) -> Ratings:
    """Replay the matches in the order their games finished, then by id, in one pass.

    With ``game``, only matches of that kind count; without it, every match
    counts in one rating per player. The answer depends only on the set of
    matches given, never on their order in ``matches``.
    """
    pl = model()
    chosen = sorted((m for m in matches if game is None or m.kind == game), key=lambda m: m.order)
    current: dict[str, Any] = {}
    history: dict[str, list[HistoryPoint]] = {}
    records: dict[str, dict[str, list[int]]] = {}
    for match in chosen:
        teams = [[current[n] if n in current else pl.rating(name=n) for n in team] for team in match.teams]
        rated = pl.rate(teams, ranks=[float(r) for r in match.ranks])
        for names, team in zip(match.teams, rated, strict=True):
            for name, rating in zip(names, team, strict=True):
                current[name] = rating
                history.setdefault(name, []).append(
                    HistoryPoint(
                        match.game_id,
                        match.kind,
                        match.finished_at,
                        rating.mu,
                        rating.sigma,
                        rating.ordinal(),
                    )
                )
        _count_head_to_head(match, records)
    start = pl.rating().ordinal()
    players = {
        name: _player(name, current[name], history[name], records.get(name, {}), trend_games, start)
        for name in current
    }
    leaderboard = tuple(sorted(players.values(), key=lambda p: (-p.ordinal, p.name)))
    return Ratings(game, leaderboard, len(chosen), players)


def _count_head_to_head(match: Match, records: dict[str, dict[str, list[int]]]) -> None:
    for i, team in enumerate(match.teams):
        for j, other in enumerate(match.teams):
            if i == j:
                continue
            # 0 win, 1 loss, 2 tie: the index into [wins, losses, ties].
            outcome = 0 if match.ranks[i] < match.ranks[j] else 1 if match.ranks[i] > match.ranks[j] else 2
            for name in team:
                mine = records.setdefault(name, {})
                for opponent in other:
                    mine.setdefault(opponent, [0, 0, 0])[outcome] += 1


def _player(
    name: str,
    rating: Any,
    points: list[HistoryPoint],
    record: Mapping[str, list[int]],
    trend_games: int,
    start: float,
) -> PlayerRating:
    ordinal = rating.ordinal()
    before = points[-trend_games - 1].ordinal if len(points) > trend_games else start
    h2h = tuple(
        sorted(
            (HeadToHead(opponent, *counts) for opponent, counts in record.items()),
            key=lambda h: (-h.games, h.opponent),
        )
    )
    # More games against the same share makes the verdict surer; then by name for a stable answer.
    best = min(
        (h for h in h2h if h.share > 0.5), key=lambda h: (-h.share, -h.games, h.opponent), default=None
    )
    worst = min(
        (h for h in h2h if h.share < 0.5), key=lambda h: (h.share, -h.games, h.opponent), default=None
    )
    return PlayerRating(
        name=name,
        mu=rating.mu,
        sigma=rating.sigma,
        ordinal=ordinal,
        games=len(points),
        history=tuple(points),
        trend=ordinal - before,
        head_to_head=h2h,
        best_opponent=best.opponent if best else None,
        worst_opponent=worst.opponent if worst else None,
    )


def as_api(ratings: Ratings, game: str | None, hidden: Collection[str] = frozenset()) -> dict[str, Any]:
    """The ``GET /api/ratings`` answer: the leaderboard without the private players.

    ``game`` is the kind asked for, or None for every game (JSON null).
    Private players are left out of the list only: they were rated with
    everybody else, so their opponents' ratings are the same either way.
    """
    if game != ratings.game:
        raise ValueError(f"ratings of {ratings.game!r} answered as {game!r}")
    return {
        "game": game,
        "model": MODEL_NAME,
        "players": [
            {"name": p.name, "mu": p.mu, "sigma": p.sigma, "ordinal": p.ordinal, "games": p.games}
            for p in ratings.leaderboard
            if p.name not in hidden
        ],
    }
