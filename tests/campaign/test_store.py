"""The roster is durable: each change one transaction, committed before the call returns, so a process
killed with ``kill -9`` right after loses nothing it reported (SQLite WAL with synchronous=FULL, as the
fight store)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from sqlalchemy import text

from kassen.campaign.roster import Campaigns
from kassen.web.schema import LATEST
from kassen.web.store import Store

SCRIPT = """
import os, sys
from kassen.campaign.roster import Campaigns
from kassen.web.store import Store
c = Campaigns(Store(sys.argv[1]))
c.new("ford")
c.add("ford", "sengoku", "kuro", "Kuro", {"creature": "kuro"})
c.edit("ford", "kuro", lasting={"armor_damage": 2, "wounds": 1})
print("edited", flush=True)
os.kill(os.getpid(), 9)
"""


def test_the_roster_survives_kill_9(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'kassen.db'}"
    done = subprocess.run([sys.executable, "-c", SCRIPT, url], capture_output=True, text=True, timeout=120)
    assert done.returncode == -9 and "edited" in done.stdout, done.stderr
    store = Store(url)
    try:
        kuro = Campaigns(store).character("ford", "kuro")
        assert kuro.lasting["armor_damage"] == 2 and kuro.lasting["wounds"] == 1 and kuro.version == 2
    finally:
        store.close()


def test_the_campaign_tables_are_a_migration_step(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'kassen.db'}")
    try:
        assert LATEST >= 4
        with store.reading() as conn:
            names = {r[0] for r in conn.execute(text("SELECT name FROM sqlite_master WHERE type='table'"))}
        assert {"campaigns", "roster", "campaign_fights", "roster_fights", "campaign_players"} <= names
    finally:
        store.close()
