"""Clubs: many groups on one server, each apart (``../shared/spec/clubs.md``). The domain only:

- :mod:`.service`: clubs, members, invites and device keys (every change through the house gate);
- :mod:`.roster`: a club's players and ratings, derived from its games;
- :mod:`.ratings`: the ratings themselves (OpenSkill over finished games; pure);
- :mod:`.figures`: CSV rows, player statistics and the running-totals chart, derived (pure);
- :mod:`.cli`: ``scorekeeper clubs``.

Its pages and JSON API are views in the web's wings (:mod:`scorekeeper.web.clubs.pages`,
:mod:`scorekeeper.web.api.clubs`).
Who sees what is decided in the read side (:mod:`scorekeeper.access`), not here.
"""
