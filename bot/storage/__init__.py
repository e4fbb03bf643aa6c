"""Persistence: SQLModel tables and the database wrapper."""

from bot.storage.db import Database, SchemaTooNew
from bot.storage.models import ActionLog, Campaign, Nudge, PlayerPrefs, SchemaInfo, Seat

__all__ = [
    "ActionLog",
    "Campaign",
    "Database",
    "Nudge",
    "PlayerPrefs",
    "SchemaInfo",
    "SchemaTooNew",
    "Seat",
]
