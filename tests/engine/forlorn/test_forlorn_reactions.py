"""Reaction windows (10.0): the Xeno player may answer a Marine action with a Mutation card."""

from __future__ import annotations

import json
from typing import Any

import pytest
from conftest import bare, put, unit, xeno_plays

from engine.core.dice import ScriptedDice, SeededDice
from engine.core.errors import ContentError, RuleError
from engine.core.events import Event
from engine.core.game import Action
from engine.forlorn import GAME
from engine.forlorn.content import cards, parse_cards
from engine.forlorn.state import ForlornState, ReactionRules

PASS = Action(verb="choose", args={"option": "pass"})


def answers(state: ForlornState) -> list[Action]:
    """The Xeno seat's legal actions but her standing reaction rules (always listed)."""
    return [a for a in GAME.legal_actions(state, "xeno") if a.verb != "orders"]


def only_pass(state: ForlornState) -> bool:
    return [a.args for a in answers(state)] == [PASS.args]


def table(*hand: str, **options: str) -> ForlornState:
    """Op 01 with a human Xeno seat holding exactly `hand`, asked after every Marine action
    (`reactions: on`, unless `options` say otherwise); Bates in the west corridor (F9,
    facing south) and Drone D1 down the south corridor at K11, out of his sight."""
    state = bare("op-01", ["marines", "xeno"], **{"xeno": "human", "reactions": "on", **options})
    deck = state.mutation.hand + state.mutation.draw_pile
    state.mutation.hand = list(hand)
    state.mutation.draw_pile = [c for c in deck if c not in hand]
    put(state, "bates", "F9", "S")
    put(state, "d1", "K11")
    return state


def move(state: ForlornState, to: str) -> tuple[ForlornState, list[Event]]:
    step = GAME.apply(
        state, "marines", Action(verb="move", args={"unit": "bates", "to": to}), ScriptedDice()
    )
    return step.state, step.events


def secrets(state: ForlornState) -> list[str]:
    """What would give a held card away: its title, its text, its id as a JSON string."""
    return [t for c in state.mutation.hand for t in (cards()[c].title, cards()[c].text, f'"{c}"')]


def test_a_window_opens_whatever_the_hand_holds() -> None:
    """Issue 14: a hand with no fitting card gets the same window (only pass is listed)."""
    state, _ = move(table("m01", "m02", "m03"), "F11")  # frenzy: Xeno phase only
    assert state.reaction is not None
    prompt = GAME.waiting_on(state)
    assert prompt.seats == ["xeno"] and prompt.default is not None
    assert only_pass(state)
    empty = table()
    state, _ = move(empty, "F11")  # an empty hand (a public fact) opens none
    assert state.reaction is None and GAME.waiting_on(state).seats == ["marines"]


def test_sight_card_fits_only_a_move_into_sight() -> None:
    state, _ = move(table("m05"), "F10")  # still out of the Drone's sight
    assert state.reaction is not None and only_pass(state)
    state, _ = move(table("m07"), "F11")  # an after-an-attack card does not fit a move
    assert only_pass(state)


@pytest.mark.parametrize("to", ["F10", "F11"])
def test_two_hands_of_one_size_give_identical_public_prompts_and_events(to: str) -> None:
    """What the Marines and spectators see of a window does not depend on the cards held."""
    seen: list[tuple[object, ...]] = []
    for hand in (("m05", "m10", "m07"), ("m01", "m12", "m19")):
        state, events = move(table(*hand), to)
        prompt = GAME.waiting_on(state)
        public = [e.model_dump_json() for e in events if e.visible_to is None]
        view = GAME.view(state, None).model_dump_json()
        seen.append((prompt.seats, prompt.kind, prompt.text, prompt.default, public, view))
        passed = GAME.apply(state, "xeno", PASS, ScriptedDice())
        seen.append(tuple(e.model_dump_json() for e in passed.events))
    assert seen[0] == seen[2] and seen[1] == seen[3]


def test_move_into_sight_opens_a_window_with_pass_as_default() -> None:
    state, events = move(table("m05", "m01"), "F11")
    assert state.reaction is not None
    prompt = GAME.waiting_on(state)
    assert prompt.seats == ["xeno"] and prompt.kind == "choice"
    assert prompt.default is not None and prompt.default.matches(PASS)
    assert "Bates" in prompt.text and "into sight of Drone D1" in prompt.text
    options = xeno_plays(state)
    assert [a.args for a in options] == [
        {"what": "card", "card": "m05", "target": "d1"},
        {"option": "pass"},
    ]
    assert GAME.legal_actions(state, "marines") == []
    with pytest.raises(RuleError, match="Xeno player may react"):
        move(state, "G11")
    assert GAME.advance(state, ScriptedDice()).events == []  # idempotent while waiting
    assert GAME.view(state, None).waiting == ["xeno"]
    prompt = GAME.waiting_on(state)
    assert prompt.private and prompt.text.endswith("the Xeno player may react.")
    assert not any("Mutation" in e.text for e in events)  # the window itself is not narrated


def test_playing_the_last_card_resolves_it_and_closes_the_window() -> None:
    state, _ = move(table("m05"), "F11")
    card = Action(verb="act", args={"what": "card", "card": "m05", "target": "d1"})
    step = GAME.apply(state, "xeno", card, ScriptedDice())
    after = step.state
    assert after.reaction is None and after.mutation.shielded == ["d1"]
    assert after.mutation.hand == [] and after.mutation.played == ["m05"]
    assert GAME.waiting_on(after).seats == ["marines"]
    assert any(cards()["m05"].title in e.text and e.visible_to is None for e in step.events)
    assert any(a.verb == "move" for a in GAME.legal_actions(after, "marines"))


def test_passing_closes_the_window_and_keeps_the_hand() -> None:
    state, _ = move(table("m05"), "F11")
    default = GAME.waiting_on(state).default
    assert default is not None
    after = GAME.apply(state, "xeno", default, ScriptedDice()).state
    assert after.reaction is None and after.mutation.hand == ["m05"]
    assert GAME.waiting_on(after).seats == ["marines"]
    with pytest.raises(RuleError, match="play a Mutation card"):
        GAME.apply(state, "xeno", Action(verb="end-turn"), ScriptedDice())


def test_window_stays_open_while_the_hand_is_not_empty() -> None:
    state, _ = move(table("m10", "m05"), "F11")  # any-time sap and the sight shield
    assert state.reaction is not None
    assert state.reaction.moments == ["marine-phase", "marine-sighted"]
    ap = state.ap
    sap = Action(verb="act", args={"what": "card", "card": "m10"})
    state = GAME.apply(state, "xeno", sap, ScriptedDice()).state
    assert state.ap == ap - 1 and state.reaction is not None
    assert [a.args.get("card") for a in xeno_plays(state)] == ["m05", None]
    state = GAME.apply(state, "xeno", PASS, ScriptedDice()).state
    assert state.reaction is None and state.mutation.hand == ["m05"]
    state, _ = move(table("m10", "m01"), "F11")  # the frenzy card left fits nothing now
    state = GAME.apply(state, "xeno", sap, ScriptedDice()).state
    assert state.reaction is not None and only_pass(state)


def test_any_time_card_opens_a_window_after_any_marine_action() -> None:
    state, _ = move(table("m10"), "F10")
    assert state.reaction is not None and state.reaction.moments == ["marine-phase"]
    state.ap = 0
    sap = Action(verb="act", args={"what": "card", "card": "m10"})
    after = GAME.apply(state, "xeno", sap, ScriptedDice()).state
    assert after.ap == 0 and after.reaction is None  # never below zero
    orders = Action(
        verb="orders", args={"unit": "bates", "order": "interrupt", "aps": "1", "range": "3"}
    )
    ordered = GAME.apply(table("m10"), "marines", orders, ScriptedDice()).state
    assert ordered.reaction is None  # standing orders and end-turn never open one


def attack_table(*hand: str) -> ForlornState:
    state = table(*hand)
    put(state, "bates", "J9", "N")
    put(state, "d1", "J6")
    put(state, "d2", "L7")
    return state


def test_attack_card_fits_after_a_marine_attack() -> None:
    state = attack_table("m07")
    shot = Action(verb="attack", args={"unit": "bates", "target": "d1"})
    dice = ScriptedDice([1, 2])  # Bates' two dice miss
    after = GAME.apply(state, "marines", shot, dice).state
    assert dice.remaining == 0
    assert after.reaction is not None and "marine-attack" in after.reaction.moments
    targets = [a.args.get("target") for a in xeno_plays(after)]
    assert targets == ["d1", "d2", None]
    moved, _ = move(attack_table("m07"), "J8")
    assert moved.reaction is not None and only_pass(moved)


def test_a_card_with_no_legal_target_is_not_listed() -> None:
    state = attack_table("m07")
    state.mutation.shielded = ["d2"]
    shot = Action(verb="attack", args={"unit": "bates", "target": "d1"})
    after = GAME.apply(state, "marines", shot, ScriptedDice([6, 6])).state
    assert unit(after, "d1").status != "active"
    assert only_pass(after)  # D2 is shielded already


def test_reactions_off_never_opens_a_window() -> None:
    state, _ = move(table("m05", "m10", reactions="off"), "F11")
    assert state.reaction is None and GAME.waiting_on(state).seats == ["marines"]


def test_automatic_xenos_never_open_a_window() -> None:
    state = table("m05", "m10", xeno="automatic")
    assert not state.xeno_human
    state, _ = move(state, "F11")
    assert state.reaction is None
    solo = bare("solo-a")
    put(solo, "bates", "F9", "S")
    solo.mutation.hand = ["m05", "m10"]
    step = GAME.apply(
        solo, "marines", Action(verb="move", args={"unit": "bates", "to": "F10"}), ScriptedDice()
    )
    assert step.state.reaction is None


def test_reactions_option_offered_for_operations_only() -> None:
    for info in GAME.scenarios():
        keys = [o.key for o in info.options]
        assert ("reactions" in keys) == info.key.startswith("op-")
    op = next(i for i in GAME.scenarios() if i.key == "op-01")
    assert op.resolve_options({})["reactions"] == "standing"


def test_card_identities_stay_hidden_until_played() -> None:
    state = table("m05", "m10", "m07")
    opened, events = move(state, "F11")
    assert opened.reaction is not None
    hidden = secrets(opened)
    public = [GAME.view(opened, None), GAME.view(opened, "marines")]
    for view in public:
        text = view.model_dump_json()
        assert view.private == []
        assert not any(s in text for s in hidden)
    assert "Mutation cards in hand: 3" in json.dumps(public[0].model_dump())
    prompt = GAME.waiting_on(opened)
    for card in opened.mutation.hand:
        assert cards()[card].title not in prompt.text and card not in prompt.text
    for e in events:
        if e.visible_to is None:
            assert not any(s in e.model_dump_json() for s in hidden)
    sap = Action(verb="act", args={"what": "card", "card": "m10"})
    step = GAME.apply(opened, "xeno", sap, ScriptedDice())
    revealed = [e for e in step.events if cards()["m10"].title in e.text]
    assert revealed and all(e.visible_to is None for e in revealed)
    after = GAME.view(step.state, None).model_dump_json()
    assert cards()["m10"].title in after
    assert cards()["m05"].title not in after and cards()["m07"].title not in after


def test_every_listed_reaction_is_accepted_and_state_round_trips() -> None:
    state, _ = move(table("m10", "m05", "m06"), "F11")
    assert GAME.load(json.loads(json.dumps(GAME.dump(state)))) == state
    for action in GAME.legal_actions(state, "xeno"):
        GAME.apply(state, "xeno", action, ScriptedDice())


def test_any_time_card_played_outside_a_window() -> None:
    """10.0: a card without a stated moment may be played any time, also with no window."""
    state = table("m10", "m01")
    sap = Action(verb="act", args={"what": "card", "card": "m10"})
    assert [a.args.get("card") for a in xeno_plays(state)] == ["m10", "m10"]
    ap = state.ap
    step = GAME.apply(state, "xeno", sap, ScriptedDice())
    assert step.state.ap == ap - 1 and step.state.mutation.played == ["m10"]
    assert step.state.reaction is None and GAME.waiting_on(step.state).seats == ["marines"]
    frenzy = Action(verb="act", args={"what": "card", "card": "m01", "target": "d1"})
    with pytest.raises(RuleError, match="only in the Xeno phase"):
        GAME.apply(state, "xeno", frenzy, ScriptedDice())
    state.phase = "xeno"
    played = GAME.apply(state, "xeno", sap, ScriptedDice()).state
    assert played.mutation.played == ["m10"]  # every card also fits the Xeno phase


def good_deck() -> dict[str, Any]:
    return {"cards": [c.model_dump() for c in cards().values()]}


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"when": []}, "empty 'when'"),
        ({"when": ["whenever"]}, "unknown timing 'whenever'"),
    ],
)
def test_card_timing_is_validated(change: dict[str, Any], message: str) -> None:
    assert len(parse_cards(good_deck())) == 20
    data = good_deck()
    data["cards"][4].update(change)
    with pytest.raises(ContentError, match=message):
        parse_cards(data)
    data = good_deck()
    del data["cards"][4]["when"]
    with pytest.raises(ContentError, match="when"):
        parse_cards(data)


def test_whole_operation_with_windows_answered_by_play_or_timeout() -> None:
    """A Xeno player who keeps her cards for reactions: windows open, every listed reaction is
    accepted, and answering with the default (the table's timeout) lets the game finish."""
    from engine.core.dice import SeededDice
    from engine.selfplay import choose_action

    windows = played = 0
    for seed in (5, 6):  # hands that keep Static Storm or a shield through the mulligan
        state = GAME.new(
            "op-01", ["marines", "xeno"], {"xeno": "human", "reactions": "on"}, SeededDice(seed)
        )
        policy, patience = SeededDice(seed + 100), 0
        for n in range(3000):
            dice = SeededDice(seed * 10_000 + n)
            state = GAME.advance(state, dice).state
            prompt = GAME.waiting_on(state)
            if prompt.finished:
                break
            seat = prompt.seats[0]
            options = GAME.legal_actions(state, seat)
            if prompt.default is not None and prompt.default.args.get("option") == "pass":
                windows += 1
                assert seat == "xeno" and [a for a in options if a.verb != "orders"][-1].matches(
                    prompt.default
                )
                for option in options:
                    GAME.apply(state, seat, option, SeededDice(n))
                action = prompt.default if windows % 2 else options[0]
                played += action.verb == "act"
            else:
                keep = [a for a in options if a.args.get("what") != "card" and a.verb != "orders"]
                action = choose_action(keep, policy, patience)
                patience = 0 if action.verb == "end-turn" else patience + 1
            state = GAME.apply(state, seat, action, dice).state
        assert GAME.waiting_on(state).finished
    assert windows >= 2 and played >= 1


# --- standing reaction rules (issue #32 item 7) -------------------------------------------

SHOT = Action(verb="attack", args={"unit": "bates", "target": "d1"})


def rule(state: ForlornState, order: str, target: str) -> ForlornState:
    """The Xeno player sets one standing reaction rule; only she is told."""
    action = Action(verb="orders", args={"order": order, "target": target})
    assert any(a.matches(action) for a in GAME.legal_actions(state, "xeno")), action
    step = GAME.apply(state, "xeno", action, ScriptedDice())
    assert step.events and all(e.visible_to == ["xeno"] for e in step.events)
    return step.state


def standing(*hand: str) -> ForlornState:
    """An attack table under the new default, `reactions: standing`."""
    state = attack_table(*hand)
    state.options["reactions"] = "standing"
    state.reaction_rules = ReactionRules(ask=["sight", "attack"])
    return state


def test_standing_default_asks_after_attacks_and_sightings_only() -> None:
    fresh = GAME.new("op-01", ["marines", "xeno"], {"xeno": "human"}, SeededDice(3))
    assert fresh.options.get("reactions", "standing") == "standing"
    assert fresh.reaction_rules is not None and fresh.reaction_rules.ask == ["sight", "attack"]
    moved, _ = move(standing("m07"), "J8")  # no Xeno newly in sight: not asked
    assert moved.reaction is None and GAME.waiting_on(moved).seats == ["marines"]
    shot = GAME.apply(standing("m07"), "marines", SHOT, ScriptedDice([1, 2])).state
    prompt = GAME.waiting_on(shot)
    assert prompt.seats == ["xeno"] and prompt.private and prompt.default is not None
    sighted, _ = move(table("m01", reactions="standing"), "F11")  # into Drone D1's sight
    assert sighted.reaction is not None and "marine-sighted" in sighted.reaction.moments


def test_a_kind_she_is_not_asked_about_opens_no_window() -> None:
    state = rule(standing("m07"), "react-pass", "attack")
    after = GAME.apply(state, "marines", SHOT, ScriptedDice([1, 2])).state
    assert after.reaction is None and GAME.waiting_on(after).seats == ["marines"]
    asked = rule(after, "react-ask", "move")
    moved, _ = move(asked, "J8")
    assert moved.reaction is not None and GAME.waiting_on(moved).private


def test_a_card_her_rule_names_is_played_at_once_on_the_xeno_attacked() -> None:
    state = rule(rule(standing("m07", "m01"), "react-play-attack", "m07"), "react-pass", "attack")
    step = GAME.apply(state, "marines", SHOT, ScriptedDice([1, 2]))
    after = step.state
    assert "m07" in after.mutation.played and after.mutation.shielded == ["d1"]
    assert after.reaction_rules is not None and "m07" not in after.reaction_rules.play
    assert after.reaction is None
    shown = [e.text for e in step.events if e.visible_to is None]
    assert any("Dense Chitin" in t for t in shown)  # playing reveals the card (1.5)
    # A rule for a sighting waits for one: a plain move plays nothing.
    sight = rule(standing("m05", "m01"), "react-play-sight", "m05")
    moved, _ = move(sight, "J8")
    assert moved.mutation.hand == ["m05", "m01"]


def test_any_time_card_rule_plays_after_the_kind_she_chose() -> None:
    state = rule(standing("m10", "m01"), "react-play-move", "m10")
    ap = state.ap
    moved, events = move(state, "J8")
    assert moved.ap == ap - 1 - 1 and "m10" in moved.mutation.played  # the move, then the sap
    assert any("Static Storm" in e.text for e in events if e.visible_to is None)


def test_standing_rules_are_hidden_from_the_marines_and_spectators() -> None:
    state = rule(rule(standing("m07", "m05"), "react-play-attack", "m07"), "react-ask", "move")
    secret = GAME.view(state, "xeno").private
    assert any("play Dense Chitin at once after a Marine attacks" in line for line in secret)
    for seat in (None, "marines"):
        shown = GAME.view(state, seat).model_dump_json()
        assert "Dense Chitin" not in shown and "Standing reactions" not in shown
        assert "react-" not in shown and "at once" not in shown
    assert GAME.legal_actions(state, "marines") and not any(
        a.verb == "orders" and a.args.get("order", "").startswith("react")
        for a in GAME.legal_actions(state, "marines")
    )


@pytest.mark.parametrize("kind", ["attack", "move"])
def test_under_standing_rules_windows_never_depend_on_the_hand(kind: str) -> None:
    """Same rules, two hands of one size: the same windows, prompts, public events and view."""
    seen: list[tuple[object, ...]] = []
    for hand in (("m07", "m10", "m05"), ("m01", "m12", "m19")):
        state = standing(*hand)
        if kind == "move":
            state = rule(state, "react-ask", "move")
        if kind == "attack":
            step = GAME.apply(state, "marines", SHOT, ScriptedDice([1, 2]))
        else:
            step = GAME.apply(
                state,
                "marines",
                Action(verb="move", args={"unit": "bates", "to": "J8"}),
                ScriptedDice(),
            )
        prompt = GAME.waiting_on(step.state)
        public = [e.model_dump_json() for e in step.events if e.visible_to is None]
        view = GAME.view(step.state, None).model_dump_json()
        seen.append((prompt.model_dump_json(), public, view))
    assert seen[0] == seen[1]


@pytest.mark.parametrize(
    ("order", "target", "message"),
    [
        ("react-play-sight", "m07", "cannot be played after a Marine moves into sight"),
        ("react-play-attack", "m12", "not a Mutation card in your hand"),
        ("react-ask", "doors", "Name the kind of Marine action"),
        ("react-keep", "m07", "kept already"),
        ("react-loud", "m07", "not a reaction rule"),
    ],
)
def test_bad_reaction_rules_are_refused_and_change_nothing(
    order: str, target: str, message: str
) -> None:
    state = standing("m07", "m01")
    before = state.model_dump_json()
    action = Action(verb="orders", args={"order": order, "target": target})
    with pytest.raises(RuleError, match=message):
        GAME.apply(state, "xeno", action, ScriptedDice())
    assert state.model_dump_json() == before
    off = attack_table("m07")
    off.options["reactions"] = "off"
    assert not [a for a in GAME.legal_actions(off, "xeno") if a.verb == "orders"]
    with pytest.raises(RuleError, match="Reactions are off"):
        GAME.apply(
            off,
            "xeno",
            Action(verb="orders", args={"order": "react-ask", "target": "move"}),
            ScriptedDice(),
        )
