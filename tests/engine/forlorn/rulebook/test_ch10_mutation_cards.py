"""Chapter 10 (Mutation Cards), on Operation 01 with a human Xeno. The probes deal the Xeno
player Static Storm (m10: the Marines lose AP; discard one more card for a bigger effect),
Resin Plating (m06) and Scent of Blood (m03: one Xeno gains 3 MP) by editing the state (the
seeded deal moved when the starting Xenos began to be placed after the set-up, issue #30)."""

from __future__ import annotations

from typing import Any

from forlorn_probe import (
    act,
    ap,
    dump,
    edit,
    find,
    legal,
    marine_phase,
    put,
    view,
    waiting,
    xeno_phase,
)

HAND = ["m10", "m06", "m03"]


def _deal(data: dict[str, Any]) -> None:
    mutation = data["mutation"]
    rest = [c for c in mutation["hand"] + mutation["draw_pile"] if c not in HAND]
    mutation["hand"], mutation["draw_pile"] = list(HAND), rest


def op01(reactions: str = "off") -> Any:
    return edit(marine_phase("op-01", ("marines", "xeno"), opts={"reactions": reactions}), _deal)


def hand(state: Any) -> list[str]:
    """The Xeno hand's card ids (the view shows the cards by name and text)."""
    return list(state.mutation.hand)


def test_the_hand_is_as_dealt() -> None:
    """10.0 set-up check for the probes below: the hand they deal."""
    assert hand(op01()) == ["m10", "m06", "m03"]


def test_cards_are_hidden_until_played() -> None:
    """1.5 / 10.0: the Marines do not see the Xeno hand; a played card is shown to all."""
    state = op01()
    assert view(state, "marines").private == []
    assert "Static Storm" not in view(state, "marines").model_dump_json()
    step = act(state, "act", seat="xeno", what="card", card="m10")
    public = [e for e in step.events if e.visible_for("marines")]
    assert any("Static Storm" in e.text for e in public)


def test_card_played_in_the_marine_phase() -> None:
    """10.0: the Xeno player may play a card during the Marine phase (Static Storm: -1 AP)."""
    state = op01()
    played = act(state, "act", seat="xeno", what="card", card="m10").state
    assert ap(played) == ap(state) - 1


def test_played_card_leaves_the_game() -> None:
    """10.0: once its effect is done the card is removed from play."""
    state = op01()
    played = act(state, "act", seat="xeno", what="card", card="m10").state
    assert "m10" not in hand(played)
    assert not [a for a in legal(played, "xeno") if a.args.get("card") == "m10"]


def test_discard_for_a_bigger_effect() -> None:
    """10.0: some cards let the Xeno player discard one more card for a stronger effect; the
    discarded card leaves the game without its own effect."""
    state = op01()
    played = act(state, "act", seat="xeno", what="card", card="m10", discard="m03").state
    assert ap(played) == ap(state) - 2
    assert hand(played) == ["m06"]
    assert "m03" not in [c for c in dump(played)["mutation"]["played"]]


def test_any_number_of_cards() -> None:
    """10.0: there is no limit on how many cards are played in a turn."""
    state = xeno_phase(put(op01(), d1="L9"))
    one = act(state, "act", seat="xeno", what="card", card="m03", target="d1").state
    assert [a for a in legal(one, "xeno") if a.args.get("what") == "card"]


def test_scent_of_blood_gives_three_mp() -> None:
    """10.0 (card m03): the chosen Xeno gets 3 more MP this phase: it reaches farther."""
    state = xeno_phase(put(op01(), d1="L9"))

    def reach(s: Any) -> set[str]:
        return {a.args["to"] for a in find(s, seat="xeno", unit="d1") if a.verb == "move"}

    boosted = act(state, "act", seat="xeno", what="card", card="m03", target="d1").state
    assert reach(boosted) > reach(state)


def test_cards_can_answer_a_marine_action() -> None:
    """10.0: cards may interrupt the Marines' actions: with reactions on, the Xeno player
    gets a window after a Marine action, and passing lets the Marines go on."""
    state = op01("on")
    moved = act(state, "move", unit="fox", to="N").state
    prompt = waiting(moved)
    assert prompt.seats == ["xeno"]
    assert prompt.default is not None and prompt.default.args.get("option") == "pass"
    passed = act(moved, "choose", seat="xeno", option="pass").state
    assert waiting(passed).seats == ["marines"]


def test_a_card_given_in_advance_answers_a_marine_action_at_once() -> None:
    """10.0: cards may be played at any time, so the Xeno player may decide in advance: a
    standing rule plays Static Storm right after the next Marine move, with nobody waiting."""
    state = op01("standing")
    ruled = act(state, "orders", seat="xeno", order="react-play-move", target="m10").state
    step = act(ruled, "move", unit="fox", to="N")
    assert ap(step.state) == ap(ruled) - 2  # the move's AP, then the card's
    assert "Static Storm" in " ".join(e.text for e in step.events if e.visible_for("marines"))
    assert "m10" not in hand(step.state) and waiting(step.state).seats == ["marines"]


def test_the_xeno_player_is_asked_only_where_she_said() -> None:
    """10.0: she is not made to answer every Marine action: asked after attacks and sightings
    by default, after plain moves only once she says so, and always in private."""
    state = op01("standing")
    moved = act(state, "move", unit="fox", to="N").state
    assert waiting(moved).seats == ["marines"]
    ruled = act(moved, "orders", seat="xeno", order="react-ask", target="move").state
    asked = act(ruled, "move", unit="fox", to="E").state
    prompt = waiting(asked)
    assert prompt.seats == ["xeno"] and prompt.private
    assert "Standing reactions" not in view(asked, "marines").model_dump_json()
