"""Powers & Items (9.7): the five power types, the three Alien Knowledge skills (9.7.1) and
the Psionic Powers (9.7.2).

- **Types** (9.7): Standard (the Action), Movement (the Movement activity), Combat (the
  Combat activity), Passive (always on) and Reaction (outside the agent's turn). Core tactics,
  skills, abilities and devices are Standard unless they say otherwise: `power_type` reads
  the core cards (a `passive` effect is Passive, Guard is a Reaction).
- **Alien Knowledge skills** are core-format skills (`content.power` finds them): each counts
  as Alien Knowledge and adds a bonus with Alien Weapons (`alien_dice`, `rerolls_alien`).
- **Psionic Powers** are held in the layer (`GearState.psionics`), gained at the Moon and
  Galaxy ranks (`wings.py`) instead of a skill. Using one flips it face down until the next
  Refresh phase; a "once per mission" one is rotated and stays down until the next mission.
  They are used with `/act what:<power>` (a `target` or `to` where the power needs one).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Literal

from pydantic import Field

from engine.core.content import ContentFile, ContentModel, load_file
from engine.core.dice import Dice
from engine.core.errors import ContentError, RuleError
from engine.core.events import Event, Moved, Note
from engine.core.game import Action
from engine.core.hexgrid import Hex, distance
from engine.core.words import counted
from engine.galaxy import combat, effects, notation
from engine.galaxy.agent import combat_problem, move_problem
from engine.galaxy.attack import resolve_defence
from engine.galaxy.board import label
from engine.galaxy.content import Power, Weapon, content, power
from engine.galaxy.signals import reveal_in_sight
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.strikeback import devices
from engine.galaxy.strikeback.alientech import reached
from engine.galaxy.strikeback.poses import stand
from engine.galaxy.strikeback.status import GearState, sb_state, sb_state_or_none
from engine.galaxy.strikeback.wings import PSIONIC
from engine.galaxy.world import (
    agent_name,
    agent_sees,
    alien_name,
    area_distance,
    board_of,
    co,
    find_alien,
    free,
    hex_arg,
    hx,
    sees,
)

CONTENT = Path(__file__).parent / "content" / "powers.json"
PowerType = Literal["standard", "movement", "combat", "passive", "reaction"]
TYPES: tuple[PowerType, ...] = ("standard", "movement", "combat", "passive", "reaction")
TYPE_WORDS = {
    "standard": "uses the Action activity",
    "movement": "uses the Movement activity",
    "combat": "uses the Combat activity",
    "passive": "always on, no activity",
    "reaction": "used outside the agent's turn, no activity",
}
ALIEN_KNOWLEDGE = ("alien-knowledge", "xeno-ballistics", "xeno-blade-lore", "alien-resonance")
PSI_RANGE = 2  # Areas: Mind Spike and Mind Lock reach aliens in sight this far
PSI_EFFECTS = ("psi-attack+", "fly", "blink+", "regenerate+", "foresight+", "psi-paralyze")


class Psionic(ContentModel):
    key: str
    name: str
    type: PowerType
    classes: list[str] = Field(default_factory=list)
    effect: str
    usage: Literal["round", "mission", "always"]
    text: str


class PowersFile(ContentFile):
    skills: list[Power]
    psionics: list[Psionic]


@cache
def _load() -> tuple[dict[str, Power], dict[str, Psionic]]:
    data = load_file(CONTENT, PowersFile)
    skills = {p.key: p for p in data.skills}
    psionics = {p.key: p for p in data.psionics}
    for key in [*skills, *psionics]:
        if key in content().powers or key in content().devices:
            raise ContentError(f"Operation Strikeback power {key}: its key clashes")
    for psi in psionics.values():
        known = psi.effect.startswith(PSI_EFFECTS) or notation.is_known(psi.effect)
        if not known or (psi.type == "passive") != (psi.usage == "always"):
            raise ContentError(f"Psionic Power {psi.key}: bad effect, type or usage")
    return skills, psionics


def skills() -> dict[str, Power]:
    """The three Alien Knowledge skills (9.7.1), in the core skill format."""
    return _load()[0]


def psionics() -> dict[str, Psionic]:
    """The ten Psionic Powers (9.7.2)."""
    return _load()[1]


def gear(state: GalaxyState) -> GearState:
    assert sb_state_or_none(state) is not None
    return sb_state(state).gear


# -- 9.7 the five types ------------------------------------------------------------------------


def power_type(key: str) -> PowerType:
    """The type of any power or item by key (9.7): everything is Standard unless it says so."""
    if key in psionics():
        return psionics()[key].type

    card = power(key)
    if card is not None:
        if key == "guard":
            return "reaction"
        return "passive" if card.effect in ("passive", "grenadier") else "standard"
    return "standard"


# -- 9.7.1 Alien Knowledge ---------------------------------------------------------------------


def knows_alien_tech(agent: AgentState) -> bool:
    return any(k in agent.skills for k in ALIEN_KNOWLEDGE)


def alien_dice(agent: AgentState, w: Weapon) -> int:
    """Xeno Ballistics / Xeno Blade Lore: one more Hit die with an Alien weapon of that kind."""
    if w.tier != "alien":
        return 0
    skill = "xeno-ballistics" if w.kind == "ranged" else "xeno-blade-lore"
    return 1 if skill in agent.skills else 0


def rerolls_alien(agent: AgentState, w: Weapon) -> bool:
    """Alien Resonance: Alien faces are rolled once more with an Alien weapon."""
    return w.tier == "alien" and "alien-resonance" in agent.skills


# -- 9.7.2 Psionic Powers ----------------------------------------------------------------------


def held(state: GalaxyState, agent_id: str) -> list[str]:
    if sb_state_or_none(state) is None:
        return []
    return gear(state).psionics.get(agent_id, [])


def grant(state: GalaxyState, agent: AgentState, key: str) -> None:
    gear(state).psionics.setdefault(agent.id, []).append(key)


def drop(state: GalaxyState, agent: AgentState, key: str) -> None:
    """A rank lost (death) takes its Psionic Power back to the pool."""
    g = gear(state)
    for pool in (g.psionics, g.used, g.spent):
        if key in pool.get(agent.id, []):
            pool[agent.id].remove(key)


def pool(state: GalaxyState, agent: AgentState) -> list[str]:
    """Psionic Powers still in the box that suit the agent's class (for a random draw)."""
    taken = {k for keys in gear(state).psionics.values() for k in keys}
    return [
        k
        for k, p in psionics().items()
        if k not in taken and (not p.classes or agent.id in p.classes)
    ]


def draw(state: GalaxyState, agent: AgentState, dice: Dice) -> str | None:
    """9.7.2: one randomly selected Psionic Power (None when none is left)."""
    left = pool(state, agent)
    if not left:
        return None
    key = left[dice.randrange(len(left))]
    grant(state, agent, key)
    return key


def refresh(state: GalaxyState, events: list[Event]) -> None:
    """Refresh phase: face-down powers turn up (not the rotated once-per-mission ones);
    Regeneration heals; a power's Flying ends."""
    if sb_state_or_none(state) is None:
        return
    g = gear(state)
    g.used = {}
    g.flying = []
    for agent_id, keys in g.psionics.items():
        agent = state.agents.get(agent_id)
        if agent is None or agent.dead or agent.hex is None or not agent.wounds:
            continue
        for key in keys:
            p = psionics()[key]
            if p.effect.startswith("regenerate+"):
                healed = combat.heal_agent(agent, effects.amount(p.effect))
                events.append(
                    Note(text=f"{agent_name(agent)} regenerates {counted(healed, 'Wound')}.")
                )


def defend_bonus(state: GalaxyState, agent: AgentState) -> int:
    """Foresight: more Defend dice against alien attacks."""
    return sum(
        effects.amount(psionics()[k].effect)
        for k in held(state, agent.id)
        if psionics()[k].effect.startswith("foresight+")
    )


def flies(state: GalaxyState, agent: AgentState) -> bool:
    """Levitation used this turn: his Movement ignores Barrier sides."""
    return sb_state_or_none(state) is not None and agent.id in gear(state).flying


def is_psionic(what: str) -> bool:
    return what in psionics()


def problem(state: GalaxyState, agent: AgentState, key: str) -> str | None:
    """Why the agent cannot use the power now (before its target), or None."""

    p = psionics().get(key)
    if p is None or key not in held(state, agent.id):
        return f"has no Psionic Power {key}"
    g = gear(state)
    if p.type == "passive":
        return f"needs no activity for {p.name}: it is always on"
    if key in g.spent.get(agent.id, []):
        return f"has used {p.name} this mission (once per mission)"
    if key in g.used.get(agent.id, []):
        return f"has used {p.name}: it is face down until the next Refresh phase"
    if agent.hex is None:
        return "is not on the battlefield"
    if p.type == "standard":
        if agent.action_used:
            return "has already used his Action this turn"
    elif p.type == "movement":
        if agent.movement != "unused":
            return f"{p.name} is his Movement, and he has begun or finished it"
        blocked = move_problem(state, agent)
        if blocked and blocked != "has no Movement points left":
            return blocked
    elif p.type == "combat":
        blocked = combat_problem(agent)
        if blocked:
            return blocked
    word = p.effect.partition("+")[0]
    if word in ("psi-attack", "psi-paralyze"):
        return None if psi_targets(state, agent) else "sees no alien within 2 Areas"
    if word == "blink":
        return None if blink_spots(state, agent, effects.amount(p.effect)) else "has no hex to go"
    if word == "fly":
        return None
    return effects.effect_problem(state, agent, p.effect)


def psi_targets(state: GalaxyState, agent: AgentState) -> list[str]:
    assert agent.hex is not None
    return [
        a.id
        for a in state.aliens
        if agent_sees(state, agent, a.hex) and area_distance(state, agent.hex, a.hex) <= PSI_RANGE
    ]


def blink_spots(state: GalaxyState, agent: AgentState, reach: int) -> list[Hex]:
    """Free hexes the agent sees within `reach` hexes (Phase Step)."""

    assert agent.hex is not None
    me = hx(agent.hex)
    board = board_of(state)
    out = [
        h
        for h in board.area_of
        if h != me and distance(me, h) <= reach and free(state, h) and sees(state, me, h)
    ]
    return sorted(out, key=lambda h: (h.r, h.q))


def use(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    """`/act what:<psionic power>`: check, spend the activity of its type, apply, flip."""
    key = args.get("what", "").lower()
    why = problem(state, agent, key)
    if why:
        raise RuleError(f"{agent_name(agent)} {why}.")
    p = psionics()[key]
    word = p.effect.partition("+")[0]
    n = effects.amount(p.effect)
    who = agent_name(agent)
    assert agent.hex is not None
    if word in ("psi-attack", "psi-paralyze"):
        target = find_alien(state, args.get("target", ""))
        if target.id not in psi_targets(state, agent):
            raise RuleError(f"{p.name} reaches an alien {who} sees within {PSI_RANGE} Areas.")
    if word == "blink":
        dest = hex_arg(args.get("to", ""))
        if dest not in blink_spots(state, agent, n):
            raise RuleError(f"{p.name} needs a free hex {who} sees within {n} hexes.")
    # spend the activity of the power's type
    if p.type == "standard":
        agent.action_used = True
        if agent.movement == "open" and not effects.keeps_movement_open(p.effect):
            agent.movement = "closed"
    elif p.type == "combat":
        agent.combat_used = True
        if agent.movement == "open":
            agent.movement = "closed"
    g = gear(state)
    (g.spent if p.usage == "mission" else g.used).setdefault(agent.id, []).append(key)
    if word == "psi-attack":
        _mind_spike(state, agent, target.id, n, p.name, dice, events)
    elif word == "psi-paralyze":
        if "paralyze" not in target.conditions:
            target.conditions.append("paralyze")
        events.append(Note(text=f"{who} uses {p.name}: {alien_name(target)} is Paralyzed."))
    elif word == "fly":
        g.flying.append(agent.id)
        events.append(Note(text=f"{who} uses {p.name}: his Movement this turn flies."))
    elif word == "blink":
        stand(state, agent, events, "moved outside his Movement")
        start = hx(agent.hex)
        agent.hex = co(dest)
        agent.movement, agent.mp_left = "closed", 0
        events.append(
            Moved(
                figure=agent.id,
                path=[label(start), label(dest)],
                text=f"{who} uses {p.name}: {label(start)} -> {label(dest)}.",
            )
        )
        reached(state, agent, events)
        reveal_in_sight(state, dice, events)
    else:
        effects.apply_effect(state, agent, p.effect, args.get("target", ""), p.name, events)


def _mind_spike(
    state: GalaxyState,
    agent: AgentState,
    target_id: str,
    count: int,
    name: str,
    dice: Dice,
    events: list[Event],
) -> None:
    roll = combat.hit_roll(dice, "red", count)
    events.append(
        Note(
            text=f"{agent_name(agent)} uses {name} on {alien_name(find_alien(state, target_id))}: "
            f"{combat.roll_text('red', roll.faces)} - {counted(roll.hits, 'Hit')}."
        )
    )
    resolve_defence(state, agent, [target_id], roll.hits, 0, "device", "", dice, events, name)


def legal_actions(state: GalaxyState, agent: AgentState) -> list[Action]:
    """Every Psionic Power use open to the agent now, with its targets."""
    if sb_state_or_none(state) is None or agent.hex is None:
        return []
    out: list[Action] = []
    for key in held(state, agent.id):
        if problem(state, agent, key) is not None:
            continue
        p = psionics()[key]
        word = p.effect.partition("+")[0]

        def add(text: str, what: str = key, **extra: str) -> None:
            args = {"unit": agent.id, "what": what, **extra}
            out.append(Action(verb="act", args=args, label=text))

        if word in ("psi-attack", "psi-paralyze"):
            for target in psi_targets(state, agent):
                add(f"{p.name} on {alien_name(find_alien(state, target))}", target=target)
        elif word == "blink":
            for h in blink_spots(state, agent, effects.amount(p.effect)):
                add(f"{p.name} to {label(h)}", to=label(h))
        elif p.effect.startswith(notation.TARGETED):
            for other in effects.heal_targets(state, agent, p.effect):
                add(f"{p.name} on {agent_name(other)}", target=other.id)
        else:
            add(p.name)
    return out


def device_names(state: GalaxyState, agent_id: str) -> list[str]:
    """The expansion devices the agent holds, by name (his sheet lists them with the core's)."""
    if sb_state_or_none(state) is None:
        return []

    return [devices.name_of(k) for k in sb_state(state).devices.get(agent_id, [])]


def panel_lines(state: GalaxyState, agent_id: str) -> list[str]:
    """The agent sheet's lines for his Psionic Powers (and a power's Flying this turn)."""
    if sb_state_or_none(state) is None:
        return []
    out: list[str] = []
    g = gear(state)
    names = []
    for key in held(state, agent_id):
        p = psionics()[key]
        down = key in g.used.get(agent_id, []) or key in g.spent.get(agent_id, [])
        names.append(p.name + (" (used)" if down else ""))
    if names:
        out.append("psionic: " + ", ".join(names))
    if agent_id in g.flying:
        out.append("flying this turn (Levitation)")
    return out


def options(state: GalaxyState, agent: AgentState, rank: int, skills: list[str]) -> list[str]:
    """The answers of a Moon or Galaxy promotion: the skills he may select, and `psionic`
    while a Psionic Power that suits him is left."""

    out = list(skills)
    if pool(state, agent):
        out.append(PSIONIC)
    return out


def grant_psionic(
    state: GalaxyState, agent: AgentState, rank: int, dice: Dice, events: list[Event]
) -> None:
    """The random Psionic Power of a Moon or Galaxy promotion (9.7.2), remembered as that
    rank's power (a death that takes the rank takes it back to the pool)."""

    key = draw(state, agent, dice)
    if key is None:
        events.append(Note(text=f"{agent_name(agent)}: no Psionic Power is left to draw."))
        return
    agent.rank_powers[str(rank)] = key
    p = psionics()[key]
    events.append(Note(text=f"{agent_name(agent)} draws the Psionic Power {p.name}: {p.text}"))
