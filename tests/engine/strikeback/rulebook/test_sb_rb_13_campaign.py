"""Strikeback storybook chapter 5, Playing the GD Campaign (`campaign`, expansion
strikeback): mission transitions (each mission's Objectives table), the end-of-mission rank
roll (5.4), a dead agent's return at Gold (5.5) and Mission 2's Reinforcements after an
accomplished Mission 1.

Mission 1's end is staged on the dump (last Event card, fires, a dead agent who stays out),
then the campaign is played on with every prompt answered by its first offer (the revival
prompt by "stay out").
"""

from __future__ import annotations

from typing import Any

from sb_probe import GAME, dump, edit, legal, quiet_round, settle, waiting

from engine.core.dice import SeededDice
from engine.core.game import Action

SEATS = ("marine", "biotech", "infiltrator")


def os1_finished(flames: list[int], dead_rank: int | None = None) -> tuple[Any, str]:
    """Play the campaign's Mission 1 to its end with `flames` burning; with `dead_rank` the
    Biotech (at that rank) is dead and stays out. Returns the state at the next mission's
    first Agent turn and everything narrated on the way (prompts as "? <text>")."""
    state = GAME.new(
        "campaign", list(SEATS), {"expansion": "strikeback", "human-view": "off"}, SeededDice(7)
    )
    state = settle(state, alpha="marine")

    def change(data: dict[str, Any]) -> None:
        data["strikeback"]["mission_state"]["flames"] = flames
        pile = data["event_deck"]["draw_pile"]
        data["event_deck"]["discard_pile"] = [c for c in pile if c != "ev01"]
        data["event_deck"]["draw_pile"] = ["ev01"]
        data["round"] = 7
        data["alien_tech"] = 0
        if dead_rank is not None:
            data["agents"]["biotech"].update(rank=dead_rank, dead=True, hex=None, wounds=6)
            data["turn_order"] = [u for u in data["turn_order"] if u != "biotech"]

    state = quiet_round(edit(state, change), card="ce22")
    lines: list[str] = []
    for _ in range(120):
        prompt = waiting(state)
        over = bool(dump(state)["campaign"]["results"])
        if (prompt.kind == "turn" and over) or prompt.finished:
            break
        if prompt.seats:
            lines.append(f"? {prompt.text}")
            seat = prompt.seats[0]
            offers = legal(state, seat)
            stay = [a for a in offers if a.args.get("option") == "stay-out"]
            choice = stay[0] if stay else offers[0]
            if prompt.kind == "turn":
                choice = Action(verb="end-turn", args={"unit": seat})
            step = GAME.apply(state, seat, choice, SeededDice(3))
        else:
            step = GAME.advance(state, SeededDice(3))
        state = step.state
        lines.extend(e.text for e in step.events)
    return state, "\n".join(lines)


def test_accomplished_mission_1_leads_to_mission_2() -> None:
    """Mission 1 Objectives: Accomplished -> next mission 2."""
    state, _ = os1_finished([3])
    assert dump(state)["mission"] == "os2"


def test_failed_mission_1_is_played_again() -> None:
    """Mission 1 Objectives: Failed (four fires) -> next mission 1."""
    state, _ = os1_finished([1, 2, 3, 4])
    data = dump(state)
    assert data["mission"] == "os1"
    assert data["campaign"]["attempt"] == 2


def test_last_rank_roll_at_the_end_of_the_mission() -> None:
    """5.4: an agent who gained no rank during the mission rolls one last time at its end."""
    _, log = os1_finished([3])
    assert "last roll of the mission" in log


def test_dead_agent_returns_at_gold() -> None:
    """5.5: a dead agent returns to the campaign without the ranks he had obtained, starting
    his next mission at Gold (he died at Moon)."""
    state, _ = os1_finished([3], dead_rank=5)
    assert dump(state)["mission"] == "os2"
    assert dump(state)["agents"]["biotech"]["rank"] == 3


def test_mission_2_after_accomplished_lets_each_agent_select_a_device() -> None:
    """Mission 2 Reinforcements: after an accomplished Mission 1 each agent gains one device,
    selected by the agent (a choice, not a random draw)."""
    _, log = os1_finished([3])
    for name in ("Chromium (Marine)", "Thorium (Biotech)", "Mercury (Infiltrator)"):
        assert f"? {name} selects a device" in log


def test_mission_2_weapon_limits_from_the_briefing() -> None:
    """Storybook 2.1 / Mission 2 briefing: 3 Improved and 2 Alien weapons from Headquarters."""
    _, log = os1_finished([3])
    assert "up to 3 Improved and 2 Alien weapons" in log
