"""The worker's waiting connections (scorekeeper/serve/connections.py) behave as the deque gunicorn
keeps them in, for everything gunicorn does with them, while removing one costs no scan."""

from __future__ import annotations

from collections import deque

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.serve.connections import Connections


class Conn:
    """A connection as gunicorn's are: compared by identity."""

    def __init__(self, n: int) -> None:
        self.n = n

    def __repr__(self) -> str:
        return f"Conn({self.n})"


# Each step: ("append", k) a new connection, ("remove", i) the i-th waiting one (mod how many),
# ("popleft", 0) the oldest, ("first", 0) the oldest looked at.
STEPS = st.lists(
    st.tuples(st.sampled_from(["append", "remove", "popleft", "first"]), st.integers(0, 50)), max_size=60
)


@given(STEPS)
def test_every_step_gunicorn_takes_answers_as_its_deque_does(steps):
    model: deque = deque()
    kept = Connections()
    made = 0
    for op, i in steps:
        if op == "append":
            conn = Conn(made)
            made += 1
            model.append(conn)
            kept.append(conn)
        elif op == "remove" and model:
            conn = model[i % len(model)]
            model.remove(conn)
            kept.remove(conn)
        elif op == "popleft":
            if model:
                assert kept.popleft() is model.popleft()
            else:
                with pytest.raises(IndexError):
                    kept.popleft()
        elif op == "first":
            if model:
                assert kept[0] is model[0]
            else:
                with pytest.raises(IndexError):
                    kept[0]
        assert len(kept) == len(model)
        assert bool(kept) == bool(model)
        assert list(kept) == list(model)


def test_removing_a_connection_not_waiting_says_so_as_the_deque_does():
    kept = Connections()
    kept.append(Conn(1))
    with pytest.raises(ValueError):
        kept.remove(Conn(2))
    assert len(kept) == 1


def test_going_through_them_while_closing_some_is_safe():
    # gunicorn's _cap_keepalive goes through them as the worker stops; a close meanwhile removes one.
    conns = [Conn(n) for n in range(5)]
    kept = Connections()
    for conn in conns:
        kept.append(conn)
    seen = []
    for conn in kept:
        seen.append(conn)
        if conn is conns[1]:
            kept.remove(conns[3])
    assert seen == conns
    assert list(kept) == [conns[0], conns[1], conns[2], conns[4]]
