"""Invariants over random play: capacity, wounds, cards conserved, JSON and replay."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from reich_helpers import play_to

from engine.reich import rules
from engine.reich.content import load_content
from engine.reich.game import ReichGame
from engine.reich.state import ReichState

GAME = ReichGame()
MISSIONS = ["radio-silence", "jailbreak", "lab-rats", "wolffs-lair"]


def check(state: ReichState) -> None:
    board = rules.board(state)
    for area in board.areas:
        assert rules.occupancy(state, area) <= board.capacity(area), area
    total_wounds = sum(w.copies for w in load_content().wounds.values())
    held = sum(len(h.wounds) for h in state.heroes.values())
    assert held + len(state.wound_deck.all_cards()) == total_wounds
    for hero in state.heroes.values():
        cards = [*hero.hand, *hero.deck.all_cards(), *hero.removed, *hero.in_play]
        assert len(cards) == 12 and len(set(cards)) == 12, hero.key
        assert 0 <= hero.tokens <= 2
        assert len(hero.loot) <= 3
    for enemy in state.enemies:
        assert enemy.wounds < rules.life(enemy)
    assert len(state.reinforcement_deck.all_cards()) == len(load_content().reinforcements)


def _check_and_round_trip(state: ReichState) -> None:
    check(state)
    assert GAME.load(GAME.dump(state)) == state


def play(mission: str, seed: int, players: int, steps: int) -> ReichState:
    return play_to(mission, seed, players, steps, each=_check_and_round_trip)


@settings(max_examples=8, deadline=None)
@given(
    mission=st.sampled_from(MISSIONS),
    seed=st.integers(0, 10_000),
    players=st.integers(1, 4),
)
def test_invariants_hold_in_random_play(mission: str, seed: int, players: int) -> None:
    play(mission, seed, players, 250)


def test_replay_with_same_seed_gives_same_state() -> None:
    assert play("jailbreak", 11, 2, 200) == play("jailbreak", 11, 2, 200)
