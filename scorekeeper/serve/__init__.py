"""``scorekeeper serve``: the app under gunicorn and its writes-first worker."""
