"""NPCs (section 10): allies the game drives, each controlled by one player.

How they come into a core mission: rule 10.5 (option `npc-signals`) turns one Human Signal
into an NPC Signal; revealing it draws the top NPC card (4 cards, ours: two Knights, two
Archons), which goes to the player with the fewest NPCs clockwise from the Alpha Agent (10.1.2,
at most 5 in play) and gets one random NPC Tactic (10.3).

An NPC figure is kept among the agents like a battle drone (`drone_of` = its controller), so
aliens target it as an agent (11), it never counts for Events, cannot be healed, never jams
and dies at 0 HP without Bleeding (10.4). It is activated once in each of its controller's
turns (10.2): before his first activity with `/act what:npc target:<npc>`, otherwise by
itself when his turn ends. Its A.I. (first matching rule, closest range first, the last rule
needs only a legal path) picks its target; where the rules let the controlling player break a
tie between aliens, his standing order for that NPC does (`/orders order:<npc>-target-weakest
|nearest|strongest`; exact ties then go to the earliest arrival), and `<npc>-tactic-on` spends
its Tactic in the next activation.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path

from engine.core.content import ContentFile, ContentModel, load_file
from engine.core.dice import Dice, shuffle
from engine.core.errors import RuleError
from engine.core.events import Event, Moved, Note, Spawned
from engine.core.hexgrid import Hex, distance, neighbours
from engine.core.words import counted
from engine.galaxy import combat
from engine.galaxy.attack import resolve_defence
from engine.galaxy.board import label
from engine.galaxy.content import AgentProfile, AIRule, Weapon
from engine.galaxy.lifecycle import clockwise_from_alpha
from engine.galaxy.signals import reveal_in_sight
from engine.galaxy.state import AgentState, AlienState, GalaxyState, WeaponState
from engine.galaxy.strikeback import npcs
from engine.galaxy.strikeback.burrowing import exposed
from engine.galaxy.strikeback.status import NpcState, sb_state, sb_state_or_none
from engine.galaxy.world import (
    adjacent,
    agent_name,
    alien_name,
    area_distance,
    area_of,
    board_of,
    card,
    co,
    free,
    hx,
    locked,
    operative,
    reach_words,
    seat_label,
    sees,
    walk_distance,
)

CONTENT = Path(__file__).parent / "content" / "npcs.json"
OPTION = "npc-signals"
ORDERS = ("target-weakest", "target-nearest", "target-strongest", "tactic-on", "tactic-off")
ORDER_WORDS = {  # as players read a standing order
    "target-weakest": "aim at the weakest alien",
    "target-nearest": "aim at the nearest alien",
    "target-strongest": "aim at the strongest alien",
    "tactic-on": "use its NPC Tactic",
    "tactic-off": "keep its NPC Tactic",
}


class NpcCard(ContentModel):
    id: str
    name: str
    hp: int
    move: int
    energy: int
    armor: str | None
    ranged: str
    melee: str
    ai: list[AIRule]


class NpcTactic(ContentModel):
    key: str
    name: str
    text: str


class NpcsFile(ContentFile):
    weapons: list[Weapon]
    cards: list[NpcCard]
    tactics: list[NpcTactic]


@cache
def _load() -> tuple[dict[str, Weapon], dict[str, NpcCard], dict[str, NpcTactic]]:
    data = load_file(CONTENT, NpcsFile)
    weapons = {w.key: w for w in data.weapons}
    cards = {c.id: c for c in data.cards}
    tactics = {t.key: t for t in data.tactics}
    return weapons, cards, tactics


def cards() -> dict[str, NpcCard]:
    return _load()[1]


def tactics() -> dict[str, NpcTactic]:
    return _load()[2]


def npc_weapon(key: str) -> Weapon:
    return _load()[0][key]


def is_npc(figure: str) -> bool:
    return figure in cards()


def npc_profile(figure: str) -> AgentProfile:
    c = cards()[figure]
    return AgentProfile.model_validate(
        {
            "key": c.id,
            "codename": f"{c.name} {c.id.rsplit('-', 1)[-1]}",
            "class": "NPC",
            "hp": c.hp,
            "move": c.move,
            "armor": c.armor,
            "weapons": [c.ranged, c.melee],
            "ability": "drone",
            "elite": {"hp": c.hp, "move": c.move, "energy": c.energy},
        }
    )


def is_order(text: str) -> bool:
    """A standing order for an NPC: `<npc>-target-...` or `<npc>-tactic-...`."""
    return any(text.startswith(f"{figure}-") for figure in cards())


def enabled(state: GalaxyState) -> bool:
    return sb_state_or_none(state) is not None and state.options.get(OPTION) == "on"


# -- setup and arrival ----------------------------------------------------------------------


def begin_mission(state: GalaxyState, dice: Dice, order: list[str] | None = None) -> None:
    """10.5: one Human Signal of the reserve becomes an NPC Signal; the NPC deck and the
    Tactic tokens are shuffled; NPCs of an earlier mission leave."""
    sb = sb_state_or_none(state)
    assert sb is not None
    for figure in [f for f in state.agents if is_npc(f)]:
        del state.agents[figure]
    humans = [t for t in state.signal_reserve if t.startswith("human")]
    if humans and enabled(state):
        state.signal_reserve[state.signal_reserve.index(humans[0])] = "npc-1"
    # A mission may fix the deck (10.1.1: cards on top, others set aside); else all shuffled.
    sb.npc_deck = list(order) if order else shuffle(dice, list(cards()))
    sb.npc_discard = []
    sb.npc_tactics = shuffle(dice, list(tactics()))
    sb.npcs = {}


def sweep(state: GalaxyState) -> None:
    """Destroyed NPCs: the card goes to the NPC discard pile, an unused Tactic back to the
    pool (ours: the rules do not say)."""
    sb = sb_state_or_none(state)
    if sb is None:
        return
    for figure in [f for f in sb.npcs if f not in state.agents]:
        gone = sb.npcs.pop(figure)
        sb.npc_discard.append(figure)
        if gone.tactic is not None:
            sb.npc_tactics.append(gone.tactic)


def in_play(state: GalaxyState) -> list[AgentState]:
    sweep(state)
    if sb_state_or_none(state) is None:
        return []
    return [state.agents[f] for f in sb_state(state).npcs if f in state.agents]


def arrive_beside(state: GalaxyState, seat: str, dice: Dice, events: list[Event]) -> None:
    """A Special Event: the top NPC card goes to this player, its figure next to his agent
    (ours: the first free adjacent hex in board order)."""
    agent = state.agents[seat]
    if agent.hex is None:
        return
    spots = [
        n for n in neighbours(hx(agent.hex)) if free(state, n) and adjacent(state, agent.hex, co(n))
    ]
    if not spots:
        events.append(Note(text="No free hex next to the Alpha Agent: the NPC cannot arrive."))
        return
    arrive(state, min(spots, key=lambda h: (h.r, h.q)), dice, events, "Special Event", seat)


def arrive(
    state: GalaxyState,
    h: Hex,
    dice: Dice,
    events: list[Event],
    why: str,
    controller: str | None = None,
) -> None:
    """An NPC enters play at `h` (a revealed NPC Signal, or an event naming its player)."""

    sb = sb_state_or_none(state)
    assert sb is not None
    present = in_play(state)
    if not sb.npc_deck and sb.npc_discard:
        sb.npc_deck, sb.npc_discard = shuffle(dice, sb.npc_discard), []
    living = {a.id for a in operative(state)}
    table = [seat for seat in clockwise_from_alpha(state) if seat in living]
    held = {seat: sum(1 for n in sb.npcs.values() if n.controller == seat) for seat in table}
    seat = npcs.assign(table, held, len(present))
    if controller is not None and seat is not None:
        seat = controller
    if seat is None or not sb.npc_deck or not free(state, h):
        events.append(Note(text=f"{why}: no NPC can enter play now, the token is discarded."))
        return
    figure = sb.npc_deck.pop(0)
    c = cards()[figure]
    state.agents[figure] = AgentState(
        id=figure,
        hex=co(h),
        drone_of=seat,
        ready=True,
        elite=True,
        energy=c.energy,
        weapons=[WeaponState(key=c.ranged, ammo=0), WeaponState(key=c.melee, ammo=0)],
    )
    tactic = sb.npc_tactics.pop(0) if sb.npc_tactics else None
    sb.npcs[figure] = NpcState(controller=seat, tactic=tactic)
    name = agent_name(state.agents[figure])
    events.append(
        Spawned(
            figure=figure,
            at=label(h),
            text=f"{why}: {name} joins the team at {label(h)}, controlled by "
            f"{seat_label(state, seat)} "
            + ("(named by the event)" if controller else "(fewest NPCs, clockwise from the Alpha)")
            + (f"; NPC Tactic: {tactics()[tactic].name}" if tactic else "")
            + ".",
        )
    )


# -- orders and activation --------------------------------------------------------------------


def mine(state: GalaxyState, agent: AgentState) -> list[AgentState]:
    sb = sb_state_or_none(state)
    return [n for n in in_play(state) if sb is not None and sb.npcs[n.id].controller == agent.id]


def npc_orders(state: GalaxyState, agent: AgentState) -> list[str]:
    """Standing orders the controller may change now, for each of his NPCs."""
    out = []
    for npc in mine(state, agent):
        info = _info(state, npc)
        for order in ORDERS:
            if (order.startswith("target-") and order != f"target-{info.target}") or (
                info.tactic is not None
                and order == ("tactic-off" if info.use_tactic else "tactic-on")
            ):
                out.append(f"{npc.id}-{order}")
    return out


def do_order(state: GalaxyState, agent: AgentState, order: str, events: list[Event]) -> None:
    if order not in npc_orders(state, agent):
        raise RuleError(f"'{order}' is not a standing order you can give now.")
    npc = next(n for n in mine(state, agent) if order.startswith(n.id + "-"))
    info = _info(state, npc)
    what = order[len(npc.id) + 1 :]
    if what.startswith("target-"):
        info.target = what[len("target-") :]
    else:
        info.use_tactic = what == "tactic-on"
    events.append(Note(text=f"{agent_name(npc)}: standing order, {ORDER_WORDS[what]}."))


def order_label(state: GalaxyState, order: str) -> str:
    """A standing order (`<npc>-target-weakest`) in words: "Archon 1 (NPC): aim at the weakest
    alien"."""
    what = next((o for o in ORDERS if order.endswith(f"-{o}")), "")
    npc = state.agents.get(order[: len(order) - len(what) - 1])
    who = agent_name(npc) if npc is not None else "NPC"
    return f"{who}: {ORDER_WORDS.get(what, what)}"


def begun(agent: AgentState) -> bool:
    """Has he used an activity this turn? A Bleeding agent's forfeited Combat and an
    Immobilized agent's lost Movement are not activities he used."""
    moved = agent.movement != "unused" and "immobilize" not in agent.conditions
    fought = agent.combat_used and not agent.bleeding
    return moved or fought or agent.action_used


def activation_problem(state: GalaxyState, agent: AgentState, figure: str) -> str | None:
    npc = next((n for n in mine(state, agent) if n.id == figure), None)
    if npc is None:
        return f"controls no NPC called {figure!r}"
    if _info(state, npc).activated:
        return f"has already activated {agent_name(npc)} this turn"
    if begun(agent):
        return (
            "may activate an NPC only before his first activity; it acts by itself when his "
            "turn ends"
        )
    return None


def activate_now(
    state: GalaxyState, agent: AgentState, figure: str, dice: Dice, events: list[Event]
) -> None:
    problem = activation_problem(state, agent, figure)
    if problem:
        raise RuleError(f"{agent_name(agent)} {problem}.")
    activate(state, state.agents[figure], dice, events)


def end_of_turn(state: GalaxyState, agent: AgentState, dice: Dice, events: list[Event]) -> None:
    """The controller's turn ends: NPCs not yet activated act now; all are ready again."""
    if sb_state_or_none(state) is None:
        return
    for npc in mine(state, agent):
        if not _info(state, npc).activated and npc.id in state.agents:
            activate(state, npc, dice, events)
    for npc in mine(state, agent):
        _info(state, npc).activated = False


def _info(state: GalaxyState, npc: AgentState) -> NpcState:
    assert sb_state_or_none(state) is not None
    return sb_state(state).npcs[npc.id]


def activate(state: GalaxyState, npc: AgentState, dice: Dice, events: list[Event]) -> None:
    """One NPC activation: the first A.I. rule that applies, its steps in order."""
    info = _info(state, npc)
    info.activated = True
    name = agent_name(npc)
    if "paralyze" in npc.conditions:
        events.append(Note(text=f"{name} is Paralyzed and skips its activation."))
        return
    boost = {"dice": 0, "areas": 0, "again": 0, "stun": 0}
    if info.use_tactic and info.tactic is not None:
        events.append(Note(text=f"{name} uses its NPC Tactic {tactics()[info.tactic].name}."))
        boost = _tactic(npc, info.tactic, events)
        info.tactic, info.use_tactic = None, False
    c = cards()[npc.id]
    for rule in c.ai:
        targets = [a for a in state.aliens if exposed(state, a) and _fits(state, npc, a, rule)]
        if targets:
            target = _pick(state, npc, targets, info.target)
            events.append(
                Note(
                    text=f"{name} acts on its A.I. rule ({reach_words(rule.when)}) against "
                    f"{alien_name(target)}."
                )
            )
            for step in rule.do:
                if target not in state.aliens or npc.id not in state.agents:
                    break
                _step(state, npc, target, step, boost, dice, events)
            return
    events.append(Note(text=f"{name} finds no alien it can reach and holds its position."))


def _tactic(npc: AgentState, key: str, events: list[Event]) -> dict[str, int]:
    boost = {"dice": 0, "areas": 0, "again": 0, "stun": 0}
    if key == "second-strike":
        boost["again"] = 1
    elif key == "overcharge":
        boost["dice"] = 2
    elif key == "sprint":
        boost["areas"] = 1
    elif key == "suppressing-burst":
        boost["stun"] = 1
    elif key == "field-patch":
        healed = min(2, npc.wounds)
        npc.wounds -= healed
        events.append(Note(text=f"{agent_name(npc)} patches {counted(healed, 'Wound')}."))
    return boost


def _fits(state: GalaxyState, npc: AgentState, alien: AlienState, rule: AIRule) -> bool:
    assert npc.hex is not None
    if rule.when == "adjacent":
        return adjacent(state, npc.hex, alien.hex)
    if walk_distance(state, npc.hex, alien.hex) is None:
        return False
    if rule.when == "any":
        return True
    return sees(state, npc.hex, alien.hex) and area_distance(state, npc.hex, alien.hex) <= int(
        rule.when
    )


def _pick(state: GalaxyState, npc: AgentState, aliens: list[AlienState], order: str) -> AlienState:
    assert npc.hex is not None
    here = npc.hex

    def left(a: AlienState) -> int:
        return card(a).hp - a.wounds

    def near(a: AlienState) -> tuple[int, int]:
        walk = walk_distance(state, here, a.hex)
        return (99 if walk is None else walk, distance(hx(here), hx(a.hex)))

    def arrival(a: AlienState) -> int:
        return int(a.id[1:])

    if order == "nearest":
        return min(aliens, key=lambda a: (*near(a), left(a), arrival(a)))
    if order == "strongest":
        return min(aliens, key=lambda a: (-left(a), *near(a), arrival(a)))
    return min(aliens, key=lambda a: (-a.wounds, left(a), *near(a), arrival(a)))


def _step(
    state: GalaxyState,
    npc: AgentState,
    target: AlienState,
    step: str,
    boost: dict[str, int],
    dice: Dice,
    events: list[Event],
) -> None:
    word, _, n = step.partition(" ")
    if word in ("melee", "ranged"):
        for _ in range(1 + boost["again"]):
            if target in state.aliens:
                _attack(state, npc, target, word, boost, dice, events)
        return
    if "immobilize" in npc.conditions:
        events.append(Note(text=f"{agent_name(npc)} is Immobilized and cannot move."))
        return
    areas = int(n or 1) + boost["areas"]
    if word == "away":
        _move_away(state, npc, target, areas, dice, events)
    else:
        _move_toward(state, npc, target, areas, dice, events)


def _attack(
    state: GalaxyState,
    npc: AgentState,
    target: AlienState,
    kind: str,
    boost: dict[str, int],
    dice: Dice,
    events: list[Event],
) -> None:
    assert npc.hex is not None
    c = cards()[npc.id]
    w = npc_weapon(c.melee if kind == "melee" else c.ranged)
    name = agent_name(npc)
    if kind == "melee" and not adjacent(state, npc.hex, target.hex):
        events.append(Note(text=f"{name} is not next to {alien_name(target)}: no melee."))
        return
    if kind == "ranged" and (
        not sees(state, npc.hex, target.hex) or area_distance(state, npc.hex, target.hex) > w.range
    ):
        events.append(Note(text=f"{name} has no shot at {alien_name(target)}."))
        return
    roll = combat.hit_roll(dice, w.color, w.dice + boost["dice"])
    hits = roll.hits + (1 if roll.bolt and w.bolt == "hit+1" else 0)
    def_minus = 1 if roll.bolt and w.bolt == "def-1" else 0
    condition = "immobilize" if boost["stun"] else ""
    if roll.bolt and w.bolt in ("immobilize", "paralyze"):
        condition = w.bolt
    events.append(
        Note(
            text=f"{name} attacks {alien_name(target)} with the {w.name}: "
            f"{combat.roll_text(w.color, roll.faces)} - {counted(hits, 'Hit')} "
            "(NPCs ignore Jam and Ammo)."
        )
    )
    resolve_defence(state, npc, [target.id], hits, def_minus, kind, condition, dice, events, w.name)


def _land(state: GalaxyState, npc: AgentState, area: str, target: AlienState | None) -> Hex | None:
    """Where the NPC stops in an Area: next to its target if it can, engaging as many aliens
    as possible, else nearest the centre (board order last)."""
    board = board_of(state)
    assert npc.hex is not None
    own = hx(npc.hex)
    options = [h for h in board.area_hexes(area) if h == own or free(state, h)]
    if not options:
        return None
    centre = board.centres[area]

    def key(h: Hex) -> tuple[int, int, int, int, int]:
        on_target = target is not None and adjacent(state, co(h), target.hex)
        engaged = sum(1 for a in state.aliens if adjacent(state, co(h), a.hex))
        return (not on_target, -engaged, distance(h, centre), h.r, h.q)

    return min(options, key=key)


def _move_toward(
    state: GalaxyState,
    npc: AgentState,
    target: AlienState,
    areas: int,
    dice: Dice,
    events: list[Event],
) -> None:
    assert npc.hex is not None
    graph = board_of(state).walk_graph(locked(state))
    path = graph.shortest_path(area_of(state, npc.hex), area_of(state, target.hex))
    if path is None:
        return
    steps = path[: areas + 1]
    while steps:
        spot = _land(state, npc, steps[-1], target)
        if spot is not None:
            _relocate(state, npc, spot, dice, events, f"toward {alien_name(target)}")
            return
        steps = steps[:-1]


def _move_away(
    state: GalaxyState,
    npc: AgentState,
    target: AlienState,
    areas: int,
    dice: Dice,
    events: list[Event],
) -> None:
    assert npc.hex is not None
    board = board_of(state)
    graph = board.walk_graph(locked(state))
    far = board.sight_graph().distances(area_of(state, target.hex))
    here = area_of(state, npc.hex)
    for _ in range(areas):
        options = sorted(graph.adjacent(here), key=lambda a: (-far.get(a, 0), a))
        if not options or far.get(options[0], 0) <= far.get(here, 0):
            break
        here = options[0]
    spot = _land(state, npc, here, None)
    if spot is not None:
        _relocate(state, npc, spot, dice, events, f"away from {alien_name(target)}")


def _relocate(
    state: GalaxyState, npc: AgentState, dest: Hex, dice: Dice, events: list[Event], why: str
) -> None:
    assert npc.hex is not None
    start = hx(npc.hex)
    if dest == start:
        return
    npc.hex = co(dest)
    events.append(
        Moved(
            figure=npc.id,
            path=[label(start), label(dest)],
            text=f"{agent_name(npc)} moves {label(start)} -> {label(dest)} ({why}).",
        )
    )
    reveal_in_sight(state, dice, events)
