"""The API's record as JSON text, each deal encoded once per process (its one user: :mod:`.games`).

The API answers every write with the whole record; a long game's earlier deals are the same
objects after an append (the scored result is carried on), so their encoded text is kept and
the record is spliced around it. Kept because it pays: at 240 deals, 0.03 ms against 1.6 ms for
a whole ``jsonify`` (benchmarks/run.py, "cache: record JSON splicing").
"""

from __future__ import annotations

import secrets
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from flask import current_app

from ... import read, scoring, stores
from ...models import AnyGame
from ...rules import GameResult


def record_json(game: AnyGame, result: GameResult | None = None) -> str:
    """:func:`read.public_record` as the API sends it: the JSON text Flask's ``jsonify`` would write.

    The API answers every write with the whole record, so a long game's earlier deals are
    encoded once per process: a deal scored on from a known result is the same object as
    before (an append keeps them), and its encoded parts are reused. A correction that
    rescores the game encodes it anew; a game hiding values takes the plain way.
    """
    result = result or read.result(game)
    provider: Any = current_app.json  # Flask's default provider: compact is none of JSONProvider's
    if (provider.compact is None and current_app.debug) or provider.compact is False:
        return provider.dumps(read.public_record(game, result))
    kind = scoring.game_rules(game)
    if kind.hides_scores(result.setup) and not result.finished:
        return _dumps(read.public_record(game, result))
    store = RECORD_PARTS()
    encoded = store.get(game.id)
    deals = result.deals
    # The deals encoded last time, if this result starts with them: the same objects (compared
    # by identity first, so a long prefix costs a pointer each) or equal ones encode the same.
    if encoded is None or len(encoded.deals) > len(deals) or deals[: len(encoded.deals)] != encoded.deals:
        encoded = _Encoded((), "", "", "")
    if len(deals) > len(encoded.deals):
        encoded = encoded.plus(deals[len(encoded.deals) :])
    store.put(game.id, encoded)
    # The record without its deals, each list a placeholder string that its encoded deals replace.
    record = scoring.full_record(game, replace(result, deals=()), read.plain_text)
    read.with_waiting(record, game, result)
    read.with_event(record, game)
    lists = {kind.record_key: encoded.facts, "scores": encoded.scores, "explanations": encoded.explanations}
    for key in lists:
        record[key] = f"{_SLOT}{key}"
    text = _dumps(record)
    for key, items in lists.items():
        text = text.replace(f'"{_SLOT}{key}"', f"[{items}]", 1)
    return text


@dataclass(frozen=True)
class _Encoded:
    """A game's deals as the record's three lists hold them, each list's items already JSON."""

    deals: tuple[Any, ...]
    facts: str
    scores: str
    explanations: str

    def plus(self, deals: Sequence[Any]) -> _Encoded:
        """These lists with ``deals`` encoded after them."""

        def extend(text: str, items: Iterable[str]) -> str:
            return ",".join([text, *items] if self.deals else items)

        return _Encoded(
            self.deals + tuple(deals),
            extend(self.facts, (_dumps(d.facts) for d in deals)),
            extend(self.scores, (_dumps(list(d.scores)) for d in deals)),
            extend(self.explanations, (_dumps([read.plain_text(x) for x in d.explanations]) for d in deals)),
        )


def _dumps(value: Any) -> str:
    """JSON text as Flask's ``jsonify`` writes it (its provider's settings, compact)."""
    return current_app.json.dumps(value, separators=(",", ":"))


# No text of a record holds this (128 random bits, drawn per process), nor its JSON escapes.
_SLOT = "slot-" + secrets.token_hex(16) + "-"


# Games whose record parts this process keeps (a long game's parts are a few hundred KB at most).
RECORD_PARTS_SIZE = 128
RECORD_PARTS = stores.store("record_parts", RECORD_PARTS_SIZE, doc="each game's deals encoded as JSON")
