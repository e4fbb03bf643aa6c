"""Quick actions: ranked complete legal actions, one per figure and kind, and facing hints
that come from trying a turn on a copy of the state."""

from __future__ import annotations

from typing import Any

import pytest

from bot.table.quick import (
    MAX_COMMAND,
    MAX_LABEL,
    QUICK,
    facing_hints,
    family,
    quick_buttons,
    ranked,
)
from engine.core.dice import ScriptedDice, SeededDice, derive_seed
from engine.core.game import Action, Game, advisor_of, scenario_info
from engine.registry import get_game
from engine.selfplay import default_seats


def played(game_key: str, scenario: str, seed: int, steps: int) -> tuple[Game[Any], Any]:
    """A state `steps` advisor actions into a mission (the advisor plays every seat)."""
    game = get_game(game_key)
    seats = default_seats(game, scenario, 2)
    options = scenario_info(game, scenario).resolve_options({})
    state = game.new(scenario, seats, options, SeededDice(derive_seed(seed, "setup")))
    advisor = advisor_of(game)
    assert advisor is not None
    for step in range(steps):
        dice = SeededDice(derive_seed(seed, step))
        state = game.advance(state, dice).state
        seat = game.waiting_on(state).seats[0]
        action = advisor.advise(state, seat, game.legal_actions(state, seat))
        assert action is not None
        state = game.apply(state, seat, action, dice).state
    return game, game.advance(state, SeededDice(derive_seed(seed, steps))).state


@pytest.mark.parametrize(
    ("game_key", "scenario", "steps"),
    [
        ("galaxy-defenders", "m1", 9),
        ("galaxy-defenders", "os1", 9),
        ("forlorn-hope", "op-01", 12),
        ("reichbusters", "radio-silence", 3),
    ],
)
def test_quick_actions_are_listed_legal_actions_one_per_family(
    game_key: str, scenario: str, steps: int
) -> None:
    game, state = played(game_key, scenario, 1, steps)
    seat = game.waiting_on(state).seats[0]
    legal = game.legal_actions(state, seat)
    advisor = advisor_of(game)
    assert advisor is not None
    quick = ranked(advisor, state, seat, legal)
    assert quick, [a.command() for a in legal]
    assert all(a in legal for a in quick)  # the engine's own actions, never built
    assert all(len(a.command()) <= MAX_COMMAND for a in quick)
    assert len(quick) <= QUICK + 1
    rest = [a for a in quick if a.verb != "end-turn"]
    assert len({family(a) for a in rest}) == len(rest)  # different things to do
    best = advisor.advise(state, seat, legal)
    assert best is not None
    if len(best.command()) <= MAX_COMMAND:  # else no button could carry it
        assert quick[0].command() == best.command()  # the advisor's pick first
    enders = [a for a in legal if a.verb == "end-turn"]
    if enders:
        assert any(a.verb == "end-turn" for a in quick)  # End turn is always one tap away


def test_buttons_keep_end_turn_when_room_is_short() -> None:
    game, state = played("galaxy-defenders", "m1", 1, 11)  # the votes: two answers each
    seat = game.waiting_on(state).seats[0]
    advisor = advisor_of(game)
    assert advisor is not None
    quick = ranked(advisor, state, seat, game.legal_actions(state, seat))
    view = game.view(state, None)
    buttons = quick_buttons(quick, view, 2)
    assert len(buttons) == 2 and buttons[-1].label.startswith("End turn")
    assert all(len(b.label) <= MAX_LABEL for b in quick_buttons(quick, view, 9))
    assert quick_buttons(quick, view, 0) == []


def test_a_hint_names_the_turn_that_allows_an_attack() -> None:
    # Galaxy m1, seed 1: the Marine's first turn, an alien outside his front hexes (four
    # steps in: the vote's two answers and the opening teleport's hex).
    game, state = played("galaxy-defenders", "m1", 1, 4)
    seat = game.waiting_on(state).seats[0]
    legal = game.legal_actions(state, seat)
    hints = facing_hints(game, state, seat, legal)
    assert hints, "the seed's alien stood behind the Marine"
    hint = hints[0]
    assert hint.action in legal and hint.action.args["order"].startswith("face-")
    assert "outside" in hint.text and "to attack it" in hint.text
    attacked = {a.args["target"] for a in legal if a.verb == "attack"}
    after = game.apply(game.load(game.dump(state)), seat, hint.action, ScriptedDice()).state
    opened = {a.args["target"] for a in game.legal_actions(after, seat) if a.verb == "attack"}
    new = opened - attacked
    assert new
    named = {f.name for f in game.view(state, None).figures if f.id in new}
    assert any(name in hint.text for name in named)
    # the state the panel was built from is untouched
    assert [a.command() for a in game.legal_actions(state, seat)] == [a.command() for a in legal]


def test_no_hint_without_a_turn_to_take() -> None:
    game, state = played("reichbusters", "radio-silence", 1, 3)
    seat = game.waiting_on(state).seats[0]
    legal = game.legal_actions(state, seat)
    assert not [a for a in legal if a.args.get("order", "").startswith("face-")]
    assert facing_hints(game, state, seat, legal) == []
    assert facing_hints(game, state, seat, [Action(verb="end-turn")]) == []
