"""Reading and changing games: the one place the web pages, the JSON API and the CLI share.

By concern:

- :mod:`.record`: the game record format (check one in, score a stored game, the full record);
- :mod:`.gate`: the write gate (versions, idempotency, every change recorded);
- :mod:`.history`: the history of changes and undo, through the same gate.

What anyone may *see* of a game comes from :mod:`scorekeeper.read`, which redacts.
"""

from __future__ import annotations

from typing import Any

from ..models import Game
from ..rules import GameResult
from .gate import (
    RETRIES,
    AlreadyDone,
    CannotUndo,
    Conflict,
    DealGone,
    GameGone,
    Via,
    append_deal,
    archive_game,
    correct_to_end,
    create_game,
    delete_deal,
    delete_game,
    rename_seat,
    replace_deal,
    restore_game,
    save_draft,
    set_allotment,
    set_options,
)
from .history import can_undo, created_by, find_change, history, latest_change, undo
from .record import (
    FORMAT,
    RecordError,
    check_record,
    full_record,
    game_rules,
    new_token,
    parse_record,
    score,
    score_appended,
    score_more,
    score_on,
    setup_of,
)


def export_record(game: Game, result: GameResult | None = None, translate=None) -> dict[str, Any]:
    """The public game record (backups and the CLI call it here); see :func:`scorekeeper.read.public_record`."""
    from .. import read

    render = (lambda m: m.render(translate)) if translate else None
    return read.public_record(game, result, render)


__all__ = [
    "FORMAT",
    "RETRIES",
    "AlreadyDone",
    "CannotUndo",
    "Conflict",
    "DealGone",
    "GameGone",
    "RecordError",
    "Via",
    "append_deal",
    "archive_game",
    "can_undo",
    "check_record",
    "correct_to_end",
    "create_game",
    "created_by",
    "delete_deal",
    "delete_game",
    "export_record",
    "find_change",
    "full_record",
    "game_rules",
    "history",
    "latest_change",
    "new_token",
    "score_appended",
    "score_more",
    "score_on",
    "parse_record",
    "rename_seat",
    "replace_deal",
    "restore_game",
    "save_draft",
    "score",
    "set_allotment",
    "set_options",
    "setup_of",
    "undo",
]
