"""Errors the engine raises at players.

A `RuleError` carries a sentence a player understands; the table service shows it as an
ephemeral reply and changes nothing. `NotSupportedYet` is a `RuleError` that names a rule the
engine does not implement yet, so a missing rule is never silently skipped.
"""

from __future__ import annotations


class RuleError(Exception):
    """An action the rules forbid, explained in player language."""

    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


class NotSupportedYet(RuleError):
    """A rule that exists in the rulebook but is not implemented by the engine yet."""

    def __init__(self, rule: str) -> None:
        super().__init__(f"Not supported yet: {rule}.")
        self.rule = rule


class ContentError(Exception):
    """Authored content (maps, units, cards, missions) failed validation on load."""
