"""The registry of named, bounded stores: every process-local cache is one of them."""

from __future__ import annotations

import pytest

from scorekeeper import stores
from scorekeeper.lru import LocalLRU


def test_every_cache_of_the_code_is_a_registered_store(app):
    import scorekeeper.web  # noqa: F401  (the app imported every module that declares one)

    names = {s.name for s in stores.all_stores()}
    assert {
        "objects",
        "rows",
        "latest_results",
        "event_places",
        "plain_text",
        "record_parts",
        "device_games",
        "club_ratings",
        "club_ratings_locks",
        "numbers",
        "proven_credentials",
        "static_hashes",
        "packed_static",
    } <= names


def test_a_store_is_one_bounded_map_per_app_and_is_listed_and_cleared(app):
    rows = stores.store("test_things", 3, doc="a test's")
    assert stores.store("test_things", 3) is rows  # declared once: the same store
    with pytest.raises(ValueError):
        stores.store("test_things", 4)
    with app.app_context():
        kept = rows()
        assert isinstance(kept, LocalLRU) and rows() is kept and kept.size == 3
        for n in range(5):
            kept.put(n, n)
        assert len(kept) == 3  # bounded
        listed = {row["name"]: row for row in stores.listing()}
        assert listed["test_things"]["entries"] == 3 and listed["test_things"]["max_entries"] == 3
        # A bound named by a setting follows the app's setting.
        assert listed["rows"]["max_entries"] == app.config["LOCAL_GAMES"]
        stores.clear_all()
        assert len(rows()) == 0
    # Outside an app, an app's store keeps nothing.
    outside = rows()
    outside.put("a", 1)
    assert len(rows()) == 0


def test_process_stores_are_shared_by_every_app(app):
    from scorekeeper.read.public import PLAIN_TEXT

    with app.app_context():
        first = PLAIN_TEXT()
    assert PLAIN_TEXT() is first and PLAIN_TEXT.scope == "process"


def test_the_cli_lists_every_store(app):
    result = app.test_cli_runner().invoke(args=["stores"])
    assert result.exit_code == 0, result.output
    assert "club_ratings" in result.output and "latest_results" in result.output
