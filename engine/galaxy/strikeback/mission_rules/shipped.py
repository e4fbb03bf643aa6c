"""Every storybook mission the expansion ships. Importing a mission's module registers its rules
and its state (the `register` line at its end), so adding a mission adds its files and its name
on the line below; `strikeback/hooks.py` imports this module when it composes the expansion."""

from engine.galaxy.strikeback.mission_rules import os1, os2, os3, os4, os5, os6  # noqa: F401
