"""GD-Wings promotions: one token of each power in the box, shared by the whole team."""

from __future__ import annotations

from galaxy_helpers import blank

from engine.core.events import Event, Note
from engine.galaxy.phases import offer_promotion
from engine.galaxy.ranks import promotion_options


def test_a_power_another_agent_holds_is_not_offered() -> None:
    """Setup: what an agent may take is limited by the tokens in the Warehouse (the box)."""
    state = blank(["marine", "hulk"])
    marine, hulk = state.agents["marine"], state.agents["hulk"]
    shared = set(promotion_options(marine, 1, state)) & set(promotion_options(hulk, 1, state))
    assert "brace" in shared
    marine.tactics = ["brace"]
    assert "brace" not in promotion_options(hulk, 1, state)
    marine.tactics, marine.used_tactics = [], ["brace"]  # a flipped token is still his
    assert "brace" not in promotion_options(hulk, 1, state)
    marine.used_tactics = []
    assert "brace" in promotion_options(hulk, 1, state)  # back in the box


def test_a_promotion_with_no_token_left_is_told_and_asks_nothing() -> None:
    state = blank(["marine", "hulk"])
    state.agents["marine"].tactics = promotion_options(state.agents["hulk"], 1, state)
    state.promotions = ["hulk:1"]
    events: list[Event] = []
    assert not offer_promotion(state, events)
    assert state.pending is None
    texts = [e.text for e in events if isinstance(e, Note)]
    told = "Titanium (Hulk) would take a basic tactic, but none is left in the box."
    assert texts == [told], texts


def test_an_improved_tactic_is_offered_with_an() -> None:
    """Gold owes an improved tactic: the narration says 'an improved tactic', not 'a'."""
    state = blank(["marine", "hulk"])
    state.promotions = ["hulk:3"]
    events: list[Event] = []
    assert offer_promotion(state, events)
    texts = [e.text for e in events if isinstance(e, Note)]
    assert texts == ["Titanium (Hulk) picks an improved tactic."], texts
