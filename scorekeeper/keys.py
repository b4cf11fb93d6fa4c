"""A game's edit key: stored only as its hash, and compared with a presented key in one place.

Neither web nor database code: the models, the write gate and the web's roles all import it.
"""

from __future__ import annotations

import hashlib
import hmac


def hash_key(key: str) -> str:
    """What is stored of an edit key (the key itself is only ever in the scorer's link and cookie)."""
    return hashlib.sha256(key.encode()).hexdigest()


def key_matches(key_hash: str, key: str | None) -> bool:
    """The one comparison of a presented key with a game's: constant time, on the hashes."""
    if not key:
        return False
    return hmac.compare_digest(hash_key(key), key_hash)
