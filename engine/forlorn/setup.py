"""Setting up an operation (2.0 and the operations' own set-up lines)."""

from __future__ import annotations

from typing import Any

from engine.core.dice import Dice, pick, shuffle
from engine.core.errors import ContentError, NotSupportedYet
from engine.core.events import Event, Note
from engine.core.squaregrid import Square, neighbours
from engine.forlorn.board import DOOR, Board, door_id, label, load_board
from engine.forlorn.content import Scenario, XenoForce, cards, scenarios, units
from engine.forlorn.state import STANDING_ASK, ForlornState, Placement, ReactionRules, Unit
from engine.forlorn.world import attack_range

MARINE_SEATS = ("marines", "marines-2", "marines-3")
SUPPORTED = ("solo-a", "solo-b", "op-01", "op-02", "op-03", "op-04")
FOLDED = {"remove", "add", "heroic", "spawn_late_turn"}  # Difficulty fields that are no overrides


def scenario_data(key: str, difficulty: str) -> Scenario:
    """The operation with its Trainee or Veteran modifications folded in."""
    sc = scenarios()[key]
    if difficulty not in ("trainee", "veteran"):
        return sc
    mods = sc.trainee if difficulty == "trainee" else sc.veteran
    given = mods.model_fields_set
    changed: dict[str, Any] = {k: getattr(mods, k) for k in given - FOLDED}
    if mods.remove or mods.add:
        changed["marines"] = [m for m in sc.marines if m not in mods.remove] + mods.add
    if "heroic" in given:
        changed["heroic"] = sorted(set(sc.heroic) | set(mods.heroic))
    if mods.spawn_late_turn is not None:
        if sc.spawn_late is None:
            raise ContentError(f"{key}: spawn_late_turn without a late spawn")
        changed["spawn_late"] = sc.spawn_late.model_copy(update={"from_turn": mods.spawn_late_turn})
    return sc.model_copy(update=changed)


def sc_of(state: ForlornState) -> Scenario:
    """The operation of this game, its difficulty folded in."""
    return scenario_data(state.scenario, state.options.get("difficulty", "standard"))


def make_xeno_pool() -> list[Unit]:
    out: list[Unit] = []
    prefix = {"drone": "d", "warrior": "w", "blaster": "b", "hatchling": "h"}
    for kind, p in units().xenos.items():
        for i in range(1, p.pool + 1):
            uid = f"{prefix[kind]}{i}"
            out.append(
                Unit(id=uid, kind=kind, side="xenos", name=f"{p.name} {uid.upper()}", status="pool")
            )
    return out


def make_marine(uid: str, seat: str | None, heroic: bool) -> Unit:
    p = units().marines[uid]
    return Unit(id=uid, kind=uid, side="marines", name=p.name, seat=seat, heroic=heroic, facing="N")


def face_towards(board: Board, s: Square, goal: tuple[float, float]) -> str:
    dx, dy = goal[0] - s.x, goal[1] - s.y
    if abs(dy) >= abs(dx):
        return "S" if dy > 0 else "N"
    return "E" if dx > 0 else "W"


def free_squares(state: ForlornState, board: Board, exclude: set[Square]) -> list[Square]:
    taken = {u.at for u in state.active()}
    return [
        s
        for s in sorted(board.floor)
        if s not in exclude and board.vent_at(s) is None and label(s) not in taken
    ]


def new_state(scenario: str, seats: list[str], options: dict[str, str], dice: Dice) -> ForlornState:
    if scenario not in SUPPORTED:
        raise NotSupportedYet(f"scenario {scenario}")
    difficulty = options.get("difficulty", "standard")
    sc = scenario_data(scenario, difficulty)
    board = load_board(sc.map)
    xeno_human = "xeno" in seats and options.get("xeno", "human") == "human" and not sc.solo
    state = ForlornState(
        scenario=scenario,
        map=sc.map,
        options=dict(options),
        seats=list(seats),
        xeno_human=xeno_human,
        turns_total=int(sc.turns),
        grenades=int(sc.grenades),
    )
    marine_seats = [s for s in MARINE_SEATS if s in seats] or ["marines"]
    roster = list(sc.marines)
    trapped: dict[str, list[str]] = sc.trapped
    everyone = roster + [m for ms in trapped.values() for m in ms]
    heroic = set(sc.heroic)
    for i, uid in enumerate(everyone):
        seat = marine_seats[i % len(marine_seats)] if len(marine_seats) > 1 else None
        state.units.append(make_marine(uid, seat, uid in heroic))
    if "berns" in everyone:
        state.flame_supply = 5
    state.units += make_xeno_pool()
    # Equipment on the caches, in map order.
    for item, cache in zip(sc.equipment, board.caches, strict=False):
        state.floor_items.setdefault(label(cache), []).append(item)
    # Marines.
    centre = ((board.width - 1) / 2, (board.height - 1) / 2)
    if sc.setup == "around-A":
        a = board.letters["A"]
        ring = [
            Square(a.x + dx, a.y + dy)
            for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0), (1, -1), (1, 1), (-1, 1), (-1, -1))
        ]
        faces = ["N", "E", "S", "W", "N", "E", "S", "W"]
        for uid, s, f in zip(roster, ring, faces, strict=False):
            m = state.unit(uid)
            assert m is not None
            m.at, m.facing = label(s), f
    else:
        for uid, s in zip(roster, board.setup, strict=False):
            m = state.unit(uid)
            assert m is not None
            m.at, m.facing = label(s), face_towards(board, s, centre)
    for room, ids in trapped.items():
        door = next(
            k
            for k in board.doors()
            if any(s in board.rooms[room] for s in k) and not all(s in board.rooms[room] for s in k)
        )
        inside = next(s for s in door if s in board.rooms[room])
        state.sealed_doors.append(door_id(*door))
        spots = sorted(
            (s for s in board.rooms[room] if board.vent_at(s) is None),
            key=lambda s: (attack_range(s, inside), label(s)),
        )
        for uid, s in zip(ids, spots, strict=False):
            m = state.unit(uid)
            assert m is not None
            m.at, m.facing = label(s), face_towards(board, s, (inside.x, inside.y))
    if sc.carry_mcgfn:
        m = state.unit(sc.carry_mcgfn)
        assert m is not None
        m.items.append("mcgfn")
    if sc.mcgfn:
        state.floor_items.setdefault(label(board.letters[sc.mcgfn]), []).append("mcgfn")
        state.mcgfn_plugged = True
    # Blocked vents.
    state.blocked_vents = list(sc.sealed_vents)
    if sc.random_bot:
        roll = dice.roll()
        state.blocked_vents.append(roll)
    if sc.bot_on_vent:
        # The Marine player's choice during set-up (deploy: act what:bot to:<vent>); until
        # then the default: the vent nearest the set-up area.
        setup = board.setup
        vent = min(
            board.vents, key=lambda n: (min(attack_range(board.vents[n], s) for s in setup), n)
        )
        state.blocked_vents.append(vent)
        state.bot_vent = vent
    state.marine_reroll = state.xeno_reroll = bool(sc.rerolls)
    # The starting Xeno forces come after the Marines' set-up (2.0): `place_starting_forces`.
    state.phase = "deploy"
    # Mutation cards (2.0) for a human Xeno player.
    if xeno_human:
        deck = shuffle(dice, sorted(cards()))
        n = int(sc.cards)
        state.mutation.hand, state.mutation.draw_pile = deck[:n], deck[n:]
        state.phase = "mulligan"
        # Her standing reaction rules start from the table's `reactions` option: `standing`
        # asks her (in private) only after a Marine attacks or moves into sight of a Xeno,
        # where the Marine-phase cards fit; `on` after every Marine action.
        if options.get("reactions", "standing") == "standing":
            state.reaction_rules = ReactionRules(ask=list(STANDING_ASK))
    drop_eggs(state, board, int(sc.eggs), dice)
    return state


def egg_drop_squares(state: ForlornState, board: Board, corner: tuple[int, int]) -> list[Square]:
    """2.0: the squares an Egg counter landing on a grid corner touches (the two-by-two block
    round it) where it may be placed: station floor, not a vent, not a Marine set-up square,
    not already holding a unit."""
    x, y = corner
    taken = {u.at for u in state.active()}
    setup = set(board.setup)
    block = [Square(x + dx, y + dy) for dy in (-1, 0) for dx in (-1, 0)]
    return [
        s
        for s in block
        if s in board.floor
        and board.vent_at(s) is None
        and s not in setup
        and label(s) not in taken
    ]


def lay_egg(state: ForlornState, where: Square) -> Unit | None:
    """Turn a pool Egg/Hatchling counter Egg-side up on `where`."""
    spare = next((u for u in state.units if u.status == "pool" and u.kind == "hatchling"), None)
    if spare is None:
        return None
    spare.status, spare.at, spare.kind = "active", label(where), "egg"
    spare.name = f"Egg {spare.id.upper()}"
    return spare


def drop_eggs(state: ForlornState, board: Board, count: int, dice: Dice) -> None:
    """2.0: the Eggs are dropped onto the map. A hand cannot drop counters over a shared screen,
    so the dice do it: each counter lands on a random grid corner of the map's rectangle
    (outside squares included) and touches the two-by-two block of squares round it. The Xeno
    player puts it on one of the touched squares it may go on (a human Xeno seat is asked
    after the card swap, `zone="drop:..."`; the automatic Xenos pick one by dice); a counter
    that touches none fell off the map or cannot be placed, and is set aside."""
    for _ in range(count):
        corner = (dice.randrange(board.width + 1), dice.randrange(board.height + 1))
        spots = egg_drop_squares(state, board, corner)
        if not spots:
            continue
        if state.xeno_human and len(spots) > 1:
            zone = "drop:" + "+".join(label(s) for s in spots)
            state.placements.append(Placement(kind="egg", zone=zone))
            continue
        if lay_egg(state, spots[0] if len(spots) == 1 else pick(dice, spots)) is None:
            break


def place_starting_forces(state: ForlornState, dice: Dice) -> list[Event]:
    """2.0: after the Marines have set up, the Xenos take their starting squares (the
    operation's dice, such as Op 01's random vents, are rolled now); a human Xeno player's
    free choices wait in `state.placements`."""
    sc = sc_of(state)
    board = load_board(state.map)
    marine_squares = [
        Square(ord(m.at[0]) - 65, int(m.at[1:]) - 1) for m in state.active("marines") if m.at
    ]
    for force in sc.xeno_forces:
        _place_force(state, board, force, dice, set(board.setup), marine_squares)
    order = 0
    placed: list[str] = []
    for u in state.units:
        if u.status == "active" and u.side == "xenos":
            order += 1
            u.placed = order
            if u.kind != "egg":
                placed.append(f"{u.name} at {u.at}")
    if not placed:
        return []
    return [Note(text=f"The Xenos take their starting squares: {', '.join(placed)}.")]


def xeno_walkable(board: Board, start: Square) -> set[Square]:
    """The squares a Xeno could walk to from `start`: Xenos open normal doors (6.2) but never
    security doors or airlocks (1.6), so a guard placed behind a security door could never
    reach what it guards."""
    normal = frozenset(door_id(*k) for k, kind in board.edges.items() if kind == DOOR)
    seen, todo = {start}, [start]
    while todo:
        here = todo.pop()
        for n in neighbours(here):
            if n not in seen and board.vent_at(n) is None and board.passable(here, n, normal):
                seen.add(n)
                todo.append(n)
    return seen


def _place_force(
    state: ForlornState,
    board: Board,
    force: XenoForce,
    dice: Dice,
    setup: set[Square],
    marines: list[Square],
) -> None:
    kind, where = force.kind, force.where
    count = int(force.count)
    if state.xeno_human and (where.startswith("room:") or where == "far"):
        state.placements += [Placement(kind=kind, zone=where) for _ in range(count)]
        return
    pool = [u for u in state.units if u.status == "pool" and u.kind == kind]
    if where == "each-vent":
        spots = [v for n, v in sorted(board.vents.items()) if n not in state.blocked_vents]
    elif where.startswith("room:"):
        room = board.rooms[where[5:]]
        spots = [s for s in free_squares(state, board, setup) if s in room]
        spots = shuffle(dice, spots)[:count]
    elif where == "random-vent":
        spots = []
        free = [n for n in board.vents if n not in state.blocked_vents]
        for _ in range(count):
            roll = dice.roll()
            while roll not in free and free:
                roll = dice.roll()
            if roll in free:
                free.remove(roll)
                spots.append(board.vents[roll])
    elif where == "far":
        spots = [
            s
            for s in free_squares(state, board, setup)
            if all(attack_range(s, m) >= 4 for m in [*setup, *marines])
        ]
        if force.near is not None:  # the automatic Xenos' set-up guards this lettered square
            guarded = board.letters.get(force.near)
            if guarded is None:
                raise ContentError(f"{state.scenario}: map {state.map} has no square {force.near}")
            within = int(force.within)
            reach = xeno_walkable(board, guarded)
            spots = [s for s in spots if attack_range(s, guarded) <= within and s in reach]
        spots = shuffle(dice, spots)[:count]
    else:
        raise NotSupportedYet(f"xeno set-up location {where}")
    for unit, s in zip(pool, spots, strict=False):
        if any(u.at == label(s) for u in state.active()) and board.vent_at(s) is None:
            continue
        unit.status, unit.at = "active", label(s)
