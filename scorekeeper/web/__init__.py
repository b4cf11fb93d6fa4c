"""HTTP: pages (``main``, ``games``) and the JSON API (``api``)."""
