"""Room codes, facilitator keys and seat keys; their hashes; limits on what people type.

Codes and keys come from :mod:`secrets`. Only a SHA-256 of each key is stored: the keys
carry 192 bits of randomness, so a fast hash is enough (nothing to brute-force), and a
stolen database does not let anyone act as the facilitator or a player. A room is found
by the hash of its code, and every stored hash is compared with
:func:`hmac.compare_digest`, so neither lookups nor comparisons time what was typed.

A room code is twelve characters of Crockford's base 32 with at least one letter; what
people type is read forgivingly (NFKC, so full-width characters count as ordinary ones;
any case; spaces and dashes anywhere; O for 0, I and L for 1), but anything that is not
a whole code, an all-digit input above all, finds no room: a database id never does.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import unicodedata

from sim.tabletop.db.identity import MAX_NAME, check_unicode
from sim.tabletop.errors import InputError

__all__ = ["MAX_NAME", "check_unicode"]

#: Crockford's base 32: no I, L, O or U, so a code read aloud is not misheard.
ROOM_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: 12 characters of 32: 60 bits, shown as three groups of four.
ROOM_CODE_CHARS = 12
KEY_BYTES = 24

MAX_ORGANISATION = 80
MAX_RATIONALE = 1_000
MIN_RATIONALE = 10
MAX_COMMENT = 1_000
MAX_HOT_WASH = 600
MAX_OWNER = 80


def new_room_code() -> str:
    """A fresh room code, never all digits (so it never reads as a number)."""
    while True:
        raw = "".join(secrets.choice(ROOM_ALPHABET) for _ in range(ROOM_CODE_CHARS))
        if not raw.isdigit():
            return "-".join(raw[i : i + 4] for i in range(0, ROOM_CODE_CHARS, 4))


def normalize_room_code(code: object) -> str | None:
    """The room code people meant, or None when what they typed cannot be one."""
    if not isinstance(code, str) or len(code) > 64:
        return None
    try:
        code.encode("utf-8")
    except UnicodeEncodeError:
        return None
    typed = unicodedata.normalize("NFKC", code).upper()
    raw = "".join(c for c in typed if c not in " -\t")
    raw = raw.translate(str.maketrans("OIL", "011"))
    if len(raw) != ROOM_CODE_CHARS or raw.isdigit() or any(c not in ROOM_ALPHABET for c in raw):
        return None
    return "-".join(raw[i : i + 4] for i in range(0, ROOM_CODE_CHARS, 4))


def room_hash(code: str) -> str:
    """What a room is found by: the SHA-256 of its normalised code."""
    return hashlib.sha256(code.encode("ascii")).hexdigest()


def new_key() -> str:
    return secrets.token_urlsafe(KEY_BYTES)


def key_hash(key: object) -> str:
    """The stored form of a key; a key that is not valid text hashes to nothing stored."""
    text = key.strip() if isinstance(key, str) else ""
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def check_key(key: object, what: str = "the key") -> str:
    """A key as typed or pasted: text, valid Unicode, of a sane length."""
    text = check_unicode(key, what)
    if len(text) > 200:
        raise InputError(f"{what} is far longer than any key")
    return text


def hashes_match(a: str, b: str) -> bool:
    """Two hex digests compared in constant time."""
    return hmac.compare_digest(a.encode("ascii"), b.encode("ascii"))


def key_matches(key: object, stored_hash: str) -> bool:
    return hashes_match(key_hash(key), stored_hash)


def clean_text(text: object, what: str, max_chars: int, min_chars: int = 1) -> str:
    """Strip, drop control and bidi characters (keep line breaks), and enforce the limits."""
    kept = "".join(
        c
        for c in check_unicode(text, what)
        if c in "\n\t" or not unicodedata.category(c).startswith("C")
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
