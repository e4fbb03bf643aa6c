"""The table service: every campaign behaviour, transport-free.

The Discord adapter and the playground are thin shells over `TableService.handle` and
`TableService.autocomplete`. A command loads the channel's campaign, asks the engine, persists
the step in one transaction, renders the board and returns `Reply` objects.

`core` holds the shared steps; `campaigns`, `play`, `pace` and `autocomplete` are the command
groups; `service` puts them together.
"""

from bot.table.core import (
    MAX_AUTOCOMPLETE,
    Caller,
    Renderer,
    Suggestion,
    UserError,
    default_renderer,
    waiting_line,
)
from bot.table.service import TableService

__all__ = [
    "MAX_AUTOCOMPLETE",
    "Caller",
    "Renderer",
    "Suggestion",
    "TableService",
    "UserError",
    "default_renderer",
    "waiting_line",
]
