"""A request's id (``X-Request-Id``): the proxy's when it sent a sane one, else a new one.

One rule for the two places that answer a request: the app's middleware and, under
``scorekeeper serve``, the worker's event loop answering a kept poll (web/loopanswer.py).
"""

from __future__ import annotations

import re
import uuid
from collections.abc import Mapping
from typing import Any

REQUEST_ID = re.compile(r"[A-Za-z0-9._:-]{8,128}")


def request_id(environ: Mapping[str, Any]) -> str:
    given = environ.get("HTTP_X_REQUEST_ID", "")
    return given if REQUEST_ID.fullmatch(given) else uuid.uuid4().hex
