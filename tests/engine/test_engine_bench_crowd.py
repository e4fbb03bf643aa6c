"""The engine benchmark's crowded Galaxy case really fields 20+ aliens (issue #10)."""

from __future__ import annotations

from bench.engine_bench import CROWD, CROWD_RUNS, galaxy_crowded
from engine.galaxy import GAME


def test_crowded_galaxy_fields_a_full_alien_deck_and_times_both_phases() -> None:
    found = galaxy_crowded(GAME, "m4", seeds=1)
    assert found is not None
    assert found["aliens"] == CROWD >= 20
    for phase in ("aliens_turn", "event_phase", "legal_actions"):
        assert found[phase]["n"] == CROWD_RUNS


def test_a_mission_with_a_small_alien_deck_has_no_crowded_case() -> None:
    assert galaxy_crowded(GAME, "m1", seeds=1) is None  # 7 Alien cards
