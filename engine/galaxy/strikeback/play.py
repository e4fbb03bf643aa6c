"""Operation Strikeback mission play (storybook 7): the Special Event effects every mission may
use, and the dispatch to the mission's own rules (`mission_rules/<key>.py`) for its effects,
special actions, objective conditions, prompts and the advisor's mission moves.

Special Event effects are data (`{"sb": kind, ...}` in `content/missions/<key>.json`).
Choices the storybook gives the Alpha Agent (who the two Firefighters are, who receives a
device) are prompts to him, asked one after the other from the queue `StrikebackState.asks`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Moved, Note
from engine.core.game import Action
from engine.core.hexgrid import Hex, neighbours
from engine.galaxy import combat
from engine.galaxy import dice as gdice
from engine.galaxy.board import label
from engine.galaxy.content import EventCard, Mission, close_encounter
from engine.galaxy.lifecycle import nearest_free, place_alien
from engine.galaxy.signals import signal_at
from engine.galaxy.state import AgentState, AlienState, Coord, GalaxyState
from engine.galaxy.strikeback import campaign, criticals, devices, handouts, npc, suits
from engine.galaxy.strikeback.mission_rules import rules_for
from engine.galaxy.strikeback.status import (
    StrikebackState,
    new_mission_state,
    sb_state,
    sb_state_or_none,
)
from engine.galaxy.world import (
    adjacent,
    agent_name,
    board_of,
    co,
    free,
    mission_key,
    mission_of,
)

if TYPE_CHECKING:
    from engine.galaxy.strikeback.mission_rules import MissionRules


def sb(state: GalaxyState) -> StrikebackState:
    return sb_state(state)


def mark_hex(state: GalaxyState, name: str) -> Hex:
    for h, mark in board_of(state).marks.items():
        if mark == name:
            return h
    raise RuleError(f"The map has no mark {name}.")


def rules(state: GalaxyState) -> MissionRules:
    """The rules of the mission being played."""

    return rules_for(mission_key(state))


def lit_marks(state: GalaxyState) -> dict[str, str]:
    """Map marks the board shows with a mission token now (mark -> token)."""
    return rules(state).lit_marks(state) if sb_state_or_none(state) is not None else {}


def switch_on(state: GalaxyState, high_impact: bool) -> None:
    """The game plays the expansion's rules: its own part of the state starts empty."""
    state.expansion = StrikebackState(high_impact=high_impact)


def next_mission(state: GalaxyState) -> None:
    """A new mission: Marks, Poisons, Criticals and shields end; Psionic Powers stay with
    their agents; Power Suits stay behind with their weapons."""
    layer = sb_state_or_none(state)
    assert layer is not None
    held = layer.gear.psionics
    suits.strip_suit_weapons(state)
    state.expansion = StrikebackState(high_impact=layer.high_impact)
    sb_state(state).gear.psionics = held


def begin_mission(state: GalaxyState, mission: Mission, dice: Dice) -> None:
    """The layer's part of a mission's setup: NPC deck (10.1.1) and Teleport Points that
    only an event puts on the map."""

    camp = state.campaign
    sb(state).mission_state = new_mission_state(mission_key(state))
    sb(state).previous = camp.results[-1].outcome if camp is not None and camp.results else None
    order = list(getattr(mission, "npc_deck", []))
    if npc.enabled(state) or order:
        npc.begin_mission(state, dice, order)
    hidden = list(getattr(mission, "hidden_tps", []))
    sb(state).hidden_tps = hidden
    if hidden:
        state.destroyed_tps = hidden[:]  # the engine's list of Points not on the map
    rules(state).begin(state, mission, dice)
    picks = int(getattr(mission, "device_picks", 0))
    if picks:  # the briefing's "Devices: N per agent", selected by each agent (2.1)
        handouts.select_each(state, picks)
        ask_next(state)


# -- Special Event effects ----------------------------------------------------------------------

RESULTS = ("accomplished", "partial", "failed")


def previous_result(state: GalaxyState) -> str | None:
    """The previous campaign mission's result (storybook 2.5): `accomplished`, `partial` or
    `failed`; None in a standalone mission and in the campaign's first mission."""
    return sb_state(state).previous if sb_state_or_none(state) is not None else None


def event_effects(state: GalaxyState, event: EventCard) -> list[dict[str, object]]:
    """The column of a Special Event to apply (storybook 2.5): the one for the previous
    mission's result when the card has it (`if_previous`), else the standalone column
    (`effects`), which a previous failure and the campaign's first mission also read."""
    previous = previous_result(state)
    if previous is not None and previous in event.if_previous:
        return list(event.if_previous[previous])
    return list(event.effects)


def apply_effect(
    state: GalaxyState, effect: dict[str, object], dice: Dice, events: list[Event]
) -> None:
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
        events.append(
            Note(
                text=f"A new Teleport Point ({gdice.symbol_word(symbol)}) opens at {label(point)}."
            )
        )
    elif kind == "ce-shuffle":
        pile = state.ce_deck.draw_pile
        pile.insert(dice.randrange(len(pile) + 1), str(effect["card"]))
        name = _encounter_name(str(effect["card"]))
        events.append(Note(text=f"{name} is shuffled into the Close Encounter deck."))
    elif kind == "ce-top":
        state.ce_deck.put_on_top(str(effect["card"]))
        name = _encounter_name(str(effect["card"]))
        events.append(Note(text=f"{name} goes on top of the Close Encounter deck."))
    elif kind == "teleport-at":
        for _ in range(int(str(effect.get("count", 1)))):
            signal_at(state, board_of(state).teleports[str(effect["symbol"])], dice, events)
    elif kind == "npc-to-alpha":
        npc.arrive_beside(state, state.alpha, dice, events)
    elif kind == "device":
        layer.asks.append(f"{devices.ASK}{effect['key']}")
    elif kind == "power-suit":  # 9.5: an empty suit on a mark, or next to the Alpha Agent
        mark, batteries = int(str(effect["mark"])), int(str(effect["batteries"]))
        if "at" in effect:
            where = mark_hex(state, str(effect["at"]))
        else:
            where = suits.beside(state, state.alpha)
        suits.place_suit(state, mark, batteries, where, events)
    elif kind == "power-suit-hq":  # 9.5.1: a suit waits at Headquarters for a Recall
        mark, batteries = int(str(effect["mark"])), int(str(effect["batteries"]))
        suits.stock_headquarters(state, mark, batteries, events)
    else:
        rules(state).apply_effect(state, kind, effect, dice, events)
    ask_next(state)


def _encounter_name(card_id: str) -> str:
    """A Close Encounter card as players know it: its number and name ("Close Encounter #28,
    Sky Hunters")."""
    card = close_encounter(card_id)
    number = getattr(card, "number", None)
    return f"Close Encounter {f'#{number}, ' if number else ''}{card.name}"


def entered(state: GalaxyState, agent: AgentState, h: Hex, dice: Dice, events: list[Event]) -> None:
    """An agent steps onto a hex during his Movement (face-down Waypoints, dropped items)."""
    rules(state).entered(state, agent, h, dice, events)
    ask_next(state)


def agent_died(state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
    """An agent dies on his hex (before his figure leaves the map); the Critical tokens on
    his sheet go to their discard piles (8.2)."""
    mine = sb(state).figures.get(agent.id)
    if mine is not None:
        criticals.release(mine, sb(state).piles)
    rules(state).agent_died(state, agent, events)


def alien_killed(state: GalaxyState, alien: AlienState, events: list[Event]) -> None:
    """A mission may put a dead alien's card in the Warehouse instead of the discard pile."""
    rules(state).alien_killed(state, alien, events)


def reinforcements(state: GalaxyState, dice: Dice, events: list[Event]) -> bool:
    """The mission's own Reinforcements step of the Strategy phase; True while a prompt is
    open (the phase waits for the answer)."""
    rules(state).reinforcements(state, dice, events)
    ask_next(state)
    return state.pending is not None


def quiet_signals(state: GalaxyState) -> bool:
    """This mission's Event phases neither teleport nor move Signals (mission 6)."""
    return sb_state_or_none(state) is not None and rules(state).quiet_signals


def after_event(state: GalaxyState, dice: Dice, events: list[Event]) -> None:
    """The mission's rule for the end of every Event phase (mission 1: a new fire)."""
    rules(state).after_event(state, dice, events)
    ask_next(state)


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
    """Open the next queued choice for the Alpha Agent, if none is open. A choice with nothing
    to choose from (no agent on the map) is dropped."""

    layer = sb(state)
    while state.pending is None and layer.asks:
        ask = layer.asks[0]
        if ask.startswith(devices.ASK):
            pending = devices.open_ask(state, ask)
        elif ask.startswith(handouts.ASK):
            pending = handouts.open_ask(state, ask)
        else:
            pending = rules(state).open_ask(state, ask)
        if pending is None:
            layer.asks.pop(0)
        else:
            state.pending = pending


def finish_choice(state: GalaxyState, option: str, events: list[Event]) -> None:
    layer = sb(state)
    pending = state.pending
    assert pending is not None
    if pending.kind == campaign.ARMORY_KIND:
        campaign.finish_armory(state, option, events)
        return
    state.pending = None
    ask = str(pending.data["ask"])
    if ask.startswith(devices.ASK):
        devices.give(state, ask, option, events)
        done = True
    elif ask.startswith(handouts.ASK):
        handouts.finish(state, ask, option, events)
        done = True
    else:
        done = rules(state).finish_choice(state, pending, option, events)
    if done and layer.asks and layer.asks[0] == ask:
        layer.asks.pop(0)
    ask_next(state)


def default_choice(state: GalaxyState) -> str:
    """The answer to an open Strikeback prompt when its answer window closes."""

    pending = state.pending
    assert pending is not None
    if pending.kind == campaign.ARMORY_KIND:
        return campaign.default_armory(state)
    if pending.kind == "sb-pick":  # a device selection: the first one offered
        return pending.options[0]
    return rules(state).default_choice(state, pending)


# -- mission special actions and devices -------------------------------------------------------


def handles(state: GalaxyState, what: str) -> bool:
    """Whether `/act what:<what>` is a device or a special action of this mission."""

    return sb_state_or_none(state) is not None and (
        devices.is_device(what) or what in rules(state).actions
    )


def action_problem(
    state: GalaxyState, agent: AgentState, what: str, args: dict[str, str]
) -> str | None:
    if sb_state_or_none(state) is None or agent.hex is None:
        return "has no such action"
    if agent.action_used:
        return "has already used his Action this turn"
    if devices.is_device(what):
        return devices.problem(state, agent, what, args)
    return rules(state).action_problem(state, agent, what, args)


def do_action(
    state: GalaxyState,
    agent: AgentState,
    what: str,
    args: dict[str, str],
    dice: Dice,
    events: list[Event],
) -> None:
    problem = action_problem(state, agent, what, args)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    if devices.is_device(what):
        devices.use(state, agent, what, args, dice, events)
    else:
        rules(state).do_action(state, agent, what, args, dice, events)
    agent.action_used = True
    if agent.movement == "open":
        agent.movement = "closed"  # a separate Action after moving ends the Movement
    ask_next(state)


def legal_actions(state: GalaxyState, agent: AgentState) -> list[Action]:
    if sb_state_or_none(state) is None or agent.hex is None or agent.action_used:
        return []
    return [*rules(state).legal_actions(state, agent), *devices.legal_actions(state, agent)]


# -- objectives and advice ---------------------------------------------------------------------


def condition(state: GalaxyState, cond: str) -> bool:
    if cond == "dead>=half":
        dead = sum(1 for seat in state.seats if state.agents[seat].dead)
        return dead >= (len(state.seats) + 1) // 2
    return rules(state).condition(state, cond)


def objective_counts(state: GalaxyState) -> list[tuple[str, str]]:
    """The counters of the mission's objectives (the losses every mission shares, then the
    mission's own), for the header and `/campaign status`."""
    counts: list[tuple[str, str]] = []
    conditions = sorted({c for o in mission_of(state).objectives for c in o.when})
    dead = sum(1 for seat in state.seats if state.agents[seat].dead)
    limits = [c.removeprefix("dead>=") for c in conditions if c.startswith("dead>=")]
    if limits:
        fails = (len(state.seats) + 1) // 2 if limits[0] == "half" else int(limits[0])
        counts.append(("agents lost", f"{dead} (fails at {fails})"))
    if "events-out" in conditions:
        counts.append(("Event cards left", str(len(state.event_deck.draw_pile))))
    for cond in conditions:
        if cond.startswith("event-drawn:"):
            card = cond.split(":", 1)[1]
            drawn = "drawn" if card in state.event_deck.discard_pile else "not drawn yet"
            counts.append((f"Special Event {card.rsplit('-', 1)[-1].upper()}", drawn))
    layer = sb_state_or_none(state)
    if layer is None or layer.mission_state is None:
        # The mission's own part is made when it begins; a view must never make it (reading
        # it through `mission_part` would), so there is nothing of its own to count yet.
        return counts
    return counts + rules(state).counts(state)


def advice(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """The mission's own advice (its objectives), before the core advisor's."""
    if sb_state_or_none(state) is None:
        return None
    return rules(state).advice(state, agent, actions)


# -- mission hooks in the core phases ---------------------------------------------------------


def event_phase(state: GalaxyState, dice: Dice, events: list[Event]) -> bool:
    """True when the mission ran this Event phase its own way (no card is drawn)."""
    handled = rules(state).event_phase(state, dice, events)
    ask_next(state)
    return handled


def decoys(state: GalaxyState, alien: AlienState) -> dict[str, Coord]:
    return rules(state).decoys(state, alien) if sb_state_or_none(state) is not None else {}


def strike_decoy(
    state: GalaxyState, alien: AlienState, token: str, kind: str, dice: Dice, events: list[Event]
) -> None:
    rules(state).strike_decoy(state, alien, token, kind, dice, events)


def turn_over(state: GalaxyState, seat: str, events: list[Event]) -> None:
    if sb_state_or_none(state) is not None:
        rules(state).turn_over(state, seat, events)
