"""Rulebook chapter "Agent's Conditions": Health, Bleeding, Death, Engaged in combat,
Immobilized and Paralyzed.

Bleeding is staged on the fresh mission's dump before the first Refresh, so the engine derives
the turn's reduced movement itself. Immobilized/Paralyzed last until the next Refresh, so they
are staged on the Agent turn (Refresh would clear them). Keys learnt from the view's condition
names ("immobilized" shows for the stored "immobilize").
"""

from __future__ import annotations

from typing import Any

import pytest
from galaxy_probe import (
    act,
    acts,
    aliens_turn,
    dump,
    edit,
    fig,
    legal,
    stage,
    texts,
    verbs,
    view,
    waiting,
)

from engine.core.errors import RuleError

HV_OFF = {"human-view": "off"}


def moves(state: Any, seat: str = "marine") -> list[str]:
    return [a.args["to"] for a in legal(state, seat) if a.verb == "move"]


def bleeding(data: dict[str, Any]) -> None:
    data["agents"]["marine"].update(wounds=6, bleeding=True)


def test_agent_starts_at_full_health() -> None:
    """Info & Setup / Health Points: every agent starts the mission at full health."""
    state = stage(seats=("marine", "biotech", "infiltrator", "sniper", "hulk"))
    for f in view(state).figures:
        if f.side == "player":
            assert f.health == f.max_health


def test_bleeding_agent_forfeits_combat() -> None:
    """Bleeding: the agent must forfeit his Combat."""
    state = stage(
        agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF, prep=bleeding
    )
    assert "bleeding" in fig(state, "marine").conditions  # type: ignore[union-attr]
    assert "attack" not in verbs(state)


def test_bleeding_agent_moves_one_hex() -> None:
    """Bleeding: movement is reduced to one Hex."""
    state = stage(agents={"marine": "I3"}, options=HV_OFF, prep=bleeding)
    labels = [a.label for a in legal(state) if a.verb == "move"]
    assert labels and all(lab.endswith("- 1 MP") for lab in labels)


def test_bleeding_agent_action_only_for_powers() -> None:
    """Bleeding: the Action may only activate a power or item (no Search, no Redeployment)."""
    state = stage(agents={"marine": "G5"}, options=HV_OFF, prep=bleeding)
    assert "search" not in acts(state)
    assert "redeploy" not in acts(state)


def test_bleeding_agent_dies_on_further_wound() -> None:
    """Bleeding / Death: any further wound kills the agent; his figure leaves the map and, with
    every player Inoperative, the mission fails at once."""
    state = stage(
        agents={"marine": "I3"},
        aliens=[("x1", "xeno-beta-green-1", "I6")],
        options=HV_OFF,
        prep=bleeding,
    )
    state = edit(state, lambda d: d["agents"]["marine"].update(guard=False))
    # ce01 activates the Xeno-Beta: its Blaster rolls two hit+shield, the Marine two alien.
    step = aliens_turn(state, "ce01", [6, 6, 1, 1] + [6] * 20)
    assert "Xeno-Beta 1 attacks Chromium (Marine)" in texts(step.events)
    assert fig(step.state, "marine") is None
    assert waiting(step.state).finished


def test_healing_lifts_bleeding() -> None:
    """Bleeding: healing at least one wound returns the agent to a healthy state."""
    state = stage(
        seats=("biotech", "marine"),
        agents={"biotech": "I3", "marine": "I4"},
        options=HV_OFF,
        prep=bleeding,
    )
    heal = next(
        a
        for a in legal(state, "biotech")
        if a.verb == "attack" and a.args.get("target") == "marine"
    )
    step = act(state, "attack", [6, 6], seat="biotech", **heal.args)
    marine = fig(step.state, "marine")
    assert marine is not None and marine.health is not None and marine.health >= 1
    assert "bleeding" not in marine.conditions


def test_health_never_exceeds_printed_value() -> None:
    """Health Points: healing never raises HP above the sheet's value."""
    state = stage(
        seats=("biotech", "marine"), agents={"biotech": "I3", "marine": "I4"}, options=HV_OFF
    )
    state = edit(state, lambda d: d["agents"]["marine"].update(wounds=1))
    heal = next(
        a
        for a in legal(state, "biotech")
        if a.verb == "attack" and a.args.get("target") == "marine"
    )
    step = act(state, "attack", [4, 4], seat="biotech", **heal.args)  # 4 Hits
    assert fig(step.state, "marine").health == 6  # type: ignore[union-attr]


def test_engaged_agent_cannot_move() -> None:
    """Engaged in combat: an agent adjacent to an alien at turn start cannot move away."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I4")], options=HV_OFF)
    assert moves(state) == []
    assert "evade" in acts(state)


def test_engaged_agent_cannot_redeploy() -> None:
    """Engaged: only killing the alien or a successful Evade lets the agent leave."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I4")], options=HV_OFF)
    assert "redeploy" not in acts(state)


def test_evade_offered_only_when_engaged() -> None:
    """Evade [Action + Combat]: a way to Disengage, so only offered to an Engaged agent."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "J9")], options=HV_OFF)
    assert "evade" not in acts(state)


def test_evade_success_needs_a_shield() -> None:
    """Evade: roll one die; a Shield lets the agent move away with his Movement."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I4")], options=HV_OFF)
    for face in (2, 3, 5, 6):  # the BLUE faces with a Shield
        step = act(state, "act", [face], unit="marine", what="evade")
        assert moves(step.state), face
        assert "attack" not in verbs(step.state)


def test_evade_failure_stays_engaged() -> None:
    """Evade: without a Shield the agent stays Engaged (and Combat is spent)."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I4")], options=HV_OFF)
    for face in (1, 4):  # alien; hit+hit+bolt
        step = act(state, "act", [face], unit="marine", what="evade")
        assert moves(step.state) == [], face
        assert "attack" not in verbs(step.state)


def test_engaged_after_moving_next_to_alien() -> None:
    """Engaged: moving adjacent to an alien Engages the agent (Evade becomes his way out)."""
    # The engine lets the rest of the same Movement continue (Engagement counts where the
    # Movement ends); what is observable is that Evade is now offered.
    state = stage(agents={"marine": "I2"}, aliens=[("x1", "nexus-red-1", "I4")], options=HV_OFF)
    assert "evade" not in acts(state)
    step = act(state, "move", unit="marine", to="I3")
    assert "evade" in acts(step.state)


def test_killing_the_alien_frees_the_agent() -> None:
    """Engaged: once the alien is killed the agent may move again."""
    state = stage(
        agents={"marine": "I3"}, aliens=[("x1", "xeno-beta-green-1", "I4")], options=HV_OFF
    )
    state = edit(state, lambda d: d["aliens"][0].update(wounds=2))
    step = act(state, "attack", [3, 1, 1, 1], unit="marine", target="x1", weapon="service-pistol")
    assert fig(step.state, "x1") is None
    assert moves(step.state)


def test_close_fight_limits_targets_to_engaged_aliens() -> None:
    """Close Fight (optional): an Engaged agent may only attack the aliens he is Engaged with."""
    aliens = [("x1", "nexus-red-1", "I4"), ("x2", "aracnos-green-1", "I6")]
    off = stage(agents={"marine": "I3"}, aliens=aliens, options=HV_OFF)
    on = stage(
        agents={"marine": "I3"}, aliens=aliens, options={"human-view": "off", "close-fight": "on"}
    )

    def targets(state: Any) -> set[str]:
        return {a.args["target"] for a in legal(state) if a.verb == "attack"}

    assert targets(off) == {"x1", "x2"}
    assert targets(on) == {"x1"}


def test_immobilized_forfeits_movement() -> None:
    """Immobilized: the agent cannot move until the next Refresh."""
    state = stage(agents={"marine": "I3"}, options=HV_OFF)
    state = edit(state, lambda d: d["agents"]["marine"].update(conditions=["immobilize"]))
    assert "immobilized" in fig(state, "marine").conditions  # type: ignore[union-attr]
    assert moves(state) == []


def test_paralyzed_skips_the_turn() -> None:
    """Paralyzed: the agent skips his entire turn until the next Refresh."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF)
    state = edit(state, lambda d: d["agents"]["marine"].update(conditions=["paralyze"]))
    assert verbs(state) <= {"end-turn"}
    assert waiting(state).seats == ["marine"]


def test_bleeding_agent_may_still_use_items() -> None:
    """Bleeding: the Action may still activate one power or item (a grenade, a Medkit)."""
    state = stage(
        agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF, prep=bleeding
    )
    assert "frag-grenade" in acts(state)

    def bio_bleeding(data: dict[str, Any]) -> None:
        data["agents"]["biotech"].update(wounds=5, bleeding=True)

    bio = stage(seats=("biotech",), agents={"biotech": "I3"}, options=HV_OFF, prep=bio_bleeding)
    assert "medkit" in acts(bio, "biotech")
    assert "attack" not in verbs(bio, "biotech")


def test_engaged_agent_may_still_turn() -> None:
    """Human View note: an Engaged agent may still turn to face any direction."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I4")])
    faces = {
        a.args["order"]
        for a in legal(state)
        if a.verb == "orders" and a.args["order"].startswith("face-")
    }
    assert len(faces) == 5  # every direction but the current one


def test_damage_to_zero_or_below_is_bleeding_not_death() -> None:
    """Health Points: an attack taking HP to 0 or below makes the agent Bleeding (not dead)."""
    state = stage(
        agents={"marine": "I3"}, aliens=[("x1", "xeno-beta-green-1", "I6")], options=HV_OFF
    )
    state = edit(state, lambda d: d["agents"]["marine"].update(guard=False, wounds=5))
    step = aliens_turn(state, "ce01", [2, 2, 1, 1, 1, 1] + [6] * 20)  # 4 Hits on 1 HP left
    marine = fig(step.state, "marine")
    assert marine is not None and marine.health == 0
    assert "bleeding" in marine.conditions


def test_immobilized_cannot_unjam_with_movement() -> None:
    """Immobilized: the agent may not use an action that needs Movement (Unjam with Movement),
    neither offered nor accepted."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "J9")], options=HV_OFF)

    def jammed_and_stuck(data: dict[str, Any]) -> None:
        data["agents"]["marine"]["conditions"] = ["immobilize"]
        data["agents"]["marine"]["weapons"][0]["jammed"] = True

    state = edit(state, jammed_and_stuck)
    using = {
        a.args.get("using")
        for a in legal(state)
        if a.verb == "act" and a.args.get("what") == "unjam"
    }
    assert using == {"combat"}
    weapon = dump(state)["agents"]["marine"]["weapons"][0]["key"]
    with pytest.raises(RuleError, match="Immobilized"):
        act(state, "act", unit="marine", what="unjam", weapon=weapon, using="movement")


def immobilized_on_his_turn() -> Any:
    """The Biotech, Immobilized during the Marine's Aliens turn, begins his own Agent turn: the
    engine derives his turn from the condition (no dump edit after the turn starts)."""
    state = stage(
        seats=("marine", "biotech"),
        agents={"marine": "B3", "biotech": "I3"},
        options=HV_OFF,
    )
    state = edit(state, lambda d: d["agents"]["biotech"].update(conditions=["immobilize"]))
    step = aliens_turn(state, "ce07", [6] * 40)
    assert waiting(step.state).seats == ["biotech"]
    assert "immobilized" in fig(step.state, "biotech").conditions  # type: ignore[union-attr]
    return step.state


def test_immobilized_cannot_redeploy() -> None:
    """Immobilized: Tactical Redeployment moves the agent, so it is neither offered nor
    accepted (the engine already refuses Leap Through Window for the same reason)."""
    state = immobilized_on_his_turn()
    assert "redeploy" not in acts(state, "biotech")
    with pytest.raises(RuleError, match="Immobilized"):
        act(state, "act", seat="biotech", unit="biotech", what="redeploy", to="H3")
    free_agent = stage(agents={"marine": "I3"}, options=HV_OFF)
    free_agent = edit(free_agent, lambda d: d["agents"]["marine"].update(conditions=["immobilize"]))
    assert "redeploy" not in acts(free_agent)
    with pytest.raises(RuleError, match="Immobilized"):
        act(free_agent, "act", unit="marine", what="redeploy", to="H3")


def test_immobilized_move_refusal_names_the_condition() -> None:
    """Immobilized: a refused move says the agent is Immobilized, not that his Movement
    ended after Combat (he has not fought)."""
    state = immobilized_on_his_turn()
    with pytest.raises(RuleError) as refused:
        act(state, "move", seat="biotech", unit="biotech", to="I2")
    assert "Immobilized" in str(refused.value)
    assert "Combat" not in str(refused.value)


def test_bleeding_refusals_name_the_condition() -> None:
    """Bleeding: a refused attack says the Combat is forfeited by Bleeding (not "already
    used"); after a step and an item his Movement is over because of his Action, not Combat."""
    state = stage(
        agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF, prep=bleeding
    )
    weapon = dump(state)["agents"]["marine"]["weapons"][0]["key"]
    with pytest.raises(RuleError) as refused:
        act(state, "attack", unit="marine", target="x1", weapon=weapon)
    assert "Bleeding" in str(refused.value)
    assert "already used" not in str(refused.value)
    step = act(state, "move", unit="marine", to="I2")
    step = act(step.state, "act", [1, 1, 1], unit="marine", what="frag-grenade", target="x1")
    with pytest.raises(RuleError) as refused:
        act(step.state, "move", unit="marine", to="I3")
    assert "Combat" not in str(refused.value)


def test_immobilized_may_still_unjam_with_combat() -> None:
    """Immobilized: only Movement is forfeited; Unjam paid with Combat stays available."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "J9")], options=HV_OFF)

    def jammed_and_stuck(data: dict[str, Any]) -> None:
        data["agents"]["marine"]["conditions"] = ["immobilize"]
        data["agents"]["marine"]["weapons"][0]["jammed"] = True

    state = edit(state, jammed_and_stuck)
    using = {
        a.args.get("using")
        for a in legal(state)
        if a.verb == "act" and a.args.get("what") == "unjam"
    }
    assert "combat" in using


def test_bleeding_agent_cannot_unjam() -> None:
    """Bleeding: the Action only activates a power or item, so no Unjam special action."""
    state = stage(
        agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "J9")], options=HV_OFF, prep=bleeding
    )
    state = edit(state, lambda d: d["agents"]["marine"]["weapons"][0].update(jammed=True))
    assert "unjam" not in acts(state)


def test_immobilized_cannot_leap_through_window() -> None:
    """Immobilized: the agent cannot move, so no Leap Through Window either."""
    state = stage(agents={"marine": "H5"}, options=HV_OFF)
    assert "leap" in acts(state)
    state = edit(state, lambda d: d["agents"]["marine"].update(conditions=["immobilize"]))
    assert "leap" not in acts(state)


def test_immobilized_evade_gives_no_movement() -> None:
    """Immobilized: even a successful Evade cannot move an agent who has forfeited Movement."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I4")], options=HV_OFF)
    state = edit(state, lambda d: d["agents"]["marine"].update(conditions=["immobilize"]))
    assert "evade" in acts(state)  # offered (Action + Combat); what matters is what follows
    step = act(state, "act", [6], unit="marine", what="evade")
    assert "success" in texts(step.events)
    assert moves(step.state) == []


def test_bleeding_agent_no_special_actions() -> None:
    """Bleeding: no Leap, Bash or Evade; the Action is only for powers and items."""
    leap = stage(agents={"marine": "H5"}, options=HV_OFF, prep=bleeding)
    assert acts(leap) == set()
    bash = stage(scenario="m2", agents={"marine": "G9"}, options=HV_OFF, prep=bleeding)
    assert acts(bash) == set()
    engaged = stage(
        agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I4")], options=HV_OFF, prep=bleeding
    )
    assert acts(engaged) == {"frag-grenade"}


def test_body_conditions_end_at_refresh() -> None:
    """Immobilized / Paralyzed: they last until the next Refresh, then the agent moves again."""
    for condition in ("immobilize", "paralyze"):
        state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "J9")], options=HV_OFF)

        def stuck(data: dict[str, Any], c: str = condition) -> None:
            data["agents"]["marine"].update(conditions=[c], guard=False)

        state = edit(state, stuck)
        assert moves(state) == []
        step = aliens_turn(state, "ce07", [6] * 40)
        assert waiting(step.state).seats == ["marine"]
        assert moves(step.state), condition
