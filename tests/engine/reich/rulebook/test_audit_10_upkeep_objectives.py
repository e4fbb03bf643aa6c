"""Rulebook audit, chapters The Upkeep Turn and The End of the Game (Objectives)."""

from __future__ import annotations

from typing import Any

from reich_audit_probe import (
    TEAM,
    Data,
    act,
    advance,
    dump,
    end_heroes_turn,
    fresh,
    hero,
    legal,
    patch,
    perform,
    view,
    waiting,
)


def _quiet(edit: Any = None, **options: str) -> Any:
    """No Enemy tokens on the board, optionally edited further."""

    def change(d: Data) -> None:
        d["enemy_tokens"] = []
        if edit is not None:
            edit(d)

    return patch(fresh(options=options), change)


def _upkeep(state: Any) -> Any:
    """The Upkeep, each free Pick Up the game asks about answered with its offered default."""
    state, _ = advance(end_heroes_turn(state), rolls=[])
    while (prompt := waiting(state)).kind == "choice" and prompt.default is not None:
        state = perform(state, prompt.seats[0], prompt.default)
        state, _ = advance(state, rolls=[])
    return state


def test_suppressing_fire_is_discarded_at_upkeep() -> None:
    """Upkeep 1 / Effect Duration (Game round): Suppressing Fire ends with the round."""
    state = _upkeep(_quiet(lambda d: d.__setitem__("suppress", ["2A"])))
    assert dump(state)["suppress"] == []


def test_smoke_stays_for_the_whole_mission() -> None:
    """Smoke Token (Infinite): Smoke is still there after the Upkeep."""
    state = _upkeep(_quiet(lambda d: d.__setitem__("smoke", ["2A"])))
    assert dump(state)["smoke"] == ["2A"]


def test_heroes_with_four_cards_or_less_draw_one() -> None:
    """Upkeep 2: four cards or fewer in hand: draw one Action card; five or more: none."""

    def hands(d: Data) -> None:
        sarge = d["heroes"]["sarge"]
        sarge["hand"].append(sarge["deck"]["draw_pile"].pop())
        d["heroes"]["hans"]["hand"] = d["heroes"]["hans"]["hand"][:1]

    state = _quiet(hands)
    before = {k: len(hero(state, k)["hand"]) for k in TEAM}
    assert before["sarge"] == 5
    state = _upkeep(state)
    after = {k: len(hero(state, k)["hand"]) for k in TEAM}
    assert after == {"sarge": 5, "hans": 2, "claudine": 5, "tane": 5}


def test_heroes_get_their_basic_action_tokens_back() -> None:
    """Upkeep 3: spent Basic Action tokens return; the once-per-turn Move is free again."""
    state = _quiet()
    state = act(state, "sarge", "move", unit="sarge", to="1C")
    state = act(state, "sarge", "act", unit="sarge", what="draw")
    assert hero(state, "sarge")["tokens"] == 0
    state = _upkeep(state)
    assert hero(state, "sarge")["tokens"] == 2
    assert hero(state, "sarge")["used_move"] is False


def test_free_pick_up_of_a_face_up_loot_card() -> None:
    """Upkeep 4: each Hero may pick up a face-up Loot card in an Area without Enemies."""
    state = _upkeep(_quiet(lambda d: d["heroes"]["sarge"].update(area="1D")))
    assert hero(state, "sarge")["loot"] == ["light_em_up"]


def test_no_free_pick_up_next_to_an_enemy() -> None:
    """Upkeep 4: not when the Area holds an Enemy."""

    def edit(d: Data) -> None:
        d["heroes"]["sarge"]["area"] = "1D"
        d["suppress"] = ["1D"]
        d["alarm"] = True
        d["enemies"].append(
            {"id": "s", "type": "soldier", "area": "1D", "wounds": 0, "behavior": 0, "active": True}
        )

    state, _ = advance(end_heroes_turn(_quiet(edit)), rolls=[])
    assert hero(state, "sarge")["loot"] == []


def test_tracker_moves_forward_one_space() -> None:
    """Upkeep 5: the Mission Tracker token advances one space."""
    state = _upkeep(_quiet())
    assert dump(state)["tracker"] == 2
    assert view(state).header["tracker"] == "2"


def test_tracker_landing_on_discretion_sounds_the_alarm() -> None:
    """Upkeep 5: the tracker landing on the Discretion space triggers the alarm."""
    state = _upkeep(_quiet(lambda d: d.__setitem__("discretion", 2)))
    assert dump(state)["alarm"] is True


def test_tracker_short_of_discretion_keeps_the_base_quiet() -> None:
    """Upkeep 5: one space short of Discretion, no alarm."""
    state = _upkeep(_quiet(lambda d: d.__setitem__("discretion", 3)))
    assert dump(state)["alarm"] is False


def _wreck_radio(state: Any) -> Any:
    """Sarge stands at the Mission 1 objective token and completes it."""
    state = patch(state, lambda d: d["heroes"]["sarge"].update(area="7B"))
    return act(state, "sarge", "act", unit="sarge", what="sabotage", target="M2")


def test_objective_met_before_the_endgame_space_is_a_victory() -> None:
    """The End of the Game: objectives complete with the tracker on or before Endgame: win."""
    state = _wreck_radio(_quiet())
    assert waiting(state).finished
    assert waiting(state).outcome == "victory"


def test_harder_objective_needs_more_than_the_cadet_one() -> None:
    """The End of the Game: at Veteran, the Cadet Objective alone does not end the Mission."""
    state = _wreck_radio(_quiet(difficulty="veteran"))
    assert not waiting(state).finished
    assert "cadet" in dump(state)["achieved"]


def test_no_free_pick_up_of_a_face_down_loot_card() -> None:
    """Upkeep 4 (worked example): a face-down Loot card cannot be taken by the free Pick Up."""

    def edit(d: Data) -> None:
        d["heroes"]["sarge"]["area"] = "1D"
        d["ground"][3]["face_up"] = False

    state = _upkeep(_quiet(edit))
    assert hero(state, "sarge")["loot"] == []


def _codebook_out(state: Any) -> Any:
    """Sarge takes the documents token in 3C, then leaves through the Exit next to 7D."""
    state = patch(state, lambda d: d["heroes"]["sarge"].update(area="3C"))
    state = act(state, "sarge", "act", unit="sarge", what="pickup", target="M3")
    state = patch(state, lambda d: d["heroes"]["sarge"].update(area="7D", used_move=False))
    return act(state, "sarge", "move", unit="sarge", to="EXIT")


def test_miniature_reaching_the_exit_leaves_the_board_for_good() -> None:
    """Tiles and Areas (Note): a miniature reaching the Exit is removed and cannot return."""
    state = _codebook_out(_quiet(difficulty="veteran"))
    assert hero(state, "sarge")["exited"] is True
    assert "sarge" not in {f.id for f in view(state).figures}
    assert not [a for a in legal(state, "sarge") if a.verb in {"move", "attack", "act"}]


def test_veteran_objective_needs_the_cadet_one_first() -> None:
    """The End of the Game: a harder Objective counts only with the easier ones done
    (codebook out first: nothing yet; radio wrecked after: Cadet and Veteran, victory)."""
    state = _codebook_out(_quiet(difficulty="veteran"))
    assert dump(state)["achieved"] == []
    assert not waiting(state).finished
    state = patch(state, lambda d: d["heroes"]["hans"].update(area="7B"))
    state = act(state, "hans", "act", unit="hans", what="sabotage", target="M2")
    assert dump(state)["achieved"] == ["cadet", "veteran"]
    assert waiting(state).outcome == "victory"


def test_a_hero_who_left_through_the_exit_is_not_waited_on() -> None:
    """Tiles and Areas (Note): a Hero who reached the Exit is out of play, so the Heroes' Turn
    no longer waits on a seat whose only Hero has left, straight after the move (not only
    once the automatic part has run), while the other seats are still asked."""
    state = _codebook_out(_quiet(difficulty="veteran"))
    assert hero(state, "sarge")["exited"] is True
    prompt = waiting(state)
    assert not prompt.finished
    assert "sarge" not in prompt.seats
    assert {"hans", "claudine", "tane"} <= set(prompt.seats)
    assert legal(state, "sarge") == []
    state, _ = advance(state)
    assert "sarge" not in waiting(state).seats
