"""Reading a rendered page in tests: its words, its error messages, its ticked chips."""

from __future__ import annotations

import html
import re


def text(markup: str) -> str:
    """Visible words of some HTML, entities decoded and white space collapsed."""
    return " ".join(html.unescape(re.sub(r"<[^>]+>", " ", markup)).split())


def errors_in(markup: str) -> list[str]:
    """The rules' messages shown next to fields (``class="error"``), as a reader sees them."""
    return [" ".join(html.unescape(e).split()) for e in re.findall(r'class="error"[^>]*>([^<]*)<', markup)]


def checked(markup: str, name: str, value: str) -> bool:
    """Whether the radio or checkbox ``name`` = ``value`` is ticked (hidden inputs are not chips)."""
    for tag in re.findall(r"<input[^>]*>", markup):
        if f'name="{name}"' in tag and f'value="{value}"' in tag and 'type="hidden"' not in tag:
            return " checked" in tag
    raise AssertionError(f"no input {name}={value}")


def status(markup: str) -> str:
    """The game's status line (who deals, who won)."""
    return text(
        re.search(r'<p(?: [^>]*)? class="status[^"]*"[^>]* role="status">(.*?)</p>', markup, re.S).group(1)
    )
