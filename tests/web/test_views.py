"""The web's view without the log (:func:`kassen.web.views.view_without_log`) is the core's view less its
log, for every ruleset, every viewer and every point of a fight: a view made faster must not show a side
anything more (or less) than the core's own view."""

from __future__ import annotations

from typing import Any

import pytest

from kassen.core.scenario import open_fight
from kassen.core.view import GM_VIEW, Viewer
from kassen.web.catalog import bundled_source
from kassen.web.views import view_without_log

from .conftest import FIGHTS, open_table


def _core_without_log(fight: Any, viewer: Viewer) -> dict[str, Any]:
    return {k: v for k, v in fight.view(viewer).items() if k != "log"}


@pytest.mark.parametrize("ruleset", sorted(FIGHTS))
def test_the_view_without_its_log_is_the_cores_view_less_the_log(ruleset: str) -> None:
    fight = open_fight(bundled_source(FIGHTS[ruleset]), seed=3)
    viewers = [GM_VIEW, *(Viewer(side) for side in fight.sides())]
    checked = 0
    while True:
        for viewer in viewers:
            assert view_without_log(fight, viewer) == _core_without_log(fight, viewer)
            checked += 1
        if fight.over or checked > 200:
            break
        fight.step()
    assert fight.over


def test_the_api_view_without_its_log_is_the_same_view(client: Any) -> None:
    t = open_table(client, "sengoku/count-example", seed=3)
    for _ in range(5):
        t.act({"auto": True})
    for token in (t.gm, *t.join.values()):
        whole = t.view(token)
        whole.pop("log")
        assert t.view(token, log="false") == whole
