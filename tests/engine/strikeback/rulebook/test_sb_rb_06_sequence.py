"""Strikeback rulebook chapter 6, Game Sequence: the new Refresh-phase steps (6.1) and the
Event-phase note on who counts as an agent (6.3).

Mark and Poison are staged on the expansion's per-figure record in the dump (learnt from a
Xeno-Delta's Wrist Gun placing "mark-2"); one quiet round (an Aliens turn that activates no
one) brings the next Refresh.
"""

from __future__ import annotations

from sb_probe import body, fig, quiet_round, set_body, settle, stage, wounds

HV_OFF = {"human-view": "off"}


def test_refresh_flips_mark_2_to_mark_1_then_removes_it() -> None:
    """6.1 / 8.3: each Refresh flips a Mark 2 to Mark 1 and removes a Mark 1."""
    state = set_body(stage("os6", agents={"marine": "E7"}, options=HV_OFF), "marine", mark=2)
    once = quiet_round(state)
    assert body(once, "marine")["mark"] == 1
    assert "mark-1" in fig(once, "marine").conditions  # type: ignore[union-attr]
    twice = quiet_round(settle(once))
    assert body(twice, "marine")["mark"] == 0


def test_refresh_poison_2_wounds_and_flips() -> None:
    """6.1 / 9.3.2: in the Refresh a Poison 2 target suffers 1 wound and the token flips to 1."""
    state = set_body(stage("os6", agents={"marine": "E7"}, options=HV_OFF), "marine", poison=2)
    before = wounds(state, "marine")
    once = quiet_round(state)
    assert wounds(once, "marine") == before + 1
    assert body(once, "marine")["poison"] == 1


def test_refresh_poison_1_wounds_and_goes() -> None:
    """6.1 / 9.3.2: a Poison 1 target suffers 1 wound and the token is removed."""
    state = set_body(stage("os6", agents={"marine": "E7"}, options=HV_OFF), "marine", poison=1)
    before = wounds(state, "marine")
    once = quiet_round(state)
    assert wounds(once, "marine") == before + 1
    assert body(once, "marine")["poison"] == 0
    again = quiet_round(settle(once))
    assert wounds(again, "marine") == before + 1  # no token, no more wounds
