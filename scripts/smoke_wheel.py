"""Smoke test of an installed scorekeeper (a wheel in a fresh venv), run from an empty directory.

    python scripts/smoke_wheel.py      # with the venv's python; exits non-zero on any failure

Checks that help creates nothing, then starts ``scorekeeper serve`` (gunicorn) on SQLite in a
fresh instance folder and asks it, over HTTP: /healthz, home, a game created through the API
with a deal, its page, a Polish page, /static files, the manifest and service worker; and that
the access log has one line per request with its id and no colour codes.
Uses only the standard library and the installed package.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

RECORD = {
    "format": "scorekeeper-game/1",
    "game": "secret_agent",
    "options": {"deals": 4},
    "players": ["Ann", "Bob", "Cid", "Dee"],
    "first_dealer": 0,
    "deals": [],
}
DEAL = {"tricks": [4, 3, 3, 3], "agents": ["L", "O", "R", "S"], "trump": "NT"}


class Failed(Exception):
    pass


def check(condition: bool, what: str) -> None:
    if not condition:
        raise Failed(what)
    print(f"ok  {what}")


def ask(
    base: str, path: str, body: dict | None = None, headers: dict | None = None
) -> tuple[int, dict, bytes]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(base + path, data=data, headers=headers or {})
    if data is not None:
        request.add_header("Content-Type", "application/json")
    try:
        with urllib.request.urlopen(request, timeout=20) as answer:
            return answer.status, dict(answer.headers), answer.read()
    except urllib.error.HTTPError as error:
        return error.code, dict(error.headers), error.read()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def main() -> None:
    import scorekeeper

    package = Path(scorekeeper.__file__).resolve().parent
    check((package / "templates" / "base.html").is_file(), f"templates ship inside the package ({package})")
    check((package / "static" / "app.css").is_file(), "static files ship inside the package")
    command = Path(sys.executable).parent / "scorekeeper"
    check(command.is_file(), f"the scorekeeper command is installed ({command})")
    from importlib import metadata

    dist = metadata.distribution("scorekeeper")
    check(
        dist.version == scorekeeper.__version__, f"one version: the wheel's is the package's ({dist.version})"
    )
    check(
        any(str(f).endswith("licenses/LICENSE") for f in dist.files or ())
        and "MIT" in (dist.read_text("licenses/LICENSE") or ""),
        "the MIT LICENSE ships in the wheel",
    )
    for name in ("api.md", "hosting.md", "openapi.json", "game-record.schema.json"):
        check((package / "docs" / name).is_file(), f"docs/{name} ships inside the package")
    for lang in ("en", "pl", "pt"):
        check((package / "games" / "euchre" / "help" / f"{lang}.md").is_file(), f"the {lang} help pages ship")
    shown = subprocess.run([str(command), "--version"], capture_output=True, text=True, check=True).stdout
    check(shown.startswith(f"Scorekeeper {scorekeeper.__version__}\n"), f"scorekeeper --version: {shown!r}")

    work = Path(tempfile.mkdtemp(prefix="scorekeeper-smoke-"))
    empty = work / "cwd"
    empty.mkdir()
    instance = work / "instance"
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "SECRET_KEY", "PYTHONPATH")}
    env["SCOREKEEPER_INSTANCE"] = str(instance)
    for args in (["--help"], ["serve", "--help"], ["run", "--help"], ["export", "--help"]):
        subprocess.run([str(command), *args], cwd=empty, env=env, check=True, capture_output=True)
    check(not instance.exists(), "help creates no instance folder, database or key")

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    log = (work / "serve.log").open("w+")
    server = subprocess.Popen(
        [str(command), "serve", "--port", str(port), "--workers", "2", "--threads", "2"],
        cwd=empty,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        deadline = time.monotonic() + 60
        status = 0
        while time.monotonic() < deadline and server.poll() is None:
            try:
                status = ask(base, "/healthz")[0]
            except OSError:
                status = 0
            if status == 200:
                break
            time.sleep(0.5)
        check(status == 200, "GET /healthz answers 200 (database up, schema current)")
        check(
            (instance / "scorekeeper.sqlite").is_file() and (instance / "secret_key").is_file(),
            "the first start made the database and key in SCOREKEEPER_INSTANCE",
        )

        status, _, body = ask(base, "/")
        check(status == 200 and b"Scorekeeper" in body, "GET / (home)")
        status, _, body = ask(base, "/api/games", RECORD)
        check(status == 201, f"POST /api/games creates a game ({status} {body[:200]!r})")
        created = json.loads(body)
        game_id, key = created["id"], created["edit_key"]
        status, _, body = ask(base, f"/api/games/{game_id}/deals", DEAL, {"Authorization": f"Bearer {key}"})
        check(status == 201 and len(json.loads(body)["deals"]) == 1, "POST a deal through the API")
        status, _, body = ask(base, f"/g/{game_id}")
        check(status == 200 and b"Ann" in body and b"Dee" in body, "GET the game's page")
        status, _, body = ask(base, f"/g/{game_id}", headers={"Accept-Language": "pl"})
        check(status == 200 and b'lang="pl"' in body and b"Rozdanie" in body, "the game's page in Polish")
        for path in (
            "/static/app.css",
            "/static/app.js",
            "/static/htmx.min.js",
            "/static/icons/icon-192.png",
        ):
            status, headers, body = ask(base, path)
            check(status == 200 and len(body) > 100, f"GET {path}")
        status, headers, body = ask(base, "/manifest.webmanifest")
        check(status == 200 and json.loads(body)["icons"], "GET /manifest.webmanifest")
        status, headers, body = ask(base, "/sw.js")
        check(status == 200 and b"caches" in body, "GET /sw.js")
        status, _, body = ask(base, "/healthz")
        check(json.loads(body)["version"] == scorekeeper.__version__, "GET /healthz names the version")
        status, _, body = ask(base, "/api/openapi.json")
        check(status == 200 and json.loads(body)["openapi"].startswith("3.1"), "GET /api/openapi.json")
        status, _, body = ask(base, "/help/euchre", headers={"Accept-Language": "pl"})
        check(status == 200 and b'lang="pl"' in body, "GET /help/euchre in Polish")
    finally:
        server.terminate()
        server.wait(timeout=30)
    log.seek(0)
    output = log.read()
    check("\x1b[" not in output, "no colour codes in a log that is not a terminal")
    lines = [line for line in output.splitlines() if '"GET /healthz' in line or '"POST /api/games' in line]
    check(
        bool(lines) and all(" id=" in line and len(line.split(" id=")[1]) >= 8 for line in lines),
        "access log: one line per request, with its request id",
    )


if __name__ == "__main__":
    try:
        main()
    except Failed as failure:
        print(f"FAILED: {failure}", file=sys.stderr)
        sys.exit(1)
    print("smoke test passed")
