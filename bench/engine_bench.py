"""Engine figures per game: apply per action verb, advance (the automatic phases, with the
number of enemies on the board), and legal_actions (it feeds autocomplete).

Galaxy Defenders' missions never put 20 aliens on the board in self-play, so for the missions
whose Alien deck is large enough `crowded` builds that case: a real mid-mission state with
aliens drawn from the mission's own Alien deck until 20+ stand on the map, then times the
Aliens turn and the Event phase from it (issue #10's target: 20+ enemies, p95 <= 50 ms)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from bench.common import summary, timed
from engine.core.dice import SeededDice, derive_seed, pick
from engine.core.game import Game, scenario_info
from engine.selfplay import choose_action, default_seats

CROWD = 22  # aliens on the board for the crowded Galaxy figures (a full 22-card Alien deck)
CROWD_RUNS = 10  # timed runs of each phase per seed


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
    report: dict[str, Any] = {
        "apply": {verb: summary(v) for verb, v in sorted(apply_ms.items())},
        "advance_automatic_phase": summary(advance_busy),
        "advance_with_20_plus_enemies": summary(advance_crowded),
        "most_enemies_seen": most_enemies,
        "legal_actions": summary(legal_ms),
    }
    if game.key == "galaxy-defenders":
        crowded = galaxy_crowded(game, scenario, seeds)
        if crowded is not None:
            report["crowded"] = crowded
    return report


def galaxy_crowded(game: Game[Any], scenario: str, seeds: int) -> dict[str, Any] | None:
    """The Aliens turn and the Event phase with `CROWD` aliens on the board (None when the
    mission's Alien deck is too small to field 20)."""
    from engine.galaxy.lifecycle import place_alien
    from engine.galaxy.world import board_of, free

    phases: dict[str, list[float]] = {"aliens": [], "event": []}
    legal_ms: list[float] = []
    fielded = 0
    for seed in range(1, seeds + 1):
        state = _mid_mission(game, scenario, seed)
        if state is None:
            continue
        if len(state.aliens) + len(state.alien_deck.all_cards()) < 20:
            return None
        spawn = SeededDice(derive_seed(seed, "crowd"))
        while len(state.aliens) < CROWD and state.alien_deck.all_cards():
            card_id = state.alien_deck.draw(spawn)
            spots = [h for h in board_of(state).hexes() if free(state, h)]
            place_alien(state, card_id, pick(spawn, spots), [], "bench")
        fielded = max(fielded, len(state.aliens))
        seat = game.waiting_on(state).seats[0]
        for run in range(CROWD_RUNS):
            for phase, samples in phases.items():
                start = state.model_copy(deep=True)
                start.phase = phase
                dice = SeededDice(derive_seed(seed, "crowd-run", run))
                samples.append(timed(lambda: game.advance(start, dice))[1])  # noqa: B023
            legal_ms.append(timed(lambda: game.legal_actions(state, seat))[1])  # noqa: B023
    if not fielded:
        return None
    return {
        "aliens": fielded,
        "aliens_turn": summary(phases["aliens"]),
        "event_phase": summary(phases["event"]),
        "legal_actions": summary(legal_ms),
    }


def _mid_mission(game: Game[Any], scenario: str, seed: int) -> Any:
    """Self-play (5 agents) to an agent's turn in round 2; None if the mission ends first."""
    seats = default_seats(game, scenario, 5)
    options = scenario_info(game, scenario).resolve_options({})
    state = game.new(scenario, seats, options, SeededDice(derive_seed(seed, "setup")))
    policy = SeededDice(derive_seed(seed, "policy"))
    patience = 0
    for step in range(400):
        dice = SeededDice(derive_seed(seed, step))
        state = game.advance(state, dice).state
        prompt = game.waiting_on(state)
        if prompt.finished or not prompt.seats:
            return None
        if state.round >= 2 and state.phase == "agent" and state.pending is None:
            return state
        seat = prompt.seats[0]
        action = choose_action(game.legal_actions(state, seat), policy, patience)
        patience = 0 if action.verb == "end-turn" else patience + 1
        state = game.apply(state, seat, action, dice).state
    return None
