"""``kassen arena ...``: the 3d6 arena ruleset's commands.

- ``damage``: one hit through the damage pipeline (AR.DMG.1-7) with its effects;
- ``check``: exact odds of a 3d6 check (over 216);
- ``bout``: play a YAML bout scenario (bundled name or path) from a seed;
- ``replay``: replay a bout's JSON log and check it reproduces.

Options are plain strings and integers validated here into a :class:`~kassen.core.errors.KassenError`,
so bad input is one line on stderr and exit code 2.
"""

from __future__ import annotations

__all__ = ["arena_app"]

import json
from pathlib import Path
from typing import Annotated, Any

import typer

from kassen.cli.common import console, emit_json, user_errors
from kassen.core.errors import KassenError

arena_app = typer.Typer(
    name="arena",
    help="Arena (3d6 damage and injury): damage pipeline, checks and bouts.",
    no_args_is_help=True,
)

_SOURCES = ("attack", "falling", "knockback", "self")


@arena_app.command("damage")
@user_errors
def damage_command(
    basic: Annotated[int, typer.Option("--basic", help="Basic damage (the damage roll's total).")],
    damage_type: Annotated[
        str, typer.Option("--type", help="Attack type: cr, cut, imp, pi-, pi, pi+, pi++, burn.")
    ],
    ht: Annotated[int, typer.Option("--ht", help="The target's HT (caps, crippling, stun thresholds).")],
    location: Annotated[
        str | None, typer.Option("--location", help="Hit location (default: torso, AR.DMG.1).")
    ] = None,
    armor_dr: Annotated[int, typer.Option("--armor-dr", help="Armor hard DR.")] = 0,
    bone_dr: Annotated[
        int | None, typer.Option("--bone-dr", help="Bone hard DR (default: the location's).")
    ] = None,
    soft_dr: Annotated[
        int | None, typer.Option("--soft-dr", help="Soft DR (default: the location's).")
    ] = None,
    hp: Annotated[
        int | None, typer.Option("--hp", help="The target's HP before the hit (HP thresholds).")
    ] = None,
    st: Annotated[int | None, typer.Option("--st", help="The target's ST (knockback distance).")] = None,
    source: Annotated[str, typer.Option("--source", help="attack, falling, knockback or self.")] = "attack",
    painful: Annotated[bool, typer.Option("--painful", help="The source causes pain (AR.INJ.3).")] = False,
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """One hit through the damage pipeline, with every intermediate value and its effects."""
    from kassen.arena.damage import resolve_damage
    from kassen.arena.injury import hp_effects, injury_effects
    from kassen.arena.knockback import knockback_distance
    from kassen.arena.terms import DamageSource

    if basic < 0:
        raise KassenError(f"basic damage cannot be negative, got {basic}")
    if source not in _SOURCES:
        raise KassenError(f"unknown damage source {source!r} (known: {', '.join(_SOURCES)})")
    if st is not None and st < 1:
        raise KassenError(f"ST must be at least 1, got {st}")
    result = resolve_damage(
        basic,
        damage_type,
        ht=ht,
        location=location,
        armor_dr=armor_dr,
        bone_dr=bone_dr,
        soft_dr=soft_dr,
        source=DamageSource(source),
    )
    effects = list(injury_effects(result, ht=ht, painful=painful))
    data: dict[str, Any] = {
        "basic": result.basic,
        "primary_penetration": result.primary_penetration,
        "penetrating": result.penetrating,
        "multiplier": str(result.multiplier),
        "multiplied": result.multiplied,
        "uncapped_final": result.reduced,
        "final": result.final,
        "capped": result.capped,
        "crippled": result.crippled,
        "location": result.location,
        "type": result.damage_type.value,
        "source": result.source.value,
    }
    if hp is not None:
        effects += hp_effects(hp, hp - result.final, ht)
        data["hp_before"], data["hp_after"] = hp, hp - result.final
    if st is not None and result.source is DamageSource.ATTACK:
        distance, _ = knockback_distance(
            result.basic, result.damage_type, penetrating=result.penetrating, target_st=st
        )
        data["knockback_m"] = distance
        if distance:
            effects.append(_knockback_effect(distance))
    data["effects"] = [e.to_json() for e in effects]
    data["steps"] = [s.to_json() for s in result.steps]
    if as_json:
        emit_json(data)
        return
    from kassen.core.explain import format_steps

    console.print(format_steps(result.steps), markup=False, soft_wrap=True)
    cap = " (capped)" if result.capped else ""
    console.print(f"final damage {result.final}{cap}", markup=False, soft_wrap=True)
    for e in effects:
        value = f" {e.value}" if e.value is not None else ""
        console.print(f"  {e.effect}{value}  [{e.rule}]", markup=False, soft_wrap=True)


def _knockback_effect(distance: int) -> Any:
    from kassen.arena.injury import Effect

    return Effect("knockback", "AR.KNB.1", distance)


@arena_app.command("check")
@user_errors
def check_command(
    target: Annotated[int, typer.Argument(help="Effective attribute or skill (roll 3d6 at or under it).")],
    as_json: Annotated[bool, typer.Option("--json", help="Print JSON instead of text.")] = False,
) -> None:
    """Exact odds of a 3d6 check against TARGET: success, critical success, critical failure (over 216)."""
    from kassen.arena.checks import check_odds

    if not -1000 <= target <= 1000:
        raise KassenError(f"target must be between -1000 and 1000, got {target}")
    odds = check_odds(target)
    if as_json:
        emit_json(odds.to_json())
        return
    for name, count in zip(
        ("success", "critical success", "critical failure", "failure"), odds.counts, strict=True
    ):
        console.print(f"{name:>17}: {count:>3}/216 = {count / 216:.4%}", markup=False, soft_wrap=True)


@arena_app.command("bout")
@user_errors
def bout_command(
    scenario: Annotated[
        str, typer.Argument(help="A bundled scenario (duel, melee, knockback) or a YAML path.")
    ],
    seed: Annotated[int | None, typer.Option(help="Seed (default: the scenario's).")] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print the replayable chronicle as JSON.")] = False,
) -> None:
    """Play a bout scenario to its end and print the log (or the replayable JSON chronicle)."""
    from kassen.arena.scenario import load_scenario, run_scenario

    loaded = load_scenario(scenario)
    chronicle = run_scenario(loaded, seed)
    result = chronicle.state.result
    if as_json:
        data = chronicle.to_json()
        data["result"] = (
            None
            if result is None
            else {"winner": result.winner, "reason": result.reason, "subturn": result.subturn}
        )
        emit_json(data)
        return
    console.print(f"{loaded.name} (seed {chronicle.seed})", markup=False, soft_wrap=True)
    for entry in chronicle.entries:
        console.print(f"> {_action_text(entry.action)}", markup=False, soft_wrap=True)
        for e in entry.events:
            console.print(
                f"    {'*' if e.automatic else ' '} {_event_text(e.kind, dict(e.data))}  [{e.rule}]",
                markup=False,
                soft_wrap=True,
            )
    if result is not None:
        console.print(
            f"winner: {result.winner or 'nobody'} ({result.reason}, subturn {result.subturn})",
            markup=False,
            soft_wrap=True,
        )


@arena_app.command("replay")
@user_errors
def replay_command(
    log: Annotated[Path, typer.Argument(help="A chronicle written by `kassen arena bout ... --json`.")],
) -> None:
    """Replay a bout from its JSON chronicle (initial state, seed, actions) and check the log matches."""
    from kassen.arena import bout  # noqa: F401  (registers the ruleset)
    from kassen.core.events import Chronicle, canonical_json

    try:
        data = json.loads(log.read_text(encoding="utf-8"))
    except OSError as exc:
        raise KassenError(f"cannot read {str(log)!r}: {exc.strerror}") from None
    except json.JSONDecodeError as exc:
        raise KassenError(f"{str(log)!r} is not JSON: {exc.msg} at line {exc.lineno}") from None
    if not isinstance(data, dict) or "log" not in data:
        raise KassenError(f"{str(log)!r} is not a kassen chronicle")
    data.pop("result", None)
    replayed = Chronicle.replay(data)
    same = replayed.log_json() == canonical_json(data)
    console.print(
        f"replayed {len(replayed.entries)} actions: {'identical log' if same else 'LOG DIFFERS'}",
        markup=False,
        soft_wrap=True,
    )
    if not same:
        raise KassenError("the replayed log differs from the recorded one")


def _action_text(action: Any) -> str:
    kind = action.get("kind", "?")
    rest = " ".join(f"{k}={v}" for k, v in action.items() if k != "kind")
    return f"{kind} {rest}".strip()


def _event_text(kind: str, data: dict[str, Any]) -> str:
    shown = {k: v for k, v in data.items() if k not in ("steps", "target_steps", "dice")}
    return f"{kind} " + " ".join(f"{k}={v}" for k, v in shown.items())
