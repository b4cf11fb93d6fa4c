"""Clubs: many groups on one server, each apart (``../shared/spec/clubs.md``).

- :mod:`.service`: clubs, members, invites and device keys (the only writer of them);
- :mod:`.roster`: a club's players and ratings, derived from its games;
- :mod:`.pages` and :mod:`.api`: the thin views; :mod:`.cli`: ``scorekeeper clubs``.

Who sees what is decided in the read side (:mod:`scorekeeper.read.visibility`), not here.
"""
