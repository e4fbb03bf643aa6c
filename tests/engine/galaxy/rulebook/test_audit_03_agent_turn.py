"""Rulebook chapter "The Agents" - the Agent turn and its Actions: Movement, Combat and Action
each once, Movement not resumed after Combat, Search, Evade, Tactical Redeployment, Unjam.

Mission 1 positions, Human View off; the Marine (4 MP) is the agent unless stated.
"""

from __future__ import annotations

from typing import Any

from galaxy_probe import act, acts, dump, edit, fig, find, legal, stage, texts, verbs, view, waiting

HV_OFF = {"human-view": "off"}


def status(state: Any, seat: str = "marine") -> str:
    """The panel line that tells Movement / Combat / Action use."""
    return next(p.lines for p in view(state, seat).panels if p.seat == seat)[-1]


def moves(state: Any, seat: str = "marine") -> list[str]:
    return [a.args["to"] for a in legal(state, seat) if a.verb == "move"]


def open_ground(**kw: Any) -> Any:
    return stage(
        agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "J9")], options=HV_OFF, **kw
    )


def test_agent_turn_offers_movement_combat_and_action() -> None:
    """Agent Turn: Movement, Combat and Action are all available at the start of the turn."""
    state = open_ground()
    assert {"move", "attack", "act", "end-turn"} <= verbs(state)
    assert status(state) == "Movement unused (4 MP), Combat ready, Action ready"


def test_movement_may_continue_hex_by_hex() -> None:
    """Movement: the agent spends MP hex by hex and may keep moving with the MP left."""
    state = open_ground()
    step = act(state, "move", unit="marine", to="I2")
    assert "3 MP left" in texts(step.events)
    assert moves(step.state)


def test_movement_not_resumed_after_combat() -> None:
    """Agent Turn: Movement interrupted by Combat cannot be resumed afterwards."""
    state = act(open_ground(), "move", unit="marine", to="I2").state
    step = act(state, "attack", [1, 1, 1], unit="marine", target="x1", weapon="assault-rifle")
    assert moves(step.state) == []
    assert "attack" not in verbs(step.state)


def test_combat_once_per_turn() -> None:
    """Agent Turn: each activity only once; after an attack no second attack is offered."""
    step = act(
        open_ground(), "attack", [1, 1, 1], unit="marine", target="x1", weapon="assault-rifle"
    )
    assert "attack" not in verbs(step.state)
    assert moves(step.state)  # Movement, untouched, is still available


def test_action_once_per_turn() -> None:
    """Action: an agent performs only one Action per turn."""
    state = stage(agents={"marine": "G5"}, options=HV_OFF)
    step = act(state, "act", [1], unit="marine", what="search")
    assert acts(step.state) == set()
    assert "Action used" in status(step.state)


def test_tactical_redeployment_uses_action_and_combat() -> None:
    """Tactical Redeployment [Action + Combat]: any empty Hex of the Area; no attack after."""
    state = open_ground()
    targets = {a.args["to"] for a in find(state, what="redeploy")}
    assert targets == {"H2", "I2", "J3", "H3", "H4", "I4"}  # Area b less the Marine's own Hex
    step = act(state, "act", unit="marine", what="redeploy", to="H3")
    marine = fig(step.state, "marine")
    assert marine is not None and marine.coord == "H3"
    assert "attack" not in verbs(step.state)
    assert status(step.state) == "Movement unused (4 MP), Combat used, Action used"


def test_redeployment_after_movement_example() -> None:
    """Tactical Redeployment example: Movement first, then Action + Combat to redeploy."""
    state = act(open_ground(), "move", unit="marine", to="I2").state
    assert find(state, what="redeploy")


def test_redeployment_needs_combat() -> None:
    """Tactical Redeployment: with Combat already used, it is not available."""
    step = act(
        open_ground(), "attack", [1, 1, 1], unit="marine", target="x1", weapon="assault-rifle"
    )
    assert not find(step.state, what="redeploy")


def test_unjam_with_movement_or_combat() -> None:
    """Unjam a Ranged Weapon [Action + Movement or Combat]: both ways are offered."""
    state = edit(open_ground(), lambda d: d["agents"]["marine"]["weapons"][0].update(jammed=True))
    using = {a.args.get("using") for a in find(state, what="unjam")}
    assert using == {"movement", "combat"}


def test_unjam_with_movement_forfeits_movement() -> None:
    """Unjam: the activity given up (Movement) cannot be used for anything else this turn."""
    state = edit(open_ground(), lambda d: d["agents"]["marine"]["weapons"][0].update(jammed=True))
    step = act(state, "act", unit="marine", what="unjam", weapon="assault-rifle", using="movement")
    assert moves(step.state) == []
    assert [
        a for a in legal(step.state) if a.verb == "attack" and a.args["weapon"] == "assault-rifle"
    ]


def test_unjam_with_combat_forfeits_combat() -> None:
    """Unjam: unjamming with Combat leaves no attack this turn but Movement stays."""
    state = edit(open_ground(), lambda d: d["agents"]["marine"]["weapons"][0].update(jammed=True))
    step = act(state, "act", unit="marine", what="unjam", weapon="assault-rifle", using="combat")
    assert "attack" not in verbs(step.state)
    assert moves(step.state)
    assert "JAMMED" not in " ".join(
        next(p.lines for p in view(step.state).panels if p.seat == "marine")
    )


def test_search_only_in_search_area() -> None:
    """Search [Action]: the agent must be inside a Search Area (Mission 1: the shuttle)."""
    inside = stage(agents={"marine": "G5"}, options=HV_OFF)
    outside = stage(agents={"marine": "I3"}, options=HV_OFF)
    assert "search" in acts(inside)
    assert "search" not in acts(outside)


def test_search_not_while_engaged() -> None:
    """Search: an agent Engaged in combat may not search."""
    state = stage(agents={"marine": "G5"}, aliens=[("x1", "nexus-red-1", "G6")], options=HV_OFF)
    assert "search" not in acts(state)


def test_search_shield_first_aid_heals_one() -> None:
    """Search: a Shield result may be taken as a First Aid Kit healing one Health Point."""
    state = stage(agents={"marine": "G5"}, options=HV_OFF)
    state = edit(state, lambda d: d["agents"]["marine"].update(wounds=2))
    step = act(state, "act", [6], unit="marine", what="search")  # hit+shield
    assert waiting(step.state).kind == "choice"
    assert not [a for a in legal(step.state) if a.args.get("option") in ("device", "alien-tech")]
    healed = act(step.state, "choose", unit="marine", option="first-aid")
    assert fig(healed.state, "marine").health == 5  # type: ignore[union-attr]


def test_search_shield_ammunition_when_possible() -> None:
    """Search: a Shield result may instead give one Ammo token (if a weapon has room for it)."""
    state = stage(agents={"marine": "G5"}, options=HV_OFF)
    state = edit(state, lambda d: d["agents"]["marine"]["weapons"][0].update(ammo=2))
    step = act(state, "act", [6], unit="marine", what="search")
    options = {a.args.get("option") for a in legal(step.state) if a.verb == "choose"}
    assert any(o and "ammo" in o for o in options), options


def test_search_bolt_offers_device_or_alien_tech() -> None:
    """Search: a Bolt result gives a random Generic Device or a fragment of Alien Tech."""
    state = stage(agents={"marine": "G5"}, options=HV_OFF)
    step = act(state, "act", [4], unit="marine", what="search")  # hit+hit+bolt
    options = {a.args.get("option") for a in legal(step.state) if a.verb == "choose"}
    assert {"device", "alien-tech"} <= options
    tech = act(step.state, "choose", unit="marine", option="alien-tech")
    assert view(tech.state).header["alien tech"] == "1/4"


def test_search_other_results_find_nothing() -> None:
    """Search: any result without Shield or Bolt finds nothing."""
    state = stage(agents={"marine": "G5"}, options=HV_OFF)
    step = act(state, "act", [1], unit="marine", what="search")
    assert waiting(step.state).kind == "turn"
    assert (
        dump(step.state)["agents"]["marine"]["devices"]
        == dump(state)["agents"]["marine"]["devices"]
    )


def test_search_alien_tech_once_per_round() -> None:
    """Alien Tech: at most one fragment per round from searching."""
    state = stage(agents={"marine": "G5"}, options=HV_OFF)
    first = act(state, "act", [4], unit="marine", what="search").state
    first = act(first, "choose", unit="marine", option="alien-tech").state
    assert view(first).header["alien tech"] == "1/4"
    # A second search in the same round (staged: the fragment counter and the round's search
    # flag as the first search left them, with the Action ready again).
    taken = dump(first)
    staged = edit(
        state,
        lambda d: d.update(
            alien_tech=taken["alien_tech"], tech_from_search=taken["tech_from_search"]
        ),
    )
    step = act(staged, "act", [4], unit="marine", what="search")
    options = {a.args.get("option") for a in legal(step.state) if a.verb == "choose"}
    assert "device" in options
    assert "alien-tech" not in options


def test_unjam_needs_the_complete_movement() -> None:
    """Unjam: it takes the agent's complete Movement (or Combat); once he has moved, only the
    Combat way is left."""
    state = edit(open_ground(), lambda d: d["agents"]["marine"]["weapons"][0].update(jammed=True))
    step = act(state, "move", unit="marine", to="I2")
    assert {a.args.get("using") for a in find(step.state, what="unjam")} == {"combat"}


def test_search_example_move_then_search() -> None:
    """Search example: Movement first, then the Search Action; she cannot move further."""
    state = stage(agents={"marine": "G6"}, options=HV_OFF)
    state = act(state, "move", unit="marine", to="G5").state
    step = act(state, "act", [1], unit="marine", what="search")
    assert moves(step.state) == []


def test_kill_and_search_fragments_are_separate_limits() -> None:
    """Alien Tech: one fragment per round by killing and one by searching, each on its own."""
    state = stage(
        agents={"marine": "G5"}, aliens=[("x1", "xeno-beta-green-1", "G6")], options=HV_OFF
    )
    state = edit(state, lambda d: d["aliens"][0].update(wounds=2))
    state = act(
        state, "attack", [3, 1, 1, 1], unit="marine", target="x1", weapon="assault-rifle"
    ).state
    assert view(state).header["alien tech"] == "1/4"
    step = act(state, "act", [4], unit="marine", what="search")
    assert "alien-tech" in {a.args.get("option") for a in legal(step.state) if a.verb == "choose"}
    taken = act(step.state, "choose", unit="marine", option="alien-tech")
    assert view(taken.state).header["alien tech"] == "2/4"
