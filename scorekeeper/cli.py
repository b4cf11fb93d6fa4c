"""The ``scorekeeper`` command: Flask's CLI bound to this app, plus ``serve`` (the production server).

Listing the commands and printing help build the app without starting it: no
instance folder, secret key or database is created until a command really
uses the app (``serve``, ``run``, ``export``, ``shell``...).
"""

from __future__ import annotations

import os
import sys

import click
from flask.cli import FlaskGroup, ScriptInfo, run_command

from . import __version__, create_app, own_instance, start_app
from .problems import AnswersHostProblems


def set_instance(ctx: click.Context, param: click.Parameter, value: str | None) -> None:
    # In the environment, so every process (gunicorn's workers, the reloader's child) sees it.
    if value:
        os.environ["SCOREKEEPER_INSTANCE"] = os.path.abspath(os.path.expanduser(value))


INSTANCE_HELP = (
    "Folder for the SQLite database, secret key and config.py (env SCOREKEEPER_INSTANCE; default: "
    "instance/ in a checkout, ~/.local/share/scorekeeper for an installed package)."
)


def instance_option() -> click.Option:
    return click.Option(
        ["--instance"],
        metavar="DIR",
        expose_value=False,
        is_eager=True,
        callback=set_instance,
        help=INSTANCE_HELP,
    )


class ScorekeeperGroup(AnswersHostProblems, FlaskGroup):
    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        command = super().get_command(ctx, name)
        # i18n and routes never need a started app (a database, a key); run and serve start it
        # themselves; Flask-Migrate's db manages the schema itself, in the instance folder.
        if command is None or name in ("i18n", "routes", "run", "serve"):
            return command
        inner = command.invoke

        def invoke(sub_ctx: click.Context):
            # Only now, past option parsing (so never for --help), does the command use the app.
            app = sub_ctx.ensure_object(ScriptInfo).load_app()
            if name == "db":
                own_instance(app)  # as serve makes them: the folder 0700, the database 0600
            elif not (name == "import" and sub_ctx.params.get("dry_run")):
                # A dry run only reads the file and checks it by the rules: no instance folder,
                # no database, no secret key is made for it.
                start_app(app)
            return inner(sub_ctx)

        # click has no hook between parsing and running a command: its invoke is wrapped.
        command.invoke = invoke  # type: ignore[method-assign, assignment]
        return command


@click.pass_context
def _run(ctx: click.Context, **options) -> None:
    import werkzeug.serving

    # Werkzeug colours its log lines: only for a person at a terminal, never into a file or a pipe.
    werkzeug.serving._log_add_style = sys.stderr.isatty()
    start_app(ctx.ensure_object(ScriptInfo).load_app())
    assert run_command.callback is not None  # Flask's run command is a function's
    ctx.invoke(run_command.callback, **options)


run = click.Command(
    "run",
    callback=_run,
    params=list(run_command.params),
    help="Run the development server (reloads on code changes). For the table, use 'serve'.",
    short_help="Run the development server.",
)


@click.command("serve", params=[instance_option()])
@click.option(
    "--host", default="127.0.0.1", show_default=True, help="Address to listen on; 0.0.0.0 for phones."
)
@click.option("--port", default=8000, show_default=True, type=int)
@click.option(
    "--workers",
    type=click.IntRange(min=1),
    default=None,
    help="Worker processes [default: one per CPU core, at most 4].",
)
# Two threads per worker: one slow request (a PDF printed) never stops a worker, and no more
# threads take turns at the one interpreter lock than it can run. Single 3,000-table runs of the
# sweep on one seeded database (benchmarks/run.py --sweep's scenario) gave, for 1 / 2 / 4 / 8
# threads, deal posts' p99 34 / 50 / 375 / 813 ms and a deal seen in 7.5 / 7.4 / 9.2 / 8.8 s
# (median), 15.0 / 15.8 / 30.8 / 27.2 s (p95); the full benchmark's sweep, after its other
# figures, showed 2 and 4 alike (8.4 and 8.3 s): the box's noise is as large as the gain.
@click.option(
    "--threads", type=click.IntRange(min=1), default=2, show_default=True, help="Threads per worker."
)
@click.option("-v", "--verbose", is_flag=True, help="Also print the database migrations' lines at start.")
def serve(host: str, port: int, workers: int | None, threads: int, verbose: bool) -> None:
    """Serve the app for real: gunicorn, several workers, one access-log line per request."""
    from .serve import server

    if verbose:  # in the environment: the workers start the app too
        os.environ["SCOREKEEPER_VERBOSE"] = "1"

    server.serve(host=host, port=port, workers=workers or server.default_workers(), threads=threads)


def print_version(ctx: click.Context, param: click.Parameter, value: bool) -> None:
    if value and not ctx.resilient_parsing:
        click.echo(f"Scorekeeper {__version__}")
        ctx.exit()


# Flask-Migrate's commands that write migration scripts into the package: a checkout's tools.
# In an installed package they would write into site-packages, so it does not offer them.
DEVELOPMENT_DB_COMMANDS = ("init", "migrate", "revision", "merge", "edit", "list-templates", "check")


def is_checkout() -> bool:
    from .paths import ROOT

    return (ROOT / "pyproject.toml").is_file()


def installed_db_commands() -> None:
    from flask_migrate.cli import db as db_group

    for name in DEVELOPMENT_DB_COMMANDS:
        db_group.commands.pop(name, None)


def build_cli() -> click.Group:
    cli = ScorekeeperGroup(
        create_app=lambda: create_app(start=False),
        help="Scorekeeper: scoring for card games played with real cards.",
        # Our version, not Flask's and Werkzeug's (which FlaskGroup's own --version prints).
        add_version_option=False,
        params=[
            instance_option(),
            click.Option(
                ["--version"],
                is_flag=True,
                expose_value=False,
                is_eager=True,
                callback=print_version,
                help="Show Scorekeeper's version and exit.",
            ),
        ],
    )
    cli.add_command(run)
    cli.add_command(serve)
    if not is_checkout():
        installed_db_commands()
    return cli


def main() -> None:
    build_cli()(prog_name="scorekeeper")
