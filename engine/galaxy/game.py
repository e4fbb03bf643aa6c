"""The Galaxy Defenders game object: the engine contract over the rules modules."""

from __future__ import annotations

from typing import Any

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.events import Event, Note
from engine.core.game import (
    Action,
    OptionInfo,
    Prompt,
    RoleInfo,
    ScenarioInfo,
    Step,
    scenario_info,
)
from engine.core.view import SummaryView, View
from engine.galaxy import actions, advisor, campaign, drones, leader, legal, phases, supply
from engine.galaxy import agent as turn
from engine.galaxy.aliens import FIRST, do_first_order
from engine.galaxy.content import Mission, content
from engine.galaxy.expansion import expanded, hooks, loaded
from engine.galaxy.legal import choice_label, pending_text
from engine.galaxy.lifecycle import check_all_dead
from engine.galaxy.state import GalaxyState
from engine.galaxy.view import build_view, ended_summary
from engine.galaxy.world import agent_name, find_agent, hex_arg, mission_of, seat_label

# High Impact's default as printed (storybook 5.5.1, "Default = On"): on wherever the expansion
# is played as such, off in a core mission or campaign unless a table switches it on.
PRINTED = "printed"


def expansion_switch(key: str, description: str) -> OptionInfo:
    """An Operation Strikeback optional rule a core mission may switch on (default off)."""
    return OptionInfo(key=key, description=description, choices=["off", "on"], default="off")


def game_options() -> list[OptionInfo]:
    """The table options; the expansion's preset names come from the loaded expansion."""
    return [
        OptionInfo(
            key="human-view",
            description="Agents attack only through their 3 front hexes and turn at the end "
            "of their Movement",
            choices=["on", "off"],
            default="on",
        ),
        OptionInfo(
            key="friendly-fire",
            description="Agents can hurt each other",
            choices=["off", "on"],
            default="off",
        ),
        OptionInfo(
            key="close-fight",
            description="Engaged agents may only attack the aliens they are Engaged with",
            choices=["off", "on"],
            default="off",
        ),
        OptionInfo(
            key="start-rank",
            description="GD-Wings rank the agents bring from earlier missions of the campaign",
            choices=["copper", "bronze", "silver", "gold", "palladium", "platinum"],
            default="copper",
        ),
        OptionInfo(
            key="rank-limit",
            description="standalone: no limit on GD-Wings ranks; campaign: one rank per mission",
            choices=["standalone", "campaign"],
            default="standalone",
        ),
        OptionInfo(
            key="permanent-death",
            description="A dead agent stays dead for the mission",
            choices=["off", "on"],
            default="off",
        ),
        OptionInfo(
            key="high-impact",
            description="Operation Strikeback's optional rule: at most 5 Defend dice per attack "
            "(printed: on in the expansion's missions and campaign, off in the core's)",
            choices=[PRINTED, "off", "on"],
            default=PRINTED,
        ),
        expansion_switch(
            "fighting-poses",
            "Operation Strikeback's optional rule: agents stand, crouch or lie prone",
        ),
        expansion_switch(
            "npc-signals",
            "Operation Strikeback 10.5: one Human Signal becomes an NPC Signal (allies)",
        ),
    ] + [
        OptionInfo(
            key=ex.OPTION,
            description="Storybook preset of five optional rules (custom: as set one by one)",
            choices=[ex.CUSTOM, *ex.PRESETS],
            default=ex.CUSTOM,
        )
        for ex in loaded()
    ]


# Operation Strikeback's optional rules a core mission may use (they switch the layer on)
EXPANSION_SWITCHES = ("high-impact", "fighting-poses", "npc-signals")


# The campaign's layer switch: `expansion:strikeback` plays the Operation Strikeback campaign
# (engine/galaxy/strikeback/); its sections not built yet are refused by name.
def expansion_option() -> OptionInfo:
    return OptionInfo(
        key="expansion",
        description="core: the core campaign; strikeback: the Operation Strikeback campaign",
        choices=["core", *(ex.EXPANSION for ex in loaded())],
        default="core",
    )


ROLES = [
    RoleInfo(
        key=key,
        name=f"{p.codename} ({p.class_})",
        required=False,
        description=content().abilities[p.ability].name,
    )
    for key, p in content().agents.items()
]


def expansion_missions() -> dict[str, Mission]:
    """The missions of every loaded expansion, by key."""
    return {k: m for ex in loaded() for k, m in ex.missions().items()}


# The key a saved game keeps the expansion's part under (the one expansion shipped so far
# saved it there before the core named the slot generically; stored games keep loading).
SAVED_KEY = "strikeback"


class GalaxyDefenders:
    key = "galaxy-defenders"
    title = "Galaxy Defenders"

    def scenarios(self) -> list[ScenarioInfo]:
        return [
            ScenarioInfo(
                key=m.key,
                title=m.title,
                summary=m.summary,
                roles=ROLES,
                min_seats=1,
                max_seats=5,
                options=game_options(),
            )
            for m in [*content().missions.values(), *expansion_missions().values()]
        ] + [
            ScenarioInfo(
                key=campaign.CAMPAIGN,
                title="Campaign",
                summary="Missions "
                + " -> ".join(campaign.chain())
                + " in one game: ranks, skills and weapons carry over; a failed mission is "
                "replayed once. expansion:strikeback plays Operation Strikeback's six missions, "
                "the next one chosen by each result.",
                roles=ROLES,
                min_seats=1,
                max_seats=5,
                options=[o for o in game_options() if o.key != "rank-limit"] + [expansion_option()],
            )
        ]

    def new(
        self, scenario: str, seats: list[str], options: dict[str, str], dice: Dice
    ) -> GalaxyState:
        if (
            scenario not in content().missions
            and scenario not in expansion_missions()
            and scenario != campaign.CAMPAIGN
        ):
            known = ", ".join([*content().missions, *expansion_missions(), campaign.CAMPAIGN])
            raise ValueError(f"Unknown scenario '{scenario}'. Scenarios: {known}.")
        if not 1 <= len(seats) <= 5 or len(set(seats)) != len(seats):
            raise ValueError("Galaxy Defenders takes 1 to 5 different agents.")
        for seat in seats:
            if seat not in content().agents:
                raise ValueError(f"Unknown agent '{seat}'. Agents: {', '.join(content().agents)}.")
        options = scenario_info(self, scenario).resolve_options(options)
        strikeback = options.get("expansion") in {ex.EXPANSION for ex in loaded()}
        if options.get("high-impact") == PRINTED:
            printed_on = scenario in expansion_missions() or strikeback
            options["high-impact"] = "on" if printed_on else "off"
        if strikeback:
            hooks().require("Storybook 5 Strikeback campaign")
        # The expansion's switches stay out of a core game's options when off, so a core
        # game is saved (and fingerprinted) exactly as before the expansion existed.
        preset = hooks().apply_preset(options) if loaded() else None
        switched = [k for k in EXPANSION_SWITCHES if options.pop(k, "off") == "on"]
        if options.get("expansion") == "core":
            options.pop("expansion")
        state = phases.setup(scenario, seats, options, dice)
        if preset is not None and preset != hooks().CUSTOM:
            state.options[hooks().OPTION] = preset
        if switched or scenario in expansion_missions() or strikeback:
            state.options.update({k: "on" for k in switched})
            hooks().switch_on(state, high_impact="high-impact" in switched)
            if strikeback:
                hooks().start(state, dice)
            hooks().begin_mission(state, mission_of(state), dice)
        return state

    def waiting_on(self, state: GalaxyState) -> Prompt:
        if campaign.campaign_going_on(state):
            return Prompt(seats=[], kind="none", text=f"Mission {state.outcome}: next mission")
        if state.outcome is not None:
            return Prompt(
                seats=[], kind="none", finished=True, outcome=state.outcome, text=state.outcome_text
            )
        if state.pending is not None and state.pending.kind == "alpha":
            return Prompt(
                seats=leader.voters(state),
                kind="vote",
                text=leader.vote_text(state),
                default=_strategy_default(state),
            )
        if state.pending is not None:
            return Prompt(
                seats=[state.pending.seat],
                kind="choice",
                text=pending_text(
                    state.pending.kind,
                    state.pending.options,
                    str(state.pending.data.get("question", "")),
                ),
                default=_strategy_default(state),
                personal=state.pending.kind == "promote",  # a rank-up's tactic or skill
            )
        if state.phase == "agent":
            seat = state.turn_order[state.turn_index]
            return Prompt(seats=[seat], kind="turn", text=f"{seat_label(state, seat)}'s Agent turn")
        return Prompt(seats=[], kind="none")

    def legal_actions(self, state: GalaxyState, seat: str) -> list[Action]:
        prompt = self.waiting_on(state)
        if seat not in prompt.seats:
            return []
        if state.pending is not None and state.pending.kind == "alpha":
            return leader.ballot(state, seat)
        if state.pending is not None:
            return [
                Action(verb="choose", args={"option": o}, label=choice_label(o))
                for o in state.pending.options
            ]
        return legal.legal(state, state.agents[seat])

    def apply(self, state: GalaxyState, seat: str, action: Action, dice: Dice) -> Step[GalaxyState]:
        prompt = self.waiting_on(state)
        if prompt.finished:
            raise RuleError("The mission is over.")
        if seat not in prompt.seats:
            who = ", ".join(prompt.seats) or "the aliens"
            raise RuleError(f"It is not your turn: waiting on {who}.")
        new = state.model_copy(deep=True)
        events: list[Event] = []
        if new.pending is not None:
            if action.verb != "choose":
                answers = ", ".join(a.label for a in self.legal_actions(new, seat))
                raise RuleError(f"Answer the question first: {answers}.")
            if new.pending.kind == "alpha":  # any player proposes, the others agree
                leader.cast(new, seat, action.args.get("option", ""), events)
            else:
                self._choose(new, action.args.get("option", ""), dice, events)
        else:
            self._turn_action(new, seat, action, dice, events)
        return Step(state=new, events=events)

    def _choose(self, state: GalaxyState, option: str, dice: Dice, events: list[Event]) -> None:
        pending = state.pending
        assert pending is not None
        matched = next((o for o in pending.options if o.lower() == option.lower()), None)
        if matched is None:
            raise RuleError(f"'{option}' is not an option: {', '.join(pending.options)}.")
        option = matched
        if pending.kind == "boost":
            turn.finish_boost(state, int(option), dice, events)
        elif pending.kind == "search":
            actions.finish_search(state, option, dice, events)
        elif pending.kind == "promote":
            phases.finish_promotion(state, option, events, dice)
        elif pending.kind == "drone-move":
            drones.finish_drone_move(state, option, dice, events)
        elif pending.kind == "drone-attack":
            drones.finish_drone_attack(state, option, dice, events)
        elif pending.kind == "reinforce":
            supply.finish_reinforcements(state, option, dice, events)
        elif pending.kind == "accept":
            supply.finish_accept(state, option, events)
        elif pending.kind == "revive":
            supply.finish_revival(state, option, events)
        elif pending.kind == "deliver":
            supply.finish_delivery(state, option, events)
        elif pending.kind == "teleport":
            phases.finish_teleport(state, option, dice, events)
        elif pending.kind == "grenadier":
            actions.finish_grenade(state, option, dice, events)
        elif pending.kind.startswith("sb-"):  # an expansion's prompt
            hooks().answer(state, pending, option, events)
        self._after_agent_step(state, events, dice)

    def _turn_action(
        self, state: GalaxyState, seat: str, action: Action, dice: Dice, events: list[Event]
    ) -> None:
        unit = action.args.get("unit", seat).lower()
        if unit != seat:
            raise RuleError(f"You control {seat}, not '{unit}'.")
        agent = find_agent(state, seat)
        if "paralyze" in agent.conditions and action.verb != "end-turn":
            raise RuleError(f"{agent_name(agent)} is Paralyzed: he can only end the turn.")
        if action.verb == "end-turn":
            events.append(Note(text=f"{agent_name(agent)} ends the Agent turn."))
            if expanded(state):
                hooks().turn_ends(state, agent, dice, events, ended_by_player=True)
            if not check_all_dead(state, events):
                state.phase = "aliens"
            return
        if agent.hex is None:
            raise RuleError(f"{agent_name(agent)} is not on the battlefield.")
        # An expansion's verbs go to the loaded expansion even in a core game: it refuses them
        # by its own rule (Fighting Poses with the option off, ...).
        if action.verb == "move":
            turn.do_move(state, agent, hex_arg(action.args.get("to", "")), dice, events)
        elif action.verb == "attack":
            turn.do_attack(state, agent, action.args, dice, events)
        elif action.verb == "orders" and action.args.get("order", "").lower().startswith("face-"):
            turn.do_face(state, agent, action.args["order"][len("face-") :], events)
        elif action.verb == "orders" and action.args.get("order", "").lower().startswith(FIRST):
            do_first_order(state, agent, action.args["order"].lower(), events)
        elif loaded() and hooks().agent_command(
            state, agent, action.verb, action.args, dice, events
        ):
            pass  # an expansion's action or order
        elif action.verb == "act":
            actions.do_act(state, agent, action.args, dice, events)
        elif action.verb == "orders":
            turn.do_guard_order(agent, action.args.get("order", "").lower(), events)
        else:
            raise RuleError(f"Unknown command /{action.verb}.")
        self._after_agent_step(state, events, dice)

    def _after_agent_step(
        self, state: GalaxyState, events: list[Event], dice: Dice | None = None
    ) -> None:
        if check_all_dead(state, events) or state.pending is not None:
            return
        if state.phase != "agent":
            return
        if expanded(state):  # a Seize ends with the carrier's Movement (7.3)
            hooks().after_agent_step(state, events)
        agent = state.agents[state.turn_order[state.turn_index]]
        if agent.dead:
            phases.next_turn(state, events)  # a dead agent's player skips his Aliens turn too
        elif turn.turn_over(agent):
            events.append(Note(text=f"{agent_name(agent)} has used every activity."))
            if dice is not None and expanded(state):
                hooks().turn_ends(state, agent, dice, events, ended_by_player=False)
            if not check_all_dead(state, events):
                state.phase = "aliens"

    def advance(self, state: GalaxyState, dice: Dice) -> Step[GalaxyState]:
        prompt = self.waiting_on(state)
        if prompt.finished or prompt.seats:
            return Step(state=state, events=[])
        new = state.model_copy(deep=True)
        events: list[Event] = []
        phases.advance(new, dice, events)
        return Step(state=new, events=events)

    def advise(self, state: GalaxyState, seat: str, actions: list[Action]) -> Action | None:
        """A purposeful action for the seat (see engine/galaxy/advisor.py)."""
        return advisor.advise(state, seat, actions)

    def selfplay_extra(self, state: GalaxyState) -> dict[str, Any]:
        """Self-play's extra line for a campaign: every mission as played, in order."""
        if state.campaign is None:
            return {}
        return {"missions": [f"{r.mission}:{r.outcome}" for r in state.campaign.results]}

    def view(self, state: GalaxyState, seat: str | None) -> View:
        return build_view(state, seat, self.waiting_on(state))

    def ended_summary(self, state: GalaxyState) -> SummaryView | None:
        """The campaign mission that has just ended (`CampaignSummaries`)."""
        return ended_summary(state)

    def dump(self, state: GalaxyState) -> dict[str, Any]:
        data = state.model_dump(mode="json")
        part = data.pop("expansion", None)  # a core game saves exactly as before the expansion
        if part is not None:
            data[SAVED_KEY] = part
        return data

    def load(self, data: dict[str, Any]) -> GalaxyState:
        if SAVED_KEY in data:
            data = {k: v for k, v in data.items() if k != SAVED_KEY} | {
                "expansion": data[SAVED_KEY]
            }
        return GalaxyState.model_validate(data)


def _strategy_default(state: GalaxyState) -> Action | None:
    """What the table falls back to when a Strategy-phase choice goes unanswered.

    The Alpha Agent falls back to the class ranking, as the rulebook says; a reinforcement or
    promotion pick falls back to the first option offered, a revival to the first free GD
    Start Hex, a delivery to the Alpha Agent and a new weapon to the slot of its kind (our
    documented policies). The Alpha Agent's hex for a teleported newcomer falls back to the first
    of the closest free hexes in board order, a Grenadier's re-roll to every die without a Hit.
    Other choices in an agent's own turn have no default: the table waits.
    """
    pending = state.pending
    if pending is None or not pending.options:
        return None
    if pending.kind == "alpha":
        choice = leader.NO_AGREEMENT  # the players did not agree in time: the ranking
    elif pending.kind in ("reinforce", "promote", "teleport", "grenadier"):
        choice = pending.options[0]  # teleport: the first closest hex in board order;
        # grenadier: re-roll every die that shows no Hit
    elif pending.kind == "accept":
        choice = supply.default_replacement(state)
    elif pending.kind == "revive":
        choice = pending.options[0]  # come back, on the first free GD Start Hex
    elif pending.kind == "deliver":
        choice = supply.default_taker(state)
    elif pending.kind.startswith("sb-"):  # an expansion's prompt
        choice = hooks().default_answer(state, pending)
    else:
        return None
    return Action(verb="choose", args={"option": choice})
