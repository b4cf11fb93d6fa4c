"""Public ids are typed at a shell (`scorekeeper export <id>`): one starting with "-" would be
read as an option, as it was once in CI (`export -tG1fh9qfOAuJN06` answered "no such option")."""

from __future__ import annotations

import secrets

from scorekeeper import service


def test_an_id_never_starts_with_a_dash(monkeypatch):
    drawn = iter(["-tG1fh9qfOAuJN06", "--xyz", "tG1fh9qfOAuJN06"])
    monkeypatch.setattr(secrets, "token_urlsafe", lambda nbytes: next(drawn))
    assert service.new_id() == "tG1fh9qfOAuJN06"


def test_ids_are_url_safe_and_as_long_as_before():
    ids = {service.new_id() for _ in range(2000)}
    assert len(ids) == 2000
    assert all(len(i) == 16 and not i.startswith("-") for i in ids)
