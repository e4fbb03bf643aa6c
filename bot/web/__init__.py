"""The read-only web view of a campaign: its board, timeline, objectives, roster and log.

`timeline` rebuilds the public steps from the action log (through `bot.replay`), `pages` writes
the HTML, `server` adds the routes to an aiohttp app (the playground's, or a small one of its
own beside the Discord client). Everything shown is built from the public view and public
events only.
"""
