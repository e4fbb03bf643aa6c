"""Invariants over random play: every legal action is accepted, one figure or Signal per hex,
wounds within bounds, cards conserved, JSON round-trip, same seed gives the same game."""

from __future__ import annotations

from collections import Counter

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.core.dice import SeededDice, derive_seed, pick
from engine.galaxy import GAME
from engine.galaxy.content import content
from engine.galaxy.state import GalaxyState
from engine.galaxy.world import card, max_hp

ROLES = ["marine", "biotech", "infiltrator", "sniper", "hulk"]


def check(state: GalaxyState) -> None:
    spots = [a.hex for a in state.agents.values() if a.hex is not None]
    spots += [a.hex for a in state.aliens] + [s.hex for s in state.signals]
    assert len(spots) == len(set(spots)), "two figures share a hex"
    for agent in state.agents.values():
        assert 0 <= agent.wounds <= max_hp(agent)
        assert agent.dead == (agent.hex is None)
        for ws in agent.weapons:
            assert ws.ammo >= 0
    for alien in state.aliens:
        assert 0 <= alien.wounds < card(alien).hp
    mission = content().missions[state.scenario]
    in_play = [a.card for a in state.aliens]
    assert Counter(state.alien_deck.all_cards() + in_play) == Counter(mission.alien_deck)
    tokens = state.signal_reserve + state.signal_discard + [s.token for s in state.signals]
    assert len(tokens) == sum(mission.signals.values()) == len(set(tokens))
    assert len(state.ce_deck.all_cards()) == len(set(state.ce_deck.all_cards()))


def play(scenario: str, seed: int, players: int, steps: int, probe: bool) -> GalaxyState:
    state = GAME.new(scenario, ROLES[:players], {}, SeededDice(derive_seed(seed, "setup")))
    policy = SeededDice(derive_seed(seed, "policy"))
    for n in range(steps):
        dice = SeededDice(derive_seed(seed, n))
        state = GAME.advance(state, dice).state
        check(state)
        assert GAME.load(GAME.dump(state)) == state
        prompt = GAME.waiting_on(state)
        if prompt.finished:
            break
        again = GAME.advance(state, dice)
        assert again.state is state and not again.events  # idempotent while a seat decides
        actions = GAME.legal_actions(state, prompt.seats[0])
        if probe:
            for action in actions[:: max(1, len(actions) // 6)]:
                GAME.apply(state, prompt.seats[0], action, SeededDice(n))
        others = [a for a in actions if a.verb != "end-turn"]
        chosen = pick(policy, others) if others and policy.randrange(4) else actions[-1]
        state = GAME.apply(state, prompt.seats[0], chosen, dice).state
        check(state)
        view = GAME.view(state, None)
        assert not view.private
        assert all("alien-" not in t.label and "human-" not in t.label for t in view.tokens)
    return state


@settings(max_examples=12, deadline=None)
@given(
    seed=st.integers(0, 10_000),
    players=st.integers(1, 5),
    scenario=st.sampled_from(sorted(content().missions)),
)
# found by CI: an Elite Hulk, Bleeding, dies and drops to the standard side (fewer HP), and his
# Wound track held more Wounds than that side has
@example(seed=4666, players=5, scenario="m3")
def test_invariants_hold_in_random_play(seed: int, players: int, scenario: str) -> None:
    play(scenario, seed, players, 150, probe=True)


def test_same_seed_same_game() -> None:
    a = play("m1", 42, 3, 250, probe=False)
    b = play("m1", 42, 3, 250, probe=False)
    assert GAME.dump(a) == GAME.dump(b)
