"""Hit and Defend rolls, and wounds, for agents and aliens alike.

Order of a combat (rulebook "Combat"): the attacker rolls the weapon's dice; Hits count, one
Bolt (or more) triggers the weapon's Bolt effect once, an Ammo result costs one Ammo token
(ranged human weapons, at most one per roll), a Jam jams the weapon after the attack. The
defender first spends Energy Shield points to cancel Hits one for one, then rolls one BLUE die
per remaining Hit (less any "-X Def dice"); each Shield cancels a Hit, a Bolt triggers the
armor's Bolt effect once; what is left becomes Wounds.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from engine.core.dice import Dice
from engine.core.events import Event, Killed, Note, Rolled, SeatTold, Wounded
from engine.core.words import counted
from engine.galaxy import dice as gdice
from engine.galaxy.expansion import expanded, hooks
from engine.galaxy.ranks import lose_rank
from engine.galaxy.state import AgentState, AlienState, GalaxyState
from engine.galaxy.world import agent_name, alien_name, card, max_hp, where

Events = list[Event]


@dataclass
class HitRoll:
    color: str
    faces: list[int]
    hits: int = 0
    bolt: bool = False
    ammo: bool = False
    jam: bool = False
    fail: bool = False
    rerolled: list[int] = field(default_factory=list)
    described: list[str] = field(default_factory=list)  # mixed or fixed rolls (Strikeback 9.2)
    told: str = ""  # the same in the narration's words ("red dice 2 Hits, blue dice a Shield")


def hit_roll(
    dice: Dice,
    color: str,
    count: int,
    reroll_alien: bool = False,
    alien_tech: bool = False,
    reroll_misses: bool = False,
) -> HitRoll:
    """Roll for Hits. `reroll_alien`: Alien (fail) faces are rolled once more (alien power).
    `alien_tech`: an Alien Weapon without Alien Knowledge, where Jam or Alien fails it all.
    `reroll_misses`: every die without a Hit is rolled once more (Grenadier, our policy for
    "may re-roll any die")."""
    faces = gdice.roll(dice, color, count)
    result = HitRoll(color=color, faces=faces)
    if reroll_alien or reroll_misses:
        for i, face in enumerate(faces):
            symbols = gdice.symbols(color, face)
            if (reroll_alien and gdice.ALIEN in symbols) or (
                reroll_misses and gdice.HIT not in symbols
            ):
                result.rerolled.append(i)
                faces[i] = gdice.roll(dice, color, 1)[0]
    counts = gdice.tally(color, faces)
    result.hits = counts[gdice.HIT]
    result.bolt = counts[gdice.BOLT] > 0
    result.ammo = counts[gdice.AMMO] > 0
    result.jam = counts[gdice.JAM] > 0
    if alien_tech and (counts[gdice.JAM] or counts[gdice.ALIEN]):
        result.fail = True
        result.hits = 0
        result.bolt = False
    return result


@dataclass
class DefendRoll:
    hits: int
    energy_used: int = 0
    faces: list[int] = field(default_factory=list)
    shields: int = 0
    bolt: bool = False
    bolt_effect: str = ""
    regenerate: bool = False
    wounds: int = 0
    # How the defence line names the shield that cancelled Hits (an expansion names which of
    # several stacked shields it was).
    shield_name: str = "Energy Shield"


def defend_roll(
    dice: Dice,
    hits: int,
    energy: int = 0,
    def_minus: int = 0,
    armor: str | None = None,
    attack: str = "ranged",
    reroll_alien: bool = False,
) -> DefendRoll:
    """Energy Shield first, then one BLUE die per remaining Hit (minus Def dice)."""
    result = DefendRoll(hits=hits)
    result.energy_used = min(max(0, energy), hits)
    remaining = hits - result.energy_used
    count = max(0, remaining - def_minus)
    faces = gdice.roll(dice, "blue", count)
    if reroll_alien:
        reroll_alien_faces(dice, faces)
    result.faces = faces
    counts = gdice.tally("blue", faces)
    shields = counts[gdice.SHIELD]
    result.bolt = counts[gdice.BOLT] > 0 and attack != "basic"
    if result.bolt and armor:
        if armor == "shield+1" or (armor == f"shield+1-{attack}"):
            shields += 1
            result.bolt_effect = "+1 Shield"
        elif armor == "bolt-as-shield":
            shields += counts[gdice.BOLT]
            result.bolt_effect = f"each Bolt is a Shield (+{counts[gdice.BOLT]})"
        elif armor == "regenerate":
            result.regenerate = True
            result.bolt_effect = "Regenerate"
    result.shields = shields
    result.wounds = max(0, remaining - shields)
    return result


def reroll_alien_faces(dice: Dice, faces: list[int]) -> None:
    """A core alien power: each BLUE Alien (fail) face is rolled once more, in place."""
    for i, face in enumerate(faces):
        if gdice.ALIEN in gdice.symbols("blue", face):
            faces[i] = gdice.roll(dice, "blue", 1)[0]


def defence_text(faces: list[int]) -> str:
    """A Defend roll in words, with how many dice (a cap or an Energy Shield shows in it):
    "3 dice: 2 Hits, a Shield and an Alien", or "no dice"."""
    if not faces:
        return "no dice"
    return f"{counted(len(faces), 'die', 'dice')}: {gdice.said('blue', faces)}"


def roll_text(color: str, faces: list[int]) -> str:
    """A roll in the narration's words: "2 Hits and a Shield" (see `dice.said`)."""
    return gdice.said(color, faces)


def wound_alien(
    state: GalaxyState, alien: AlienState, roll: DefendRoll, events: Events, cause: str
) -> bool:
    """Apply a Defend result to an alien; True when it dies (the caller removes it)."""
    c = card(alien)
    if roll.regenerate and alien.wounds > 0:
        alien.wounds -= 1
        events.append(Note(text=f"{alien_name(alien)} regenerates one Wound (armor Bolt)."))
    alien.energy -= roll.energy_used
    alien.wounds = min(c.hp, alien.wounds + roll.wounds)
    left = c.hp - alien.wounds
    parts = []
    if roll.energy_used:
        parts.append(f"{roll.shield_name} cancels {roll.energy_used}")
    parts.append(f"defends with {defence_text(roll.faces)}")
    if roll.bolt_effect:
        parts.append(f"armor Bolt: {roll.bolt_effect}")
    events.append(
        Rolled(
            figure=alien.id,
            purpose="defend",
            faces=gdice.describe("blue", roll.faces),
            text=f"{alien_name(alien)} {'; '.join(parts)}.",
        )
    )
    events.append(
        Wounded(
            figure=alien.id,
            amount=roll.wounds,
            remaining=left,
            text=f"{alien_name(alien)} takes {counted(roll.wounds, 'Wound')} from {cause}, "
            f"{left} HP left.",
        )
    )
    if alien.wounds >= c.hp:
        events.append(
            Killed(figure=alien.id, at=where(alien.hex), text=f"{alien_name(alien)} dies.")
        )
        return True
    return False


def wound_agent(
    state: GalaxyState, agent: AgentState, wounds: int, events: Events, cause: str
) -> None:
    """Wounds to an agent: at 0 HP he is Bleeding; any Wound while Bleeding kills him."""
    if wounds <= 0:
        return
    hp = max_hp(agent)
    if expanded(state):
        hp -= hooks().penalty(state, agent.id, "hp")  # a Critical -X Health points
    if agent.drone_of is not None:
        agent.wounds = min(hp, agent.wounds + wounds)
        events.append(
            Wounded(
                figure=agent.id,
                amount=wounds,
                remaining=hp - agent.wounds,
                text=f"{agent_name(agent)} takes {counted(wounds, 'Wound')} from {cause}, "
                f"{hp - agent.wounds} HP left.",
            )
        )
        if agent.wounds >= hp:
            events.append(
                Killed(
                    figure=agent.id, at=where(agent.hex), text=f"{agent_name(agent)} is destroyed."
                )
            )
            state.agents.pop(agent.id, None)
            agent.hex = None
            agent.dead = True
        return
    if agent.bleeding:
        agent.dead = True
        events.append(
            Killed(
                figure=agent.id,
                at=where(agent.hex),
                text=f"{agent_name(agent)} was Bleeding and takes a further Wound from {cause}: "
                "dead, the player is Inoperative.",
            )
        )
        events.append(SeatTold(seat=agent.id, message=inoperative_words(state, agent)))
        if expanded(state):
            hooks().agent_died(state, agent, events)  # what he carried stays on his hex (mission 5)
            hooks().on_death(state, agent, events)  # his Power Suit is destroyed with him (9.5.2.3)
        agent.hex = None
        lose_rank(state, agent, events)
        return
    agent.wounds = min(hp, agent.wounds + wounds)
    events.append(
        Wounded(
            figure=agent.id,
            amount=wounds,
            remaining=hp - agent.wounds,
            text=f"{agent_name(agent)} takes {counted(wounds, 'Wound')} from {cause}, "
            f"{hp - agent.wounds} HP left.",
        )
    )
    if agent.wounds >= hp:
        agent.bleeding = True
        events.append(Note(text=f"{agent_name(agent)} is Bleeding."))


def inoperative_words(state: GalaxyState, agent: AgentState) -> str:
    """What the player whose agent has just died is told, to them alone: nobody drops out
    without a word."""
    name = agent_name(agent)
    if state.options.get("permanent-death") == "on":
        return f"{name} is dead for good (Permanent Death): you follow the rest of the mission."
    return (
        f"{name} is dead and you are Inoperative. At a Strategy phase you may bring him back "
        "on a GD Start Hex for one Alien Tech fragment, if the team has one; until then you "
        "follow the mission."
    )


def heal_agent(agent: AgentState, amount: int) -> int:
    healed = min(amount, agent.wounds)
    agent.wounds -= healed
    if healed and agent.bleeding:
        agent.bleeding = False
    return healed
