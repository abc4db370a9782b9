"""The tabletop service's tests again, against a real PostgreSQL server.

scripts/test.sh (and so CI) installs Debian's PostgreSQL when it is missing, starts a
throwaway server on 127.0.0.1, exports its URL as ``TRAININGROOM_POSTGRES_URL`` and sets
``TRAININGROOM_REQUIRE_POSTGRES=1``: then a server that cannot be reached is a failure,
never a skip. Elsewhere, without that URL (or a PostgreSQL ``DATABASE_URL``), these tests
are skipped.

Each test process gets a database of its own (created here, dropped afterwards), and each
test starts from empty tables; the service sees it as its ``DATABASE_URL``.
"""

from __future__ import annotations

import os
import secrets
from collections.abc import Iterator

import pytest
from sqlalchemy import create_engine, make_url, text
from sqlalchemy.exc import OperationalError

from sim.tabletop.db.models import Base
from tests.test_tabletop_access import TestRemovalMeansOut as _RemovalTests
from tests.test_tabletop_attacks import TestAttacks as _AttackTests
from tests.test_tabletop_binding import TestSeatsBoundToTheirHolder as _BindingTests
from tests.test_tabletop_service import TestTabletopService as _ServiceTests

REQUIRE = os.environ.get("TRAININGROOM_REQUIRE_POSTGRES") == "1"


def _unavailable(reason: str) -> None:
    if REQUIRE:
        pytest.fail(f"{reason} (TRAININGROOM_REQUIRE_POSTGRES=1, so this is a failure)")
    pytest.skip(reason)


@pytest.fixture(scope="module")
def postgres_database() -> Iterator[str]:
    """A fresh database on the server ``DATABASE_URL`` names; its URL."""
    url = os.environ.get("TRAININGROOM_POSTGRES_URL") or os.environ.get("DATABASE_URL", "")
    if not url.startswith("postgresql"):
        _unavailable(
            "no PostgreSQL server: set TRAININGROOM_POSTGRES_URL (scripts/test.sh starts one)"
        )
    server = make_url(url)
    name = f"tabletop_test_{os.getpid()}_{secrets.token_hex(4)}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    try:
        with admin.connect() as conn:
            conn.execute(text(f'CREATE DATABASE "{name}"'))
    except OperationalError as exc:
        admin.dispose()
        _unavailable(f"cannot reach PostgreSQL at {server.render_as_string()}: {exc.orig}")
    try:
        yield server.set(database=name).render_as_string(hide_password=False)
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        admin.dispose()


@pytest.fixture
def db_url(postgres_database: str, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setenv("DATABASE_URL", postgres_database)
    engine = create_engine(postgres_database)
    Base.metadata.drop_all(engine)
    engine.dispose()
    return postgres_database


def test_the_server_is_postgresql(db_url: str) -> None:
    engine = create_engine(db_url)
    with engine.connect() as conn:
        assert "PostgreSQL" in conn.execute(text("SELECT version()")).scalar_one()
    engine.dispose()


class TestTabletopServiceOnPostgres(_ServiceTests):
    """Every service test of test_tabletop_service.py, on PostgreSQL."""


class TestAttacksOnPostgres(_AttackTests):
    """Every attack of test_tabletop_attacks.py, on PostgreSQL: the same rules, the same key."""


class TestRemovalMeansOutOnPostgres(_RemovalTests):
    """Removal, the lock and the re-key of test_tabletop_access.py, on PostgreSQL."""


class TestSeatsBoundToTheirHolderOnPostgres(_BindingTests):
    """Seats bound to their holder of test_tabletop_binding.py, on PostgreSQL."""
