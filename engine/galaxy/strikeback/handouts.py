"""Devices handed out at a mission's setup (storybook 2.1 briefing, missions 2-6).

The Warehouse mixes the core box's devices with the expansion's (2.2: Operation Strikeback
content is mixed with the Core Set). A device "fits" an agent when it is Generic or of his
class. Three hand-outs, for the missions to call:

- `select_each(state, count)`: each agent selects `count` devices himself (mission 2 after an
  accomplished mission 1: one; missions 3-6 standalone, "Devices: 2 per agent": two). One
  prompt per device, to the agent's own player, in table order from the Alpha Agent; the
  default answer (the window closes) is the first device offered.
- `random_each(state, dice, events)`: each agent gains one randomly selected device; one that
  does not fit him is discarded and another is drawn (mission 2 after a partial mission 1, or
  standalone). A discarded token goes back to the Warehouse: it is out of that agent's
  redraws only.
- `give(state, agent, key, events)`: a named device (a mission rule that assigns one).

A core device goes to `AgentState.devices` (used with the core rules), an expansion one to
`StrikebackState.devices` (`devices.py`).
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.events import Event, Note
from engine.galaxy.content import content
from engine.galaxy.lifecycle import clockwise_from_alpha
from engine.galaxy.state import GalaxyState, Pending
from engine.galaxy.strikeback import devices
from engine.galaxy.world import agent_name

ASK = "pick:"  # a queued ask "pick:<agent>"


def warehouse(state: GalaxyState) -> list[str]:
    """Every device token in the box (one entry per copy): core and expansion."""
    held = [d for a in state.agents.values() for d in a.devices]
    out: list[str] = []
    for key, d in content().devices.items():
        out.extend([key] * max(0, d.count - held.count(key)))
    return out + devices.in_warehouse(state)


def fits(key: str, agent_id: str) -> bool:
    core = content().devices.get(key)
    if core is not None:
        return not core.classes or agent_id in core.classes
    return devices.catalogue()[key].fits(agent_id)


def name(key: str) -> str:
    core = content().devices.get(key)
    return core.name if core is not None else devices.catalogue()[key].name


def give(state: GalaxyState, agent_id: str, key: str, events: list[Event]) -> None:
    agent = state.agents[agent_id]
    if key in content().devices:
        agent.devices.append(key)
    else:
        devices.sb(state).devices.setdefault(agent_id, []).append(key)
    events.append(Note(text=f"{agent_name(agent)} takes the {name(key)}."))


def options(state: GalaxyState, agent_id: str) -> list[str]:
    """The devices the agent may select: those in the Warehouse that fit him, once each."""
    seen: list[str] = []
    for key in warehouse(state):
        if key not in seen and fits(key, agent_id):
            seen.append(key)
    return seen


def select_each(state: GalaxyState, count: int) -> None:
    """Queue `count` device selections for every agent in play (they open one at a time)."""
    layer = devices.sb(state)
    for seat in clockwise_from_alpha(state):
        if not state.agents[seat].dead:
            layer.asks.extend([f"{ASK}{seat}"] * count)


def open_ask(state: GalaxyState, ask: str) -> Pending | None:
    seat = ask.removeprefix(ASK)
    choices = options(state, seat)
    if not choices or state.agents[seat].dead:
        return None
    question = f"{agent_name(state.agents[seat])} selects a device"
    return Pending(
        kind="sb-pick", seat=seat, options=choices, data={"ask": ask, "question": question}
    )


def finish(state: GalaxyState, ask: str, option: str, events: list[Event]) -> None:
    give(state, ask.removeprefix(ASK), option, events)


def random_each(state: GalaxyState, dice: Dice, events: list[Event]) -> None:
    """Each agent in play gains one random device; one that does not fit him is discarded
    and another is drawn."""
    for seat in clockwise_from_alpha(state):
        if state.agents[seat].dead:
            continue
        tries = warehouse(state)
        while tries:
            key = tries.pop(dice.randrange(len(tries)))
            if fits(key, seat):
                give(state, seat, key, events)
                break
            events.append(
                Note(
                    text=f"The {name(key)} does not fit {agent_name(state.agents[seat])}: "
                    "discarded, another is drawn."
                )
            )
