"""The Forlorn: Hope game object: the engine protocol over the rules modules."""

from __future__ import annotations

from typing import Any

from engine.core.dice import Dice
from engine.core.errors import RuleError
from engine.core.game import Action, OptionInfo, Prompt, RoleInfo, ScenarioInfo, Step
from engine.core.view import View
from engine.forlorn import (
    actions,
    advisor,
    handover,
    placement,
    reactions,
    spawnchoice,
    xenoseat,
)
from engine.forlorn.content import scenarios, xeno_word
from engine.forlorn.setup import new_state
from engine.forlorn.state import ForlornState
from engine.forlorn.turn import marine_seats, run
from engine.forlorn.viewer import build_view, waiting

DIFFICULTY = OptionInfo(
    key="difficulty",
    description="Standard rules, or the operation's Trainee (easier) / Veteran (harder) changes",
    choices=["standard", "trainee", "veteran"],
    default="standard",
)
XENO = OptionInfo(
    key="xeno",
    description="Who plays the Xenos when a xeno seat is taken: a human, or the solitaire A.I.",
    choices=["human", "automatic"],
    default="human",
)
REACTIONS = OptionInfo(
    key="reactions",
    description="Mutation card reactions in the Marine phase: 'standing' (the Xeno player's own "
    "standing rules, asked in private only where she says), 'on' (asked after every Marine "
    "action), 'off' (never)",
    choices=["standing", "on", "off"],
    default="standing",
)


ACTIVATION = OptionInfo(
    key="activation",
    description="Automatic Xenos (13.2): the order the Marine player has them activate in, "
    "nearest a Marine first or farthest first",
    choices=["nearest", "farthest"],
    default="nearest",
)


def _roles(two_sided: bool) -> list[RoleInfo]:
    roles = [RoleInfo(key="marines", name="Marines", description="Commands the Marine squad")]
    if two_sided:
        roles.append(
            RoleInfo(
                key="xeno",
                name="Xeno",
                description="Plays the Xenos with hidden Mutation cards",
                required=False,
            )
        )
    for n in (2, 3):
        roles.append(
            RoleInfo(
                key=f"marines-{n}",
                name=f"Marines ({n})",
                description="Shares the Marine side: commands some of the Marines, same AP pool",
                required=False,
            )
        )
    return roles


# Arguments whose value the legal list does not enumerate: a move's optional `facing` (any
# reachable one), and a standing order's parameters (any AP budget 1-12 and range 1-30, spin,
# grenade and surge options); the rules code validates them.
FREE_ARGS = {"move": ("facing",), "orders": ("aps", "range", "spin", "weapon", "surge", "refuel")}


def _canon(action: Action) -> tuple[str, tuple[tuple[str, str], ...]]:
    skip = FREE_ARGS.get(action.verb, ())
    args = {
        k: v.strip().lower()
        for k, v in action.args.items()
        if v is not None and v.strip() and k not in skip
    }
    if args.get("surge") == "no":
        del args["surge"]  # the default: the pool pays
    return action.verb, tuple(sorted(args.items()))


def listed(action: Action, legal: list[Action]) -> bool:
    """Whether `action` is one of `legal`, up to case, spaces and the FREE_ARGS."""
    want = _canon(action)
    return any(_canon(a) == want for a in legal)


class ForlornGame:
    key = "forlorn-hope"
    title = "Forlorn: Hope"

    def scenarios(self) -> list[ScenarioInfo]:
        out = []
        for key, sc in scenarios().items():
            solo = bool(sc.solo)
            roles = _roles(not solo)
            out.append(
                ScenarioInfo(
                    key=key,
                    title=sc.title,
                    summary=sc.summary,
                    roles=roles,
                    min_seats=1,
                    max_seats=len(roles),
                    options=[DIFFICULTY, ACTIVATION]
                    if solo
                    else [DIFFICULTY, XENO, REACTIONS, ACTIVATION],
                )
            )
        return out

    def new(
        self, scenario: str, seats: list[str], options: dict[str, str], dice: Dice
    ) -> ForlornState:
        if "marines" not in seats:
            raise RuleError("The 'marines' seat is required.")
        return new_state(scenario, seats, options, dice)

    def waiting_on(self, state: ForlornState) -> Prompt:
        if state.phase == "over":
            return Prompt(seats=[], kind="none", finished=True, outcome=state.outcome)
        seats = waiting(state)
        if state.phase == "mulligan":
            return Prompt(
                seats=seats,
                kind="choice",
                text="Keep your Mutation cards or swap one or two, once.",
            )
        if state.phase == "xeno-place" and seats:
            first = state.placements[0]
            if first.kind == "egg":
                return Prompt(
                    seats=seats,
                    kind="choice",
                    text=f"Put each dropped Egg on one of the squares it touched "
                    f"({len(state.placements)} to place).",
                    default=placement.AUTO,
                )
            what = "Choose a Warrior or a Blaster" if first.kind == "special" else "Place a"
            if first.zone == "overflow":
                return Prompt(
                    seats=seats,
                    kind="choice",
                    text=f"Every Access Vent is taken: choose the square next to a vent for the "
                    f"spawning {xeno_word(first.kind)} ({len(state.placements)} to place).",
                    default=placement.MARINE_AUTO,
                )
            return Prompt(
                seats=seats,
                kind="choice",
                text=f"{what} {'' if first.kind == 'special' else xeno_word(first.kind) + ' '}"
                f"({len(state.placements)} to place).",
                default=placement.AUTO,
            )
        if state.phase == "deploy":
            return Prompt(seats=seats, text="Set up your Marines (squares and facings), then end.")
        if state.phase == "xeno-spawn" and seats:
            return Prompt(
                seats=seats,
                kind="choice",
                text=spawnchoice.prompt_text(state),
                default=spawnchoice.KEEP,
            )
        if state.phase == "marine" and state.reaction is not None:
            return Prompt(
                seats=seats,
                kind="choice",
                text=f"{state.reaction.text}: the Xeno player may react.",
                default=reactions.PASS,
                private=True,
            )
        if state.phase == "marine":
            pool = (
                handover.pool_words(state)
                if len(marine_seats(state)) > 1
                else f"{state.ap} AP to spend"
            )
            return Prompt(seats=seats, text=f"Marine phase, turn {state.turn}: {pool}.")
        if state.phase == "xeno" and seats:
            return Prompt(seats=seats, text=f"Xeno phase, turn {state.turn}: activate your Xenos.")
        return Prompt(seats=[], kind="none")

    def legal_actions(self, state: ForlornState, seat: str) -> list[Action]:
        listed = self._rules_legal(state, seat)
        if seat == "xeno":
            return listed
        return listed + handover.legal(state, seat)  # no Marine left, or asked for one

    def _rules_legal(self, state: ForlornState, seat: str) -> list[Action]:
        if seat == "xeno":
            # Her standing reaction rules may be changed at any time (10.0, in advance); they
            # come before ending her phase, which stays last.
            own, rules = self._xeno_actions(state), reactions.rule_orders(state)
            if own and own[-1].verb == "end-turn" and not own[-1].args:
                return [*own[:-1], *rules, own[-1]]
            return [*own, *rules]
        if state.reaction is not None:
            return []
        if state.phase == "xeno-place":
            return placement.legal(state) if seat in waiting(state) else []
        return actions.legal(state, seat)

    def _xeno_actions(self, state: ForlornState) -> list[Action]:
        """The Xeno seat's actions of the moment, before her reaction rules."""
        if state.xeno_human and state.reaction is not None:
            return reactions.legal(state)
        if state.xeno_human and state.phase == "marine":
            return xenoseat.card_actions(state, list(xenoseat.ANY_TIME))  # 10.0 any time
        if not state.xeno_human or state.phase not in (
            "xeno",
            "mulligan",
            "xeno-place",
            "xeno-spawn",
        ):
            return []
        if state.phase == "mulligan":
            return xenoseat.mulligan_options(state)
        if state.phase == "xeno-place":
            return [] if placement.marine_placing(state) else placement.legal(state)
        if state.phase == "xeno-spawn":
            return spawnchoice.legal(state)
        return xenoseat.legal(state)

    def apply(
        self, state: ForlornState, seat: str, action: Action, dice: Dice
    ) -> Step[ForlornState]:
        """Apply a seat's action. The rules code refuses a bad one with a specific message;
        what it would accept but `legal_actions` does not list is refused too (the contract),
        with the deliberate exceptions of `listed`."""
        if seat != "xeno" and handover.is_answer(action):
            new = state.model_copy(deep=True)
            events = handover.apply(new, seat, action)
            return Step(
                state=new, events=events + handover.newly_out(handover.out_seats(state), new)
            )
        step = self._apply(state, seat, action, dice)
        step.events += handover.newly_out(handover.out_seats(state), step.state)
        if not listed(action, self._listed_for(state, seat, action)):
            raise RuleError(
                f"'{action.command()}' is not one of your legal actions now "
                "(see the list of options)."
            )
        return step

    def _listed_for(self, state: ForlornState, seat: str, action: Action) -> list[Action]:
        """The legal actions `action` must be among (one Marine's, when it names one)."""
        uid = (action.args.get("unit") or "").strip().lower()
        if seat != "xeno" and state.reaction is None and state.phase == "marine" and uid:
            return actions.legal(state, seat, only=uid)
        return self.legal_actions(state, seat)

    def _apply(
        self, state: ForlornState, seat: str, action: Action, dice: Dice
    ) -> Step[ForlornState]:
        if state.phase == "over":
            raise RuleError("The operation is over.")
        new = state.model_copy(deep=True)
        if seat == "xeno":
            if not new.xeno_human:
                raise RuleError("The Xenos are played automatically in this operation.")
            if action.verb == "orders":
                events = reactions.set_rule(new, action)
            elif new.reaction is not None:
                events = reactions.apply(new, action, dice)
            elif new.phase == "xeno-place":
                if placement.marine_placing(new):
                    raise RuleError("Wait: the Marine player places the spawns beside full vents.")
                events = placement.apply(new, action, dice)
            elif new.phase == "xeno-spawn":
                events = spawnchoice.apply(new, action, dice)
            else:
                events = xenoseat.apply(new, action, dice)
        elif seat in new.seats and new.phase == "xeno-place":
            if seat not in waiting(new):
                raise RuleError("Wait: the Xeno player is placing the spawns.")
            events = placement.apply(new, action, dice)
        elif seat in new.seats:
            if new.reaction is not None:
                raise RuleError(f"Wait: the Xeno player may react first ({new.reaction.text}).")
            seen = reactions.before(new, action)
            events = actions.apply(new, seat, action, dice)
            events += reactions.after_marine_action(new, seat, action, seen, dice)
        else:
            raise RuleError(f"'{seat}' is not a seat in this operation.")
        return Step(state=new, events=events)

    def advance(self, state: ForlornState, dice: Dice) -> Step[ForlornState]:
        if state.phase in ("over", "mulligan") or waiting(state):
            return Step(state=state, events=[])
        new = state.model_copy(deep=True)
        events = run(new, dice)
        events += handover.newly_out(handover.out_seats(state), new)
        return Step(state=new, events=events)

    def advise(self, state: ForlornState, seat: str, actions: list[Action]) -> Action | None:
        """Purposeful play for self-play's `--policy advisor` (see `advisor.py`)."""
        return advisor.advise(state, seat, actions)

    def autopilot(self, state: ForlornState, seat: str) -> Action | None:
        """The table's autopilot for an absent player: the advisor's choice, else the prompt's
        default or ending the turn."""
        legal = self.legal_actions(state, seat)
        chosen = advisor.advise(state, seat, legal)
        if chosen is not None:
            return chosen
        prompt = self.waiting_on(state)
        if prompt.default is not None:
            return prompt.default
        return next((a for a in legal if a.verb == "end-turn" and not a.args), None) or (
            legal[0] if legal else None
        )

    def view(self, state: ForlornState, seat: str | None) -> View:
        return build_view(state, seat, scenarios()[state.scenario].title)

    def dump(self, state: ForlornState) -> dict[str, Any]:
        data = state.model_dump(mode="json")
        if data.get("reaction_rules") is None:
            del data["reaction_rules"]  # no standing reactions: the dump older tables made
        return data

    def load(self, data: dict[str, Any]) -> ForlornState:
        return ForlornState.model_validate(data)
