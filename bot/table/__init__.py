"""The table service: every campaign behaviour, transport-free.

The Discord adapter, the playground and the scheduler call `TableService` only. Inside, a
command goes through explicit collaborators (see docs/architecture.md):

- `service` — parsing, the per-channel lock, the `(command, subcommand) → handler` table;
- `campaigns`, `play`, `pace` — the command handlers, plain classes over `TableParts`;
- `loading` — finding and loading a channel's campaign;
- `steps` — the step runner: engine, autopilot, one committed transaction, a `StepOutcome`;
- `presenter` — a `StepOutcome` to replies, drawing through the injected `pictures`;
- `pacer` — the pacing service the scheduler calls, and the catch-up;
- `autocomplete`, `legal` — suggestions, and the legal actions they come from.
"""

from bot.table.context import (
    MAX_AUTOCOMPLETE,
    Caller,
    Suggestion,
    UserError,
    waiting_line,
)
from bot.table.pictures import Pictures, Renderer, default_renderer
from bot.table.service import TableService

__all__ = [
    "MAX_AUTOCOMPLETE",
    "Caller",
    "Pictures",
    "Renderer",
    "Suggestion",
    "TableService",
    "UserError",
    "default_renderer",
    "waiting_line",
]
