"""Mission 2 (storybook 7, "Underground Tremor"): the four Underground Probes.

The Alpha Agent hands the probes out (one prompt per probe, at least one per agent); a carrier
who dies leaves his probes on his hex, and any agent walking over them picks them up. An agent
next to (or on) Waypoint 1 or 2 of the dig site plants a probe there with his Action (not while
Engaged). The Event phase is skipped until a probe stands on Waypoint 1. Special Event D: if
the second probe is planted on Waypoint 2 before Special Event B, the next Event phase digs
through the deck to B. Special Event B takes the probe off Waypoint 1, brings two Diggers up
at the dig site's Teleport Point, and from the next round the Diggers hunt planted probes
(2 Health points, defending with BLUE dice like anyone) and an agent standing on Waypoint 3
may arm the two planted probes with his Action. First Reinforcements: after an accomplished
mission 1 each agent selects one device, else each gains one at random that fits him, from
the Warehouse of core and expansion devices (`handouts.py`).
"""

from __future__ import annotations

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.game import Action
from engine.core.hexgrid import Hex
from engine.core.words import counted
from engine.galaxy import combat
from engine.galaxy.board import label
from engine.galaxy.content import Mission
from engine.galaxy.lifecycle import clockwise_from_alpha, nearest_free, place_alien
from engine.galaxy.state import AgentState, AlienState, Coord, GalaxyState, Pending
from engine.galaxy.strikeback import handouts
from engine.galaxy.strikeback.mission_rules import DIG_SITE, PROBE_SET, MissionRules, register
from engine.galaxy.strikeback.mission_rules.tokens import (
    CarriedState,
    MissionToken,
    advisor_step_toward,
    carried,
    drop_all,
    lying,
    pick_up,
)
from engine.galaxy.strikeback.play import mark_hex, previous_result, sb
from engine.galaxy.strikeback.status import mission_part
from engine.galaxy.strikeback.swarm import figures
from engine.galaxy.world import (
    adjacent,
    agent_name,
    alien_name,
    board_of,
    card,
    co,
    engaged,
    hex_distance,
    operative,
)

PROBES = 4
PROBE_HP = 2
SITES = {1: "u1", 2: "u2", 3: "u3"}  # the dig site's Waypoints on map b1m1
ASK = "probe"


class ProbeState(CarriedState):
    """Mission 2's Underground Probes and its counters."""

    key: str = "os2"


def mine(state: GalaxyState) -> ProbeState:
    return mission_part(state, ProbeState)


def probes(state: GalaxyState) -> dict[str, MissionToken]:
    return {k: t for k, t in mine(state).pieces.items() if t.kind == "probe" and not t.gone}


def planted(state: GalaxyState, waypoint: int) -> str | None:
    return next((k for k, t in probes(state).items() if t.waypoint == waypoint), None)


def site(state: GalaxyState, waypoint: int) -> Coord:
    return co(mark_hex(state, SITES[waypoint]))


def hunting(state: GalaxyState) -> bool:
    """From the round after Special Event B the Diggers hunt probes and probes can be armed."""
    start = mine(state).flags.get("probe-rules", 0)
    return bool(start) and state.round >= start


def armed(state: GalaxyState) -> bool:
    return bool(mine(state).flags.get("armed")) and bool(planted(state, 1) and planted(state, 2))


class UndergroundTremor(MissionRules):
    key = "os2"
    section = "Storybook 7 Mission 2"
    symbols = (DIG_SITE, PROBE_SET)
    state = ProbeState
    effects = ("rush-to-b", "remove-probe", "place-alien-to", "shuffle-aliens", "probe-rules")
    actions = ("deploy", "arm")
    conditions = ("probes-armed", "events-out")
    terms = (
        (
            "deploy",
            "Deploy a probe",
            "Action next to Waypoint 1 or 2 of the dig site: plant a probe",
        ),
        ("arm", "Arm the probes", "Action on Waypoint 3, both probes planted: arm them"),
        ("probe", "Underground Probe", "Mission 2 token: carried, planted on a Waypoint, 2 HP"),
        ("u1", "Waypoint 1", "Dig site Waypoint 1: a probe here starts the Event phases"),
        ("u2", "Waypoint 2", "Dig site Waypoint 2: the second probe goes here"),
        ("u3", "Waypoint 3", "Dig site Waypoint 3: stand here to arm both probes"),
        ("m4", "Hex mark #4", "A marked hex of the dig site that a mission's event may use"),
    )

    # -- setup and Reinforcements -----------------------------------------------------------

    def begin(self, state: GalaxyState, mission: Mission, dice: Dice) -> None:
        for n in range(1, PROBES + 1):
            mine(state).pieces[f"probe{n}"] = MissionToken(kind="probe", hp=PROBE_HP)

    def reinforcements(self, state: GalaxyState, dice: Dice, events: list[Event]) -> None:
        """The first Strategy phase: devices (chosen after an accomplished mission 1, else
        random and compatible), then the Alpha Agent hands out the four probes."""
        layer = sb(state)
        if mine(state).flags.get("reinforced"):
            return
        mine(state).flags["reinforced"] = 1
        if previous_result(state) == "accomplished":  # each agent selects one (2.1 hand-outs)
            handouts.select_each(state, 1)
        else:  # one at random each, redrawn until it fits him
            handouts.random_each(state, dice, events)
        layer.asks += [ASK] * PROBES

    def open_ask(self, state: GalaxyState, ask: str) -> Pending | None:
        if ask != ASK or not state.alpha:
            return None
        left = [k for k, t in probes(state).items() if not t.holder and t.hex is None]
        team = [a.id for a in operative(state) if a.hex is not None]
        if not left or not team:
            return None
        owned = {a: len(carried(state, a, "probe")) for a in team}
        without = [a for a in team if not owned[a]]
        options = without if len(without) >= len(left) else team
        return Pending(
            kind="sb-mission",
            seat=state.alpha,
            options=options,
            data={"ask": ask, "question": f"Who carries Underground Probe {left[0][-1]}?"},
        )

    def finish_choice(
        self, state: GalaxyState, pending: Pending, option: str, events: list[Event]
    ) -> bool:
        left = [k for k, t in probes(state).items() if not t.holder and t.hex is None]
        if not left:
            return True
        probes(state)[left[0]].holder = option
        events.append(
            Note(
                text=f"{agent_name(state.agents[option])} carries Underground Probe {left[0][-1]}."
            )
        )
        return True

    def default_choice(self, state: GalaxyState, pending: Pending) -> str:
        """The agent carrying the fewest probes, first from the Alpha Agent clockwise."""

        order = [s for s in clockwise_from_alpha(state) if s in pending.options]
        return min(order, key=lambda s: (len(carried(state, s, "probe")), order.index(s)))

    # -- Special Events ----------------------------------------------------------------------

    def apply_effect(
        self,
        state: GalaxyState,
        kind: str,
        effect: dict[str, object],
        dice: Dice,
        events: list[Event],
    ) -> None:
        if kind == "rush-to-b":
            mine(state).flags["rush-watch"] = 1
            events.append(
                Note(
                    text="If the second probe is planted on Waypoint 2 before Event B, the team "
                    "skips ahead to it."
                )
            )
        elif kind == "remove-probe":
            found = planted(state, int(str(effect["waypoint"])))
            if found is not None:
                probes(state)[found].gone = True
                mine(state).flags["armed"] = 0
                events.append(Note(text="The probe on Waypoint 1 is crushed: it is gone."))
        elif kind == "place-alien-to":
            spot = nearest_free(state, board_of(state).teleports[str(effect["tp"])])
            if spot is None:
                return
            alien = place_alien(state, str(effect["card"]), spot, events, "digs up")
            order = clockwise_from_alpha(state)
            seat = order[1 % len(order)] if effect["to"] == "left" else state.alpha
            for figure in figures(state, alien):
                figure.controller = seat
            events.append(
                Note(
                    text=f"Its Alien card goes to {agent_name(state.agents[seat])} (Special Event)."
                )
            )
        elif kind == "shuffle-aliens":
            for card_id in [str(c) for c in effect["cards"]]:  # type: ignore[attr-defined]
                pile = state.alien_deck.draw_pile
                pile.insert(dice.randrange(len(pile) + 1), card_id)
            events.append(Note(text="More Diggers cards are shuffled into the Alien deck."))
        elif kind == "probe-rules":
            mine(state).flags["probe-rules"] = state.round + 1
            mine(state).flags["b-done"] = 1
            events.append(
                Note(
                    text="From the next round the Diggers hunt planted probes, and the probes "
                    "can be armed from Waypoint 3."
                )
            )
        else:
            raise RuleError(f"Unknown Special Event effect {kind}.")

    def event_phase(self, state: GalaxyState, dice: Dice, events: list[Event]) -> bool:
        if not mine(state).flags.get("listening"):
            events.append(Note(text="Event phase skipped: no probe is planted on Waypoint 1 yet."))
            return True
        if mine(state).flags.get("rush"):
            mine(state).flags["rush"] = 0
            pile = state.event_deck.draw_pile  # the top card is the last one
            while pile and pile[-1] != "os2-b":
                state.event_deck.discard(pile.pop())
            events.append(
                Note(
                    text="The second probe was planted early: the deck is drawn through to "
                    "Special Event B (the cards passed over have no effect)."
                )
            )
        return False

    def search_open(self, state: GalaxyState) -> bool:
        """Search in the shuttle only after Special Event D is resolved."""
        return "os2-d" in state.event_deck.discard_pile

    # -- the Diggers against probes ----------------------------------------------------------

    def decoys(self, state: GalaxyState, alien: AlienState) -> dict[str, Coord]:
        if card(alien).species != "diggers" or not hunting(state):
            return {}
        return {k: t.hex for k, t in probes(state).items() if t.waypoint and t.hex is not None}

    def strike_decoy(
        self,
        state: GalaxyState,
        alien: AlienState,
        token: str,
        kind: str,
        dice: Dice,
        events: list[Event],
    ) -> None:
        probe = probes(state)[token]
        w = card(alien).melee if kind == "melee" else card(alien).ranged
        assert w is not None
        roll = combat.hit_roll(dice, w.color, w.dice)
        hits = roll.hits
        defend = combat.defend_roll(dice, hits)
        probe.wounds += defend.wounds
        events.append(
            Note(
                text=f"{alien_name(alien)} attacks the probe on Waypoint {probe.waypoint} with "
                f"its {w.name}: {combat.roll_text(w.color, roll.faces)} - "
                f"{counted(hits, 'Hit')}; the "
                f"probe defends with {combat.defence_text(defend.faces)}, and takes "
                f"{counted(defend.wounds, 'Wound')}, {max(0, probe.hp - probe.wounds)} HP left."
            )
        )
        if probe.wounds >= probe.hp:
            probe.gone = True
            mine(state).flags["armed"] = 0
            events.append(Note(text=f"The probe on Waypoint {probe.waypoint} is destroyed."))

    # -- carrying ----------------------------------------------------------------------------

    def agent_died(self, state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
        drop_all(state, agent, events)

    def entered(
        self, state: GalaxyState, agent: AgentState, h: Hex, dice: Dice, events: list[Event]
    ) -> None:
        pick_up(state, agent, [co(h)], events)

    # -- special actions ---------------------------------------------------------------------

    def action_problem(
        self, state: GalaxyState, agent: AgentState, what: str, args: dict[str, str]
    ) -> str | None:
        assert agent.hex is not None
        if engaged(state, agent):
            return "is Engaged in combat"
        if what == "deploy":
            if not carried(state, agent.id, "probe"):
                return "carries no Underground Probe"
            wp = {"u1": 1, "u2": 2}.get(args.get("target", "").lower())
            if wp is None:
                return "must name Waypoint 1 or 2 of the dig site (target:u1|u2)"
            if planted(state, wp):
                return f"finds a probe already planted on Waypoint {wp}"
            spot = site(state, wp)
            if agent.hex != spot and not adjacent(state, agent.hex, spot):
                return f"must stand next to Waypoint {wp}"
            return None
        if not hunting(state):
            return "cannot arm the probes before Special Event B's rules apply"
        if not (planted(state, 1) and planted(state, 2)):
            return "needs probes planted on Waypoints 1 and 2"
        if armed(state):
            return "finds the probes already armed"
        if agent.hex != site(state, 3):
            return "must stand on Waypoint 3"
        return None

    def do_action(
        self,
        state: GalaxyState,
        agent: AgentState,
        what: str,
        args: dict[str, str],
        dice: Dice,
        events: list[Event],
    ) -> None:
        if what == "arm":
            mine(state).flags["armed"] = 1
            events.append(Note(text=f"{agent_name(agent)} arms the two planted probes."))
            return
        wp = {"u1": 1, "u2": 2}[args["target"].lower()]
        key = carried(state, agent.id, "probe")[0]
        probe = probes(state)[key]
        probe.holder, probe.hex, probe.waypoint = "", site(state, wp), wp
        events.append(
            Note(
                text=f"{agent_name(agent)} plants a probe on Waypoint {wp} "
                f"({label(mark_hex(state, SITES[wp]))})."
            )
        )
        if wp == 1 and not mine(state).flags.get("listening"):
            mine(state).flags["listening"] = 1
            events.append(Note(text="The probe starts listening: Event phases begin."))
        if (
            wp == 2
            and mine(state).flags.get("rush-watch")
            and not mine(state).flags.get("b-done")
            and planted(state, 1)
        ):
            mine(state).flags["rush"] = 1
            mine(state).flags["rush-watch"] = 0

    def legal_actions(self, state: GalaxyState, agent: AgentState) -> list[Action]:
        return self.offered(
            state,
            agent,
            (
                ("deploy", {"target": "u1"}, "plant a probe on Waypoint 1"),
                ("deploy", {"target": "u2"}, "plant a probe on Waypoint 2"),
                ("arm", {"target": "u3"}, "arm the probes"),
            ),
        )

    # -- objectives, board, advice -----------------------------------------------------------

    def counts(self, state: GalaxyState) -> list[tuple[str, str]]:
        placed = sum(1 for n in (1, 2) if planted(state, n))
        ready = "armed" if armed(state) else "not armed"
        return [("probes", f"{placed} of 2 planted on Waypoints 1 and 2, {ready}")]

    def condition(self, state: GalaxyState, cond: str) -> bool:
        if cond == "probes-armed":
            return armed(state)
        if cond == "events-out":
            return bool(mine(state).flags.get("listening")) and not state.event_deck.draw_pile
        return False

    def lit_marks(self, state: GalaxyState) -> dict[str, str]:
        return {SITES[t.waypoint]: "probe" for t in probes(state).values() if t.waypoint}

    def advice(self, state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
        """Arm, then plant (Waypoint 1 first); a carrier whose probe is not needed yet waits
        next to Waypoint 1 (Special Event B takes that probe away); the agent without a probe
        nearest Waypoint 3 goes there and holds it (fighting from it) until he can arm; an
        agent without a job picks up a dropped probe, else fights as usual."""
        if agent.hex is None:
            return None
        for what in ("arm", "deploy"):
            found = [a for a in actions if a.args.get("what") == what]
            if found:
                return min(found, key=lambda a: a.args["target"])
        mine = carried(state, agent.id, "probe")
        if mine:
            empty = [site(state, wp) for wp in (1, 2) if not planted(state, wp)]
            return advisor_step_toward(
                state, agent, actions, empty or [site(state, 1)], adjacent_ok=True
            )
        if agent.id == self._armer(state):
            goal = site(state, 3)
            if agent.hex == goal:
                attacks = [a for a in actions if a.verb == "attack"]
                if attacks or agent.movement != "open":
                    return attacks[0] if attacks else None
                return next((a for a in actions if a.verb == "end-turn"), None)
            return advisor_step_toward(state, agent, actions, [goal], adjacent_ok=False)
        loose = lying(state, "probe")
        if loose:
            return advisor_step_toward(state, agent, actions, loose, adjacent_ok=False)
        return None

    def _armer(self, state: GalaxyState) -> str | None:
        """The agent without a probe nearest Waypoint 3 (a lone agent: himself)."""

        team = [a for a in operative(state) if a.hex is not None]
        free_hands = [a for a in team if not carried(state, a.id, "probe")]
        if not free_hands:
            return None
        goal = site(state, 3)
        best = min(free_hands, key=lambda a: (hex_distance(a.hex or goal, goal), a.id))
        return best.id


register(UndergroundTremor())
