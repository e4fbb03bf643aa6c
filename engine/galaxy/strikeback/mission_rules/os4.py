"""Mission 4 (storybook 7), The Elysium: break into the alien base on tile X1.

- Shield Generators on Waypoints 1-2 (5 HP) and, once Special Event B is out, Reinforced
  Doors on Waypoints 3-4 (10 HP): mission objects agents attack with the normal attack
  (`objects.py`); they do not defend, a FLAME token marks a destroyed one. Both generators
  down put Special Event B on top of the Event deck; both doors down lift the two BLOCK tokens
  that shut the base's doors.
- Reinforcements of the first Strategy phase: the Alpha Agent hands the Knight set aside to an
  agent (a prompt); the Knight lands next to him.
- A Nexus that dies is removed from play (its card to the Warehouse).
- Sally, the stationary weapon, starts with three tokens (ours: see `SALLY_*`).
- Special Events: the Archon on mark #1 with its free Proton Rifle shot at the closest alien in
  sight, the Nexus guards in the Barrier Hexes, Power Suits on mark #2 and next to the Alpha
  Agent (sb-suits' `suits.place_suit`), the Reinforced Doors.
- Objectives: every living agent inside the base -> accomplished; the Event deck used up with
  one outside -> failed.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.game import Action
from engine.core.hexgrid import Hex, distance, neighbours
from engine.core.words import counted
from engine.galaxy import combat
from engine.galaxy.agent import pinned
from engine.galaxy.attack import resolve_defence
from engine.galaxy.board import label
from engine.galaxy.content import Mission
from engine.galaxy.lifecycle import nearest_free
from engine.galaxy.state import AgentState, AlienState, GalaxyState, Pending
from engine.galaxy.strikeback import npc, objects, suits
from engine.galaxy.strikeback.mission_rules import FIRE, MissionRules, register, to_warehouse
from engine.galaxy.strikeback.play import mark_hex, sb
from engine.galaxy.strikeback.status import MissionState, mission_part
from engine.galaxy.world import (
    adjacent,
    agent_name,
    alien_name,
    area_distance,
    area_of,
    board_of,
    card,
    co,
    find_alien,
    free,
    hex_arg,
    hx,
    on_map_agents,
    operative,
    sees,
    weapon,
)

GENERATOR_HP, DOOR_HP = 5, 10
KNIGHT, ARCHON, WAREHOUSE_ARCHON = "knight-1", "archon-1", "archon-2"
BASE_ROOM = "base"
BLOCK = "block"
DOOR_SIDES = (("Q4", "R4"), ("R7", "S7"))  # the base's two doors on map B1+X1
# Sally (ours: the core rules name the overlay only): an agent on or next to its hex spends his
# Action and one of its tokens to fire it at an alien in sight.
SALLY_MARK, SALLY_TOKENS, SALLY_DICE, SALLY_COLOR, SALLY_RANGE = "sally", 3, 4, "red", 3
SPECIAL_B = "os4-b"


class BaseState(MissionState):
    """Mission 4's stationary weapon Sally, its one-shot rules and the Warehouse."""

    key: str = "os4"
    sally: int = 0  # tokens left on the stationary weapon Sally
    flags: list[str] = Field(default_factory=list)  # one-shot rules already applied
    warehouse: list[str] = Field(default_factory=list)  # alien cards removed from play
    legacy_group: ClassVar[str] = "tokens"
    legacy_fields: ClassVar[tuple[str, ...]] = ("sally", "flags", "warehouse")


def mine(state: GalaxyState) -> BaseState:
    return mission_part(state, BaseState)


def inside_base(state: GalaxyState, agent: AgentState) -> bool:
    if agent.hex is None:
        return False
    return area_of(state, agent.hex) in board_of(state).rooms.get(BASE_ROOM, set())


def _sally_problem(state: GalaxyState, agent: AgentState, target: str) -> str | None:
    assert agent.hex is not None
    if mine(state).sally < 1:
        return "finds Sally out of tokens"
    spot = mark_hex(state, SALLY_MARK)
    if co(spot) != agent.hex and not adjacent(state, agent.hex, co(spot)):
        return "must stand on or next to Sally"
    if pinned(state, agent):
        return "is Engaged in combat: Evade first"
    alien = next((a for a in state.aliens if a.id == target), None)
    if alien is None:
        return "must name an alien (target:x1 ...)"
    if not sees(state, co(spot), alien.hex):
        return "has no line of sight from Sally to it"
    if area_distance(state, co(spot), alien.hex) > SALLY_RANGE:
        return f"is out of Sally's range ({SALLY_RANGE} Areas)"
    return None


class Elysium(MissionRules):
    key = "os4"
    section = "Storybook 7 Mission 4"
    symbols = (FIRE,)  # a destroyed object
    state = BaseState
    effects = ("npc-at-mark", "archon-shot", "suit-at-mark", "suit-beside-alpha", "doors")
    actions = ("sally",)
    conditions = ("base-all", "events-out")
    terms = (
        ("gen1", "Shield Generator 1", "Waypoint 1: a Shield Generator, 5 HP, does not defend"),
        ("gen2", "Shield Generator 2", "Waypoint 2: a Shield Generator, 5 HP, does not defend"),
        ("door3", "Reinforced Door 3", "Waypoint 3: a Reinforced Door, 10 HP, does not defend"),
        ("door4", "Reinforced Door 4", "Waypoint 4: a Reinforced Door, 10 HP, does not defend"),
        ("generator", "Shield Generator", "5 HP, does not defend; both down bring Special Event B"),
        ("reinforced-door", "Reinforced Door", "10 HP, does not defend; both down lift the BLOCKs"),
        ("block", "BLOCK token", "Shuts an alien base door until both Reinforced Doors fall"),
        ("sally", "Sally", "Stationary weapon: on or next to it, Action + 1 token to fire it"),
        ("base", "Alien base", "The walled Room on tile X1: every agent inside wins mission 4"),
    )

    # -- setup and the first Reinforcements ---------------------------------------------------

    def begin(self, state: GalaxyState, mission: Mission, dice: Dice) -> None:
        layer = sb(state)
        board = board_of(state)
        events: list[Event] = []
        layer.npc_deck = [c for c in layer.npc_deck if c not in (KNIGHT, ARCHON, WAREHOUSE_ARCHON)]
        for n in (1, 2):
            objects.add(
                state,
                f"gen{n}",
                f"Shield Generator {n}",
                f"wp{n}",
                GENERATOR_HP,
                "generators",
                events,
            )
        sides = []
        for a, b in DOOR_SIDES:
            ha, hb = hex_arg(a), hex_arg(b)
            if frozenset((ha, hb)) not in board.doors:
                raise RuleError(f"The map has no base door {a}-{b}.")
            sides.append((ha, hb))
        objects.close(state, BLOCK, sides)
        mine(state).sally = SALLY_TOKENS

    def reinforcements(self, state: GalaxyState, dice: Dice, events: list[Event]) -> None:
        flags = mine(state).flags
        if "knight" not in flags:
            flags.append("knight")
            sb(state).asks.append("knight")
            return
        taker = next((f for f in flags if f.startswith("knight-to:")), None)
        if taker is not None:
            flags.remove(taker)
            sb(state).npc_deck.insert(0, KNIGHT)
            npc.arrive_beside(state, taker.removeprefix("knight-to:"), dice, events)
            if KNIGHT in sb(state).npc_deck:  # no room next to him: the card stays aside
                sb(state).npc_deck.remove(KNIGHT)

    def open_ask(self, state: GalaxyState, ask: str) -> Pending | None:
        options = [a.id for a in on_map_agents(state)]
        if ask != "knight" or not options or not state.alpha:
            return None
        return Pending(
            kind="sb-mission",
            seat=state.alpha,
            options=options,
            data={"ask": ask, "question": "Which agent receives the Knight NPC?"},
        )

    def finish_choice(
        self, state: GalaxyState, pending: Pending, option: str, events: list[Event]
    ) -> bool:
        mine(state).flags.append(f"knight-to:{option}")
        events.append(
            Note(text=f"The Alpha Agent gives the Knight to {agent_name(state.agents[option])}.")
        )
        return True

    # -- Special Events ----------------------------------------------------------------------

    def apply_effect(
        self,
        state: GalaxyState,
        kind: str,
        effect: dict[str, object],
        dice: Dice,
        events: list[Event],
    ) -> None:
        layer = sb(state)
        if kind == "npc-at-mark":
            spot = nearest_free(state, mark_hex(state, str(effect["mark"])))
            if spot is not None:
                layer.npc_deck.insert(0, str(effect["card"]))
                npc.arrive(state, spot, dice, events, "Special Event")
                if str(effect["card"]) in layer.npc_deck:
                    layer.npc_deck.remove(str(effect["card"]))
        elif kind == "archon-shot":
            self._archon_shot(state, dice, events)
        elif kind == "suit-at-mark":
            self._suit(state, mark_hex(state, str(effect["mark"])), effect, events)
        elif kind == "suit-beside-alpha":
            alpha = state.agents.get(state.alpha)
            if alpha is not None and alpha.hex is not None:
                spots = [
                    n
                    for n in neighbours(hx(alpha.hex))
                    if free(state, n) and adjacent(state, alpha.hex, co(n))
                ]
                at = min(spots, key=lambda h: (h.r, h.q)) if spots else hx(alpha.hex)
                self._suit(state, at, effect, events)
        else:  # doors
            for n in (3, 4):
                objects.add(
                    state, f"door{n}", f"Reinforced Door {n}", f"m{n}", DOOR_HP, "doors", events
                )

    def _suit(
        self, state: GalaxyState, at: Hex, effect: dict[str, object], ev: list[Event]
    ) -> None:
        suits.place_suit(state, int(str(effect["suit"])), int(str(effect["batteries"])), at, ev)

    def _archon_shot(self, state: GalaxyState, dice: Dice, events: list[Event]) -> None:
        """The Archon's controller fires its Proton Rifle at once at the closest alien in its
        line of sight, whatever the distance (ties: his standing order for the NPC)."""

        archon = state.agents.get(ARCHON)
        if archon is None or archon.hex is None:
            return
        seen = [a for a in state.aliens if sees(state, archon.hex, a.hex)]
        if not seen:
            events.append(Note(text="The Archon has no alien in sight: no shot."))
            return
        near = min(distance(hx(archon.hex), hx(a.hex)) for a in seen)
        closest = [a for a in seen if distance(hx(archon.hex), hx(a.hex)) == near]
        order = sb(state).npcs[ARCHON].target if ARCHON in sb(state).npcs else "weakest"
        target = npc._pick(state, archon, closest, order)
        w = npc.npc_weapon(npc.cards()[ARCHON].ranged)
        roll = combat.hit_roll(dice, w.color, w.dice)
        hits = roll.hits + (1 if roll.bolt and w.bolt == "hit+1" else 0)
        def_minus = 1 if roll.bolt and w.bolt == "def-1" else 0
        condition = w.bolt if roll.bolt and w.bolt in ("immobilize", "paralyze") else ""
        events.append(
            Note(
                text=f"The Archon fires its {w.name} at {alien_name(target)}: "
                f"{combat.roll_text(w.color, roll.faces)} - {counted(hits, 'Hit')}."
            )
        )
        resolve_defence(
            state, archon, [target.id], hits, def_minus, "ranged", condition, dice, events, w.name
        )

    # -- objects ------------------------------------------------------------------------------

    def object_destroyed(
        self, state: GalaxyState, key: str, dice: Dice, events: list[Event]
    ) -> None:
        flags = mine(state).flags
        if objects.group_down(state, "generators") and "special-b" not in flags:
            flags.append("special-b")
            if SPECIAL_B not in state.event_deck.all_cards():
                state.event_deck.put_on_top(SPECIAL_B)
            events.append(
                Note(
                    text="Both Shield Generators are down: Special Event B goes on top of the "
                    "Event deck."
                )
            )
        if objects.group_down(state, "doors") and BLOCK in sb(state).blocks:
            objects.open_block(state, BLOCK)
            events.append(
                Note(text="Both Reinforced Doors are down: the BLOCK tokens leave the base doors.")
            )

    def lit_marks(self, state: GalaxyState) -> dict[str, str]:
        return {o.mark: "flame" for o in sb(state).objects.values() if o.destroyed}

    def tokens(self, state: GalaxyState, seat: str | None) -> list[tuple[str, str, str]]:
        layer = sb(state)
        out: list[tuple[str, str, str]] = []
        for key, obj in objects.standing(state).items():
            kind = "generator" if key.startswith("gen") else "reinforced-door"
            where = label(objects.where(state, obj))
            out.append((where, kind, f"{key[0].upper()}{obj.hp - obj.wounds}"))
        for pair in layer.blocks.get(BLOCK, []):
            out.append((label(hx(pair[1])), "block", "BLK"))
        out.append((label(mark_hex(state, SALLY_MARK)), "sally", f"S{mine(state).sally}"))
        return out

    # -- Sally --------------------------------------------------------------------------------

    def action_problem(
        self, state: GalaxyState, agent: AgentState, what: str, args: dict[str, str]
    ) -> str | None:
        return _sally_problem(state, agent, args.get("target", "").lower())

    def do_action(
        self,
        state: GalaxyState,
        agent: AgentState,
        what: str,
        args: dict[str, str],
        dice: Dice,
        events: list[Event],
    ) -> None:
        target = find_alien(state, args["target"])
        mine(state).sally -= 1
        roll = combat.hit_roll(dice, SALLY_COLOR, SALLY_DICE)
        events.append(
            Note(
                text=f"{agent_name(agent)} fires Sally at {alien_name(target)}: "
                f"{combat.roll_text(SALLY_COLOR, roll.faces)} - {counted(roll.hits, 'Hit')} "
                f"({counted(mine(state).sally, 'token')} left)."
            )
        )
        resolve_defence(
            state, agent, [target.id], roll.hits, 0, "ranged", "", dice, events, "Sally"
        )

    def legal_actions(self, state: GalaxyState, agent: AgentState) -> list[Action]:
        return [
            Action(
                verb="act",
                args={"unit": agent.id, "what": "sally", "target": a.id},
                label=f"fire Sally at {alien_name(a)}",
            )
            for a in state.aliens
            if _sally_problem(state, agent, a.id) is None
        ]

    # -- the rest -----------------------------------------------------------------------------

    def alien_killed(self, state: GalaxyState, alien: AlienState, events: list[Event]) -> None:
        if card(alien).species == "nexus":
            to_warehouse(state, alien, mine(state).warehouse, events)

    def counts(self, state: GalaxyState) -> list[tuple[str, str]]:
        living = operative(state)
        inside = sum(1 for a in living if inside_base(state, a))
        return [("inside the base", f"{inside} of {len(living)} agents standing")]

    def condition(self, state: GalaxyState, cond: str) -> bool:
        if cond == "base-all":
            living = operative(state)
            return bool(living) and all(inside_base(state, a) for a in living)
        if cond == "events-out":
            return not state.event_deck.draw_pile
        return False

    def advice(self, state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
        """Break in: attack the generators, then the doors, walk toward the nearest standing
        object (then into the base), fire Sally when it has a target."""
        if agent.hex is None:
            return None
        standing = objects.standing(state)
        hits = [a for a in actions if a.verb == "attack" and a.args.get("target") in standing]
        engaged = any(adjacent(state, agent.hex, a.hex) for a in state.aliens)
        if hits:
            return max(hits, key=lambda a: (_dice_of(agent, a.args["weapon"]), a.args["target"]))
        sally = [a for a in actions if a.args.get("what") == "sally"]
        if sally:
            return sally[0]
        moves = [a for a in actions if a.verb == "move"]
        base = [
            h
            for h in board_of(state).hexes()
            if board_of(state).area_of[h] in board_of(state).rooms.get(BASE_ROOM, set())
        ]
        open_base = not standing and BLOCK not in sb(state).blocks
        if open_base and inside_base(state, agent):
            stay = [
                a for a in actions if a.verb == "attack" and a.args.get("target") not in standing
            ]
            if stay:
                return stay[0]
            return next((a for a in actions if a.verb == "end-turn"), None)
        if open_base:
            evade = [a for a in actions if a.args.get("what") == "evade"]
            if not moves and evade:
                return evade[0]
            goals = base
        elif engaged:
            return None
        else:
            goals = [objects.where(state, o) for o in standing.values()]
        if not goals or not moves:
            return None
        here = min(distance(hx(agent.hex), g) for g in goals)

        def gap(a: Action) -> tuple[int, str]:
            dest = hex_arg(a.args["to"])
            inside = board_of(state).area_of[dest] in board_of(state).rooms.get(BASE_ROOM, set())
            return (
                0 if open_base and inside else min(distance(dest, g) for g in goals),
                a.args["to"],
            )

        best = min(moves, key=gap)
        return best if gap(best)[0] < here else None


def _dice_of(agent: AgentState, key: str) -> int:
    return weapon(key).dice


register(Elysium())
