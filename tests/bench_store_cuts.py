# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What a power cut during a compaction costs (prints figures, asserts nothing).

    .venv/bin/python tests/bench_store_cuts.py

A full 4 KB nvm sector (settings, then one audits record a game), the next
game's save compacts it; the power is cut at every step of that save (each
half of the erase, each byte programmed) and the next start is classified:
kept (the last acknowledged state, or the new one), lost and reported at
boot (``problems``: why, the alarm, ``data_losses``), a factory start
(nothing at all, said so), or lost silently. Figures: docs/store.md.
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "simulator", "nimatron_sim"), os.path.join(HERE, "..", "firmware")]

from flash import FlashNvm, Power, PowerCut  # noqa: E402
from nimatron.machine.audits import Audits  # noqa: E402
from nimatron.machine.store import Store  # noqa: E402
from store_scenarios import SETTINGS_RECORD as SETTINGS, played  # noqa: E402


def full_sector():
    nvm = FlashNvm()
    store = Store(nvm=nvm)
    store.load()
    store.save_settings(SETTINGS)
    n = 0
    while store.erases == 0:
        n += 1
        before = bytes(nvm.data)
        store.save_audits(played(n))
    return before, n - 1  # the sector just before the save that compacts


def main():
    image, games = full_sector()
    out = {"kept": 0, "reported": 0, "factory": 0, "silent": 0, "audits lost": 0, "settings lost": 0}
    step = 0
    while True:
        nvm = FlashNvm(image, power=Power(step))
        store = Store(nvm=nvm)
        store.load()
        try:
            store.save_audits(played(games + 1))
            finished = True
        except PowerCut:
            finished = False
        found = Store(nvm=FlashNvm(nvm.data)).load()
        got = Audits(found["audits"])["games"] if found["audits"] else None
        if got is None:
            out["audits lost"] += 1
        if found["settings"] != SETTINGS:
            out["settings lost"] += 1
        if got in (games, games + 1) and found["settings"] == SETTINGS:
            out["kept"] += 1
        elif got is None and found["settings"] is None and not found["problems"]:
            out["factory"] += 1
        elif found["problems"]:
            out["reported"] += 1
        else:
            out["silent"] += 1
        step += 1
        if finished:
            break
    print(
        "%d cuts of one compaction (%d games in the sector): %s"
        % (step, games, ", ".join("%s %d" % (k, v) for k, v in out.items()))
    )


if __name__ == "__main__":
    main()
