"""Secrets: spies_may_stay on for stored games that left a free spy at home

Every free spy must now get an order each turn unless the game's option
``spies_may_stay`` is on. Games recorded before that rule may have turns with
spies left at home; turning the option on for exactly those games keeps every
recorded game valid (nothing lost). Other Secrets games keep the original rule.

Revision ID: 5d1c0a7e9b21
Revises: e02ae4bc14e8
Create Date: 2026-11-22 13:20:00

"""

import sqlalchemy as sa
from alembic import op

# revision identifiers, used by Alembic.
revision = "5d1c0a7e9b21"
down_revision = "e02ae4bc14e8"
branch_labels = None
depends_on = None

SPIES = ("club", "diamond", "heart", "spade")

game = sa.table(
    "game",
    sa.column("id", sa.String),
    sa.column("kind", sa.String),
    sa.column("options", sa.JSON),
)
deal = sa.table(
    "deal",
    sa.column("game_id", sa.String),
    sa.column("position", sa.Integer),
    sa.column("facts", sa.JSON),
)


def leaves_a_spy_home(turns):
    """True when some turn gives no order to a spy still free.

    Frozen here rather than imported from the rules, so this revision means the same
    whatever the rules become. A spy sent to the secret its owner guards is captured
    (secrets.md, rule 1, whether or not the secret was stolen before); nothing else
    takes a spy out of the game.
    """
    captured = {}
    for facts in turns:
        orders, guards = facts.get("orders"), facts.get("guards")
        if not isinstance(orders, list) or not isinstance(guards, list):
            continue
        for seat, mine in enumerate(orders):
            sent = {o.get("spy") for o in mine if isinstance(o, dict)} if isinstance(mine, list) else set()
            if set(SPIES) - captured.get(seat, set()) - sent:
                return True
        for seat, mine in enumerate(orders):
            for o in mine if isinstance(mine, list) else ():
                target = o.get("target") if isinstance(o, dict) else None
                if (
                    isinstance(target, int)
                    and 0 <= target < len(guards)
                    and guards[target] == o.get("secret")
                ):
                    captured.setdefault(seat, set()).add(o.get("spy"))
    return False


def upgrade():
    bind = op.get_bind()
    games = bind.execute(sa.select(game.c.id, game.c.options).where(game.c.kind == "secrets")).all()
    for game_id, options in games:
        options = dict(options or {})
        if "spies_may_stay" in options:
            continue
        turns = bind.execute(
            sa.select(deal.c.facts).where(deal.c.game_id == game_id).order_by(deal.c.position)
        ).scalars()
        if leaves_a_spy_home([t for t in turns if isinstance(t, dict)]):
            options["spies_may_stay"] = True
            bind.execute(game.update().where(game.c.id == game_id).values(options=options))


def downgrade():
    # The older code knows no such option and would refuse every game carrying it.
    bind = op.get_bind()
    games = bind.execute(sa.select(game.c.id, game.c.options).where(game.c.kind == "secrets")).all()
    for game_id, options in games:
        if options and "spies_may_stay" in options:
            options = {k: v for k, v in options.items() if k != "spies_may_stay"}
            bind.execute(game.update().where(game.c.id == game_id).values(options=options))
