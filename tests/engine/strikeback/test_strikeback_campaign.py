"""Storybook 5: the Operation Strikeback campaign (scenario `campaign`, `expansion:strikeback`),
its start (5.1, 5.2), Reinforcements (5.3), ranks (5.4), death (5.5) and the branching of the
Objectives tables' next-mission column."""

from __future__ import annotations

import pytest

from engine.core.dice import Dice, ScriptedDice, SeededDice
from engine.core.errors import NotSupportedYet
from engine.core.events import Event
from engine.galaxy import GAME
from engine.galaxy.content import EventCard, content
from engine.galaxy.phases import begin_mission
from engine.galaxy.state import GalaxyState, WeaponState
from engine.galaxy.strikeback import campaign as sb_campaign
from engine.galaxy.strikeback import headquarters, play
from engine.galaxy.strikeback.play import event_effects
from engine.galaxy.strikeback.status import sb_state
from engine.galaxy.supply import finish_reinforcements, offer_reinforcements, revival_queue
from engine.galaxy.world import weapon

TEAM = ["marine", "sniper", "hulk"]
IMPROVED = sorted(k for k, w in content().weapons.items() if w.tier == "improved")
ALIEN = sorted(k for k, w in content().weapons.items() if w.tier == "alien")


def new(seats: list[str] = TEAM, seed: int = 5) -> GalaxyState:
    return GAME.new("campaign", seats, {"expansion": "strikeback"}, SeededDice(seed))


def settle(state: GalaxyState, seed: int = 3) -> GalaxyState:
    """Advance, answering every Strategy-phase prompt with its default, to the first turn."""
    for n in range(200):
        state = GAME.advance(state, SeededDice(seed + n)).state
        prompt = GAME.waiting_on(state)
        if prompt.kind == "turn" or prompt.finished:
            return state
        assert prompt.default is not None, prompt
        state = GAME.apply(state, prompt.seats[0], prompt.default, SeededDice(seed + n)).state
    raise AssertionError("no agent turn came")


def end(state: GalaxyState, outcome: str, dice: Dice | None = None) -> GalaxyState:
    """The Objectives table just gave `outcome`: let the campaign move on."""
    state = state.model_copy(deep=True)
    state.pending = None
    state.outcome, state.outcome_text, state.phase = outcome, f"test: {outcome}", "ended"
    return GAME.advance(state, dice or SeededDice(11)).state


def test_the_campaign_starts_at_mission_1_with_headquarters_and_gold_agents() -> None:
    state = new()
    camp = state.campaign
    assert camp is not None and state.mission == "os1" and state.expansion is not None
    assert camp.missions == ["os1", "os2", "os3", "os4", "os5", "os6"]
    # 5.1: every core Improved weapon, five core Alien weapons drawn with the injected dice
    assert camp.hq[: len(IMPROVED)] == IMPROVED
    drawn = camp.hq[len(IMPROVED) :]
    assert len(drawn) == 5 and set(drawn) <= set(ALIEN)
    others = [new(seed=s).campaign for s in (6, 7, 8)]
    assert any(o is not None and o.hq != camp.hq for o in others)  # the dice draw them
    assert state.options["expansion"] == "strikeback" and state.options["start-rank"] == "gold"
    state = settle(state)
    for seat in TEAM:  # 5.2: Gold, one Basic Tactic, one Improved Tactic, one Skill
        agent = state.agents[seat]
        kinds = sorted(content().powers[p].kind for p in [*agent.tactics, *agent.skills])
        assert agent.rank == sb_campaign.GOLD and kinds == [
            "basic-tactic",
            "improved-tactic",
            "skill",
        ]
    # 2.1: the mission's weapons come from GD Headquarters, within the briefing's limits
    held = [w.key for s in TEAM for w in state.agents[s].weapons]
    improved = [k for k in held if weapon(k).tier == "improved"]
    alien = [k for k in held if weapon(k).tier == "alien"]
    assert 1 <= len(improved) <= 4 and len(alien) <= 1
    assert not set(improved + alien) & set(state.campaign.hq)  # type: ignore[union-attr]
    assert state.round == 1 and state.mission == "os1"


def test_the_headquarters_pick_is_each_agents_choice_within_the_limits() -> None:
    state = GAME.advance(new(), SeededDice(1)).state
    while state.pending is not None and state.pending.kind != "sb-armory":
        prompt = GAME.waiting_on(state)
        assert prompt.default is not None
        state = GAME.apply(state, prompt.seats[0], prompt.default, SeededDice(2)).state
        state = GAME.advance(state, SeededDice(3)).state
    assert state.pending is not None and state.pending.seat == state.alpha
    seat = state.alpha
    options = state.pending.options
    assert options[-1] == sb_campaign.DONE
    assert all(not weapon(o).classes or seat in weapon(o).classes for o in options[:-1])
    alien = next(o for o in options if o in ALIEN)
    state = GAME.apply(
        state, seat, GAME.legal_actions(state, seat)[options.index(alien)], SeededDice(1)
    ).state
    assert state.pending is not None and state.pending.kind == "accept"
    state = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0], SeededDice(1)).state
    state = GAME.advance(state, SeededDice(1)).state
    # the Alien limit (1) is reached: no Alien weapon is offered to anyone any more
    assert state.pending is not None and state.pending.kind == "sb-armory"
    assert not set(state.pending.options) & set(ALIEN)


def test_the_next_mission_is_the_tables_column_and_mission_6_accomplished_wins() -> None:
    state = settle(new())
    route = [
        ("partial", "os2"),
        ("failed", "os3"),
        ("failed", "os3"),
        ("accomplished", "os5"),
        ("failed", "os5"),
        ("partial", "os6"),
        ("failed", "os6"),
    ]
    for outcome, nxt in route:
        state = end(state, outcome)
        assert state.mission == nxt and state.outcome is None and state.round == 1
    camp = state.campaign
    assert camp is not None and camp.attempt == 2 and camp.index == 5
    state = end(state, "accomplished")
    prompt = GAME.waiting_on(state)
    assert prompt.finished and prompt.outcome == "accomplished"
    final = state.campaign
    assert final is not None and final.over
    assert [(r.mission, r.attempt, r.outcome) for r in final.results] == [
        ("os1", 1, "partial"),
        ("os2", 1, "failed"),
        ("os3", 1, "failed"),
        ("os3", 2, "accomplished"),
        ("os5", 1, "failed"),
        ("os5", 2, "partial"),
        ("os6", 1, "failed"),
        ("os6", 2, "accomplished"),
    ]
    lines = sb_campaign.progress_lines(state)
    assert lines[-1].startswith("Campaign won")


def test_mission_2_accomplished_skips_mission_3() -> None:
    state = end(end(settle(new()), "accomplished"), "accomplished")
    assert state.mission == "os4"


def test_a_branch_to_a_mission_not_built_is_refused_by_name(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = settle(new())
    monkeypatch.setattr(sb_campaign, "registered", lambda: {"os1"})
    with pytest.raises(NotSupportedYet, match=r"Mission 2 \(os2\)"):
        end(state, "accomplished")
    again = end(state, "failed")  # the table sends a failed team back to mission 1
    assert again.mission == "os1" and again.campaign is not None and again.campaign.attempt == 2


def test_a_mission_failed_three_times_in_a_row_ends_the_campaign() -> None:
    state = settle(new())
    for attempt in (2, 3):
        state = end(state, "failed")
        assert state.mission == "os1" and state.campaign is not None
        assert state.campaign.attempt == attempt
    state = end(state, "failed")
    prompt = GAME.waiting_on(state)
    assert prompt.finished and prompt.outcome == "failed"
    assert "3 times in a row" in state.outcome_text
    assert GAME.selfplay_extra(state) == {"missions": ["os1:failed"] * 3}  # self-play's tally


def test_the_previous_result_picks_the_special_event_column() -> None:
    card = EventCard(
        id="t",
        name="t",
        type="special",
        effects=[{"teleport": True}],
        if_previous={"accomplished": [{"act-of-valor": True}]},
    )
    state = settle(new())
    assert state.expansion is not None and sb_state(state).previous is None
    assert event_effects(state, card) == [{"teleport": True}]
    state = end(state, "accomplished")
    assert state.expansion is not None and sb_state(state).previous == "accomplished"
    assert event_effects(state, card) == [{"act-of-valor": True}]
    state = end(state, "failed")  # os2 failed -> os3: the standalone column
    assert state.expansion is not None and sb_state(state).previous == "failed"
    assert event_effects(state, card) == [{"teleport": True}]


def test_an_agent_without_a_rank_this_mission_rolls_once_more_at_its_end() -> None:
    state = settle(new(["marine", "sniper"]))
    marine, sniper = state.agents["marine"], state.agents["sniper"]
    marine.rank, marine.elite = 4, True  # Palladium; 3 GD needed for Platinum
    sniper.ranks_gained = 1  # gained his rank this mission: no last roll
    state.outcome, state.outcome_text, state.phase = "failed", "test", "ended"
    events: list[Event] = []
    carried = sb_campaign.debrief(state, ScriptedDice([3, 6, 6]), events)  # 3 GD
    assert carried == ("os1", 0)
    assert state.agents["marine"].rank == 5 and state.promotions == ["marine:5"]
    assert state.agents["sniper"].rank == sb_campaign.GOLD
    begin_mission(state, *carried, SeededDice(4))
    state = GAME.advance(state, SeededDice(4)).state
    while state.pending is not None and state.pending.kind in ("alpha", "sb-armory", "accept"):
        prompt = GAME.waiting_on(state)
        assert prompt.default is not None
        state = GAME.apply(state, prompt.seats[0], prompt.default, SeededDice(1)).state
        state = GAME.advance(state, SeededDice(4)).state
    assert state.pending is not None and state.pending.kind == "promote"
    assert state.pending.seat == "marine" and state.pending.data["rank"] == 5


def test_a_dead_agent_returns_at_gold_and_weapons_go_back_to_headquarters() -> None:
    state = settle(new(["marine", "hulk"]))
    hulk = state.agents["hulk"]
    hulk.rank, hulk.elite, hulk.ranks_gained = 5, True, 1
    hulk.rank_powers = {"1": "brace", "2": "charge", "3": "last-stand", "5": "bulwark"}
    hulk.tactics, hulk.skills = ["brace", "last-stand"], ["charge", "bulwark"]
    hulk.weapons = [
        WeaponState(key="plasma-cannon", ammo=0),
        WeaponState(key="hydraulic-fists", ammo=0),
    ]
    hulk.dead, hulk.hex = True, None
    state.agents["marine"].ranks_gained = 1
    state = end(state, "failed")
    hulk = state.agents["hulk"]
    assert hulk.rank == sb_campaign.GOLD and not hulk.elite and not hulk.dead
    assert hulk.tactics == ["brace", "last-stand"] and hulk.skills == ["charge"]
    assert [w.key for w in hulk.weapons] == content().agents["hulk"].weapons
    camp = state.campaign
    assert camp is not None and {"plasma-cannon", "hydraulic-fists"} <= set(camp.hq)
    assert state.agents["marine"].rank == sb_campaign.GOLD  # alive: keeps his rank


def test_reinforcements_draw_a_new_improved_weapon_then_alien_ones() -> None:
    from engine.galaxy.strikeback.arsenal import weapons as expansion_weapons

    state = settle(new(["marine"]))
    camp = state.campaign
    assert camp is not None
    extra = expansion_weapons()
    new_improved = sorted(k for k, w in extra.items() if w.tier == "improved")
    # 5.3: the core Improved weapons are all at Headquarters or carried: only the expansion's
    # are new, whatever the classes in play
    assert new_improved and headquarters.weapon_pool(state) == new_improved
    state.phase, state.alien_tech = "strategy", 4
    events: list[Event] = []
    assert offer_reinforcements(state, events)
    assert state.pending is not None and state.pending.options[0] == "weapon"
    pool = headquarters.weapon_pool(state)
    foreign = next(k for k in pool if weapon(k).classes and "marine" not in weapon(k).classes)
    finish_reinforcements(state, "weapon", ScriptedDice(picks=[pool.index(foreign)]), events)
    # nobody on the map can take it: it is kept at GD Headquarters
    assert state.pending is None and camp.hq[-1] == foreign and state.alien_tech == 0
    camp.hq += new_improved
    every_alien = {*ALIEN, *(k for k, w in extra.items() if w.tier == "alien")}
    carried = {w.key for w in state.agents["marine"].weapons}
    assert headquarters.weapon_pool(state) == sorted(every_alien - set(camp.hq) - carried)


@pytest.mark.slow
def test_a_whole_strikeback_campaign_finishes_with_the_advisor() -> None:
    from engine.selfplay import play_one

    result = play_one(
        GAME, "campaign", 2, players=3, policy_name="advisor", options={"expansion": "strikeback"}
    )
    assert result.error is None, result.error
    assert result.finished and result.outcome in ("accomplished", "failed")


def test_an_armory_in_the_campaign_draws_like_reinforcements() -> None:
    from engine.galaxy.strikeback.alientech import deliver_armory, gear

    state = settle(new(["marine"]))
    camp = state.campaign
    assert camp is not None
    gear(state).armory = ["alien"]  # a Red Armory was reached
    pool = headquarters.weapon_pool(state, "alien")
    assert pool and all(weapon(k).tier == "alien" for k in pool)
    foreign = next(k for k in pool if weapon(k).classes and "marine" not in weapon(k).classes)
    events: list[Event] = []
    deliver_armory(state, ScriptedDice(picks=[pool.index(foreign)]), events)
    assert camp.hq[-1] == foreign and gear(state).armory == []  # nobody here takes it


def test_every_campaign_prompt_accepts_exactly_what_it_lists() -> None:
    from engine.core.errors import RuleError
    from engine.core.game import Action

    state = new()
    seen: set[str] = set()
    for n in range(120):
        state = GAME.advance(state, SeededDice(n)).state
        prompt = GAME.waiting_on(state)
        if prompt.kind == "turn" or state.pending is None:
            break
        seen.add(state.pending.kind)
        seat = prompt.seats[0]
        listed = GAME.legal_actions(state, seat)
        vote = state.pending.kind == "alpha"  # every Operative player answers it (leader.py)
        options = [a.args["option"] for a in listed]
        if vote:  # agree (first), propose another, or leave it to the ranking
            assert set(options) <= {*state.pending.options, "no-agreement"}
        else:
            assert options == state.pending.options
        for action in listed:
            GAME.apply(state, seat, action, SeededDice(n))
        with pytest.raises(RuleError):
            GAME.apply(state, seat, Action(verb="choose", args={"option": "zzz"}), SeededDice(n))
        for other in state.seats:
            assert other in prompt.seats or GAME.legal_actions(state, other) == []
            assert vote or other == seat or GAME.legal_actions(state, other) == []
        assert prompt.default is not None and any(prompt.default.matches(a) for a in listed)
        state = GAME.apply(state, seat, listed[n % len(listed)], SeededDice(n)).state
    assert {"sb-armory", "accept", "promote"} <= seen


def test_a_psionic_power_carries_to_the_next_mission_and_is_lost_with_its_rank() -> None:
    from engine.galaxy.strikeback import powers

    state = settle(new(["marine", "sniper"]))
    key = next(k for k, p in powers.psionics().items() if not p.classes)
    other = next(k for k, p in powers.psionics().items() if not p.classes and k != key)
    for seat, power in (("marine", key), ("sniper", other)):
        agent = state.agents[seat]
        agent.rank, agent.elite, agent.ranks_gained = 5, True, 1
        agent.rank_powers["5"] = power
        powers.grant(state, agent, power)
    state.agents["sniper"].dead = True
    state = end(state, "failed")
    assert powers.held(state, "marine") == [key]  # Moon's power is his again
    assert powers.held(state, "sniper") == []  # 5.5: back at Gold, the Moon power is gone
    assert other in powers.pool(state, state.agents["sniper"])


def test_the_agent_the_wormoon_swallowed_is_inoperative_not_dead_after_a_failed_mission_6() -> None:
    """Mission 6's Special Event: the swallowed Alpha Agent counts as an Inoperative player; he
    did not die, so a failed mission 6 sends him back with his ranks, not at Gold."""
    state = settle(new(["marine", "hulk"]))
    for outcome in ("partial", "failed", "accomplished", "partial"):  # os2, os3, os5, os6
        state = end(state, outcome)
    assert state.mission == "os6"
    state = settle(state)
    alpha = state.agents[state.alpha]
    alpha.rank, alpha.elite, alpha.ranks_gained = 5, True, 1
    alpha.rank_powers = {"1": "brace", "2": "charge", "3": "last-stand", "5": "bulwark"}
    other = next(a for a in state.agents.values() if a.id != alpha.id)
    other.ranks_gained = 1
    events: list[Event] = []
    play.rules(state).apply_effect(state, "swallow-alpha", {}, SeededDice(1), events)
    assert alpha.hex is None and alpha.id not in revival_queue(state)
    state.pending = None
    state.outcome, state.outcome_text, state.phase = "failed", "test: failed", "ended"
    step = GAME.advance(state, SeededDice(11))
    state = step.state
    assert state.mission == "os6"
    back = state.agents[alpha.id]
    assert back.rank == 5 and "5" in back.rank_powers and not back.dead
    assert not any("died in the mission" in getattr(e, "text", "") for e in step.events)


# -- what a campaign carries (storybook 5), one test per item ---------------------------------


def test_carried_a_living_agents_rank_tactics_skills_and_elite_side() -> None:
    """Storybook 5: ranks, and the powers chosen with them, carry; wounds, used tactics and
    skills and the mission's devices do not."""
    state = settle(new(["marine", "hulk"]))
    hulk = state.agents["hulk"]
    hulk.rank, hulk.elite, hulk.ranks_gained = 5, True, 1
    hulk.rank_powers = {"1": "brace", "2": "charge", "3": "last-stand", "5": "bulwark"}
    hulk.tactics, hulk.skills = ["brace", "last-stand"], ["charge", "bulwark"]
    hulk.used_tactics, hulk.used_skills, hulk.wounds = ["brace"], ["charge"], 3
    state.agents["marine"].ranks_gained = 1
    state = end(state, "partial")
    hulk = state.agents["hulk"]
    assert (hulk.rank, hulk.elite) == (5, True)
    assert hulk.rank_powers == {"1": "brace", "2": "charge", "3": "last-stand", "5": "bulwark"}
    assert hulk.tactics == ["brace", "last-stand"] and hulk.skills == ["charge", "bulwark"]
    assert hulk.used_tactics == [] and hulk.used_skills == [] and hulk.wounds == 0


def test_carried_every_researched_weapon_waits_at_headquarters() -> None:
    """Storybook 5: a weapon researched stays available: the ones carried go back to GD
    Headquarters, the ones already kept there stay; agents take up their standard weapons."""
    state = settle(new(["marine", "hulk"]))
    camp = state.campaign
    assert camp is not None
    state.agents["marine"].weapons[0] = WeaponState(key="combat-carbine", ammo=1)
    kept = camp.hq[0]
    for agent in state.agents.values():
        agent.ranks_gained = 1
    state = end(state, "partial")
    camp = state.campaign
    assert camp is not None and "combat-carbine" in camp.hq and kept in camp.hq
    marine = state.agents["marine"]
    assert [w.key for w in marine.weapons] == content().agents["marine"].weapons


def test_carried_an_armory_research_the_mission_ended_before_delivering() -> None:
    """Storybook 3 and 5: an Armory token triggers research; if the mission ends before the
    next Reinforcements, the weapon is researched all the same and waits at GD Headquarters
    (it used to be lost with the mission)."""
    from engine.galaxy.strikeback.alientech import gear

    state = settle(new(["marine", "hulk"]))
    camp = state.campaign
    assert camp is not None
    gear(state).armory = ["alien"]  # a Red Armory reached on the last round
    before = set(camp.hq) | {w.key for a in state.agents.values() for w in a.weapons}
    for agent in state.agents.values():
        agent.ranks_gained = 1
    state = end(state, "partial")
    camp = state.campaign
    assert camp is not None
    new_ones = set(camp.hq) - before
    assert len(new_ones) == 1 and weapon(new_ones.pop()).tier == "alien"


def test_not_carried_alien_tech_fragments_are_gathered_for_one_mission() -> None:
    """Our reading (docs/games/strikeback.md): the rules spend the fragments gathered during
    the mission and the storybook carries none, so the next mission starts without them."""
    state = settle(new(["marine", "hulk"]))
    state.alien_tech = 3
    for agent in state.agents.values():
        agent.ranks_gained = 1
    state = end(state, "accomplished")
    assert state.mission == "os2" and state.alien_tech == 0
