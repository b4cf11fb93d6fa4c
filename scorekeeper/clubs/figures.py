"""The club's figures, derived: CSV rows, player statistics and the running-totals chart.

Pure functions over game records and :class:`~scorekeeper.rules.GameResult`
values: nothing here reads the database or knows Flask. Every number comes
from scoring the stored facts through the rules; nothing is stored.

A score may be ``None`` where the public record withholds it (Hidden
Secrets before the end): the CSV leaves the cell empty and the chart
breaks the line there.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Protocol

from ..rules.base import N_

# -- CSV ---------------------------------------------------------------------

# Spreadsheets run a cell that starts with one of these as a formula.
FORMULA_START = ("=", "+", "-", "@", "\t", "\r")


def safe_cell(value: Any) -> Any:
    """A cell a spreadsheet shows as text: a name like "=1+2" gets a leading apostrophe."""
    if isinstance(value, str) and value.startswith(FORMULA_START):
        return "'" + value
    return value


def csv_rows(
    record: Mapping[str, Any], deal_label: str = N_("Deal"), total_label: str = N_("Total")
) -> list[list[Any]]:
    """One row per deal (its number, then each player's points), then the totals.

    ``record`` is a game record with its derived fields (``players``,
    ``scores``, ``totals``); a pair's points stand at both of its seats.
    """
    players = record["players"]
    rows: list[list[Any]] = [[deal_label, *(safe_cell(name) for name in players)]]
    for k, scores in enumerate(record["scores"]):
        rows.append([k + 1, *("" if s is None else s for s in scores)])
    rows.append([total_label, *("" if t is None else t for t in record["totals"])])
    return rows


class SafeWriter:
    """A ``csv.writer`` whose every cell goes through :func:`safe_cell`: the one way this app
    writes CSV (a game's scores, an event's results), so no cell a player typed runs as a formula."""

    def __init__(self, out: Any) -> None:
        self._writer = csv.writer(out)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([safe_cell(cell) for cell in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_text(rows: Iterable[Sequence[Any]]) -> str:
    """The rows as CSV text with a byte-order mark, so spreadsheets read the names as UTF-8."""
    out = io.StringIO()
    out.write("\ufeff")
    SafeWriter(out).writerows(rows)
    return out.getvalue()


# -- Player statistics ---------------------------------------------------------


class Scored(Protocol):
    """What the statistics read of a game's result: a :class:`GameResult`, or a list's summary
    of one (``read.Summary``), whose total is None while the game hides it."""

    @property
    def totals(self) -> Sequence[int | None]: ...
    @property
    def finished(self) -> bool: ...
    @property
    def winners(self) -> Sequence[int]: ...


@dataclass(frozen=True)
class Played:
    """One stored game as the statistics need it: who sat where, when, and its scored result."""

    game_id: str
    kind: str
    when: datetime
    players: tuple[str, ...]
    result: Scored


@dataclass(frozen=True)
class GameLine:
    """One game in a player's history."""

    game_id: str
    kind: str
    when: datetime
    players: tuple[str, ...]
    seat: int
    total: int | None  # None while a game hides its scores (Hidden Secrets before the end)
    finished: bool
    won: bool


@dataclass
class KindStats:
    """A player's record at one game kind; only finished games count as played."""

    kind: str
    played: int = 0
    won: int = 0
    in_progress: int = 0
    points: int = 0
    best: int | None = None

    @property
    def average(self) -> float | None:
        return self.points / self.played if self.played else None

    @property
    def win_rate(self) -> float | None:
        return self.won / self.played if self.played else None


@dataclass
class PlayerStats:
    name: str
    kinds: list[KindStats] = field(default_factory=list)
    recent: list[GameLine] = field(default_factory=list)
    games: int = 0

    @property
    def played(self) -> int:
        return sum(k.played for k in self.kinds)

    @property
    def won(self) -> int:
        return sum(k.won for k in self.kinds)


def player_stats(name: str, games: Iterable[Played], recent: int = 10) -> PlayerStats:
    """Games played and won per game kind, average and best final score, and the last games.

    A game counts as played once finished; its score is the player's final
    total (a pair's total for pairs games). A shared win counts as a win.
    ``games`` may hold games without ``name``: they are skipped.
    """
    by_kind: dict[str, KindStats] = {}
    lines: list[GameLine] = []
    for game in games:
        if name not in game.players:
            continue
        seat = game.players.index(name)
        result = game.result
        total = result.totals[seat]
        won = result.finished and seat in result.winners
        stats = by_kind.setdefault(game.kind, KindStats(game.kind))
        if result.finished:
            assert total is not None  # a game hides its totals only until its end
            stats.played += 1
            stats.won += won
            stats.points += total
            stats.best = total if stats.best is None else max(stats.best, total)
        else:
            stats.in_progress += 1
        lines.append(
            GameLine(game.game_id, game.kind, game.when, game.players, seat, total, result.finished, won)
        )
    lines.sort(key=lambda line: (line.when, line.game_id), reverse=True)
    kinds = sorted(by_kind.values(), key=lambda k: (-(k.played + k.in_progress), k.kind))
    return PlayerStats(name=name, kinds=kinds, recent=lines[:recent], games=len(lines))


# -- The running-totals chart -----------------------------------------------------


@dataclass(frozen=True)
class Series:
    """One side's line: its label, the SVG path, the dots and its total now (None: unknown)."""

    index: int
    label: str
    path: str
    dots: tuple[tuple[float, float], ...]
    total: int | None


@dataclass(frozen=True)
class Tick:
    at: float
    label: str


@dataclass(frozen=True)
class Chart:
    """Everything ``templates/games/_chart.html`` draws, in SVG user units."""

    width: int
    height: int
    left: float
    top: float
    right: float
    bottom: float
    series: tuple[Series, ...]
    y_ticks: tuple[Tick, ...]
    x_ticks: tuple[Tick, ...]
    zero: float | None
    # Tiebreak deals: spans of x shaded behind the lines.
    bands: tuple[tuple[float, float], ...]
    deals: int


def running_totals(scores: Sequence[Sequence[int | None]], seats: Sequence[int]) -> list[int | None]:
    """The running total after each deal for the side whose first seat is ``seats[0]``, from 0.

    Once a score is unknown, the total is unknown from then on.
    """
    out: list[int | None] = [0]
    for row in scores:
        last = out[-1]
        value = row[seats[0]]
        out.append(None if last is None or value is None else last + value)
    return out


def nice_step(span: float, target: int = 5) -> int:
    """A round step (1, 2 or 5 times a power of ten) giving about ``target`` intervals."""
    raw = max(span / target, 1)
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return int(factor * power)
    return int(10 * power)  # pragma: no cover - the loop always returns


def running_chart(
    labels: Sequence[str],
    totals: Sequence[Sequence[int | None]],
    tiebreak: Sequence[bool] = (),
    width: int = 360,
    height: int = 200,
    number: Callable[[int], str] = str,
) -> Chart | None:
    """The geometry of a line chart: one line per side through its running totals.

    ``totals[i]`` holds side ``i``'s totals from the start (0) through the
    last deal; ``tiebreak[k]`` marks deal ``k`` (from 0) as a tiebreak deal.
    None when there is no deal to draw yet.
    """
    deals = max((len(t) for t in totals), default=1) - 1
    if deals < 1:
        return None
    known = [v for line in totals for v in line if v is not None]
    lo, hi = min([0, *known]), max([0, *known])
    step = nice_step(hi - lo)
    lo = math.floor(lo / step) * step
    hi = max(math.ceil(hi / step) * step, lo + step)
    y_values = range(lo, hi + 1, step)
    digits = max(len(number(v)) for v in y_values)
    left, top, right, bottom = 8 + 6.5 * digits, 8.0, width - 10.0, height - 22.0

    def x_at(k: float) -> float:
        return round(left + (right - left) * k / deals, 1)

    def y_at(v: float) -> float:
        return round(bottom - (bottom - top) * (v - lo) / (hi - lo), 1)

    series = []
    for i, (label, line) in enumerate(zip(labels, totals, strict=True)):
        parts, dots, pen_down = [], [], False
        for k, v in enumerate(line):
            if v is None:
                pen_down = False
                continue
            point = (x_at(k), y_at(v))
            parts.append(("L" if pen_down else "M") + f"{point[0]:g} {point[1]:g}")
            if k:
                dots.append(point)
            pen_down = True
        # The total now, or None ("?") while it is unknown: never an older figure that looks current.
        series.append(Series(i, label, " ".join(parts), tuple(dots), line[-1] if line else None))
    every = max(1, math.ceil(deals / 12))
    x_ticks = tuple(Tick(x_at(k), str(k)) for k in range(1, deals + 1) if k % every == 0 or k == deals)
    bands = tuple((x_at(k), x_at(k + 1)) for k, tb in enumerate(tiebreak) if tb)
    return Chart(
        width=width,
        height=height,
        left=left,
        top=top,
        right=right,
        bottom=bottom,
        series=tuple(series),
        y_ticks=tuple(Tick(y_at(v), number(v)) for v in y_values),
        x_ticks=x_ticks,
        zero=y_at(0) if lo < 0 < hi else None,
        bands=bands,
        deals=deals,
    )
