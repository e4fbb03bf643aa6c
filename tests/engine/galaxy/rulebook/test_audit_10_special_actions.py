"""Rulebook special actions and cross-chapter rules not covered elsewhere: Leap Through Window,
Bash a Locked Door, Engagement outside the Agent turn, Alien Assignment when every Alien card is
in play, the campaign limit on GD-Wings, Energy Shield refresh, alien movement target choice and
redeployment next to agents, Friendly Fire with Area Damage.

Mission 1 positions unless stated; Mission 2 has a locked door between G9 and G10.
"""

from __future__ import annotations

from typing import Any

from galaxy_probe import (
    act,
    acts,
    advance,
    aliens_turn,
    do,
    dump,
    edit,
    elect,
    fig,
    hexes,
    legal,
    on_top,
    stage,
    texts,
    view,
    waiting,
)

HV_OFF = {"human-view": "off"}


def moves(state: Any, seat: str = "marine") -> dict[str, int]:
    return {
        a.args["to"]: int(a.label.split(" - ")[1].split()[0])
        for a in legal(state, seat)
        if a.verb == "move"
    }


def distance(state: Any, a: str, b: str) -> int:
    grid = hexes(state)
    (q1, r1), (q2, r2) = grid[a], grid[b]
    return max(abs(q1 - q2), abs(r1 - r2), abs(q1 + r1 - q2 - r2))


def test_leap_through_window_example() -> None:
    """Leap Through Window example: move next to the window, leap to the Hex beyond it; Movement
    was taken first, so no further move."""
    state = act(
        stage(agents={"marine": "G5"}, options=HV_OFF), "move", unit="marine", to="H5"
    ).state
    leap = next(a for a in legal(state) if a.verb == "act" and a.args.get("what") == "leap")
    assert leap.args["to"] == "I5"
    step = do(state, leap)
    assert fig(step.state, "marine").coord == "I5"  # type: ignore[union-attr]
    assert moves(step.state) == {}
    assert acts(step.state) == set()


def test_leap_only_needs_the_action() -> None:
    """Leap Through Window: only the Action is used; Combat stays available."""
    state = stage(agents={"marine": "H5"}, aliens=[("x1", "nexus-red-1", "J9")], options=HV_OFF)
    leap = next(a for a in legal(state) if a.verb == "act" and a.args.get("what") == "leap")
    step = do(state, leap)
    assert [a for a in legal(step.state) if a.verb == "attack"]


def test_locked_door_is_a_blocked_side() -> None:
    """Locked Door: while locked it is a blocked Hex side (no one-step crossing)."""
    state = stage(scenario="m2", agents={"marine": "G9"}, options=HV_OFF)
    assert moves(state).get("G10", 99) > 1


def test_bash_locked_door_opens_it() -> None:
    """Bash a Locked Door [Action + Combat]: next to it, remove the lock; it is a normal door."""
    state = stage(scenario="m2", agents={"marine": "G9"}, options=HV_OFF)
    assert "bash" in acts(state)
    step = act(state, "act", unit="marine", what="bash")
    kinds = {e.kind for e in view(step.state).edges if {e.a, e.b} == {"G9", "G10"}}
    assert kinds == {"door"}
    assert moves(step.state)["G10"] == 1
    assert "attack" not in {a.verb for a in legal(step.state)}
    assert acts(step.state) == set()


def test_bash_needs_adjacency() -> None:
    """Bash a Locked Door: the agent must be next to the locked door."""
    state = stage(scenario="m2", agents={"marine": "C9"}, options=HV_OFF)
    assert "bash" not in acts(state)


def test_engaged_by_alien_contact_outside_agent_turn() -> None:
    """Engaged: an alien coming into contact during the Aliens turn Engages the agent, who starts
    his next turn unable to move."""
    state = stage(agents={"marine": "D4"}, aliens=[("x2", "aracnos-green-1", "B3")], options=HV_OFF)
    state = edit(state, lambda d: d["agents"]["marine"].update(guard=False))
    step = aliens_turn(state, "ce05", [6] * 30)
    x2 = fig(step.state, "x2")
    assert x2 is not None and distance(step.state, x2.coord, "D4") == 1
    assert waiting(step.state).seats == ["marine"]
    assert moves(step.state) == {}
    assert "evade" in acts(step.state)


def test_reveal_with_every_alien_card_in_play() -> None:
    """Alien Assignment: with every Alien card in play a revealed Alien Signal is just discarded."""
    state = stage(agents={"marine": "G5"}, signals=[("s9", "alien-1", "G8")], options=HV_OFF)
    state = edit(state, lambda d: d["alien_deck"].update(draw_pile=[], discard_pile=[]))
    step = act(state, "move", unit="marine", to="G6")
    assert not [f for f in view(step.state).figures if f.side == "enemy"]
    assert not view(step.state).tokens
    assert "alien-1" in dump(step.state)["signal_discard"]


def test_campaign_limits_one_rank_per_mission() -> None:
    """GD-Wings: in a campaign an agent gains at most one rank per mission."""
    state = stage(
        seats=("marine", "biotech"),
        agents={"marine": "I3", "biotech": "G5"},
        aliens=[("x1", "xeno-beta-green-1", "I6")],
        options={"human-view": "off", "rank-limit": "campaign"},
    )
    state = edit(
        state,
        lambda d: (
            d["aliens"][0].update(wounds=2),
            d["agents"]["marine"].update(rank=1, ranks_gained=1),
        ),
    )
    state = act(
        state, "attack", [3, 1, 1, 1], unit="marine", target="x1", weapon="assault-rifle"
    ).state
    state = act(
        aliens_turn(state, "ce07", [6] * 10).state, "end-turn", seat="biotech", unit="biotech"
    ).state
    state = advance(on_top(state, "ce_deck", "ce07"), [6] * 30).state
    step = elect(state, "marine", [3] * 12)
    said = texts(step.events) + texts(advance(step.state, [3] * 12).events)
    assert "Thorium (Biotech) reaches Bronze" in said
    assert "Chromium (Marine) reaches" not in said


def test_energy_shield_regenerates_at_refresh() -> None:
    """Refresh / Energy Shielded Armor: a used Energy Shield token comes back in Refresh."""
    state = stage(
        agents={"marine": "I3"},
        aliens=[("x1", "xeno-beta-green-1", "J9")],
        options={"human-view": "off", "start-rank": "palladium"},
    )
    full = dump(state)["agents"]["marine"]["energy"]
    assert full >= 1
    spent = edit(state, lambda d: d["agents"]["marine"].update(guard=False, energy=0))
    step = aliens_turn(spent, "ce07", [6] * 30)
    assert dump(step.state)["agents"]["marine"]["energy"] == full


def test_alien_moves_toward_most_wounded_unseen_agent() -> None:
    """Alien movement example: with no agent in sight, the last rule heads for the wounded agent."""
    for wounded, name in (("marine", "Chromium (Marine)"), ("biotech", "Thorium (Biotech)")):
        state = stage(
            seats=("marine", "biotech"),
            agents={"marine": "F4", "biotech": "G6"},
            aliens=[("x2", "aracnos-green-1", "J9")],
            options=HV_OFF,
        )

        def hurt(data: dict[str, Any], who: str = wounded) -> None:
            data["agents"][who].update(wounds=1)
            data["agents"]["marine"].update(guard=False)

        state = edit(state, hurt)
        said = texts(aliens_turn(state, "ce05", [6] * 30).events)
        assert f"moves J9 -> G5 (toward {name})" in said


def test_alien_ends_next_to_its_target() -> None:
    """Alien Movement: at the end of its move the alien redeploys in the Area to stand next to
    its target (the Aracnos reaches the shuttle's centre, beside the Biotech)."""
    state = stage(
        seats=("marine", "biotech"),
        agents={"marine": "F4", "biotech": "G6"},
        aliens=[("x2", "aracnos-green-1", "J9")],
        options=HV_OFF,
    )
    state = edit(
        state,
        lambda d: (
            d["agents"]["biotech"].update(wounds=1),
            d["agents"]["marine"].update(guard=False),
        ),
    )
    step = aliens_turn(state, "ce05", [6] * 30)
    x2 = fig(step.state, "x2")
    assert x2 is not None and distance(step.state, x2.coord, "G6") == 1


def test_friendly_fire_area_damage_spares_the_firer() -> None:
    """Friendly Fire: Area Damage hits every figure in the Area, agents included, but a weapon
    never harms its own firer."""
    state = stage(
        seats=("marine", "biotech"),
        agents={"marine": "I5", "biotech": "J6"},
        aliens=[("x1", "nexus-red-1", "I6")],
        options={"human-view": "off", "friendly-fire": "on"},
    )
    step = act(
        state,
        "attack",
        [3, 4, 1] + [1] * 8,
        unit="marine",
        target="x1",
        weapon="assault-rifle",
        mode="area",
    )
    said = texts(step.events)
    assert "Thorium (Biotech) defends" in said
    assert "Chromium (Marine) defends" not in said
    assert fig(step.state, "marine").health == 6  # type: ignore[union-attr]
    assert fig(step.state, "biotech").health == 3  # type: ignore[union-attr]


def test_aliens_treat_windows_as_open_sides() -> None:
    """Alien Movement: aliens cross an (unblocked) Window like a standard Hex side: from the
    shuttle's centre they reach the Area beyond the window in one Area step."""
    state = stage(
        agents={"marine": "J7"}, aliens=[("x1", "spine-critter-green-1", "G5")], options=HV_OFF
    )
    state = edit(state, lambda d: d["agents"]["marine"].update(guard=False))
    step = aliens_turn(state, "ce03", [6] * 30)
    assert "moves G5 -> I6" in texts(step.events)
    x1 = fig(step.state, "x1")
    assert x1 is not None and distance(step.state, x1.coord, "J7") == 1
