"""Secret Agent: its rules (``rules.py``), entry form (``form.py``), templates and plugin entry."""
