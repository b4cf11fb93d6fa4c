"""Secret Agent (David Parlett): four players, each multiplying by an agent's tricks.

See ``shared/rules/secret-agent.md``. Facts per deal: ``tricks`` (four ints
summing to 13), ``agents`` (a permutation of L, O, R, S) and an optional
``trump`` call that is recorded but does not change the score.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from typing import Any

from ...rules.base import (
    N_,
    Chosen,
    DealScore,
    FieldError,
    Game,
    Msg,
    Option,
    Setup,
    check_choices,
    check_counts,
    msg,
    one_of,
    refuse,
    require_keys,
)
from ...rules.cards import TRUMPS

TRICKS = 13
MISERE_COUNT = 10

# Seat offset of each assignment card, clockwise from the holder.
CARDS = {"L": 1, "O": 2, "R": 3, "S": 0}
CARD_NAMES = {"L": N_("Left"), "O": N_("Opposite"), "R": N_("Right"), "S": N_("Self")}
AGENTS = Chosen(
    shape=N_("Give one assignment card per player."),
    wrong=N_("{player}: the card is Left, Opposite, Right or Self."),
    blank=N_("Choose {player}'s assignment card."),
    repeat=N_("{card} is given to both {other} and {player}: each card is dealt once."),
    name="card",
)


def agent_of(seat: int, card: str) -> int:
    """The seat whose tricks multiply ``seat``'s own: Left is the next seat clockwise."""
    return (seat + CARDS[card]) % 4


def count(tricks: int) -> int:
    """A player's factor: his tricks, or 10 for misère (no trick)."""
    return MISERE_COUNT if tricks == 0 else tricks


class SecretAgent(Game):
    key = "secret_agent"
    title = N_("Secret Agent")
    player_counts = (4,)
    options = (
        Option(
            "deals",
            N_("Number of deals"),
            4,
            minimum=1,
            maximum=52,
            help=N_("A multiple of 4 lets everyone deal equally often."),
            suggestions=(4, 8, 12),
        ),
    )
    fact_keys = ("tricks", "agents", "trump")

    def check_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> list[FieldError]:
        errors = require_keys(facts, self.fact_keys, ("tricks", "agents"))
        if errors:
            return errors
        errors += check_counts(facts["tricks"], "tricks", setup, 0, TRICKS, total=TRICKS)[0]
        errors += check_choices(facts["agents"], "agents", setup, AGENTS, CARD_NAMES)[0]
        trump = facts.get("trump")
        if trump is not None and not one_of(trump, TRUMPS):
            errors.append(refuse("trump", N_("Trump is one of the four suits or No Trump.")))
        return errors

    def random_deal(self, setup: Setup, state: Any, dealer: int, rng: random.Random) -> dict[str, Any]:
        cuts = sorted(rng.randint(0, TRICKS) for _ in range(3))
        tricks = [b - a for a, b in zip([0, *cuts], [*cuts, TRICKS], strict=True)]
        agents = list(CARDS)
        rng.shuffle(agents)
        facts: dict[str, Any] = {"tricks": tricks, "agents": agents}
        if rng.random() < 0.7:
            facts["trump"] = rng.choice(list(TRUMPS))
        return facts

    def score_deal(self, setup: Setup, state: Any, facts: Mapping[str, Any], dealer: int) -> DealScore:
        tricks, agents = facts["tricks"], facts["agents"]
        scores, explanations = [], []
        for seat in range(4):
            agent = agent_of(seat, agents[seat])
            own, theirs = count(tricks[seat]), count(tricks[agent])
            scores.append(own * theirs)
            explanations.append(explain(setup, seat, agent, agents[seat], own, theirs, tricks))
        trump = facts.get("trump")
        summary = msg(N_("Trump: {trump}"), trump=Msg(TRUMPS[trump])) if trump else None
        return DealScore(tuple(scores), tuple(explanations), summary=summary)


def factor(tricks: int) -> Msg:
    """A factor as the explanation shows it: misère reads as its count 10."""
    if tricks == 0:
        return msg(N_("{count} (misère)"), count=MISERE_COUNT)
    return msg("{count}", count=tricks)


def explain(
    setup: Setup, seat: int, agent: int, card: str, own: int, theirs: int, tricks: Sequence[int]
) -> Msg:
    if card == "S":
        return msg(
            N_("{own} x {own} (own agent, Self) = {score}"),
            own=factor(tricks[seat]),
            score=own * theirs,
        )
    return msg(
        N_("{own} x {theirs} (agent {agent}, {card}) = {score}"),
        own=factor(tricks[seat]),
        theirs=factor(tricks[agent]),
        agent=setup.players[agent],
        card=Msg(CARD_NAMES[card]),
        score=own * theirs,
    )
