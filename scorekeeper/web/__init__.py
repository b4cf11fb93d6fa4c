"""HTTP, in wings: ``games/`` (a game's pages, table, end, records, Secrets' seats), ``clubs/``,
``events/`` (director, tables, season), ``api/`` (the JSON API and its description) and
``live/`` (following a game); the modules here are what every wing shares (who is looking,
cookies, errors, the wire). Domain code lives below ``web/``: views parse, call, respond."""
