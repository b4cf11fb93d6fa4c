"""Host problems: what stops the server or one of its commands because of how this machine is
installed or set up (a setting that means nothing, a missing extra, no Chromium, a backup file
that cannot be restored), said to the operator, never to a player.

The house has three families of exceptions, each with one root and one place that answers it:
refusals for users (:class:`~scorekeeper.refusals.Refusal`, answered by ``web.errors``),
signals for control flow (:class:`~scorekeeper.refusals.Signal`, caught by whoever raised
them), and these, for operators. A command that meets one ends with its words and exit code 1
(:class:`AnswersHostProblems`), not a traceback.
"""

from __future__ import annotations

from typing import Any

import click
from flask.cli import AppGroup


class HostProblem(Exception):
    """The root of the operator's problems: its words say what is wrong and how to mend it."""


class AnswersHostProblems(click.Group):
    """The one place where a command line turns a :class:`HostProblem` into click's clean
    ``Error: ...`` and exit code 1: mixed into the ``scorekeeper`` command and into the app's
    own command group (``app.cli``, what ``flask`` and a test's runner invoke)."""

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except HostProblem as exc:
            raise click.ClickException(str(exc)) from None


class AppCommands(AnswersHostProblems, AppGroup):
    """The app's own commands (``app.cli``), answering host problems as the ``scorekeeper``
    command does: a test's runner and ``flask`` invoke this group, not that one."""
