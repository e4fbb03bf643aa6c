"""Rulebook chapters on progress and the end of a mission: Alpha ranking order, Energy Shielded
Armor (Elite agents), Reinforcements for four Alien Tech fragments, weapon replacement,
Permanent Death, and the Mission Status check.

Reinforcements are reached by playing a quiet round (Close Encounter ce07 each Aliens turn) from
a state whose Alien Tech counter was set to 4 in the dump.
"""

from __future__ import annotations

from typing import Any

from galaxy_probe import (
    GAME,
    act,
    advance,
    aliens_turn,
    dice,
    do,
    dump,
    edit,
    elect,
    fig,
    header,
    legal,
    new,
    on_top,
    stage,
    texts,
    view,
    waiting,
)

from engine.core.game import Action

HV_OFF = {"human-view": "off"}
QUIET = "ce07"


def first_vote(seats: tuple[str, ...]) -> str | None:
    """The Alpha Agent the first vote names when its answer window closes unanswered."""
    state = new("m1", seats)
    for _ in range(12):
        prompt = waiting(state)
        if prompt.kind == "vote":
            assert prompt.default is not None
            return str(do(state, prompt.default, seat=prompt.seats[0]).state.alpha)
        if prompt.kind == "choice" and prompt.default is not None:  # an opening Signal's hex
            state = GAME.apply(state, prompt.seats[0], prompt.default, dice(6)).state
            continue
        state = advance(state, [6] * 20).state
    return None


def test_alpha_ranking_order_default() -> None:
    """Alpha Agent Promotion: without agreement the ranking Marine, Biotech, Infiltrator, Sniper,
    Hulk decides (the vote's fallback)."""
    for seats, want in (
        (("hulk", "sniper", "infiltrator"), "infiltrator"),
        (("hulk", "sniper"), "sniper"),
        (("sniper", "biotech", "marine"), "marine"),
        (("hulk", "biotech"), "biotech"),
    ):
        assert first_vote(seats) == want, seats


def test_energy_shield_cancels_hits_before_rolling() -> None:
    """Energy Shielded Armor: an Elite agent's Shield token cancels a Hit before the Defend roll."""
    state = stage(
        agents={"marine": "I3"},
        aliens=[("x1", "xeno-beta-green-1", "I6")],
        options={"human-view": "off", "start-rank": "palladium"},
    )
    state = edit(state, lambda d: d["agents"]["marine"].update(guard=False))
    hp = fig(state, "marine").health  # type: ignore[union-attr]
    step = aliens_turn(state, "ce01", [6, 6, 1] + [6] * 20)  # 2 Hits: one to the Shield, 1 die
    said = texts(step.events)
    assert "defends with 1 die: an Alien after Energy Shield cancels 1" in said
    assert fig(step.state, "marine").health == hp - 1  # type: ignore[operator, union-attr]


def test_copper_agent_has_no_energy_shield() -> None:
    """Energy Shield: only Elite (Palladium) agents have it; a Copper agent rolls every Hit."""
    state = stage(
        agents={"marine": "I3"}, aliens=[("x1", "xeno-beta-green-1", "I6")], options=HV_OFF
    )
    state = edit(state, lambda d: d["agents"]["marine"].update(guard=False))
    step = aliens_turn(state, "ce01", [6, 6, 1, 1] + [6] * 20)
    assert "defends with 2 dice: 2 Aliens." in texts(step.events)


def reinforcements(tech: int) -> Any:
    state = stage(
        seats=("marine", "biotech"),
        agents={"marine": "I3", "biotech": "G5"},
        aliens=[("x1", "xeno-beta-green-1", "I6")],
        options=HV_OFF,
    )
    state = edit(state, lambda d: d.update(alien_tech=tech))
    state = act(
        aliens_turn(state, QUIET, [6] * 10).state, "end-turn", seat="biotech", unit="biotech"
    ).state
    state = advance(on_top(state, "ce_deck", QUIET), [6] * 30).state
    return elect(state, "marine", [1] * 20)


def test_four_alien_tech_buy_reinforcements() -> None:
    """Reinforcements: four Alien Tech fragments buy one chosen Generic Device or one random
    Improved Weapon."""
    step = reinforcements(4)
    state = step.state
    while not waiting(state).seats:
        state = advance(state, [1] * 20).state
    options = {a.args["option"] for a in legal(state, "marine")}
    assert "weapon" in options and "medkit" in options


def test_three_alien_tech_buy_nothing() -> None:
    """Reinforcements: fewer than four fragments buy nothing."""
    state = reinforcements(3).state
    for _ in range(3):
        if waiting(state).kind == "turn":
            break
        assert "Reinforcements" not in waiting(state).text
        state = advance(state, [1] * 20).state
    assert header(state)["alien tech"] == "3/4"


def test_reinforcement_spends_the_fragments_and_goes_to_any_agent() -> None:
    """Reinforcements: the four fragments are discarded; the Alpha hands the item to any agent."""
    state = reinforcements(4).state
    while not waiting(state).seats:
        state = advance(state, [1] * 20).state
    step = do(state, Action(verb="choose", args={"option": "medkit"}), [1] * 10, seat="marine")
    assert header(step.state)["alien tech"] == "0/4"
    assert {a.args["option"] for a in legal(step.state, "marine")} == {"marine", "biotech"}
    given = do(
        step.state, Action(verb="choose", args={"option": "biotech"}), [1] * 10, seat="marine"
    )
    panel = next(p.lines for p in view(given.state).panels if p.seat == "biotech")
    assert sum(line.count("Medkit") for line in panel) == 2  # the Biotech's own and this one


def test_new_weapon_replaces_one_of_two_or_is_refused() -> None:
    """Weapons: a new weapon replaces one of the agent's two weapons, his choice; he may refuse."""
    state = reinforcements(4).state
    while not waiting(state).seats:
        state = advance(state, [1] * 20).state
    step = do(state, Action(verb="choose", args={"option": "weapon"}), [1] * 10, seat="marine")
    step = do(step.state, Action(verb="choose", args={"option": "marine"}), [1] * 10, seat="marine")
    options = {a.args["option"] for a in legal(step.state, "marine")}
    assert options == {"replace-assault-rifle", "replace-service-pistol", "refuse"}


def test_mission_ends_at_strategy_when_time_is_up() -> None:
    """Mission Status check (Strategy): the first matching Objectives row ends the mission."""
    state = stage(agents={"marine": "I3"}, options=HV_OFF)
    state = edit(state, lambda d: d.update(round=8))  # m1's last round
    step = aliens_turn(state, QUIET, [6] * 40)
    said = texts(step.events)
    assert said.index("Strategy") < said.index("Mission failed")
    prompt = waiting(step.state)
    assert prompt.finished and prompt.outcome == "failed"
    assert view(step.state).finished


def test_permanent_death_no_revival() -> None:
    """Permanent Death (optional): a dead agent does not come back during the mission."""
    state = stage(
        seats=("marine", "biotech"),
        agents={"marine": "I3", "biotech": "G5"},
        aliens=[("x1", "xeno-beta-green-1", "I6")],
        options={"human-view": "off", "permanent-death": "on"},
        prep=lambda d: d["agents"]["marine"].update(wounds=6, bleeding=True),
    )
    state = edit(
        state, lambda d: (d["agents"]["marine"].update(guard=False), d.update(alien_tech=2))
    )
    step = aliens_turn(state, "ce01", [6, 6, 1, 1] + [6] * 20)
    assert fig(step.state, "marine") is None
    state = act(step.state, "end-turn", seat="biotech", unit="biotech").state
    state = advance(on_top(state, "ce_deck", QUIET), [6] * 30).state
    assert waiting(state).seats != ["marine"]
    assert fig(state, "marine") is None


def test_strategy_steps_in_order() -> None:
    """Strategy Phase: Alpha Agent promotion, then GD-Wings, then Reinforcements."""
    state = stage(
        seats=("marine", "biotech"),
        agents={"marine": "I3", "biotech": "G5"},
        aliens=[("x1", "xeno-beta-green-1", "I6")],
        options=HV_OFF,
    )
    state = edit(state, lambda d: (d.update(alien_tech=3), d["aliens"][0].update(wounds=2)))
    state = act(
        state, "attack", [3, 1, 1, 1], unit="marine", target="x1", weapon="assault-rifle"
    ).state
    assert header(state)["alien tech"] == "4/4"  # the kill brought the fourth fragment
    state = act(
        aliens_turn(state, QUIET, [6] * 10).state, "end-turn", seat="biotech", unit="biotech"
    ).state
    state = advance(on_top(state, "ce_deck", QUIET), [6] * 30).state
    step = elect(state, "marine", [3] * 12)
    said = texts(step.events)
    state = step.state
    for _ in range(8):  # pick the first offered tactic until Reinforcements is offered
        prompt = waiting(state)
        said += "\n" + prompt.text
        if "Reinforcements" in prompt.text or prompt.kind == "turn":
            break
        if prompt.seats:
            step = do(state, legal(state, prompt.seats[0])[0], [3] * 12, seat=prompt.seats[0])
        else:
            step = advance(state, [3] * 12)
        said += "\n" + texts(step.events)
        state = step.state
    assert said.index("is the Alpha Agent") < said.index("GD-Wings") < said.index("Reinforcements")


def test_new_weapon_arrives_with_full_ammo() -> None:
    """Reinforcements: the random Improved Weapon comes with full ammo."""
    state = reinforcements(4).state
    while not waiting(state).seats:
        state = advance(state, [1] * 20).state
    step = do(state, Action(verb="choose", args={"option": "weapon"}), [1] * 10, seat="marine")
    step = do(step.state, Action(verb="choose", args={"option": "marine"}), [1] * 10, seat="marine")
    step = do(
        step.state,
        Action(verb="choose", args={"option": "replace-service-pistol"}),
        [1] * 10,
        seat="marine",
    )
    panel = next(p.lines for p in view(step.state).panels if p.seat == "marine")
    weapons = [line for line in panel if "dice" in line]
    assert len(weapons) == 2 and weapons[0].startswith("Assault Rifle")
    new_line = weapons[1]
    assert "Service Pistol" not in new_line
    assert "ammo" in new_line  # the seeded draw is a ranged human weapon (Combat Carbine)
    have, most = new_line.split("ammo ")[1].split()[0].split("/")
    assert have == most


def test_alien_energy_shield_regenerates() -> None:
    """Alien cards / Energy Shielded Armor: an alien's spent Energy Shield comes back each round."""
    state = stage(agents={"marine": "G5"}, signals=[("s9", "alien-1", "G8")], options=HV_OFF)
    state = on_top(state, "alien_deck", "xeno-alpha-green-1")
    revealed = act(state, "move", unit="marine", to="G6").state
    full = dump(revealed)["aliens"][0]["energy"]
    assert full >= 1
    spent = edit(revealed, lambda d: d["aliens"][0].update(energy=0))
    ended = act(spent, "end-turn", unit="marine").state
    after = advance(on_top(ended, "ce_deck", QUIET), [6] * 40).state
    assert dump(after)["aliens"][0]["energy"] == full
