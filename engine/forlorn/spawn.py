"""Spawning Xenos (11.0) and the solitaire spawn dice (13.3)."""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.events import Event, Note, Rolled, Spawned
from engine.core.squaregrid import Square, neighbours
from engine.core.words import counted, many
from engine.forlorn.board import label
from engine.forlorn.content import Scenario, Spawn, xeno_word
from engine.forlorn.state import ForlornState, Placement, Unit
from engine.forlorn.world import attack_range, board_of, sq


def d3(roll: int) -> int:
    """1.2: 1-2 -> 1, 3-4 -> 2, 5-6 -> 3."""
    return (roll + 1) // 2


def from_pool(state: ForlornState, kind: str) -> Unit | None:
    return next((u for u in state.units if u.status == "pool" and u.kind == kind), None)


def place(state: ForlornState, unit: Unit, where: Square, events: list[Event], why: str) -> None:
    unit.status = "active"
    unit.at = label(where)
    unit.hits = 0
    unit.activated = False
    unit.placed = max(u.placed for u in state.units) + 1
    events.append(
        Spawned(figure=unit.id, at=unit.at, text=f"{unit.name} appears at {unit.at}{why}.")
    )


def vent_die(state: ForlornState, dice: Dice, events: list[Event], what: str) -> int | None:
    """A random Access Vent; a die showing a blocked vent is rerolled (at most 20 tries)."""
    if len(state.blocked_vents) >= 6:
        return None
    for _ in range(20):
        roll = dice.roll()
        if roll not in state.blocked_vents:
            return roll
        events.append(Note(text=f"Vent {roll} is blocked for the {what}: rerolled."))
    return None


def solo_spawn(state: ForlornState, rates: dict[str, int], dice: Dice, events: list[Event]) -> None:
    """13.3: one die per listed unit; each die names the vent it drops from (stacking allowed)."""
    board = board_of(state)
    for kind, count in rates.items():
        rolls: list[int] = []
        for _ in range(count):
            roll = vent_die(state, dice, events, kind)
            if roll is not None:
                rolls.append(roll)
        events.append(
            Rolled(
                purpose=f"spawn {kind}s",
                faces=[str(r) for r in rolls],
                text=f"Spawn dice for {counted(count, xeno_word(kind))}: "
                f"{' '.join(map(str, rolls))}.",
            )
        )
        for roll in rolls:
            unit = from_pool(state, kind)
            if unit is None:
                events.append(
                    Note(text=f"No {xeno_word(kind)} is left in the Xeno pool; the spawn is lost.")
                )
                continue
            place(state, unit, board.vents[roll], events, f" (vent {roll})")


def spill_squares(state: ForlornState, taken: set[str | None] | None = None) -> set[Square]:
    """11.0: the empty squares next to unblocked vents, where spawns go once every vent is
    taken."""
    board = board_of(state)
    taken = {u.at for u in state.active()} if taken is None else taken
    return {
        n
        for num, v in board.vents.items()
        if num not in state.blocked_vents
        for n in neighbours(v)
        if board.on_board(n)
        and board.vent_at(n) is None
        and label(n) not in taken
        and board.passable(v, n, frozenset(state.open_doors))
    }


def count_spawn(
    state: ForlornState,
    kinds: list[str],
    dice: Dice,
    events: list[Event],
    why: str = "",
    ask: bool = False,
) -> None:
    """11.0: one Xeno per free vent; the rest go next to vents. With `ask` (the automatic
    Xenos' spawn) the Marine player chooses those squares: they wait as "overflow"
    placements; otherwise the policy places them (away from the Marines, the `auto` answer)."""
    board = board_of(state)
    marines = [sq(m.at) for m in state.active("marines") if m.at]

    def near(s: Square) -> int:
        return min((attack_range(s, m) for m in marines), default=0)

    taken = {u.at for u in state.active()}
    vents = [
        v
        for n, v in sorted(board.vents.items())
        if n not in state.blocked_vents and label(v) not in taken
    ]
    vents.sort(key=lambda v: (near(v), label(v)))
    for kind in kinds:
        unit = from_pool(state, kind)
        if unit is None:
            events.append(
                Note(text=f"No {xeno_word(kind)} is left in the Xeno pool; the spawn is lost.")
            )
            continue
        if vents:
            where = vents.pop(0)
            place(state, unit, where, events, f" (vent {board.vent_at(where)}{why})")
            taken.add(label(where))
            continue
        spill = sorted(spill_squares(state, taken), key=lambda s: (-near(s), label(s)))
        if ask and spill:  # the counter is taken from the pool when the square is chosen
            state.placements.append(Placement(kind=kind, zone="overflow"))
            continue
        if not spill:
            events.append(
                Note(
                    text="Every vent and the squares around them are full: "
                    f"the {xeno_word(kind)} is lost."
                )
            )
            continue
        place(state, unit, spill[0], events, " (beside a full vent, placed away from the Marines)")
        taken.add(label(spill[0]))


def min_of(expr: str) -> int:
    _, _, plus = expr[1:].partition("+")
    return 1 + (int(plus) if plus else 0)


def spawn_words(what: str) -> str:
    """What a spawn roll counts, in words: "drone (re-roll)" -> "Drones (re-roll)"."""
    kind, _, rest = what.partition(" ")
    return f"{many(xeno_word(kind))} {rest}".rstrip()


def roll_count(expr: str, dice: Dice, events: list[Event], what: str) -> int:
    """'d3+1', 'd6+1', 'd3', '1', 'd3+2'."""
    expr = expr.replace(" ", "")
    if not expr.startswith("d"):
        return int(expr)
    die, _, plus = expr[1:].partition("+")
    roll = dice.roll()
    value = (d3(roll) if die == "3" else roll) + (int(plus) if plus else 0)
    events.append(
        Rolled(
            purpose=f"spawn {what}",
            faces=[str(roll)],
            text=f"Spawn roll for {spawn_words(what)}: {roll} -> {value}.",
        )
    )
    return value


def spawn_phase(state: ForlornState, sc: Scenario, dice: Dice, events: list[Event]) -> None:
    """11.0/13.3. With a human Xeno seat and a choice to make about the rolled Drones (Op 02's
    once-per-game re-roll, the Veteran Blaster swap) the phase stops at `state.spawn_roll`
    for her prompt (`spawn_choices`); `finish_spawn` goes on from there."""
    spawn = sc.spawn
    late = sc.spawn_late
    if late and state.turn >= late.from_turn:
        spawn = Spawn(dice=late.dice)
    if spawn.dice:
        solo_spawn(state, spawn.dice, dice, events)
        if state.rush:
            state.rush = False
            kind = special_choice(state, sc)
            roll = vent_die(state, dice, events, "rush")
            unit = from_pool(state, kind)
            if unit is not None and roll is not None:
                where = board_of(state).vents[roll]
                place(state, unit, where, events, f" (Xeno Rush, vent {roll})")
        return
    rolled = {what: roll_count(expr, dice, events, what) for what, expr in spawn.count.items()}
    state.spawn_roll = rolled
    if state.xeno_human and spawn_choices(state, sc):
        return  # the Xeno player decides (xeno-spawn phase)
    if not state.xeno_human and may_reroll(state, sc):
        expr = spawn.count["drone"]
        if rolled["drone"] == min_of(expr):
            # The automatic Xenos spend the one re-roll on a minimum result.
            events.append(Note(text="The Xeno player uses the one-time re-roll of the spawn die."))
            reroll(state, sc, dice, events)
    finish_spawn(state, sc, dice, events, swap=bool(sc.blaster_swap))


def may_reroll(state: ForlornState, sc: Scenario) -> bool:
    return state.xeno_reroll and str(sc.spawn.count.get("drone", "")).startswith("d")


def may_swap(state: ForlornState, sc: Scenario) -> bool:
    drones = (state.spawn_roll or {}).get("drone", 0)
    return bool(sc.blaster_swap) and drones >= 2 and from_pool(state, "blaster") is not None


def spawn_choices(state: ForlornState, sc: Scenario) -> list[str]:
    """The Xeno player's options about the rolled spawn: keep, re-roll (Op 02, once per
    game), swap two Drones for a Blaster (Op 02 Veteran, once per Spawn phase)."""
    out = []
    if may_reroll(state, sc):
        out.append("reroll")
    if may_swap(state, sc):
        out.append("blaster")
    return ["keep", *out] if out else []


def reroll(state: ForlornState, sc: Scenario, dice: Dice, events: list[Event]) -> None:
    state.xeno_reroll = False
    expr = sc.spawn.count["drone"]
    assert state.spawn_roll is not None
    state.spawn_roll["drone"] = roll_count(expr, dice, events, "drone (re-roll)")


def finish_spawn(
    state: ForlornState, sc: Scenario, dice: Dice, events: list[Event], swap: bool
) -> None:
    """Turn the rolled numbers into Xenos: placements for a human Xeno seat, else by policy."""
    rolled = state.spawn_roll or {}
    state.spawn_roll = None
    human = state.xeno_human
    kinds: list[str] = []
    drones = rolled.get("drone", 0)
    for what, n in rolled.items():
        if what == "special":
            if sc.specials_even_turns and state.turn % 2:
                events.append(Note(text="Trainee: no Special Trooper on an odd turn."))
                continue
            kinds += ["special" if human else special_choice(state, sc)] * n
        else:
            kinds += [what] * n
    if sc.extra_specials:
        kinds += ["warrior", "blaster"]
    if swap and kinds.count("drone") >= 2 and from_pool(state, "blaster"):
        kinds.remove("drone")
        kinds.remove("drone")
        kinds.append("blaster")
        events.append(Note(text="Veteran: a Blaster spawns in place of two Drones."))
    kinds += ["drone"] * state.mutation.extra_spawn
    if state.mutation.extra_spawn:
        events.append(
            Note(text=f"Mutation: {counted(state.mutation.extra_spawn, 'extra Drone')} spawn.")
        )
        state.mutation.extra_spawn = 0
    if sc.warrior_if_two and drones == 2:
        events.append(Note(text="Only two Drones were rolled, so a Warrior joins them (Op 01)."))
        roll = vent_die(state, dice, events, "warrior")
        unit = from_pool(state, "warrior")
        vents = board_of(state).vents
        if unit is not None and roll is not None and not state.at(label(vents[roll])):
            place(state, unit, vents[roll], events, f" (random vent {roll})")
        elif unit is not None:
            kinds.insert(0, "warrior")  # its vent is taken: placed like the others
    if state.rush:
        state.rush = False
        kinds.insert(0, "special" if human else special_choice(state, sc))
        events.append(Note(text="Xeno Rush: an extra Special joins the spawn."))
    if human:
        state.placements += [Placement(kind=k, zone="vent") for k in kinds]
    else:
        count_spawn(state, kinds, dice, events, ask=True)


def special_kinds(state: ForlornState, sc: Scenario) -> list[str]:
    """The Specials the Xeno player may choose from for a 'Warrior or Blaster' spawn."""
    out = []
    if not sc.no_warriors and from_pool(state, "warrior") is not None:
        out.append("warrior")
    if from_pool(state, "blaster") is not None:
        out.append("blaster")
    return out


def special_choice(state: ForlornState, sc: Scenario) -> str:
    """Policy of the automatic Xenos for 'Warrior or Blaster': a Warrior while one is left."""
    kinds = special_kinds(state, sc)
    return kinds[0] if kinds else "blaster"
