"""The JSON API wing: games, clubs and events, and the OpenAPI description."""
