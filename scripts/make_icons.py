"""Draw the home-screen PNG icons from the SVGs in static/icons/ with Debian's Chromium.

Run after changing an icon's SVG (the PNGs are committed): ``python scripts/make_icons.py``.
Uses Playwright, already among the test extras; no image library needed.
"""

from __future__ import annotations

import os
from pathlib import Path

from playwright.sync_api import sync_playwright

ICONS = Path(__file__).resolve().parent.parent / "static" / "icons"
# (source SVG, PNG written, size in px): Android's two sizes, a maskable one, Apple's touch icon.
SIZES = [
    ("icon.svg", "icon-192.png", 192),
    ("icon.svg", "icon-512.png", 512),
    ("maskable.svg", "maskable-512.png", 512),
    ("maskable.svg", "apple-touch-icon.png", 180),
]


def main() -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("CHROMIUM", "/usr/bin/chromium"))
        for source, target, size in SIZES:
            page = browser.new_page(viewport={"width": size, "height": size})
            svg = (ICONS / source).read_text()
            page.set_content(
                f"<style>html,body{{margin:0;background:transparent}}svg{{display:block;width:{size}px;"
                f"height:{size}px}}</style>{svg}"
            )
            page.screenshot(path=str(ICONS / target), omit_background=True)
            page.close()
            print(ICONS / target)
        browser.close()


if __name__ == "__main__":
    main()
