"""Energy Batteries (9.4) and Power Suits (9.5), with agents seizing from a suit (7.3).

A suit is a `SuitState` in `StrikebackState.suits` (on the battlefield) or
`StrikebackState.headquarters` (waiting for a Recall). Its sheet is `PROFILES[mark]` (ours,
consistent with 9.5: Mark I +2 Movement, Mark II +3; shields, weapon, Seize and Flying ours).

The API missions call:
- `place_suit(state, mark, batteries, hex, events)`: an empty suit dropped on a hex (the
  closest free hex if that one is taken);
- `stock_headquarters(state, mark, batteries, events)`: a suit at Headquarters that an agent
  can Recall (`/act what:suit-recall target:<suit>`, missions 5 and 6);
- `recharge(state, suit_id, batteries)`: Batteries from powers and items (9.4).

Agents' verbs (all listed by `legal_actions`):
- `/act what:suit-equip target:<suit>`: walk onto the empty suit's hex with the Movement left
  and spend the Action to get in; the Movement is not interrupted and gains the suit's bonus;
- `/act what:suit-leave to:<hex>`: spend the Action to step out onto an adjacent hex reached
  by a legal walking step (a separate Action after moving ends the Movement, core policy);
- `/act what:suit-recall target:<suit>`: spend the Action to teleport a Headquarters suit
  onto himself; another agent needs the Alpha Agent's agreement (a prompt to him). He may not
  leave it before the next Refresh;
- Free Actions (6.2.1.1), from a suit with Seize: `/act what:suit-seize target:<agent>` during
  his Movement (one agent a turn; Immobilized, Paralyzed or Bleeding, adjacent) and
  `/act what:suit-drop to:<hex>` to put him down next to the suit. When the Movement ends the
  seized agent is put down by itself (the first free neighbour in board order, else the
  closest free hex).

Rules as played:
- Each Refresh every suit on the battlefield pays one Battery, worn or not; a suit that cannot
  pay leaves play (its pilot stays on its hex at no cost) and goes to the Warehouse. Its
  Energy Shield refills at each Refresh.
- An empty suit occupies its hex: every figure may cross it, none may stop on it; aliens ignore
  it and nothing can attack it.
- While its shields last they alone absorb Hits: the agent's own shield and armor Bolt effects
  are bypassed; once they are gone the agent defends as usual (`attack._agent_defends`,
  `combat.alien_attack`).
- A pilot is always Standing (9.2.2). He fires the suit's weapon (never jams, no Ammo,
  RED+BLUE, GD results act as Bolts) or his own weapons.
- When the pilot dies the suit is destroyed.
"""

from __future__ import annotations

from dataclasses import dataclass

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Moved, Note
from engine.core.game import Action
from engine.core.hexgrid import Hex, neighbours
from engine.core.view import TokenView
from engine.core.words import counted
from engine.galaxy.agent import do_move, move_problem, reach
from engine.galaxy.board import label
from engine.galaxy.lifecycle import nearest_free
from engine.galaxy.signals import reveal_in_sight
from engine.galaxy.state import AgentState, GalaxyState, Pending, WeaponState
from engine.galaxy.strikeback.arsenal import is_suit_weapon
from engine.galaxy.strikeback.free import FreeAction, register
from engine.galaxy.strikeback.lookups import worn
from engine.galaxy.strikeback.movement import can_seize, drop_hex
from engine.galaxy.strikeback.poses import pose, stand
from engine.galaxy.strikeback.status import StrikebackState, SuitState, sb_state, sb_state_or_none
from engine.galaxy.world import (
    adjacent,
    agent_name,
    board_of,
    co,
    free,
    hex_arg,
    hx,
    locked,
    seat_label,
    weapon,
)

EQUIP, LEAVE, RECALL, SEIZE, DROP = (
    "suit-equip",
    "suit-leave",
    "suit-recall",
    "suit-seize",
    "suit-drop",
)
RECALL_KIND = "sb-recall"  # the Pending kind of the Alpha Agent's agreement to a Recall
ACTIONS = (EQUIP, LEAVE, RECALL)  # Action activities; SEIZE and DROP are Free Actions
AGREE, REFUSE = "agree", "refuse"


@dataclass(frozen=True)
class SuitProfile:
    mark: int
    name: str
    move_bonus: int  # 9.5.2.1: Mark I +2, Mark II +3
    shields: int  # Energy Shield points, refilled at each Refresh
    weapon: str  # its on-board weapon (`arsenal.suit_weapons`)
    seize: bool
    flying: bool


PROFILES = {
    1: SuitProfile(1, "Power Suit Mark I", 2, 3, "suit-autocannon", seize=True, flying=False),
    2: SuitProfile(2, "Power Suit Mark II", 3, 4, "suit-plasma-array", seize=True, flying=True),
}


def sb(state: GalaxyState) -> StrikebackState:
    return sb_state(state)


def profile_of(suit: SuitState) -> SuitProfile:
    return PROFILES[suit.mark]


def suit_name(suit: SuitState) -> str:
    return f"{profile_of(suit).name} ({suit.id})"


def move_bonus(state: GalaxyState, agent: AgentState) -> int:
    suit = worn(state, agent.id)
    return profile_of(suit).move_bonus if suit is not None else 0


def flies(state: GalaxyState, agent: AgentState) -> bool:
    suit = worn(state, agent.id)
    return suit is not None and profile_of(suit).flying


def _next_id(state: GalaxyState) -> str:
    taken = {*sb(state).suits, *(s.id for s in sb(state).headquarters)}
    n = 1
    while f"suit-{n}" in taken:
        n += 1
    return f"suit-{n}"


# -- the missions' API ---------------------------------------------------------------------------


def place_suit(
    state: GalaxyState, mark: int, batteries: int, at: Hex, events: list[Event]
) -> SuitState:
    """Drop an empty suit on a hex (the closest free one if it is taken)."""

    if mark not in PROFILES:
        raise ValueError(f"there is no Power Suit Mark {mark}")
    spot = at if free(state, at) else nearest_free(state, at)
    if spot is None:
        raise RuleError("There is no free hex left for the Power Suit.")
    suit = SuitState(
        id=_next_id(state),
        mark=mark,
        batteries=batteries,
        hex=co(spot),
        shields=PROFILES[mark].shields,
    )
    sb(state).suits[suit.id] = suit
    events.append(
        Note(
            text=f"A {suit_name(suit)} lands at {label(spot)} with {batteries} Batter"
            f"{'y' if batteries == 1 else 'ies'}."
        )
    )
    return suit


def beside(state: GalaxyState, agent_id: str) -> Hex:
    """Where a suit "adjacent to" an agent lands: the first free hex next to him in board
    order (ours: the text does not say who picks), else the closest free hex."""

    agent = state.agents.get(agent_id)
    if agent is None or agent.hex is None:
        return board_of(state).starts[0]
    me = hx(agent.hex)
    board = board_of(state)
    return drop_hex(
        me,
        lambda h: sorted((n for n in neighbours(h) if board.on_map(n)), key=lambda x: (x.r, x.q)),
        lambda h: (
            free(state, h)
            and h != me
            and (h not in neighbours(me) or adjacent(state, co(me), co(h)))
        ),
    )


def stock_headquarters(
    state: GalaxyState, mark: int, batteries: int, events: list[Event]
) -> SuitState:
    """A suit waiting at Headquarters for the Recall Power Suit action."""
    if mark not in PROFILES:
        raise ValueError(f"there is no Power Suit Mark {mark}")
    suit = SuitState(id=_next_id(state), mark=mark, batteries=batteries)
    sb(state).headquarters.append(suit)
    events.append(
        Note(text=f"A {suit_name(suit)} waits at Headquarters with {batteries} Batteries.")
    )
    return suit


def recharge(state: GalaxyState, suit_id: str, batteries: int, events: list[Event]) -> None:
    """Energy Batteries from a power or item (9.4) go onto a suit in play."""
    suit = sb(state).suits.get(suit_id)
    if suit is None:
        raise RuleError(f"There is no Power Suit {suit_id} in play.")
    suit.batteries += batteries
    events.append(
        Note(text=f"{suit_name(suit)} takes {counted(batteries, 'Battery')}: {suit.batteries}.")
    )


# -- getting in and out ---------------------------------------------------------------------------


def _get_in(state: GalaxyState, agent: AgentState, suit: SuitState) -> None:
    assert agent.hex is not None
    suit.hex = None
    suit.pilot = agent.id
    agent.weapons.append(WeaponState(key=profile_of(suit).weapon, ammo=0))
    if agent.movement != "closed":
        agent.mp_left += profile_of(suit).move_bonus  # the bonus joins the Movement
    agent.action_used = True


def _get_out(state: GalaxyState, agent: AgentState, suit: SuitState) -> None:
    """The agent is no longer in the suit (the caller places the suit, or discards it)."""
    key = profile_of(suit).weapon
    agent.weapons = [ws for ws in agent.weapons if ws.key != key]
    suit.pilot = None
    agent.mp_left = max(0, agent.mp_left - profile_of(suit).move_bonus)


def _common_problem(state: GalaxyState, agent: AgentState) -> str | None:
    if sb_state_or_none(state) is None or agent.hex is None:
        return "has no Power Suit to use"
    if agent.drone_of is not None:
        return "cannot wear a Power Suit"
    if agent.action_used:
        return "has already used his Action this turn"
    if agent.bleeding:
        return "is Bleeding: his Action may only activate a power or item"
    if pose(state, agent) != "standing" and worn(state, agent.id) is None:
        return "must stand up first: a Power Suit is worn Standing"
    return None


def equip_path(state: GalaxyState, agent: AgentState, suit: SuitState) -> int | None:
    """Movement points to walk onto the suit's hex (None: out of reach)."""

    if suit.hex is None or agent.hex is None or move_problem(state, agent) is not None:
        return None
    target = hx(suit.hex)
    found = reach(state, agent, lambda h: h == target)
    return found.cost.get(target)


def equip_problem(state: GalaxyState, agent: AgentState, suit_id: str) -> str | None:
    problem = _common_problem(state, agent)
    if problem:
        return problem
    if worn(state, agent.id) is not None:
        return "already wears a Power Suit"
    suit = sb(state).suits.get(suit_id)
    if suit is None or suit.hex is None:
        return "must name an empty Power Suit on the battlefield (target:suit-1 ...)"
    if equip_path(state, agent, suit) is None:
        return f"cannot walk onto {label(hx(suit.hex))} with his Movement left"
    return None


def leave_problem(state: GalaxyState, agent: AgentState, to: str) -> str | None:
    problem = _common_problem(state, agent)
    if problem:
        return problem
    suit = worn(state, agent.id)
    if suit is None:
        return "wears no Power Suit"
    if suit.recalled:
        return "recalled his suit this round: he may leave it from the next Refresh on"
    if agent.id in sb(state).carrying:
        return "must put the seized agent down first"
    try:
        dest = hex_arg(to)
    except RuleError:
        return "must name the adjacent hex he steps out to (to:C4)"
    if dest not in _exits(state, agent):
        return "can step out only onto a free adjacent hex reached by a legal walking step"
    return None


def _exits(state: GalaxyState, agent: AgentState) -> list[Hex]:
    assert agent.hex is not None
    board, lock = board_of(state), locked(state)
    me = hx(agent.hex)
    return sorted(
        (n for n in neighbours(me) if board.step_ok(me, n, lock, "agent") and free(state, n)),
        key=lambda h: (h.r, h.q),
    )


def recall_problem(state: GalaxyState, agent: AgentState, suit_id: str) -> str | None:
    problem = _common_problem(state, agent)
    if problem:
        return problem
    if worn(state, agent.id) is not None:
        return "already wears a Power Suit"
    if not any(s.id == suit_id for s in sb(state).headquarters):
        return "must name a Power Suit waiting at Headquarters"
    if agent.id in sb(state).recall_refused:
        return "was refused a Recall by the Alpha Agent this turn"
    return None


def problem(state: GalaxyState, agent: AgentState, what: str, args: dict[str, str]) -> str | None:
    if what == EQUIP:
        return equip_problem(state, agent, args.get("target", "").lower())
    if what == LEAVE:
        return leave_problem(state, agent, args.get("to", ""))
    return recall_problem(state, agent, args.get("target", "").lower())


def do_action(
    state: GalaxyState,
    agent: AgentState,
    what: str,
    args: dict[str, str],
    dice: Dice,
    events: list[Event],
) -> None:
    found = problem(state, agent, what, args)
    if found:
        raise RuleError(f"{agent_name(agent)} {found}.")
    if what == EQUIP:
        equip(state, agent, args["target"].lower(), dice, events)
    elif what == LEAVE:
        leave(state, agent, hex_arg(args["to"]), dice, events)
    elif agent.id == state.alpha or not state.alpha:
        recall(state, agent, args["target"].lower(), events)
    else:
        state.pending = Pending(
            kind=RECALL_KIND,
            seat=state.alpha,
            options=[AGREE, REFUSE],
            data={"agent": agent.id, "suit": args["target"].lower()},
        )
        events.append(
            Note(
                text=f"{agent_name(agent)} asks to Recall a Power Suit: the Alpha Agent "
                "agrees or refuses."
            )
        )


def equip(
    state: GalaxyState, agent: AgentState, suit_id: str, dice: Dice, events: list[Event]
) -> None:
    """9.5.1: walk onto the suit's hex, then get in with the Action."""

    suit = sb(state).suits[suit_id]
    assert suit.hex is not None
    target = hx(suit.hex)
    do_move(state, agent, target, dice, events, can_stop=lambda h: h == target)
    if agent.hex != suit.hex or agent.dead:
        events.append(Note(text=f"{agent_name(agent)} does not reach the Power Suit."))
        return
    _get_in(state, agent, suit)
    events.append(
        Note(
            text=f"{agent_name(agent)} gets into the {suit_name(suit)}: +"
            f"{profile_of(suit).move_bonus} Movement ({agent.mp_left} MP left), "
            f"{suit.shields} shield, {suit.batteries} Batteries."
        )
    )


def leave(
    state: GalaxyState, agent: AgentState, dest: Hex, dice: Dice, events: list[Event]
) -> None:
    suit = worn(state, agent.id)
    assert suit is not None and agent.hex is not None
    start = agent.hex
    _get_out(state, agent, suit)
    suit.hex = start
    agent.hex = co(dest)
    agent.action_used = True
    if agent.movement == "open":
        agent.movement = "closed"  # a separate Action after moving ends the Movement
    events.append(
        Moved(
            figure=agent.id,
            path=[label(hx(start)), label(dest)],
            text=f"{agent_name(agent)} steps out of the {suit_name(suit)} to {label(dest)}; "
            f"the empty suit stays at {label(hx(start))}.",
        )
    )
    reveal_in_sight(state, dice, events)


def recall(state: GalaxyState, agent: AgentState, suit_id: str, events: list[Event]) -> None:
    """Missions 5 and 6: the Headquarters suit is teleported onto the agent, who is in it at
    once; he may leave it from the next Refresh on."""
    layer = sb(state)
    suit = next(s for s in layer.headquarters if s.id == suit_id)
    layer.headquarters.remove(suit)
    suit.shields = profile_of(suit).shields
    suit.recalled = True
    layer.suits[suit.id] = suit
    _get_in(state, agent, suit)  # like equipping, it does not interrupt the Movement
    events.append(
        Note(
            text=f"{agent_name(agent)} recalls the {suit_name(suit)} from Headquarters and "
            f"wears it ({suit.batteries} Batteries, {agent.mp_left} MP left)."
        )
    )


def finish_recall(state: GalaxyState, option: str, events: list[Event]) -> None:
    pending = state.pending
    assert pending is not None and pending.kind == RECALL_KIND
    state.pending = None
    agent = state.agents[str(pending.data["agent"])]
    if option == AGREE:
        events.append(Note(text="The Alpha Agent agrees to the Recall."))
        recall(state, agent, str(pending.data["suit"]), events)
    else:
        sb(state).recall_refused.append(agent.id)
        events.append(Note(text=f"The Alpha Agent refuses {agent_name(agent)} the Recall."))


def legal_actions(state: GalaxyState, agent: AgentState) -> list[Action]:
    if sb_state_or_none(state) is None or agent.hex is None or _common_problem(state, agent):
        return []
    out: list[Action] = []
    layer = sb(state)
    unit = agent.id
    if worn(state, unit) is None:
        for suit in layer.suits.values():
            if suit.hex is not None and equip_problem(state, agent, suit.id) is None:
                cost = equip_path(state, agent, suit)
                out.append(
                    Action(
                        verb="act",
                        args={"unit": unit, "what": EQUIP, "target": suit.id},
                        label=f"walk onto {label(hx(suit.hex))} ({cost} MP) and get into the "
                        f"{suit_name(suit)}",
                    )
                )
        for suit in layer.headquarters:
            if recall_problem(state, agent, suit.id) is None:
                out.append(
                    Action(
                        verb="act",
                        args={"unit": unit, "what": RECALL, "target": suit.id},
                        label=f"Recall the {suit_name(suit)} from Headquarters",
                    )
                )
    else:
        for h in _exits(state, agent):
            if leave_problem(state, agent, label(h)) is None:
                out.append(
                    Action(
                        verb="act",
                        args={"unit": unit, "what": LEAVE, "to": label(h)},
                        label=f"step out of the Power Suit to {label(h)}",
                    )
                )
    return out


def advice(state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
    """The advisor gets into a Power Suit whenever one is offered (Recall or the cheapest walk)."""
    if sb_state_or_none(state) is None or worn(state, agent.id) is not None:
        return None
    offered = [a for a in actions if a.verb == "act" and a.args.get("what") in (RECALL, EQUIP)]
    return offered[0] if offered else None


# -- the Refresh, turns and death ----------------------------------------------------------------


def refresh(state: GalaxyState, events: list[Event]) -> None:
    """6.1 "Power Suit energy": every suit on the battlefield pays one Battery (worn or not);
    one that cannot pay leaves play. Shields refill; a Recall's wait is over."""
    if sb_state_or_none(state) is None:
        return
    layer = sb_state(state)
    for suit in list(layer.suits.values()):
        if suit.batteries <= 0:
            _discard(state, suit, events, "has no Battery left to pay")
            continue
        suit.batteries -= 1
        suit.shields = profile_of(suit).shields
        suit.recalled = False
        events.append(Note(text=f"{suit_name(suit)} uses a Battery: {suit.batteries} left."))


def _discard(state: GalaxyState, suit: SuitState, events: list[Event], why: str) -> None:
    layer = sb(state)
    pilot = state.agents.get(suit.pilot) if suit.pilot is not None else None
    if pilot is not None:
        _get_out(state, pilot, suit)  # he stays on its hex, at no cost
    layer.suits.pop(suit.id, None)
    events.append(Note(text=f"{suit_name(suit)} {why} and goes back to the Warehouse."))


def on_death(state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
    """9.5.2.3: when the pilot dies, his suit is destroyed."""
    suit = worn(state, agent.id)
    if suit is not None:
        _discard(state, suit, events, "is destroyed with its pilot")
    if sb_state_or_none(state) is not None and agent.id in sb_state(state).carrying:
        put_down(state, agent, None, events)


def start_turn(state: GalaxyState, agent: AgentState) -> None:
    layer = sb(state)
    layer.seized_this_turn = []
    layer.recall_refused = []


def strip_suit_weapons(state: GalaxyState) -> None:
    """A new mission: suits stay behind, and so do their weapons."""

    for agent in state.agents.values():
        agent.weapons = [ws for ws in agent.weapons if not is_suit_weapon(ws.key)]


# -- Seize (7.3) as a Free Action -----------------------------------------------------------------


def _seize_targets(state: GalaxyState, agent: AgentState) -> list[AgentState]:
    assert agent.hex is not None
    out = []
    for other in state.agents.values():
        if other.id == agent.id or other.dead or other.hex is None or other.drone_of is not None:
            continue
        if worn(state, other.id) is not None or not adjacent(state, agent.hex, other.hex):
            continue
        marks = other.conditions + (["bleeding"] if other.bleeding else [])
        if can_seize(marks, 0, True) is None:
            out.append(other)
    return out


def seize_problem(state: GalaxyState, agent: AgentState, args: dict[str, str]) -> str | None:
    suit = worn(state, agent.id)
    if suit is None or not profile_of(suit).seize:
        return "has no Seize power (a Power Suit gives it)"
    if agent.id in sb(state).carrying:
        return "is already carrying an agent"
    if agent.id in sb(state).seized_this_turn:
        return "has already seized an agent this turn"
    moving = move_problem(state, agent)
    if moving:
        return f"seizes during his Movement, but he {moving}"
    target = args.get("target", "").lower()
    if target not in [a.id for a in _seize_targets(state, agent)]:
        return "can seize only an adjacent Immobilized, Paralyzed or Bleeding agent"
    return None


def seize(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    other = state.agents[args["target"].lower()]
    layer = sb(state)
    stand(state, other, events, "seized")
    other.hex = None  # carried along with the suit until the Movement ends
    layer.carrying[agent.id] = other.id
    layer.seized_this_turn.append(agent.id)
    events.append(
        Note(text=f"{agent_name(agent)} seizes {agent_name(other)} and carries him along.")
    )


def seize_offers(state: GalaxyState, agent: AgentState) -> list[tuple[dict[str, str], str]]:
    out = []
    for other in _seize_targets(state, agent):
        args = {"target": other.id}
        if seize_problem(state, agent, args) is None:
            out.append((args, f"seize {agent_name(other)} (Free Action)"))
    return out


def _drop_spots(state: GalaxyState, agent: AgentState) -> list[Hex]:
    assert agent.hex is not None
    me = hx(agent.hex)
    return sorted(
        (n for n in neighbours(me) if free(state, n) and adjacent(state, agent.hex, co(n))),
        key=lambda h: (h.r, h.q),
    )


def drop_problem(state: GalaxyState, agent: AgentState, args: dict[str, str]) -> str | None:
    if agent.id not in sb(state).carrying or agent.hex is None:
        return "is carrying no one"
    try:
        dest = hex_arg(args.get("to", ""))
    except RuleError:
        return "must name a free hex next to him (to:C4)"
    if dest not in _drop_spots(state, agent):
        return "can put the seized agent down only on a free hex next to him"
    return None


def drop(
    state: GalaxyState, agent: AgentState, args: dict[str, str], dice: Dice, events: list[Event]
) -> None:
    put_down(state, agent, hex_arg(args["to"]), events)

    reveal_in_sight(state, dice, events)


def drop_offers(state: GalaxyState, agent: AgentState) -> list[tuple[dict[str, str], str]]:
    if agent.id not in sb(state).carrying:
        return []
    other = state.agents[sb(state).carrying[agent.id]]
    return [
        ({"to": label(h)}, f"put {agent_name(other)} down at {label(h)} (Free Action)")
        for h in _drop_spots(state, agent)
    ]


def put_down(state: GalaxyState, agent: AgentState, at: Hex | None, events: list[Event]) -> None:
    """End the Seize: the seized agent goes on `at`, else next to the carrier (the first free
    neighbour in board order), else on the closest free hex."""

    layer = sb(state)
    other = state.agents[layer.carrying.pop(agent.id)]
    if at is None:
        board = board_of(state)
        centre = hx(agent.hex) if agent.hex is not None else None
        if centre is None:
            return
        at = drop_hex(
            centre,
            lambda h: sorted(
                (n for n in neighbours(h) if board.on_map(n)), key=lambda x: (x.r, x.q)
            ),
            lambda h: free(state, h) and h != centre,
        )
    other.hex = co(at)
    events.append(
        Moved(
            figure=other.id,
            path=[label(at)],
            text=f"{agent_name(agent)} puts {agent_name(other)} down at {label(at)}.",
        )
    )


def settle(state: GalaxyState, events: list[Event]) -> None:
    """After each step of an Agent turn: a Seize ends with the carrier's Movement."""
    if sb_state_or_none(state) is None or not sb_state(state).carrying:
        return
    current = state.turn_order[state.turn_index] if state.phase == "agent" else None
    for carrier_id in list(sb_state(state).carrying):
        carrier = state.agents[carrier_id]
        over = (
            carrier.id != current
            or carrier.movement == "closed"
            or (carrier.movement == "open" and carrier.mp_left <= 0)
        )
        if over:
            put_down(state, carrier, None, events)


def end_turn(state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
    if sb_state_or_none(state) is not None and agent.id in sb_state(state).carrying:
        put_down(state, agent, None, events)


register(FreeAction(key=SEIZE, offers=seize_offers, problem=seize_problem, apply=seize))
register(FreeAction(key=DROP, offers=drop_offers, problem=drop_problem, apply=drop))


def describe_suit(suit: SuitState) -> str:
    p = profile_of(suit)
    w = weapon(p.weapon)
    return (
        f"{p.name}: +{p.move_bonus} Move, shield {p.shields}, {w.name} "
        f"{w.dice} RED+{w.blue} BLUE, range {w.range}"
        + (", Seize" if p.seize else "")
        + (", Flying" if p.flying else "")
    )


# -- what the table sees -------------------------------------------------------------------------


def suit_tokens(state: GalaxyState) -> list[TokenView]:
    """An empty suit on the map: a `power-suit` token labelled with its number."""
    return [
        TokenView(coord=label(hx(s.hex)), kind="power-suit", label=f"P{s.id.rsplit('-', 1)[-1]}")
        for s in sb(state).suits.values()
        if s.hex is not None
    ]


def suit_badges(state: GalaxyState, figure: str) -> list[str]:
    """A pilot's badges: `power-suit:mk1`, `battery:N`, `suit-shield:N`, `seizing:<agent>`."""
    out: list[str] = []
    suit = worn(state, figure)
    if suit is not None:
        out += [f"power-suit:mk{suit.mark}", f"battery:{suit.batteries}"]
        if suit.shields:
            out.append(f"suit-shield:{suit.shields}")
    if sb_state_or_none(state) is not None and figure in sb_state(state).carrying:
        out.append(f"seizing:{sb_state(state).carrying[figure]}")
    return out


def suit_lines(state: GalaxyState, agent_id: str) -> list[str]:
    suit = worn(state, agent_id)
    if suit is None:
        return []
    p = profile_of(suit)
    return [
        f"in the {p.name}: {suit.batteries} Batteries, shield {suit.shields}/{p.shields}, "
        f"+{p.move_bonus} Movement" + (", Flying" if p.flying else "")
    ]


def suit_header(state: GalaxyState) -> str:
    """Every suit in play or at Headquarters, with its Batteries, named as players say it
    ("Power Suit Mark I worn by Chromium (Marine)"), never by its key."""
    parts = []
    for s in sb(state).suits.values():
        where = (
            f"at {label(hx(s.hex))}"
            if s.hex is not None
            else f"worn by {seat_label(state, s.pilot)}"
        )
        parts.append(f"{profile_of(s).name} {where}, {s.batteries} Batteries")
    for s in sb(state).headquarters:
        parts.append(f"{profile_of(s).name} at Headquarters, {s.batteries} Batteries")
    return "; ".join(parts)
