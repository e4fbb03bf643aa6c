"""How the pictures and their texts name what the View carries as keys: seats and phases.

The View names the waiting seats by key ("marines-2") and the phase by the game's word
("agent"); a header band or an alt text says them as words ("Marines 2", "Agent")."""

from __future__ import annotations


def seat_words(seat: str) -> str:
    """A seat key as words ("marines-2" -> "Marines 2"): the view carries no role names."""
    return " ".join(word.capitalize() for word in seat.split("-"))


def phase_words(phase: str) -> str:
    """A phase as words ("enemies-turn" -> "Enemies turn")."""
    return phase.replace("-", " ").replace("_", " ").capitalize()
