"""Fuzz every shipped scenario: random legal and illegal actions never raise anything but
RuleError, a refused action changes nothing, and every state survives a JSON round trip."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.core.dice import SeededDice, derive_seed, pick
from engine.core.errors import RuleError
from engine.core.game import Action
from engine.registry import SHIPPED, games
from engine.selfplay import default_seats

SCENARIOS = [
    (key, info.key)
    for key, game in games().items()
    if any(game.__class__.__module__.startswith(m) for m in SHIPPED)
    for info in game.scenarios()
]
GARBAGE = ["", "Z99", "A0", "zz", "🙂", "../../etc", "x" * 90, "-1", "9999", "None", "C4"]
VERBS = ["move", "attack", "act", "orders", "choose", "end-turn", "fly"]


def snapshot(game: Any, state: Any) -> str:
    return json.dumps(game.dump(state), sort_keys=True)


def illegal_action(rng: SeededDice, legal: list[Action]) -> Action:
    """A plausible-looking action: a legal one with an argument swapped, or pure noise."""
    if legal and rng.randrange(2):
        base = pick(rng, legal)
        args = dict(base.args)
        if args:
            key = pick(rng, sorted(args))
            args[key] = pick(rng, GARBAGE)
        else:
            args[pick(rng, ["to", "unit", "target", "what"])] = pick(rng, GARBAGE)
        return Action(verb=base.verb, args=args)
    keys = ["to", "unit", "target", "what", "option", "weapon", "order"]
    args = {pick(rng, keys): pick(rng, GARBAGE) for _ in range(rng.randrange(3))}
    return Action(verb=pick(rng, VERBS), args=args)


@pytest.mark.parametrize(("game_key", "scenario"), SCENARIOS)
@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), illegal_share=st.integers(1, 4))
def test_random_actions_only_raise_rule_errors(
    game_key: str, scenario: str, seed: int, illegal_share: int
) -> None:
    game = games()[game_key]
    seats = default_seats(game, scenario, None)
    options = {
        o.key: o.default for o in next(s for s in game.scenarios() if s.key == scenario).options
    }
    state = game.new(scenario, seats, options, SeededDice(derive_seed(seed, "setup")))
    rng = SeededDice(derive_seed(seed, "fuzz"))
    for step in range(60):
        dice = SeededDice(derive_seed(seed, step))
        state = game.advance(state, dice).state
        prompt = game.waiting_on(state)
        if prompt.finished:
            break
        # Any seat may try anything, including seats that are not waited on.
        seat = pick(rng, seats)
        legal = game.legal_actions(state, seat)
        if rng.randrange(5) < illegal_share or not legal:
            action = illegal_action(rng, legal)
        else:
            action = pick(rng, legal)
        before = snapshot(game, state)
        old = state
        try:
            state = game.apply(state, seat, action, dice).state
        except RuleError as refused:
            assert str(refused), "a refusal must explain itself"
        # apply is pure: the state it was given is never touched, refused or not.
        assert snapshot(game, old) == before, f"{action.command()} mutated its input state"
        assert game.load(json.loads(json.dumps(game.dump(state)))) == state
