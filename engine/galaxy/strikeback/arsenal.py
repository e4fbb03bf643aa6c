"""The expansion's agent weapons and their attack rules: fixed-Hit weapons and RED+BLUE dice
(9.2, and 11.12 for aliens), the Bolt-like GD result, Explosion (8.4), Area Healing (8.5),
and Lethal and Critical Bolt effects on agents' weapons (8.1, 8.2).

The weapons are ours (`content/weapons.json`): the box's 2 Improved and 5 Alien Weapon tokens
join the Warehouse cups when the layer is on (2.2: expansion content is mixed with the core
set), and each Power Suit sheet has its own on-board weapon, never drawn from a cup.

- A fixed-Hit weapon rolls nothing: its Hits are the printed number, plus anything that adds
  Hit dice (a power or pose adds that many Hits; darkness takes one away). A Critical
  "-X ATK dice" does not touch it (8.2.3). With no roll there is no Bolt, Ammo or Jam result.
- A RED+BLUE weapon rolls both colours. Added Hit dice are the attacker's choice of colour
  (the attack's `mode:blue-dice` adds them BLUE; without it they are RED); a Critical
  "-X ATK dice" takes RED dice first (ours).
- `gd-as-bolt`: a GD result triggers the Bolt effect too, once per roll (9.2, 9.5.2.2).
- Explosion: the target, every figure in its Area and every figure in the Areas one border
  away along a legal walking path (an agent's: through open doors, not windows, walls or
  Barrier sides) defend the same Hits and effects.
- Area Healing: the healing reaches every other agent in the target's Area too.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from engine.core.content import ContentFile, load_file
from engine.core.dice import Dice
from engine.core.errors import ContentError
from engine.core.words import counted
from engine.galaxy import combat
from engine.galaxy import dice as gdice
from engine.galaxy.content import WEAPON_BOLTS, WEAPON_POWERS, Weapon
from engine.galaxy.state import AgentState, AlienState, GalaxyState
from engine.galaxy.strikeback import poses
from engine.galaxy.strikeback.lookups import penalty
from engine.galaxy.strikeback.npc import npc_weapon
from engine.galaxy.strikeback.status import sb_state_or_none
from engine.galaxy.world import area_of, board_of, figures_on_map, locked, on_map_agents, weapon

CONTENT = Path(__file__).parent / "content" / "weapons.json"

BOLT_EFFECTS = {"lethal", "critical-1", "critical-2"}  # 8.1, 8.2 on an agent's weapon
POWERS = {"explosion", "area-heal", "gd-as-bolt"}
BLUE_DICE = "blue-dice"  # the attack mode that adds extra Hit dice as BLUE dice


class WeaponsFile(ContentFile):
    weapons: list[Weapon]
    suit_weapons: list[Weapon]


@cache
def _load() -> tuple[dict[str, Weapon], dict[str, Weapon]]:
    data = load_file(CONTENT, WeaponsFile)
    weapons = {w.key: w for w in data.weapons}
    suits = {w.key: w for w in data.suit_weapons}
    for w in [*weapons.values(), *suits.values()]:
        if w.bolt not in WEAPON_BOLTS | BOLT_EFFECTS or not set(w.powers) <= WEAPON_POWERS | POWERS:
            raise ContentError(f"weapon {w.key}: unknown Bolt effect or power")
        if (w.fixed is None) == (w.dice == 0) or w.blue < 0 or w.range < 0 or w.ammo < 0:
            raise ContentError(f"weapon {w.key}: either dice or a fixed number of Hits")
        if w.tier == "alien" and w.ammo:
            raise ContentError(f"weapon {w.key}: Alien Weapons use no Ammo")
    return weapons, suits


def may_replace(old: str, new: str) -> bool:
    """9.2.1 Managing Weapons: a weapon with limited Ammo may give way to any other; one with
    unlimited Ammo only to another with unlimited Ammo (so an agent can always deal damage)."""
    return weapon(old).ammo > 0 or weapon(new).ammo == 0


def weapons() -> dict[str, Weapon]:
    """The expansion's Improved and Alien Weapon tokens (they go into the Warehouse)."""
    return _load()[0]


def suit_weapons() -> dict[str, Weapon]:
    """The Power Suits' on-board weapons (9.5.2.2)."""
    return _load()[1]


def expansion_weapon(key: str) -> Weapon:
    """An expansion weapon by key, else an NPC's (`world.weapon` falls back here)."""
    found = weapons().get(key) or suit_weapons().get(key)
    if found is not None:
        return found

    return npc_weapon(key)


def is_suit_weapon(key: str) -> bool:
    return key in suit_weapons()


def warehouse(state: GalaxyState) -> list[Weapon]:
    """Expansion weapons that join the core Warehouse's cups (only with the layer on)."""
    return list(weapons().values()) if sb_state_or_none(state) is not None else []


def mixed(w: Weapon) -> bool:
    return w.blue > 0


def extra_dice(state: GalaxyState, agent: AgentState, w: Weapon) -> int:
    """Hit dice the next attack with this weapon gains (powers, abilities, a pose)."""

    kind = "melee" if w.kind == "melee" else "ranged"
    return (
        agent.bonus_dice.get(kind, 0)
        + agent.bonus_dice.get("any", 0)
        + poses.attack_dice(state, agent, w.kind)
    )


def blue_choice_open(state: GalaxyState, agent: AgentState, w: Weapon) -> bool:
    """9.2: a RED+BLUE weapon with added Hit dice lets the attacker pick their colour."""
    return sb_state_or_none(state) is not None and mixed(w) and extra_dice(state, agent, w) > 0


def attack_roll(
    state: GalaxyState,
    agent: AgentState,
    w: Weapon,
    count: int,
    dice: Dice,
    *,
    alien_tech: bool,
    extra_blue: bool = False,
    reroll_alien: bool = False,
) -> combat.HitRoll:
    """An agent's Hit roll with the layer on. `count` is the core's RED/BLUE dice count for
    the weapon (its dice, bonus dice, darkness); the pose and Critical penalties come here."""

    delta = count - w.dice + poses.attack_dice(state, agent, w.kind)
    if w.fixed is not None:
        hits = max(0, w.fixed + delta)
        return combat.HitRoll(
            color=w.color,
            faces=[],
            hits=hits,
            described=[f"{hits} fixed Hit(s)"],
            told=counted(hits, "fixed Hit"),
        )
    cut = penalty(state, agent.id, "atk")
    main, blue = w.dice, w.blue
    if extra_blue and mixed(w) and delta > 0:
        blue += delta
    else:
        main += delta
    main, cut = max(0, main - cut), max(0, cut - main)
    blue = max(0, blue - cut) if mixed(w) else 0
    roll = combat.hit_roll(dice, w.color, main, reroll_alien=reroll_alien, alien_tech=alien_tech)
    if not mixed(w) and "gd-as-bolt" not in w.powers:
        return roll
    return _with_blue(roll, w, blue, dice, alien_tech)


def _with_blue(
    roll: combat.HitRoll, w: Weapon, blue: int, dice: Dice, alien_tech: bool
) -> combat.HitRoll:
    """Add the BLUE dice of a RED+BLUE weapon and read GD results as Bolts."""
    blue_faces = gdice.roll(dice, "blue", blue)
    main = gdice.tally(w.color, roll.faces)
    other = gdice.tally("blue", blue_faces)
    total = main + other
    out = combat.HitRoll(color=w.color, faces=roll.faces + blue_faces)
    out.hits = total[gdice.HIT]
    out.bolt = total[gdice.BOLT] > 0 or ("gd-as-bolt" in w.powers and total[gdice.GD] > 0)
    out.ammo = total[gdice.AMMO] > 0
    out.jam = total[gdice.JAM] > 0
    if alien_tech and (total[gdice.JAM] or total[gdice.ALIEN]):
        out.fail, out.hits, out.bolt = True, 0, False
    out.described = [f"{w.color} {d}" for d in gdice.describe(w.color, roll.faces)] + [
        f"blue {d}" for d in gdice.describe("blue", blue_faces)
    ]
    if blue_faces:  # else the weapon's own colour tells it (`combat.roll_text`)
        own, extra = gdice.said(w.color, roll.faces), gdice.said("blue", blue_faces)
        out.told = f"{w.color} dice {own}; blue dice {extra}"
    return out


def bolt_effects(w: Weapon, bolt: bool) -> tuple[str, ...]:
    """The expansion Bolt effects this roll triggers (Lethal, Critical N)."""
    return (w.bolt,) if bolt and w.bolt in BOLT_EFFECTS else ()


def explosion_targets(
    state: GalaxyState, target: AlienState | AgentState, attacker: AgentState | None
) -> list[str]:
    """8.4: every figure in the target's Area and in each Area one border away along a legal
    walking path (aliens; with Friendly Fire the agents there too, never the firer)."""

    assert target.hex is not None
    here = area_of(state, target.hex)
    graph = board_of(state).walk_graph(locked(state), "agent")
    areas = {here, *graph.adjacent(here)}
    ids = [target.id] + [
        a.id for a in state.aliens if area_of(state, a.hex) in areas and a.id != target.id
    ]
    if state.options.get("friendly-fire") == "on":
        for agent in figures_on_map(state):
            assert agent.hex is not None
            mine = attacker is not None and agent.id == attacker.id
            if area_of(state, agent.hex) in areas and not mine and agent.id not in ids:
                ids.append(agent.id)
    return ids


def area_heal_targets(state: GalaxyState, target: AgentState) -> list[AgentState]:
    """8.5: the healed agent and every other agent (not battle drones) in his Area."""

    assert target.hex is not None
    here = area_of(state, target.hex)
    others = [
        a
        for a in on_map_agents(state)
        if a.id != target.id and a.hex is not None and area_of(state, a.hex) == here
    ]
    return [target, *others]


def alien_hit_roll(
    state: GalaxyState, fixed: int | None, color: str, count: int, dice: Dice, reroll: bool
) -> combat.HitRoll:
    """11.12: an alien weapon with a fixed number of Hits rolls nothing (and a Critical
    -X ATK dice does not touch it)."""
    if fixed is not None:
        return combat.HitRoll(
            color=color,
            faces=[],
            hits=fixed,
            described=[f"{fixed} fixed Hits"],
            told=counted(fixed, "fixed Hit"),
        )
    return combat.hit_roll(dice, color, count, reroll_alien=reroll)
