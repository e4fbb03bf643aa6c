"""Rulebook, Noise and the Alarm: the Alarm turns the Enemy tokens over closest first.

Closeness is Range (Area borders crossed, see Line of Sight and Range), so a closed door is a
border like any other: a token behind a door is not farther away than its borders say.
"""

from __future__ import annotations

from reich_probe import end_round, quiet

from engine.core.events import Revealed
from engine.reich.state import EnemyToken


def test_alarm_turns_tokens_over_nearest_first_counting_through_closed_doors() -> None:
    # Radio Silence from the Entrance: 3A is 3 borders away (behind door D10), 7A 4 (open way),
    # 2B 5 (behind D7) and 5D 7 (behind D6); the ids run in another order.
    state = quiet(["sarge"], area="EN")
    state.enemy_tokens = [
        EnemyToken(id="T1", area="2B", level=1, letters="D"),
        EnemyToken(id="T2", area="5D", level=1, letters="D"),
        EnemyToken(id="T3", area="3A", level=1, letters="D"),
        EnemyToken(id="T4", area="7A", level=1, letters="D"),
    ]
    state.discretion = state.tracker + 1  # the Tracker reaches Discretion at this Upkeep
    state, events = end_round(state)
    assert state.alarm
    turned = [e.figure for e in events if isinstance(e, Revealed) and e.figure.startswith("T")]
    assert turned == ["T3", "T4", "T1", "T2"]
