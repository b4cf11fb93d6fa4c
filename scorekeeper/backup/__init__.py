"""Backups: ``scorekeeper export``/``import`` (archive), the snapshot format, the SQLite copy."""
