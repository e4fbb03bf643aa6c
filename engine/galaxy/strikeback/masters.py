"""Master Aliens in play (11.2, 11.3, 11.3.1): the Wormoon's two-stage card, its innate
powers and the Menace token.

- Entering play, the card goes to the Alpha Agent, who also takes the Menace token at Level 1
  (unless a Menace token is already in play: one Master, one token).
- Innate powers: immune to Paralyze and stuns (a Paralyze or Immobilize effect does nothing,
  Immobilize being our Flash-Bang's effect, the rulebook's "Flash grenade"; a Critical
  Paralyze token is redrawn as not compatible), never moved by agents' powers (the engine has
  no agent power that pushes an alien), ignores powers that stop it targeting an agent (the
  core game has none; Stealth-like powers of later helpers must ask `ignores_stealth`).
- Stage I at 0 Health points: it turns to Stage II (the card's other side, no wounds, full
  shields), unless the mission says otherwise (`StrikebackState.master_down`: mission 6 puts
  its Special Event on top of the Event deck and the Wormoon fights on, unhurt by further
  wounds, until the end of the round). Stage II at 0 Health points: it dies.
- Menace (11.3.1): every wound to the Master moves the token (`menace.wounded_by`, the
  wounding agent's drones and NPCs count as his); an agent may spend his Action on it
  (`/act what:menace-up|menace-down|menace-take`). With Archenemy the A.I. considers only the
  Menacing Agent, chosen once when the Master activates; without Archenemy (or when the
  Menacing Agent is not on the battlefield) it follows the normal A.I.
- A Menacing Agent who dies or leaves the battlefield passes the token, at Level 1, to the
  Alpha Agent (ours: the text does not say).
"""

from __future__ import annotations

from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.game import Action
from engine.galaxy.content import alien_card
from engine.galaxy.state import AgentState, AlienState, GalaxyState
from engine.galaxy.strikeback import menace
from engine.galaxy.strikeback.bodies import settle
from engine.galaxy.strikeback.cards import ExpansionAlienCard
from engine.galaxy.strikeback.status import sb_state, sb_state_or_none
from engine.galaxy.world import agent_name, alien_name, card

ACTIONS = ("menace-up", "menace-down", "menace-take")


def is_master(alien: AlienState) -> bool:
    return card(alien).rank == "purple"


def is_master_card(card_id: str) -> bool:
    return alien_card(card_id).rank == "purple"


def masters(state: GalaxyState) -> list[AlienState]:
    return [a for a in state.aliens if is_master(a)]


def powers(alien: AlienState) -> list[str]:
    return list(getattr(card(alien), "sb_powers", []))


def immune(alien: AlienState, condition: str) -> bool:
    """A Master ignores Paralyze and stun effects: our Stun Grenade (Paralyze) and our
    Flash-Bang, the "Flash grenade" the rulebook names, whose effect is Immobilize."""
    return is_master(alien) and condition in ("paralyze", "immobilize")


def ignores_stealth(alien: AlienState) -> bool:
    return is_master(alien)


def controller_for(state: GalaxyState, card_id: str) -> str | None:
    """A Master's card goes to the Alpha Agent (None: the normal assignment)."""
    return state.alpha if is_master_card(card_id) and state.alpha else None


def arrived(state: GalaxyState, alien: AlienState, events: list[Event]) -> None:
    """A Master enters play: its base is laid out and the Alpha Agent takes the Menace token."""

    settle(state, alien)
    sb = sb_state_or_none(state)
    if sb is None or not is_master(alien):
        return
    if sb.menace is None:
        sb.menace = menace.enters_play(state.alpha)
        owner = state.agents[state.alpha]
        events.append(
            Note(text=f"{agent_name(owner)} takes the Menace token (Level 1): the Menacing Agent.")
        )


def hunted(
    state: GalaxyState, alien: AlienState, agents: list[AgentState], events: list[Event]
) -> list[AgentState]:
    """The agents the A.I. may consider: only the Menacing Agent for an Archenemy stage."""
    left_play(state, events)
    sb = sb_state_or_none(state)
    if sb is None or sb.menace is None or "archenemy" not in powers(alien):
        return agents
    owner = next((a for a in agents if a.id == sb.menace.owner), None)
    if owner is None:
        return agents
    events.append(Note(text=f"Archenemy: {alien_name(alien)} hunts {agent_name(owner)}."))
    return [owner]


def wounded(state: GalaxyState, alien: AlienState, by: AgentState, events: list[Event]) -> None:
    """The Master took at least one wound from `by` (an agent, or his drone or NPC)."""
    sb = sb_state_or_none(state)
    if sb is None or sb.menace is None or not is_master(alien):
        return
    seat = by.drone_of or by.id
    if seat not in state.seats:
        return
    before = (sb.menace.owner, sb.menace.level)
    menace.wounded_by(sb.menace, seat)
    if (sb.menace.owner, sb.menace.level) != before:
        events.append(Note(text=_token_text(state)))


def _token_text(state: GalaxyState) -> str:
    sb = sb_state_or_none(state)
    assert sb is not None and sb.menace is not None
    owner = state.agents[sb.menace.owner]
    return f"Menace token: {agent_name(owner)}, Level {sb.menace.level}."


def falls(state: GalaxyState, alien: AlienState, events: list[Event]) -> bool:
    """A Master reached 0 Health points: True when it really dies (see the module docstring)."""
    sb = sb_state_or_none(state)
    c = card(alien)
    if sb is None or not isinstance(c, ExpansionAlienCard) or c.flip_to is None:
        if sb is not None and is_master(alien):
            sb.menace = None
        return True
    if sb.master_down:
        if alien.id not in sb.held:
            sb.held.append(alien.id)
            state.event_deck.put_on_top(sb.master_down)
            alien.wounds = c.hp
            events.append(
                Note(
                    text=f"{alien_name(alien)} is down to 0 Health points but fights on until "
                    "the end of the round; a Special Event goes on top of the Event deck."
                )
            )
        return False
    flip(state, alien, events)
    return False


def flip(state: GalaxyState, alien: AlienState, events: list[Event]) -> None:
    """Turn the Master's card to its next stage: no wounds, full shields, the same base."""
    c = card(alien)
    assert isinstance(c, ExpansionAlienCard) and c.flip_to is not None
    sb = sb_state_or_none(state)
    assert sb is not None
    alien.card = c.flip_to
    alien.wounds = 0
    nxt = card(alien)
    alien.energy = nxt.energy
    sb.stacks.pop(alien.id, None)
    alien.conditions = []
    if alien.id in sb.held:
        sb.held.remove(alien.id)
    events.append(Note(text=f"{alien_name(alien)} rises again: Stage {_roman(nxt)}!"))


def refresh(state: GalaxyState, events: list[Event]) -> None:
    """A Master that fought on at 0 Health points through the round turns to its next stage,
    when the mission's Special Event has not taken it off the battlefield."""
    sb = sb_state_or_none(state)
    if sb is None:
        return
    for alien in [a for a in state.aliens if a.id in sb.held]:
        flip(state, alien, events)
    sb.held = []


def _roman(c: object) -> str:
    return {1: "I", 2: "II"}.get(int(getattr(c, "stage", 0)), "?")


def stage_name(alien: AlienState) -> str:
    return _roman(card(alien))


def left_play(state: GalaxyState, events: list[Event]) -> None:
    """Keep the Menace token on the battlefield: a dead or removed Menacing Agent passes it,
    at Level 1, to the Alpha Agent; with no Master in play the token leaves."""
    sb = sb_state_or_none(state)
    if sb is None or sb.menace is None:
        return
    if not masters(state) and not sb.master_down:
        sb.menace = None
        return
    owner = state.agents.get(sb.menace.owner)
    if owner is not None and not owner.dead and owner.hex is not None:
        return
    heir = state.agents.get(state.alpha)
    if heir is None or heir.dead or heir.hex is None or heir.id == sb.menace.owner:
        return
    sb.menace.owner, sb.menace.level = heir.id, 1
    events.append(Note(text=_token_text(state)))


# -- the Menace Action --------------------------------------------------------------------------


def action_problem(state: GalaxyState, agent: AgentState, what: str) -> str | None:
    sb = sb_state_or_none(state)
    if sb is None or sb.menace is None or agent.hex is None:
        return "has no Menace token to act on"
    if agent.action_used:
        return "has already used his Action this turn"
    mine = sb.menace.owner == agent.id
    if what == "menace-up":
        return None if mine and sb.menace.level == 1 else "must hold the token at Level 1"
    if what == "menace-down":
        return None if sb.menace.level == 2 else "can only lower the token from Level 2"
    if what == "menace-take":
        return None if not mine and sb.menace.level == 1 else "can only take it at Level 1"
    return "has no such action"


def do_action(state: GalaxyState, agent: AgentState, what: str, events: list[Event]) -> None:
    problem = action_problem(state, agent, what)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    sb = sb_state_or_none(state)
    assert sb is not None and sb.menace is not None
    menace.action(sb.menace, agent.id, 2 if what == "menace-up" else 1)
    agent.action_used = True
    if agent.movement == "open":
        agent.movement = "closed"  # a separate Action after moving ends the Movement
    events.append(Note(text=f"{agent_name(agent)} spends his Action: {_token_text(state)}"))


LABELS = {
    "menace-up": "raise the Menace token to Level 2",
    "menace-down": "lower the Menace token to Level 1",
    "menace-take": "take the Menace token (Level 1)",
}


def legal_actions(state: GalaxyState, agent: AgentState) -> list[Action]:
    if sb_state_or_none(state) is None or sb_state(state).menace is None:
        return []
    return [
        Action(verb="act", args={"unit": agent.id, "what": what}, label=LABELS[what])
        for what in ACTIONS
        if action_problem(state, agent, what) is None
    ]
