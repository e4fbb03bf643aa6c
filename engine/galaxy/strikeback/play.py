"""Operation Strikeback mission play: Special Event effects, mission special actions,
objective conditions and the advisor's mission moves (storybook 7, mission 1 so far).

Special Event effects are data (`{"sb": kind, ...}` in `content/missions.json`). Choices the
storybook gives the Alpha Agent (who the two Firefighters are, who receives a device) are
prompts to him, asked one after the other.
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Moved, Note
from engine.core.game import Action
from engine.core.hexgrid import Hex, distance, neighbours
from engine.galaxy import combat
from engine.galaxy.board import label
from engine.galaxy.content import Mission
from engine.galaxy.state import AgentState, GalaxyState, Pending
from engine.galaxy.strikeback.status import StrikebackState
from engine.galaxy.world import (
    adjacent,
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

WAYPOINTS = 4
ACTIONS = ("extinguish", "recharge", "harpoon", "jet-boots")
HARPOON_DICE, HARPOON_RANGE, JET_BOOTS_HEXES = 2, 2, 3


def sb(state: GalaxyState) -> StrikebackState:
    assert state.strikeback is not None
    return state.strikeback


def mark_hex(state: GalaxyState, name: str) -> Hex:
    for h, mark in board_of(state).marks.items():
        if mark == name:
            return h
    raise RuleError(f"The map has no mark {name}.")


def fire_marks(state: GalaxyState) -> set[str]:
    return {f"wp{n}" for n in burning(state)}


def burning(state: GalaxyState) -> list[int]:
    return sorted(sb(state).flames) if state.strikeback is not None else []


def begin_mission(state: GalaxyState, mission: Mission, dice: Dice) -> None:
    """The layer's part of a mission's setup: NPC deck (10.1.1) and Teleport Points that
    only an event puts on the map."""
    from engine.galaxy.strikeback import npc

    order = list(getattr(mission, "npc_deck", []))
    if npc.enabled(state) or order:
        npc.begin_mission(state, dice, order)
    hidden = list(getattr(mission, "hidden_tps", []))
    sb(state).hidden_tps = hidden
    if hidden:
        state.destroyed_tps = hidden[:]  # the engine's list of Points not on the map


# -- Special Event effects ----------------------------------------------------------------------


def apply_effect(
    state: GalaxyState, effect: dict[str, object], dice: Dice, events: list[Event]
) -> None:
    from engine.galaxy.lifecycle import nearest_free, place_alien
    from engine.galaxy.signals import signal_at
    from engine.galaxy.strikeback import npc

    kind = str(effect["sb"])
    layer = sb(state)
    if kind == "hazard-marks":
        for name in [str(m) for m in effect["marks"]]:  # type: ignore[attr-defined]
            _hazard(state, mark_hex(state, name), events)
    elif kind == "place-alien":
        where = (
            board_of(state).teleports[str(effect["tp"])]
            if "tp" in effect
            else mark_hex(state, str(effect["mark"]))
        )
        spot = nearest_free(state, where)
        if spot is not None:
            place_alien(state, str(effect["card"]), spot, events, "lands")
    elif kind == "place-tp":
        symbol = str(effect["symbol"])
        if symbol in layer.hidden_tps:
            layer.hidden_tps.remove(symbol)
            state.destroyed_tps.remove(symbol)
        point = board_of(state).teleports[symbol]
        events.append(Note(text=f"A new Teleport Point ({symbol}) opens at {label(point)}."))
    elif kind == "ce-shuffle":
        pile = state.ce_deck.draw_pile
        pile.insert(dice.randrange(len(pile) + 1), str(effect["card"]))
        events.append(Note(text="A Close Encounter card is shuffled into the deck."))
    elif kind == "ce-top":
        state.ce_deck.put_on_top(str(effect["card"]))
        events.append(Note(text="A Close Encounter card goes on top of the deck."))
    elif kind == "teleport-at":
        for _ in range(int(str(effect.get("count", 1)))):
            signal_at(state, board_of(state).teleports[str(effect["symbol"])], dice, events)
    elif kind == "npc-to-alpha":
        npc.arrive_beside(state, state.alpha, dice, events)
    elif kind == "firefighters":
        layer.asks.append("firefighter")
    elif kind == "device":
        layer.asks.append(f"device:{effect['key']}")
    elif kind == "flame":
        _flame(state, int(str(effect["waypoint"])), events)
    elif kind == "flame-next":
        _flame_next(state, events)
    elif kind == "flames-every-event":
        layer.flames_from = state.round + 1
        events.append(Note(text="From the next round, every Event phase sets a new fire."))
    else:
        raise RuleError(f"Unknown Special Event effect {kind}.")
    ask_next(state)


def after_event(state: GalaxyState, events: list[Event]) -> None:
    """The mission's rule for every Event phase (mission 1: a new fire each round)."""
    layer = sb(state)
    if layer.flames_from and state.round >= layer.flames_from:
        _flame_next(state, events)


def _flame(state: GalaxyState, waypoint: int, events: list[Event]) -> None:
    layer = sb(state)
    if waypoint not in layer.flames:
        layer.flames.append(waypoint)
        at = label(mark_hex(state, f"wp{waypoint}"))
        events.append(
            Note(text=f"FIRE at Waypoint {waypoint} ({at}): {len(layer.flames)} burning.")
        )


def _flame_next(state: GalaxyState, events: list[Event]) -> None:
    free_wps = [n for n in range(1, WAYPOINTS + 1) if n not in sb(state).flames]
    if free_wps:
        _flame(state, free_wps[0], events)


def _hazard(state: GalaxyState, h: Hex, events: list[Event]) -> None:
    """Mission 1, Special Event A: a figure on the mark takes 1 wound and is moved 1 hex
    (ours: to the first free neighbouring hex in board order)."""
    for figure in list(state.agents.values()):
        if figure.hex != co(h) or figure.dead:
            continue
        combat.wound_agent(state, figure, 1, events, "the landing blast")
        spots = [n for n in neighbours(h) if free(state, n) and adjacent(state, co(h), co(n))]
        if figure.hex is not None and spots:
            dest = min(spots, key=lambda x: (x.r, x.q))
            figure.hex = co(dest)
            events.append(
                Moved(
                    figure=figure.id,
                    path=[label(h), label(dest)],
                    text=f"{agent_name(figure)} is thrown to {label(dest)}.",
                )
            )


# -- the Alpha Agent's choices ---------------------------------------------------------------


def ask_next(state: GalaxyState) -> None:
    """Open the next queued choice for the Alpha Agent, if none is open."""
    layer = sb(state)
    if state.pending is not None or not layer.asks:
        return
    on_map = [a.id for a in operative(state) if a.hex is not None]
    ask = layer.asks[0]
    options = [a for a in on_map if a not in layer.firefighters] if ask == "firefighter" else on_map
    if not options or not state.alpha:
        layer.asks.pop(0)
        ask_next(state)
        return
    kind = "sb-firefighter" if ask == "firefighter" else "sb-device"
    state.pending = Pending(kind=kind, seat=state.alpha, options=options, data={"ask": ask})


def finish_choice(state: GalaxyState, option: str, events: list[Event]) -> None:
    layer = sb(state)
    pending = state.pending
    assert pending is not None
    ask = str(pending.data["ask"])
    state.pending = None
    agent = state.agents[option]
    if ask == "firefighter":
        layer.firefighters[option] = True
        events.append(Note(text=f"{agent_name(agent)} is a Firefighter (Fire Extinguisher)."))
        elected = len(layer.firefighters)
        others = [
            a for a in operative(state) if a.hex is not None and a.id not in layer.firefighters
        ]
        if elected >= 2 or not others:
            layer.asks.pop(0)
    else:
        key = ask.split(":", 1)[1]
        layer.devices.setdefault(option, []).append(key)
        layer.asks.pop(0)
        events.append(Note(text=f"{agent_name(agent)} receives the {key.replace('-', ' ')}."))
    ask_next(state)


# -- mission special actions and devices -------------------------------------------------------


def action_problem(
    state: GalaxyState, agent: AgentState, what: str, args: dict[str, str]
) -> str | None:
    from engine.galaxy.agent import pinned

    if state.strikeback is None or agent.hex is None:
        return "has no such action"
    if agent.action_used:
        return "has already used his Action this turn"
    layer = sb(state)
    if what in ("extinguish", "recharge"):
        if agent.id not in layer.firefighters:
            return "is not a Firefighter"
        if what == "recharge":
            return None if not layer.firefighters[agent.id] else "has a charged Fire Extinguisher"
        if not layer.firefighters[agent.id]:
            return "must recharge his Fire Extinguisher first"
        wp = _waypoint_arg(args.get("target", ""))
        if wp is None or wp not in layer.flames:
            return "must name a burning Waypoint (target:wp1..wp4)"
        spot = mark_hex(state, f"wp{wp}")
        if co(spot) != agent.hex and not adjacent(state, agent.hex, co(spot)):
            return f"must stand next to Waypoint {wp}"
        return None
    if what not in layer.devices.get(agent.id, []):
        return f"has no {what.replace('-', ' ')}"
    if what == "harpoon":
        target = next((a for a in state.aliens if a.id == args.get("target", "")), None)
        if target is None:
            return "must name an alien (target:x1 ...)"
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
    if dest not in _flight(state, agent):
        return (
            f"can fly to a free hex within {JET_BOOTS_HEXES} hexes (Barrier sides do not stop him)"
        )
    return None


def _waypoint_arg(text: str) -> int | None:
    text = text.lower().removeprefix("wp")
    return int(text) if text.isdigit() and 1 <= int(text) <= WAYPOINTS else None


def _flight(state: GalaxyState, agent: AgentState) -> set[Hex]:
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


def do_action(
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

    problem = action_problem(state, agent, what, args)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    layer = sb(state)
    assert agent.hex is not None
    if what == "extinguish":
        wp = _waypoint_arg(args.get("target", ""))
        assert wp is not None
        layer.flames.remove(wp)
        layer.firefighters[agent.id] = False
        events.append(Note(text=f"{agent_name(agent)} puts out the fire at Waypoint {wp}."))
    elif what == "recharge":
        layer.firefighters[agent.id] = True
        events.append(Note(text=f"{agent_name(agent)} recharges his Fire Extinguisher."))
    elif what == "harpoon":
        layer.devices[agent.id].remove("harpoon")
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
    else:
        layer.devices[agent.id].remove("jet-boots")
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
    agent.action_used = True
    if agent.movement == "open":
        agent.movement = "closed"  # a separate Action after moving ends the Movement


def legal_actions(state: GalaxyState, agent: AgentState) -> list[Action]:
    if state.strikeback is None or agent.hex is None or agent.action_used:
        return []
    layer = sb(state)
    out: list[Action] = []

    def offer(what: str, label_text: str, **args: str) -> None:
        if action_problem(state, agent, what, args) is None:
            out.append(
                Action(verb="act", args={"unit": agent.id, "what": what, **args}, label=label_text)
            )

    for wp in layer.flames:
        offer("extinguish", f"put out the fire at Waypoint {wp}", target=f"wp{wp}")
    offer("recharge", "recharge the Fire Extinguisher")
    for alien in state.aliens:
        offer("harpoon", f"harpoon {alien.id}", target=alien.id)
    if (
        "jet-boots" in layer.devices.get(agent.id, [])
        and action_problem(state, agent, "jet-boots", {"to": "A1"})
        != "is Engaged in combat: Evade first"
    ):
        for h in sorted(_flight(state, agent), key=lambda x: (x.r, x.q)):
            offer("jet-boots", f"fly to {label(h)}", to=label(h))
    return out


# -- objectives and advice ---------------------------------------------------------------------


def condition(state: GalaxyState, cond: str) -> bool:
    flames = len(burning(state))
    if cond == "dead>=half":
        dead = sum(1 for seat in state.seats if state.agents[seat].dead)
        return dead >= (len(state.seats) + 1) // 2
    if cond.startswith("flames>="):
        return flames >= int(cond[len("flames>=") :])
    if cond.startswith("flames<="):
        return flames <= int(cond[len("flames<=") :])
    return False


def advice(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """A Firefighter puts out fires: extinguish, recharge, else walk to the nearest fire."""
    if state.strikeback is None or agent.id not in sb(state).firefighters or agent.hex is None:
        return None
    for what in ("extinguish", "recharge"):
        found = next((a for a in actions if a.args.get("what") == what), None)
        if found is not None and (what == "extinguish" or burning(state)):
            return found
    fires = [mark_hex(state, f"wp{n}") for n in burning(state)]
    moves = [a for a in actions if a.verb == "move"]
    if not fires or not moves:
        return None
    here = min(distance(hx(agent.hex), f) for f in fires)

    def gap(a: Action) -> int:
        dest = hex_arg(a.args["to"])
        return min(distance(dest, f) for f in fires)

    best = min(moves, key=lambda a: (gap(a), a.args["to"]))
    return best if gap(best) < here else None
