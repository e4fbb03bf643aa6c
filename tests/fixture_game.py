"""A test-only game that exercises the table loop; it never ships in the product.

"Dash": each seat steers one runner on a 6x6 square board towards the far corner. A seat moves
one square per action (at most two per turn), may roll for a sprint, and ends its turn; after
every seat has ended, a drone moves one random square (the automatic phase). First runner to the
goal wins; after 12 rounds the table loses.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from engine.core.dice import Dice, pick
from engine.core.errors import RuleError
from engine.core.events import Moved, Note, PhaseChanged, Rolled
from engine.core.game import Action, OptionInfo, Prompt, RoleInfo, ScenarioInfo, Step
from engine.core.squaregrid import Square, neighbours
from engine.core.view import CellView, FigureView, PanelView, View

SIZE = 6
GOAL = "F6"


def label(sq: Square) -> str:
    return f"{'ABCDEF'[sq.x]}{sq.y + 1}"


def square(text: str) -> Square | None:
    text = text.strip().upper()
    if len(text) != 2 or text[0] not in "ABCDEF" or not text[1].isdigit():
        return None
    sq = Square("ABCDEF".index(text[0]), int(text[1]) - 1)
    return sq if 0 <= sq.y < SIZE else None


class DashState(BaseModel):
    scenario: str
    seats: list[str]
    round: int = 1
    positions: dict[str, str]
    moves_left: dict[str, int]
    ended: list[str] = []
    drone: str = "C3"
    automatic_pending: bool = False
    winner: str | None = None
    lost: bool = False
    secret_rolls: dict[str, int] = {}
    # A question one runner put to another, with a default answer if nobody replies.
    question_to: str | None = None
    answers: list[str] = []


class DashGame:
    key = "dash"
    title = "Dash (test fixture)"

    def scenarios(self) -> list[ScenarioInfo]:
        return [
            ScenarioInfo(
                key="sprint",
                title="Sprint",
                roles=[
                    RoleInfo(key="red", name="Red runner"),
                    RoleInfo(key="blue", name="Blue runner", required=False),
                ],
                min_seats=1,
                max_seats=2,
                options=[
                    OptionInfo(
                        key="pace", description="moves per turn", choices=["2", "3"], default="2"
                    )
                ],
            )
        ]

    def new(
        self, scenario: str, seats: list[str], options: dict[str, str], dice: Dice
    ) -> DashState:
        pace = int(options.get("pace", "2"))
        start = pick(dice, ["A1", "A2", "B1"])
        return DashState(
            scenario=scenario,
            seats=list(seats),
            positions={s: start for s in seats},
            moves_left={s: pace for s in seats},
        )

    def waiting_on(self, state: DashState) -> Prompt:
        if state.winner or state.lost:
            return Prompt(
                finished=True, kind="none", outcome="victory" if state.winner else "defeat"
            )
        if state.automatic_pending:
            return Prompt(seats=[], kind="none")
        if state.question_to is not None:
            return Prompt(
                seats=[state.question_to],
                kind="choice",
                text="Share the lane? (no, if you do not answer)",
                default=Action(verb="choose", args={"option": "no"}),
            )
        return Prompt(seats=[s for s in state.seats if s not in state.ended], text="Run!")

    def legal_actions(self, state: DashState, seat: str) -> list[Action]:
        if seat not in self.waiting_on(state).seats:
            return []
        if state.question_to == seat:
            return [Action(verb="choose", args={"option": o}, label=o) for o in ("yes", "no")]
        actions = [Action(verb="end-turn", label="end your turn")]
        others = [s for s in state.seats if s != seat]
        if others:
            actions.append(Action(verb="act", args={"what": "ask"}, label="ask a question"))
        if state.moves_left[seat] > 0:
            here = square(state.positions[seat])
            assert here is not None
            for n in neighbours(here):
                if 0 <= n.x < SIZE and 0 <= n.y < SIZE and label(n) != state.drone:
                    actions.append(Action(verb="move", args={"to": label(n)}, label=label(n)))
        actions.append(Action(verb="act", args={"what": "peek"}, label="peek at a secret"))
        return actions

    def apply(self, state: DashState, seat: str, action: Action, dice: Dice) -> Step[DashState]:
        state = state.model_copy(deep=True)
        if seat not in self.waiting_on(state).seats:
            raise RuleError(f"{seat} has already ended this turn.")
        if state.question_to is not None:
            if seat != state.question_to or action.verb != "choose":
                raise RuleError(f"Waiting for {state.question_to} to answer first.")
            answer = action.args.get("option", "")
            if answer not in ("yes", "no"):
                raise RuleError("Answer yes or no.")
            state.answers.append(answer)
            state.question_to = None
            return Step(state=state, events=[Note(text=f"{seat} answers {answer}.")])
        if action.verb == "act" and action.args.get("what") == "ask":
            others = [s for s in state.seats if s != seat]
            if not others:
                raise RuleError("Nobody to ask.")
            state.question_to = others[0]
            return Step(state=state, events=[Note(text=f"{seat} asks {others[0]}.")])
        if action.verb == "end-turn":
            state.ended.append(seat)
            if len(state.ended) == len(state.seats):
                state.automatic_pending = True
            return Step(state=state, events=[Note(text=f"{seat} ends the turn.")])
        if action.verb == "move":
            target = square(action.args.get("to", ""))
            here = square(state.positions[seat])
            if target is None:
                raise RuleError(f"'{action.args.get('to', '')}' is not a square (A1 to F6).")
            if state.moves_left[seat] <= 0:
                raise RuleError(f"{seat} has no moves left this turn.")
            if here is None or target not in neighbours(here):
                raise RuleError(f"{label(target)} is not next to {state.positions[seat]}.")
            if label(target) == state.drone:
                raise RuleError(f"The drone blocks {label(target)}.")
            state.moves_left[seat] -= 1
            path = [state.positions[seat], label(target)]
            state.positions[seat] = label(target)
            if label(target) == GOAL:
                state.winner = seat
            return Step(
                state=state,
                events=[Moved(figure=seat, path=path, text=f"{seat} runs to {label(target)}.")],
            )
        if action.verb == "act" and action.args.get("what") == "peek":
            value = dice.roll(6)
            state.secret_rolls[seat] = value
            return Step(
                state=state,
                events=[
                    Rolled(
                        figure=seat,
                        purpose="peek",
                        faces=[str(value)],
                        visible_to=[seat],
                        text=f"{seat} peeks: {value}.",
                    )
                ],
            )
        raise RuleError(f"/{action.verb} is not something a runner can do.")

    def advance(self, state: DashState, dice: Dice) -> Step[DashState]:
        if not state.automatic_pending or state.winner:
            return Step(state=state)
        state = state.model_copy(deep=True)
        here = square(state.drone)
        assert here is not None
        options = [
            n
            for n in neighbours(here)
            if 0 <= n.x < SIZE and 0 <= n.y < SIZE and label(n) not in state.positions.values()
        ]
        events: list[Any] = []
        if options:
            target = pick(dice, options)
            events.append(
                Moved(
                    figure="drone",
                    path=[state.drone, label(target)],
                    text=f"The drone drifts to {label(target)}.",
                )
            )
            state.drone = label(target)
        state.round += 1
        state.ended = []
        state.automatic_pending = False
        state.moves_left = {s: 2 for s in state.seats}
        if state.round > 12:
            state.lost = True
        events.append(
            PhaseChanged(round=state.round, phase="runners", text=f"Round {state.round}.")
        )
        return Step(state=state, events=events)

    def view(self, state: DashState, seat: str | None) -> View:
        cells = [
            CellView(
                coord=label(Square(x, y)),
                col=x,
                row=y,
                marks=["goal"] if label(Square(x, y)) == GOAL else [],
            )
            for y in range(SIZE)
            for x in range(SIZE)
        ]
        figures = [
            FigureView(
                id=s, label=s[:1].upper(), name=f"{s} runner", side="player", coord=pos, seat=s
            )
            for s, pos in state.positions.items()
        ]
        figures.append(
            FigureView(id="drone", label="D", name="drone", side="enemy", coord=state.drone)
        )
        prompt = self.waiting_on(state)
        return View(
            game=self.key,
            scenario=state.scenario,
            title="Dash",
            board="square",
            round=state.round,
            phase="runners",
            waiting=prompt.seats,
            cells=cells,
            figures=figures,
            panels=[
                PanelView(seat=s, title=s, lines=[f"moves {state.moves_left[s]}"])
                for s in state.seats
            ],
            private=[f"secret {state.secret_rolls[seat]}"] if seat in state.secret_rolls else [],
            finished=prompt.finished,
            outcome=prompt.outcome,
        )

    def dump(self, state: DashState) -> dict[str, Any]:
        return state.model_dump(mode="json")

    def load(self, data: dict[str, Any]) -> DashState:
        return DashState.model_validate(data)
