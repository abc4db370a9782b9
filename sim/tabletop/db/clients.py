"""Which browser an action comes from: what bars a removed seat's browser, what flags it.

The pages name a caller by its page session (``session:…``), its browser when the page
can tell (``browser:…``, the same across reloads and tabs), and, when known, its address
(``ip:…``). A seat remembers each of them, as ``kind:hash`` (only hashes are stored).
The session and the browser **bar** a removed seat: a join from either is refused under
any name. An address only **flags**: it is shared by everyone behind one office's router,
so barring it would keep out the rest of the room; a join from the address of a removed
seat is let in, and the log and the facilitator's page say whose address it was.
"""

from __future__ import annotations

from collections.abc import Iterable

from sim.tabletop.db.backoff import client_hash

#: The kinds of client id that bar a removed seat's browser from joining again.
BARRING_KINDS = ("session", "browser")
#: The kinds that only flag a join (the log links it to the removed seat).
FLAGGING_KINDS = ("ip",)


def seen_hashes(clients: Iterable[str]) -> list[str]:
    """``kind:hash`` of each of ``clients`` a seat remembers, in order, once each."""
    out = []
    for c in clients:
        kind = c.split(":", 1)[0] if isinstance(c, str) else ""
        if kind in BARRING_KINDS + FLAGGING_KINDS:
            out.append(f"{kind}:{client_hash(c)}")
    return list(dict.fromkeys(out))


#: The kinds of client id that can hold a seat, the steadier first (sim.tabletop.binding).
HOLDING_KINDS = ("browser", "session")


def holder_of(clients: Iterable[str]) -> str | None:
    """The ``kind:hash`` that holds a seat for these clients: the browser, else the session."""
    seen = seen_hashes(clients)
    for kind in HOLDING_KINDS:
        found = next((h for h in seen if h.startswith(f"{kind}:")), None)
        if found:
            return found
    return None


def of_kind(hashes: Iterable[str] | None, kinds: tuple[str, ...]) -> list[str]:
    """The stored ``kind:hash`` entries of ``kinds``."""
    return [h for h in hashes or () if h.split(":", 1)[0] in kinds]


def barring(hashes: Iterable[str] | None) -> list[str]:
    return of_kind(hashes, BARRING_KINDS)


def flagging(hashes: Iterable[str] | None) -> list[str]:
    return of_kind(hashes, FLAGGING_KINDS)


def merged(known: list[str] | None, new: Iterable[str]) -> list[str]:
    """A seat's known hashes with ``new`` added (first seen first)."""
    return list(dict.fromkeys([*(known or []), *new]))
