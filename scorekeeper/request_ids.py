"""A request's id (``X-Request-Id``): the proxy's when it sent a sane one, else a new one.

One rule for the two places that answer a request: the app's middleware and, under
``scorekeeper serve``, the worker's event loop answering a kept poll (web/live/loopanswer.py).
"""

from __future__ import annotations

import random
import re
from collections.abc import Mapping
from typing import Any

REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{8,128}")


def request_id(environ: Mapping[str, Any]) -> str:
    given = environ.get("HTTP_X_REQUEST_ID", "")
    # 128 random bits, as uuid4's, from the random module: uuid4 reads the system's random source,
    # which gives up the interpreter lock, and the worker's event loop (web/live/loopanswer.py) then
    # waited for it again behind busy threads (7% of the loop's time under a crowd). An id to find
    # a request's lines by, not a secret; the random module is seeded anew in each forked worker.
    return given if REQUEST_ID.fullmatch(given) else f"{random.getrandbits(128):032x}"
