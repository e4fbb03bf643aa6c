"""A purposeful, deterministic advisor for Forlorn: Hope (self-play `--policy advisor`, and
the table's autopilot through `ForlornGame.autopilot`).

It only ever returns one of the legal actions it is given, and reads only what the seat may
see: the Marine advice never looks at the Xeno hand, draw pile or set-aside cards; the Xeno
advice reads its own hand.

Marines, one decision at a time:
- take the operation's step where it stands (exit with the MCGFN or through the goal airlock,
  unplug and pick up the MCGFN, feed it on C, cut a seal, send the Maintenance Bot to the vent
  nearest the Marines);
- shoot when a Xeno is a threat and the attack kills it often enough (expected kills from the
  dice and Defence Value; flame and grenade blasts count every unit they reach and never burn a
  Marine); a grappled Marine fights;
- otherwise walk the Marine that carries the goal (and its escort) towards the goal square by
  the shortest door-aware route, opening the door on the way (Op 01: the MCGFN goes to the
  airlock the whole squad reaches soonest, back to its cover; Solo B: the nearest free Marine
  per sealed door cuts it, the others walk to airlock C, the Marine whose exit pays most VP
  for its APs first, and seals are cut before anyone leaves; Op 03: the Marine nearest a
  dropped MCGFN fetches it, the others gather in C's room but leave C to the carrier);
- a grenade must beat the best shot by what a grenade kept in hand is worth (0.7 expected
  kills, the last one 1.2);
- Solo B pays VP for Warriors, Blasters and Eggs slain: those kills count twice in the odds,
  Eggs are worth a shot there, and a grenade is kept back less;
- clear-rooms (Op 02): before any shot, for each room that still holds a Xeno one Marine walks
  to its security door, opens it when the pool pays for the run back and runs out of the
  doorway towards the squad, so the room's Xenos come out (the room is then clear; they cannot
  open a security door to get back in); with only Eggs left it goes in after them;
- leftover APs: every Marine keeps a standing interrupt order, then the seat ends the phase.

Xenos: a Drone or Warrior walks to the free square next to the nearest Marine it can reach and
attacks; Blasters shoot when they see one; corpses burst into Hatchlings; cards are played in
the Xeno phase when they help (frenzy on a far Xeno, swarm and drain at once, shield on the
Xeno closest to a Marine); in a reaction window a shield card answers an attack, else pass;
placements and spawn choices take the nearest-vent policy, a re-roll on a minimum and the
Blaster swap.
"""

from __future__ import annotations

import heapq
from functools import lru_cache
from math import comb

from engine.core.game import Action
from engine.core.squaregrid import Facing, Square, in_front_arc, neighbours
from engine.forlorn.board import DOOR, Board, clear_line, door_id, label, parse_label
from engine.forlorn.combat import blast_squares
from engine.forlorn.content import cards, scenarios
from engine.forlorn.state import ForlornState, Unit
from engine.forlorn.turn import VP_EXIT
from engine.forlorn.world import attack_range, board_of, in_arc, marine_profile, max_hits, sq

THREAT = 9  # a Xeno this close (range) to a Marine is worth shooting at


# --- distances on the board -------------------------------------------------------------------


@lru_cache(maxsize=512)
def distances(board_name: str, goals: frozenset[Square]) -> dict[Square, int]:
    """MP-like distance to the nearest goal square (doors count as passable, +1 to open)."""
    board = board_of_name(board_name)
    dist: dict[Square, int] = {g: 0 for g in goals if g in board.floor}
    heap = [(0, g.x, g.y) for g in dist]
    heapq.heapify(heap)
    vents = set(board.vents.values())
    while heap:
        d, x, y = heapq.heappop(heap)
        here = Square(x, y)
        if d > dist.get(here, 1 << 30):
            continue
        for there in neighbours(here):
            if there not in board.floor or there in vents:
                continue
            rule = board.step_rule(there, here)
            if rule is False:
                continue
            step = (2 if there.x != here.x and there.y != here.y else 1) + (
                0 if rule is True else 1
            )
            if d + step < dist.get(there, 1 << 30):
                dist[there] = d + step
                heapq.heappush(heap, (d + step, there.x, there.y))
    return dist


_BOARDS: dict[str, Board] = {}
_LOCKS: dict[str, set[Square]] = {}


def airlock_squares(board: Board) -> set[Square]:
    """Floor squares next to an airlock (computed once per board)."""
    if board.name not in _LOCKS:
        _LOCKS[board.name] = {s for key in board.airlocks_of_all() for s in key if s in board.floor}
    return _LOCKS[board.name]


def board_of_name(name: str) -> Board:
    return _BOARDS[name]


def dist_to(state: ForlornState, goals: set[Square]) -> dict[Square, int]:
    board = board_of(state)
    _BOARDS[board.name] = board
    return distances(board.name, frozenset(goals))


# --- odds -------------------------------------------------------------------------------------


def p_at_least(n: int, p: float, k: int) -> float:
    """Chance of at least `k` successes in `n` tries of chance `p`."""
    if k <= 0:
        return 1.0
    return sum(comb(n, i) * p**i * (1 - p) ** (n - i) for i in range(k, n + 1))


def shot_value(state: ForlornState, marine: Unit, target: Unit, spin: bool) -> float:
    """Expected kills of a shot (an Egg needs two hits in one attack)."""
    attack = 1 if marine.kind == "berns" else marine_profile(marine)[1]
    n = attack - (1 if spin else 0)
    dv = attack_range(sq(marine.at), sq(target.at)) + (1 if spin else 0)
    p = max(0, 6 - dv) / 6
    need = 2 if target.kind == "egg" else max_hits(target) - target.hits
    return p_at_least(n, p, need) * vp_weight(state, target)


def flame_value(state: ForlornState, chain: list[Square]) -> float:
    value = 0.0
    for s in chain:
        for u in state.at(label(s)):
            if u.side == "marines":
                return -1.0
            value += (1.0 if u.kind == "egg" else (5 / 6) / (max_hits(u) - u.hits)) * vp_weight(
                state, u
            )
    return value


def grenade_value(state: ForlornState, centre: Square) -> float:
    value = 0.0
    for s, need in blast_squares(state, centre):
        for u in state.at(label(s)):
            if u.side == "marines":
                return -1.0
            if u.kind == "egg":
                value += 1.0 * vp_weight(state, u)
                continue
            p = (7 - need) / 6
            value += p_at_least(2, p, max_hits(u) - u.hits) * vp_weight(state, u)
    return value


def vp_weight(state: ForlornState, u: Unit) -> float:
    """Solo B pays a VP for each Warrior, Blaster and Egg slain: such a kill counts twice.
    Clear-rooms: an Egg in a goal room counts twice too (it never walks out by itself)."""
    if state.scenario == "solo-b" and u.kind in ("warrior", "blaster", "egg"):
        return 2.0
    if u.kind == "egg" and u.at and scenarios()[state.scenario].goal.kind == "clear-rooms":
        return 2.0 if board_of(state).room_of(sq(u.at)) in busy_rooms(state) else 1.0
    return 1.0


# --- the Marine seats -------------------------------------------------------------------------


def marine_goal(state: ForlornState, marine: Unit) -> set[Square]:
    """Where this Marine should be heading for the operation's goal (empty: hold)."""
    board = board_of(state)
    sc = scenarios()[state.scenario]
    kind = sc.goal.kind
    if kind == "mcgfn-exit":
        locks = airlock_squares(board)
        if "mcgfn" in marine.items or any("mcgfn" in m.items for m in state.active("marines")):
            return _rally_airlock(state)
        spots = _dropped_mcgfn(state)
        return spots or locks
    if kind == "exit":
        edge = board.airlock_names[sc.goal.airlock]
        return {s for s in edge if s in board.floor}
    if kind == "mcgfn-activate":
        return _activation_goal(state, marine)
    if kind == "clear-rooms":
        # The opener of a room heads for its door (see `_siege`); the squad holds.
        for plan in _siege_plans(state):
            if marine.id == plan.opener and plan.door not in state.open_doors:
                return {plan.outside}
        return set()
    if state.scenario == "solo-a":
        a = board.letters["A"]
        return {a, *(n for n in neighbours(a) if n in board.floor)}
    if state.scenario == "solo-b":
        cutter = _seal_cutters(state).get(marine.id)
        if cutter is not None:
            return _door_squares(board, cutter)
        return {s for s in board.airlock_names["C"] if s in board.floor}
    return set()


def _activation_goal(state: ForlornState, marine: Unit) -> set[Square]:
    """Op 03: the carrier heads for C; when the MCGFN lies on the floor the Marine nearest to
    it fetches it; everybody else gathers in C's room around C, leaving C itself free for the
    carrier (a Marine standing on C without the MCGFN would block the goal)."""
    board = board_of(state)
    c = board.letters[scenarios()[state.scenario].goal.square]
    if "mcgfn" in marine.items:
        return {c}
    spots = _dropped_mcgfn(state)
    if spots and _fetcher(state, spots) == marine.id:
        return spots
    room = board.room_of(c)
    around = set(board.rooms.get(room, set())) if room else set()
    return (around or {n for n in neighbours(c) if n in board.floor}) - {c}


def _dropped_mcgfn(state: ForlornState) -> set[Square]:
    """The square the MCGFN lies on, when nobody carries it (empty otherwise)."""
    return {sq(at) for at, items in state.floor_items.items() if "mcgfn" in items}


def _fetcher(state: ForlornState, spots: set[Square]) -> str | None:
    """The free Marine with the shortest walk to the dropped MCGFN."""
    dist = dist_to(state, spots)
    marines = [m for m in state.active("marines") if m.at]
    best = min(marines, key=lambda m: (dist.get(sq(m.at), 1 << 20), m.id), default=None)
    return best.id if best else None


def _sealed_in(state: ForlornState, marine: Unit) -> bool:
    """Solo B: the Marine stands in a room whose door is still sealed."""
    board = board_of(state)
    room = board.room_of(sq(marine.at))
    return room in ("A", "B") and any(
        _door_room(board, name) == room for name in state.sealed_doors
    )


def _door_room(board: Board, name: str) -> str | None:
    for key in board.doors():
        if door_id(*key) == name:
            return next((board.room_of(s) for s in key if board.room_of(s) in ("A", "B")), None)
    return None


def _seal_cutters(state: ForlornState) -> dict[str, str]:
    """Solo B: for each sealed door the nearest free Marine (by walking distance to the
    door's outside square) goes to cut it; every other free Marine heads for airlock C."""
    board = board_of(state)
    free = [m for m in state.active("marines") if m.at and not _sealed_in(state, m)]
    out: dict[str, str] = {}
    for name in sorted(state.sealed_doors):
        dist = dist_to(state, _door_squares(board, name))
        left = [m for m in free if m.id not in out]
        if left:
            best = min(left, key=lambda m: (dist.get(sq(m.at), 1 << 20), m.id))
            out[best.id] = name
    return out


def _rally_airlock(state: ForlornState) -> set[Square]:
    """Op 01: the airlock the carrier takes is the one it and the rest of the squad reach
    soonest together (its own walk counted double), so it runs home to its cover rather than
    alone to the nearest door."""
    board = board_of(state)
    marines = [m for m in state.active("marines") if m.at]
    best: tuple[float, list[Square]] | None = None
    for key in sorted(board.airlocks_of_all()):
        squares = [s for s in key if s in board.floor]
        dist = dist_to(state, set(squares))
        cost = sum(
            dist.get(sq(m.at), 99) * (2 if "mcgfn" in m.items else 1) for m in marines
        ) / max(1, len(marines))
        if best is None or cost < best[0]:
            best = (cost, squares)
    return set(best[1]) if best else airlock_squares(board)


def busy_rooms(state: ForlornState) -> list[str]:
    """The goal rooms of a clear-rooms operation that still hold a Xeno."""
    board = board_of(state)
    rooms: list[str] = scenarios()[state.scenario].goal.rooms
    return [
        r
        for r in rooms
        if any(x.at and board.room_of(sq(x.at)) == r for x in state.active("xenos"))
    ]


def _room_doors(state: ForlornState, marine: Unit, mine: list[Action]) -> Action | None:
    """Clear-rooms: open a door into a room with Xenos; shut one into a cleared room."""
    board = board_of(state)
    if scenarios()[state.scenario].goal.kind != "clear-rooms":
        return None
    busy = busy_rooms(state)
    inside = {board.room_of(sq(m.at)) for m in state.active("marines") if m.at}
    for a in mine:
        other = parse_label(a.args.get("to", ""))
        room = board.room_of(other) if other is not None else None
        if room not in scenarios()[state.scenario].goal.rooms:
            continue
        # Opening a busy room's door is the siege's decision (`_siege`), not any passer-by's.
        if a.args.get("what") == "close" and room not in busy and room not in inside:
            return a
    return None


# --- clear-rooms: the siege of a room ---------------------------------------------------------

LINE_RANGE = (2, 4)  # where an opener runs back to: this far from the door's outside square


class SiegePlan:
    """A room to clear: its door, the Marine who opens it and where the others stand."""

    def __init__(
        self, room: str, door: str, outside: Square, inside: Square, line: list[Square], opener: str
    ) -> None:
        self.room, self.door, self.outside, self.inside = room, door, outside, inside
        self.line, self.opener = line, opener


def _room_door_keys(board: Board, room: str) -> list[tuple[str, Square, Square]]:
    """(door name, outside square, inside square) of each door into `room`."""
    out = []
    for key in board.doors():
        inside = [s for s in key if s in board.rooms[room]]
        if len(inside) == 1:
            outside = key[1] if key[0] == inside[0] else key[0]
            out.append((door_id(*key), outside, inside[0]))
    return out


def _line_squares(state: ForlornState, outside: Square) -> list[Square]:
    """Squares at range 2-4 of a door's outside square that see it (normal doors counted
    open: the squad opens them on its way), outside the goal rooms and off the vents, best
    first: nearest the squad's set-up area (its back to the base), then nearer the door."""
    board = board_of(state)
    rooms = scenarios()[state.scenario].goal.rooms
    doors = frozenset(door_id(*k) for k, v in board.edges.items() if v == DOOR)
    home = dist_to(state, set(board.setup))
    out = []
    for s in board.floor:
        r = attack_range(s, outside)
        if not LINE_RANGE[0] <= r <= LINE_RANGE[1] or s in neighbours(outside):
            continue
        if board.room_of(s) in rooms or board.vent_at(s) is not None:
            continue
        if not clear_line(board, s, outside, doors):
            continue
        out.append(s)
    return sorted(out, key=lambda s: (home.get(s, 99), attack_range(s, outside), label(s)))


OFFICERS = ("krauss", "lt", "berns", "zac")  # not openers: Leadership, heavy weapons


def _siege_plans(state: ForlornState) -> list[SiegePlan]:
    """One plan per busy goal room, the room whose door the squad reaches soonest first; each
    gets its own opener, the Marine nearest its door among the Privates and Sgt. Fox (his
    Defence 3 outlives the room's Warrior more often; the LT's Leadership and the heavy
    weapons are worth more), while there are Marines to spare."""
    board = board_of(state)
    marines = [m for m in state.active("marines") if m.at]
    rooms: list[tuple[int, str, tuple[str, Square, Square]]] = []
    for room in busy_rooms(state):
        for door in _room_door_keys(board, room):
            dist = dist_to(state, {door[1]})
            cost = sum(dist.get(sq(m.at), 99) for m in marines)
            rooms.append((cost, room, door))
    rooms.sort(key=lambda r: r[:2])
    plans: list[SiegePlan] = []
    taken: set[str] = set()
    seen: set[str] = set()
    for _, room, (name, outside, inside) in rooms:
        if room in seen:
            continue
        seen.add(room)
        dist = dist_to(state, {outside})
        free = [m for m in marines if m.id not in taken]
        if not free:
            break
        opener = min(
            free,
            key=lambda m: (m.kind in OFFICERS, dist.get(sq(m.at), 99), m.id),
        )
        taken.add(opener.id)
        plans.append(
            SiegePlan(room, name, outside, inside, _line_squares(state, outside), opener.id)
        )
    return plans


def _siege_plan(state: ForlornState) -> SiegePlan | None:
    plans = _siege_plans(state)
    return plans[0] if plans else None


def _siege(state: ForlornState, mine: list[Unit], actions: list[Action]) -> Action | None:
    """Clear-rooms: a room is clear as soon as its Xenos have left it, and they cannot open
    a security door. So for each busy room a Private walks to the door, opens it and runs
    back out of the doorway: the room's Xenos must come out after the squad (into its
    standing orders) instead of the squad going in one by one and the room's Warrior killing
    each Marine at the doorway from inside. Both rooms at once when the pool pays for it."""
    board = board_of(state)
    for plan in _siege_plans(state):
        opener = state.unit(plan.opener)
        if opener is None or opener not in mine:
            continue
        acts = _unit_actions(actions, opener.id)
        here = sq(opener.at)
        inside = [x for x in state.active("xenos") if x.at and board.room_of(sq(x.at)) == plan.room]
        mobile = [x for x in inside if x.kind != "egg"]
        if plan.door in state.open_doors:
            if mobile and _in_doorway(plan, here):
                step = _retreat(state, plan, acts)
                if step is not None:
                    return step
            if not mobile:
                # Only Eggs left: go in after them (nothing in there fights back).
                step = _walk(state, opener, acts, _egg_posts(state, inside))
                if step is not None and state.ap > 0:
                    return step
            continue
        walk = dist_to(state, {plan.outside}).get(here, 99)
        mp = marine_profile(opener)[0]
        carried = state.mp_left if state.mover == opener.id else 0
        # Open, then run back (Xenos inside) or go in and shoot (only Eggs left).
        cost = (0 if walk <= carried else -(-(walk - carried) // mp)) + 2
        if state.ap < cost:
            continue
        for a in acts:
            if a.args.get("what") == "open" and a.args.get("to") == label(plan.inside):
                return a
        step = _door_on_the_way(state, acts, plan.outside, here) or _walk(
            state, opener, acts, {plan.outside}
        )
        if step is not None:
            return step
    return None


def _door_on_the_way(
    state: ForlornState, acts: list[Action], goal: Square, here: Square
) -> Action | None:
    """A closed normal door next to the Marine that its shortest route goes through (1 MP)
    rather than a walk round it: open it first. It also stays open for the run back."""
    dist = dist_to(state, {goal})
    for a in acts:
        other = parse_label(a.args.get("to", "")) if a.args.get("what") == "open" else None
        if (
            other is not None
            and dist.get(other, 99) < dist.get(here, 99)
            and board_of(state).edge(here, other) == DOOR
        ):
            return a
    return None


def _retreat(state: ForlornState, plan: SiegePlan, acts: list[Action]) -> Action | None:
    """The opener's run back: the free line square nearest the squad's set-up area that one
    move reaches (never through flames), so the room's Xenos follow it towards the squad."""
    moves = {
        a.args["to"]: a
        for a in acts
        if a.verb == "move"
        and "through flames" not in (a.label or "")
        and a.args["to"] not in state.flames
    }
    opener = state.unit(plan.opener)
    for s in plan.line:  # best first
        if state.at(label(s)):
            continue
        if label(s) in moves:
            return moves[label(s)]
        if opener is not None and opener.at:
            door = _door_on_the_way(state, acts, s, sq(opener.at))
            if door is not None:
                return door
    return None


def _egg_posts(state: ForlornState, eggs: list[Unit]) -> set[Square]:
    """Squares next to an Egg (in its room) to shoot it from at range 1."""
    board = board_of(state)
    return {
        n
        for e in eggs
        for n in neighbours(sq(e.at))
        if n in board.floor
        and board.room_of(n) == board.room_of(sq(e.at))
        and not state.at(label(n))
    }


def _in_doorway(plan: SiegePlan, s: Square) -> bool:
    """On the door's outside square or next to it: where the room's Xenos reach a Marine
    without leaving the room."""
    return s == plan.outside or s in neighbours(plan.outside)


def _scoring_airlock(state: ForlornState, marine: Unit) -> bool:
    """Op 04 counts Marines leaving by airlock B, Solo B scores those leaving by C."""
    board = board_of(state)
    named = {"op-04": "B", "solo-b": "C"}.get(state.scenario)
    return named is not None and board.airlock_names[named] in board.airlocks_of(sq(marine.at))


def _door_squares(board: Board, name: str) -> set[Square]:
    for key in board.doors():
        if door_id(*key) == name:
            return {s for s in key if board.room_of(s) not in ("A", "B")}
    return set()


def _unit_actions(actions: list[Action], uid: str) -> list[Action]:
    return [a for a in actions if a.args.get("unit") == uid and a.args.get("surge") != "yes"]


def _objective(state: ForlornState, marine: Unit, mine: list[Action]) -> Action | None:
    goal = scenarios()[state.scenario].goal
    for a in mine:
        what = a.args.get("what")
        if what == "exit":
            if goal.kind == "mcgfn-exit" and "mcgfn" in marine.items:
                return a
            if _scoring_airlock(state, marine):
                return a
        if what == "pickup" and a.args.get("target") == "mcgfn":
            return a
        if what in ("activate", "unseal"):
            return a
    bots = [a for a in mine if a.args.get("what") == "bot"]
    if bots:
        board = board_of(state)
        marines = [sq(m.at) for m in state.active("marines") if m.at]
        return min(
            bots,
            key=lambda a: min(attack_range(board.vents[int(a.args["to"])], m) for m in marines),
        )
    return None


def _attack_choice(
    state: ForlornState, marine: Unit, mine: list[Action], blasts: dict[str, float]
) -> tuple[float, Action] | None:
    """The best attack of one Marine, by expected kills; `blasts` remembers each grenade
    square's value (every Marine may throw at the same squares, 8.5)."""
    best: tuple[float, Action] | None = None
    marines = [sq(m.at) for m in state.active("marines") if m.at]
    for a in mine:
        value = -1.0
        if a.verb == "attack" and a.args.get("weapon") == "flame":
            chain = [p for p in (parse_label(t) for t in a.args["target"].split("+")) if p]
            value = flame_value(state, chain)
        elif a.verb == "attack" or a.args.get("what") == "spin":
            target = state.unit(a.args.get("target", ""))
            if target is None or target.at is None:
                continue
            near = min(attack_range(sq(target.at), m) for m in marines)
            clearing = scenarios()[state.scenario].goal.kind == "clear-rooms"
            busy = busy_rooms(state) if clearing else []
            room = board_of(state).room_of(sq(target.at))
            prize = state.scenario == "solo-b"  # an Egg is a VP there
            if near > THREAT or (
                target.kind == "egg" and near > 2 and room not in busy and not prize
            ):
                continue  # far away, or an Egg that threatens nobody yet
            value = shot_value(state, marine, target, a.args.get("what") == "spin")
            value *= 1.5 if near <= 3 else 1.0
        elif a.args.get("what") == "grenade":
            to = a.args.get("to", "")
            if to not in blasts:
                target_sq = parse_label(to)
                blasts[to] = -1.0 if target_sq is None else grenade_value(state, target_sq)
            value = blasts[to] - _reserve(state)
        if value > 0 and (best is None or value > best[0]):
            best = (value, a)
    return best


def _reserve(state: ForlornState) -> float:
    """What a grenade kept in hand is worth, in expected kills: the last one more. In Solo B
    half as much, since a grenade also wins VP there (Eggs it destroys, Warriors and Blasters
    it kills) and one still in hand at the end wins nothing. (1.4 and 1.9 kept most grenades
    unthrown; 0.7 and 1.2 won more of Operations 01 and 03 and the same elsewhere: see the
    docs' balance notes.)"""
    keep = 0.7 if state.grenades > 1 else 1.2
    return keep / 2 if state.scenario == "solo-b" else keep


def _walk(
    state: ForlornState, marine: Unit, mine: list[Action], goals: set[Square]
) -> Action | None:
    if not goals:
        return None
    dist = dist_to(state, goals)
    here = dist.get(sq(marine.at), 1 << 20)
    best: tuple[int, int, Action] | None = None
    for a in mine:
        if a.verb != "move" or a.args.get("to", "") in ("N", "E", "S", "W"):
            continue
        to = parse_label(a.args["to"])
        if to is None or "through flames" in (a.label or "") or a.args["to"] in state.flames:
            continue
        d = dist.get(to, 1 << 20)
        cost = int((a.label or " - 0").rsplit(" - ", 1)[1].split(" ")[0])
        if d < here and (best is None or (d, cost) < best[:2]):
            best = (d, cost, a)
    if best is not None:
        return best[2]
    for a in mine:  # a closed door on the way
        if a.args.get("what") == "open":
            other = parse_label(a.args.get("to", ""))
            if other is not None and dist.get(other, 1 << 20) < here:
                return a
    return None


def _face_threat(
    state: ForlornState, marine: Unit, mine: list[Action], xenos: list[Unit]
) -> Action | None:
    """Turn to face the nearest Xeno (so shots and interrupt orders can reach it) when it is
    out of the front arc: with the MP left over from a move, or an AP while two remain."""
    here = sq(marine.at)
    near = sorted((attack_range(here, sq(x.at)), x.id, x) for x in xenos if x.at)
    if not near or near[0][0] > 8 or in_arc(marine, sq(near[0][2].at)):
        return None
    carried = state.mp_left if state.mover == marine.id else 0
    target = sq(near[0][2].at)
    for a in mine:
        facing = a.args.get("to", "")
        if a.verb != "move" or facing not in ("N", "E", "S", "W"):
            continue
        if not in_front_arc(here, Facing(facing), target):
            continue
        cost = int((a.label or " - 0").rsplit(" - ", 1)[1].split(" ")[0])
        if cost <= carried or state.ap >= 2:
            return a
    return None


def _exit_vp(marine: Unit) -> int:
    return VP_EXIT.get(marine.kind, 8)


def _step_rank(state: ForlornState, a: Action) -> tuple[int, int]:
    """Seals before exits, and the exit of a Marine worth more before the others (Solo B)."""
    what = a.args.get("what")
    marine = state.unit(a.args.get("unit", ""))
    if what == "exit" and marine is not None:
        return (1, -_exit_vp(marine))
    return (0, 0)


def _movers(state: ForlornState, mine: list[Unit]) -> list[Unit]:
    """Who walks first: the carrier of the goal item, then the Marine nearest the goal (a
    spearhead: tried against moving the laggards first, it wins more, see the docs)."""
    far = 1 << 20

    def dist(m: Unit) -> int:
        return dist_to(state, marine_goal(state, m)).get(sq(m.at), far)

    if state.scenario == "solo-b":
        # The seal cutters first; then the Marine whose exit pays most VP for the APs its
        # walk and the airlock cost.
        cutters = _seal_cutters(state)

        def worth(m: Unit) -> float:
            return _exit_vp(m) / (dist(m) / marine_profile(m)[0] + 2)

        return sorted(mine, key=lambda m: (m.id not in cutters, -worth(m), m.id))
    return sorted(mine, key=lambda m: (0 if "mcgfn" in m.items else 1, dist(m), m.id))


def advise_marines(state: ForlornState, seat: str, actions: list[Action]) -> Action | None:
    if state.phase != "marine":
        return _default(actions)
    mine = [m for m in state.active("marines") if m.at and m.seat in (None, seat)]
    xenos = [x for x in state.active("xenos") if x.at and x.kind != "egg"]
    steps = [
        found
        for m in mine
        if (
            found := _objective(state, m, _unit_actions(actions, m.id))
            or _room_doors(state, m, _unit_actions(actions, m.id))
        )
        is not None
    ]
    if steps:  # the operation's own steps first: cut seals, then the most valuable exit
        return min(steps, key=lambda a: _step_rank(state, a))
    threatened = any(
        attack_range(sq(x.at), sq(m.at)) <= 4 for x in xenos for m in state.active("marines")
    )
    sc_kind = scenarios()[state.scenario].goal.kind
    if sc_kind == "clear-rooms":
        siege = _siege(state, mine, actions)
        if siege is not None:
            return siege
    blasts: dict[str, float] = {}
    shots = [
        c for m in mine if (c := _attack_choice(state, m, _unit_actions(actions, m.id), blasts))
    ]
    shots.sort(key=lambda c: -c[0])
    if shots and shots[0][0] >= (0.3 if threatened else 0.45):
        return shots[0][1]
    for m in _movers(state, mine):
        step = _walk(state, m, _unit_actions(actions, m.id), marine_goal(state, m))
        if step is not None and state.ap > (1 if threatened else 0):
            return step
    if shots and shots[0][0] >= 0.25:
        return shots[0][1]
    for m in mine:
        turn = _face_threat(state, m, _unit_actions(actions, m.id), xenos)
        if turn is not None:
            return turn
    for m in mine:
        if not any(o.unit == m.id for o in state.orders):
            order = next(
                (
                    a
                    for a in _unit_actions(actions, m.id)
                    if a.verb == "orders" and a.args.get("aps") == "2" and "weapon" not in a.args
                ),
                None,
            )
            if order is not None:
                return order
    return next((a for a in actions if a.verb == "end-turn" and not a.args), None)


# --- the Xeno seat ----------------------------------------------------------------------------


def _nearest_marine(state: ForlornState, s: Square) -> int:
    return min((attack_range(s, sq(m.at)) for m in state.active("marines") if m.at), default=99)


def advise_xeno(state: ForlornState, actions: list[Action]) -> Action | None:
    if state.phase == "mulligan":
        return _option(actions, "keep")
    if state.phase == "xeno-spawn":
        if _option(actions, "blaster"):
            return _option(actions, "blaster")
        drones = (state.spawn_roll or {}).get("drone", 0)
        return _option(actions, "reroll") if drones <= 2 else _option(actions, "keep")
    if state.phase == "xeno-place":
        squares = [a for a in actions if parse_label(a.args.get("option", "")) is not None]
        if squares and state.placements and state.placements[0].zone != "vent":
            # Starting forces: as close to the Marines as the operation allows.
            return min(
                squares,
                key=lambda a: (
                    _xeno_spot(state, parse_label(a.args["option"]))[0],
                    a.args["option"],
                ),
            )
        return _option(actions, "auto")
    if state.reaction is not None:
        shields = [a for a in actions if a.args.get("card") and _card_effect(a) == "shield"]
        if "marine-attack" in state.reaction.moments and shields:
            return min(shields, key=lambda a: _target_distance(state, a))
        return _option(actions, "pass")
    if state.phase != "xeno":
        return None
    return _xeno_phase(state, actions)


def _card_effect(action: Action) -> str:
    return cards()[action.args["card"]].effect


def _target_distance(state: ForlornState, action: Action) -> int:
    target = state.unit(action.args.get("target", ""))
    return _nearest_marine(state, sq(target.at)) if target and target.at else 99


def _xeno_phase(state: ForlornState, actions: list[Action]) -> Action | None:
    plays = [a for a in actions if a.args.get("what") == "card" and not a.args.get("discard")]
    for a in plays:
        effect = _card_effect(a)
        if effect in ("swarm", "drain", "sap", "ambush", "hatch"):
            return a
        if effect == "frenzy" and state.xeno_active is None and _target_distance(state, a) > 6:
            return a
        if effect == "shield" and _target_distance(state, a) <= 2:
            return a
    burst = next((a for a in actions if a.args.get("what") == "burst"), None)
    if burst is not None:
        return burst
    active = state.unit(state.xeno_active or "")
    order = (
        [active]
        if active is not None
        else sorted(
            (x for x in state.active("xenos") if x.at and x.kind != "egg"),
            key=lambda x: (_nearest_marine(state, sq(x.at)), x.id),
        )
    )
    for x in order:
        mine = [a for a in actions if a.args.get("unit") == x.id]
        if not mine:
            continue
        grow = [a for a in mine if a.args.get("what") == "grow"]
        if grow:
            return next((a for a in grow if a.args.get("to") == "warrior"), grow[0])
        attacks = [a for a in mine if a.verb == "attack" and "weapon" not in a.args]
        if attacks:
            return attacks[0]
        moves = [a for a in mine if a.verb == "move"]
        if moves:
            here = _xeno_spot(state, sq(x.at))[0]
            best = min(
                moves,
                key=lambda a: (
                    _xeno_spot(state, parse_label(a.args["to"])),
                    a.args["to"],
                ),
            )
            spot = _xeno_spot(state, parse_label(best.args["to"]))
            if spot[0] < here or (spot[0] == here and spot[1] == 0):
                return best
        done = next((a for a in mine if a.verb == "end-turn"), None)
        if done is not None:
            return done
    return next((a for a in actions if a.verb == "end-turn" and not a.args), None)


def _xeno_spot(state: ForlornState, s: Square | None) -> tuple[int, int]:
    """Fewer steps (round the walls) to a square next to a Marine is better; orthogonally
    next to one best of all."""
    if s is None:
        return (99, 1)
    board = board_of(state)
    beside = {
        n for m in state.active("marines") if m.at for n in neighbours(sq(m.at)) if n in board.floor
    }
    steps = dist_to(state, beside).get(s, 99)
    return (steps, 0 if _nearest_marine(state, s) == 1 else 1)


# --- shared -----------------------------------------------------------------------------------


def _option(actions: list[Action], option: str) -> Action | None:
    return next((a for a in actions if a.args.get("option") == option), None)


def _default(actions: list[Action]) -> Action | None:
    """Outside the Marine phase (set-up): keep the standard set-up and end; spawns beside full
    vents (11.0): the policy's squares, away from the Marines."""
    auto = next((a for a in actions if a.verb == "choose" and a.args.get("option") == "auto"), None)
    if auto is not None:
        return auto
    for a in actions:
        if a.verb == "end-turn" and not a.args:
            return a
    return next((a for a in actions if a.verb == "choose"), None)


def advise(state: ForlornState, seat: str, actions: list[Action]) -> Action | None:
    if not actions:
        return None
    if seat == "xeno":
        return advise_xeno(state, actions)
    return advise_marines(state, seat, actions)
