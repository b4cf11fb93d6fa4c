"""The events wing of the web: the director's pages, the tables' phones, the season."""
