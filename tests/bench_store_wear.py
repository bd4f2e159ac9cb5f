"""Flash wear of a museum day (prints figures, asserts nothing).

    .venv/bin/python tests/bench_store_wear.py

300 games (one audits record each), a power-up, and a few SETs (repeated
values too) on the nvm sector; prints the sector erases a day and the years
the RP2040's flash lasts at 100,000 erase cycles, with the per-preset counts
of 1 and of 24 presets since service (a longer record). Figures: docs/store.md.
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
    for _ in range(days):
        audits.power_up("power_on")
        for value in ("1500", "1500", "1200", "1200"):  # a few SETs, two of them repeats
            store.save_settings({"board": "pico-neopixel", "src": 1, "set": {"think_ms": value}})
        for g in range(300):
            audits.game_started(names[g % presets])
            audits.game_ended("machine" if g % 10 else "visitor")
    per_day = (nvm.erases - start) / days
    record = len(store.latest[0x41])
    return per_day, record, store.unchanged


def main():
    for presets in (1, 24):
        per_day, record, unchanged = day(presets)
        print("%2d preset(s) since service: audits record %d bytes, %.1f erases a day, %.1f years to %d cycles "
              "(%d repeated SETs not written)" % (presets, record, per_day, CYCLES / per_day / 365, CYCLES, unchanged))


if __name__ == "__main__":
    main()
