"""Rulebook audit, chapters Enemy States (Inactive, Active) and Enemy Spawning."""

from __future__ import annotations

from typing import Any

from reich_audit_probe import Data, act, advance, dump, end_heroes_turn, fresh, patch, view


def _tokens(*placed: tuple[str, str, int, str]) -> Any:
    """Replace the Mission's Enemy tokens with (id, Area, level, letters)."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = [
            {"id": tid, "area": area, "level": level, "letters": letters}
            for tid, area, level, letters in placed
        ]

    return patch(fresh(), edit)


def test_spawn_places_the_tokens_letters_in_its_area_and_removes_it() -> None:
    """Enemy Spawning 1-4: one miniature per letter, in the token's Area; token removed."""
    state = _tokens(("T1", "1B", 1, "BBD"))
    state = patch(state, lambda d: d["heroes"]["hans"].update(area="1C"))
    state = act(state, "hans", "move", unit="hans", to="1D")
    data = dump(state)
    assert data["enemy_tokens"] == []
    assert sorted(e["type"] for e in data["enemies"]) == ["dog", "dog", "soldier"]
    assert {e["area"] for e in data["enemies"]} == {"1B"}


def test_spawned_enemies_are_active_miniatures() -> None:
    """Enemy Spawning / Active: spawned Enemies are Active and shown as miniatures."""
    state = _tokens(("T1", "1B", 1, "D"))
    state = patch(state, lambda d: d["heroes"]["hans"].update(area="1C"))
    state = act(state, "hans", "move", unit="hans", to="1D")
    assert all(e["active"] for e in dump(state)["enemies"])
    assert [f for f in view(state).figures if f.side == "enemy" and f.coord == "1B"]
    assert not [t for t in view(state).tokens if t.kind == "enemy-token"]


def test_inactive_token_seeing_new_active_enemies_spawns_too() -> None:
    """Enemy Spawning 5 / Inactive: an Inactive Enemy that sees an Active Enemy spawns."""
    # 1A and 1B are adjacent (they see each other); Hans in 1D sees 1B but not 1A (diagonal).
    state = _tokens(("T1", "1B", 1, "D"), ("T2", "1A", 1, "E"))
    # Hans comes from 2C (1C would already see 1A).
    state = patch(state, lambda d: d["heroes"]["hans"].update(area="2C"))
    state = act(state, "hans", "move", unit="hans", to="1D")
    data = dump(state)
    assert data["enemy_tokens"] == []
    assert sorted((e["type"], e["area"]) for e in data["enemies"]) == [
        ("soldier", "1B"),
        ("zombie", "1A"),
    ]


def test_token_out_of_sight_stays_inactive() -> None:
    """Inactive: no Line of Sight on a Hero or Active Enemy, the token stays face down."""
    state = _tokens(("T1", "1B", 1, "D"), ("T2", "3A", 1, "E"))
    state = patch(state, lambda d: d["heroes"]["hans"].update(area="2C"))
    state = act(state, "hans", "move", unit="hans", to="1D")
    assert [t["id"] for t in dump(state)["enemy_tokens"]] == ["T2"]


def test_inactive_setup_miniature_wakes_when_it_sees_a_hero() -> None:
    """Inactive: an Enemy placed at set-up is Inactive even as a miniature, until it spots a
    Hero."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["heroes"]["sarge"]["area"] = "1A"
        d["enemies"].append(
            {
                "id": "s1",
                "type": "soldier",
                "area": "3A",
                "wounds": 0,
                "behavior": 0,
                "active": False,
            }
        )

    state = patch(fresh(), edit)
    assert dump(state)["enemies"][0]["active"] is False
    state = act(state, "sarge", "act", unit="sarge", what="open", target="D10")
    assert dump(state)["enemies"][0]["active"] is True


def test_inactive_enemy_does_not_move_or_attack() -> None:
    """Inactive: an Inactive Enemy neither Moves nor Attacks during the Enemies' Turn."""

    def edit(d: Data) -> None:
        d["enemy_tokens"] = []
        d["enemies"].append(
            {"id": "z", "type": "zombie", "area": "1A", "wounds": 0, "behavior": 0, "active": False}
        )

    state = end_heroes_turn(patch(fresh(), edit))
    state, events = advance(state, rolls=[])
    assert dump(state)["enemies"][0]["area"] == "1A"
    assert not [e for e in events if e.kind == "moved"]


def test_spawn_during_heroes_turn_does_not_trigger_the_alarm() -> None:
    """Enemy Spawning / Noise: a spawn from a Hero's move is not by itself the alarm."""
    state = _tokens(("T1", "1B", 2, "ADD"))
    state = patch(state, lambda d: d["heroes"]["hans"].update(area="1C"))
    state = act(state, "hans", "move", unit="hans", to="1D")
    assert dump(state)["alarm"] is False


def _alarm_spawn(scenario: str, letters: str) -> list[str]:
    """Types spawned when the alarm turns over one token holding `letters`."""

    def edit(d: Data) -> None:
        area = d["enemy_tokens"][0]["area"]
        d["enemy_tokens"] = [{"id": "TX", "area": area, "level": 1, "letters": letters}]
        d["enemies"] = []
        d["heroes"]["sarge"]["hand"].append("grenade-sarge9")

    state = patch(fresh(scenario), edit)
    state = act(state, "sarge", "act", unit="sarge", what="play", target="grenade-sarge9")
    return sorted(e["type"] for e in dump(state)["enemies"])


def test_letter_missing_from_the_mission_card_is_ignored() -> None:
    """Enemy Spawning 2 / Reinforcements 2: a letter the Mission card does not list spawns
    nothing (Mission 3 lists A to F)."""
    assert _alarm_spawn("lab-rats", "DG") == ["soldier"]
    assert _alarm_spawn("lab-rats", "H") == []


def test_augen_handler_brings_an_augen_along() -> None:
    """Keywords (Augen Handler): when the Augen Keeper spawns, an Augen spawns with it."""
    assert _alarm_spawn("lab-rats", "E") == ["augen", "keeper"]


def test_letters_beyond_the_reserve_are_ignored() -> None:
    """Enemy Spawning 2: with no miniature of the type left in the Reserve, the letter is
    ignored (a token of 200 Soldier letters brings out only the boxed Soldiers)."""
    soldiers = _alarm_spawn("radio-silence", "D" * 200)
    assert 0 < len(soldiers) < 200
    assert set(soldiers) == {"soldier"}


def _reserve_probe(kill_first: bool) -> int:
    """Every boxed Soldier on the board; optionally Sarge kills one first; then the alarm turns
    a one-Soldier token. Returns how many Soldiers that token brought."""
    boxed = len(_alarm_spawn("radio-silence", "D" * 200))

    def edit(d: Data) -> None:
        # 2A: out of Sarge's sight from 1D, so only the alarm turns the token.
        d["enemy_tokens"] = [{"id": "TX", "area": "2A", "level": 1, "letters": "D"}]
        d["heroes"]["sarge"]["area"] = "1D"
        d["heroes"]["sarge"]["hand"].append("grenade-sarge9")
        d["enemies"] = [
            {
                "id": f"s{i}",
                "type": "soldier",
                "area": "1B" if i == 0 else "7B",
                "wounds": 0,
                "behavior": 0,
                "active": True,
            }
            for i in range(boxed)
        ]

    state = patch(fresh(), edit)
    if kill_first:
        state = act(state, "sarge", "attack", unit="sarge", target="s0", weapon="revolver")
        state = act(state, "sarge", "choose", [5, 5], option="roll")
        state = act(state, "sarge", "choose", option="done")
        assert "s0" not in {e["id"] for e in dump(state)["enemies"]}
    before = len(dump(state)["enemies"])
    state = act(state, "sarge", "act", unit="sarge", what="play", target="grenade-sarge9")
    return len(dump(state)["enemies"]) - before


def test_killed_enemies_go_back_to_the_reserve() -> None:
    """Enemy Wounds: a killed miniature returns to the Enemy Reserve and can spawn again."""
    assert _reserve_probe(kill_first=False) == 0
    assert _reserve_probe(kill_first=True) == 1
