"""Play whole missions with a simple policy over `legal_actions`.

Self-play is the engine's smoke test at scale: every mission must finish without an error from
any seed. The `random` policy is deliberately naive (uniform over legal actions, with a growing
wish to end the turn) so it wanders into odd corners of the rules. The `advisor` policy follows
the game's own advice (`Advisor.advise`) where it has one, to measure whether a mission can be
won by purposeful play; it falls back to the random choice when the advisor has no opinion.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any

from engine.core.dice import SeededDice, derive_seed, pick
from engine.core.errors import RuleError
from engine.core.game import Action, Advisor, Game, advisor_of, scenario_info

END_VERBS = ("end-turn",)
POLICIES = ("random", "advisor")


@dataclass
class GameResult:
    seed: int
    finished: bool = False
    outcome: str | None = None
    rounds: int = 0
    steps: int = 0
    error: str | None = None
    ms_per_step: float = 0.0
    extra: dict[str, Any] = field(default_factory=dict)


def default_seats(game: Game[Any], scenario: str, players: int | None) -> list[str]:
    info = scenario_info(game, scenario)
    required = [r.key for r in info.roles if r.required]
    optional = [r.key for r in info.roles if not r.required]
    want = max(info.min_seats, min(players or len(required), info.max_seats))
    seats = (required + optional)[:want]
    if len(seats) < info.min_seats:
        raise ValueError(f"{scenario} needs at least {info.min_seats} seats")
    return seats


def choose_action(actions: list[Action], policy: SeededDice, patience: int) -> Action:
    """Pick uniformly, but end the turn more and more often the longer a seat has acted."""
    enders = [a for a in actions if a.verb in END_VERBS]
    others = [a for a in actions if a.verb not in END_VERBS]
    if enders and (not others or policy.randrange(100) < min(90, 10 + patience * 5)):
        return enders[0]
    return pick(policy, others or actions)


def advisor_for(game: Game[Any], policy: str) -> Advisor | None:
    """The advisor `policy` asks for (None for `random`); ValueError for an unknown policy."""
    if policy not in POLICIES:
        raise ValueError(f"Unknown policy '{policy}'. Policies: {', '.join(POLICIES)}.")
    if policy == "random":
        return None
    advisor = advisor_of(game)
    if advisor is None:
        raise ValueError(f"{game.key} offers no advisor; use --policy random.")
    return advisor


def selfplay_extra(game: Game[Any], state: Any) -> dict[str, Any]:
    """What a game adds to a finished game's line (optional `selfplay_extra(state)` hook), e.g.
    a campaign's missions as played: {"missions": ["os1:failed", "os1:accomplished", ...]}."""
    hook = getattr(game, "selfplay_extra", None)
    return dict(hook(state)) if callable(hook) else {}


def mission_tally(results: list[GameResult]) -> dict[str, dict[str, int]]:
    """Per mission, how often each outcome came up over the games' `extra["missions"]`."""
    tally: dict[str, dict[str, int]] = {}
    for result in results:
        for played in result.extra.get("missions", []):
            mission, _, outcome = str(played).partition(":")
            row = tally.setdefault(mission, {})
            row[outcome] = row.get(outcome, 0) + 1
    return tally


def play_one(
    game: Game[Any],
    scenario: str,
    seed: int,
    players: int | None = None,
    max_steps: int = 20_000,
    policy_name: str = "random",
    options: dict[str, str] | None = None,
) -> GameResult:
    result = GameResult(seed=seed)
    started = time.perf_counter()
    advisor = advisor_for(game, policy_name)
    try:
        seats = default_seats(game, scenario, players)
        chosen = scenario_info(game, scenario).resolve_options(options or {})
        state = game.new(scenario, seats, chosen, SeededDice(derive_seed(seed, "setup")))
        policy = SeededDice(derive_seed(seed, "policy"))
        patience = 0
        for step_no in range(max_steps):
            dice = SeededDice(derive_seed(seed, step_no))
            state = game.advance(state, dice).state
            prompt = game.waiting_on(state)
            if prompt.finished:
                result.finished, result.outcome = True, prompt.outcome
                break
            if not prompt.seats:
                raise RuntimeError("advance stopped with nobody to act and no outcome")
            seat = prompt.seats[0]
            actions = game.legal_actions(state, seat)
            if not actions:
                raise RuntimeError(f"seat {seat} must act but has no legal action")
            advice = advisor.advise(state, seat, actions) if advisor else None
            action = advice or choose_action(actions, policy, patience)
            patience = 0 if action.verb in END_VERBS else patience + 1
            try:
                state = game.apply(state, seat, action, dice).state
            except RuleError as refused:
                raise RuntimeError(f"legal action {action.command()} refused: {refused}") from None
            result.steps += 1
        else:
            raise RuntimeError(f"no outcome after {max_steps} steps")
        view = game.view(state, None)
        result.rounds = view.round
        result.extra = selfplay_extra(game, state)
    except Exception as error:  # self-play reports every failure as data
        result.error = f"{type(error).__name__}: {error}"
    elapsed = (time.perf_counter() - started) * 1000
    result.ms_per_step = round(elapsed / max(1, result.steps), 3)
    return result
