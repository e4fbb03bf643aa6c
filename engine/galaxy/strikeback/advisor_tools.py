"""The advisor's hand on the expansion's own tools (issue #31: a campaign worth playing).

Three moments of an agent's turn ask the expansion for its advice:

- `advise`, first: a Power Suit pilot seizes an Engaged teammate who is Immobilized, Paralyzed
  or Bleeding and puts him down on a free hex next to the suit that no alien engages (7.3,
  the rulebook's Seize example 2); walk onto a token (Alien Tech, dropped items) and give the
  standing orders of his NPCs (its NPC Tactic spent in the next activation while an alien is
  near; the strongest alien as target while a Master Alien is in play, so the NPC helps bring
  it down).
- `closing`, before he ends his turn with his Action unused: the Menace token handed to the
  sturdiest agent (11.3.1), an Energy Shield raised when aliens are close, a Hologram projected
  between him and the aliens (9.7.4.1), a Jet Boots flight or Phase Step toward the team's
  goal when walking got him no nearer (`travel.py`, also used by the missions' own walks).
- `prompt_advice`, for the Alpha Agent (the mission's own choice, e.g. mission 6's swallow)
  and, when he ranks up, the power the advisor will use (a Hit die booster for his
  weapons, Alien Knowledge and the Alien Weapon skills when he carries one, healing), a random
  Psionic Power at Moon and Galaxy before a power it never plays (Movement, Ammo).

Pure: it only reads the state.
"""

from __future__ import annotations

from engine.core.game import Action
from engine.core.hexgrid import Hex, distance
from engine.galaxy.advisor import FAR, distance_field, goal_hexes
from engine.galaxy.board import parse_label
from engine.galaxy.content import power
from engine.galaxy.state import AgentState, GalaxyState
from engine.galaxy.strikeback import alientech, npc, suits
from engine.galaxy.strikeback.devices import catalogue
from engine.galaxy.strikeback.masters import masters
from engine.galaxy.strikeback.play import rules
from engine.galaxy.strikeback.powers import psionics, skills
from engine.galaxy.strikeback.status import sb_state, sb_state_or_none
from engine.galaxy.strikeback.travel import nearer
from engine.galaxy.strikeback.wings import PSIONIC
from engine.galaxy.world import (
    alien_adjacent,
    area_distance,
    co,
    engaged,
    engaging,
    hx,
    max_hp,
    operative,
    weapon,
)

NEAR_AREAS = 1  # an alien this close makes a shield or a decoy worth an Action
ATTACK_TACTICS = ("second-strike", "overcharge", "suppressing-burst", "sprint")


def advise(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    return (
        _rescue(state, agent, actions)
        or alientech.advice(state, agent, actions)
        or _npc_orders(state, agent, actions)
    )


# -- Seize (7.3): the pilot drags a helpless teammate out of the fight --------------------------


def _rescue(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """Seize example 2 as a habit: a pilot next to an Engaged teammate who cannot walk away or
    is Bleeding seizes him (a Free Action during his Movement), then puts him down on the free
    hex next to the suit that no alien engages, farthest from the aliens; with no such hex
    yet, the pilot's own move carries him on (and the Movement's end puts him down)."""
    if sb_state_or_none(state) is None:
        return None
    carrying = agent.id in sb_state(state).carrying
    if carrying:
        return _safe_drop(state, [a for a in actions if _what(a) == suits.DROP])
    seizes = [a for a in actions if _what(a) == suits.SEIZE]
    hurt = [
        (state.agents[a.args["target"]].wounds, a.args["target"], a)
        for a in seizes
        if engaged(state, state.agents[a.args["target"]])
    ]
    return max(hurt, key=lambda t: (t[0], t[1]))[2] if hurt else None


def _safe_drop(state: GalaxyState, drops: list[Action]) -> Action | None:
    foes = [a for a in engaging(state) if a.hex is not None]

    def gap(a: Action) -> tuple[int, str]:
        spot = parse_label(a.args.get("to", ""))
        if spot is None or not foes:
            return (0, a.args.get("to", ""))
        return (min(distance(spot, hx(f.hex)) for f in foes), a.args["to"])

    safe = [
        a
        for a in drops
        if (spot := parse_label(a.args.get("to", ""))) is not None
        and not any(alien_adjacent(state, f, co(spot)) for f in foes)
    ]
    return max(safe, key=gap) if safe else None


def _what(a: Action) -> str:
    return a.args.get("what", "") if a.verb == "act" else ""


# -- NPC standing orders ----------------------------------------------------------------------


def _npc_orders(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """10.3: an NPC Tactic serves once a mission; spend it when an alien is within its reach
    (Field Patch once the NPC is wounded twice). A Master Alien in play: the strongest alien."""
    if sb_state_or_none(state) is None:
        return None
    offered = {a.args.get("order", ""): a for a in actions if a.verb == "orders"}
    master_up = bool(masters(state))
    for figure in npc.mine(state, agent):
        info = sb_state(state).npcs[figure.id]
        want_target = "strongest" if master_up else "weakest"
        order = f"{figure.id}-target-{want_target}"
        if info.target != want_target and order in offered:
            return offered[order]
        if info.tactic is None or info.use_tactic:
            continue
        if info.tactic == "field-patch":
            ready = figure.wounds >= 2
        else:
            ready = info.tactic in ATTACK_TACTICS and _alien_near(state, figure, 2)
        order = f"{figure.id}-tactic-on"
        if ready and order in offered:
            return offered[order]
    return None


def _alien_near(state: GalaxyState, figure: AgentState, areas: int) -> bool:
    if figure.hex is None:
        return False
    return any(area_distance(state, figure.hex, a.hex) <= areas for a in state.aliens)


# -- before ending the turn with the Action unused ---------------------------------------------


def closing(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    if sb_state_or_none(state) is None or agent.hex is None:
        return None
    return (
        _menace(state, agent, actions)
        or _shield(state, agent, actions)
        or _hologram(state, agent, actions)
        or _travel(state, agent, actions)
    )


def _travel(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """Walking brought him no nearer the team's goal (the core advisor's: an objective, else
    aliens, else Signals): a Jet Boots flight or a Phase Step that does."""
    goals = goal_hexes(state)
    if not goals or agent.hex is None:
        return None
    field = distance_field(state, goals)

    def gap(a: Action) -> tuple[int, ...]:
        spot = parse_label(a.args["to"])
        return (field.get(spot, FAR) if spot is not None else FAR,)

    return nearer(actions, gap, (field.get(hx(agent.hex), FAR),))


def _left(agent: AgentState) -> int:
    return max_hp(agent) - agent.wounds


def _menace(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """11.3.1: the Master Alien hunts the Menacing Agent. The sturdiest agent takes the token
    from a Bleeding or nearly dead one (lowering it first from Level 2), and keeps it at Level 2
    so that another agent's wound only lowers it."""
    menace = sb_state(state).menace
    if menace is None or not masters(state):
        return None
    acts = {a.args.get("what", ""): a for a in actions if a.verb == "act"}
    owner = state.agents.get(menace.owner)
    if menace.owner == agent.id:
        others = [a for a in operative(state) if a.id != agent.id and a.hex is not None]
        sturdiest = all(_left(agent) > _left(o) for o in others)
        if menace.level == 1 and sturdiest and _left(agent) >= 4:
            return acts.get("menace-up")
        return None
    failing = owner is None or owner.hex is None or owner.bleeding or _left(owner) <= 2
    if failing and _left(agent) >= 4 and not agent.bleeding:
        return acts.get("menace-down" if menace.level == 2 else "menace-take")
    return None


def _shield(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """An Energy Shield (a tactic, skill, device or Psionic Power) when an alien is close."""
    if not _alien_near(state, agent, NEAR_AREAS):
        return None
    shields = [a for a in actions if a.verb == "act" and _effect(a).startswith("energy+")]
    return max(shields, key=lambda a: _amount(_effect(a))) if shields else None


def _hologram(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """9.7.4.1: aliens take the Hologram for an agent and destroy it with their first attack:
    project it on the free hex nearest to the closest alien, when one is close."""
    spots = [a for a in actions if a.verb == "act" and _effect(a) == "hologram"]
    if not spots or not _alien_near(state, agent, NEAR_AREAS) or agent.hex is None:
        return None
    here = hx(agent.hex)
    closest = min(state.aliens, key=lambda x: (distance(here, hx(x.hex)), x.id))

    def gap(a: Action) -> tuple[int, str]:
        spot = _hex(a.args.get("to", ""))
        return (distance(spot, hx(closest.hex)) if spot is not None else 99, a.args["to"])

    return min(spots, key=gap)


def _hex(text: str) -> Hex | None:
    return parse_label(text)


def _effect(a: Action) -> str:
    return _effect_of(a.args.get("what", ""))


def _effect_of(key: str) -> str:
    """What a device, Psionic Power, expansion skill or core power does ('' for none)."""
    if key in catalogue():
        return catalogue()[key].effect
    if key in psionics():
        return psionics()[key].effect
    if key in skills():
        return skills()[key].effect
    found = power(key)
    return found.effect if found is not None else ""


def _amount(effect: str) -> int:
    tail = effect.rpartition("+")[2]
    return int(tail) if tail.isdigit() else 0


# -- core prompts: promotions and the Alpha Agent ----------------------------------------------


def prompt_advice(state: GalaxyState, kind: str, seat: str, options: list[str]) -> str | None:
    if sb_state_or_none(state) is None:
        return None
    if kind == "alpha":
        return rules(state).alpha_advice(state, options)
    if kind == "promote":
        return promotion(state, seat, options)
    return None


def promotion(state: GalaxyState, seat: str, options: list[str]) -> str | None:
    """The power the advisor will play: Alien Knowledge (and an Alien Weapon skill) when he
    carries an Alien Weapon, a Hit die booster for his weapons, healing, unjamming; then a
    Psionic Power (random, nearly all of them the advisor plays) before anything else."""
    agent = state.agents.get(seat)
    if agent is None or not options:
        return None
    kinds = {weapon(w.key).kind for w in agent.weapons}
    alien_weapons = any(weapon(w.key).tier == "alien" for w in agent.weapons)

    def rank(key: str) -> tuple[int, int, str]:
        if key == PSIONIC:
            return (4, 0, key)
        effect = _effect_of(key)
        if key in skills() and effect == "passive":
            return (1 if alien_weapons else 8, 0, key)
        if key == "alien-knowledge":
            return (0 if alien_weapons else 7, 0, key)
        if effect.startswith("dice-any+"):
            return (2, -_amount(effect), key)
        if any(effect.startswith(f"dice-{k}+") for k in kinds):
            return (3, -_amount(effect), key)
        if effect.startswith(("heal-self+", "heal-other+", "heal+")):
            return (5, -_amount(effect), key)
        if effect in ("unjam", "grenadier", "drone") or effect.startswith("energy+"):
            return (6, -_amount(effect), key)
        return (9, 0, key)

    return min(options, key=rank)
