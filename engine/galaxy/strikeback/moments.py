"""The expansion's answer at the core's rule moments that several of its rules share: an
agent's command, the actions open on his turn, the end of his turn, the Refresh, a prompt's
answer, the advisor's move. Each function runs the rules' parts in the order the core used
to call them one by one, so play is unchanged."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.events import Event
from engine.core.game import Action
from engine.galaxy.state import AgentState, GalaxyState, Pending
from engine.galaxy.strikeback import (
    activation,
    advisor_tools,
    free,
    masters,
    npc,
    play,
    poses,
    powers,
    suits,
)
from engine.galaxy.world import agent_name

POSE = "pose-"


def agent_command(
    state: GalaxyState,
    agent: AgentState,
    verb: str,
    args: dict[str, str],
    dice: Dice,
    events: list[Event],
) -> bool:
    """An agent's `/act` or `/orders` that an expansion rule answers (True: done); the core
    answers the rest. Mission actions and devices, the Menace, Psionic Powers, Power Suits,
    Free Actions and NPC activation; Fighting Poses and NPC standing orders."""
    if verb == "act":
        what = args.get("what", "").lower()
        if play.handles(state, what):
            play.do_action(state, agent, what, args, dice, events)
        elif what in masters.ACTIONS:
            masters.do_action(state, agent, what, events)
        elif powers.is_psionic(what):
            powers.use(state, agent, args, dice, events)
        elif what in suits.ACTIONS:
            suits.do_action(state, agent, what, args, dice, events)
        elif free.is_free(what):
            free.do(state, agent, what, args, dice, events)
        elif what == "npc":
            npc.activate_now(state, agent, args.get("target", "").lower(), dice, events)
        else:
            return False
        return True
    if verb == "orders":
        order = args.get("order", "").lower()
        if order.startswith(POSE):
            poses.do_pose(state, agent, order[len(POSE) :], events)
        elif npc.is_order(order):
            npc.do_order(state, agent, order, events)
        else:
            return False
        return True
    return False


def agent_actions(state: GalaxyState, agent: AgentState) -> list[Action]:
    """What the expansion adds to an agent's turn: mission actions, Menace, Power Suits,
    Free Actions, Psionic Powers, NPC activations and orders, Fighting Poses."""
    out = list(play.legal_actions(state, agent))
    out.extend(masters.legal_actions(state, agent))
    out.extend(suits.legal_actions(state, agent))  # Power Suits (9.5)
    out.extend(free.legal(state, agent))  # Free Actions (6.2.1.1)
    out.extend(powers.legal_actions(state, agent))  # Psionic Powers (9.7.2)
    for figure in npc.mine(state, agent):
        if npc.activation_problem(state, agent, figure.id) is None:
            out.append(
                Action(
                    verb="act",
                    args={"unit": agent.id, "what": "npc", "target": figure.id},
                    label=f"activate the NPC {agent_name(figure)} now (before your activities)",
                )
            )
    for order in npc.npc_orders(state, agent):
        out.append(
            Action(
                verb="orders",
                args={"unit": agent.id, "order": order},
                label=f"Standing order for {npc.order_label(state, order)}",
            )
        )
    for order in poses.orders(state, agent):
        out.append(
            Action(
                verb="orders",
                args={"unit": agent.id, "order": order},
                label=f"Fighting Pose: {order[len(POSE) :]}",
            )
        )
    return out


def turn_ends(
    state: GalaxyState, agent: AgentState, dice: Dice, events: list[Event], ended_by_player: bool
) -> None:
    """The agent's turn ends, by his `/end-turn` or with every activity used: a Seize ends
    with an ended turn (7.3); NPCs not yet activated act now."""
    if ended_by_player:
        suits.end_turn(state, agent, events)
    npc.end_of_turn(state, agent, dice, events)


def flies(state: GalaxyState, agent: AgentState) -> bool:
    """His Movement crosses Barrier sides: a Flying Power Suit (7.1.1), Levitation (9.7.2)."""
    return suits.flies(state, agent) or powers.flies(state, agent)


def refresh(state: GalaxyState, events: list[Event]) -> None:
    """The Refresh after its wounds: Psionic Powers turn up, Regeneration heals (9.7.2);
    Power Suit energy (6.1, 9.5)."""
    powers.refresh(state, events)
    suits.refresh(state, events)


def answer(state: GalaxyState, pending: Pending, option: str, events: list[Event]) -> None:
    """The answer to one of the expansion's prompts: a tie-break (11.5), a Recall (9.5.1), a
    mission's or a device's question."""
    if pending.kind == activation.KIND:
        activation.finish_choice(state, option, events)
    elif pending.kind == suits.RECALL_KIND:
        suits.finish_recall(state, option, events)
    else:
        play.finish_choice(state, option, events)


def default_answer(state: GalaxyState, pending: Pending) -> str:
    """The answer when an expansion prompt's window closes: the earliest arrival of a tie
    (11.5), yes to a Recall (9.5.1), else the mission's or the device's default."""
    if pending.kind == activation.KIND:
        return pending.options[0]
    if pending.kind == suits.RECALL_KIND:
        return suits.AGREE
    return play.default_choice(state)


def advice(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """The advisor's expansion moves, tried before the core's: the mission's goals, Power
    Suits, then tokens in reach and NPC standing orders."""
    for pick in (play.advice, suits.advice, advisor_tools.advise):
        found = pick(state, agent, actions)
        if found is not None:
            return found
    return None
