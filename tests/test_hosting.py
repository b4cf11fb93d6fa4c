"""The hosting files: the Dockerfile builds (where an engine runs), compose and systemd files parse,
and every ``scorekeeper`` command they run exists in the CLI with the options they give it."""

from __future__ import annotations

import configparser
import json
import re
import shlex
import shutil
import subprocess
from contextlib import ExitStack
from pathlib import Path

import click
import pytest
import yaml
from flask.cli import ScriptInfo

from scorekeeper.cli import build_cli

ROOT = Path(__file__).resolve().parent.parent
UNITS = ("scorekeeper.service", "backup.service", "backup.timer")


def scorekeeper_calls(line: str) -> list[list[str]]:
    """The argument lists given to ``scorekeeper`` in a command line (also inside ``sh -c '...'``)."""
    calls = []
    words = shlex.split(line)
    for i, word in enumerate(words):
        if " " in word:
            calls += scorekeeper_calls(word)
        elif runs_scorekeeper(words, i):
            args = []
            for arg in words[i + 1 :]:
                if arg in (";", "&&", "||", "|"):
                    break
                args.append(arg)
            calls.append(args)
    return calls


def runs_scorekeeper(words: list[str], i: int) -> bool:
    """Whether ``words[i]`` is the scorekeeper command itself (not a package, folder or unit name)."""
    if words[i].endswith("/bin/scorekeeper"):
        return True
    if words[i] != "scorekeeper":
        return False
    before = words[i - 1] if i else ""
    # First on the line, after `exec`, after `docker compose exec|run ... app`, or after VAR=value.
    return not before or before in ("exec", "app") or ("=" in before and not before.startswith("-"))


def check_call(args: list[str]) -> None:
    """``scorekeeper ARGS`` names a command that exists, with options that command has."""
    command: click.Command = build_cli()
    script = ScriptInfo(create_app=command.create_app, set_debug_flag=False)  # type: ignore[attr-defined]
    words = list(args)
    # Each context closed on the way out: FlaskGroup.get_command pushes an app context into it.
    with ExitStack() as contexts:
        ctx = contexts.enter_context(click.Context(command, info_name="scorekeeper", obj=script))
        while isinstance(command, click.Group) and words and not words[0].startswith("-"):
            found = command.get_command(ctx, words.pop(0))
            assert found is not None, f"scorekeeper {' '.join(args)}: no such command"
            command = found
            ctx = contexts.enter_context(click.Context(found, parent=ctx, info_name=found.name, obj=script))
    if isinstance(command, click.Group):
        assert words, f"scorekeeper {' '.join(args)}: names a group only"
    options = {opt for param in command.params for opt in (*param.opts, *param.secondary_opts)}
    for word in words:
        if word.startswith("-"):
            assert word.split("=")[0] in options, f"scorekeeper {' '.join(args)}: no option {word}"


def test_the_call_checker_refuses_what_the_cli_lacks():
    check_call(["export", "--all", "-o", "x.json"])
    check_call(["db", "upgrade"])
    check_call(["--version"])
    for bad in (["exports", "--all"], ["export", "--everything"], ["db"], ["serve", "--hots", "x"]):
        with pytest.raises(AssertionError):
            check_call(bad)


# ---- Dockerfile ------------------------------------------------------------------------------


def dockerfile() -> str:
    # Continuation lines joined, as Docker reads them.
    return re.sub(r"\\\n\s*", " ", (ROOT / "Dockerfile").read_text("utf-8"))


def instruction(name: str) -> list[str]:
    return [m.group(1) for m in re.finditer(rf"^{name}\s+(.*)$", dockerfile(), re.M)]


def test_the_dockerfile_is_slim_non_root_with_a_health_check_and_optional_chromium():
    assert instruction("FROM") == ["python:3.11-slim"]
    users = instruction("USER")
    assert users and users[-1] not in ("root", "0")
    assert any("/healthz" in h for h in instruction("HEALTHCHECK"))
    assert any(a.startswith("WITH_CHROMIUM=0") for a in instruction("ARG"))
    assert any("chromium" in r and "WITH_CHROMIUM" in r for r in instruction("RUN"))
    assert any(".[postgres,redis]" in r and "requirements.lock" in r for r in instruction("RUN"))
    assert "SCOREKEEPER_INSTANCE=/data" in " ".join(instruction("ENV"))
    assert instruction("VOLUME") == ['["/data"]']


def test_the_dockerfile_runs_commands_the_cli_has():
    cmd = json_list(instruction("CMD")[-1])
    assert cmd[0] == "scorekeeper" and cmd[cmd.index("--host") :][:2] == ["--host", "0.0.0.0"]
    check_call(cmd[1:])


def json_list(text: str) -> list[str]:
    return json.loads(text)


def test_what_the_dockerfile_copies_exists_and_is_not_ignored():
    ignored = [
        line.strip()
        for line in (ROOT / ".dockerignore").read_text("utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    ]
    for copy in instruction("COPY"):
        for source in copy.split()[:-1]:
            assert (ROOT / source).exists(), source
            assert source not in ignored, f"{source} is copied but .dockerignore leaves it out"
    assert "docs/screens" in ignored and "tests" in ignored and ".git" in ignored


def engine() -> str | None:
    for name in ("docker", "podman"):
        path = shutil.which(name)
        if path and subprocess.run([path, "info"], capture_output=True, timeout=60).returncode == 0:
            return path
    return None


def test_the_image_builds_where_docker_or_podman_runs(tmp_path):
    found = engine()
    if found is None:
        pytest.skip(
            "no container engine answers here (`docker info` / `podman info` fail): the image is not built"
        )
    built = subprocess.run(
        [found, "build", "-t", "scorekeeper-test:latest", str(ROOT)],
        capture_output=True,
        text=True,
        timeout=1800,
    )
    assert built.returncode == 0, built.stdout[-3000:] + built.stderr[-3000:]
    shown = subprocess.run(
        [found, "run", "--rm", "scorekeeper-test:latest", "scorekeeper", "--version"],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert shown.stdout.startswith("Scorekeeper "), shown.stderr


# ---- compose.yaml -----------------------------------------------------------------------------


def test_compose_runs_the_app_with_postgresql_and_redis():
    compose = yaml.safe_load((ROOT / "compose.yaml").read_text("utf-8"))
    services = compose["services"]
    app = services["app"]
    assert app["build"] == "."
    env = app["environment"]
    assert env["DATABASE_URL"].startswith("postgresql://") and "@db:5432/" in env["DATABASE_URL"]
    assert env["CACHE_REDIS_URL"].startswith("redis://cache:")
    assert "SECRET_KEY" in env and ":?" in env["SECRET_KEY"]  # refuses to start without one
    assert services["db"]["image"].startswith("postgres:")
    assert services["cache"]["image"].startswith("redis:")
    assert app["depends_on"]["db"]["condition"] == "service_healthy"
    assert any(v.endswith(":/data") for v in app["volumes"])
    assert set(compose["volumes"]) >= {"data", "postgres"}
    assert "command" not in app  # the image's own CMD: scorekeeper serve


# ---- systemd -------------------------------------------------------------------------------------


def unit(name: str) -> configparser.ConfigParser:
    parser = configparser.ConfigParser(strict=False, interpolation=None, delimiters=("=",))
    parser.optionxform = str  # systemd keys are case-sensitive
    parser.read_string((ROOT / "deploy" / name).read_text("utf-8"))
    return parser


@pytest.mark.parametrize("name", UNITS)
def test_units_parse(name):
    parsed = unit(name)
    assert parsed.has_section("Unit")


def test_the_service_is_hardened_and_keeps_its_state_in_its_state_directory():
    service = unit("scorekeeper.service")["Service"]
    assert service["DynamicUser"] == "yes" and service["StateDirectory"] == "scorekeeper"
    assert service["Environment"] == "SCOREKEEPER_INSTANCE=%S/scorekeeper"
    for key, value in {
        "NoNewPrivileges": "yes",
        "ProtectSystem": "strict",
        "ProtectHome": "yes",
        "PrivateTmp": "yes",
        "UMask": "0077",
    }.items():
        assert service[key] == value, key
    assert service["CapabilityBoundingSet"] == ""


def test_the_backup_runs_as_the_services_user_and_the_timer_starts_it():
    service, backup = unit("scorekeeper.service")["Service"], unit("backup.service")["Service"]
    assert backup["Type"] == "oneshot"
    assert backup["User"] == service["User"] and backup["StateDirectory"] == service["StateDirectory"]
    timer = unit("backup.timer")
    assert timer["Timer"]["Unit"] == "scorekeeper-backup.service"
    assert timer["Timer"]["Persistent"] == "true" and timer["Timer"]["OnCalendar"]
    (call,) = scorekeeper_calls(backup["ExecStart"])
    assert call[:2] == ["backup", "--to"] and call[2].startswith("%S/scorekeeper/backups/")


@pytest.mark.parametrize(
    ("url", "runs"),
    [
        (None, ["scorekeeper", "backup", "--to", "{S}/scorekeeper/backups/scorekeeper-{stamp}.sqlite"]),
        (
            "postgresql+psycopg://app:pw@db:5432/scores",
            [
                "pg_dump",
                "--format=custom",
                "--file={S}/scorekeeper/backups/scorekeeper-{stamp}.pgdump",
                "postgresql://app:pw@db:5432/scores",
            ],
        ),
    ],
)
def test_the_nightly_backup_copies_the_database_its_own_way(tmp_path, url, runs):
    """The unit's shell line, run with systemd's escapes undone and both tools stood in for:
    SQLite's copy by scorekeeper backup, PostgreSQL's by pg_dump (with a URL it takes)."""
    tools = tmp_path / "bin"
    tools.mkdir()
    for tool in ("scorekeeper", "pg_dump"):
        (tools / tool).write_text(f'#!/bin/sh\necho {tool} "$@" > "{tmp_path}/ran"\n')
        (tools / tool).chmod(0o755)
    line = unit("backup.service")["Service"]["ExecStart"]
    line = line.replace("/opt/scorekeeper/bin/scorekeeper", str(tools / "scorekeeper"))
    # systemd reads its escapes left to right: "%%S" is "%S" for the shell, not the folder.
    line = re.sub(r"%([%S])", lambda m: "%" if m.group(1) == "%" else str(tmp_path), line).replace("$$", "$")
    env = {"PATH": f"{tools}:/usr/bin:/bin", **({"DATABASE_URL": url} if url else {})}
    subprocess.run(shlex.split(line), env=env, check=True, timeout=30)
    ran = (tmp_path / "ran").read_text().split()
    stamp = re.search(r"scorekeeper-(\d{8}T\d{6}Z)\.", " ".join(ran))
    assert stamp, ran
    assert ran == [w.format(S=tmp_path, stamp=stamp.group(1)) for w in runs]


@pytest.mark.parametrize("name", ["scorekeeper.service", "backup.service"])
def test_every_command_a_unit_runs_exists_in_the_cli(name):
    calls = [
        call
        for key in ("ExecStart", "ExecStartPre", "ExecStartPost")
        for call in scorekeeper_calls(unit(name)["Service"].get(key, ""))
    ]
    assert calls, f"{name} runs no scorekeeper command"
    for call in calls:
        check_call(call)


def test_systemd_itself_accepts_the_units(tmp_path):
    analyze = shutil.which("systemd-analyze")
    if analyze is None:
        pytest.skip("systemd-analyze is not installed here: the units are checked by the parser only")
    true = shutil.which("true")
    for name in UNITS:
        target = "scorekeeper.service" if name == "scorekeeper.service" else f"scorekeeper-{name}"
        text = (ROOT / "deploy" / name).read_text("utf-8").replace("/opt/scorekeeper/bin/scorekeeper", true)
        (tmp_path / target).write_text(text, encoding="utf-8")
    result = subprocess.run(
        [analyze, "verify", "--man=no", *sorted(str(p) for p in tmp_path.iterdir())],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert result.returncode == 0, result.stderr


# ---- the docs name real commands -----------------------------------------------------------------


def test_the_hosting_guide_names_commands_the_cli_has():
    guide = (ROOT / "docs" / "hosting.md").read_text("utf-8")
    lines = re.findall(r"`([^`]*scorekeeper [^`]*)`", guide.replace("\n", " "))
    blocks = re.findall(r"```sh\n(.*?)```", guide, re.S)
    lines += [line.split(" #")[0] for block in blocks for line in block.splitlines()]
    calls = [call for line in lines if line.strip() for call in scorekeeper_calls(line)]
    assert {"export", "import", "db", "--version"} <= {call[0] for call in calls}, calls
    for call in calls:
        check_call(call)
