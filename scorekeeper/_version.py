"""The one place the version is written: the package metadata (pyproject.toml reads it here),
``scorekeeper --version`` and ``/healthz`` all take it from this line."""

__version__ = "0.2.0"
