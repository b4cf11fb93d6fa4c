"""A crowd behind nginx's micro-cache (issue 28): docs/deploy's configuration in front of
`scorekeeper serve` with its defaults, every phone and scorer going through nginx.

    python benchmarks/edge.py --tables 3000                   # about 10 minutes on 2 cores
    python benchmarks/edge.py --tables 10000 --duration 60    # seeding alone takes minutes

Needs nginx (Debian's: apt-get install -y nginx) and wrk. Each table has a scorer posting a deal a
minute with 30 s of patience, and ``--viewers`` phones, each on its own kept-alive connection,
following X-Poll-After (or Retry-After). The crowd's phones are wrk's (C: tens of thousands of
connections cost Python more than the app they load), on threads of 500 phones, each thread
polling its own games in turn: the micro-cache sees what it would of as many phones each
following one game. The scorers, and one
more phone on every ``--watch-every``-th table, are Python's: they count failed posts, the post
p99, what each poll got, and how soon a posted deal is seen. Like benchmarks/run.py, it measures
and asserts nothing. One port per wrk process: a client has about 28,000 ports towards one
address and port, fewer than the phones of 10,000 tables.
"""

from __future__ import annotations

import argparse
import asyncio
import calendar
import json
import random
import re
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
for path in (ROOT, HERE):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))

from crowd import capacity_scenario, percentile  # noqa: E402
from run import SEED, Servers, app_env, free_port, say, stop_on_signals  # noqa: E402
from seed import deal_bodies, long_game_record, seed_games  # noqa: E402
from wire import PHONE, fetch  # noqa: E402
from wrk import LIVE, wrk_counts, wrk_script  # noqa: E402

DEPLOY = ROOT / "docs" / "deploy"
# Each process of wrk keeps at most this many phones (the open-file limit is often 20,000).
PHONES_PER_WRK = 15000
# ... on threads of at most this many phones each (wrk_script says why).
PHONES_PER_THREAD = 500


def nginx_conf(run: Path, app_port: int, ports: list[int], workers: int) -> str:
    """nginx's configuration: the documented upstreams (docs/deploy/nginx.conf) pointed at the
    app, the documented micro-cache (nginx-live-cache.conf), an access line per request."""
    # Its `http`-level blocks: the upstreams, and the wait the micro-cache asks of a phone.
    upstreams = re.findall(
        r"^(?:upstream|split_clients|map) [^{\n]*\{.*?^\}", (DEPLOY / "nginx.conf").read_text(), re.M | re.S
    )
    upstreams = [u.replace("127.0.0.1:8000", f"127.0.0.1:{app_port}") for u in upstreams]
    listens = "\n".join(f"        listen 127.0.0.1:{p} reuseport backlog=4096;" for p in ports)
    temp = " ".join(f"{k}_temp_path {run}/tmp;" for k in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    return f"""
daemon off;
worker_processes {workers};
worker_rlimit_nofile 20000;
error_log {run}/error.log error;
pid {run}/nginx.pid;
events {{ worker_connections 19000; }}
http {{
    log_format edge '$msec $status $upstream_cache_status $request_time $upstream_addr $upstream_connect_time $upstream_header_time $request_method';
    access_log {run}/access.log edge buffer=512k flush=5s;
    {temp}
    proxy_cache_path {run}/cache levels=1:2 keys_zone=scorekeeper_live:10m
                     max_size=200m inactive=2m use_temp_path=off;
    keepalive_timeout 35s;
    keepalive_requests 100000;
    {chr(10).join(upstreams)}
    server {{
{listens}
        include {DEPLOY / "nginx-live-cache.conf"};
        location / {{
            proxy_pass http://scorekeeper;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
            proxy_set_header Host $host;
        }}
    }}
}}
"""


def app_polls_per_second(serve_log: Path, since: float, seconds: float) -> float:
    """The polls that reached the app (its access log) per second, from ``since`` on."""
    count = 0
    for line in serve_log.read_text(errors="replace").splitlines():
        if "/live?" not in line or not line[:4].isdigit():
            continue
        try:
            at = calendar.timegm(time.strptime(line[:19], "%Y-%m-%dT%H:%M:%S"))  # the log is in UTC
        except ValueError:
            continue
        count += since <= at < since + seconds
    return count / seconds if seconds else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=3000, help="tables (default 3000)")
    parser.add_argument("--viewers", type=int, default=3, help="wrk's phones per table (default 3)")
    parser.add_argument("--watch-every", type=int, default=10, help="a Python phone on every Nth table")
    parser.add_argument("--warmup", type=float, default=60, help="seconds played, not counted (default 60)")
    parser.add_argument("--duration", type=float, default=60, help="seconds measured (default 60)")
    parser.add_argument("--nginx-workers", type=int, default=4, help="nginx worker processes (default 4)")
    parser.add_argument(
        "--keep",
        type=Path,
        help="keep the run's files in this (empty) directory: the app's and nginx's logs, wrk's output",
    )
    args = parser.parse_args(argv)
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)
    if nginx is None or shutil.which("wrk") is None:
        parser.error("nginx and wrk are needed (apt-get install -y nginx wrk)")
    servers = Servers()
    stop_on_signals()
    with tempfile.TemporaryDirectory(prefix="scorekeeper-edge-") as tmp:
        where = args.keep or Path(tmp)
        where.mkdir(parents=True, exist_ok=True)
        where.chmod(0o711)  # nginx's workers (run as nobody under root) reach their cache inside
        try:
            print(json.dumps(run(args, where, servers, nginx), indent=2))
        except KeyboardInterrupt:
            say("interrupted: servers stopped")
            return 130
        finally:
            servers.stop()
    return 0


def run(args, tmp: Path, servers: Servers, nginx: str) -> dict:
    env = app_env(f"sqlite:///{tmp / 'edge.sqlite'}")
    rng = random.Random(SEED)
    say(f"seeding {args.tables} table games")
    from scorekeeper import create_app

    app = create_app()
    client = app.test_client()
    games = [seed_games(client, long_game_record(10, rng)) for _ in range(args.tables)]
    bodies = deal_bodies(64, rng)
    with app.app_context():
        from scorekeeper.db import db

        db.engine.dispose()

    app_port = free_port()
    command = [sys.executable, "-m", "scorekeeper", "serve", "--host", "127.0.0.1", "--port", str(app_port)]
    servers.start(command, app_port, env, tmp / "serve.log")
    phones = args.tables * args.viewers
    wrks = max(1, -(-phones // PHONES_PER_WRK))
    ports = [free_port() for _ in range(wrks + 1)]  # the first for Python's scorers and phones
    (tmp / "cache").mkdir()
    (tmp / "tmp").mkdir()
    (tmp / "nginx.conf").write_text(nginx_conf(tmp, app_port, ports, args.nginx_workers))
    servers.start([nginx, "-p", str(tmp), "-c", str(tmp / "nginx.conf")], ports[0], env, tmp / "nginx.out")

    # Each game drawn once through nginx, a few at a time (the polls' upstream takes no more): the
    # workers had drawn games followed from their first deal, and the cache holds every game.
    say(f"every game's live region asked once through nginx ({args.tables} games)")

    def first_poll(game: tuple[str, str]) -> str:
        for _ in range(20):
            reply = fetch(ports[0], "GET", f"/g/{game[0]}{LIVE}", {"HX-Request": "true", **PHONE})
            if reply.status == 200:
                return reply.headers["etag"]
            time.sleep(0.5)
        raise RuntimeError(f"game {game[0]}: {reply.status} {reply.headers} {reply.body[:300]!r}")

    with ThreadPoolExecutor(3) as pool:
        etags = list(pool.map(first_poll, games))

    shares = [phones // wrks + (k < phones % wrks) for k in range(wrks)]  # each wrk process's phones
    say(
        f"{args.tables} tables: {phones} phones in {wrks} wrk process(es) of up to "
        f"{-(-shares[0] // PHONES_PER_THREAD)} threads, a scorer per table, a watching phone every "
        f"{args.watch_every} tables; {args.warmup:.0f} s unmeasured, then {args.duration:.0f} s"
    )
    total = args.warmup + args.duration
    crowd_procs: list[subprocess.Popen] = []
    for k, share in enumerate(shares):
        script = tmp / f"phones{k}.lua"
        threads = -(-share // PHONES_PER_THREAD)
        script.write_text(wrk_script([g for g, _ in games], etags, share, 3.0, SEED + k, threads))
        command = [
            "wrk",
            f"-t{threads}",
            f"-c{share}",
            f"-d{int(total)}s",
            "--timeout",
            "10s",
            "-s",
            str(script),
        ]
        with (tmp / f"wrk{k}.out").open("wb") as out:  # the child keeps its own copy of the file
            crowd_procs.append(
                subprocess.Popen(
                    [*command, f"http://127.0.0.1:{ports[k + 1]}/"],
                    stdout=out,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
            )
    servers.procs += crowd_procs  # stopped with the servers if the run is interrupted
    measured_from = time.time() + args.warmup
    outcome, deal_ms, seen_s = asyncio.run(
        capacity_scenario(
            ports[0],
            games,
            etags,
            bodies,
            args.duration,
            viewers=1,
            watch_every=args.watch_every,
            seed=SEED,
            warmup=args.warmup,
        )
    )
    crowd = {"polls": 0, "not 2xx/3xx": 0, "failed": 0}
    for k, proc in enumerate(crowd_procs):
        proc.wait(timeout=60)
        for key, value in wrk_counts((tmp / f"wrk{k}.out").read_text()).items():
            crowd[key] += value
    p99 = percentile(deal_ms, 99)
    return {
        "tables": args.tables,
        "phones (wrk)": phones,
        "deals saved": outcome["201"],
        "deals failed": outcome["deal failed"],
        "deal post p99 ms": round(p99),
        "watching phones' polls": {k: v for k, v in outcome.items() if k not in ("201", "deal failed")},
        "deal seen s (median, p95)": [round(percentile(seen_s, 50), 1), round(percentile(seen_s, 95), 1)],
        "crowd's polls, whole run (wrk)": crowd,
        "polls reaching the app per second": round(
            app_polls_per_second(tmp / "serve.log", measured_from, args.duration)
        ),
        "passed": outcome["deal failed"] == 0
        and p99 < 1000
        and outcome["poll failed"] == 0
        and crowd["failed"] == 0,
    }


if __name__ == "__main__":
    sys.exit(main())
