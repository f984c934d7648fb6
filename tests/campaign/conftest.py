"""A fresh store for each campaign test: SQLite, and PostgreSQL as the fight store's tests reach it
(``KASSEN_TEST_POSTGRES``, see tests/web/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from kassen.campaign.roster import Campaigns
from kassen.web.store import Store


@pytest.fixture(params=["sqlite", "postgresql"])
def campaigns(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Campaigns]:
    if request.param == "sqlite":
        url = f"sqlite:///{tmp_path / 'kassen.db'}"
    else:
        from web.conftest import need_pg

        url = need_pg()
    store = Store(url)
    try:
        yield Campaigns(store)
    finally:
        store.close()


@pytest.fixture
def sqlite_campaigns(tmp_path: Path) -> Iterator[Campaigns]:
    store = Store(f"sqlite:///{tmp_path / 'kassen.db'}")
    try:
        yield Campaigns(store)
    finally:
        store.close()
