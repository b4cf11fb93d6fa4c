"""One screenshot per game's entry at 360x740, the last fact tapped and its button in view
(issue 53: "a hand fits one screen"), written to docs/screens/one-screen-<game>.png.

    python scripts/screens.py                 # every game, into docs/screens/
    python scripts/screens.py --out /tmp/shots --only euchre tally

The app runs in this process on a free loopback port over a throwaway SQLite file; Debian's
Chromium (/usr/bin/chromium, or $CHROMIUM) is driven headless by Playwright, at the size and
pixel ratio of a small phone (1: the pictures are for reading, a few tens of KB each). With
Pillow installed each picture is quantised to a palette and compressed; without it, it is kept
as Chromium wrote it. A picture is written only if its button is wholly within the 740 px screen
without a scroll of our own: a game whose deal no longer fits one screen fails here, loudly.
"""

from __future__ import annotations

import argparse
import io
import logging
import os
import sys
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from werkzeug.serving import make_server  # noqa: E402

from scorekeeper import create_app  # noqa: E402

# The tests' scenes (plain Python, none of the suite's settings): these pictures are of them.
from tests import scenes  # noqa: E402

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
PHONE = {"width": 360, "height": 740}
NAMES = ["Ann", "Bob", "Cid", "Dee"]


def serve(folder: str) -> tuple[str, Callable[[], None], object]:
    app = create_app(
        {
            "SECRET_KEY": "screens",
            "SQLALCHEMY_DATABASE_URI": f"sqlite:///{folder}/screens.db",
            "AUTO_MIGRATE": True,
        }
    )
    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # (one line a request otherwise)
    server = make_server("127.0.0.1", 0, app, threaded=True)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{server.server_port}", server.shutdown, app


def chip(page, name: str, value) -> None:
    """Tap a chip (opening the folded line it is in first, as Secrets' keypads fold from 4 players)."""
    for fold in ("details[data-sx-player]", "details[data-sx-item]"):
        line = page.locator(f'#entry {fold}:has(input[name="{name}"])')
        if line.count() and not line.evaluate("d => d.open"):
            line.locator("> summary").tap()
    page.locator(f'#entry label.chip:has(input[name="{name}"][value="{value}"])').tap()


def open_game(page, base: str, kind: str, players: list[str], options: dict | None = None) -> dict:
    game = scenes.api(base, "/api/games", {"game": kind, "players": players, "options": options or {}})
    page.goto(f"{base}/g/{game['id']}?key={game['edit_key']}")
    page.locator("#entry").wait_for()
    return game


# Each game's usual deal, tapped as a scorer does; the name of the button that records it.
def euchre(page, base: str, app) -> str:
    open_game(page, base, "euchre", NAMES)
    chip(page, "trump", "H")
    chip(page, "maker", "0")
    chip(page, "maker_tricks", "3")
    return "Record deal"


def spades(page, base: str, app) -> str:
    open_game(page, base, "spades", NAMES)
    for seat, bid in enumerate([4, 3, 3, 2]):
        chip(page, f"bids_{seat}", bid)
    page.locator("#entry fieldset.tricks").wait_for()
    for seat, tricks in enumerate([4, 3, 3]):
        chip(page, f"tricks_{seat}", tricks)
    return "Record deal"


def secret_agent(page, base: str, app) -> str:
    open_game(page, base, "secret_agent", NAMES)
    for seat, tricks in enumerate([4, 3, 3]):
        chip(page, f"tricks_{seat}", tricks)
    for seat, card in enumerate("LOR"):
        chip(page, f"agents_{seat}", card)
    return "Record deal"


def secrets(page, base: str, app) -> str:
    open_game(page, base, "secrets", NAMES[:3])
    for seat, mine in enumerate(["1-2 2-9 1-7 2-5", "0-3 2-9 0-8 2-1", "0-8 1-2 0-1 1-4"]):
        for spy, order in zip(["club", "diamond", "heart", "spade"], mine.split(), strict=True):
            chip(page, f"order_{seat}_{spy}", order)
        chip(page, f"guards_{seat}", [3, 7, 5][seat])
    return "Resolve turn 1"


def hidden_secrets(page, base: str, app) -> str:
    """Hidden Secrets: each player sends his own orders from his private link (the scorer enters
    none); Bob's phone, turn 1."""
    _game, seats = scenes.hidden_secrets(base, NAMES[:3])
    page.goto(scenes.address(base, seats[1]["link"]))
    page.locator("#entry").wait_for()
    for spy, target in zip(["club", "diamond", "heart", "spade"], [0, 2, 0, 2], strict=True):
        chip(page, f"order_1_{spy}", f"{target}-B")
    chip(page, "guards_1", "C")
    return "Send my orders"


def abracadabra(page, base: str, app) -> str:
    """As the players report it after the deal (the entry's default): the worked example."""
    open_game(page, base, "abracadabra", ["Helen", "David", "Cid", "Dee"])
    scenes.abracadabra_reported(lambda name, value: chip(page, name, value))
    return "Score the deal"


def tally(page, base: str, app) -> str:
    open_game(page, base, "tally", NAMES)
    for seat, value in enumerate(["15", "", "5", "7"]):
        if value:
            page.locator(f"#points_{seat}").tap()
            page.keyboard.type(value)
    return "Record deal"


def event_table(page, base: str, app) -> str:
    """A progressive evening's table phone, on its table link, round 1's first hand."""
    from scorekeeper.events import rounds
    from scorekeeper.events import service as events
    from scorekeeper.events.table_links import table_url

    with app.app_context():
        players = ["Ann", "Bob", "Cy", "Di", "Eve", "Fay", "Gus", "Hal"]
        event, _key = events.create_event(
            scenes.euchre_evening(players, "Thursday progressive", hands=4, minutes=10)
        )
        rounds.start_round(event)
        link = table_url(event, 1)
    page.goto(base + link)
    page.locator("#entry").wait_for()
    chip(page, "trump", "S")
    chip(page, "maker", "1")
    chip(page, "maker_tricks", "4")
    return "Record deal"


GAMES: dict[str, Callable] = {
    "euchre": euchre,
    "spades": spades,
    "secret-agent": secret_agent,
    "secrets": secrets,
    "hidden-secrets": hidden_secrets,
    "abracadabra": abracadabra,
    "tally": tally,
    "event-table": event_table,
}


def small_png(raw: bytes) -> bytes:
    """The picture as a palette PNG (256 colours: the pages are flat colours and text), if Pillow is there."""
    try:
        from PIL import Image
    except ImportError:
        return raw
    image = Image.open(io.BytesIO(raw)).convert("RGB")
    quantised = image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    out = io.BytesIO()
    quantised.save(out, format="PNG", optimize=True)
    return out.getvalue() if len(out.getvalue()) < len(raw) else raw


def in_view(page, button: str) -> dict:
    box = page.get_by_role("button", name=button).bounding_box()
    if box is None or box["y"] < 0 or box["y"] + box["height"] > PHONE["height"]:
        raise SystemExit(f"{page.url}: '{button}' is not within the {PHONE['height']} px screen: {box}")
    return box


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--out", type=Path, default=ROOT / "docs" / "screens", help="folder (default docs/screens)"
    )
    parser.add_argument("--only", nargs="*", choices=sorted(GAMES), help="these games only")
    args = parser.parse_args(argv)
    from playwright.sync_api import sync_playwright

    args.out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as folder, sync_playwright() as p:
        base, stop, app = serve(folder)
        browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"], headless=True)
        try:
            for name, enter in GAMES.items():
                if args.only and name not in args.only:
                    continue
                context = browser.new_context(
                    viewport=PHONE, device_scale_factor=1, is_mobile=True, has_touch=True
                )
                page = context.new_page()
                page.set_default_timeout(15_000)
                button = enter(page, base, app)
                page.wait_for_timeout(600)  # the preview's pause and its answer
                in_view(page, button)
                path = args.out / f"one-screen-{name}.png"
                path.write_bytes(small_png(page.screenshot()))
                print(
                    f"{path.relative_to(ROOT) if path.is_relative_to(ROOT) else path}: {path.stat().st_size // 1024} KB"
                )
                context.close()
        finally:
            browser.close()
            stop()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
