# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A fault at start, counted: figures for docs/reliability.md ("A fault at start").

    .venv/bin/python tests/bench_start_faults.py
    PYTHONPATH=OLD/firmware:OLD/simulator .venv/bin/python tests/bench_start_faults.py   # another tree's

A Pi's start (``open_state``, the run marker, the machine, a game, 90 s of
the main loop, a clean stop) on a folder one start has made, with an EIO
at its Nth call on the folder (``kit_faults.FailingOs``) for every N: once,
then every read of ``state.bin`` from N on. Counted per start: dark (the
start refused), silent (the error said nowhere), records lost (a later
start does not find the power-up and the game that were saved, or finds
damage), the link left open after a loss, and crashed (a traceback: under
systemd a restart, and ten in two minutes stop it for good).
"""

import os
import shutil
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from kit_faults import FailingOs  # noqa: E402
from kit_start import pi_start  # noqa: E402
from nimatron.machine.audits import Audits  # noqa: E402
from nimatron.machine.store import Store  # noqa: E402

EIO = os.strerror(5)


def start(path):
    lines, m = pi_start(path)
    return m, "\n".join(lines)


def main():
    with tempfile.TemporaryDirectory() as top:
        base = os.path.join(top, "base")
        os.mkdir(base)
        start(os.path.join(base, "state.bin"))
        shutil.copytree(base, os.path.join(top, "clean"))
        with FailingOs(os.path.join(top, "clean")) as clean:
            start(os.path.join(top, "clean", "state.bin"))
        print("| fault | starts | dark (exit 2) | crashed | silent | records lost | link open after a loss |")
        print("|---|---|---|---|---|---|---|")
        for label, reads_of in (("one EIO at call N", None), ("every read of the state file from call N", "state.bin")):
            counts = [0, 0, 0, 0, 0, 0]
            for n in range(clean.calls):
                folder = os.path.join(top, "n%d-%s" % (n, reads_of))
                shutil.copytree(base, folder)
                path = os.path.join(folder, "state.bin")
                counts[0] += 1
                try:
                    with FailingOs(folder, fail_at=n, reads_of=reads_of) as layer:
                        m, said = start(path)
                except Exception:  # a traceback at start: counted
                    counts[2] += 1
                    continue
                if m is None:
                    counts[1] += 1
                    continue
                counts[3] += bool(layer.failed) and EIO not in said
                found = Store(path=path).load()
                life = Audits(found["audits"]).snapshot()["lifetime"]
                lost = life["power_ups"] != 2 or life["finished"] != 2 or bool(found["problems"])
                counts[4] += lost
                counts[5] += lost and m.sealed is None
            print("| %s | %d | %d | %d | %d | %d | %d |" % ((label,) + tuple(counts)))


if __name__ == "__main__":
    main()
