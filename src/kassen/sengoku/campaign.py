"""Sengoku between battles: the campaign hooks (:mod:`kassen.campaign.hooks`) and their data.

What a roster character carries (``data/campaign.yaml``, every silence of the seeds a house default):

- **death** — every unit at 0 Wounds makes the death check when the combat ends, inside the battle (with
  the table's typed dice when the battle is played with table dice): 2d10 + the higher of Physique or
  Fate >= 11 survives "with serious injury", else dies (SG.INP.3). A dead character is never cast again.
  A survivor starts the next battle with 1 Wound and -1 on every check it makes until a rest (house
  default: resolution.yaml's serious injury, the unit's ``check_penalty``).
- **Wounds** — lost Wounds stay lost until the GM grants a rest (``rest``), house default (SG.WND.1).
- **Fate** — Fate points spent stay spent (SG.FAT.1).
- **armor** — [Break] damage stays on the armor until repaired (SG.BRK.2): an emergency patch once per
  armor (``patch``), then camp or forge repair (``camp``, ``forge``; SG.BRK.6, defense.yaml ``repair``).
- **weapons** — a weapon the critical mistake table destroyed (SG.FUM.3) is gone from every later battle
  until the GM rearms the character (``rearm``); one dropped and not picked up (SG.FUM.2) is found again
  after the battle (house defaults, ``weapons`` in the data).

>>> from kassen.campaign.hooks import Character
>>> kuro = Character("kuro", "Kuro", "sengoku", {"creature": "kuro"}, {"wounds": 2, "fate_points": 1})
>>> CAMPAIGN.entry(kuro)["wounds"], CAMPAIGN.entry(kuro)["overrides"]
(2, {'fate_points': 1})
"""

from __future__ import annotations

__all__ = ["CAMPAIGN", "SengokuCampaign", "SengokuLasting", "load_between_battles"]

from collections.abc import Mapping, Sequence
from functools import cache
from typing import Any, Literal

from pydantic import Field

from kassen.campaign.hooks import CampaignError, Cast, Character, Entry, Note, Recovery
from kassen.content.yamlio import HouseDefault, StrictModel, load_package_model
from kassen.core.fight import Fight
from kassen.core.scenario import ScenarioSource
from kassen.i18n import S_, _, translate_text
from kassen.sengoku.breakage import Repair, emergency_patch, repair
from kassen.sengoku.profile import CombatProfile


class _Wounds(StrictModel):
    carry: bool = True
    rest_restores: Literal["all"] = "all"
    house_default: HouseDefault


class _SeriousInjury(StrictModel):
    wounds: int = Field(default=1, ge=1, le=20)
    check_penalty: int = Field(default=1, ge=0, le=10)
    house_default: HouseDefault


class _Fate(StrictModel):
    carry: bool = True
    house_default: HouseDefault


class _Weapons(StrictModel):
    broken_carry: bool = True
    dropped: Literal["recovered", "lost"] = "recovered"
    house_default: HouseDefault


class BetweenBattles(StrictModel):
    """``data/campaign.yaml``."""

    wounds: _Wounds
    serious_injury: _SeriousInjury
    fate_points: _Fate
    weapons: _Weapons


@cache
def load_between_battles() -> BetweenBattles:
    return load_package_model("kassen.sengoku.data", "campaign.yaml", BetweenBattles)


class SengokuLasting(StrictModel):
    """What a Sengoku character carries between battles. ``wounds``/``fate_points`` None: as its sheet
    gives them (full Wounds, the sheet's Fate points)."""

    wounds: int | None = Field(default=None, ge=1, le=20, description="Wounds left (none: full)")
    fate_points: int | None = Field(default=None, ge=0, le=20, description="Fate points left")
    armor_damage: int = Field(default=0, ge=0, le=40, description="[Break] damage on its armor (SG.BRK.2)")
    emergency_patch_used: bool = Field(default=False, description="its armor's one patch is spent (SG.BRK.6)")
    serious_injury: bool = Field(default=False, description="survived a death check, not yet rested")
    weapons_lost: list[str] = Field(
        default_factory=list,
        max_length=20,
        description="weapons broken (or lost) in a battle, gone until replaced (SG.FUM.3)",
    )
    battles: int = Field(default=0, ge=0, le=100_000)
    dead: bool = False
    death: str = Field(default="", max_length=400)


_RECOVERIES = {
    "rest": Recovery(
        "rest", "a full day's rest in camp: every Wound back, serious injury healed", "SG.INP.3"
    ),
    "patch": Recovery("patch", "emergency patch of the armor (once per armor)", "SG.BRK.6"),
    "camp": Recovery("camp", "camp repair of the armor", "SG.BRK.6"),
    "forge": Recovery("forge", "forge repair: the armor as new", "SG.BRK.6"),
    "rearm": Recovery("rearm", "new weapons for those broken or lost", "SG.FUM.3"),
}


class SengokuCampaign:
    """The Sengoku campaign hooks (see the module notes)."""

    ruleset = "sengoku"
    lasting = SengokuLasting
    entries = "units"
    key = "id"
    placement = frozenset({"zone", "initiative", "initiative_round", "stances", "policy", "script"})
    recoveries: Mapping[str, Recovery] = _RECOVERIES

    def entry(self, character: Character) -> dict[str, Any]:
        sheet = {k: v for k, v in character.sheet.items() if k not in ("side", "zone", "id", "name")}
        out: dict[str, Any] = {"id": character.id, "name": character.name, **sheet}
        lasting = SengokuLasting.model_validate(dict(character.lasting))
        if lasting.wounds is not None:
            out["wounds"] = lasting.wounds
        if lasting.fate_points is not None:
            if isinstance(out.get("inline"), Mapping):
                out["inline"] = {**out["inline"], "fate_points": lasting.fate_points}
            else:
                out["overrides"] = {**dict(out.get("overrides") or {}), "fate_points": lasting.fate_points}
        if lasting.armor_damage:
            out["armor_damage"] = lasting.armor_damage
        if lasting.weapons_lost:
            _without_weapons(out, lasting.weapons_lost)
        penalty = load_between_battles().serious_injury.check_penalty
        if lasting.serious_injury and penalty:
            _put_field(out, "check_penalty", penalty)
        return out

    def probe(self, entry: Mapping[str, Any]) -> ScenarioSource:
        foe = "probe-foe" if entry.get("id") != "probe-foe" else "probe-other"
        data = {
            "name": "sheet check",
            "sides": [{"id": "own", "allies": True}, {"id": "foe"}],
            "units": [{**entry, "side": "own"}, {"id": foe, "creature": "ashigaru-squad", "side": "foe"}],
        }
        return ScenarioSource("sheet", "sheet", "sengoku", data)

    def settle(
        self, fight: Fight[Any, Any], cast: Sequence[Cast], take: Mapping[str, Sequence[str]]
    ) -> tuple[Entry, ...]:
        rules = load_between_battles()
        state = fight.state
        deaths = {d.unit: d for d in state.deaths}
        target = fight.tables.resolution.death_check.target
        out = []
        for member in cast:
            ch = member.character
            unit = next((u for u in state.units if u.id == ch.id), None)
            if unit is None:
                raise CampaignError(S_("{name} ({id}) is not in this battle", name=ch.name, id=ch.id))
            before = SengokuLasting.model_validate(dict(ch.lasting))
            after: dict[str, Any] = before.model_dump()
            notes: list[Note] = []
            after["battles"] = before.battles + 1
            if unit.incapacitated:
                d = deaths.get(unit.id)
                if d is None:
                    raise CampaignError(
                        S_("{name} fell but the battle made no death check (is it over?)", name=ch.name)
                    )
                roll = S_(
                    "2d10 {value}+{value2} + modifier = {total}",
                    value=d.faces[0],
                    value2=d.faces[1],
                    total=d.total,
                )
                if not d.survives:
                    after.update(
                        dead=True,
                        death=S_(
                            "died after the battle: death check {roll} < {target}", roll=roll, target=target
                        ),
                    )
                    notes.append(
                        Note(
                            S_(
                                "{name} dies: death check {roll} < {target}",
                                name=ch.name,
                                roll=roll,
                                target=target,
                            ),
                            "SG.INP.3",
                        )
                    )
                else:
                    wounds = rules.serious_injury.wounds
                    after.update(wounds=wounds, serious_injury=True)
                    notes.append(
                        Note(
                            S_(
                                "{name} survives the death check ({roll} >= {target}) with serious injury:"
                                " {wounds} Wound until a rest",
                                name=ch.name,
                                roll=roll,
                                target=target,
                                wounds=wounds,
                            ),
                            "SG.INP.3",
                        )
                    )
            elif rules.wounds.carry:
                after["wounds"] = unit.wounds if unit.wounds < unit.wounds_max else None
                if unit.wounds < unit.wounds_max:
                    notes.append(
                        Note(
                            S_(
                                "{name} carries {wounds} of {wounds_max} Wounds (no rest yet)",
                                name=ch.name,
                                wounds=unit.wounds,
                                wounds_max=unit.wounds_max,
                            ),
                            "SG.WND.1",
                        )
                    )
            else:
                after["wounds"] = None
            if rules.fate_points.carry:
                spent = fight.initial_state.unit(unit.id).fate_points - unit.fate_points
                after["fate_points"] = unit.fate_points
                if spent > 0:
                    notes.append(
                        Note(
                            S_(
                                "{name} spent {spent} Fate point(s): {fate_points} left",
                                name=ch.name,
                                spent=spent,
                                fate_points=unit.fate_points,
                            ),
                            "SG.FAT.1",
                        )
                    )
            if unit.armor_damage != before.armor_damage:
                after["armor_damage"] = unit.armor_damage
                notes.append(
                    Note(
                        S_(
                            "{name}'s armor lost {value} point(s) to [Break]:"
                            " {armor_damage} gone until repaired",
                            name=ch.name,
                            value=unit.armor_damage - before.armor_damage,
                            armor_damage=unit.armor_damage,
                        ),
                        "SG.BRK.2",
                    )
                )
            self._weapons(ch, unit, rules, after, notes)
            for rid in take.get(ch.id, ()):
                self._recover(ch, rid, after, notes)
            out.append(
                Entry(
                    ch.id,
                    before.model_dump(),
                    SengokuLasting.model_validate(after).model_dump(),
                    tuple(notes),
                )
            )
        return tuple(out)

    def _weapons(
        self, ch: Character, unit: Any, rules: BetweenBattles, after: dict[str, Any], notes: list[Note]
    ) -> None:
        """A weapon the battle broke stays broken (SG.FUM.3's "destroyed"), one dropped and not picked up
        is recovered or lost as the data says (SG.FUM.2; house defaults)."""
        gone = list(after["weapons_lost"])
        if rules.weapons.broken_carry:
            for weapon in unit.broken:
                if weapon not in gone:
                    gone.append(weapon)
                    notes.append(
                        Note(
                            S_(
                                "{name}'s {weapon} was destroyed: gone until replaced",
                                name=ch.name,
                                weapon=weapon,
                            ),
                            "SG.FUM.3",
                        )
                    )
        if unit.dropped and rules.weapons.dropped == "lost" and unit.dropped not in gone:
            gone.append(unit.dropped)
            notes.append(
                Note(
                    S_("{name}'s {dropped} was left on the field: lost", name=ch.name, dropped=unit.dropped),
                    "SG.FUM.2",
                )
            )
        elif unit.dropped:
            notes.append(
                Note(
                    S_("{name} picks up its {dropped} after the battle", name=ch.name, dropped=unit.dropped),
                    "SG.FUM.2",
                )
            )
        after["weapons_lost"] = gone

    def _recover(self, ch: Character, rid: str, after: dict[str, Any], notes: list[Note]) -> None:
        if rid not in _RECOVERIES:
            raise CampaignError(
                S_(
                    "no recovery {rid} in Sengoku (known: {value})",
                    rid=f"{rid!r}",
                    value=", ".join(_RECOVERIES),
                )
            )
        if after["dead"]:
            raise CampaignError(S_("{name} is dead: no {rid}", name=ch.name, rid=rid))
        if rid == "rearm":
            if after["weapons_lost"]:
                lost = ", ".join(after["weapons_lost"])
                notes.append(
                    Note(S_("{name} is rearmed: {lost} replaced", name=ch.name, lost=lost), "SG.FUM.3")
                )
            after["weapons_lost"] = []
            return
        if rid == "rest":
            after.update(wounds=None, serious_injury=False)
            notes.append(
                Note(S_("{name} rests a full day in camp: every Wound back", name=ch.name), "SG.INP.3")
            )
            return
        profile = CombatProfile(
            name=ch.name,
            armor_damage=after["armor_damage"],
            emergency_patch_used=after["emergency_patch_used"],
        )
        if rid == "patch":
            fixed, steps = emergency_patch(profile)
        else:
            fixed, steps = repair(profile, Repair(rid))
        after.update(armor_damage=fixed.armor_damage, emergency_patch_used=fixed.emergency_patch_used)
        notes.extend(
            Note(S_("{name}: {reason}", name=ch.name, reason=s.reason), s.rule or "SG.BRK.6") for s in steps
        )

    def sheet(self, character: Character) -> list[str]:
        lasting = SengokuLasting.model_validate(dict(character.lasting))
        if lasting.dead:
            return [_("dead: {death}").format(death=translate_text(lasting.death or ""))]
        lines = [
            _("Wounds: full")
            if lasting.wounds is None
            else _("Wounds: {wounds}").format(wounds=lasting.wounds),
            _("Fate points: as the sheet gives")
            if lasting.fate_points is None
            else _("Fate points: {points}").format(points=lasting.fate_points),
            (
                _("armor damage: {damage} (emergency patch spent)")
                if lasting.emergency_patch_used
                else _("armor damage: {damage} (emergency patch available)")
            ).format(damage=lasting.armor_damage),
            _("battles: {battles}").format(battles=lasting.battles),
        ]
        if lasting.weapons_lost:
            lines.append(
                _("weapons gone until replaced: {weapons} (SG.FUM.3)").format(
                    weapons=", ".join(lasting.weapons_lost)
                )
            )
        if lasting.serious_injury:
            penalty = load_between_battles().serious_injury.check_penalty
            lines.append(
                _(
                    "serious injury: -{penalty} on every check until a full day's rest"
                    " (SG.INP.3 house default)"
                ).format(penalty=penalty)
            )
        return lines


def _put_field(entry: dict[str, Any], name: str, value: Any) -> None:
    """A creature field set on a unit's entry: in its inline template, else in its overrides."""
    if isinstance(entry.get("inline"), Mapping):
        entry["inline"] = {**entry["inline"], name: value}
    else:
        entry["overrides"] = {**dict(entry.get("overrides") or {}), name: value}


def _without_weapons(entry: dict[str, Any], gone: Sequence[str]) -> None:
    """``entry`` (a unit's scenario entry) without the weapons ``gone``: its inline list, else its
    overrides' list, else its catalog creature's, filtered; the weapon in hand is the first left."""
    inline = entry.get("inline")
    if isinstance(inline, Mapping):
        entry["inline"] = {**inline, "weapons": [w for w in inline.get("weapons") or () if w not in gone]}
        return
    overrides = dict(entry.get("overrides") or {})
    weapons = overrides.get("weapons")
    if weapons is None:
        creature = entry.get("creature")
        catalog: Any = _catalog()
        weapons = list(catalog.creatures[creature].weapons) if creature in catalog.creatures else []
    overrides["weapons"] = [w for w in weapons if w not in gone]
    entry["overrides"] = overrides


@cache
def _catalog() -> Any:
    from kassen.campaign.build import _bundled_content

    return _bundled_content("sengoku").tables.catalog


CAMPAIGN = SengokuCampaign()
