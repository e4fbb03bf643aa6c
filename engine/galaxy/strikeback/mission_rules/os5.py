"""Mission 5 (storybook 7), Moonrakers: the virus run through the alien base (tiles X1 + X2).

- Reinforcements of the first Strategy phase: the Alpha Agent hands out the two Virus
  Injectors, at most one per agent (a prompt for each); an injector nobody can take (a lone
  agent) is laid on a free GD Start Hex (ours). After an ACCOMPLISHED previous mission he also
  hands an Archon to an agent, placed next to him.
- Insert Virus (`/act what:insert-virus target:wp1|wp2`): an agent carrying an injector, not
  Engaged, on or next to Waypoint 1 or 2, spends his Action; the injector stays on the
  Waypoint. A carrier who dies leaves his injector on his hex; an agent picks it up by moving
  over it (one at a time).
- Power Suits: a Mark I with 5 Batteries waits at Headquarters from the start, a Mark II with 5
  after Special Event A; `/act what:suit-recall` (sb-suits' `suits.py`) brings one.
- Special Event B: Waypoints 3-5 shuffled face down onto marks #3-#5 (which is which is
  hidden until an agent steps on one), Signals teleport and move, and the Telepathic Link: a
  private message to the current Alpha Agent only, made public when Special Event A resolves.
  Waypoint 4 turned face up puts Special Event A on top of the Event deck; 3 and 5 are
  discarded.
- Special Event A: the hive overlay leaves, the Blue Xeno-Grey lands on #7 (its card to the
  Alpha Agent), 2 Signals next to it, the Green Nexus and the Red Xeno-Beast on the Teleport
  Point, Close Encounter #31 on top, the Mark II suit at Headquarters.
- Special Event C: each agent rolls 1 BLUE die: a Shield keeps his pose, otherwise 1 wound and
  Prone (ours: the die and symbol are not in the text).
- The Blue Xeno-Grey and the Blue Nexus are removed from play when they die.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from engine.core.dice import Dice, shuffle
from engine.core.errors import RuleError
from engine.core.events import Event, Note, Rolled
from engine.core.game import Action
from engine.core.hexgrid import Hex, distance
from engine.galaxy import combat
from engine.galaxy import dice as gdice
from engine.galaxy.agent import pinned
from engine.galaxy.board import label
from engine.galaxy.content import Mission
from engine.galaxy.lifecycle import nearest_free, place_alien
from engine.galaxy.signals import signal_at
from engine.galaxy.state import AgentState, AlienState, GalaxyState, Pending
from engine.galaxy.strikeback import npc, objects, poses, suits
from engine.galaxy.strikeback.mission_rules import MissionRules, register, to_warehouse
from engine.galaxy.strikeback.play import mark_hex, previous_result, sb
from engine.galaxy.strikeback.status import MissionState, mission_part
from engine.galaxy.world import (
    adjacent,
    agent_name,
    board_of,
    co,
    free,
    hex_arg,
    hx,
    on_map_agents,
    operative,
)

INJECTORS = 2
VIRUS_WAYPOINTS = (1, 2)
HIDDEN = {"m3": 3, "m4": 4, "m5": 5}  # marks #3-#5 and the Waypoints shuffled onto them
LINK_WAYPOINT = 4
SPECIAL_A = "os5-a"
GREY, BLUE_NEXUS = "xeno-grey-blue-1", "nexus-blue-1"
ARCHONS = ("archon-1", "archon-2")
OVERLAY = "overlay"
HIVE_SIDES = (("R8", "S8"), ("R8", "S9"), ("R9", "S9"))
OVERLAY_HEXES = ("S8", "S9")
POSE_DIE, POSE_KEEP = "blue", gdice.SHIELD


class VirusState(MissionState):
    """Mission 5's Virus Injectors, face-down Waypoints, the Telepathic Link and the
    Warehouse."""

    key: str = "os5"
    flags: list[str] = Field(default_factory=list)  # one-shot rules already applied
    injectors: list[str] = Field(default_factory=list)  # agents carrying a Virus Injector
    dropped: list[tuple[int, int]] = Field(default_factory=list)  # injectors lying on hexes
    viruses: list[int] = Field(default_factory=list)  # Waypoints with a virus inserted
    facedown: dict[str, int] = Field(default_factory=dict)  # mark -> Waypoint (secret)
    shown: dict[str, int] = Field(default_factory=dict)  # mark -> Waypoint turned face up
    linked: str = ""  # the agent with the Telepathic Link (secret until Special Event A)
    warehouse: list[str] = Field(default_factory=list)  # alien cards removed from play
    legacy_group: ClassVar[str] = "tokens"
    legacy_fields: ClassVar[tuple[str, ...]] = (
        "flags",
        "injectors",
        "dropped",
        "viruses",
        "facedown",
        "shown",
        "linked",
        "warehouse",
    )


def mine(state: GalaxyState) -> VirusState:
    return mission_part(state, VirusState)


def _wp_arg(text: str) -> int | None:
    text = text.lower().removeprefix("wp")
    return int(text) if text.isdigit() and int(text) in VIRUS_WAYPOINTS else None


def carrying(state: GalaxyState, agent: AgentState) -> bool:
    return agent.id in mine(state).injectors


def _insert_problem(state: GalaxyState, agent: AgentState, target: str) -> str | None:
    assert agent.hex is not None
    if not carrying(state, agent):
        return "carries no Virus Injector"
    if pinned(state, agent):
        return "is Engaged in combat"
    wp = _wp_arg(target)
    if wp is None:
        return "must name Waypoint 1 or 2 (target:wp1|wp2)"
    if wp in mine(state).viruses:
        return f"finds the virus already in Waypoint {wp}"
    spot = co(mark_hex(state, f"wp{wp}"))
    if spot != agent.hex and not adjacent(state, agent.hex, spot):
        return f"must stand next to Waypoint {wp}"
    return None


class Moonrakers(MissionRules):
    key = "os5"
    section = "Storybook 7 Mission 5"
    state = VirusState
    effects = (
        "hidden-waypoints",
        "telepathic-link",
        "open-hive",
        "place-grey",
        "hq-suit",
        "pose-roll",
    )
    actions = ("insert-virus",)
    conditions = ("e-drawn", "alive>=", "virus-both", "grey-dead", "dead>=4")
    terms = (
        ("insert-virus", "Insert Virus", "Action: next to Waypoint 1 or 2, leave the virus there"),
        ("injector", "Virus Injector", "Carried by one agent; dropped where he dies, picked up"),
        ("virus", "Virus", "An injector left on Waypoint 1 or 2: both are needed"),
        ("virus-target", "Virus target", "Waypoint 1 or 2, still waiting for the virus"),
        (
            "waypoint-face-down",
            "Face-down Waypoint",
            "Waypoint 3, 4 or 5, turned up when stepped on",
        ),
        ("waypoint", "Waypoint", "A Waypoint turned face up (Waypoint 4 brings Special Event A)"),
        ("telepathic-link", "Telepathic Link", "A secret bond of the Alpha Agent with Aneres"),
        ("alien-base-overlay", "Alien Base overlay", "Shuts the hive on X2 until Special Event A"),
        ("hive", "Hive", "The alien Room on X2 behind the overlay, where the Xeno-Grey waits"),
    )

    # -- setup and the first Reinforcements -------------------------------------------------

    def begin(self, state: GalaxyState, mission: Mission, dice: Dice) -> None:
        layer = sb(state)
        layer.npc_deck = [c for c in layer.npc_deck if c not in ARCHONS]
        objects.close(state, OVERLAY, [(hex_arg(a), hex_arg(b)) for a, b in HIVE_SIDES])
        suits.stock_headquarters(state, 1, 5, [])

    def reinforcements(self, state: GalaxyState, dice: Dice, events: list[Event]) -> None:
        layer = sb(state)
        flags = mine(state).flags
        if "injectors" not in flags:
            flags.append("injectors")
            layer.asks.extend(["injector"] * INJECTORS)
            if previous_result(state) == "accomplished":
                layer.asks.append("archon")
            return
        for flag in [f for f in flags if f.startswith("archon-to:")]:
            flags.remove(flag)
            layer.npc_deck.insert(0, ARCHONS[0])
            npc.arrive_beside(state, flag.removeprefix("archon-to:"), dice, events)
            if ARCHONS[0] in layer.npc_deck:
                layer.npc_deck.remove(ARCHONS[0])
        given = len(mine(state).injectors) + len(mine(state).dropped)
        if "injectors-laid" not in flags and not layer.asks:
            flags.append("injectors-laid")
            for _ in range(INJECTORS - given):
                spot = next((h for h in board_of(state).starts if free(state, h)), None)
                spot = spot or board_of(state).starts[0]
                mine(state).dropped.append(co(spot))
                events.append(
                    Note(text=f"No agent can carry it: a Virus Injector lies at {label(spot)}.")
                )

    def open_ask(self, state: GalaxyState, ask: str) -> Pending | None:
        if not state.alpha:
            return None
        if ask == "injector":
            options = [a.id for a in on_map_agents(state) if a.id not in mine(state).injectors]
            question = "Which agent carries a Virus Injector (at most one each)?"
        elif ask == "archon":
            options = [a.id for a in on_map_agents(state)]
            question = "Which agent receives the Archon NPC?"
        else:
            return None
        if not options:
            return None
        return Pending(
            kind="sb-mission",
            seat=state.alpha,
            options=options,
            data={"ask": ask, "question": question},
        )

    def finish_choice(
        self, state: GalaxyState, pending: Pending, option: str, events: list[Event]
    ) -> bool:
        tokens = mine(state)
        name = agent_name(state.agents[option])
        if pending.data["ask"] == "injector":
            tokens.injectors.append(option)
            events.append(Note(text=f"The Alpha Agent hands a Virus Injector to {name}."))
        else:
            tokens.flags.append(f"archon-to:{option}")
            events.append(Note(text=f"The Alpha Agent gives the Archon to {name}."))
        return True

    # -- moving over tokens, dying with one -------------------------------------------------

    def entered(
        self, state: GalaxyState, agent: AgentState, h: Hex, dice: Dice, events: list[Event]
    ) -> None:
        tokens = mine(state)
        if co(h) in [tuple(x) for x in tokens.dropped] and not carrying(state, agent):
            tokens.dropped = [x for x in tokens.dropped if tuple(x) != co(h)]
            tokens.injectors.append(agent.id)
            events.append(Note(text=f"{agent_name(agent)} picks up a Virus Injector."))
        mark = board_of(state).marks.get(h)
        if mark is None or mark not in tokens.facedown:
            return
        wp = tokens.facedown.pop(mark)
        tokens.shown[mark] = wp
        if wp == LINK_WAYPOINT:
            if SPECIAL_A not in state.event_deck.all_cards():
                state.event_deck.put_on_top(SPECIAL_A)
            events.append(
                Note(
                    text=f"{agent_name(agent)} turns the Waypoint at {label(h)} face up: "
                    "Waypoint 4! Special Event A goes on top of the Event deck."
                )
            )
        else:
            del tokens.shown[mark]
            events.append(
                Note(
                    text=f"{agent_name(agent)} turns the Waypoint at {label(h)} face up: "
                    f"Waypoint {wp}, discarded without effect."
                )
            )

    def agent_died(self, state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
        tokens = mine(state)
        if agent.id in tokens.injectors and agent.hex is not None:
            tokens.injectors.remove(agent.id)
            tokens.dropped.append(agent.hex)
            events.append(
                Note(text=f"{agent_name(agent)}'s Virus Injector falls at {label(hx(agent.hex))}.")
            )

    # -- Special Events ----------------------------------------------------------------------

    def apply_effect(
        self,
        state: GalaxyState,
        kind: str,
        effect: dict[str, object],
        dice: Dice,
        events: list[Event],
    ) -> None:
        tokens = mine(state)
        if kind == "hidden-waypoints":
            order = shuffle(dice, sorted(HIDDEN.values()))
            tokens.facedown = dict(zip(sorted(HIDDEN), order, strict=True))
            where = ", ".join(label(mark_hex(state, m)) for m in sorted(HIDDEN))
            events.append(Note(text=f"Waypoints 3, 4 and 5 are shuffled face down onto {where}."))
        elif kind == "telepathic-link":
            alpha = state.agents.get(state.alpha)
            if alpha is not None:
                tokens.linked = alpha.id
                events.append(
                    Note(
                        text=f"(For {agent_name(alpha)} alone) A voice in your head: Aneres. You "
                        "share a Telepathic Link with her now. Find Waypoint 4 inside the base "
                        "yourself to reach her. Keep this to yourself until Special Event A.",
                        visible_to=[alpha.id],
                    )
                )
        elif kind == "open-hive":
            objects.open_block(state, OVERLAY)
            events.append(Note(text="The Alien Base overlay leaves tile X2: the hive is open."))
        elif kind == "place-grey":
            spot = nearest_free(state, mark_hex(state, str(effect["mark"])))
            if spot is not None:
                grey = place_alien(state, str(effect["card"]), spot, events, "lands")
                if state.alpha in state.agents:
                    grey.controller = state.alpha
                    events.append(Note(text="Its card goes to the Alpha Agent (Special Event)."))
                for _ in range(int(str(effect.get("with_signals", 0)))):
                    signal_at(state, spot, dice, events)
            if tokens.linked:
                linked = state.agents.get(tokens.linked)
                who = agent_name(linked) if linked is not None else tokens.linked
                events.append(Note(text=f"{who} had a Telepathic Link with Aneres all along."))
        elif kind == "hq-suit":
            suits.stock_headquarters(
                state, int(str(effect["suit"])), int(str(effect["batteries"])), events
            )
        else:  # pose-roll
            self._pose_roll(state, dice, events)

    def _pose_roll(self, state: GalaxyState, dice: Dice, events: list[Event]) -> None:
        posed = poses.enabled(state)  # without Fighting Poses there is no pose to keep or lose
        kept_text = "he keeps his pose." if posed else "he keeps his footing."
        hit_text = "1 wound and he is thrown Prone." if posed else "1 wound."
        for agent in on_map_agents(state):
            face = gdice.roll(dice, POSE_DIE, 1)
            kept = POSE_KEEP in gdice.symbols(POSE_DIE, face[0])
            events.append(
                Rolled(
                    roller=agent.id,
                    color=POSE_DIE,
                    faces=gdice.describe(POSE_DIE, face),
                    text=f"{agent_name(agent)} rolls {combat.roll_text(POSE_DIE, face)}: "
                    + (kept_text if kept else hit_text),
                )
            )
            if kept:
                continue
            combat.wound_agent(state, agent, 1, events, "the quake")
            if posed and agent.hex is not None and not agent.dead:
                sb(state).poses[agent.id] = "prone"

    # -- Insert Virus -----------------------------------------------------------------------

    def action_problem(
        self, state: GalaxyState, agent: AgentState, what: str, args: dict[str, str]
    ) -> str | None:
        return _insert_problem(state, agent, args.get("target", ""))

    def do_action(
        self,
        state: GalaxyState,
        agent: AgentState,
        what: str,
        args: dict[str, str],
        dice: Dice,
        events: list[Event],
    ) -> None:
        wp = _wp_arg(args.get("target", ""))
        if wp is None:
            raise RuleError("Name Waypoint 1 or 2 (target:wp1|wp2).")
        tokens = mine(state)
        tokens.injectors.remove(agent.id)
        tokens.viruses.append(wp)
        events.append(Note(text=f"{agent_name(agent)} inserts the virus into Waypoint {wp}."))

    def legal_actions(self, state: GalaxyState, agent: AgentState) -> list[Action]:
        return [
            Action(
                verb="act",
                args={"unit": agent.id, "what": "insert-virus", "target": f"wp{wp}"},
                label=f"insert the virus into Waypoint {wp}",
            )
            for wp in VIRUS_WAYPOINTS
            if _insert_problem(state, agent, f"wp{wp}") is None
        ]

    # -- objectives, board, advice ----------------------------------------------------------

    def alien_killed(self, state: GalaxyState, alien: AlienState, events: list[Event]) -> None:
        if alien.card in (GREY, BLUE_NEXUS):
            to_warehouse(state, alien, mine(state).warehouse, events)

    def counts(self, state: GalaxyState) -> list[tuple[str, str]]:
        tokens = mine(state)
        virus = len(set(VIRUS_WAYPOINTS) & set(tokens.viruses))
        grey = "dead" if GREY in tokens.warehouse else "alive"
        drawn = "drawn" if "os5-e" in state.event_deck.discard_pile else "not drawn yet"
        return [
            ("virus", f"{virus} of {len(VIRUS_WAYPOINTS)} Waypoints infected"),
            ("Grey Xeno", grey),
            ("agents standing", f"{len(operative(state))} (3 to accomplish)"),
            ("Special Event E", drawn),
        ]

    def condition(self, state: GalaxyState, cond: str) -> bool:
        tokens = mine(state)
        if cond == "e-drawn":
            return "os5-e" in state.event_deck.discard_pile
        if cond.startswith("alive>="):
            return len(operative(state)) >= int(cond.removeprefix("alive>="))
        if cond == "virus-both":
            return set(VIRUS_WAYPOINTS) <= set(tokens.viruses)
        if cond == "grey-dead":
            return GREY in tokens.warehouse
        if cond == "dead>=4":
            return sum(1 for s in state.seats if state.agents[s].dead) >= 4
        return False

    def tokens(self, state: GalaxyState, seat: str | None) -> list[tuple[str, str, str]]:
        tokens = mine(state)
        out: list[tuple[str, str, str]] = []
        for mark in sorted(tokens.facedown):
            out.append((label(mark_hex(state, mark)), "waypoint-face-down", "W?"))
        for mark, wp in sorted(tokens.shown.items()):
            out.append((label(mark_hex(state, mark)), "waypoint", f"W{wp}"))
        for wp in VIRUS_WAYPOINTS:
            kind = "virus" if wp in tokens.viruses else "virus-target"
            out.append((label(mark_hex(state, f"wp{wp}")), kind, f"V{wp}"))
        for c in tokens.dropped:
            out.append((label(hx(c)), "injector", "VI"))
        if OVERLAY in sb(state).blocks:
            out.extend((h, "alien-base-overlay", "AB") for h in OVERLAY_HEXES)
        return out

    def advice(self, state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
        """Carriers insert the virus, else walk to the nearest open virus Waypoint; others pick
        up a dropped injector, then turn the face-down Waypoints over."""
        if agent.hex is None:
            return None
        tokens = mine(state)
        insert = [a for a in actions if a.args.get("what") == "insert-virus"]
        if insert:
            return insert[0]
        if any(adjacent(state, agent.hex, a.hex) for a in state.aliens):
            return None
        if carrying(state, agent):
            goals = [mark_hex(state, f"wp{n}") for n in VIRUS_WAYPOINTS if n not in tokens.viruses]
        elif tokens.dropped:
            goals = [hx(c) for c in tokens.dropped]
        else:
            goals = [mark_hex(state, m) for m in tokens.facedown]
        if not goals:  # then hunt the Xeno-Grey
            goals = [hx(a.hex) for a in state.aliens if a.card == GREY]
        moves = [a for a in actions if a.verb == "move"]
        if not goals or not moves:
            return None
        here = min(distance(hx(agent.hex), g) for g in goals)

        def gap(a: Action) -> tuple[int, str]:
            dest = hex_arg(a.args["to"])
            return (min(distance(dest, g) for g in goals), a.args["to"])

        best = min(moves, key=gap)
        return best if gap(best)[0] < here else None


register(Moonrakers())
