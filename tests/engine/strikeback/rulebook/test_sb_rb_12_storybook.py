"""Strikeback storybook: mission set-up (2.2), Objectives read top-down (2.4), standalone
play (4), the campaign's rank limit and High Impact (5.4, 5.5.1) and the missions' printed
rules (7) where an effect can be seen through the protocol.

The Events deck draws from the end of its dumped `draw_pile` (as the core auditor learnt), so
"the n-th event" is the n-th card from the end.
"""

from __future__ import annotations

from typing import Any

import pytest
from sb_probe import (
    GAME,
    act,
    adjacent,
    advance,
    dump,
    edit,
    fig,
    legal,
    new,
    on_top,
    quiet_round,
    settle,
    stage,
    to_turn,
    view,
    waiting,
)

from engine.core.dice import ScriptedDice, SeededDice

HV_OFF = {"human-view": "off"}
MISSIONS = ["os1", "os2", "os3", "os4", "os5", "os6"]


# --- 5.5.1 High Impact, Default = On ------------------------------------------------------


@pytest.mark.parametrize("scenario", MISSIONS)
def test_high_impact_is_on_by_default_in_every_mission(scenario: str) -> None:
    """5.5.1: High Impact is an optional rule whose default is On."""
    assert dump(new(scenario))["options"]["high-impact"] == "on"


def test_high_impact_is_on_by_default_in_the_campaign() -> None:
    """5.5.1 in the Strikeback campaign."""
    state = GAME.new("campaign", ["marine"], {"expansion": "strikeback"}, SeededDice(7))
    assert dump(state)["options"]["high-impact"] == "on"


# --- Events deck order (each mission's Event deck line) ------------------------------------


def nth_events(scenario: str) -> list[str]:
    pile: list[str] = dump(new(scenario))["event_deck"]["draw_pile"]
    return list(reversed(pile))


def test_os1_special_events_positions() -> None:
    """Mission 1: Special Event A is the 1st event, B the 3rd, C the 7th."""
    order = nth_events("os1")
    assert (order[0], order[2], order[6]) == ("os1-a", "os1-b", "os1-c")
    assert "os1-d" in order[4:6]  # D between the 5th and 6th


def test_os2_special_events_positions() -> None:
    """Mission 2: Special Event D is the 1st event, B the 5th, C the 8th."""
    order = nth_events("os2")
    assert (order[0], order[4], order[7]) == ("os2-d", "os2-b", "os2-c")


def test_os3_special_events_positions() -> None:
    """Mission 3: Special Event A is the 1st event, E the 2nd, B the 3rd."""
    order = nth_events("os3")
    assert order[:3] == ["os3-a", "os3-e", "os3-b"]


# --- Briefings: devices, probes, remote --------------------------------------------------


def all_devices(state: Any, seat: str) -> list[str]:
    data = dump(state)
    return [*data["agents"][seat]["devices"], *data["strikeback"]["devices"].get(seat, [])]


def test_os1_one_device_per_agent() -> None:
    """Mission 1 briefing: Devices 1 per agent."""
    state = new("os1", ("marine", "biotech", "infiltrator"))
    assert all(len(all_devices(state, s)) == 1 for s in ("marine", "biotech", "infiltrator"))


def test_os2_no_device_at_start_one_each_in_the_first_strategy() -> None:
    """Mission 2: Devices 0 per agent; standalone, each agent gains one random device in the
    first Strategy phase's Reinforcements."""
    fresh = new("os2", ("marine", "biotech"))
    assert all(all_devices(fresh, s) == [] for s in ("marine", "biotech"))
    state = to_turn("os2", ("marine", "biotech"))
    assert all(len(all_devices(state, s)) == 1 for s in ("marine", "biotech"))


def test_os2_probes_shared_at_least_one_each() -> None:
    """Mission 2 Reinforcements: the four Underground Probes go to the agents, at least one
    per agent."""
    state = to_turn("os2", ("marine", "biotech", "infiltrator"))
    pieces = dump(state)["strikeback"]["mission_state"]["pieces"]
    holders = [p["holder"] for p in pieces.values() if p["kind"] == "probe"]
    assert len(holders) == 4
    assert set(holders) == {"marine", "biotech", "infiltrator"}


def test_os3_two_devices_each_and_two_jet_boots() -> None:
    """Mission 3: Devices 2 per agent, and two agents each take Jet Boots among them."""
    state = to_turn("os3", ("marine", "biotech", "infiltrator"))
    kits = {s: all_devices(state, s) for s in ("marine", "biotech", "infiltrator")}
    assert all(len(k) == 2 for k in kits.values())
    assert sum(k.count("jet-boots") for k in kits.values()) == 2


def test_os3_remote_control_goes_to_an_agent() -> None:
    """Mission 3 Reinforcements: the Alpha Agent gives the Remote Control to an agent."""
    state = to_turn("os3", ("marine", "biotech"))
    remote = dump(state)["strikeback"]["mission_state"]["pieces"]["remote"]
    assert remote["holder"] in ("marine", "biotech")


# --- Event phase special rules ------------------------------------------------------------


@pytest.mark.parametrize("scenario", ["os2", "os3"])
def test_event_card_not_drawn_until_the_mission_allows(scenario: str) -> None:
    """Mission 2 skips the Event phase until a probe is on Waypoint 1; Mission 3 replaces the
    draw (move and teleport Signals) until both bombs went off: no Event card is drawn."""
    state = stage(scenario, ("marine", "biotech"), agents={"marine": "E7", "biotech": "D7"})
    before = dump(state)["event_deck"]["draw_pile"]
    after = quiet_round(state, card="ce22")
    assert dump(after)["event_deck"]["draw_pile"] == before
    assert dump(after)["event_deck"]["discard_pile"] == []


# --- NPC decks ----------------------------------------------------------------------------


def test_os1_npc_deck_is_the_two_knights() -> None:
    """Mission 1: the two Archons are removed; the two Knights are on top of the NPC deck."""
    deck = dump(new("os1"))["strikeback"]["npc_deck"]
    assert sorted(deck) == ["knight-1", "knight-2"]


def test_os6_random_npc_joins_adjacent_in_the_first_strategy() -> None:
    """Mission 6 Reinforcements: the random NPC set aside is assigned and placed adjacent to
    its agent (the Archons stay aside in a standalone mission)."""
    state = to_turn("os6", ("marine", "biotech"))
    npcs = dump(state)["strikeback"]["npcs"]
    assert len(npcs) == 1
    ((uid, record),) = npcs.items()
    assert not uid.startswith("archon")
    npc, agent = fig(state, uid), fig(state, record["controller"])
    assert npc is not None and agent is not None and adjacent(state, npc.coord, agent.coord)


# --- Mission 1: Special Event B and the fires ----------------------------------------------


def event_b() -> Any:
    state = stage(
        "os1",
        ("marine", "biotech", "infiltrator"),
        agents={"marine": "E7", "biotech": "B9", "infiltrator": "I9"},
        options=HV_OFF,
    )
    state = quiet_round(on_top(state, "event_deck", "os1-b"), card="ce22")
    for _ in range(8):
        prompt = waiting(state)
        if prompt.kind == "turn" or not prompt.seats:
            break
        seat = prompt.seats[0]
        state = GAME.apply(state, seat, legal(state, seat)[0], ScriptedDice([6] * 30)).state
    return state


def test_os1_event_b_knight_to_the_alpha_adjacent() -> None:
    """Mission 1 Event B: the Knight's card goes to the Alpha Agent, its figure adjacent."""
    state = event_b()
    npcs = dump(state)["strikeback"]["npcs"]
    alpha = dump(state)["alpha"]
    assert [r["controller"] for r in npcs.values()] == [alpha]
    knight, leader = fig(state, next(iter(npcs))), fig(state, alpha)
    assert knight is not None and leader is not None
    assert adjacent(state, knight.coord, leader.coord)


def test_os1_event_b_two_firefighters_harpoon_jet_boots_and_a_fire() -> None:
    """Mission 1 Event B: two Firefighters, the Harpoon and the Jet Boots handed out, a
    FLAME on Waypoint 3."""
    state = event_b()
    data = dump(state)
    assert len(data["strikeback"]["mission_state"]["firefighters"]) == 2
    handed = [d for kit in data["strikeback"]["devices"].values() for d in kit]
    assert sorted(handed) == ["harpoon", "jet-boots"]
    assert data["strikeback"]["mission_state"]["flames"] == [3]


def test_os1_after_event_b_each_event_phase_lights_the_lowest_waypoint() -> None:
    """Mission 1 Event B: from the next round, each Event phase puts a FLAME on the
    lowest-numbered Waypoint without one (Waypoint 3 burns: 1, then 2, then 4)."""
    state = settle(event_b())
    flames = []
    for _ in range(3):
        state = quiet_round(state, card="ce22")
        flames.append(sorted(dump(state)["strikeback"]["mission_state"]["flames"]))
        state = settle(state)
    assert flames == [[1, 3], [1, 2, 3], [1, 2, 3, 4]]


def firefighter_by_fire() -> Any:
    state = stage("os1", ("marine", "biotech"), agents={"marine": "G6", "biotech": "B9"})
    return edit(
        state,
        lambda d: d["strikeback"]["mission_state"].update(
            flames=[3], firefighters={"marine": True}
        ),
    )


def test_os1_firefighter_removes_an_adjacent_flame() -> None:
    """Mission 1 Firefighter task: adjacent to a FLAME, the Action removes it."""
    state = firefighter_by_fire()
    step = act(state, "act", [6] * 5, unit="marine", what="extinguish", target="wp3")
    assert dump(step.state)["strikeback"]["mission_state"]["flames"] == []


def test_os1_extinguisher_must_be_recharged_before_reuse() -> None:
    """Mission 1: the used extinguisher flips face down; it is used again only after a
    Recharge (another Action)."""
    state = firefighter_by_fire()
    used = act(state, "act", [6] * 5, unit="marine", what="extinguish", target="wp3").state
    later = settle(
        quiet_round(edit(used, lambda d: d["strikeback"]["mission_state"].update(flames=[3])))
    )
    whats = {a.args.get("what") for a in legal(later) if a.verb == "act"}
    assert "extinguish" not in whats
    assert "recharge" in whats


# --- 2.4 Objectives: first matching row, top down ------------------------------------------


def os1_end(flames: list[int], dead: list[str], last_round: bool = True) -> Any:
    state = stage(
        "os1",
        ("marine", "biotech", "infiltrator"),
        agents={"marine": "E7"},
        options={**HV_OFF, "permanent-death": "on"},
    )

    def change(data: dict[str, Any]) -> None:
        data["strikeback"]["mission_state"]["flames"] = flames
        if last_round:
            pile = data["event_deck"]["draw_pile"]
            data["event_deck"]["discard_pile"] = [c for c in pile if c != "ev01"]
            data["event_deck"]["draw_pile"] = ["ev01"]
            data["round"] = 7
        else:
            data["event_deck"]["draw_pile"] = [
                c for c in data["event_deck"]["draw_pile"] if c != "os1-a"
            ] + ["ev01"]
        for seat in dead:
            data["agents"][seat].update(dead=True, hex=None, wounds=6)
        data["turn_order"] = [u for u in data["turn_order"] if u not in dead]

    return settle(quiet_round(edit(state, change), card="ce22"), until="never")


def test_os1_objectives_first_row_wins_at_the_end() -> None:
    """2.4: the first matching row, top down: two fires at the end is Accomplished even with
    two of three agents dead (which the third row would call Failed)."""
    state = os1_end([3, 4], ["biotech", "infiltrator"])
    assert waiting(state).finished and waiting(state).outcome == "accomplished"


def test_os1_three_fires_is_partial() -> None:
    state = os1_end([1, 2, 3], [])
    assert waiting(state).outcome == "partial"


def test_os1_four_fires_fail() -> None:
    state = os1_end([1, 2, 3, 4], [])
    assert waiting(state).outcome == "failed"


def test_os1_half_the_agents_dead_fails_before_the_end() -> None:
    """2.4: before the deadline the "at the end of the mission" rows cannot match; half the
    agents (rounded up) dead fails the mission in the Strategy check."""
    state = os1_end([], ["biotech", "infiltrator"], last_round=False)
    assert waiting(state).finished and waiting(state).outcome == "failed"


# --- 5.4 one rank per mission in a campaign ----------------------------------------------


def rank_roll(limit: str) -> str:
    state = stage("os6", agents={"marine": "E7"}, options={**HV_OFF, "rank-limit": limit})
    state = edit(
        state,
        lambda d: (
            d["agents"]["marine"].update(rank=3, ranks_gained=1),
            d.update(kills_this_round=1),
        ),
    )
    ended = act(state, "end-turn", unit="marine").state
    step = advance(on_top(ended, "ce_deck", "os-04"), [6, 6, 6, *[4] * 30], [0] * 60)
    return "\n".join(e.text for e in step.events)


def test_campaign_allows_one_rank_per_mission() -> None:
    """5.4 / 9.8: in a campaign an agent gains at most one rank per mission."""
    assert "reaches Earth" not in rank_roll("campaign")


def test_standalone_has_no_rank_limit() -> None:
    """9.8: a standalone mission has no limit to ranks earned."""
    assert "reaches Earth" in rank_roll("standalone")


# --- Mission 6: the Wormoon ------------------------------------------------------------------


def wormoon_at_one_hp() -> Any:
    state = to_turn("os6", ("marine", "biotech"))
    grid = {c.coord: (c.col, c.row) for c in view(state).cells}

    def change(data: dict[str, Any]) -> None:
        worm = next(a for a in data["aliens"] if a["card"].startswith("wormoon"))
        worm.update(wounds=7, hex=list(grid["G7"]))
        data["strikeback"]["bodies"] = {worm["id"]: [list(grid["H7"])]}
        data["strikeback"]["stacks"][worm["id"]] = [0, 0]
        data["agents"]["marine"]["hex"] = list(grid["F7"])
        data["ce_deck"]["discard_pile"].append("os-01")

    return edit(state, change)


def test_os6_wormoon_stage_1_at_zero_fights_on_and_brings_event_a() -> None:
    """Mission 6: at 0 Health the Stage I Wormoon is not dead (it fights on until the end of
    the Round) and Special Event A goes on top of the Events deck."""
    state = wormoon_at_one_hp()
    worm = next(a for a in dump(state)["aliens"] if a["card"].startswith("wormoon"))["id"]
    step = act(
        state, "attack", [5, 5, 5, 5, *[4] * 20], unit="marine", target=worm, weapon="ion-lance"
    )
    assert fig(step.state, worm) is not None
    assert dump(step.state)["event_deck"]["draw_pile"][-1] == "os6-a"


def swallowed() -> Any:
    state = to_turn("os6", ("marine", "biotech", "infiltrator"))
    return quiet_round(on_top(state, "event_deck", "os6-a"), card="os-04")


def test_os6_event_a_swallows_the_alpha_and_ranks_up_the_others() -> None:
    """Mission 6 (the swallowing event): every agent on the battlefield gains a rank, then the
    Alpha's figure leaves play and the Wormoon's figure is set aside."""
    before = to_turn("os6", ("marine", "biotech", "infiltrator"))
    ranks = {s: dump(before)["agents"][s]["rank"] for s in ("biotech", "infiltrator")}
    state = swallowed()
    data = dump(state)
    assert fig(state, "marine") is None
    assert all(data["agents"][s]["rank"] == ranks[s] + 1 for s in ranks)
    assert not any(a["card"].startswith("wormoon") for a in data["aliens"])


def test_os1_event_a_hazard_xeno_deltas_and_the_teleport_point() -> None:
    """Mission 1 Event A: an agent on mark #1 suffers 1 wound and is moved 1 hex away; a Green
    Xeno-Delta lands on #1, a Blue one on #2, the Teleport Point opens on #3 and one Close
    Encounter #28 goes on top of its deck."""
    probe = stage("os1", ("marine", "biotech"), agents={"marine": "E7", "biotech": "B9"})
    marks = {m: c.coord for c in view(probe).cells for m in c.marks if m in ("m1", "m2", "m3")}
    state = stage(
        "os1",
        ("marine", "biotech"),
        agents={"marine": marks["m1"], "biotech": "B9"},
        options=HV_OFF,
    )
    before = dump(state)["agents"]["marine"]["wounds"]
    state = on_top(state, "event_deck", "os1-a")
    ended = act(state, "end-turn", [6] * 30, unit="marine").state
    ended = advance(on_top(ended, "ce_deck", "ce22"), [6] * 60, [0] * 60).state
    ended = act(ended, "end-turn", [6] * 30, seat="biotech", unit="biotech").state
    step = advance(on_top(ended, "ce_deck", "ce22"), [6] * 60, [0] * 60)
    after = step.state
    marine = fig(after, "marine")
    assert marine is not None and adjacent(after, marine.coord, marks["m1"])
    assert dump(after)["agents"]["marine"]["wounds"] == before + 1
    names = {f.coord: f.name for f in view(after).figures}
    assert names.get(marks["m1"], "").startswith("Green Xeno-Delta")
    assert names.get(marks["m2"], "").startswith("Blue Xeno-Delta")
    log = "\n".join(e.text for e in step.events)
    assert f"Teleport Point (Alien) opens at {marks['m3']}" in log
    on_top_line = next(x for x in log.split("\n") if "on top of the Close Encounter deck" in x)
    assert "#28" in on_top_line


# --- Storybook 6 Level of Difficulty ------------------------------------------------------

PRESETS = {
    "easy": {
        "high-impact": "on",
        "close-fight": "off",
        "fighting-poses": "off",
        "human-view": "off",
        "friendly-fire": "off",
    },
    "normal": {
        "high-impact": "on",
        "close-fight": "on",
        "fighting-poses": "on",
        "human-view": "on",
        "friendly-fire": "off",
    },
    "hard": {
        "high-impact": "on",
        "close-fight": "on",
        "fighting-poses": "on",
        "human-view": "on",
        "friendly-fire": "on",
    },
}


@pytest.mark.parametrize("level", sorted(PRESETS))
def test_difficulty_level_switches_the_five_optional_rules(level: str) -> None:
    """Storybook 6: each level is a setting of High Impact, Close Fight, Fighting Poses,
    Human View and Friendly Fire (an option left out reads as its default, Off)."""
    options = dump(new("os1", difficulty=level))["options"]
    assert {k: options.get(k, "off") for k in PRESETS[level]} == PRESETS[level]


def test_easy_offers_no_fighting_pose_normal_does() -> None:
    """Storybook 6, seen in play: Fighting Poses are off at EASY and on at NORMAL."""

    def poses(level: str) -> list[str]:
        state = stage("os1", agents={"marine": "E7"}, options={"difficulty": level})
        return [a.args["order"] for a in legal(state) if "pose" in a.args.get("order", "")]

    assert not poses("easy")
    assert poses("normal")
