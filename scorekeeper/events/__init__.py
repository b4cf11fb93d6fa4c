"""Club evenings: pure seating, pairing and standings (no Flask, no database), then the event layer."""
