"""Which browser an action comes from, and which of its ids bar a removed seat's browser.

The pages name a caller by its page session (``session:…``), its browser when the page
can tell (``browser:…``, the same across reloads and tabs), and, when known, its address
(``ip:…``). The session and the browser bar a removed seat; an address does not: it is
shared by everyone behind one office's router, so barring it would keep out the rest of
the room. Only hashes are stored.
"""

from __future__ import annotations

from collections.abc import Iterable

from sim.tabletop.db.backoff import client_hash

#: The kinds of client id that bar a removed seat's browser from joining again.
BARRING_KINDS = ("session", "browser")


def barring_hashes(clients: Iterable[str]) -> list[str]:
    """The hashes of ``clients`` that bar a browser (its session ids), in order, once each."""
    kept = [c for c in clients if isinstance(c, str) and c.split(":", 1)[0] in BARRING_KINDS]
    return list(dict.fromkeys(client_hash(c) for c in kept))


def merged(known: list[str] | None, new: Iterable[str]) -> list[str]:
    """A seat's known browser hashes with ``new`` added (first seen first)."""
    return list(dict.fromkeys([*(known or []), *new]))
