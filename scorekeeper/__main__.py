"""``python -m scorekeeper``: the ``scorekeeper`` command, for a venv whose scripts are not on PATH."""

from .cli import main

main()
