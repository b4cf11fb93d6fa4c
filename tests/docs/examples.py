"""Game records of every kind, as a client would import them (docs/api.md's examples come from these)."""

from __future__ import annotations

import json

from scorekeeper import games

# Each game's own example record is in its folder (games/<key>/example.json, the one docs/api.md
# shows); here are the variants beside them.
VARIANTS: dict[str, dict] = {
    "spades_cutthroat": {
        "game": "spades",
        "players": ["Ann", "Bob", "Cid"],
        "deals": [{"bids": [5, 6, 4], "tricks": [6, 6, 6]}],
    },
    # Abracadabra's deal as the players report it (issue 53): counts and bid cards won.
    "abracadabra_told": {
        "game": "abracadabra",
        "players": ["Helen", "David", "Cid", "Dee"],
        "deals": [
            {
                "trump": "D",
                "suits": ["H", "S", "D", "C"],
                "declarer": 3,
                "bid": 3,
                "bid_cards": [[5, 11], [4, 12], [1, 2], [6, 7, 8]],
                "tricks": [7, 4, 2, 0],
                "bid_won": [[5, 11], [4, 12], [1, 2], []],
                "suit_cards": [6, 5, 1, 0],
            }
        ],
    },
    "hidden_secrets": {
        "game": "secrets",
        "options": {
            "hidden": True,
            "values": [[0, 0, 0, 0, 0, 9, 9, 9, 9, 9], [4, 4, 4, 4, 4, 5, 5, 5, 5, 5]]
            + [[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]],
        },
        "players": ["Ann", "Bob", "Cid"],
        "turns": [],
    },
}


def example(key: str) -> dict:
    """The registered game's example record, from its folder."""
    return json.loads((games.FOLDERS[key].path / "example.json").read_text(encoding="utf-8"))


RECORDS: dict[str, dict] = {**{key: example(key) for key in games.FOLDERS}, **VARIANTS}
