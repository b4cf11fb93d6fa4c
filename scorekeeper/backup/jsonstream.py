"""Read a large JSON document piece by piece: a whole-server backup is too big to load at once.

Only the shapes a backup has are walked step by step (an object whose members may be objects
of arrays); every row, and every other value, is decoded whole by the standard library's
decoder. Memory stays at one row plus a read buffer, however large the file.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import IO, Any

from ..problems import HostProblem

CHUNK = 1 << 16
WHITESPACE = " \t\n\r"


class JSONStreamError(HostProblem):
    """The document is not JSON (or not of the shape asked for); says where."""


def _no_constant(name: str) -> Any:
    # NaN and Infinity are Python's, not JSON's: no database column stores them.
    raise JSONStreamError(f"{name} is not a JSON number")


def _finite(text: str) -> float:
    number = float(text)
    if math.isinf(number):  # 1e999: no database column stores it
        raise JSONStreamError(f"{text} is too large a number")
    return number


class Reader:
    def __init__(self, file: IO[str], start: str = ""):
        """``start``: what was read of ``file`` already (to tell the document's kind)."""
        self.file = file
        self.buf = start
        self.pos = 0
        self.eof = False
        self.consumed = 0  # characters dropped from the buffer's front, for error positions
        self.decoder = json.JSONDecoder(parse_constant=_no_constant, parse_float=_finite)

    def _fill(self, size: int = CHUNK) -> bool:
        if self.eof:
            return False
        chunk = self.file.read(size)
        if not chunk:
            self.eof = True
            return False
        self.consumed += self.pos
        self.buf = self.buf[self.pos :] + chunk
        self.pos = 0
        return True

    def _skip(self) -> None:
        while True:
            while self.pos < len(self.buf) and self.buf[self.pos] in WHITESPACE:
                self.pos += 1
            if self.pos < len(self.buf) or not self._fill():
                return

    def peek(self) -> str:
        self._skip()
        return self.buf[self.pos] if self.pos < len(self.buf) else ""

    def where(self) -> str:
        return f"character {self.consumed + self.pos + 1}"

    def expect(self, char: str) -> None:
        found = self.peek()
        if found != char:
            shown = repr(found) if found else "the end of the file"
            raise JSONStreamError(f"expected {char!r} at {self.where()}, found {shown}")
        self.pos += 1

    def value(self) -> Any:
        """The next whole JSON value (the buffer grows until it holds one).

        Each try decodes the value from its start again, so the buffer grows by as much as it
        holds (doubling), not by one chunk: a 50 MB value is tried about 10 times, not 800
        (quadratic: a minute and hundreds of MB).
        """
        self._skip()
        grow = CHUNK
        while True:
            try:
                value, end = self.decoder.raw_decode(self.buf, self.pos)
            except json.JSONDecodeError as exc:
                if self._fill(grow):
                    grow = max(grow, len(self.buf) - self.pos)
                    continue
                raise JSONStreamError(f"{exc.msg} at {self.where()}") from None
            except RecursionError:
                raise JSONStreamError(f"a value nested too deeply at {self.where()}") from None
            except JSONStreamError as exc:
                raise JSONStreamError(f"{exc} at {self.where()}") from None
            except ValueError as exc:  # e.g. a whole number of more than 4,300 digits
                raise JSONStreamError(f"{str(exc).split(';')[0]} at {self.where()}") from None
            # A number at the buffer's end may go on in the next chunk.
            if end == len(self.buf) and self._fill(grow):
                grow = max(grow, len(self.buf) - self.pos)
                continue
            self.pos = end
            return value

    def members(self) -> Iterator[str]:
        """The keys of an object, one at a time: the caller reads each key's value before the next."""
        self.expect("{")
        if self.peek() == "}":
            self.pos += 1
            return
        while True:
            key = self.value()
            if not isinstance(key, str):
                raise JSONStreamError(f"expected a key at {self.where()}")
            self.expect(":")
            yield key
            if self.peek() == ",":
                self.pos += 1
                continue
            self.expect("}")
            return

    def items(self) -> Iterator[Any]:
        """The values of an array, one at a time."""
        self.expect("[")
        if self.peek() == "]":
            self.pos += 1
            return
        while True:
            yield self.value()
            if self.peek() == ",":
                self.pos += 1
                continue
            self.expect("]")
            return

    def end(self) -> None:
        if self.peek():
            raise JSONStreamError(f"more after the document's end at {self.where()}")
