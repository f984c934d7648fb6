"""Fight ids and tokens: unguessable, and never stored in the clear.

- A fight id is 128 random bits (22 URL-safe characters).
- A GM token is 256 random bits (43 characters).
- A side's join token is ``HMAC-SHA256(gm_token, fight id, side[, generation])``: 256 bits that nobody
  can compute without the GM token, so the GM screen can show the join links again while the store
  keeps only the SHA-256 of each token (a copy of the database opens no fight). The generation counts
  how many times the GM replaced that side's link (a player left the table, a link was shared too
  widely); replacing the GM token replaces every link, since each is derived from it.

>>> gm = new_token()
>>> len(gm) >= 43 and join_token(gm, "f", "a") != join_token(gm, "f", "b")
True
"""

from __future__ import annotations

__all__ = [
    "FIGHT_ID_PATTERN",
    "TOKEN_PATTERN",
    "join_token",
    "new_fight_id",
    "new_token",
    "token_hash",
]

import base64
import hashlib
import hmac
import secrets

#: What a fight id looks like (the path parameter is checked against it before anything is read).
FIGHT_ID_PATTERN = r"^[A-Za-z0-9_-]{22}$"
#: What a token looks like (anything else is refused before the store is asked).
TOKEN_PATTERN = r"^[A-Za-z0-9_-]{43}$"


def new_fight_id() -> str:
    """128 random bits, URL-safe."""
    return secrets.token_urlsafe(16)


def new_token() -> str:
    """256 random bits, URL-safe (a GM token)."""
    return secrets.token_urlsafe(32)


def join_token(gm_token: str, fight_id: str, side: str, generation: int = 0) -> str:
    """The join token of ``side`` (its ``generation``-th link), derived from the GM token (see the
    module notes)."""
    message = b"kassen join\x00" + fight_id.encode() + b"\x00" + side.encode("utf-8")
    if generation:
        message += b"\x00" + str(generation).encode()
    digest = hmac.new(gm_token.encode(), message, hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode().rstrip("=")


def token_hash(token: str) -> str:
    """What the store keeps of a token."""
    return hashlib.sha256(token.encode()).hexdigest()
