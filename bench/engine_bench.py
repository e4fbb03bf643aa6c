"""Engine figures per game: apply per action verb, advance (the automatic phases, with the
number of enemies on the board), and legal_actions (it feeds autocomplete)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from bench.common import summary, timed
from engine.core.dice import SeededDice, derive_seed
from engine.core.game import Game, scenario_info
from engine.selfplay import choose_action, default_seats


def bench_engine(game: Game[Any], scenario: str, seeds: int, max_steps: int) -> dict[str, Any]:
    apply_ms: dict[str, list[float]] = defaultdict(list)
    advance_busy: list[float] = []
    advance_crowded: list[float] = []
    legal_ms: list[float] = []
    most_enemies = 0
    for seed in range(1, seeds + 1):
        seats = default_seats(game, scenario, None)
        options = scenario_info(game, scenario).resolve_options({})
        state = game.new(scenario, seats, options, SeededDice(derive_seed(seed, "setup")))
        policy = SeededDice(derive_seed(seed, "policy"))
        patience = 0
        for step in range(max_steps):
            dice = SeededDice(derive_seed(seed, step))
            advanced, ms = timed(lambda: game.advance(state, dice))  # noqa: B023
            if advanced.events:
                enemies = sum(1 for f in game.view(state, None).figures if f.side == "enemy")
                most_enemies = max(most_enemies, enemies)
                advance_busy.append(ms)
                if enemies >= 20:
                    advance_crowded.append(ms)
            state = advanced.state
            prompt = game.waiting_on(state)
            if prompt.finished or not prompt.seats:
                break
            seat = prompt.seats[0]
            actions, ms = timed(lambda: game.legal_actions(state, seat))  # noqa: B023
            legal_ms.append(ms)
            action = choose_action(actions, policy, patience)
            patience = 0 if action.verb == "end-turn" else patience + 1
            applied, ms = timed(lambda: game.apply(state, seat, action, dice))  # noqa: B023
            apply_ms[action.verb].append(ms)
            state = applied.state
    return {
        "apply": {verb: summary(v) for verb, v in sorted(apply_ms.items())},
        "advance_automatic_phase": summary(advance_busy),
        "advance_with_20_plus_enemies": summary(advance_crowded),
        "most_enemies_seen": most_enemies,
        "legal_actions": summary(legal_ms),
    }
