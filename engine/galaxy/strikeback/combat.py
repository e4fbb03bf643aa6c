"""The expansion's combat in live play: what the core Galaxy engine calls when the game runs
with the Operation Strikeback layer (`GalaxyState.expansion` is set).

Alien attacks on agents and agent attacks on aliens go through here: Energy Shield stacks
(11.7), Lethal (8.1), High Impact (storybook 5.5.1), Mark (8.3) with the Xeno-Delta lock-on,
Poison (9.3.2) and Critical tokens (8.2) with their effects on later rolls, Movement and
Health. Every function is a no-op (or the core value) in a core game.
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.events import Attacked, Event, Killed, Note
from engine.core.hexgrid import neighbours as hx_neighbours
from engine.core.words import counted, listed
from engine.galaxy import combat
from engine.galaxy import dice as gdice
from engine.galaxy.aliens import move_away
from engine.galaxy.attack import impose
from engine.galaxy.board import label
from engine.galaxy.content import AlienCard, alien_card
from engine.galaxy.signals import reveal_in_sight
from engine.galaxy.state import AgentState, AlienState, GalaxyState
from engine.galaxy.strikeback import (
    arsenal,
    cards,
    criticals,
    damage,
    devices,
    marks,
    masters,
    poses,
    powers,
)
from engine.galaxy.strikeback.lookups import penalty, status, worn
from engine.galaxy.strikeback.movement import can_seize, drop_hex
from engine.galaxy.strikeback.status import CriticalPile, sb_state, sb_state_or_none
from engine.galaxy.world import agent_name, alien_name, board_of, card, co, free, hx, profile, where


def bolts_blocked(state: GalaxyState, figure: str) -> bool:
    """A Critical 'no Bolt effects' token is on this figure."""
    if sb_state_or_none(state) is None or figure not in sb_state(state).figures:
        return False
    held = sb_state(state).figures[figure].criticals
    return any(criticals.tokens()[k].effect == "no-bolt" for k in held)


def enters_play(state: GalaxyState, card_id: str) -> None:
    cards.check_playable(alien_card(card_id))


def wounded_by(state: GalaxyState, alien: AlienState, by: AgentState, events: list[Event]) -> None:
    """An agent's attack wounded this alien: a Master's Menace token moves (11.3.1)."""

    masters.wounded(state, alien, by, events)


def immune(alien: AlienState, condition: str) -> bool:
    return masters.immune(alien, condition)


def stacks_of(state: GalaxyState, alien: AlienState) -> list[int]:
    """The alien's Energy Shield stacks left (one stack for a core card's shield)."""
    c = card(alien)
    full = c.stacks if isinstance(c, cards.ExpansionAlienCard) else [c.energy]
    return sb_state(state).stacks.setdefault(alien.id, [n for n in full if n] or [0])


def expansion_effects(c: AlienCard, kind: str) -> list[str]:
    return c.effects.get(kind, []) if isinstance(c, cards.ExpansionAlienCard) else []


def effect_name(effect: str) -> str:
    """A weapon's Bolt effect as its token is named: "mark-2" -> "Mark 2", "lethal" -> "Lethal"."""
    return effect.replace("-", " ").capitalize()


def _pile(state: GalaxyState, level: int, dice: Dice) -> CriticalPile:
    piles = sb_state(state).piles
    if str(level) not in piles:
        piles[str(level)] = criticals.new_pile(level, dice)
    return piles[str(level)]


def critical(
    state: GalaxyState, target: AgentState | AlienState, level: int, dice: Dice, events: list[Event]
) -> int:
    """Draw and place one Critical token; returns the instant extra damage it deals."""
    is_agent = isinstance(target, AgentState) and target.drone_of is None
    pile = _pile(state, level, dice)
    fits = "agent" if is_agent else "other"
    if isinstance(target, AlienState) and immune(target, "paralyze"):
        fits = "master"  # a Master ignores Paralyze: that token is redrawn as not compatible
    token = criticals.draw(pile, fits, dice)
    name = agent_name(target) if isinstance(target, AgentState) else alien_name(target)
    if token is None:
        events.append(Note(text=f"No Critical {level} token fits {name}."))
        return 0
    what = criticals.place(status(state, target.id), token, sb_state(state).piles)
    said = criticals.effect_words(token.effect, token.level)
    events.append(Note(text=f"Critical {level} on {name}: {said} ({what})."))
    if what in ("kept",) or what.startswith("replaced"):
        if token.effect == "paralyze" and "paralyze" not in target.conditions:
            target.conditions.append("paralyze")
        if token.effect == "shields-off" and isinstance(target, AlienState):
            sb_state(state).stacks[target.id] = [0 for _ in stacks_of(state, target)]
            target.energy = 0
    return token.level if token.effect == "damage" else 0


def alien_attack(
    state: GalaxyState,
    alien: AlienState,
    agent: AgentState,
    kind: str,
    dice: Dice,
    events: list[Event],
    reason: str,
) -> None:
    """An alien's attack on an agent or drone under the expansion rules."""

    if devices.attacked(state, agent, events):  # a Hologram vanishes (9.7.4.1)
        return
    c = card(alien)
    w = c.melee if kind == "melee" else c.ranged
    assert w is not None
    count = max(0, w.dice - penalty(state, alien.id, "atk"))
    roll = arsenal.alien_hit_roll(
        state, w.fixed, w.color, count, dice, reroll="reroll-alien" in c.powers
    )
    bolt = roll.bolt and not bolts_blocked(state, alien.id)
    hits = roll.hits + (1 if bolt and w.bolt == "hit+1" else 0)
    def_minus = (1 if bolt and w.bolt == "def-1" else 0) + penalty(state, agent.id, "def")
    def_minus -= poses.defence_dice(state, agent, "melee" if kind == "melee" else "ranged")
    def_minus -= powers.defend_bonus(state, agent)  # Psionic Foresight (9.7.2)
    effects = expansion_effects(c, kind) if bolt else []
    events.append(
        Attacked(
            attacker=alien.id,
            target=agent.id,
            weapon=w.name,
            faces=gdice.describe(w.color, roll.faces),
            hits=hits,
            result=reason,
            text=f"{alien_name(alien)} attacks {agent_name(agent)} with {w.name} ({reason}): "
            f"{roll.told or combat.roll_text(w.color, roll.faces)} - "
            f"{counted(hits, 'Hit')}"
            + (f", Bolt: {listed([effect_name(e) for e in effects])}" if effects else "")
            + ".",
        )
    )
    mine = status(state, agent.id)
    for effect in effects:
        if effect.startswith("mark-"):
            marks.apply_mark(mine, int(effect[-1]))  # marked at once, before the Defend roll
    suit = worn(state, agent.id)
    in_suit = suit is not None and suit.shields > 0  # 9.5.2.3: the suit's shields override
    stacks = [suit.shields] if suit is not None and in_suit else [agent.energy]
    out = damage.defend(
        dice,
        hits,
        stacks,
        lethal="lethal" in effects,
        def_minus=def_minus,
        high_impact=sb_state(state).high_impact,
        armor=None if bolts_blocked(state, agent.id) or in_suit else profile(agent).armor,
        attack="melee" if kind == "melee" else "ranged",
    )
    if suit is not None and in_suit:
        suit.shields = stacks[0]
    else:
        agent.energy = stacks[0]
    events.append(Note(text=f"{agent_name(agent)} {_defence_text(out)}."))
    wounds = out.wounds
    if wounds:
        level = next((int(e[-1]) for e in effects if e.startswith("critical-")), 0)
        if not level and "lock-on" in getattr(c, "sb_powers", []) and marks.marked(mine):
            level = 1
            events.append(Note(text="Lock-on: damage to a marked target causes Critical 1."))
        if level:
            wounds += critical(state, agent, level, dice, events)
    combat.wound_agent(state, agent, wounds, events, alien_name(alien))
    if out.wounds and not agent.dead:
        for effect in effects:
            if effect.startswith("poison-"):
                result = marks.apply_poison(mine, int(effect[-1]))
                events.append(Note(text=f"{agent_name(agent)} is Poisoned ({result.level})."))
                combat.wound_agent(state, agent, result.wounds, events, "a second poison")
    condition = w.bolt if bolt and w.bolt in ("immobilize", "paralyze") else ""
    impose(agent, condition, events)
    if bolt and "catcher" in getattr(c, "sb_powers", []):
        seize_and_fly(state, alien, agent, dice, events)


def seize_and_fly(
    state: GalaxyState, alien: AlienState, agent: AgentState, dice: Dice, events: list[Event]
) -> None:
    """The Flying Critter's Catcher (7.3, the rulebook's first Seize example): on a Bolt it
    flies back 1 Area; an Immobilized agent it hit is seized, carried along (over Barrier
    sides too) and put down next to it, or on the closest free hex."""

    seized = (
        agent.hex is not None
        and not agent.dead
        and agent.drone_of is None
        and can_seize(agent.conditions + (["bleeding"] if agent.bleeding else []), 0, False) is None
    )
    if agent.hex is None:  # the hit agent died: nothing to seize, nothing to fly from
        return
    start = agent.hex  # where he is taken from (the critter flies from its own hex)
    if not move_away(state, alien, agent, 1, events) or not seized:
        return
    board = board_of(state)
    agent.hex = None  # he travels with the alien
    end = hx(alien.hex)
    spot = drop_hex(
        end,
        lambda h: [n for n in hx_neighbours(h) if board.on_map(n)],
        lambda h: free(state, h) and h != end,
    )
    agent.hex = co(spot)
    events.append(
        Note(
            text=f"{alien_name(alien)} seizes {agent_name(agent)} and carries him from "
            f"{label(hx(start))} to {label(spot)}."
        )
    )
    reveal_in_sight(state, dice, events)


def alien_defends(
    state: GalaxyState,
    alien: AlienState,
    hits: int,
    def_minus: int,
    kind: str,
    dice: Dice,
    events: list[Event],
    cause: str,
    sb_effects: tuple[str, ...] = (),
) -> bool:
    """An alien defends an agent's attack; True when it dies (the caller removes it).
    `sb_effects`: the attack's Lethal (8.1) and Critical N (8.2) Bolt effects."""
    c = card(alien)
    stacks = stacks_of(state, alien)
    out = damage.defend(
        dice,
        hits,
        stacks,
        lethal="lethal" in sb_effects,
        def_minus=def_minus + penalty(state, alien.id, "def"),
        high_impact=sb_state(state).high_impact,
        armor=None if bolts_blocked(state, alien.id) else c.armor,
        attack="melee" if kind == "melee" else "ranged",
        reroll_alien="reroll-alien" in c.powers,
    )
    if out.lethal:  # no roll to narrate: the core's line tells the shield and the wounds
        events.append(Note(text=f"{alien_name(alien)}: Lethal: no Defend roll."))
    level = next((int(e[-1]) for e in sb_effects if e.startswith("critical-")), 0)
    if out.wounds and level:
        out.wounds += critical(state, alien, level, dice, events)
    roll = combat.DefendRoll(
        hits=hits,
        energy_used=0,
        faces=out.faces,
        shields=out.shields,
        bolt=out.bolt,
        bolt_effect=out.bolt_effect,
        regenerate=out.regenerate,
        wounds=out.wounds,
    )
    alien.energy = sum(stacks) + out.absorbed  # the core code spends what the stack absorbed
    roll.energy_used = out.absorbed
    if out.stack is not None and len(stacks) > 1:  # which of the stacked shields, in one line
        roll.shield_name = f"Energy Shield stack {out.stack + 1}"
    if combat.wound_alien(state, alien, roll, events, cause):
        return _falls(state, alien, events, printed=True)
    hp = c.hp - penalty(state, alien.id, "hp")
    if alien.wounds >= hp:
        return _falls(state, alien, events, printed=False)
    return False


def _falls(state: GalaxyState, alien: AlienState, events: list[Event], printed: bool) -> bool:
    """An alien at 0 Health points dies, unless it is a Master with another stage (11.3)."""

    if masters.is_master(alien):
        said = events.pop() if printed and events and isinstance(events[-1], Killed) else None
        if not masters.falls(state, alien, events):
            return False  # the core's "dies" line is dropped: this Master does not die
        if said is not None:
            events.append(said)
        return True
    if not printed:
        events.append(
            Killed(figure=alien.id, at=where(alien.hex), text=f"{alien_name(alien)} dies.")
        )
    return True


def friendly_defends(
    state: GalaxyState,
    friend: AgentState,
    hits: int,
    def_minus: int,
    kind: str,
    sb_effects: tuple[str, ...],
    dice: Dice,
    events: list[Event],
) -> int:
    """Friendly Fire from an agent's weapon with a Lethal or Critical Bolt: the hit agent
    defends as against an alien's attack (a worn suit's shields first); returns his wounds,
    a Critical's instant damage included."""
    suit = worn(state, friend.id)
    in_suit = suit is not None and suit.shields > 0
    stacks = [suit.shields] if suit is not None and in_suit else [friend.energy]
    out = damage.defend(
        dice,
        hits,
        stacks,
        lethal="lethal" in sb_effects,
        def_minus=def_minus + penalty(state, friend.id, "def"),
        high_impact=sb_state(state).high_impact,
        armor=None if bolts_blocked(state, friend.id) or in_suit else profile(friend).armor,
        attack="melee" if kind == "melee" else "ranged",
    )
    if suit is not None and in_suit:
        suit.shields = stacks[0]
    else:
        friend.energy = stacks[0]
    events.append(Note(text=f"Friendly fire! {agent_name(friend)}: {_defence_text(out)}."))
    wounds = out.wounds
    level = next((int(e[-1]) for e in sb_effects if e.startswith("critical-")), 0)
    if wounds and level:
        wounds += critical(state, friend, level, dice, events)
    return wounds


def _defence_text(out: damage.Defence) -> str:
    parts = []
    if out.stack is not None and out.absorbed:
        parts.append(f"Energy Shield stack {out.stack + 1} absorbs {out.absorbed}")
    if out.lethal:
        parts.append("Lethal: no Defend roll")
    else:
        parts.append(f"defends with {combat.defence_text(out.faces)}")
    if out.bolt_effect:
        parts.append(f"armor Bolt: {out.bolt_effect}")
    return "; ".join(parts)


def refresh(state: GalaxyState, dice: Dice, events: list[Event]) -> list[AlienState]:
    """Refresh phase (6.1): Marks and Poisons fade (a poisoned figure suffers 1 wound),
    temporary Criticals leave, Energy Shield stacks refill. Returns aliens the poison killed."""
    if sb_state_or_none(state) is None:
        return []
    sb = sb_state(state)

    masters.refresh(state, events)
    sb.stacks = {}
    for alien in state.aliens:
        alien.energy = sum(stacks_of(state, alien))
    dead: list[AlienState] = []
    for figure, mine in sb.figures.items():
        wounds = marks.refresh(mine)
        criticals.refresh(mine, sb.piles)
        if figure in state.agents and wounds and not state.agents[figure].dead:
            combat.wound_agent(state, state.agents[figure], wounds, events, "poison")
        hurt = next((a for a in state.aliens if a.id == figure), None)
        if hurt is not None and wounds:
            hurt.wounds = min(card(hurt).hp, hurt.wounds + wounds)
            down = hurt.wounds >= card(hurt).hp - penalty(state, hurt.id, "hp")
            if down and _falls(state, hurt, events, printed=True):
                dead.append(hurt)
    return dead
