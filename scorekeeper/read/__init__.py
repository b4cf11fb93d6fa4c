"""The read side: the one way every page, answer, export and chart sees a game.

One job a module: :mod:`.views` (a game as one role sees it, scored once per version per
request), :mod:`.redaction` (hidden values leave here and nowhere else), :mod:`.summaries` (what
the lists show), :mod:`.public` (the public record of the API and exports) and :mod:`.seats`
(what a seat alone may read: its own pending orders). Callers use the names below: ``read.game_view(game, role)``.
"""

from ..scoring import result  # the game's unredacted result at its version (never shown as it is)
from .public import (
    TableState,
    event_games,
    event_of,
    export_record,
    plain_text,
    public_record,
    rendered,
    table_state,
    with_event,
    with_waiting,
)
from .redaction import PublicResult, redact
from .seats import SeatConsole, seat_console
from .summaries import Summary, list_views, summarize, summary_of
from .views import (
    SCORER,
    SHORT_NAME,
    VIEWER,
    ChartSeries,
    GameView,
    NextGame,
    Role,
    Standing,
    Status,
    build_view,
    chart_series,
    facts_before,
    game_view,
    preview,
    preview_deal,
    seat_role,
    seats_of,
    short_names,
    standings,
    state_before,
)

__all__ = [
    "SCORER",
    "SHORT_NAME",
    "VIEWER",
    "ChartSeries",
    "GameView",
    "NextGame",
    "PublicResult",
    "Role",
    "SeatConsole",
    "Standing",
    "Status",
    "Summary",
    "TableState",
    "build_view",
    "chart_series",
    "event_games",
    "event_of",
    "export_record",
    "facts_before",
    "game_view",
    "list_views",
    "plain_text",
    "preview",
    "preview_deal",
    "public_record",
    "redact",
    "rendered",
    "result",
    "seat_console",
    "seat_role",
    "seats_of",
    "short_names",
    "standings",
    "state_before",
    "summarize",
    "summary_of",
    "table_state",
    "with_event",
    "with_waiting",
]
