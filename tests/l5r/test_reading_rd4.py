"""L5.RD.4: "fill the target's Dead Wound Rank". The house reading (the seed's words): Dead is a Wound
Rank of its own past Out, Earth x 2 boxes; Wounds in it leave the character down and alive, and filling
its last box kills (with maiming damage, the distinctive death of L5.CS.5). The other reading, one data
value away (``core.dead_rank.earth_multiple: 0``): Dead has no boxes, the first Wound past Out kills."""

from __future__ import annotations

from pathlib import Path

import pytest

from kassen.core.errors import ContentError, IllegalActionError
from kassen.l5r.actions import Attack
from kassen.l5r.attacks import resolve_attack
from kassen.l5r.character import FighterId
from kassen.l5r.content import content_for
from kassen.l5r.damage import add_wounds
from kassen.l5r.state import Fighter, InjuryPending
from kassen.l5r.tables import L5Tables, Location
from kassen.l5r.turn import standing
from kassen.l5r.validate import validate_attack
from kassen.l5r.wounds import dead_at, out_ceiling, wound_rank

from .conftest import ScriptedRng, char, duel, first, kinds, play

A, T = FighterId("A"), FighterId("T")
#: A's attack roll: 6k3 with a 10 that explodes into 9 → 19 + 9 + 9 = 37, against TN 10 + 4 raises x 5 = 30
#: for a called shot to the head (L5.CS.1).
HEAD_SHOT = [10, 9, 9, 9, 1, 1, 1]
#: Katana 3k2 + Strength 2 → 5k2: 5 + 4 = 9 Wounds, a maim at the head for Earth 2 (Earth x 4 = 8).
NINE_WOUNDS = [5, 4, 1, 1, 1]


@pytest.fixture(scope="module")
def no_boxes(tmp_path_factory: pytest.TempPathFactory) -> L5Tables:
    """The other reading, as a user's layer: one value."""
    layer = tmp_path_factory.mktemp("rd4")
    (layer / "core.yaml").write_text("dead_rank:\n  earth_multiple: 0\n", encoding="utf-8")
    return content_for(layer).tables


def test_the_reading_is_a_house_default_with_its_alternative(tables: L5Tables) -> None:
    # rule: L5.RD.4 — in data (core.yaml `dead_rank`), with the rationale and the other reading
    section = tables.core.dead_rank
    assert section.house_default.rule == "L5.RD.4" and section.earth_multiple == 2
    assert "fill" in section.house_default.rationale and "earth_multiple to 0" in section.alternative
    assert ("core.dead_rank", section.house_default, section.alternative) in tables.house_defaults()


def test_a_bad_dead_rank_size_is_refused_with_file_line_and_field(tmp_path: Path) -> None:
    # rule: L5.RD.4 — the size is a count of boxes: a negative one is a content error
    (tmp_path / "core.yaml").write_text("dead_rank:\n  earth_multiple: -1\n", encoding="utf-8")
    with pytest.raises(ContentError) as err:
        content_for(tmp_path)
    [issue] = err.value.issues
    assert issue.field == "core.dead_rank.earth_multiple" and issue.line == 2 and "core.yaml" in issue.file


def test_the_dead_rank_has_earth_x_2_boxes_filled_to_kill(tables: L5Tables) -> None:
    # rule: L5.RD.4 — Earth 2: Out holds Wounds 35-38 (L5.CORE.6), the Dead rank 39-42; the 39th Wound
    # leaves the character down and alive, the 42nd fills the rank and kills
    assert out_ceiling(2, tables) == 38 and dead_at(2, tables) == 42
    state = duel(char("A"), Fighter(char("T", earth=2), wounds=37))
    state, out = play(state, add_wounds, T, 2, reason="a cut", rule="L5.CORE.5")
    t = state.fighter(T)
    assert t.wounds == 39 and not t.dead and kinds(out) == ["wounds", "dying"]
    assert first(out, "wounds").data["rank"] == "Dead rank" and first(out, "dying").rule == "L5.RD.4"
    assert not standing(t, tables)  # down: no actions, and no longer a target
    with pytest.raises(IllegalActionError) as err:
        validate_attack(state, state.fighter(A), Attack(T), tables, free=0)
    assert err.value.rule == "L5.CORE.6"
    state, out = play(state, add_wounds, T, 2, reason="bleeding", rule="L5.CS.4")
    assert state.fighter(T).wounds == 41 and not state.fighter(T).dead and "death" not in kinds(out)
    state, out = play(state, add_wounds, T, 1, reason="more bleeding", rule="L5.CS.4")
    t = state.fighter(T)
    assert t.wounds == 42 and t.dead and t.death == "more bleeding"
    assert first(out, "death").data["distinctive"] is False


def test_the_other_reading_kills_on_the_first_wound_past_out(no_boxes: L5Tables) -> None:
    # rule: L5.RD.4 — earth_multiple 0: the 38th Wound leaves the character Out, the 39th kills
    assert dead_at(2, no_boxes) == 39 and wound_rank(39, 2, no_boxes).dead
    state = duel(char("A"), Fighter(char("T", earth=2), wounds=37))
    state, out = play(state, add_wounds, T, 1, reason="a cut", rule="L5.CORE.5", tables=no_boxes)
    assert state.fighter(T).wounds == 38 and not state.fighter(T).dead and "death" not in kinds(out)
    state, out = play(state, add_wounds, T, 1, reason="another cut", rule="L5.CORE.5", tables=no_boxes)
    t = state.fighter(T)
    assert t.wounds == 39 and t.dead and first(out, "death").rule == "L5.CORE.6"


def test_a_maiming_blow_that_fills_the_dead_rank_is_the_distinctive_death(
    tables: L5Tables, no_boxes: L5Tables
) -> None:
    # rule: L5.RD.4  rule: L5.CS.5 — a head shot of 9 (a maim: Earth 2 x 4 = 8). From 33 Wounds it ends
    # at 42, the Dead rank filled: a distinctive death under both readings. From 30 it ends at 39: with
    # the Dead rank's boxes the target is down and alive, and the attacker picks the injury (the maim
    # among them); with no boxes, that is already the distinctive death.
    for start, reading, dead in ((33, tables, True), (30, tables, False), (30, no_boxes, True)):
        state = duel(char("A", agility=3, void=4), Fighter(char("T", earth=2), wounds=start))
        rng = ScriptedRng([*HEAD_SHOT, *NINE_WOUNDS])
        state, out = play(
            state, resolve_attack, A, Attack(T, called_shot=Location.HEAD), dice=rng, tables=reading
        )
        t = state.fighter(T)
        assert t.wounds == start + 9 and t.dead is dead
        if dead:
            assert "decapitated" in t.death and first(out, "death").rule == "L5.CS.5"
            assert first(out, "death").data["distinctive"] is True
        else:
            assert "dying" in kinds(out) and isinstance(state.pending, InjuryPending)
            assert "maimed" in state.pending.options
