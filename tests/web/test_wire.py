"""On the wire (scorekeeper/web/wire.py): compression, static files cached for a year, no cookie where none is needed."""

from __future__ import annotations

import gzip
import re
from pathlib import Path

import brotli

from tests.web.table_helpers import FLAT, api_game


def test_static_urls_carry_a_content_hash_and_are_kept_a_year(client):
    page = client.get("/").get_data(as_text=True)
    urls = re.findall(r'"(/static/[^"?]+\?v=[0-9a-f]{12})"', page)
    assert any("app.css" in url for url in urls) and any("htmx.min.js" in url for url in urls), urls
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        assert response.headers["Cache-Control"] == "public, max-age=31536000, immutable"
        assert "Set-Cookie" not in response.headers and "Cookie" not in response.headers.get("Vary", "")
    # A stale or missing hash is served, but revalidated: it may not be this file's content.
    assert "immutable" not in client.get("/static/app.css?v=000000000000").headers["Cache-Control"]
    assert "immutable" not in client.get("/static/app.css").headers["Cache-Control"]


def test_the_service_worker_precaches_the_hashed_urls(client):
    worker = client.get("/sw.js").get_data(as_text=True)
    assert re.search(r'"/static/app\.css\?v=[0-9a-f]{12}"', worker) and '"static": "/static/"' in worker


def test_pages_are_compressed_with_brotli_or_gzip(client):
    gid, _key = api_game(client, deals=[FLAT])
    br = client.get(f"/g/{gid}", headers={"Accept-Encoding": "br, gzip"})
    assert br.headers["Content-Encoding"] == "br" and "Accept-Encoding" in br.headers["Vary"]
    assert b"<html" in brotli.decompress(br.data)
    gz = client.get(f"/g/{gid}", headers={"Accept-Encoding": "gzip"})
    assert gz.headers["Content-Encoding"] == "gzip"


def test_a_304_and_a_static_file_set_no_cookie_and_the_session_is_kept_a_year(app, client):
    app.config["WTF_CSRF_ENABLED"] = True  # forms then put their token in the session
    gid, _key = api_game(client, deals=[FLAT])
    page = client.get(f"/g/{gid}")
    # The page has forms (the language switch): their CSRF token starts a session that outlives the browser.
    cookies = page.headers.getlist("Set-Cookie")
    cookie = next(c for c in cookies if c.startswith("session="))
    assert "Expires=" in cookie
    # The device's id too: opening a game lists it under this device's games (clubs.md).
    assert any(c.startswith("device=") and "HttpOnly" in c for c in cookies)
    live = client.get(f"/g/{gid}/live?part=live")
    unchanged = client.get(
        f"/g/{gid}/live?part=live", headers={"If-None-Match": live.headers["ETag"], "HX-Request": "true"}
    )
    assert unchanged.status_code == 304 and "Set-Cookie" not in unchanged.headers
    assert "Set-Cookie" not in client.get("/static/app.js").headers


def test_a_hashed_static_file_goes_out_at_the_strongest_compression(client):
    page = client.get("/").get_data(as_text=True)
    url = re.search(r'src="(/static/htmx\.min\.js\?v=[0-9a-f]+)"', page).group(1)
    raw = (Path(client.application.static_folder) / "htmx.min.js").read_bytes()
    br = client.get(url, headers={"Accept-Encoding": "gzip, br"})
    assert br.headers["Content-Encoding"] == "br" and "Accept-Encoding" in br.headers["Vary"]
    assert brotli.decompress(br.data) == raw
    assert len(br.data) == len(brotli.compress(raw, quality=11)) < len(brotli.compress(raw, quality=5))
    gz = client.get(url, headers={"Accept-Encoding": "gzip"})
    assert gz.headers["Content-Encoding"] == "gzip" and gzip.decompress(gz.data) == raw
    assert gz.headers["ETag"] != br.headers["ETag"]  # one file, two bodies: caches keep them apart
    plain = client.get(url, headers={"Accept-Encoding": "identity"})
    assert "Content-Encoding" not in plain.headers and plain.data == raw


def test_scripts_and_styles_go_out_minified_and_work_the_same(client):
    page = client.get("/").get_data(as_text=True)
    for name in ("app.js", "app.css"):
        url = re.search(rf'"(/static/{re.escape(name)}\?v=[0-9a-f]+)"', page).group(1)
        raw = (Path(client.application.static_folder) / name).read_bytes()
        sent = gzip.decompress(client.get(url, headers={"Accept-Encoding": "gzip"}).data)
        assert len(sent) < 0.85 * len(raw)
        assert b"/*" not in sent and b"\n  " not in sent  # no comment, no indentation left
    # The script's own words survive minifying (a string the page relies on).
    js = gzip.decompress(
        client.get(
            re.search(r'"(/static/app\.js\?v=[0-9a-f]+)"', page).group(1), headers={"Accept-Encoding": "gzip"}
        ).data
    ).decode()
    assert "board-current" in js and "If-None-Match" in js
