"""Slowing down repeated failed joins: a backoff per client, kept in the database.

A client is whatever the caller can name: the page passes its browser session and, when
known, the address it comes from. The first few failures of a client cost nothing (people
mistype codes); after that each failure blocks the client for twice as long as the one
before, up to :data:`MAX_BLOCK_SECONDS`, and a client that has not failed for
:data:`FORGET_SECONDS` starts afresh. A blocked client is refused at once, before any
room is looked up, so guessing from one client runs at a few tries an hour at most.

Times come from the service's clock (seconds since the epoch), which tests replace, so
nothing here ever sleeps.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable

from sqlalchemy.orm import Session

from sim.tabletop.db.models import FailedAttempt
from sim.tabletop.errors import Refused

#: Failures a client may make before the backoff starts, by the kind of client.
FREE_FAILURES = {"session": 5, "ip": 30}
DEFAULT_FREE = 5
FIRST_BLOCK_SECONDS = 2.0
MAX_BLOCK_SECONDS = 15 * 60.0
FORGET_SECONDS = 60 * 60.0


class Throttled(Refused):
    """Too many failed attempts from this client: wait ``retry_after`` seconds."""

    def __init__(self, retry_after: float) -> None:
        self.retry_after = retry_after
        super().__init__(
            "too many failed attempts from here; try again in "
            f"{math.ceil(retry_after)} second{'s' if math.ceil(retry_after) != 1 else ''}"
        )


def client_hash(client: str) -> str:
    return hashlib.sha256(client.encode("utf-8", "surrogatepass")).hexdigest()


def block_seconds(failures: int, free: int) -> float:
    """How long a client is blocked after its ``failures``-th failure."""
    over = failures - free
    if over <= 0:
        return 0.0
    return min(MAX_BLOCK_SECONDS, FIRST_BLOCK_SECONDS * 2.0 ** (over - 1))


def _free(client: str) -> int:
    return FREE_FAILURES.get(client.split(":", 1)[0], DEFAULT_FREE)


def check(session: Session, clients: Iterable[str], now: float) -> None:
    """Refuse with :class:`Throttled` while any of ``clients`` is blocked."""
    for client in clients:
        row = session.get(FailedAttempt, client_hash(client))
        if row is not None and row.blocked_until > now:
            raise Throttled(row.blocked_until - now)


def record_failure(session: Session, clients: Iterable[str], now: float) -> None:
    """Count one failure against each client and block it as the count says."""
    for client in clients:
        row = session.get(FailedAttempt, client_hash(client))
        if row is None or now - row.last_failure > FORGET_SECONDS:
            if row is not None:
                session.delete(row)
                session.flush()
            row = FailedAttempt(client_hash=client_hash(client), failures=0, blocked_until=0.0)
            session.add(row)
        row.failures += 1
        row.last_failure = now
        wait = block_seconds(row.failures, _free(client))
        row.blocked_until = now + wait if wait else 0.0
