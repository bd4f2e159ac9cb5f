# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Damage that spans records (issue 46): figures for docs/reliability.md
("Damage that spans records"); prints counts, asserts nothing.

    .venv/bin/python tests/bench_store_spans.py            # seeded: the same figures each run
    .venv/bin/python tests/bench_store_spans.py --quick    # a tenth of the random cases

Two stores, each as its program opens it: the Pi's state file
(``python -m nimatron --state``: ``open_state``, the lock, ``examine``)
and the simulator's nvm file (``--nvm``: ``problem``, ``FlashNvm.open``).
Each holds an operator PIN set by ``SET operator_pin`` and some games.
The damage: one flipped bit in each of two records, a burst of random
bytes, the file cut at every length, blank and empty files, and records
of another shape. After each, the machine restarts; it is

- *unsealed* when ``SET volume 3`` is answered OK with no UNLOCK (the
  stored PIN is gone and the link did not lock); *open after* when it is
  at the start after that (on what the first start saved);
- *silent* when what it holds differs from what was acknowledged (the
  PIN, the games) and ``why`` says nothing;
- *dark* when it does not start (refused, or an exception).
"""

import argparse
import os
import random
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path[:0] = [HERE, os.path.join(ROOT, "simulator"), os.path.join(ROOT, "firmware")]

from fake_io import FakeIO  # noqa: E402
from nimatron.__main__ import open_state  # noqa: E402
from nimatron.link.hostlink import HostLink  # noqa: E402
from nimatron.machine import app  # noqa: E402
from nimatron.machine.records import AUDITS, SETTINGS, encode  # noqa: E402
from nimatron.machine.startup import Machine, overrides_source  # noqa: E402
from nimatron.machine.statefile import Owner, problem  # noqa: E402
from nimatron.machine.store import Store, scan  # noqa: E402
from nimatron_sim.flash import FlashNvm  # noqa: E402

BOARD = "pico-neopixel"
PIN = "2468"
GAMES = 12


def _make(board, overrides, listener, now_ms, audits):
    return app.make_controller(board, overrides, io=FakeIO(), listener=listener, now_ms=now_ms, audits=audits)


class PiFile:
    """The Pi's state file, opened as ``python -m nimatron --state`` opens it."""

    name = "Pi state file"

    def __init__(self, folder):
        self.folder = folder
        self.path = os.path.join(folder, "state.bin")

    def clear(self):
        for name in os.listdir(self.folder):
            os.remove(os.path.join(self.folder, name))

    def open(self):
        """(store, closer) or None if refused."""
        store = open_state(self.path, err=open(os.devnull, "w"))
        if store is None:
            return None
        return store, store.owner.close

    def image(self):
        return open(self.path, "rb").read()


class SimNvm(PiFile):
    """The simulator's nvm file, opened as ``nimatron-sim --nvm`` opens it."""

    name = "simulator nvm"

    def __init__(self, folder):
        super().__init__(folder)
        self.path = os.path.join(folder, "nvm.bin")

    def open(self):
        if problem(self.path, "nvm"):
            return None
        owner = Owner(self.path)
        if owner.take():
            return None
        try:
            nvm = FlashNvm.open(self.path)
        except OSError:
            owner.close()
            return None
        return Store(nvm=nvm), owner.close


def boot(where, log=None):
    """(machine, link, close) on what ``where`` holds; None if refused."""
    opened = where.open()
    if opened is None:
        return None
    store, close = opened
    m = Machine(BOARD, overrides_source({}), store, now_ms=0, make=_make, log=log or (lambda line: None))
    link = m.attach(HostLink(m.controller, board=BOARD, now_ms=0))
    return m, link, close


def build(where):
    """The acknowledged state: a PIN set over the link, ``GAMES`` games played."""
    where.clear()
    m, link, close = boot(where)
    assert link.handle(b"SET operator_pin " + PIN.encode(), 0).startswith("OK")
    for _ in range(GAMES):
        m.audits.game_started("nimatron")
        m.audits.game_ended("machine")
    close()
    return where.image()


def restart(where, data):
    """One restart on ``data``: the set of "dark", "unsealed", "silent", "said" that hold."""
    where.clear()
    with open(where.path, "wb") as f:
        f.write(data)
    try:
        booted = boot(where)
    except Exception:  # counted: a start that fails is a dark exhibit
        return {"dark"}
    if booted is None:
        return {"dark"}
    m, link, close = booted
    out = set()
    try:
        for t in range(10, 200, 10):
            m.controller.update(t)  # it plays on
        pin = m.controller.settings.get("operator_pin") == PIN
        games = m.audits.lifetime["games"] >= GAMES
        if m.why:
            out.add("said")
        if link.handle(b"SET volume 3", 300).startswith("OK"):
            out.add("unsealed")
        if not (pin and games) and not m.why:
            out.add("silent")
    finally:
        close()
    if "unsealed" not in out:  # the start after, on what this one saved: still closed?
        booted = boot(where)
        if booted is not None:
            m, link, close = booted
            if link.handle(b"SET volume 3", 300).startswith("OK"):
                out.add("open after")
            close()
    return out


def records_in(data):
    """(start, end) of each whole record in ``data``."""
    out = []
    pos = 0
    records = scan(data)[0]
    for r in records:
        at = data.find(r[3], pos)
        out.append((at, at + len(r[3])))
        pos = at + len(r[3])
    return out


def two_record_flips(rng, data, n):
    spans = records_in(data)
    for _ in range(n):
        bad = bytearray(data)
        for start, end in rng.sample(spans, 2):
            bad[rng.randrange(start, end)] ^= 1 << rng.randrange(8)
        yield bytes(bad)


def bursts(rng, data, n):
    end = records_in(data)[-1][1]
    for _ in range(n):
        bad = bytearray(data)
        at = rng.randrange(end)
        size = rng.randrange(2, 33)
        bad[at : at + size] = bytes(rng.randrange(256) for _ in range(size))
        yield bytes(bad[: len(data)])


def truncations(data, step=1):
    for n in range(0, len(data), step):
        yield data[:n]


def shapes(where_name):
    """Records of another shape, one field at a time (11 cases)."""
    src = overrides_source({})[2]
    good_settings = {"board": BOARD, "src": src, "set": {"operator_pin": PIN}}
    audits = [
        {"l": {"games": GAMES}},
        {"l": ["12", "12"]},
        {"l": [12.0, 12.0]},
        {"l": None},
        {"l": [GAMES], "s": "x"},
        {"l": [GAMES], "p": [1]},
        {"l": [GAMES], "k": "3"},
    ]
    settings = [
        {"board": BOARD, "src": src, "set": [["operator_pin", PIN]]},
        {"board": 7, "src": src, "set": {"operator_pin": PIN}},
        {"board": BOARD, "src": src, "set": None},
        {"factory": "yes"},
    ]
    for a in audits:
        yield encode(AUDITS, 1, a) + encode(SETTINGS, 2, good_settings)
    for s in settings:
        yield encode(AUDITS, 1, {"l": [GAMES]}) + encode(SETTINGS, 2, s)


def pad(where, data):
    """An nvm file is a whole sector: records, then blank bytes."""
    if where.name == SimNvm.name:
        return data + b"\xff" * (4096 - len(data))
    return data


def run(quick):
    scale = 10 if quick else 1
    rng = random.Random(46)
    folder = tempfile.mkdtemp(prefix="nimatron-spans-")
    try:
        for where in (PiFile(folder), SimNvm(folder)):
            data = build(where)
            used = records_in(data)[-1][1]
            blank = [b"", b"\xff" * used, b"\x00" * len(data)]
            if where.name == PiFile.name:
                blank.append(b"\xff" * len(data))  # the nvm's whole blank sector is a new board's: below
            cases = [
                ("one bit in each of two records", two_record_flips(rng, data, 1500 // scale)),
                ("bursts of 2-32 random bytes", bursts(rng, data, 1000 // scale)),
                ("cut at every length" if not quick else "cut at every 10th length", truncations(data, scale)),
                ("cut at a record boundary", (data[:e] for s, e in records_in(data)[:-1])),
                ("blank, empty or zeroed", iter(blank)),
                ("records of another shape", (pad(where, d) for d in shapes(where.name))),
            ]
            if where.name == SimNvm.name:
                # Nothing stored yet (a new board's sector): no PIN to lose, so SET is open.
                cases.append(("a blank sector (a new board's)", iter([b"\xff" * len(data)])))
            print("%s (%d bytes, %d records):" % (where.name, len(data), len(records_in(data))))
            for label, images in cases:
                counts = {"unsealed": 0, "open after": 0, "silent": 0, "dark": 0, "said": 0}
                total = 0
                for bad in images:
                    for flag in restart(where, bad):
                        counts[flag] += 1
                    total += 1
                print(
                    "  %-34s %5d restarts: %4d unsealed, %4d open after, %4d silent, %4d dark (%d said)"
                    % (
                        label,
                        total,
                        counts["unsealed"],
                        counts["open after"],
                        counts["silent"],
                        counts["dark"],
                        counts["said"],
                    )
                )
    finally:
        shutil.rmtree(folder)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="a tenth of the random cases, every 10th cut")
    run(parser.parse_args().quick)
