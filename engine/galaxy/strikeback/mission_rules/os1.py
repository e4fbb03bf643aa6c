"""Mission 1 (storybook 7): the burning shuttle. Fires on the four Waypoints (one at Special
Event B, one more every Event phase after it), two Firefighters the Alpha Agent names, who
put a fire out with their Action and recharge with another, and the "fires" objectives."""

from __future__ import annotations

from typing import ClassVar

from pydantic import Field

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.game import Action
from engine.core.hexgrid import distance
from engine.galaxy.board import label
from engine.galaxy.state import AgentState, GalaxyState, Pending
from engine.galaxy.strikeback.mission_rules import MissionRules, register
from engine.galaxy.strikeback.play import mark_hex, sb
from engine.galaxy.strikeback.status import MissionState, mission_part, sb_state_or_none
from engine.galaxy.world import adjacent, agent_name, co, hex_arg, hx, mission_of, operative

WAYPOINTS = 4
FIREFIGHTERS = 2


class FireState(MissionState):
    """The fires and the Fire Extinguishers of mission 1."""

    key: str = "os1"
    flames: list[int] = Field(default_factory=list)  # burning Waypoints
    flames_from: int = 0  # from this round on every Event phase sets a fire (0: never)
    firefighters: dict[str, bool] = Field(default_factory=dict)  # agent -> extinguisher charged
    legacy_fields: ClassVar[tuple[str, ...]] = ("flames", "flames_from", "firefighters")


def fire(state: GalaxyState) -> FireState:
    return mission_part(state, FireState)


def burning(state: GalaxyState) -> list[int]:
    return sorted(fire(state).flames) if sb_state_or_none(state) is not None else []


def set_fire(state: GalaxyState, waypoint: int, events: list[Event]) -> None:
    if waypoint not in fire(state).flames:
        fire(state).flames.append(waypoint)
        at = label(mark_hex(state, f"wp{waypoint}"))
        events.append(
            Note(text=f"FIRE at Waypoint {waypoint} ({at}): {len(fire(state).flames)} burning.")
        )


def next_fire(state: GalaxyState, events: list[Event]) -> None:
    free_wps = [n for n in range(1, WAYPOINTS + 1) if n not in fire(state).flames]
    if free_wps:
        set_fire(state, free_wps[0], events)


def _waypoint_arg(text: str) -> int | None:
    text = text.lower().removeprefix("wp")
    return int(text) if text.isdigit() and 1 <= int(text) <= WAYPOINTS else None


class FarSideCrash(MissionRules):
    key = "os1"
    section = "Storybook 7 Mission 1"
    state = FireState
    effects = ("firefighters", "flame", "flame-next", "flames-every-event")
    actions = ("extinguish", "recharge")
    conditions = ("flames>=", "flames<=")
    terms = (
        (
            "extinguish",
            "Extinguish",
            "Firefighter Action: next to a burning Waypoint, put the fire out",
        ),
        ("recharge", "Recharge", "Firefighter Action: refill the Fire Extinguisher"),
        ("flame", "Fire", "A burning fuel cell; four at once lose the mission"),
        *(
            (
                f"wp{n}",
                f"Waypoint {n}",
                f"Waypoint {n}: a fuel cell of the shuttle that can catch fire",
            )
            for n in range(1, WAYPOINTS + 1)
        ),
    )

    def apply_effect(
        self,
        state: GalaxyState,
        kind: str,
        effect: dict[str, object],
        dice: Dice,
        events: list[Event],
    ) -> None:
        layer = sb(state)
        if kind == "firefighters":
            layer.asks.append("firefighter")
        elif kind == "flame":
            set_fire(state, int(str(effect["waypoint"])), events)
        elif kind == "flame-next":
            next_fire(state, events)
        else:  # flames-every-event
            fire(state).flames_from = state.round + 1
            events.append(Note(text="From the next round, every Event phase sets a new fire."))

    def after_event(self, state: GalaxyState, dice: Dice, events: list[Event]) -> None:
        if fire(state).flames_from and state.round >= fire(state).flames_from:
            next_fire(state, events)

    def open_ask(self, state: GalaxyState, ask: str) -> Pending | None:
        options = [
            a.id
            for a in operative(state)
            if a.hex is not None and a.id not in fire(state).firefighters
        ]
        if not options or not state.alpha:
            return None
        return Pending(
            kind="sb-mission",
            seat=state.alpha,
            options=options,
            data={"ask": ask, "question": "Name a Firefighter (gets a Fire Extinguisher)"},
        )

    def finish_choice(
        self, state: GalaxyState, pending: Pending, option: str, events: list[Event]
    ) -> bool:
        fire(state).firefighters[option] = True
        agent = state.agents[option]
        events.append(Note(text=f"{agent_name(agent)} is a Firefighter (Fire Extinguisher)."))
        others = [
            a
            for a in operative(state)
            if a.hex is not None and a.id not in fire(state).firefighters
        ]
        return len(fire(state).firefighters) >= FIREFIGHTERS or not others

    def action_problem(
        self, state: GalaxyState, agent: AgentState, what: str, args: dict[str, str]
    ) -> str | None:
        assert agent.hex is not None
        if agent.id not in fire(state).firefighters:
            return "is not a Firefighter"
        if what == "recharge":
            return (
                None
                if not fire(state).firefighters[agent.id]
                else "has a charged Fire Extinguisher"
            )
        if not fire(state).firefighters[agent.id]:
            return "must recharge his Fire Extinguisher first"
        wp = _waypoint_arg(args.get("target", ""))
        if wp is None or wp not in fire(state).flames:
            return "must name a burning Waypoint (target:wp1..wp4)"
        spot = mark_hex(state, f"wp{wp}")
        if co(spot) != agent.hex and not adjacent(state, agent.hex, co(spot)):
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
        if what == "extinguish":
            wp = _waypoint_arg(args.get("target", ""))
            if wp is None:
                raise RuleError("Name a burning Waypoint (target:wp1..wp4).")
            fire(state).flames.remove(wp)
            fire(state).firefighters[agent.id] = False
            events.append(Note(text=f"{agent_name(agent)} puts out the fire at Waypoint {wp}."))
        else:
            fire(state).firefighters[agent.id] = True
            events.append(Note(text=f"{agent_name(agent)} recharges his Fire Extinguisher."))

    def legal_actions(self, state: GalaxyState, agent: AgentState) -> list[Action]:
        fires = [
            ("extinguish", {"target": f"wp{wp}"}, f"put out the fire at Waypoint {wp}")
            for wp in fire(state).flames
        ]
        return self.offered(
            state, agent, [*fires, ("recharge", {}, "recharge the Fire Extinguisher")]
        )

    def condition(self, state: GalaxyState, cond: str) -> bool:
        flames = len(burning(state))
        if cond.startswith("flames>="):
            return flames >= int(cond[len("flames>=") :])
        if cond.startswith("flames<="):
            return flames <= int(cond[len("flames<=") :])
        return False

    def counts(self, state: GalaxyState) -> list[tuple[str, str]]:
        """The fires burning, with the numbers the objectives judge them by."""
        rows = mission_of(state).objectives
        lose = next((c for o in rows for c in o.when if c.startswith("flames>=")), None)
        win = next(
            (
                c
                for o in rows
                if o.result == "accomplished"
                for c in o.when
                if c.startswith("flames<=")
            ),
            None,
        )
        terms = []
        if win:
            terms.append(f"at most {win[len('flames<=') :]} at the end to accomplish")
        if lose:
            terms.append(f"{lose[len('flames>=') :]} fail")
        told = f" ({'; '.join(terms)})" if terms else ""
        return [("fires", f"{len(burning(state))} burning{told}")]

    def lit_marks(self, state: GalaxyState) -> dict[str, str]:
        return {f"wp{n}": "flame" for n in burning(state)}

    def advice(self, state: GalaxyState, agent: AgentState, actions: list[Action]) -> Action | None:
        """A Firefighter puts out fires: extinguish, recharge, else walk to the nearest fire."""
        if agent.id not in fire(state).firefighters or agent.hex is None:
            return None
        for what in ("extinguish", "recharge"):
            found = next((a for a in actions if a.args.get("what") == what), None)
            if found is not None and (what == "extinguish" or burning(state)):
                return found
        fires = [mark_hex(state, f"wp{n}") for n in burning(state)]
        moves = [a for a in actions if a.verb == "move"]
        if not fires or not moves:
            return None
        here = min(distance(hx(agent.hex), f) for f in fires)

        def gap(a: Action) -> int:
            dest = hex_arg(a.args["to"])
            return min(distance(dest, f) for f in fires)

        best = min(moves, key=lambda a: (gap(a), a.args["to"]))
        return best if gap(best) < here else None


register(FarSideCrash())
