"""A sweep heat map's title notes only the marks the map shows: the 50% line where the grid crosses it,
the frames of cells that differ from the baseline, the dashed baseline (a note of a line or frame that is
not drawn sent the reader looking for it)."""

from __future__ import annotations

from kassen.lab.plots import _heatmap_title


def test_the_title_notes_only_what_is_drawn() -> None:
    title = "east win rate, 10 per cell"
    assert _heatmap_title(title, False, False, False) == title
    assert _heatmap_title(title, True, False, False) == f"{title}\n(line: 50%)"
    assert _heatmap_title(title, False, False, True) == f"{title}\n(dashed: the baseline)"
    assert _heatmap_title(title, True, True, True) == (
        f"{title}\n(line: 50%; framed: differs from the baseline (dashed))"
    )
    assert _heatmap_title(title, False, True, False) == f"{title}\n(framed: differs from the baseline)"
