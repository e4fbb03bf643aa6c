"""Rulebook audit, chapter Mission Structure (round structure, The End of the Game)."""

from __future__ import annotations

from typing import Any

from reich_audit_probe import (
    TEAM,
    Data,
    act,
    advance,
    dump,
    end_heroes_turn,
    fresh,
    offered,
    patch,
    waiting,
)


def _quiet(state: Any) -> Any:
    """No Enemy tokens: the round runs without any Enemy activity or dice."""
    return patch(state, lambda d: d.__setitem__("enemy_tokens", []))


def test_round_runs_heroes_then_enemies_then_upkeep() -> None:
    """Structure of a Round: Heroes' Turn, then Enemies' Turn, then Upkeep, then a new round."""
    state = end_heroes_turn(_quiet(fresh()))
    state, events = advance(state)
    phases = [e.text for e in events if e.kind == "phase"]
    enemy_at = next(i for i, t in enumerate(phases) if "Enemies" in t)
    upkeep_at = next(i for i, t in enumerate(phases) if "Upkeep" in t)
    heroes_at = next(i for i, t in enumerate(phases) if "Heroes" in t)
    assert enemy_at < upkeep_at < heroes_at
    data = dump(state)
    assert data["round"] == 2
    assert data["phase"] == "heroes"


def test_heroes_turn_lasts_until_every_hero_has_announced_the_end() -> None:
    """The Heroes' Turn: it goes on until the Heroes say they are done."""
    state = _quiet(fresh())
    for i, seat in enumerate(TEAM):
        assert dump(state)["phase"] == "heroes"
        assert set(waiting(state).seats) == set(TEAM[i:])
        state = act(state, seat, "end-turn")
    assert waiting(state).seats == []


def test_heroes_act_in_any_order_and_may_come_back() -> None:
    """The Heroes' Turn: one Hero acts, another takes over, and the first may act again."""
    state = _quiet(fresh())
    state = act(state, "sarge", "move", unit="sarge", to="1C")
    state = act(state, "hans", "act", unit="hans", what="draw")
    assert offered(state, "sarge", "act", unit="sarge", what="draw")
    state = act(state, "sarge", "act", unit="sarge", what="draw")
    assert len(dump(state)["heroes"]["sarge"]["hand"]) == 6


def test_mission_fails_when_tracker_passes_the_endgame_token() -> None:
    """The End of the Game: objectives unmet when the tracker moves past Endgame: failure."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["tracker"] = d["endgame"]
        d["discretion"] = d["endgame"] + 5

    state = end_heroes_turn(patch(fresh(), edit))
    state, _ = advance(state)
    prompt = waiting(state)
    assert prompt.finished
    assert prompt.outcome == "defeat"


def test_mission_goes_on_while_tracker_is_on_the_endgame_space() -> None:
    """The End of the Game: reaching (not passing) the Endgame space does not fail the Mission."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["tracker"] = d["endgame"] - 1
        d["discretion"] = d["endgame"] + 5

    state = end_heroes_turn(patch(fresh(), edit))
    state, _ = advance(state)
    assert dump(state)["tracker"] == dump(state)["endgame"]
    assert not waiting(state).finished


def test_all_four_heroes_down_fails_the_mission_at_once() -> None:
    """The End of the Game / Down: the moment all four Heroes are Down, the Heroes lose."""

    def edit(d: Data) -> None:
        for key in ("sarge", "hans", "claudine"):
            d["heroes"][key].update(down=True, wounds=["winded"] * 4, area="1C")
        d["heroes"]["tane"]["wounds"] = ["winded"] * 3
        d["wound_deck"]["draw_pile"].insert(0, "shaky_hands")
        d["enemy_tokens"] = []
        d["alarm"] = True
        d["enemies"] += [
            {
                "id": f"dog{i}",
                "type": "dog",
                "area": "EN",
                "wounds": 0,
                "behavior": 0,
                "active": True,
            }
            for i in range(3)
        ]

    state = end_heroes_turn(patch(fresh(), edit))
    # Three Dogs (Attack Value 7 together) against two blank Defense dice: 7 damage.
    state, events = advance(state, rolls=[1, 1])
    assert waiting(state).finished
    assert waiting(state).outcome == "defeat"
    assert "Upkeep" not in " ".join(e.text for e in events)


def test_three_heroes_down_is_not_a_defeat() -> None:
    """The End of the Game: only all four Heroes Down ends the Mission."""

    def edit(d: Data) -> None:
        for key in ("sarge", "hans", "claudine"):
            d["heroes"][key].update(down=True, wounds=["winded"] * 4)
        d["enemy_tokens"] = []

    state = end_heroes_turn(patch(fresh(), edit))
    state, _ = advance(state)
    assert not waiting(state).finished
