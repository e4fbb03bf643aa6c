"""Strikeback storybook chapter 5, Playing the GD Campaign (`campaign`, expansion
strikeback): mission transitions (each mission's Objectives table), the end-of-mission rank
roll (5.4), a dead agent's return at Gold (5.5) and Mission 2's Reinforcements after an
accomplished Mission 1.

Mission 1's end is staged on the dump (last Event card, fires, a dead agent who stays out),
then the campaign is played on with every prompt answered by its first offer (the revival
prompt by "stay out").
"""

from __future__ import annotations

import re
from typing import Any

from sb_probe import GAME, dump, edit, legal, quiet_round, settle, waiting

from engine.core.dice import SeededDice
from engine.core.game import Action

SEATS = ("marine", "biotech", "infiltrator")
FIRST: dict[str, tuple[int, set[str]]] = {}


def gear(state: Any, seat: str) -> tuple[int, set[str]]:
    """An agent's rank and the tactics and skills he holds, as dumped."""
    agent = dump(state)["agents"][seat]
    return int(agent["rank"]), set(agent["tactics"]) | set(agent["skills"])


def os1_finished(flames: list[int], dead_rank: int | None = None) -> tuple[Any, str]:
    """Play the campaign's Mission 1 to its end with `flames` burning; with `dead_rank` the
    Biotech (at that rank) is dead and stays out. Returns the state at the next mission's
    first Agent turn and everything narrated on the way (prompts as "? <text>")."""
    state = GAME.new(
        "campaign", list(SEATS), {"expansion": "strikeback", "human-view": "off"}, SeededDice(7)
    )
    state = settle(state, alpha="marine")
    FIRST.update({seat: gear(state, seat) for seat in SEATS})

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


def campaign_start(
    pick: str, seats: tuple[str, ...] = ("marine", "biotech")
) -> tuple[Any, list[str]]:
    """A new Strikeback campaign played to its first Agent turn, each choice answered by the
    `pick` ("first" or "last") offer; returns the state and the prompts' texts."""
    state = GAME.new(
        "campaign",
        list(seats),
        {"expansion": "strikeback", "human-view": "off"},
        SeededDice(7),
    )
    asked: list[str] = []
    for _ in range(60):
        prompt = waiting(state)
        if prompt.kind == "turn" or prompt.finished:
            return state, asked
        if prompt.seats:
            seat = prompt.seats[0]
            offers = legal(state, seat)
            asked.append(prompt.text)
            choice = offers[-1] if pick == "last" and prompt.kind == "choice" else offers[0]
            if prompt.kind == "choice" and "weapon" in prompt.text:
                choice = offers[0]
            state = GAME.apply(state, seat, choice, SeededDice(5)).state
        else:
            state = GAME.advance(state, SeededDice(5)).state
    raise AssertionError("no Agent turn reached")


def test_campaign_agents_start_at_gold() -> None:
    """5.2: every agent starts the Strikeback campaign at the Gold GD-Wings rank (3)."""
    state, _ = campaign_start("first")
    assert {dump(state)["agents"][s]["rank"] for s in ("marine", "biotech")} == {3}


def test_gold_start_is_one_basic_tactic_one_improved_tactic_one_skill() -> None:
    """5.2: reaching Gold, each agent selects one Basic Tactic, one Improved Tactic and one
    Skill: three picks per agent, no more."""
    state, asked = campaign_start("first")
    assert sum("pick one" in text for text in asked) == 6
    for seat in ("marine", "biotech"):
        agent = dump(state)["agents"][seat]
        assert len(agent["tactics"]) == 2 and len(agent["skills"]) == 1


def test_gold_start_powers_are_the_players_picks() -> None:
    """5.2: the powers are selected, not dealt: answering each pick with the last offer
    instead of the first gives other tactics and skill."""
    first, _ = campaign_start("first")
    last, _ = campaign_start("last")
    for seat in ("marine", "biotech"):
        assert gear(first, seat)[1].isdisjoint(gear(last, seat)[1])


def test_a_living_agents_rank_tactics_and_skills_carry_to_the_next_mission() -> None:
    """Storybook 5 (and 9.8, the new rank is carried on): an agent alive at the end of
    Mission 1 starts Mission 2 at his rank or above (one last rank roll, 5.4), with every
    tactic and skill he held."""
    state, _ = os1_finished([3])
    assert dump(state)["mission"] == "os2"
    for seat in SEATS:
        rank, powers = gear(state, seat)
        assert rank >= FIRST[seat][0]
        assert FIRST[seat][1] <= powers


# --- 5.3 Calling Reinforcements in a campaign ----------------------------------------------


def reinforce(seed: int, seats: tuple[str, ...]) -> tuple[Any, list[str], str, list[str]]:
    """The first round of the campaign with four Alien Tech fragments: at the next Strategy
    phase the Alpha Agent asks for the weapon (the draw follows `seed`) and it is accepted
    where offered. Returns the state at the next Agent turn, the mission start's prompts, the
    narration and the Reinforcements pick's options."""
    start, asked = campaign_start("first", seats)
    state = edit(start, lambda d: d.update(alien_tech=4))
    lines: list[str] = []
    picks: list[str] = []
    for _ in range(60):
        prompt = waiting(state)
        if prompt.kind == "turn" and int(dump(state)["round"]) > 1:
            return state, asked, "\n".join(lines), picks
        if prompt.kind == "turn":
            seat = prompt.seats[0]
            step = GAME.apply(
                state, seat, Action(verb="end-turn", args={"unit": seat}), SeededDice(6)
            )
        elif prompt.seats:
            seat = prompt.seats[0]
            offers = legal(state, seat)
            keys = [a.args.get("option", "") for a in offers]
            choice = offers[0]
            if "weapon" in keys:
                picks = keys
                choice = offers[keys.index("weapon")]
            step = GAME.apply(state, seat, choice, SeededDice(seed))
        else:
            step = GAME.advance(state, SeededDice(seed))
        lines.extend(e.text for e in step.events)
        state = step.state
    raise AssertionError("no second round reached")


def test_campaign_reinforcements_offer_a_chosen_device_or_a_new_improved_weapon() -> None:
    """5.3: spending the four fragments, the Alpha Agent asks for one selected Generic device
    or one new Improved weapon."""
    _, _, _, picks = reinforce(1, ("marine",))
    assert "weapon" in picks
    assert len([k for k in picks if k not in ("weapon", "keep")]) > 5


def test_campaign_reinforcement_weapon_is_none_in_use_or_at_headquarters() -> None:
    """5.3: the new weapon is drawn from the Improved weapons not in use by the agents nor at
    GD Headquarters (whose weapons the mission start offered)."""
    for seed in range(1, 7):
        _, asked, log, _ = reinforce(seed, ("marine",))
        drawn = re.findall(r"random improved weapon, the ([A-Z][\w ]+?)[,:]", log, re.IGNORECASE)
        drawn += re.findall(r"takes the ([A-Z][\w ]+?):", log)
        assert drawn, log
        at_hq = {
            name
            for text in asked
            if "GD Headquarters" in text
            for name in text.split(": ")[-1].split(", ")
        }
        carried = {"Heavy Pistol", "Service Pistol", "Assault Rifle"}
        assert not set(drawn) & (at_hq | carried), (seed, drawn)


def test_campaign_reinforcement_weapon_ignores_the_classes_in_play() -> None:
    """5.3: the draw is made whatever the classes in play: with a lone Marine the Biotech's
    Regen Field Projector can come, and nobody taking it, it waits at GD Headquarters."""
    _, _, log, _ = reinforce(5, ("marine",))
    assert "Regen Field Projector" in log
    assert "waits at GD Headquarters" in log


def test_campaign_reinforcement_weapon_comes_with_full_ammo() -> None:
    """5.3: a weapon delivered by Reinforcements has full Ammo (the Nova Launcher: 3)."""
    state, _, log, _ = reinforce(1, ("marine",))
    assert "takes the Nova Launcher" in log
    held = {w["key"]: w["ammo"] for w in dump(state)["agents"]["marine"]["weapons"]}
    assert held.get("nova-launcher") == 3


def test_a_power_one_agent_took_at_the_gold_start_is_not_offered_to_another() -> None:
    """5.2: "any dispute in selecting powers between agents" is settled by a coin toss: the
    box holds one token of each Tactic and Skill (core components: 10 Basic, 10 Improved
    Tactics, 15 Skills), so two agents cannot both hold one."""
    state, _ = campaign_start("last")
    marine, biotech = gear(state, "marine")[1], gear(state, "biotech")[1]
    assert marine.isdisjoint(biotech), marine & biotech
