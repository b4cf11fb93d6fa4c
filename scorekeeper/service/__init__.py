"""Reading and changing games: the one place the web pages, the JSON API and the CLI share.

By concern:

- :mod:`.intake`: a game record read in (parsed, checked by replaying it);
- :mod:`.new_game_gate`: a new game made in one transaction;
- :mod:`.gate`: the write gate (versions, idempotency, every change recorded);
- :mod:`.history`: the history of changes and undo, through the same gate.

What anyone may *see* of a game comes from :mod:`scorekeeper.read`, which redacts.
"""

from __future__ import annotations

from ..scoring import FORMAT, full_record, game_rules, replay, setup_of
from .gate import (
    RETRIES,
    AlreadyDone,
    CannotUndo,
    Conflict,
    DealGone,
    GameGone,
    Via,
    append_deal,
    append_deals,
    archive_game,
    correct_to_end,
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
from .intake import RecordError, check_record, new_id, new_token, parse_record
from .locks import TableLocked
from .new_game_gate import create_game, stage_game
from .seats import send_orders

__all__ = [
    "FORMAT",
    "RETRIES",
    "AlreadyDone",
    "CannotUndo",
    "Conflict",
    "DealGone",
    "GameGone",
    "RecordError",
    "TableLocked",
    "send_orders",
    "Via",
    "append_deal",
    "append_deals",
    "archive_game",
    "can_undo",
    "check_record",
    "correct_to_end",
    "create_game",
    "created_by",
    "delete_deal",
    "delete_game",
    "find_change",
    "full_record",
    "game_rules",
    "history",
    "latest_change",
    "new_id",
    "new_token",
    "parse_record",
    "rename_seat",
    "replace_deal",
    "restore_game",
    "save_draft",
    "replay",
    "set_allotment",
    "set_options",
    "setup_of",
    "stage_game",
    "undo",
]
