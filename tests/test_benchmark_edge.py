"""benchmarks/edge.py's helpers: the nginx it starts is the documented one, and its wrk phones keep
each game's ETag (what wrk says is counted: tests/test_benchmark_script.py). No timing here."""

from __future__ import annotations

import http.server
import importlib.util
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from scorekeeper import create_app
from scorekeeper.web.etags import live_etag_value

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "edge.py"
NGINX = shutil.which("nginx") or ("/usr/sbin/nginx" if Path("/usr/sbin/nginx").exists() else None)


@pytest.fixture(scope="module")
def edge():
    spec = importlib.util.spec_from_file_location("bench_edge", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)  # it imports run.py and its siblings by name
    yield module
    for name in (spec.name, "run", "wire", "wrk", "crowd", "seed", "inprocess", "evening"):
        sys.modules.pop(name, None)


def test_nginx_is_given_the_documented_upstreams_and_micro_cache(edge, tmp_path):
    conf = edge.nginx_conf(tmp_path, 18000, [18001, 18002], 2)
    assert "upstream scorekeeper {" in conf and "upstream scorekeeper_live {" in conf
    assert "127.0.0.1:8000" not in conf and conf.count("127.0.0.1:18000") == 2
    assert re.search(r"max_conns=\d+", conf)  # the polls' share, as documented
    assert "listen 127.0.0.1:18001" in conf and "listen 127.0.0.1:18002" in conf
    assert "nginx-live-cache.conf" in conf
    # The wait a phone answered from the cache is asked for, which the micro-cache names.
    assert "map $upstream_cache_status $scorekeeper_poll_after {" in conf
    assert "split_clients $request_id $scorekeeper_stale_wait {" in conf
    if NGINX is None:
        pytest.skip("nginx is not installed (apt-get install -y nginx)")
    (tmp_path / "nginx.conf").write_text(conf)
    for name in ("cache", "tmp"):
        (tmp_path / name).mkdir()
    checked = subprocess.run(
        [NGINX, "-t", "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stderr


def test_the_phones_keep_each_games_etag_from_the_answers(edge):
    lua = edge.wrk_script(["g1", "g-2_x"], ['W/"g1.3.en.v.live"', 'W/"g-2_x.7.en.v.live"'], 5, 3.0, 1)
    assert '"If-None-Match"] = tag[mine[i]]' in lua
    assert "local first = 5" in lua and "math.random(0, 3000)" in lua
    # The answer names no request: the phones read the game from its ETag, as the app draws it.
    pattern = re.search(r"string\.match\(etag, '(.*?)'\)", lua).group(1)
    python = pattern.replace("%.", r"\.")
    app = create_app({"SECRET_KEY": "edge", "SQLALCHEMY_DATABASE_URI": "sqlite://", "AUTO_MIGRATE": False})
    with app.test_request_context("/?lang=pl"):
        etag = 'W/"' + live_etag_value("Ab-c_9", 12, False, "live") + '"'
    assert re.match(python, etag).group(1) == "Ab-c_9"


@pytest.mark.skipif(shutil.which("wrk") is None, reason="wrk is not installed (apt-get install -y wrk)")
def test_each_wrk_thread_polls_its_own_games_with_the_etag_they_got(edge, tmp_path):
    """wrk's phones on several threads: each thread (each connection of it) polls only its own
    games, every game is polled, and a poll carries the ETag its game's last answer gave."""
    games = [f"g{k}" for k in range(6)]
    seen: dict[tuple, set[str]] = {}
    sent: list[tuple[str, str]] = []
    lock = threading.Lock()

    class Phones(http.server.BaseHTTPRequestHandler):
        protocol_version = "HTTP/1.1"

        def do_GET(self):
            game = self.path.split("/")[2]
            with lock:
                seen.setdefault(self.client_address, set()).add(game)
                sent.append((game, self.headers.get("If-None-Match", "")))
            self.send_response(200)
            self.send_header("ETag", f'W/"{game}.2.en.v.live"')
            self.send_header("Content-Length", "0")
            self.end_headers()

        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Phones)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    script = tmp_path / "phones.lua"
    script.write_text(edge.wrk_script(games, [f'W/"{g}.1.en.v.live"' for g in games], 6, 0.05, 1, threads=3))
    try:
        subprocess.run(
            ["wrk", "-t3", "-c6", "-d2s", "-s", str(script), f"http://127.0.0.1:{server.server_port}/"],
            capture_output=True,
            timeout=30,
            check=True,
        )
    finally:
        server.shutdown()
    assert set().union(*seen.values()) == set(games)
    for polled in seen.values():  # thread k (from 0) follows games k and k + 3
        assert len({int(g[1:]) % 3 for g in polled}) == 1, seen
    assert {tag for _, tag in sent} <= {f'W/"{g}.{v}.en.v.live"' for g in games for v in (1, 2)}
    assert any(tag.endswith('.2.en.v.live"') for _, tag in sent)  # the answers' ETags, kept
    assert all(tag.startswith(f'W/"{game}.') for game, tag in sent)
