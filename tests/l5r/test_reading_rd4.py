"""L5.RD.4: "fill the target's Dead Wound Rank". The house reading: Dead has no boxes of its own, so the
first Wound past Out's last box fills it and is fatal (L5.CORE.6); with maiming damage that is the
distinctive death (L5.CS.5). The other reading (Dead as a rank of Earth x 2 boxes) is not implemented."""

from __future__ import annotations

from pathlib import Path

import pytest

from kassen.core.errors import ContentError
from kassen.l5r.actions import Attack
from kassen.l5r.attacks import resolve_attack
from kassen.l5r.character import FighterId
from kassen.l5r.content import content_for
from kassen.l5r.damage import add_wounds
from kassen.l5r.state import Fighter
from kassen.l5r.tables import L5Tables, Location
from kassen.l5r.wounds import out_ceiling

from .conftest import ScriptedRng, char, duel, first, kinds, play

A, T = FighterId("A"), FighterId("T")
#: A's attack roll: 6k3 with a 10 that explodes into 9 → 19 + 9 + 9 = 37, against TN 10 + 4 raises x 5 = 30
#: for a called shot to the head (L5.CS.1).
HEAD_SHOT = [10, 9, 9, 9, 1, 1, 1]
#: Katana 3k2 + Strength 2 → 5k2: 5 + 4 = 9 Wounds, a maim at the head for Earth 2 (Earth x 4 = 8).
NINE_WOUNDS = [5, 4, 1, 1, 1]


def test_the_reading_is_a_house_default_with_its_alternative(tables: L5Tables) -> None:
    # rule: L5.RD.4 — in data (core.yaml `dead_rank`), with the rationale and the other reading
    section = tables.core.dead_rank
    assert section.house_default.rule == "L5.RD.4" and section.boxes == 0
    assert "Dead as a rank with boxes" in section.alternative
    assert ("core.dead_rank", section.house_default, section.alternative) in tables.house_defaults()


def test_the_other_reading_is_refused_not_ignored(tmp_path: Path) -> None:
    # rule: L5.RD.4 — not a switch: a table asking for Dead boxes is a content error naming the field
    core = (Path(__file__).parents[2] / "src/kassen/l5r/data/core.yaml").read_text(encoding="utf-8")
    assert "\n  boxes: 0\n" in core
    (tmp_path / "core.yaml").write_text(core.replace("\n  boxes: 0\n", "\n  boxes: 2\n"), encoding="utf-8")
    with pytest.raises(ContentError) as err:
        content_for(tmp_path)
    assert "dead_rank.boxes" in str(err.value)
    # the layer need not copy the whole file: the one value, merged over the bundled tables, is refused too
    (tmp_path / "core.yaml").write_text("dead_rank:\n  boxes: 2\n", encoding="utf-8")
    with pytest.raises(ContentError) as err:
        content_for(tmp_path)
    [issue] = err.value.issues
    assert issue.field == "core.dead_rank.boxes" and issue.line == 2 and "core.yaml" in issue.file


def test_one_wound_past_out_is_fatal(tables: L5Tables) -> None:
    # rule: L5.RD.4 — Earth 2: Out holds Wounds 35-38 (L5.CORE.6); the 38th leaves the character Out and
    # alive, the 39th (one past Out) kills; with Dead boxes it would take 42
    assert out_ceiling(2, tables) == 38
    state = duel(char("A"), Fighter(char("T", earth=2), wounds=37))
    state, out = play(state, add_wounds, T, 1, reason="a cut", rule="L5.CORE.5")
    t = state.fighter(T)
    assert t.wounds == 38 and not t.dead and "death" not in kinds(out)
    assert first(out, "wounds").data["rank"] == "Out"
    state, out = play(state, add_wounds, T, 1, reason="another cut", rule="L5.CORE.5")
    t = state.fighter(T)
    assert t.wounds == 39 and t.dead and t.death == "another cut"
    death = first(out, "death")
    assert death.rule == "L5.CORE.6" and death.data["distinctive"] is False


def test_a_maiming_blow_one_wound_past_out_fills_the_dead_rank(tables: L5Tables) -> None:
    # rule: L5.RD.4  rule: L5.CS.5 — "severe enough to fill the target's Dead Wound Rank": a head shot of
    # 9 (a maim: Earth 2 x 4 = 8) on a target at 30 Wounds ends at 39, one past Out: a distinctive death
    state = duel(char("A", agility=3, void=4), Fighter(char("T", earth=2), wounds=30))
    rng = ScriptedRng([*HEAD_SHOT, *NINE_WOUNDS])
    state, out = play(state, resolve_attack, A, Attack(T, called_shot=Location.HEAD), dice=rng)
    t = state.fighter(T)
    assert t.wounds == 39 and t.dead and "decapitated" in t.death
    death = first(out, "death")
    assert death.rule == "L5.CS.5" and death.data["distinctive"] is True


def test_the_same_blow_ending_on_outs_last_box_is_not_a_death(tables: L5Tables) -> None:
    # rule: L5.RD.4 — one Wound fewer (29 + 9 = 38, Out's last box): Out, not Dead; the maim is an injury
    # to choose instead (L5.CS.3)
    state = duel(char("A", agility=3, void=4), Fighter(char("T", earth=2), wounds=29))
    rng = ScriptedRng([*HEAD_SHOT, *NINE_WOUNDS])
    state, out = play(state, resolve_attack, A, Attack(T, called_shot=Location.HEAD), dice=rng)
    t = state.fighter(T)
    assert t.wounds == 38 and not t.dead and "death" not in kinds(out) and "out" in kinds(out)
