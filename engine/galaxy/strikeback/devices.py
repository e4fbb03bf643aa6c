"""The expansion's devices handed out by Special Events (ours; the device tokens' texts are not
in the rulebook): the Harpoon and the Jet Boots, each used once with the agent's Action.

A Special Event effect `{"sb": "device", "key": ...}` queues a choice for the Alpha Agent: who
receives it. The device then belongs to that agent (`StrikebackState.devices`).
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Moved, Note
from engine.core.game import Action
from engine.core.hexgrid import Hex, neighbours
from engine.galaxy import combat
from engine.galaxy.board import label
from engine.galaxy.state import AgentState, GalaxyState, Pending
from engine.galaxy.strikeback.burrowing import exposed
from engine.galaxy.strikeback.status import StrikebackState
from engine.galaxy.world import (
    agent_name,
    alien_name,
    area_distance,
    board_of,
    co,
    find_alien,
    free,
    hex_arg,
    hx,
    locked,
    operative,
    sees,
)

ACTIONS = ("harpoon", "jet-boots")
HARPOON_DICE, HARPOON_RANGE, JET_BOOTS_HEXES = 2, 2, 3
ASK = "device:"


def sb(state: GalaxyState) -> StrikebackState:
    assert state.strikeback is not None
    return state.strikeback


def open_ask(state: GalaxyState, ask: str) -> Pending | None:
    """Who receives the device: one of the agents on the map, the Alpha Agent's choice."""
    on_map = [a.id for a in operative(state) if a.hex is not None]
    if not on_map or not state.alpha:
        return None
    return Pending(kind="sb-device", seat=state.alpha, options=on_map, data={"ask": ask})


def give(state: GalaxyState, ask: str, option: str, events: list[Event]) -> None:
    key = ask.removeprefix(ASK)
    sb(state).devices.setdefault(option, []).append(key)
    events.append(
        Note(text=f"{agent_name(state.agents[option])} receives the {key.replace('-', ' ')}.")
    )


def problem(state: GalaxyState, agent: AgentState, what: str, args: dict[str, str]) -> str | None:
    from engine.galaxy.agent import pinned

    assert agent.hex is not None
    if what not in sb(state).devices.get(agent.id, []):
        return f"has no {what.replace('-', ' ')}"
    if what == "harpoon":
        target = next((a for a in state.aliens if a.id == args.get("target", "")), None)
        if target is None:
            return "must name an alien (target:x1 ...)"
        if not exposed(state, target):
            return "cannot target a Burrowing alien underground (7.2.1)"
        if not sees(state, agent.hex, target.hex):
            return "has no line of sight to it"
        if area_distance(state, agent.hex, target.hex) > HARPOON_RANGE:
            return f"can reach {HARPOON_RANGE} Areas with the harpoon"
        return None
    if pinned(state, agent):
        return "is Engaged in combat: Evade first"
    try:
        dest = hex_arg(args.get("to", ""))
    except RuleError:
        return "must name a hex (to:C4)"
    if dest not in flight(state, agent):
        return (
            f"can fly to a free hex within {JET_BOOTS_HEXES} hexes (Barrier sides do not stop him)"
        )
    return None


def flight(state: GalaxyState, agent: AgentState) -> set[Hex]:
    """Hexes the Jet Boots reach: up to 3 steps, over Barrier sides, not through walls."""
    assert agent.hex is not None
    board, lock = board_of(state), locked(state)
    start = hx(agent.hex)
    seen, frontier = {start}, [start]
    for _ in range(JET_BOOTS_HEXES):
        nxt = []
        for h in frontier:
            for n in neighbours(h):
                if n not in seen and board.step_ok(h, n, lock, "flyer"):
                    seen.add(n)
                    nxt.append(n)
        frontier = nxt
    return {h for h in seen if h != start and free(state, h)}


def use(
    state: GalaxyState,
    agent: AgentState,
    what: str,
    args: dict[str, str],
    dice: Dice,
    events: list[Event],
) -> None:
    from engine.galaxy.attack import resolve_defence
    from engine.galaxy.signals import reveal_in_sight
    from engine.galaxy.strikeback.poses import stand

    assert agent.hex is not None
    if not (what == "jet-boots" and sb(state).flags.get("keep-jet-boots")):
        sb(state).devices[agent.id].remove(what)  # used once (mission 3 keeps the Jet Boots)
    if what == "harpoon":
        target = find_alien(state, args["target"])
        roll = combat.hit_roll(dice, "red", HARPOON_DICE)
        events.append(
            Note(
                text=f"{agent_name(agent)} fires the harpoon at {alien_name(target)}: "
                f"{combat.roll_text('red', roll.faces)} - {roll.hits} Hit(s)."
            )
        )
        condition = "immobilize" if roll.hits else ""
        resolve_defence(
            state, agent, [target.id], roll.hits, 0, "ranged", condition, dice, events, "harpoon"
        )
        return
    dest = hex_arg(args["to"])
    start = hx(agent.hex)
    stand(state, agent, events, "moved outside his Movement")
    agent.hex = co(dest)
    events.append(
        Moved(
            figure=agent.id,
            path=[label(start), label(dest)],
            text=f"{agent_name(agent)} flies {label(start)} -> {label(dest)} (Jet Boots).",
        )
    )
    reveal_in_sight(state, dice, events)


def legal_actions(state: GalaxyState, agent: AgentState) -> list[Action]:
    out: list[Action] = []

    def offer(what: str, label_text: str, **args: str) -> None:
        if problem(state, agent, what, args) is None:
            out.append(
                Action(verb="act", args={"unit": agent.id, "what": what, **args}, label=label_text)
            )

    owned = sb(state).devices.get(agent.id, [])
    if "harpoon" in owned:
        for alien in state.aliens:
            offer("harpoon", f"harpoon {alien.id}", target=alien.id)
    if "jet-boots" in owned and problem(state, agent, "jet-boots", {"to": "A1"}) != (
        "is Engaged in combat: Evade first"
    ):
        for h in sorted(flight(state, agent), key=lambda x: (x.r, x.q)):
            offer("jet-boots", f"fly to {label(h)}", to=label(h))
    return out
