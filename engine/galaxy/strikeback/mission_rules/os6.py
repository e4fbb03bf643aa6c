"""Mission 6 (storybook 7, "The Last Starfighters"): the Wormoon hunt.

As printed: the Wormoon (Master Alien, Stage I) and the Menace token go to the Alpha Agent in
the first Strategy phase, with four Underground Probes (one per agent at most), the random
NPC and, after an accomplished mission 5, an Archon; Event phases never teleport or move
Signals; when Stage I reaches 0 Health points Special Event A goes on top of the Event deck
and the Wormoon fights on until the end of the round; a Mark II Power Suit with 3 Batteries
waits at Headquarters for a Recall; Special Events A, B, C follow the printed effects (B and C
open the Moon Rifts and shake the agents; A gives every agent a GD-Wings rank, the Wormoon
swallows the Alpha Agent and dives, four Flying Critters land, and from the next round on
the probes can be deployed next to Waypoints 2, 3 and 4). The mission is accomplished when the
Wormoon's Stage II dies and fails when Special Event E is drawn with the Wormoon alive.

Ours (the storybook does not print them): Special Event D, which a third deployed probe puts
on top of the Event deck (the probes find the Wormoon: Stage II surfaces at its lair,
Waypoint 1); Special Event E, the last card of the deck; the Moon Rift (a chasm: no figure
stops on its two hexes and agents cannot walk across them; aliens, who pass through figures,
pass over it); the shake ("each agent rolls 1 BLUE die: a Shield keeps his pose, else 1
wound and Prone"); a probe is picked up by walking onto it, one per agent.
"""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from engine.core.dice import Dice, SeededDice, shuffle
from engine.core.errors import RuleError
from engine.core.events import Event, Moved, Note
from engine.core.game import Action
from engine.core.hexgrid import Hex, distance, neighbours
from engine.core.view import SymbolView
from engine.core.words import counted
from engine.galaxy import combat
from engine.galaxy import dice as gdice
from engine.galaxy.advisor import booster
from engine.galaxy.attack import weapon_problem
from engine.galaxy.board import label
from engine.galaxy.content import Mission
from engine.galaxy.lifecycle import nearest_free, place_alien
from engine.galaxy.phases import fix_alpha
from engine.galaxy.ranks import rank_up
from engine.galaxy.state import AgentState, AlienState, Coord, GalaxyState, Pending
from engine.galaxy.strikeback import npc, suits
from engine.galaxy.strikeback.bodies import lift
from engine.galaxy.strikeback.lookups import worn
from engine.galaxy.strikeback.mission_rules import PROBE_SET, MissionRules, register
from engine.galaxy.strikeback.play import mark_hex, previous_result, sb
from engine.galaxy.strikeback.status import MissionState, mission_part, sb_state_or_none
from engine.galaxy.strikeback.travel import nearer
from engine.galaxy.strikeback.wings import top_rank
from engine.galaxy.world import (
    FACINGS,
    agent_name,
    alien_name,
    board_of,
    co,
    engaged,
    free,
    hex_arg,
    hx,
    max_hp,
    operative,
    weapon,
)

PROBES = 4
FULL_TEAM = 5  # ours: the Wormoon's card is for five agents; fewer meet it wounded
SMALLEST_TEAM = 2  # a lone agent meets it as a team of two does
PROBE_WAYPOINTS = (2, 3, 4)
LAIR = "wp1"
STAGE_ONE, STAGE_TWO = "wormoon-1", "wormoon-2"
EVENT_A, EVENT_D, EVENT_E = "os6-a", "os6-d", "os6-e"
# Ours (decisions B3, B8): the Wounds each stage enters with, by team size (missing: none);
# the card's numbers are for FULL_TEAM: five meet 12 / 22, four 9 / 16, three 7 / 13, two 2 / 4
# (B10: since the box's one token of each power, four and three agents start mission 6 weaker)
ENTRY_WOUNDS = {STAGE_ONE: {4: 3, 3: 5, 2: 10}, STAGE_TWO: {4: 6, 3: 9, 2: 18}}
ASK_PROBE, ASK_NPC, ASK_ARCHON = "probe", "npc", "archon"


class HuntState(MissionState):
    """Mission 6: the Underground Probes, the Moon Rifts and the swallowed Alpha Agent."""

    key: str = "os6"
    carriers: list[str] = Field(default_factory=list)  # agents carrying a probe
    dropped: list[tuple[int, int]] = Field(default_factory=list)  # probes lying on hexes
    deployed: list[int] = Field(default_factory=list)  # Waypoints with a probe on them
    deploy_from: int = 0  # the round probes may be deployed from (0: not yet)
    rifts: list[tuple[int, int]] = Field(default_factory=list)  # Moon Rift hexes
    swallowed: str = ""  # the agent inside the Wormoon
    returned: bool = False  # the Wormoon came back at Stage II
    flags: list[str] = Field(default_factory=list)  # one-shot rules already applied
    legacy_group: ClassVar[str] = "hunt"
    legacy_fields: ClassVar[tuple[str, ...]] = (
        "carriers",
        "dropped",
        "deployed",
        "deploy_from",
        "rifts",
        "swallowed",
        "returned",
        "flags",
    )


def hunt(state: GalaxyState) -> HuntState:
    return mission_part(state, HuntState)


def wormoon_in_play(state: GalaxyState) -> bool:
    return any(a.card in (STAGE_ONE, STAGE_TWO) for a in state.aliens)


def on_map(state: GalaxyState) -> list[AgentState]:
    return [a for a in operative(state) if a.hex is not None]


def _away(state: GalaxyState, h: Hex, events: list[Event], why: str) -> None:
    """A figure standing where a rift opens steps to the first free neighbouring hex."""
    for figure in list(state.agents.values()):
        if figure.hex != co(h) or figure.dead:
            continue
        spots = [n for n in neighbours(h) if free(state, n)]
        if spots:
            dest = min(spots, key=lambda x: (x.r, x.q))
            figure.hex = co(dest)
            events.append(
                Moved(
                    figure=figure.id,
                    path=[label(h), label(dest)],
                    text=f"{agent_name(figure)} leaps clear of the {why} to {label(dest)}.",
                )
            )


class LastStarfighters(MissionRules):
    key = "os6"
    section = "Storybook 7 Mission 6"
    symbols = (
        SymbolView(
            kind="rift",
            text="RIFT",
            colour="orange",
            cover="night",
            legend="dark hex, RIFT: Moon Rift (no one stops on it)",
        ),
        PROBE_SET,
        SymbolView(
            kind="probe",
            on="token",
            text="Pr",
            colour="sky",
            shape="circle",
            legend="blue circle Pr: Underground Probe lying on the ground",
        ),
    )
    state = HuntState
    effects = (
        "rift",
        "shake",
        "ranks-up",
        "swallow-alpha",
        "wormoon-dives",
        "probes-ready",
        "wormoon-returns",
    )
    actions = ("deploy-probe",)
    conditions = ("wormoon-dead", "event-drawn:")
    quiet_signals = True  # "ignore any effect that teleports and/or moves Signals"
    terms = (
        (
            "deploy-probe",
            "Deploy a probe",
            "Action, not Engaged, carrying a probe: set it next to Waypoint 2, 3 or 4",
        ),
        ("probe", "Underground Probe", "A probe to set by an obelisk; three find the Wormoon"),
        ("rift", "Moon Rift", "A chasm two hexes long: no one stops on it, agents cannot cross"),
        ("swallowed", "Swallowed", "Inside the Wormoon: out of play until it dies"),
        *(
            (f"wp{n}", f"Waypoint {n}", f"Waypoint {n}: an alien obelisk (probes go next to it)")
            for n in PROBE_WAYPOINTS
        ),
        ("wp1", "Waypoint 1", "Waypoint 1: the Wormoon's lair"),
    )

    # -- setup and Reinforcements -----------------------------------------------------------

    def begin(self, state: GalaxyState, mission: Mission, dice: Dice) -> None:
        layer = sb(state)
        layer.mission_state = HuntState()
        layer.master_down = EVENT_A
        # NPC deck: the Archons out, one random Knight set aside for the first Reinforcements
        knights = [c for c in layer.npc_deck if c.startswith("knight")]
        layer.npc_deck = shuffle(dice, knights)
        events: list[Event] = []
        spot = nearest_free(state, mark_hex(state, LAIR))
        assert spot is not None
        _sized(state, place_alien(state, STAGE_ONE, spot, events, "lurks"), events)
        suits.stock_headquarters(state, 2, 3, events)  # a Mark II with 3 Batteries

    def reinforcements(self, state: GalaxyState, dice: Dice, events: list[Event]) -> None:
        """The first Strategy phase: the Wormoon's card and the Menace token to the Alpha Agent;
        the probes, the random NPC (and an Archon after an accomplished mission 5) handed out."""
        mine = hunt(state)
        if "reinforced" in mine.flags:
            return
        mine.flags.append("reinforced")
        layer = sb(state)
        for worm in [a for a in state.aliens if a.card in (STAGE_ONE, STAGE_TWO)]:
            worm.controller = state.alpha
        if layer.menace is not None:
            layer.menace.owner, layer.menace.level = state.alpha, 1
        events.append(
            Note(text="The Wormoon's card and the Menace token (Level 1) go to the Alpha Agent.")
        )
        probes = min(PROBES, len(on_map(state)))
        layer.asks += [ASK_PROBE] * probes + [ASK_NPC]
        self._leave_spare_probes(state, PROBES - probes, events)
        if previous_result(state) == "accomplished":
            layer.asks.append(ASK_ARCHON)

    def _leave_spare_probes(self, state: GalaxyState, spare: int, events: list[Event]) -> None:
        """Ours: with fewer than four agents the probes nobody may carry stay at the landing
        zone, on the GD Start hexes no agent stands on, to be picked up by walking onto them."""
        taken = {a.hex for a in state.agents.values() if a.hex is not None}
        spots = [h for h in board_of(state).starts if co(h) not in taken][:spare]
        for h in spots:
            hunt(state).dropped.append(co(h))
        if spots:
            where = ", ".join(label(h) for h in spots)
            events.append(Note(text=f"The Underground Probes nobody carries stay at {where}."))

    def open_ask(self, state: GalaxyState, ask: str) -> Pending | None:
        mine = hunt(state)
        agents = [a.id for a in on_map(state)]
        if ask == ASK_PROBE:
            options = [a for a in agents if a not in mine.carriers]
            question = "Who carries an Underground Probe (one each)"
        else:
            options = agents
            question = "Who takes the NPC (it stands next to him)"
        if not options or not state.alpha:
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
        ask = str(pending.data["ask"])
        agent = state.agents[option]
        if ask == ASK_PROBE:
            hunt(state).carriers.append(option)
            events.append(Note(text=f"{agent_name(agent)} carries an Underground Probe."))
            return True
        layer = sb(state)
        if ask == ASK_ARCHON:
            layer.npc_deck.insert(0, "archon-1")
        # arrive_beside takes the top card; no die is rolled for an NPC placed beside him
        npc.arrive_beside(state, option, SeededDice(0), events)
        return True

    # -- Special Event effects ----------------------------------------------------------------

    def apply_effect(
        self,
        state: GalaxyState,
        kind: str,
        effect: dict[str, object],
        dice: Dice,
        events: list[Event],
    ) -> None:
        mine = hunt(state)
        if kind == "rift":
            marks = [str(m) for m in effect["marks"]]  # type: ignore[attr-defined]
            for name in marks:
                h = mark_hex(state, name)
                _away(state, h, events, "Moon Rift")
                if co(h) not in mine.rifts:
                    mine.rifts.append(co(h))
            where = " and ".join(label(mark_hex(state, m)) for m in marks)
            events.append(Note(text=f"The ground splits: a Moon Rift opens over {where}."))
        elif kind == "shake":
            self._shake(state, dice, events)
        elif kind == "ranks-up":
            for agent in on_map(state):
                if agent.rank < top_rank(state):  # "if possible": not past the table's top
                    rank_up(state, agent, events)
        elif kind == "swallow-alpha":
            self._swallow(state, events)
        elif kind == "wormoon-dives":
            self._dive(state, events)
        elif kind == "probes-ready":
            mine.deploy_from = state.round + 1
            events.append(
                Note(text="From the next round the probes can be set next to Waypoints 2, 3, 4.")
            )
        else:  # wormoon-returns
            self._surface(state, events)

    def _shake(self, state: GalaxyState, dice: Dice, events: list[Event]) -> None:
        poses_on = state.options.get("fighting-poses") == "on"
        for agent in on_map(state):
            face = gdice.roll(dice, "blue", 1)[0]
            if gdice.SHIELD in gdice.symbols("blue", face):
                events.append(Note(text=f"{agent_name(agent)} keeps his footing (Shield)."))
                continue
            shown = gdice.said("blue", [face])
            fall = "is thrown Prone" if poses_on else "is shaken"
            events.append(Note(text=f"{agent_name(agent)} {fall} ({shown})."))
            combat.wound_agent(state, agent, 1, events, "the quake")
            if poses_on and not agent.dead:
                sb(state).poses[agent.id] = "prone"

    def _swallow(self, state: GalaxyState, events: list[Event]) -> None:
        agent = state.agents.get(state.alpha)
        if agent is None or agent.dead or agent.hex is None:
            return
        mine = hunt(state)
        if agent.id in mine.carriers:  # his probe stays where he stood
            mine.carriers.remove(agent.id)
            mine.dropped.append(agent.hex)
        agent.hex = None
        agent.dead = True  # Inoperative: he skips his turns (storybook: "counts as inoperative")
        mine.swallowed = agent.id
        events.append(
            Note(text=f"The Wormoon swallows {agent_name(agent)}: his player is Inoperative.")
        )
        fix_alpha(state, events)

    def _dive(self, state: GalaxyState, events: list[Event]) -> None:
        layer = sb(state)
        for worm in [a for a in state.aliens if a.card in (STAGE_ONE, STAGE_TWO)]:
            state.aliens.remove(worm)
            lift(state, worm)
            layer.stacks.pop(worm.id, None)
            layer.held = [h for h in layer.held if h != worm.id]
            events.append(Note(text=f"{alien_name(worm)} dives deep under the regolith."))

    def _surface(self, state: GalaxyState, events: list[Event]) -> None:
        mine = hunt(state)
        if mine.returned or wormoon_in_play(state):
            return
        spot = nearest_free(state, mark_hex(state, LAIR))
        if spot is None:
            return
        mine.returned = True
        worm = place_alien(state, STAGE_TWO, spot, events, "bursts out of its lair (Stage II)")
        _sized(state, worm, events)

    # -- Underground Probes --------------------------------------------------------------------

    def entered(
        self, state: GalaxyState, agent: AgentState, h: Hex, dice: Dice, events: list[Event]
    ) -> None:
        mine = hunt(state)
        if co(h) in mine.dropped and agent.id not in mine.carriers and agent.drone_of is None:
            mine.dropped.remove(co(h))
            mine.carriers.append(agent.id)
            events.append(Note(text=f"{agent_name(agent)} picks up an Underground Probe."))

    def agent_died(self, state: GalaxyState, agent: AgentState, events: list[Event]) -> None:
        mine = hunt(state)
        if agent.id in mine.carriers and agent.hex is not None:
            mine.carriers.remove(agent.id)
            mine.dropped.append(agent.hex)
            events.append(Note(text=f"An Underground Probe lies at {label(hx(agent.hex))}."))

    def _probe_spot(self, state: GalaxyState, agent: AgentState, wp: int) -> bool:
        """Next to the Waypoint, the obelisk's Blocking sides ignored (so: 1 hex away)."""
        assert agent.hex is not None
        return distance(hx(agent.hex), mark_hex(state, f"wp{wp}")) == 1

    def action_problem(
        self, state: GalaxyState, agent: AgentState, what: str, args: dict[str, str]
    ) -> str | None:
        mine = hunt(state)
        if agent.id not in mine.carriers:
            return "carries no Underground Probe"
        if not mine.deploy_from or state.round < mine.deploy_from:
            return "cannot deploy a probe yet (from the round after Special Event A)"
        if engaged(state, agent):
            return "is Engaged in combat"
        wp = _waypoint(args.get("target", ""))
        if wp is None:
            return "must name Waypoint 2, 3 or 4 (target:wp2)"
        if wp in mine.deployed:
            return f"finds a probe already at Waypoint {wp}"
        if not self._probe_spot(state, agent, wp):
            return f"must stand next to Waypoint {wp}"
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
        wp = _waypoint(args.get("target", ""))
        if wp is None:
            raise RuleError("Name Waypoint 2, 3 or 4 (target:wp2).")
        mine = hunt(state)
        mine.carriers.remove(agent.id)
        mine.deployed.append(wp)
        events.append(
            Note(
                text=f"{agent_name(agent)} drives an Underground Probe in by Waypoint {wp} "
                f"({len(mine.deployed)}/{len(PROBE_WAYPOINTS)})."
            )
        )
        if sorted(mine.deployed) == list(PROBE_WAYPOINTS) and "found" not in mine.flags:
            mine.flags.append("found")
            state.event_deck.put_on_top(EVENT_D)
            events.append(
                Note(text="The probes find the Wormoon: a Special Event goes on top of the deck.")
            )

    def legal_actions(self, state: GalaxyState, agent: AgentState) -> list[Action]:
        return self.offered(
            state,
            agent,
            (
                (
                    "deploy-probe",
                    {"target": f"wp{wp}"},
                    f"deploy the Underground Probe by Waypoint {wp}",
                )
                for wp in PROBE_WAYPOINTS
            ),
        )

    # -- objectives, board and advice ----------------------------------------------------------

    def alpha_advice(self, state: GalaxyState, options: list[str]) -> str | None:
        """Special Event A swallows the Alpha Agent: hand the token to the agent the team can
        best spare (`_spared_last`)."""
        agents = [o for o in options if o in state.agents and state.agents[o].hex is not None]
        return min(agents, key=lambda o: _spared_last(state, o)) if agents else None

    def counts(self, state: GalaxyState) -> list[tuple[str, str]]:
        mine = hunt(state)
        if mine.returned and not wormoon_in_play(state):
            shown = "dead"
        elif mine.returned:
            shown = "back on the board"
        else:
            shown = "still underground" if not wormoon_in_play(state) else "on the board"
        return [("Wormoon", shown)]

    def condition(self, state: GalaxyState, cond: str) -> bool:
        if cond == "wormoon-dead":
            return hunt(state).returned and not wormoon_in_play(state)
        if cond.startswith("event-drawn:"):
            return cond.split(":", 1)[1] in state.event_deck.discard_pile
        return False

    def lit_marks(self, state: GalaxyState) -> dict[str, str]:
        mine = hunt(state) if sb_state_or_none(state) is not None else HuntState()
        lit = {f"wp{n}": "probe" for n in mine.deployed}
        for name in ("m1", "m2", "m3", "m4"):
            if co(mark_hex(state, name)) in mine.rifts:
                lit[name] = "rift"
        return lit

    def tokens(self, state: GalaxyState, seat: str | None) -> list[tuple[str, str, str]]:
        """Underground Probes lying where their carriers fell."""
        mine = hunt(state) if sb_state_or_none(state) is not None else HuntState()
        return [(label(hx(c)), "probe", "probe") for c in mine.dropped]

    def occupant(self, state: GalaxyState, spot: Coord) -> str | None:
        return "rift" if spot in hunt(state).rifts else None  # no figure stands on it

    def kept_out(self, state: GalaxyState) -> tuple[str, ...]:
        swallowed = hunt(state).swallowed  # inside the Wormoon: no revival
        return (swallowed,) if swallowed else ()

    def advice(self, state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
        """Deploy a probe when he can; shoot the Wormoon when it can be hit (the weapon with
        the most dice, an Alien Weapon only with Alien Knowledge); a carrier walks toward the
        obelisk the share-out leaves him, and an agent without one picks up a lying probe
        (`probe_goals`); once Stage II is up, the others close in on it."""

        found = next((a for a in actions if a.args.get("what") == "deploy-probe"), None)
        if found is not None:
            return found
        held = sb(state).held  # at 0 HP and fighting on: wounds no longer matter
        worms = {a.id for a in state.aliens if a.card in (STAGE_ONE, STAGE_TWO)} - set(held)
        knows = "alien-knowledge" in agent.skills

        def dice_of(a: Action) -> int:
            """Its strength: RED/BLUE dice, or its fixed Hits (the Fusion Lance rolls none)."""
            w = weapon(a.args.get("weapon", ""))
            return -1 if w.tier == "alien" and not knows else w.dice + w.blue + (w.fixed or 0)

        shots = [
            a
            for a in actions
            if a.verb == "attack" and a.args.get("target") in worms and "weapon" in a.args
        ]
        if shots:
            best = max(shots, key=lambda a: (dice_of(a), a.args.get("mode", "") == "area"))
            if dice_of(best) > 0:
                return booster(agent, actions, weapon(best.args["weapon"]).kind) or best
        turn = _turn_to(state, agent, actions, worms)
        if turn is not None:
            return turn
        goals, ring = probe_goals(state, agent)
        stage_two = [hx(a.hex) for a in state.aliens if a.card == STAGE_TWO and a.id in worms]
        if not goals and stage_two:  # the last fight: close in to the surfaced Wormoon
            goals, ring = stage_two, 1
        moves = [a for a in actions if a.verb == "move"]
        if not goals or agent.hex is None:
            return None

        def off(h: Hex) -> int:  # steps from where he wants to stand (next to an obelisk)
            return min(abs(distance(h, g) - ring) for g in goals)

        here = off(hx(agent.hex))

        def gap(a: Action) -> int:
            return off(hex_arg(a.args["to"]))

        walk = min(moves, key=lambda a: (gap(a), a.args["to"])) if moves else None
        if walk is not None and gap(walk) < here:
            return walk
        return nearer(actions, lambda a: (gap(a),), (here,))  # Jet Boots or Phase Step


def _turn_to(
    state: GalaxyState,
    agent: AgentState,
    actions: list[Action],
    worms: set[str],
) -> Action | None:
    """Turn to bring the Wormoon into the front hexes when it is out of his arc and no weapon
    of his can reach it as he stands: it is the mission's one target, whatever else is near.
    (Without the "as he stands" check two facings that both reach it sent him back and forth
    for ever: campaign seed 10005, four agents.)"""
    if agent.combat_used or not worms:
        return None
    targets = [a for a in state.aliens if a.id in worms]

    def reaches(who: AgentState) -> bool:
        for index, ws in enumerate(who.weapons):
            w = weapon(ws.key)
            usable = w.kind != "healing" and (
                w.tier != "alien" or "alien-knowledge" in agent.skills
            )
            if usable and any(weapon_problem(state, who, index, x) is None for x in targets):
                return True
        return False

    if reaches(agent):
        return None
    for a in actions:
        order = a.args.get("order", "")
        if a.verb != "orders" or not order.startswith("face-"):
            continue
        turned = agent.model_copy(update={"facing": FACINGS.index(order[len("face-") :].upper())})
        if reaches(turned):
            return a
    return None


def _sized(state: GalaxyState, worm: AlienState, events: list[Event]) -> None:
    """Ours: the Wormoon's card is sized for a team of five; a smaller team meets each stage
    with Wounds already on it (`ENTRY_WOUNDS` per stage and team size, a lone agent counted as
    two)."""
    team = max(SMALLEST_TEAM, min(FULL_TEAM, len(state.seats)))
    wounds = ENTRY_WOUNDS[worm.card].get(team, 0)
    if not wounds:
        return
    worm.wounds = wounds
    events.append(
        Note(
            text=f"{alien_name(worm)} enters with {counted(worm.wounds, 'Wound')}: a team of "
            f"{len(state.seats)} meets a Wormoon sized for {FULL_TEAM}."
        )
    )


def _spared_last(state: GalaxyState, agent_id: str) -> tuple[bool, int, str]:
    """Who the team can best spare inside the Wormoon: not the Power Suit's pilot, then the
    fewest Health points left."""
    agent = state.agents[agent_id]
    return (worn(state, agent_id) is not None, max_hp(agent) - agent.wounds, agent_id)


def probe_goals(state: GalaxyState, agent: AgentState) -> tuple[list[Hex], int]:
    """Where the advisor walks an agent once probes may be deployed: a carrier to the obelisk
    the carriers' nearest-first share-out leaves him (each obelisk wants one probe); an agent
    without one to a probe lying on the map while the carriers are fewer than the obelisks
    still to fill. With the distance to stand at: 1 from an obelisk (the probe goes in next to
    it, not on it), 0 on a lying probe."""
    mine = hunt(state)
    if not mine.deploy_from or agent.hex is None:
        return [], 0
    left = [n for n in PROBE_WAYPOINTS if n not in mine.deployed]
    carriers = [a for a in on_map(state) if a.id in mine.carriers]
    if agent.id not in mine.carriers:
        if len(carriers) >= len(left):
            return [], 0
        return [hx(c) for c in mine.dropped], 0
    pairs = sorted(
        (distance(hx(a.hex), mark_hex(state, f"wp{n}")), a.id, n)
        for a in carriers
        if a.hex is not None
        for n in left
    )
    taken: dict[str, int] = {}
    for _, who, n in pairs:
        if who not in taken and n not in taken.values():
            taken[who] = n
    mine_wp = taken.get(agent.id)
    wps = [mine_wp] if mine_wp is not None else left
    return [mark_hex(state, f"wp{n}") for n in wps], 1


def _waypoint(text: str) -> int | None:
    text = text.lower().removeprefix("wp")
    return int(text) if text.isdigit() and int(text) in PROBE_WAYPOINTS else None


register(LastStarfighters())
