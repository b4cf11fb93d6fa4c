"""wrk for the benchmarks: the Lua scripts it runs and what its output says (benchmarks/run.py's
throughput figures, benchmarks/edge.py's crowd of phones)."""

from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path
from typing import Any

LIVE = "/live?part=live&lang=en"


def lua_string(value: str) -> str:
    return json.dumps(value)  # a JSON string is a valid Lua string literal for this ASCII content


def post_deals_lua(games: list[tuple[str, str]], bodies: list[dict[str, Any]]) -> str:
    """A wrk script: API POSTs of deals, round-robin over games so no game grows without bound."""
    rows = ",\n".join(f"  {{{lua_string(g)}, {lua_string(k)}}}" for g, k in games)
    texts = ",\n".join(f"  {lua_string(json.dumps(b))}" for b in bodies)
    return f"""local games = {{
{rows}
}}
local bodies = {{
{texts}
}}
local i = 0
request = function()
  i = i + 1
  local g = games[(i % #games) + 1]
  local b = bodies[(i % #bodies) + 1]
  return wrk.format("POST", "/api/games/" .. g[1] .. "/deals",
    {{["Authorization"] = "Bearer " .. g[2], ["Content-Type"] = "application/json"}}, b)
end
"""


def anchor_write_lua(bodies: list[dict[str, Any]]) -> str:
    """A wrk script: the bare app's durable write (bare.py, /write) with the same deal bodies."""
    texts = ",\n".join(f"  {lua_string(json.dumps(b))}" for b in bodies)
    return f"""local bodies = {{
{texts}
}}
local i = 0
request = function()
  i = i + 1
  return wrk.format("POST", "/write", {{["Content-Type"] = "application/json"}}, bodies[(i % #bodies) + 1])
end
"""


WRK_RATE = re.compile(r"Requests/sec:\s+([\d.]+)")
WRK_BAD = re.compile(r"Non-2xx or 3xx responses:\s+(\d+)")
WRK_ERRORS = re.compile(r"Socket errors:.*?connect (\d+), read (\d+), write (\d+), timeout (\d+)")


def parse_wrk(output: str) -> tuple[float, int]:
    """Requests per second and the count of failed requests (non-2xx/3xx answers and socket errors)."""
    rate = WRK_RATE.search(output)
    if rate is None:
        raise RuntimeError(f"wrk said:\n{output}")
    counts = wrk_counts(output)
    return float(rate.group(1)), counts["not 2xx/3xx"] + counts["failed"]


def run_wrk(url: str, seconds: float, connections: int, headers=None, script: Path | None = None):
    command = ["wrk", "-t1", f"-c{connections}", f"-d{max(1, round(seconds))}s", "--timeout", "10s"]
    for name, value in (headers or {}).items():
        command += ["-H", f"{name}: {value}"]
    if script is not None:
        command += ["-s", str(script)]
    command.append(url)
    out = subprocess.run(command, capture_output=True, text=True, timeout=seconds + 60)
    return parse_wrk(out.stdout + out.stderr)


# --- A crowd's phones (benchmarks/edge.py) ---


def wrk_script(
    game_ids: list[str], etags: list[str], phones: int, pace: float, seed: int, threads: int = 1
) -> str:
    """wrk's phones: each request the next game's poll, with the ETag the crowd last got of it,
    each wait what the last answer asked. The first wait of each phone is drawn within one pace,
    so the crowd arrives spread, as phones opened one by one do.

    ``threads``: wrk's threads (``-t``), each with ``phones / threads`` of the phones, following
    every ``threads``-th game of the list (its own games: each is polled by one thread, about as
    often as its phones would poll it, with the ETag they last got of it). Many threads, for
    wrk's sake: each keeps its waiting phones in one list that it walks at every turn of its
    loop, so 15,000 phones on one thread cost wrk most of a core at 1,200 polls a second
    (0.25 of one on 30 threads), which the app then lacked on the same box."""
    ids = ",".join(lua_string(g) for g in game_ids)
    tags = ",".join(lua_string(e) for e in etags)
    ms = int(pace * 1000)
    return f"""
local games = {{{ids}}}
local etags = {{{tags}}}
local threads = {threads}
local made = 0
local mine = {{}}
local n = 0
local i = 0
local wait = {ms}
local first = {-(-phones // threads)}
local tag = {{}}
function setup(thread)
  thread:set("me", made)
  made = made + 1
end
function init(args)
  local k = me or 0
  for g = k + 1, #games, threads do mine[#mine + 1] = games[g] end
  if #mine == 0 then mine = games end
  n = #mine
  math.randomseed({seed} + k); i = math.random(n)
  for g = 1, #games do tag[games[g]] = etags[g] end
end
request = function()
  i = i % n + 1
  return wrk.format("GET", "/g/" .. mine[i] .. "{LIVE}", {{["HX-Request"] = "true",
    ["Accept-Encoding"] = "gzip, br", ["If-None-Match"] = tag[mine[i]]}})
end
response = function(status, headers, body)
  -- The answer does not say which request it answers, but its ETag names the game (W/"<id>.<version>...").
  local etag = headers["ETag"] or headers["etag"]
  local id = etag and string.match(etag, '^W/"([^.]+)%.')
  if status == 200 and id then tag[id] = etag end
  local asked = headers["X-Poll-After"] or headers["x-poll-after"] or headers["Retry-After"] or headers["retry-after"]
  if asked then wait = tonumber(asked) * 1000 end
end
delay = function()
  if first > 0 then first = first - 1; return math.random(0, {ms}) end
  return math.random(math.floor(wait * 0.8), math.floor(wait * 1.2))
end
"""


WRK_LINE = re.compile(r"(\d+) requests in")


def wrk_counts(output: str) -> dict[str, int]:
    """What wrk's phones got: requests answered, answers that were not 2xx/3xx (a 503 "later"
    among them), and polls that failed on the wire (connect, read, write, timeout)."""
    done = WRK_LINE.search(output)
    bad = WRK_BAD.search(output)
    errors = WRK_ERRORS.search(output)
    return {
        "polls": int(done.group(1)) if done else 0,
        "not 2xx/3xx": int(bad.group(1)) if bad else 0,
        "failed": sum(int(x) for x in errors.groups()) if errors else 0,
    }
