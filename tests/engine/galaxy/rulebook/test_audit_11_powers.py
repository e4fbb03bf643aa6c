"""Rulebook chapter "Power and Items": Standard powers used with the Action, abilities and skills
once per round (back at Refresh), tactics once per mission (back with "Act of Valor"), devices
discarded after use.

The tactic is staged by adding "adrenaline" (a Basic Tactic the Bronze rank-up offers the
Marine) to the dumped agent; Event cards ev12 (no effect here) and ev15 ("Act of Valor") are put
on top of the Event deck to end each round.
"""

from __future__ import annotations

from typing import Any

from galaxy_probe import act, acts, advance, do, edit, legal, on_top, stage, texts, view, waiting

from engine.core.game import Action

HV_OFF = {"human-view": "off"}


def next_round(state: Any, event: str = "ev12", seat: str = "marine") -> Any:
    ended = act(state, "end-turn", seat=seat, unit=seat).state
    return advance(on_top(on_top(ended, "ce_deck", "ce07"), "event_deck", event), [6] * 40).state


def with_tactic() -> Any:
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "J9")], options=HV_OFF)
    return edit(state, lambda d: d["agents"]["marine"].update(tactics=["adrenaline"]))


def test_tactic_used_with_the_action() -> None:
    """Use Powers and Items [Action]: activating a tactic spends the agent's Action."""
    state = with_tactic()
    step = act(state, "act", unit="marine", what="adrenaline")
    assert "Adrenaline" in texts(step.events)
    assert acts(step.state) <= {"redeploy"}
    panel = next(p.lines for p in view(step.state).panels if p.seat == "marine")
    assert "Movement unused (6 MP), Combat ready, Action used" in panel


def test_tactic_once_per_mission() -> None:
    """Tactics: once used a tactic stays face down in later rounds."""
    state = act(with_tactic(), "act", unit="marine", what="adrenaline").state
    state = next_round(state)
    assert "adrenaline" not in acts(state)


def test_act_of_valor_readies_used_tactics() -> None:
    """Tactics: an "Act of Valor" Event card turns used tactics face up again."""
    state = act(with_tactic(), "act", unit="marine", what="adrenaline").state
    state = next_round(next_round(state), "ev15")
    assert "adrenaline" in acts(state)


def test_ability_once_per_round_back_at_refresh() -> None:
    """Abilities & Skills: a used ability is spent until the next Refresh phase."""
    state = stage(
        seats=("hulk",), agents={"hulk": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF
    )
    ability = next(
        a for a in legal(state, "hulk") if a.verb == "act" and a.args.get("what") == "ability"
    )
    step = do(state, ability, [6] * 10, seat="hulk")
    assert "ability" not in acts(step.state, "hulk")
    assert "ability" in acts(next_round(step.state, seat="hulk"), "hulk")


def test_device_discarded_after_use() -> None:
    """Devices: a device is normally used once per mission and then discarded."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF)
    grenade = next(
        a for a in legal(state) if a.verb == "act" and a.args.get("what") == "frag-grenade"
    )
    step = do(state, grenade, [1] * 3)
    panel = " ".join(next(p.lines for p in view(step.state).panels if p.seat == "marine"))
    assert "Frag Grenade" not in panel
    assert "frag-grenade" not in acts(next_round(step.state))


def test_grenade_hits_every_alien_in_the_area() -> None:
    """Grenades: all aliens in the target Area defend against the rolled Hits."""
    state = stage(
        agents={"marine": "I3"},
        aliens=[("x1", "nexus-red-1", "I6"), ("x2", "aracnos-green-1", "J6")],
        options=HV_OFF,
    )
    grenade = next(
        a for a in legal(state) if a.verb == "act" and a.args.get("what") == "frag-grenade"
    )
    said = texts(do(state, grenade, [6] * 2 + [1] * 20).events)
    assert "Nexus 1 defends" in said and "Aracnos 2 defends" in said


def grenadier() -> Any:
    """The Marine with the Grenadier skill and his Frag Grenade (2 RED dice), a Nexus in range."""
    state = stage(agents={"marine": "I3"}, aliens=[("x1", "nexus-red-1", "I6")], options=HV_OFF)
    return edit(state, lambda d: d["agents"]["marine"].update(skills=["grenadier"]))


def test_grenadier_chooses_which_grenade_dice_to_reroll() -> None:
    """Grenades, Grenadier: he may re-roll any die of his grenade's Hit roll, so the choice of
    dice is his: a RED die showing one Hit may be re-rolled for a chance at two (RED face 3
    shows one Hit, face 1 the Alien; face 2 two Hits)."""
    state = grenadier()
    grenade = next(a for a in legal(state) if a.args.get("what") == "frag-grenade")
    asked = do(state, grenade, [3, 1]).state
    options = [a.args["option"] for a in legal(asked)]
    assert set(options) == {"none", "dice-1", "dice-2", "dice-1-2"}
    default = waiting(asked).default
    assert default is not None and default.args["option"] == "dice-2"  # the die without a Hit
    step = do(asked, Action(verb="choose", args={"option": "dice-1"}), [2] + [1] * 20)
    said = texts(step.events)
    assert "- 2 Hits" in said  # die 1 re-rolled to two Hits, die 2 keeps its Alien
    assert waiting(step.state).kind == "turn"  # each die at most once: no second re-roll


def test_grenadier_keeps_a_roll_that_cannot_improve() -> None:
    """Grenadier: with every die already showing the most Hits a RED face has, there is nothing
    to re-roll and nothing is asked."""
    state = grenadier()
    grenade = next(a for a in legal(state) if a.args.get("what") == "frag-grenade")
    step = do(state, grenade, [2, 5] + [1] * 20)
    assert waiting(step.state).kind == "turn"
    assert "- 4 Hits" in texts(step.events)
