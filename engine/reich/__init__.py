"""Reichbusters Reloaded: Heroes against the Third Reich, room by room."""

from engine.registry import register
from engine.reich.game import ReichGame

register(ReichGame())
