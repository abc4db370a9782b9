"""Room codes, facilitator keys and seat keys; their hashes; limits on what people type.

Codes and keys come from :mod:`secrets`. Only a SHA-256 of each key is stored: the keys
carry 192 bits of randomness, so a fast hash is enough (nothing to brute-force), and a
stolen database does not let anyone act as the facilitator or a player.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata

from sim.tabletop.errors import InputError

#: Crockford's base 32: no I, L, O or U, so a code read aloud is not misheard.
ROOM_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: 12 characters of 32: 60 bits, shown as three groups of four.
ROOM_CODE_CHARS = 12
KEY_BYTES = 24

MAX_NAME = 40
MAX_RATIONALE = 1_000
MIN_RATIONALE = 10
MAX_COMMENT = 1_000
MAX_HOT_WASH = 600
MAX_OWNER = 80


def new_room_code() -> str:
    raw = "".join(secrets.choice(ROOM_ALPHABET) for _ in range(ROOM_CODE_CHARS))
    return "-".join(raw[i : i + 4] for i in range(0, ROOM_CODE_CHARS, 4))


def normalize_room_code(code: str) -> str:
    """Accept what people type: any case, spaces or no dashes, O for 0 and I/L for 1."""
    raw = "".join(c for c in code.upper() if c.isalnum())
    raw = raw.translate(str.maketrans("OIL", "011"))
    return "-".join(raw[i : i + 4] for i in range(0, len(raw), 4))


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def key_hash(key: str) -> str:
    return hashlib.sha256(key.strip().encode("utf-8")).hexdigest()


def key_matches(key: str, stored_hash: str) -> bool:
    return hmac.compare_digest(key_hash(key), stored_hash)


def clean_text(text: str, what: str, max_chars: int, min_chars: int = 1) -> str:
    """Strip, drop control characters (keep line breaks), and enforce the limits."""
    kept = "".join(
        c for c in str(text) if c in "\n\t" or not unicodedata.category(c).startswith("C")
    ).strip()
    if len(kept) < min_chars:
        raise InputError(
            f"{what} is empty"
            if min_chars <= 1
            else f"{what} needs at least {min_chars} characters"
        )
    if len(kept) > max_chars:
        raise InputError(f"{what} is limited to {max_chars} characters (got {len(kept)})")
    return kept


def clean_name(name: str) -> str:
    """A display name: one line, 1 to :data:`MAX_NAME` characters."""
    return " ".join(clean_text(name, "a display name", MAX_NAME).split())
