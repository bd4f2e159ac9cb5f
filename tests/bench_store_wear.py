# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Flash wear of a museum day (prints figures, asserts nothing).

    .venv/bin/python tests/bench_store_wear.py

300 games (one audits record each, one every 96 s of an 8-hour day), a
power-up, and a few SETs (repeated values too) on the nvm sector, the store
given the time as the main loop gives it (so its wear limit applies); prints
the sector erases a day, the years the RP2040's flash lasts at 100,000
erase cycles and the longest a game's count waited in memory for the limit,
with the per-preset counts of 1 and of 24 presets since service (a longer
record). Figures: docs/store.md.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [os.path.join(HERE, "..", "simulator", "nimatron_sim"), os.path.join(HERE, "..", "firmware")]

from flash import FlashNvm  # noqa: E402
from nimatron.machine.audits import Audits  # noqa: E402
from nimatron.machine.store import Store  # noqa: E402

CYCLES = 100000


def day(presets, days=5):
    nvm = FlashNvm()
    store = Store(nvm=nvm)
    store.load()
    audits = Audits(store=store)
    names = ["preset%d" % i for i in range(presets)]
    for name in names:  # counted since service already
        audits.game_started(name)
        audits.game_ended("machine")
    start = nvm.erases
    now = 0
    waited = 0
    since = None
    for _ in range(days):
        store.tick(now)
        audits.power_up("power_on")
        for value in ("1500", "1500", "1200", "1200"):  # a few SETs, two of them repeats
            store.save_settings({"board": "pico-neopixel", "src": 1, "set": {"think_ms": value}})
        for g in range(300):
            audits.game_started(names[g % presets])
            audits.game_ended("machine" if g % 10 else "visitor")
            for _ in range(96):  # the main loop's time, a second at a time
                now += 1000
                store.tick(now)
                if store.unsaved and since is None:
                    since = now
                elif not store.unsaved and since is not None:
                    waited = max(waited, now - since)
                    since = None
        for _ in range(16 * 3600):  # the night
            now += 1000
            store.tick(now)
            if not store.unsaved and since is not None:
                waited = max(waited, now - since)
                since = None
    per_day = (nvm.erases - start) / days
    record = len(store.latest[0x41])
    return per_day, record, store.unchanged, waited


def main():
    for presets in (1, 24):
        per_day, record, unchanged, waited = day(presets)
        print(
            "%2d preset(s) since service: audits record %d bytes, %.1f erases a day, %.1f years to %d cycles "
            "(%d repeated SETs not written; a count waited in memory at most %d min)"
            % (presets, record, per_day, CYCLES / per_day / 365, CYCLES, unchanged, waited // 60000)
        )


if __name__ == "__main__":
    main()
