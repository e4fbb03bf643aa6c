"""Strikeback rulebook chapter 9, The Agents: High Impact with the -X Def Dice rule (9.2 and
storybook 5.5.1), the Power Suit (9.5), Tactics as Free Actions (9.7.3), Psionic Powers
(9.7.2) and the GD-Wings table (9.8).

Ranks are staged on the dump ("rank": 3 Gold, 4 Earth, 5 Moon, 6 Galaxy, learnt from the
set-up narration and the view's rank names). Dice faces: RED 6 = hit+bolt+GD-Wings,
5 = hit+hit+bolt, 4 = hit+jam; BLUE 4 = no shield.
"""

from __future__ import annotations

from typing import Any

import pytest
from sb_probe import (
    GAME,
    act,
    advance,
    areas_within_one,
    body,
    dump,
    edit,
    fig,
    hexes,
    legal,
    on_top,
    put_alien,
    quiet_round,
    set_body,
    setup_log,
    stage,
    texts,
    view,
    waiting,
)

from engine.core.dice import SeededDice
from engine.core.events import Attacked, Event, Rolled

HV_OFF = {"human-view": "off"}


def defence_dice(high_impact: str) -> int:
    state = stage(
        "os1",
        agents={"marine": "E7"},
        aliens=[("a1", "spine-critter-green-1", "G7")],
        options={**HV_OFF, "high-impact": high_impact},
    )
    step = act(
        state,
        "attack",
        [5, 5, 5, 5, *[4] * 10],
        unit="marine",
        target="a1",
        weapon="improved-rifle",
    )
    line = next(x for x in texts(step.events).split("\n") if " defends with " in x)
    return int(line.split(" defends with ")[1].split(" ", 1)[0])  # "7 dice: ..."


def test_high_impact_caps_the_defend_roll_at_five() -> None:
    """5.5.1: 8 hits, one Def Die fewer (Bolt): 7, but High Impact rolls at most 5 Blue dice."""
    assert defence_dice("on") == 5


def test_without_high_impact_all_hits_are_defended() -> None:
    """5.5.1 (the rule switched off): the same 8 hits less one die roll 7 Blue dice."""
    assert defence_dice("off") == 7


@pytest.mark.parametrize(
    ("scenario", "rank"),
    [
        ("os1", "Gold"),
        ("os2", "Gold"),
        ("os3", "Earth"),
        ("os4", "Moon"),
        ("os5", "Moon"),
        ("os6", "Moon"),
    ],
)
def test_standalone_starting_rank(scenario: str, rank: str) -> None:
    """Storybook 4 / each briefing: a standalone mission starts the agents at its listed rank
    (Gold for 1-2, Earth for 3, Moon for 4-6)."""
    reached = [x for x in setup_log(scenario).split("\n") if x.startswith("GD-Wings:")]
    assert reached and reached[-1].split(" reaches ")[1].startswith(rank)


def rank_roll(rank: int, rolls: list[int], kills: int = 1) -> tuple[Any, str]:
    state = stage("os6", agents={"marine": "E7"}, options=HV_OFF)
    state = edit(
        state,
        lambda d: (d["agents"]["marine"].update(rank=rank), d.update(kills_this_round=kills)),
    )
    ended = act(state, "end-turn", unit="marine").state
    step = advance(on_top(ended, "ce_deck", "os-04"), [*rolls, *[4] * 30], [0] * 60)
    return step.state, texts(step.events)


def test_gd_wings_earth_needs_one_result() -> None:
    """9.8: Gold to Earth needs 1 GD-Wings result on 3 RED dice."""
    _, log = rank_roll(3, [6, 4, 4])
    assert "reaches Earth" in log


def test_gd_wings_moon_needs_two_results() -> None:
    """9.8: Earth to Moon needs 2 results; one is not enough."""
    _, one = rank_roll(4, [6, 4, 4])
    _, two = rank_roll(4, [6, 6, 4])
    assert "reaches Moon" not in one
    assert "reaches Moon" in two


def test_gd_wings_galaxy_needs_three_results() -> None:
    """9.8: Moon to Galaxy needs 3 results."""
    _, two = rank_roll(5, [6, 6, 4])
    _, three = rank_roll(5, [6, 6, 6])
    assert "reaches Galaxy" not in two
    assert "reaches Galaxy" in three


def test_gd_wings_roll_needs_a_kill_last_round() -> None:
    """9.8: the rank roll is made only if at least one alien was killed in the previous
    round."""
    _, log = rank_roll(3, [6, 6, 6], kills=0)
    assert "reaches Earth" not in log


def test_moon_rank_offers_a_psionic_power_instead_of_a_skill() -> None:
    """9.7.2 / 9.8: from Moon rank an agent may take a random Psionic Power instead of a
    selected Skill."""
    state, log = rank_roll(4, [6, 6, 4])
    assert "reaches Moon" in log
    options = [a.label.lower() for a in legal(state, "marine")]
    assert any("psionic" in o for o in options)
    assert any(a.args.get("option") == "marksman" for a in legal(state, "marine"))


def tactic_then_actions(rank: int) -> set[str]:
    state = stage("os1", agents={"marine": "E7"}, options=HV_OFF)
    state = edit(
        state,
        lambda d: d["agents"]["marine"].update(
            rank=rank, elite=rank >= 4, tactics=["adrenaline"], used_tactics=[]
        ),
    )
    after = act(state, "act", [6] * 10, unit="marine", what="adrenaline").state
    return {a.args.get("what", "") for a in legal(after) if a.verb == "act"}


def test_tactics_are_free_actions_from_earth() -> None:
    """9.7.3: from Earth rank a Tactic is a Free Action: the Action is still there after it."""
    assert "redeploy" in tactic_then_actions(4)


def test_tactics_spend_the_action_at_gold() -> None:
    """9.7.3 / 9.8: below Earth a Tactic still takes the Action activity."""
    assert "redeploy" not in tactic_then_actions(3)


def suit_state() -> Any:
    state = stage("os5", agents={"marine": "E7"}, options=HV_OFF)
    return act(state, "act", [6] * 10, unit="marine", what="suit-recall", target="suit-1").state


def test_power_suit_mark_1_adds_two_movement() -> None:
    """9.5.2.1: the Mark I adds two movement points, usable in the same movement."""
    state = stage("os5", agents={"marine": "E7"}, options=HV_OFF)
    before = dump(state)["agents"]["marine"]["mp_left"]
    assert dump(suit_state())["agents"]["marine"]["mp_left"] == before + 2


def test_power_suit_spends_a_battery_each_refresh() -> None:
    """9.5 / 6.1: a deployed Power Suit consumes one Battery each Refresh."""
    after = quiet_round(suit_state(), card="ce22")
    assert dump(after)["strikeback"]["suits"]["suit-1"]["batteries"] == 4


def test_unworn_power_suit_on_the_map_also_spends_batteries() -> None:
    """9.5: the Battery is paid even if no one has equipped the suit."""
    state = stage("os5", agents={"marine": "E7"}, options=HV_OFF)
    g7 = hexes(state)["G7"]
    state = edit(state, lambda d: _drop_suit(d, g7))
    after = quiet_round(state, card="ce22")
    assert dump(after)["strikeback"]["suits"]["suit-1"]["batteries"] == 4


def _drop_suit(data: dict[str, Any], qr: tuple[int, int]) -> None:
    data["strikeback"]["headquarters"] = []
    data["strikeback"]["suits"] = {
        "suit-1": {
            "id": "suit-1",
            "mark": 1,
            "batteries": 5,
            "hex": list(qr),
            "pilot": None,
            "shields": 3,
            "recalled": False,
        }
    }


def test_unworn_power_suit_hex_can_be_crossed_not_ended_in() -> None:
    """9.5 / 9.5.1: an empty Power Suit can be walked through, but an agent who does not equip
    it cannot end his movement in its hex."""
    state = stage("os5", agents={"marine": "E7"}, options=HV_OFF)
    g7 = hexes(state)["G7"]
    state = edit(state, lambda d: _drop_suit(d, g7))
    labels = [a.label for a in legal(state) if a.verb == "move"]
    assert not any(lab.startswith("G7 ") for lab in labels)
    assert "H7 - 3 MP" in labels  # E7-F7-G7-H7 goes through it


def test_power_suit_without_batteries_leaves_play() -> None:
    """9.5: with no Battery to pay in the Refresh the suit is removed and the agent's own
    figure takes its place."""
    state = edit(suit_state(), lambda d: d["strikeback"]["suits"]["suit-1"].update(batteries=0))
    after = quiet_round(state, card="ce22")
    assert dump(after)["strikeback"]["suits"] == {}
    marine = fig(after, "marine")
    assert marine is not None and marine.coord == "E7"
    assert not any(c.startswith("power-suit") for c in marine.conditions)


def test_power_suit_cannot_be_left_the_turn_it_is_recalled() -> None:
    """9.5.1 / os5: leaving takes the Action, and starts from the next Refresh."""
    state = suit_state()
    assert not [a for a in legal(state) if a.args.get("what") == "suit-leave"]


def test_leaving_the_suit_puts_the_agent_adjacent() -> None:
    """9.5.1: to unequip, the agent spends his Action and is placed adjacent to the suit."""
    later = quiet_round(suit_state(), card="ce22")
    spots = {a.args["to"] for a in legal(later) if a.args.get("what") == "suit-leave"}
    assert spots and spots <= {"D6", "E6", "F7", "D7", "D8", "E8"}
    done = act(later, "act", [6] * 10, unit="marine", what="suit-leave", to=sorted(spots)[0])
    tokens = {t.coord: t.kind for t in view(done.state).tokens}
    assert tokens.get("E7") == "power-suit"


def hologram_state() -> Any:
    state = stage(
        "os6", agents={"marine": "H8"}, aliens=[("a1", "xeno-gamma-green", "J5")], options=HV_OFF
    )
    return edit(state, lambda d: d["strikeback"]["devices"].update(marine=["hologram"]))


def test_hologram_goes_on_any_empty_hex_within_one_area() -> None:
    """9.7.4.1: the Hologram is placed on any empty hex within 1 Area of the agent."""
    state = hologram_state()
    offered = {a.args["to"] for a in legal(state) if a.args.get("what") == "hologram"}
    near = areas_within_one(state, "H8")
    figures = {f.coord for f in view(state).figures}
    expected = {c.coord for c in view(state).cells if c.area in near and c.coord not in figures}
    assert offered == expected


def test_hologram_is_taken_for_an_agent_and_destroyed_when_attacked() -> None:
    """9.7.4.1: aliens treat the Hologram as an agent; attacked, it is destroyed and its
    device discarded."""
    state = act(hologram_state(), "act", [6] * 5, unit="marine", what="hologram", to="I6").state
    assert fig(state, "hologram") is not None
    ended = act(state, "end-turn", unit="marine").state
    step = advance(on_top(ended, "ce_deck", "os-01"), [6] * 60, [0] * 60)
    assert "adjacent: Hologram" in texts(step.events)
    assert fig(step.state, "hologram") is None
    assert dump(step.state)["strikeback"]["devices"]["marine"] == []


def test_power_suit_weapon_rolls_red_and_blue_and_never_jams() -> None:
    """9.5.2.2: the suit's weapon rolls both Blue and Red dice, cannot jam and uses no ammo
    (RED 4 is hit+jam, BLUE 4 bolt+ammo+jam)."""
    state = stage("os5", agents={"marine": "E7"}, aliens=[("a1", "xeno-delta-green", "F7")])
    state = act(state, "act", [6] * 10, unit="marine", what="suit-recall", target="suit-1").state
    before = {w["key"]: w for w in dump(state)["agents"]["marine"]["weapons"]}
    assert "suit-autocannon" in before
    step = act(state, "attack", [4] * 30, unit="marine", target="a1", weapon="suit-autocannon")
    line = texts(step.events).split("\n")[0]
    assert "red " in line and "blue " in line
    after = {w["key"]: w for w in dump(step.state)["agents"]["marine"]["weapons"]}
    assert after["suit-autocannon"] == before["suit-autocannon"]


def test_power_suit_shields_refresh_in_the_refresh_phase() -> None:
    """9.5.2.3: the suit's energy shields are automatically refreshed each Refresh phase."""
    worn = suit_state()
    full = dump(worn)["strikeback"]["suits"]["suit-1"]["shields"]
    assert full > 0
    state = edit(worn, lambda d: d["strikeback"]["suits"]["suit-1"].update(shields=0))
    after = quiet_round(state, card="ce22")
    assert dump(after)["strikeback"]["suits"]["suit-1"]["shields"] == full


# --- 9.2.2 Fighting Poses (optional, default Off) -------------------------------------------


def posed(pose: str) -> Any:
    state = stage("os1", agents={"marine": "E7"}, options={**HV_OFF, "fighting-poses": "on"})
    return act(state, "orders", [6] * 5, unit="marine", order=f"pose-{pose}").state


def test_fighting_poses_off_by_default() -> None:
    """9.2.2: Fighting Poses is an optional rule, default Off: no pose is offered."""
    state = stage("os1", agents={"marine": "E7"}, options=HV_OFF)
    assert not [a for a in legal(state) if "pose" in a.args.get("order", "")]


def test_crouching_costs_two_movement_points_a_hex() -> None:
    """9.2.2 (example 2): crouched, each hex costs 2 movement points."""
    labels = [a.label for a in legal(posed("crouching")) if a.verb == "move"]
    assert labels and all(lab.endswith("- 2 MP") or lab.endswith("- 4 MP") for lab in labels)
    assert "D6 - 2 MP" in labels


def test_prone_allows_no_movement_but_a_pose_change() -> None:
    """9.2.2: no movement is allowed while prone, except changing Fighting Pose."""
    state = posed("prone")
    assert not [a for a in legal(state) if a.verb == "move"]
    assert [a for a in legal(state) if a.args.get("order") == "pose-standing"]


def test_going_prone_from_standing_costs_two_points() -> None:
    """9.2.2 (example 1): standing to prone is paid with two movement points."""
    before = dump(stage("os1", agents={"marine": "E7"}, options={**HV_OFF, "fighting-poses": "on"}))
    after = dump(posed("prone"))
    assert after["agents"]["marine"]["mp_left"] == before["agents"]["marine"]["mp_left"] - 2


# --- 9.3.2 Poisoned: one poison at a time ---------------------------------------------------


def acid_on(poison_before: int) -> dict[str, Any]:
    """The Acid Bomb (a Poison 1 device) on a Blue Xeno-Alpha holding `poison_before`; its
    Energy Shield cancels both Hits, so any wound comes from the poison rule alone."""
    state = stage(
        "os6", agents={"marine": "E7"}, aliens=[("a1", "xeno-alpha-blue-1", "G7")], options=HV_OFF
    )
    state = edit(state, lambda d: d["strikeback"]["devices"].update(marine=["acid-bomb"]))
    if poison_before:
        state = set_body(state, "a1", poison=poison_before)
    step = act(state, "act", [4] * 30, unit="marine", what="acid-bomb", target="a1")
    data = dump(step.state)
    return {"poison": body(step.state, "a1")["poison"], "wounds": data["aliens"][0]["wounds"]}


def test_second_poison_1_is_discarded_with_one_wound() -> None:
    """9.3.2: there cannot be two poison effects on one target: the lesser (here an equal one)
    is discarded and the target suffers 1 wound at once."""
    assert acid_on(0) == {"poison": 1, "wounds": 0}
    assert acid_on(1) == {"poison": 1, "wounds": 1}


def test_lesser_poison_on_poison_2_is_discarded_with_one_wound() -> None:
    """9.3.2: Poison 1 on a Poison 2 target: the Poison 2 stays, 1 wound at once."""
    assert acid_on(2) == {"poison": 2, "wounds": 1}


def armed_step(weapon: str, rolls: list[int], at: str = "G7") -> Any:
    """The Marine (with Alien Knowledge, so alien weapons work) attacks a GREEN Spine Critter
    with `weapon` in his second slot. Faces, from the narration: RED 3 = hit+ammo+GD-Wings
    (no Bolt), BLUE 1 = alien (no shield), BLUE 2 = hit+hit+shield."""
    state = stage(
        "os1", agents={"marine": "E7"}, aliens=[("a1", "spine-critter-green-1", at)], options=HV_OFF
    )

    def change(data: dict[str, Any]) -> None:
        data["agents"]["marine"]["weapons"][1] = {"key": weapon, "ammo": 0, "jammed": False}
        data["agents"]["marine"]["skills"].append("alien-knowledge")

    return act(edit(state, change), "attack", rolls, unit="marine", target="a1", weapon=weapon)


def armed_attack(weapon: str, rolls: list[int], at: str = "G7") -> tuple[Any, str]:
    """`armed_step`'s state and narration."""
    step = armed_step(weapon, rolls, at)
    return step.state, texts(step.events)


def attacked(events: list[Event]) -> Attacked:
    """The attack as the table saw it: its dice faces, colour first ("red hit+ammo+gd")."""
    return next(e for e in events if isinstance(e, Attacked))


def colours(attack: Attacked) -> list[str]:
    return sorted(face.split()[0] for face in attack.faces)


def armed_events(weapon: str, rolls: list[int], at: str = "G7") -> list[Event]:
    """`armed_step`'s events (the dice rolled are in them)."""
    events: list[Event] = armed_step(weapon, rolls, at).events
    return events


def test_fixed_hit_weapon_rolls_no_dice_for_its_hits() -> None:
    """9.2: a weapon printing a number of Hits (our Fusion Lance: 3) has that Hit roll without
    rolling; the Defend roll is as usual. The first scripted dice go to the defence, three of
    them, one per Hit."""
    events = armed_events("fusion-lance", [1, 2, 2, 6, 6, 6])
    attack = attacked(events)
    assert attack.hits == 3 and all("fixed" in face for face in attack.faces)  # no die rolled
    defence = next(e for e in events if isinstance(e, Rolled) and e.purpose == "defend")
    assert defence.faces == ["alien", "hit+hit+shield", "hit+hit+shield"]


def test_red_and_blue_weapon_rolls_both_colours() -> None:
    """9.2: a multi-colour weapon (our Gravity Maul, 2 RED + 2 BLUE) rolls both kinds."""
    attack = attacked(armed_events("gravity-maul", [3, 3, 1, 1, *[1] * 10], at="F7"))
    assert colours(attack) == ["blue", "blue", "red", "red"]


def test_gd_result_works_as_a_bolt_on_a_weapon_that_says_so() -> None:
    """9.2: a weapon using the GD-Wings result as an extra attack effect applies its Bolt
    effect for it (two RED dice showing hit+ammo+GD, no Bolt rolled: the Maul still
    immobilizes), once however many show."""
    _, log = armed_attack("gravity-maul", [3, 3, 1, 1, *[1] * 10], at="F7")
    attack = next(x for x in log.split("\n") if " attacks " in x)
    assert "bolt" not in attack.split(" - ")[0]
    assert attack.count("Bolt effect") == 1


def test_gd_result_is_no_bolt_on_an_ordinary_weapon() -> None:
    """9.2 (the other side of the sentence): the Marine's own rifle reads the same RED
    hit+ammo+GD faces without any Bolt effect."""
    state = stage(
        "os1",
        agents={"marine": "E7"},
        aliens=[("a1", "spine-critter-green-1", "G7")],
        options=HV_OFF,
    )
    step = act(
        state,
        "attack",
        [3, 3, 3, 3, *[1] * 10],
        unit="marine",
        target="a1",
        weapon="improved-rifle",
    )
    attack = attacked(step.events)
    assert any("gd" in face for face in attack.faces) and "Bolt effect" not in attack.text


# --- 9.7 Powers & Items: five types (Psionic Powers drawn at Moon rank) --------------------


def psionic(seed: int, name: str) -> Any:
    """The Marine reaches Moon at a Strategy phase, takes the random Psionic Power instead of
    a Skill (the draw follows `seed`; `name` is the power it gives, checked) and the round
    goes on to his Agent turn at E7 (os6, aliens cleared)."""
    state, _ = rank_roll(4, [6, 6, 4])
    offer = next(a for a in legal(state, "marine") if "psionic" in a.label.lower())
    step = GAME.apply(state, "marine", offer, SeededDice(seed))
    assert f"Psionic Power {name}:" in texts(step.events)
    state = step.state
    for _ in range(20):
        prompt = waiting(state)
        if prompt.kind == "turn":
            return state
        if prompt.seats:
            seat = prompt.seats[0]
            state = GAME.apply(state, seat, legal(state, seat)[0], SeededDice(1)).state
        else:
            state = GAME.advance(state, SeededDice(1)).state
    raise AssertionError("no Agent turn reached")


def offered(state: Any) -> set[str]:
    """What the Marine may do now: verbs, and the `act` powers by name."""
    return {a.args["what"] if a.verb == "act" else a.verb for a in legal(state, "marine")}


def with_alien(state: Any, coord: str = "G7") -> Any:
    at = hexes(state)[coord]
    return edit(
        state, lambda d: put_alien(d, "a9", "spine-critter-green-1", at, controller="marine")
    )


def test_movement_power_is_the_movement_activity() -> None:
    """9.7: a Movement power is used with the Movement activity (Phase Step): afterwards no
    more walking, while the Action (Tactical Redeployment, Recall) is still there."""
    after = act(
        psionic(1, "Phase Step"), "act", [6] * 10, unit="marine", what="phase-step", to="C4"
    )
    left = offered(after.state)
    assert "move" not in left
    assert {"redeploy", "suit-recall"} <= left


def test_movement_power_is_not_offered_once_the_movement_is_used() -> None:
    """9.7: the Movement activity is once a turn, so after walking the Movement power is gone."""
    state = psionic(1, "Phase Step")
    assert "phase-step" in offered(state)
    walked = act(state, "move", [6] * 10, unit="marine", to="D7").state
    assert "phase-step" not in offered(walked)


def test_combat_power_is_the_combat_activity() -> None:
    """9.7: a Combat power is used with the Combat activity (Mind Spike): no attack after it
    (nor Tactical Redeployment, Action + Combat), while Movement and Action stay."""
    state = with_alien(psionic(2, "Mind Spike"))
    after = act(state, "act", [6] * 20, unit="marine", what="mind-spike", target="a9").state
    left = offered(after)
    assert "attack" not in left and "redeploy" not in left
    assert {"move", "suit-recall"} <= left


def test_standard_power_is_the_action_activity() -> None:
    """9.7: a Standard (Action) power takes the Action activity (Kinetic Barrier): the other
    Actions go, the Movement stays."""
    after = act(
        psionic(7, "Kinetic Barrier"), "act", [6] * 10, unit="marine", what="kinetic-barrier"
    )
    left = offered(after.state)
    assert not {"suit-recall", "redeploy", "menace-up"} & left
    assert "move" in left


def test_passive_power_needs_no_activity() -> None:
    """9.7: a Passive power is always on and uses no activity: it is never offered as one
    (Regeneration)."""
    state = psionic(3, "Regeneration")
    assert not [a for a in legal(state, "marine") if "regeneration" in str(a.args).lower()]


# --- 9.2: the colour of added Hit dice on a RED+BLUE weapon ---------------------------------


def trance_and_maul() -> Any:
    """The Marine (Battle Trance, two more Hit dice on the next attack) with the Gravity Maul
    (2 RED + 2 BLUE) next to a Spine Critter at F7."""
    state = with_alien(psionic(9, "Battle Trance"), "F7")

    def change(data: dict[str, Any]) -> None:
        data["agents"]["marine"]["weapons"][1] = {"key": "gravity-maul", "ammo": 0, "jammed": False}
        data["agents"]["marine"]["skills"].append("alien-knowledge")

    return edit(state, change)


def maul_modes(state: Any) -> set[str]:
    return {
        a.args.get("mode", "")
        for a in legal(state, "marine")
        if a.verb == "attack" and a.args.get("weapon") == "gravity-maul"
    }


def test_added_dice_on_a_red_and_blue_weapon_may_be_blue() -> None:
    """9.2: an agent adding Hit dice to a RED+BLUE weapon chooses their colour: with two
    added dice, BLUE ones may be picked, and then four BLUE dice are rolled."""
    state = trance_and_maul()
    tranced = act(state, "act", [6] * 10, unit="marine", what="battle-trance").state
    assert "blue-dice" in maul_modes(tranced)
    step = act(
        tranced,
        "attack",
        [3] * 6 + [1] * 20,
        unit="marine",
        target="a9",
        weapon="gravity-maul",
        mode="blue-dice",
    )
    assert colours(attacked(step.events)) == ["blue"] * 4 + ["red"] * 2


def test_no_colour_choice_without_added_dice() -> None:
    """9.2: the choice belongs to added dice; with none, the weapon rolls its own."""
    assert maul_modes(trance_and_maul()) == {""}


# --- 9.2.1 Managing Weapons (a Reinforcements weapon, standalone Mission 1) ----------------


def reinforced(weapons: list[tuple[str, int]], seed: int = 1) -> tuple[Any, list[str], str]:
    """The lone Marine, holding `weapons` (key, Ammo; 0 = unlimited), has four Alien Tech
    fragments and asks Reinforcements for the random Improved weapon. Returns the state at
    his next turn, the options of the take-it prompt (none if there was none) and the log."""
    state = stage("os1", agents={"marine": "E7"}, options=HV_OFF)

    def change(data: dict[str, Any]) -> None:
        data["alien_tech"] = 4
        data["agents"]["marine"]["weapons"] = [
            {"key": key, "ammo": ammo, "jammed": False} for key, ammo in weapons
        ]

    state = act(edit(state, change), "end-turn", [6] * 30, unit="marine").state
    options: list[str] = []
    lines: list[str] = []
    for _ in range(30):
        prompt = waiting(state)
        if prompt.kind == "turn":
            return state, options, "\n".join(lines)
        if prompt.seats:
            seat = prompt.seats[0]
            offers = legal(state, seat)
            keys = [a.args.get("option", "") for a in offers]
            if "weapon" in keys:
                choice = offers[keys.index("weapon")]
            else:
                if any(k.startswith("replace-") for k in keys):
                    options = keys
                choice = offers[0]
            step = GAME.apply(state, seat, choice, SeededDice(seed))
        else:
            step = GAME.advance(state, SeededDice(seed))
        lines.extend(e.text for e in step.events)
        state = step.state
    raise AssertionError("no Agent turn reached")


def test_a_limited_ammo_weapon_replaces_only_a_limited_ammo_one() -> None:
    """9.2.1: a new limited-Ammo weapon (the Heavy Pistol, 5 Ammo) may take the place of the
    limited Assault Rifle, never of the unlimited Lasergun."""
    state, options, log = reinforced([("lasergun", 0), ("assault-rifle", 4)])
    assert "Heavy Pistol" in log
    assert options == ["replace-assault-rifle", "refuse"]
    held = {w["key"]: w["ammo"] for w in dump(state)["agents"]["marine"]["weapons"]}
    assert held == {"lasergun": 0, "heavy-pistol": 5}


def test_any_suitable_weapon_may_replace_a_limited_ammo_one() -> None:
    """9.2.1: with two limited-Ammo weapons, the new one may replace either."""
    _, options, _ = reinforced([("assault-rifle", 4), ("nova-launcher", 3)])
    assert set(options) == {"replace-assault-rifle", "replace-nova-launcher", "refuse"}


def test_unlimited_ammo_weapons_keep_a_limited_one_out() -> None:
    """9.2.1: an agent holding only unlimited-Ammo weapons cannot take a limited one."""
    state, options, log = reinforced([("lasergun", 0), ("fusion-lance", 0)])
    assert not options and "cannot take the Heavy Pistol" in log
    held = [w["key"] for w in dump(state)["agents"]["marine"]["weapons"]]
    assert held == ["lasergun", "fusion-lance"]
