"""The server side of issue 39: the access log's redaction parses the request target as the app
does (server.redact), so a credential is hidden however it is spelled and a line without one is
written as it came; ``db upgrade`` makes a new instance the owner's only, as ``serve`` does."""

from __future__ import annotations

import pytest

from scorekeeper.serve.server import redact


@pytest.mark.parametrize(
    "line, secret",
    [
        ("DELETE /api/clubs/thursday/invites/INV1TE HTTP/1.1", "INV1TE"),
        ("DELETE /api/clubs/thursday/invites/INV1TE?x=1 HTTP/1.1", "INV1TE"),
        ("GET /g/abc?k%65y=K3Y HTTP/1.1", "K3Y"),
        ("GET /g/abc?%6Bey=K3Y&lang=pl HTTP/1.1", "K3Y"),
        ("GET /g/abc?KEY=K3Y HTTP/1.1", "K3Y"),
        ("GET /c/thursday/join%2FINV1TE HTTP/1.1", "INV1TE"),
        ("GET /c/thursday/%6Aoin/INV1TE HTTP/1.1", "INV1TE"),
        ("GET /g/abc/%70/2/T0KEN HTTP/1.1", "T0KEN"),
        ("GET /g/abc/p/2/T0KEN/live?part=live HTTP/1.1", "T0KEN"),
        ("GET /api/clubs/x?member%5Fkey=M3MBER HTTP/1.1", "M3MBER"),
        ("POST /api/clubs/x/join?invite=INV1TE HTTP/1.1", "INV1TE"),
        ("GET http://scores.example.org/g/abc?key=K3Y HTTP/1.1", "K3Y"),
    ],
)
def test_a_credential_is_hidden_however_it_is_spelled(line, secret):
    redacted = redact(line)
    assert secret not in redacted and "…" in redacted
    assert redacted.split(" ")[0] == line.split(" ")[0] and redacted.endswith(" HTTP/1.1")


@pytest.mark.parametrize(
    "line",
    [
        "GET /g/abc/live?part=live&as=scorer HTTP/1.1",
        "POST /api/games/abc/deals HTTP/1.1",
        "GET /c/thursday/players HTTP/1.1",
        "GET /static/app.js?v=1a2b HTTP/1.1",
    ],
)
def test_a_line_without_a_credential_is_kept_as_it_came(line):
    assert redact(line) == line


def test_a_decoded_control_character_never_reaches_the_log_as_itself():
    redacted = redact("GET /c/x/join/INV%0Afake-line?key=1 HTTP/1.1")
    assert "\n" not in redacted and "INV" not in redacted


def test_db_upgrade_makes_a_new_instance_the_owners_only_as_serve_does(tmp_path):
    import os
    import subprocess
    import sys

    instance = tmp_path / "new" / "instance"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY", "AUTO_MIGRATE")}
    env = {k: v for k, v in env.items() if not k.startswith("SCOREKEEPER_")}
    env["SCOREKEEPER_INSTANCE"] = str(instance)
    done = subprocess.run(
        [sys.executable, "-c", "from scorekeeper.cli import main; main()", "db", "upgrade"],
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert (instance.stat().st_mode & 0o777) == 0o700
    assert ((instance / "scorekeeper.sqlite").stat().st_mode & 0o777) == 0o600


def test_the_hosting_guide_keeps_the_port_behind_the_proxy_when_proxy_fix_is_set():
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    guide = (root / "docs" / "hosting.md").read_text("utf-8")
    said = guide[guide.index("With `PROXY_FIX` set, the app's port must be reachable only through") :]
    assert "scorekeeper serve --host 127.0.0.1" in said[:1200] and "-p 127.0.0.1:8000:8000" in said[:1200]
    # What the repository ships does so.
    assert '"127.0.0.1:8000:8000"' in (root / "compose.yaml").read_text("utf-8")
    assert "--host 127.0.0.1" in (root / "deploy" / "scorekeeper.service").read_text("utf-8")
