"""The games wing of the web: a game's pages, its table, its end, its records, Secrets' seat pages."""
