"""The one refusal vocabulary: what any part of the house raises to say "no", and how.

A :class:`Refusal` names each problem's field (and the deal or seat where one is meant) with a
translatable message (:class:`~scorekeeper.rules.Msg`, ``{}``-style placeholders) and carries
the HTTP status it answers. The web turns it into a page (the form kept, the message at its
field) or the API's ``{"errors": [{"field", "message"}]}``, translated there, for every caller
(``web.errors.refused``). Only the kinds that need their own handling are subclasses.

Pure: no Flask, no database.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .rules.base import FieldError, Msg, msg


class Refusal(Exception):
    """A request refused; nothing it asked for was done. 422 unless said otherwise."""

    status = 422

    def __init__(
        self,
        field: str | None = None,
        message: Msg | str = "",
        status: int | None = None,
        *,
        seat: int | None = None,
        deal: int | None = None,
        errors: Sequence[FieldError] = (),
        **params: Any,
    ):
        if isinstance(message, str):
            message = msg(message, **params)
        # A refusal of no one field is field "" in the rules' vocabulary, null in the API's.
        self.errors: list[FieldError] = list(errors) or [FieldError(field or "", message, seat, deal)]
        if status is not None:
            self.status = status
        super().__init__("; ".join(f"{e.field}: {e.message.render()}" for e in self.errors))

    @property
    def field(self) -> str | None:
        return self.errors[0].field or None

    @property
    def message(self) -> Msg:
        return self.errors[0].message


class Missing(Refusal):
    """What the caller may not see, or that is not there (the same answer: existence is not revealed)."""

    status = 404


class Denied(Refusal):
    """The caller is known but may not do this."""

    status = 403


class Clash(Refusal):
    """Not now: the state of things refuses it (a round still open, a result confirmed already)."""

    status = 409


def refuse(field: str | None, text: str, **params: Any) -> Refusal:
    """A 422 refusal of one field (``text`` marked with ``N_``, ``{}``-style placeholders)."""
    return Refusal(field, msg(text, **params))
