"""Chapter 3 (Sequence of Play): the seven phases in order, the Victory check before the
Countdown, the end of the game after the last turn, and Housekeeping."""

from __future__ import annotations

from typing import Any

from forlorn_probe import (
    act,
    clear_xenos,
    dump,
    edit,
    fig,
    header,
    marine_phase,
    next_turn,
    op01,
    put,
    run_automatic,
    squad,
    view,
    waiting,
    xeno_phase,
)

# The outcome is told from the Marine side (the Prompt's `outcome`).
MARINES_WIN = "victory"
XENOS_WIN = "defeat"


def test_marine_phase_then_xeno_phase() -> None:
    """3.0: after the Marine phase comes the Xeno phase, where the Xeno player acts."""
    state = op01()
    assert view(state).phase == "marine"
    xeno = xeno_phase(state)
    assert view(xeno).phase == "xeno"
    assert waiting(xeno).seats == ["xeno"]


def test_turn_cycle_counts_down_and_rolls_new_ap() -> None:
    """3.0: after Victory, Countdown (turn track -1), Housekeeping and Spawn, a new turn
    starts with a fresh AP roll."""
    state = clear_xenos(marine_phase())
    assert header(state)["turns left"] == "6"
    later = next_turn(state, ap_roll=(6, 1))
    assert header(later)["turns left"] == "5"
    assert header(later)["turn"].startswith("2/")
    assert header(later)["AP roll"] == "6 1"
    assert view(later).phase == "marine"


def last_turn(state: Any) -> Any:
    return edit(state, lambda d: d.update(turn=d["turns_total"]))


def test_game_ends_when_the_track_runs_out() -> None:
    """3.0 Countdown: moving off turn 1 ends the game; without the goal, the Xenos win."""
    state = last_turn(clear_xenos(marine_phase()))
    assert header(state)["turns left"] == "1"
    ended = act(state, "end-turn").state
    ended = run_automatic(ended, [])
    prompt = waiting(ended)
    before_last = run_automatic(
        act(edit(state, lambda d: d.update(turn=1)), "end-turn").state, [1] * 6 + [3, 5]
    )
    assert not waiting(before_last).finished
    assert prompt.finished
    assert prompt.outcome == XENOS_WIN


def test_victory_is_checked_before_the_countdown() -> None:
    """3.0: the Victory phase comes before the Countdown, so a goal reached on the last turn
    still wins (Solo A: 24 VP, and this turn scores 8 more)."""
    state = last_turn(clear_xenos(marine_phase()))
    state = edit(state, lambda d: d.update(vp=24))
    ended = run_automatic(act(state, "end-turn").state, [])
    prompt = waiting(ended)
    assert prompt.finished
    assert prompt.outcome == MARINES_WIN


def test_all_marines_dead_xenos_win() -> None:
    """3.0 Victory: with every Marine killed and the goal not met, the Xenos win."""
    state = squad(op01(), ["fox"], fox="H7:E", w1="I7")
    phase = xeno_phase(state)
    killed = act(phase, "attack", [5, 1, 1], seat="xeno", unit="w1", target="fox").state
    ended = run_automatic(act(killed, "end-turn", seat="xeno").state, [1, 1, 1])
    prompt = waiting(ended)
    assert prompt.finished
    assert prompt.outcome == XENOS_WIN


def test_housekeeping_clears_doors_flames_and_surges() -> None:
    """3.0 Housekeeping: open doors shut, Flame markers and unused Surges are removed."""
    state = squad(
        marine_phase(), ["berns", "fox", "bates"], berns="H9:E", fox="H6:E", bates="G7:W", d1="I6"
    )
    state = act(state, "attack", [], unit="berns", target="I10", weapon="flame").state
    state = act(state, "attack", [6, 1, 1], unit="fox", target="d1").state
    state = act(state, "act", unit="bates", what="open", to="F7").state
    assert dump(state)["open_doors"] and dump(state)["flames"]
    assert "surge" in fig(state, "fox").conditions  # type: ignore[union-attr]
    later = next_turn(state)
    assert not dump(later)["open_doors"]
    assert not dump(later)["flames"]
    assert "surge" not in fig(later, "fox").conditions  # type: ignore[union-attr]


def test_spawn_phase_places_new_xenos() -> None:
    """3.0 / 11.0: the turn ends with the Xeno Spawn Phase putting new Xenos on the map."""
    state = clear_xenos(marine_phase())
    later = next_turn(state, spawn=(1, 3, 4, 6, 2, 5))
    onboard = [f for f in view(later).figures if f.side == "enemy"]
    assert len(onboard) == 6


def test_unused_marine_ap_survive_into_the_xeno_phase() -> None:
    """3.0 / 5.0: APs not spent in the Marine phase remain for interrupts in the Xeno phase."""
    state = put(op01(), d1="L7")
    spent = act(state, "move", unit="fox", to="N").state
    xeno = xeno_phase(spent)
    assert header(xeno)["ap"] == header(spent)["ap"]
