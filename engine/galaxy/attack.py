"""Attacks: an agent's weapon against aliens (or a healing weapon on an agent), an alien's
weapon against an agent, and the Guard reaction."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.events import Attacked, Event, Note
from engine.core.words import counted
from engine.galaxy import combat
from engine.galaxy import dice as gdice
from engine.galaxy.expansion import expanded, hooks
from engine.galaxy.lifecycle import kill_alien
from engine.galaxy.state import AgentState, AlienState, GalaxyState, Pending
from engine.galaxy.world import (
    adjacent,
    agent_name,
    agent_sees,
    alien_adjacent,
    alien_hexes,
    alien_name,
    area_distance,
    area_of,
    card,
    engaging,
    facing_hex,
    figures_on_map,
    find_alien,
    knows_alien_tech,
    profile,
    sees,
    weapon,
)

# A weapon's Bolt effect as players read it (the key stays in the content).
BOLT_WORDS = {
    "hit+1": "+1 Hit",
    "def-1": "one Defense die fewer",
    "heal+1": "+1 Hit",
    "immobilize": "immobilized",
    "paralyze": "paralyzed",
}


def weapon_problem(
    state: GalaxyState, agent: AgentState, index: int, target: AlienState | AgentState
) -> str | None:
    """Why this weapon cannot be fired at this target now (None when it can)."""
    ws = agent.weapons[index]
    w = weapon(ws.key)
    if agent.hex is None or target.hex is None:
        return "is not on the battlefield"
    if ws.jammed:
        return f"cannot fire the {w.name}: it is Jammed (Unjam it first)"
    needs_ammo = w.kind != "melee" and w.tier != "alien" and w.ammo > 0
    if needs_ammo and ws.ammo < 1:
        return f"has no Ammo left for the {w.name}"
    healing = w.kind == "healing"
    friendly = state.options.get("friendly-fire") == "on"
    if healing and not isinstance(target, AgentState):
        return f"cannot heal an alien with the {w.name}"
    if healing and isinstance(target, AgentState) and target.drone_of is not None:
        return "cannot heal a battle drone"
    if healing and not target.wounds:
        return "has no Wound to heal on that agent"
    if isinstance(target, AgentState) and not healing:
        if not friendly:
            return "cannot attack another agent (Friendly Fire is off)"
        if target.id == agent.id:
            return "cannot attack himself"
    if healing and target.id == agent.id:
        return None
    spot = target.hex
    if isinstance(target, AlienState):  # a multi-hex alien: any hex of its base (11.8)
        spot = facing_hex(state, target, agent.hex)
    if (
        state.options.get("close-fight") == "on"
        and isinstance(target, AlienState)
        and any(alien_adjacent(state, a, agent.hex) for a in engaging(state))
        and not alien_adjacent(state, target, agent.hex)
    ):
        return "is Engaged: with Close Fight on he may only attack the aliens he is Engaged with"
    if isinstance(target, AlienState) and expanded(state) and not hooks().exposed(state, target):
        return (
            "cannot target it: a Burrowing alien is underground until the top Close "
            "Encounter discard clearly matches it (7.2.1)"
        )
    if not sees(state, agent.hex, spot):
        return "has no line of sight to the target"
    if not agent_sees(state, agent, spot):
        return "must face the target: with Human View only the 3 front hexes count"
    if w.kind == "melee":
        if not adjacent(state, agent.hex, spot):
            return f"must be adjacent to strike with the {w.name}"
    elif area_distance(state, agent.hex, spot) > w.range:
        return f"is out of range: the {w.name} reaches {counted(w.range, 'Area')}"
    return None


def agent_attack(
    state: GalaxyState,
    agent: AgentState,
    index: int,
    target: AlienState | AgentState,
    area: bool,
    dice: Dice,
    events: list[Event],
    reaction: bool = False,
    prefix: str = "",
    extra_blue: bool = False,
) -> None:
    """`reaction`: fired outside the agent's own Combat (Guard, drones): no Ammo choice.
    `extra_blue`: added Hit dice of a RED+BLUE weapon are BLUE (Operation Strikeback 9.2)."""
    ws = agent.weapons[index]
    w = weapon(ws.key)
    count = w.dice
    bonus_key = "melee" if w.kind == "melee" else "ranged"
    count += agent.bonus_dice.pop(bonus_key, 0) + agent.bonus_dice.pop("any", 0)
    assert agent.hex is not None and target.hex is not None
    darkness = (
        state.weather == "darkness"
        and w.kind == "ranged"
        and area_distance(state, agent.hex, target.hex) >= 2
    )
    if darkness:
        count = max(1, count - 1)
    alien_tech = w.tier == "alien" and not knows_alien_tech(agent)
    sb_effects: tuple[str, ...] = ()
    # who the attack can damage is fixed at target selection, before the Hit roll (7.2.1)
    hit_ids = [] if w.kind == "healing" else targets_of(state, target, area, agent)
    if expanded(state) and "explosion" in w.powers:
        hit_ids = hooks().explosion_targets(state, target, agent)  # Explosion (8.4)
    if expanded(state):
        # poses, Criticals, fixed-Hit and RED+BLUE weapons (9.2, 9.2.2, 8.2.3)
        count += hooks().alien_dice(agent, w)  # Alien Knowledge skills (9.7.1)
        roll = hooks().attack_roll(
            state,
            agent,
            w,
            count,
            dice,
            alien_tech=alien_tech,
            extra_blue=extra_blue,
            reroll_alien=hooks().rerolls_alien(agent, w),
        )
        if hooks().bolts_blocked(state, agent.id):
            roll.bolt = False  # a Critical forbids his Bolt effects
        sb_effects = hooks().bolt_effects(w, roll.bolt)
    else:
        roll = combat.hit_roll(dice, w.color, count, alien_tech=alien_tech)
    notes: list[str] = []
    human_ranged = w.kind != "melee" and w.tier != "alien" and w.ammo > 0
    if human_ranged:
        if area and "area-always" not in w.powers:  # Strikeback GD-5: Area Damage always
            ws.ammo -= 1
            notes.append("1 Ammo spent for Area Damage")
        if "auto-ammo" in w.powers:
            if ws.ammo > 0:
                ws.ammo -= 1
            notes.append("1 Ammo spent automatically (Ammo result ignored)")
        elif roll.ammo and ws.ammo > 0:
            ws.ammo -= 1
            notes.append("Ammo result: 1 Ammo discarded")
        if roll.jam and "no-jam" not in w.powers:
            ws.jammed = True
            notes.append(f"Jam result: the {w.name} jams after this attack")
    hits = roll.hits
    def_minus = 0
    if roll.bolt and w.bolt:
        if w.bolt == "hit+1":
            hits += 1
        elif w.bolt == "def-1":
            def_minus = 1
        elif w.bolt == "heal+1":
            hits += 1
        notes.append(f"Bolt effect: {BOLT_WORDS.get(w.bolt, w.bolt)}")
    if roll.fail:
        notes.append("Alien Weapon without Alien Knowledge: Jam or Alien result, the attack fails")
    if darkness:
        notes.append("darkness: one die fewer")
    target_name = agent_name(target) if isinstance(target, AgentState) else alien_name(target)
    shown = roll.told or combat.roll_text(w.color, roll.faces)
    events.append(
        Attacked(
            attacker=agent.id,
            target=target.id,
            weapon=w.name,
            faces=roll.described or gdice.describe(w.color, roll.faces),
            hits=hits,
            result="; ".join(notes),
            text=f"{prefix}{agent_name(agent)} attacks {target_name} "
            f"with the {w.name}: {shown} - {counted(hits, 'Hit')}"
            + (f" ({'; '.join(notes)})" if notes else "")
            + ".",
        )
    )
    if w.kind == "healing":
        assert isinstance(target, AgentState)
        healed_ones = [target]
        if expanded(state) and "area-heal" in w.powers:
            healed_ones = hooks().area_heal_targets(state, target)  # Area Healing (8.5)
        for one in healed_ones:
            healed = combat.heal_agent(one, hits)
            events.append(Note(text=f"{agent_name(one)} heals {counted(healed, 'Wound')}."))
        return
    bolt_condition = w.bolt if roll.bolt and w.bolt in ("immobilize", "paralyze") else ""
    if "boost-ammo" in w.powers and ws.ammo > 0 and reaction and agent.guard_boost:
        extra = min(agent.guard_boost, ws.ammo)  # the Guard's standing order, set in advance
        ws.ammo -= extra
        hits += extra
        events.append(Note(text=f"{agent_name(agent)} spends {extra} more Ammo: {hits} Hits."))
    if "boost-ammo" in w.powers and ws.ammo > 0 and not reaction:
        state.pending = Pending(
            kind="boost",
            seat=agent.id,
            options=[str(n) for n in range(ws.ammo + 1)],
            data={
                "weapon": index,
                "targets": hit_ids,
                "hits": hits,
                "def_minus": def_minus,
                "kind": w.kind,
                "condition": bolt_condition,
                **({"effects": list(sb_effects)} if sb_effects else {}),
            },
        )
        events.append(
            Note(
                text=f"{agent_name(agent)} may spend extra Ammo on the {w.name} for +1 Hit each "
                f"(up to {ws.ammo}): choose how many."
            )
        )
        return
    resolve_defence(
        state,
        agent,
        hit_ids,
        hits,
        def_minus,
        w.kind,
        bolt_condition,
        dice,
        events,
        w.name,
        sb_effects,
    )


def targets_of(
    state: GalaxyState,
    target: AlienState | AgentState,
    area: bool,
    attacker: AgentState | None = None,
    device: bool = False,
) -> list[str]:
    """The figures an attack hits: its target, or with Area Damage every alien in the Area
    (and, with Friendly Fire, every agent there except the firer of a weapon; a device can
    hurt its owner)."""
    if not area:
        return [target.id]

    assert target.hex is not None
    here = area_of(state, target.hex)
    ids = [
        a.id for a in state.aliens if any(area_of(state, h) == here for h in alien_hexes(state, a))
    ]
    if expanded(state):  # underground Burrowing aliens are not damaged (7.2.1)
        ids = [i for i in ids if hooks().exposed(state, find_alien(state, i))]
    if state.options.get("friendly-fire") == "on":
        for agent in figures_on_map(state):
            assert agent.hex is not None
            mine = attacker is not None and agent.id == attacker.id
            if area_of(state, agent.hex) == here and (device or not mine):
                ids.append(agent.id)
    return ids


def resolve_defence(
    state: GalaxyState,
    agent: AgentState,
    target_ids: list[str],
    hits: int,
    def_minus: int,
    kind: str,
    condition: str,
    dice: Dice,
    events: list[Event],
    weapon_name: str,
    sb_effects: tuple[str, ...] = (),
) -> None:
    """Each target defends separately against the same Hits (Area Damage). `sb_effects`:
    the Operation Strikeback Bolt effects (Lethal, Critical N) that reach aliens."""
    for target_id in target_ids:
        if target_id in state.agents:
            friend = state.agents[target_id]
            if friend.dead or friend.hex is None:
                continue
            pose = hooks().defence_dice(state, friend, "melee" if kind == "melee" else "ranged")
            if expanded(state) and sb_effects:  # Lethal / Critical Bolts (8.1, 8.2)
                wounds = hooks().friendly_defends(
                    state, friend, hits, def_minus - pose, kind, sb_effects, dice, events
                )
                cause = f"{agent_name(agent)}'s {weapon_name}"
                combat.wound_agent(state, friend, wounds, events, cause)
                if condition and not friend.dead and condition not in friend.conditions:
                    friend.conditions.append(condition)
                continue
            roll = _agent_defends(dice, friend, hits, def_minus - pose, kind, state)
            events.append(
                Note(
                    text=f"Friendly fire! {agent_name(friend)} defends with "
                    f"{combat.defence_text(roll.faces)}."
                )
            )
            combat.wound_agent(
                state, friend, roll.wounds, events, f"{agent_name(agent)}'s {weapon_name}"
            )
            if condition and not friend.dead and condition not in friend.conditions:
                friend.conditions.append(condition)
            continue
        if not any(a.id == target_id for a in state.aliens):
            continue
        alien = find_alien(state, target_id)
        c = card(alien)
        if expanded(state):
            cause = f"{agent_name(agent)}'s {weapon_name}"
            before = alien.wounds
            dead = hooks().alien_defends(
                state, alien, hits, def_minus, kind, dice, events, cause, sb_effects
            )
            if dead or alien.wounds > before:
                hooks().wounded_by(state, alien, agent, events)  # the Menace token (11.3.1)
            if dead:
                die(state, alien, dice, events)
            elif (
                condition
                and condition not in alien.conditions
                and not hooks().immune(alien, condition)
            ):
                alien.conditions.append(condition)
            continue
        roll = combat.defend_roll(
            dice,
            hits,
            energy=alien.energy,
            def_minus=def_minus,
            armor=c.armor,
            attack="melee" if kind == "melee" else "ranged",
            reroll_alien="reroll-alien" in c.powers,
        )
        if combat.wound_alien(state, alien, roll, events, f"{agent_name(agent)}'s {weapon_name}"):
            die(state, alien, dice, events)
        elif condition and condition not in alien.conditions:
            alien.conditions.append(condition)
            events.append(Note(text=f"{alien_name(alien)} is {condition.title()}d (Bolt)."))


def die(state: GalaxyState, alien: AlienState, dice: Dice, events: list[Event]) -> None:
    c = card(alien)
    kill_alien(state, alien, events)
    if "acid-blood" in c.powers:
        for agent in figures_on_map(state):
            assert agent.hex is not None
            if alien_adjacent(state, alien, agent.hex):
                roll = _agent_defends(dice, agent, 1, 0, "basic", state)
                events.append(
                    Note(
                        text=f"Acid blood splashes {agent_name(agent)}: defends 1 Hit with "
                        f"{combat.defence_text(roll.faces)}."
                    )
                )
                combat.wound_agent(state, agent, roll.wounds, events, "acid blood")


def alien_attack(
    state: GalaxyState,
    alien: AlienState,
    agent: AgentState,
    kind: str,
    dice: Dice,
    events: list[Event],
    reason: str,
) -> None:
    if expanded(state):
        hooks().alien_attack(state, alien, agent, kind, dice, events, reason)
        return
    c = card(alien)
    w = c.melee if kind == "melee" else c.ranged
    assert w is not None
    roll = combat.hit_roll(dice, w.color, w.dice, reroll_alien="reroll-alien" in c.powers)
    hits = roll.hits + (1 if roll.bolt and w.bolt == "hit+1" else 0)
    def_minus = 1 if roll.bolt and w.bolt == "def-1" else 0
    events.append(
        Attacked(
            attacker=alien.id,
            target=agent.id,
            weapon=w.name,
            faces=gdice.describe(w.color, roll.faces),
            hits=hits,
            result=reason,
            text=f"{alien_name(alien)} attacks {agent_name(agent)} with {w.name} ({reason}): "
            f"{combat.roll_text(w.color, roll.faces)} - {counted(hits, 'Hit')}.",
        )
    )
    defend = _agent_defends(dice, agent, hits, def_minus, kind, state)
    extra = f", armor Bolt {defend.bolt_effect}" if defend.bolt_effect else ""
    events.append(
        Note(
            text=f"{agent_name(agent)} defends with {combat.defence_text(defend.faces)}"
            + (f" after Energy Shield cancels {defend.energy_used}" if defend.energy_used else "")
            + f"{extra}."
        )
    )
    if defend.wounds == 0:
        events.append(Note(text=f"{agent_name(agent)} cancels every Hit."))
    combat.wound_agent(state, agent, defend.wounds, events, alien_name(alien))
    condition = w.bolt if roll.bolt and w.bolt in ("immobilize", "paralyze") else ""
    impose(agent, condition, events)


def impose(agent: AgentState, condition: str, events: list[Event]) -> None:
    """An alien weapon's Bolt condition on an agent, until the Refresh (Paralyzed also
    Immobilizes)."""
    if condition and not agent.dead and condition not in agent.conditions:
        agent.conditions.append(condition)
        if condition == "paralyze" and "immobilize" not in agent.conditions:
            agent.conditions.append("immobilize")
        events.append(Note(text=f"{agent_name(agent)} is {condition.title()}d until the Refresh."))


def guard_react(state: GalaxyState, alien: AlienState, dice: Dice, events: list[Event]) -> None:
    """Guard, a Reaction: outside his own Agent turn a ready guard fires once a round at an
    alien that just moved or appeared. The player picks the weapon in advance with a standing
    order (`guard-with-<weapon>`, `-area` to pay Ammo for Area Damage); without one, the first
    of his weapons that can reach fires, single target. A drone has no turn of its own."""
    for agent in figures_on_map(state):
        if alien not in state.aliens or state.pending is not None:
            return
        if not guard_ready(state, agent) or not guard_aims_at(agent, alien):
            continue
        for index, area in guard_weapons(agent):
            if weapon_problem(state, agent, index, alien) is None:
                agent.guard = False
                agent_attack(
                    state, agent, index, alien, area, dice, events, reaction=True, prefix="Guard! "
                )
                break


def guard_aims_at(agent: AgentState, alien: AlienState) -> bool:
    """The standing order `guard-at-<rank>`: fire only at aliens of that rank or above (a rank
    beyond the core's three, an expansion's, is above them all)."""
    if not agent.guard_rank:
        return True
    ranks = ("green", "blue", "red")
    rank = card(alien).rank
    return rank not in ranks or ranks.index(rank) >= ranks.index(agent.guard_rank)


def guard_ready(state: GalaxyState, agent: AgentState) -> bool:
    """A Guard token is ready, the order stands, and it is not the agent's own turn."""
    if profile(agent).ability != "guard" and "guard" not in agent.skills:
        return False  # no Guard reaction
    if not (agent.guard and agent.guard_order) or agent.bleeding:
        return False
    if "paralyze" in agent.conditions:
        return False
    own_turn = state.phase == "agent" and state.turn_order[state.turn_index] == agent.id
    return not own_turn


def guard_weapons(agent: AgentState) -> list[tuple[int, bool]]:
    """The (weapon index, Area Damage) the standing order allows, in order of preference."""
    keys = [ws.key for ws in agent.weapons]
    if agent.guard_weapon in keys:
        index = keys.index(agent.guard_weapon)
        w = weapon(agent.guard_weapon)
        area = agent.guard_area and "area-for-ammo" in w.powers and agent.weapons[index].ammo >= 1
        return [(index, area)]
    return [(i, False) for i, k in enumerate(keys) if weapon(k).kind != "healing"]


def _agent_defends(
    dice: Dice,
    agent: AgentState,
    hits: int,
    def_minus: int,
    kind: str,
    state: GalaxyState | None = None,
) -> combat.DefendRoll:
    """An agent's defend roll against `hits`; his Energy Shield is spent first.

    `kind` "melee" is a melee attack, "basic" a Hit that is no attack (acid blood), anything
    else a ranged attack. With the Strikeback layer a worn Power Suit's shields come first and,
    while they last, override his own shield and armor (9.5.2.3).
    """
    attack = kind if kind in ("melee", "basic") else "ranged"
    if state is not None and expanded(state):
        suit = hooks().worn(state, agent.id)
        if suit is not None and suit.shields > 0:
            roll = combat.defend_roll(
                dice, hits, energy=suit.shields, def_minus=def_minus, armor=None, attack=attack
            )
            suit.shields -= roll.energy_used
            return roll
    roll = combat.defend_roll(
        dice,
        hits,
        energy=agent.energy,
        def_minus=def_minus,
        armor=profile(agent).armor,
        attack=attack,
    )
    agent.energy -= roll.energy_used
    return roll
