"""Abuse limits (placeholder until the Flask-Limiter work lands on this branch)."""


def failed_credential() -> None:
    """A presented credential was wrong: counted against the caller's address."""


def limit(name: str) -> None:
    """Count one creation of ``name`` (games, clubs, joins) against the caller's address."""
