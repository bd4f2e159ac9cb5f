# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Damage at rest: every bit of the store's records flipped in turn (prints figures, asserts nothing).

    .venv/bin/python tests/bench_store_flips.py

Three images, as issue 25 tried them: a board's nvm after a SET and 12
games; the newest record a `SET operator_pin` (does `NEW` answer OK without
the PIN?); a Pi's state file of two records. A flip is *silent* when what
the restart holds differs from what was acknowledged and nothing is
reported. Figures: docs/reliability.md ("The store under faults").
"""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path[:0] = [HERE, os.path.join(HERE, "..", "simulator", "nimatron_sim"), os.path.join(HERE, "..", "firmware")]

from controller_scenarios import FakeIO  # noqa: E402
from flash import FlashNvm, ModelFiles  # noqa: E402
from nimatron.link.hostlink import HostLink  # noqa: E402
from nimatron.machine import app  # noqa: E402
from nimatron.machine.audits import Audits  # noqa: E402
from nimatron.machine.startup import Machine, overrides_source  # noqa: E402
from nimatron.machine.store import Store, scan  # noqa: E402

SETTINGS = {"board": "pico-neopixel", "src": 7, "set": {"operator_pin": "2468"}}


def make(board, overrides, listener, now_ms, audits):
    return app.make_controller(board, overrides, io=FakeIO(), listener=listener, now_ms=now_ms, audits=audits)


def flips(image):
    for i in range(len(image)):
        for bit in range(8):
            bad = bytearray(image)
            bad[i] ^= 1 << bit
            yield bytes(bad)


def nvm_image():
    store = Store(nvm=FlashNvm())
    store.load()
    store.save_settings(SETTINGS)
    audits = Audits(store=store)
    for _ in range(12):
        audits.game_started("nimatron")
        audits.game_ended("machine")
    data = bytes(store.nvm.data)
    silent = total = 0
    for bad in flips(data[: store.tail]):
        found = Store(nvm=FlashNvm(bad + data[store.tail :])).load()
        games = Audits(found["audits"])["games"] if found["audits"] else 0
        total += 1
        silent += not (games == 12 and found["settings"] == SETTINGS) and not found["problems"]
    print("nvm after a SET and 12 games: %d flips, %d silent" % (total, silent))


def pin_record():
    nvm = FlashNvm()
    m = Machine("pico-neopixel", overrides_source({}), Store(nvm=nvm), now_ms=0, make=make, log=lambda line: None)
    link = m.attach(HostLink(m.controller, board="pico-neopixel", now_ms=0))
    link.handle(b"SET operator_pin 2468", 0)
    data = bytes(nvm.data)
    records, tail, _, _ = scan(data)
    start = 0
    for r in records[:-1]:
        start += len(r[3])
    newest = records[-1][3]
    opened = total = 0
    for i in range(start, start + len(newest)):
        for bit in range(8):
            bad = bytearray(data)
            bad[i] ^= 1 << bit
            m2 = Machine(
                "pico-neopixel",
                overrides_source({}),
                Store(nvm=FlashNvm(bad)),
                now_ms=0,
                make=make,
                log=lambda line: None,
            )
            l2 = m2.attach(HostLink(m2.controller, board="pico-neopixel", now_ms=0))
            total += 1
            opened += l2.handle(b"NEW", 0).startswith("OK")
    print("newest record a SET operator_pin: %d flips, NEW answered OK without the PIN %d times" % (total, opened))


def pi_file():
    files = ModelFiles()
    store = Store(path="/state.bin", files=files)
    store.load()
    store.save_audits({"l": [5, 5]})
    store.save_settings({"board": "pi-leds", "src": 1, "set": {}})
    silent = total = 0
    for bad in flips(files.read("/state.bin")):
        disk = ModelFiles()
        disk.create("/state.bin", bad)
        disk.fsync("/state.bin")
        disk.fsync_dir("/state.bin")
        found = Store(path="/state.bin", files=disk).load()
        total += 1
        intact = found["audits"] == {"l": [5, 5]} and found["settings"] == {"board": "pi-leds", "src": 1, "set": {}}
        silent += not intact and not found["problems"]
    print("Pi state file (an index, then 2 records): %d flips, %d silent" % (total, silent))


if __name__ == "__main__":
    nvm_image()
    pin_record()
    pi_file()
