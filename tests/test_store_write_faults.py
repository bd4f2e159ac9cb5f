# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The store's writing side under the minor faults of issue 46.

- *the file system refuses*, mid-compaction: the simulator's nvm held the
  compacted image in memory while its file write failed; the store's tail
  stayed at the old offset, the next record went past the new ones, and the
  next start reported damage, sealed the link and paused UNLOCK though
  nothing was lost (2 of 40). Generator: a failed write of the nvm's file
  at each of its writes in turn, over 40 saves on a small sector;
- *time*: ``Store.tick`` given a time in the past kept a deferred save's
  deadline on the old clock, holding the save back for as long as the clock
  fell. Generator: Hypothesis over clocks that jump back and forth.
"""

import errno
import os
import sys

from hypothesis import given, settings, strategies as st

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "simulator", "nimatron_sim"))

from flash import FlashNvm  # noqa: E402
from nimatron.machine.store import ERASE_MS, RETRY_MS, Store  # noqa: E402

SIZE = 192  # a small sector: a compaction every few saves
SAVES = 40


def run(path, fail_at, restarts=None):
    """40 audits saves, each followed by a quiet moment (``tidy``), on an nvm
    whose ``fail_at``-th file write fails once (EIO): (writes, the last
    acknowledged count, compactions). ``restarts``: after each save and each
    quiet moment, what a start on the file would find then is appended (the
    process could be stopped at any moment)."""
    nvm = FlashNvm.open(path, size=SIZE)
    store = Store(nvm=nvm)
    store.load()
    real = nvm.flush
    writes = [0]

    def flush():
        n = writes[0]
        writes[0] += 1
        if n == fail_at:
            raise OSError(errno.EIO, os.strerror(errno.EIO))
        real()

    nvm.flush = flush
    acked = None
    compactions = 0
    for games in range(SAVES):
        before = store.erases
        if store.save_audits({"l": [games]}) is True:
            acked = games
        if restarts is not None:
            restarts.append((games, acked, Store(nvm=FlashNvm.open(path, size=SIZE)).load()))
        store.tidy()  # a quiet moment: compacts early when the next records might not fit
        compactions += store.erases > before
        if restarts is not None:
            restarts.append((games, acked, Store(nvm=FlashNvm.open(path, size=SIZE)).load()))
    assert store.flush() is True  # the disk answers again: whatever waited is written
    return writes[0], acked, compactions


def test_a_failed_write_at_any_step_of_the_saves_leaves_nothing_damaged(tmp_path):
    """Every write of the nvm's file failing in turn (appends, their commit
    marks, compactions), a start after every save: none finds damage (so
    nothing is sealed or paused for a loss that never was), and each finds
    the newest acknowledged count or a newer one."""
    total, acked, compactions = run(str(tmp_path / "clean.bin"), None)
    assert acked == SAVES - 1 and compactions >= 4, (acked, compactions)
    for k in range(total):
        path = str(tmp_path / ("nvm-%d.bin" % k))
        restarts = []
        run(path, k, restarts)
        for games, acked, found in restarts:
            assert found["problems"] == [] and found["lost"] == [], (k, games, found["problems"])
            assert acked is None or found["audits"]["l"][0] >= acked, (k, games, acked, found["audits"])
        found = Store(nvm=FlashNvm.open(path, size=SIZE)).load()
        assert found["audits"] == {"l": [SAVES - 1]}, (k, found["audits"])


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.integers(-(10**9), 10**9), min_size=1, max_size=30))
def test_a_clock_that_goes_back_never_holds_a_save_back_longer(jumps):
    """A save held back (the wear limit) or failed is tried within the
    longest wait of either (``ERASE_MS``, ``RETRY_MS``) of the machine's
    time, whatever the clock did since."""
    store = Store(nvm=FlashNvm(size=SIZE))
    store.load()
    now = 10**10
    store.tick(now)
    store.allowance = 0  # the wear limit spent: the next erase waits
    games = 0
    while store.save_audits({"l": [games]}) is True:  # appends until the erase is needed
        games += 1
    assert store.unsaved and store.retry_at is not None
    longest = max(ERASE_MS, RETRY_MS)
    for jump in jumps:
        now = max(0, now + jump)
        store.tick(now)
        if store.retry_at is not None:
            assert store.retry_at - now <= longest, (jump, store.retry_at - now)
