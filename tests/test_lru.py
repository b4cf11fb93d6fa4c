"""LocalLRU: the one process-local cache, shared by gunicorn's threads."""

import random
import sys
import threading

import pytest

from scorekeeper.lru import LocalLRU


def test_it_keeps_the_most_recently_used_and_drops_the_oldest():
    lru = LocalLRU(2)
    lru.put("a", 1)
    lru.put("b", 2)
    assert lru.get("a") == 1  # "a" is now the most recent
    lru.put("c", 3)  # so "b" goes
    assert lru.get("b") is None
    assert (lru.get("a"), lru.get("c")) == (1, 3)
    assert len(lru) == 2
    assert lru.pop("a") == 1 and lru.pop("a", "gone") == "gone"
    assert lru.setdefault("d", dict) == {} and lru.setdefault("d", list) == {}
    lru["e"] = 5
    assert lru.get("e") == 5 and "c" not in lru  # "c" was the oldest of c, d, e
    with pytest.raises(ValueError):
        LocalLRU(0)


def test_many_threads_reading_writing_and_evicting_never_raise():
    lru: LocalLRU[int, int] = LocalLRU(8)
    errors: list[BaseException] = []
    start = threading.Barrier(16)
    old = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # switch threads as often as the interpreter can: races show up
    try:

        def hammer(seed: int) -> None:
            rng = random.Random(seed)
            try:
                start.wait()
                for _ in range(5000):
                    k = rng.randrange(32)  # 4 times the size: puts evict all the time
                    step = rng.randrange(4)
                    if step == 0:
                        lru.put(k, k * 10)
                    elif step == 1:
                        value = lru.get(k)
                        assert value is None or value == k * 10
                    elif step == 2:
                        assert lru.setdefault(k, lambda k=k: k * 10) == k * 10
                    else:
                        value = lru.pop(k)
                        assert value is None or value == k * 10
                    assert len(lru) <= 8
            except BaseException as error:  # noqa: BLE001 - any error is what the test looks for
                errors.append(error)

        threads = [threading.Thread(target=hammer, args=(seed,)) for seed in range(16)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    finally:
        sys.setswitchinterval(old)
    assert errors == []
    assert len(lru) <= 8
