"""Clubs: many groups on one server, each apart (``../shared/spec/clubs.md``). The domain only:

- :mod:`.service`: clubs, members, invites and device keys (every change through the house gate);
- :mod:`.roster`: a club's players and ratings, derived from its games;
- :mod:`.cli`: ``scorekeeper clubs``.

Its pages and JSON API are views under :mod:`scorekeeper.web` (``club_pages``, ``club_api``).
Who sees what is decided in the read side (:mod:`scorekeeper.access`), not here.
"""
