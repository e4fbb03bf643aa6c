"""The playground: a browser page and JSON API standing in for one Discord server."""
