"""The ``scorekeeper`` command: Flask's CLI bound to this app (``scorekeeper run``)."""

from flask.cli import FlaskGroup

from . import create_app


def main() -> None:
    FlaskGroup(create_app=create_app, help="Scorekeeper: scoring for card games played with real cards.")(
        prog_name="scorekeeper"
    )
