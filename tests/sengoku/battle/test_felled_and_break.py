"""What a blow does past the check, in a battle: a weapon's stated [Break] on a Critical Hit or a decisive
blow (SG.BRK.4), the d100 rows against a unit the attack already felled (SG.INP.1 with SG.CRT.4 and
SG.FUM.3), the Bleed of an automatic Critical Hit (SG.AMB.2, SG.AIM.5), and events that name units by
id (with the account telling equal names apart)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from kassen.core.report import account
from kassen.sengoku.battle import GM, Decline
from kassen.sengoku.profile import AttackTags

from .helpers import NO_FATE, Fight, catalog_with, scenario, use

#: A second unit of each side far from the fight, so a fall does not end the combat.
_KEEPERS = (
    {"id": "reserve-a", "creature": "samurai", "side": "a", "zone": "own-rear", "overrides": NO_FATE},
    {"id": "reserve-b", "creature": "gaki", "side": "b", "zone": "enemy-rear", "overrides": NO_FATE},
)


def duel(
    *,
    target: str = "oni",
    attacker: str = "genzaburo",
    weapon: str | None = None,
    foe_wounds: int | None = None,
    own_wounds: int | None = None,
    content: Any = None,
) -> Fight:
    mine: dict[str, Any] = {"creature": attacker, "side": "a", "overrides": dict(NO_FATE)}
    if weapon is not None:
        mine["overrides"]["weapons"] = [weapon]
    if own_wounds is not None:
        mine["wounds"] = own_wounds
    foe: dict[str, Any] = {"id": "foe", "creature": target, "side": "b", "zone": "own-front"}
    foe["overrides"] = NO_FATE
    if foe_wounds is not None:
        foe["wounds"] = foe_wounds
    built = scenario(mine, foe, *_KEEPERS, **({"content": content} if content is not None else {}))
    return Fight(built).begin()


def told(f: Fight) -> str:
    """The account of what ``f`` logged so far."""
    from kassen.core.fight import Fight as CoreFight

    fight = CoreFight(f.ruleset, f.content, f.scenario.state, 0)
    return account(fight, events=[e.to_json() for e in f.events])


def _to(f: Fight, unit: str) -> None:
    while f.decider != unit:
        f.do(f.legal()[-1])  # the others pass


def test_muramasa_breaks_armor_on_a_critical_hit_in_battle() -> None:
    # rule: SG.BRK.4  rule: SG.CRT.3  rule: SG.BRK.2 — Muramasa's "on a Critical Hit, [Pierce 3] +
    # [Break]": a masterwork blade against ordinary heavy armor keeps 3 armor points off until repaired
    f = duel(target="samurai", weapon="muramasa")
    _to(f, "genzaburo")
    before = f.rules.profile(f.state, f.u("foe"))
    events = f.breath("genzaburo", use("horizontal-cut", "foe"), faces=(7, 7))
    [broken] = f.of("armor_broken", events)
    assert broken.data["unit"] == "foe" and broken.data["lost"] == 3
    assert "Muramasa on a Critical Hit" in broken.data["source"]
    assert f.u("foe").armor_damage == 3
    assert f.rules.defense_of(f.rules.profile(f.state, f.u("foe")), AttackTags()).defense == (
        f.rules.defense_of(before, AttackTags()).defense - 3
    )
    text = told(f)
    assert "[Break] (Muramasa on a Critical Hit): Samurai's armor loses 3 point(s) until repaired" in text
    assert "Muramasa on a Critical Hit" in text


def test_muramasa_on_a_plain_hit_breaks_nothing() -> None:
    # rule: SG.BRK.4 — the stated [Break] fires on a Critical Hit only
    f = duel(target="samurai", weapon="muramasa")
    _to(f, "genzaburo")
    events = f.breath("genzaburo", use("horizontal-cut", "foe"), faces=(7, 8))
    assert not f.of("armor_broken", events) and f.u("foe").armor_damage == 0


def test_excalibur_breaks_on_a_decisive_blow_only() -> None:
    # rule: SG.BRK.4  rule: SG.BRK.7 — Excalibur (divine) "[Pierce 4] + [Break] on a decisive blow": the
    # house reading's decisive blow is the Heavenly Mandate (double 10); a double 7 breaks nothing
    f = duel(target="samurai", attacker="gaijin-knight", weapon="excalibur")
    _to(f, "gaijin-knight")
    events = f.breath("gaijin-knight", use("horizontal-cut", "foe"), faces=(7, 7))
    assert not f.of("armor_broken", events) and f.u("foe").armor_damage == 0
    g = duel(target="samurai", attacker="gaijin-knight", weapon="excalibur")
    _to(g, "gaijin-knight")
    events = g.breath("gaijin-knight", use("horizontal-cut", "foe"), faces=(10, 10, 5))
    [broken] = g.of("armor_broken", events)
    assert broken.data["lost"] == 4 and g.u("foe").armor_damage == 4


def test_decisive_blow_reading_is_overridable(tmp_path: Path) -> None:
    # rule: SG.BRK.4 — the other readings: any Critical Hit is decisive
    content = catalog_with(tmp_path, {"resolution": {"stated_break": {"decisive_blow": "critical"}}})
    f = duel(target="samurai", attacker="gaijin-knight", weapon="excalibur", content=content)
    _to(f, "gaijin-knight")
    f.breath("gaijin-knight", use("horizontal-cut", "foe"), faces=(7, 7))
    assert f.u("foe").armor_damage == 4


def test_a_row_against_a_target_the_critical_felled_says_why_it_does_nothing() -> None:
    # rule: SG.INP.1  rule: SG.CRT.4 — Shattered Guard after the Critical Hit took the oni's last 2
    # Wounds: the fallen unit is not made Defenseless, and the row says why it did nothing
    f = duel(foe_wounds=2)
    _to(f, "genzaburo")
    events = f.breath("genzaburo", use("horizontal-cut", "foe"), faces=(10, 10, 20))
    foe = f.u("foe")
    assert foe.incapacitated and not foe.defenseless
    [said] = f.of("table_effect", events)
    assert said.data["unit"] == "foe" and "already Incapacitated" in said.data["text"]
    assert not [e for e in f.of("defenseless", events) if e.data["unit"] == "foe"]


def test_armor_split_still_splits_a_fallen_targets_armor() -> None:
    # rule: SG.INP.1  rule: SG.CRT.4  rule: SG.BRK.2 — the house reading: a row's [Break] reaches the gear
    # of a unit the blow felled (the armor stays damaged until repaired), and says so
    f = duel(target="samurai", foe_wounds=2)
    _to(f, "genzaburo")
    events = f.breath("genzaburo", use("horizontal-cut", "foe"), faces=(10, 10, 50))
    assert f.u("foe").incapacitated and f.u("foe").armor_damage == 2
    [said] = f.of("table_effect", events)
    assert said.data["unit"] == "foe" and "armor loses 2" in said.data["text"]


def test_fallen_reading_is_overridable(tmp_path: Path) -> None:
    # rule: SG.INP.1 — `fallen.equipment_takes_effect: false`: nothing more happens to a fallen unit,
    # and the row says why
    content = house_less(tmp_path)
    f = duel(target="samurai", foe_wounds=2, content=content)
    _to(f, "genzaburo")
    events = f.breath("genzaburo", use("horizontal-cut", "foe"), faces=(10, 10, 50))
    assert f.u("foe").incapacitated and f.u("foe").armor_damage == 0
    [said] = f.of("table_effect", events)
    assert "already Incapacitated" in said.data["text"]


def house_less(tmp_path: Path) -> Any:
    return catalog_with(tmp_path, {"resolution": {"fallen": {"equipment_takes_effect": False}}})


def test_heavens_scorn_breaks_the_weapon_of_a_roller_its_self_injury_felled() -> None:
    # rule: SG.FUM.3  rule: SG.INP.1 — Heaven's Scorn: the roller loses 1 Wound and the weapon breaks;
    # the Wound fells a roller at 1, and its weapon is broken all the same (no "nobody there")
    f = duel(own_wounds=1)
    _to(f, "genzaburo")
    events = f.breath("genzaburo", use("horizontal-cut", "foe"), faces=(1, 1, 98))
    g = f.u("genzaburo")
    assert g.incapacitated and g.broken == ("uchigatana",)
    [broke] = f.of("weapon_broken", events)
    assert broke.data["unit"] == "genzaburo"
    assert not any("nobody there" in e.data["text"] for e in f.of("table_effect", events))


def test_heavens_scorn_with_the_other_reading_says_the_weapon_is_not_broken(tmp_path: Path) -> None:
    # rule: SG.FUM.3  rule: SG.INP.1 — with `equipment_takes_effect: false` the weapon stays whole, and the
    # row says why
    f = duel(own_wounds=1, content=house_less(tmp_path))
    _to(f, "genzaburo")
    events = f.breath("genzaburo", use("horizontal-cut", "foe"), faces=(1, 1, 98))
    assert f.u("genzaburo").broken == ()
    said = [e for e in f.of("table_effect", events) if "already Incapacitated" in e.data["text"]]
    assert [e.data["unit"] for e in said] == ["genzaburo"]


def test_an_automatic_critical_says_the_bleed_it_sets() -> None:
    # rule: SG.AMB.2  rule: SG.AIM.5 — an infiltrating shinobi's Pierce the Vitals: the automatic
    # Critical Hit sets Bleed and says so, as the checked blow does
    f = Fight(
        scenario(
            {"creature": "kuro", "side": "a", "zone": "core", "overrides": NO_FATE},
            {"id": "foe", "creature": "oni", "side": "b", "zone": "core", "overrides": NO_FATE},
            *_KEEPERS,
        )
    ).begin()
    f.set_unit("kuro", infiltrating=True)
    _to(f, "kuro")
    events = f.breath("kuro", use("pierce-the-vitals", "foe"))
    [auto] = f.of("attack", events)
    assert auto.data["automatic_critical"]
    assert f.u("foe").bleeding
    [bleed] = f.of("bleed", events)
    assert bleed.data["unit"] == "foe" and bleed.rule == "SG.AIM.5"


def test_events_name_units_by_id_and_the_account_tells_equal_names_apart() -> None:
    # rule: SG.CHK.1  rule: SG.WND.4 — two unnamed samurai: every event names each by its id, and the
    # account calls the second "Samurai (2)"
    f = Fight(
        scenario(
            {"creature": "genzaburo", "side": "a", "overrides": NO_FATE},
            {"id": "s1", "creature": "samurai", "side": "b", "zone": "own-front", "overrides": NO_FATE},
            {"id": "s2", "creature": "samurai", "side": "b", "zone": "own-front", "overrides": NO_FATE},
        )
    ).begin()
    assert (f.u("s1").name, f.u("s2").name) == ("Samurai", "Samurai (2)")
    _to(f, "genzaburo")
    events = f.breath("genzaburo", use("horizontal-cut", "s2"), faces=(7, 7))
    ids = {u.id for u in f.state.units}
    for e in events:
        for key in ("unit", "attacker", "target", "behind"):
            if isinstance(e.data.get(key), str):
                assert e.data[key] in ids, (e.kind, key, e.data[key])
    for kind in ("attack_check", "critical_hit", "wounds_lost"):
        [e] = f.of(kind, events)
        assert "s2" in (e.data.get("target"), e.data.get("unit"))
    text = told(f)
    assert "a Critical Hit on Samurai (2)" in text
    assert "Samurai (2): Wounds 4 → 2" in text


def test_a_gm_decline_after_a_fumble_is_unchanged() -> None:
    # rule: SG.FUM.2 — the fumble flow still waits on the GM when the roller stands
    f = duel()
    _to(f, "genzaburo")
    f.breath("genzaburo", use("horizontal-cut", "foe"), faces=(1, 1, 10))
    f.do(Decline(GM))
    assert f.u("genzaburo").defenseless
