"""Fixtures shared by the bot tests."""

from processes import bots

__all__ = ["bots"]  # the bot processes a test starts, killed when it ends
