"""Game records of every kind, as a client would import them (docs/api.md's examples come from these)."""

from __future__ import annotations

SECRETS_TURN = {
    # The worked example of the rules (shared/rules/secrets.md): three players, turn 1.
    "orders": [
        [
            {"spy": "club", "target": 1, "secret": 2},
            {"spy": "diamond", "target": 2, "secret": 9},
            {"spy": "heart", "target": 1, "secret": 7},
            {"spy": "spade", "target": 2, "secret": 5},
        ],
        [
            {"spy": "club", "target": 0, "secret": 3},
            {"spy": "diamond", "target": 2, "secret": 9},
            {"spy": "heart", "target": 0, "secret": 8},
            {"spy": "spade", "target": 2, "secret": 1},
        ],
        [
            {"spy": "club", "target": 0, "secret": 8},
            {"spy": "diamond", "target": 1, "secret": 2},
            {"spy": "heart", "target": 0, "secret": 1},
            {"spy": "spade", "target": 1, "secret": 4},
        ],
    ],
    "guards": [3, 7, 5],
}

# Abracadabra, four players: Ann declares 2 (tricks 5 and 11) and wins both.
ABRA_WINNERS = [1, 2, 3, 1, 0, 2, 3, 1, 2, 3, 0, 1, 2]

RECORDS: dict[str, dict] = {
    "secret_agent": {
        "format": "scorekeeper-game/1",
        "game": "secret_agent",
        "options": {"deals": 4},
        "players": ["Ann", "Bob", "Cid", "Dee"],
        "first_dealer": 0,
        "deals": [{"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"], "trump": "NT"}],
    },
    "spades": {
        "game": "spades",
        "options": {"mode": "partnership", "target": 500, "blind_nil": True},
        "players": ["Ann", "Bob", "Cid", "Dee"],
        "deals": [
            {"bids": [4, 3, 5, 0], "tricks": [5, 3, 5, 0], "blind": [False, False, False, True]},
            {"bids": [3, 4, 3, 2], "tricks": [4, 4, 3, 2]},
        ],
    },
    "spades_cutthroat": {
        "game": "spades",
        "players": ["Ann", "Bob", "Cid"],
        "deals": [{"bids": [5, 6, 4], "tricks": [6, 6, 6]}],
    },
    "euchre": {
        "game": "euchre",
        "options": {"target": 10, "stick_the_dealer": False},
        "players": ["Ann", "Bob", "Cid", "Dee"],
        "first_dealer": 3,
        "deals": [
            {"trump": "H", "round": 1, "maker": 0, "alone": False, "defender_alone": None, "maker_tricks": 3},
            {"thrown_in": True},
            {"trump": "S", "round": 2, "turned_up": "D", "maker": 1, "alone": True, "maker_tricks": 5},
        ],
    },
    "abracadabra": {
        "game": "abracadabra",
        "players": ["Ann", "Bob", "Cid", "Dee"],
        "deals": [
            {
                "trump": "S",
                "suits": ["H", "S", "D", "C"],
                "declarer": 0,
                "bid": 2,
                "bid_cards": [[5, 11], [1], [], []],
                "exposed": [],
                "piles_exposed": [False, False, False, False],
                "trick_winners": ABRA_WINNERS,
                "suit_cards": [2, 3, 4, 3],
            }
        ],
    },
    # The same kind of deal as the players report it (issue 53): counts and bid cards won.
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
    "secrets": {
        "game": "secrets",
        "players": ["Ann", "Bob", "Cid"],
        "turns": [SECRETS_TURN],
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
    "tally": {
        "game": "tally",
        "options": {"teams": [[0, 2], [1, 3]]},
        "players": ["Ann", "Bob", "Cid", "Dee"],
        "deals": [{"points": [10, -5, 3, 0], "note": "Slam"}, {"points": [0, 2, 2, 1]}, {"end": True}],
    },
}
