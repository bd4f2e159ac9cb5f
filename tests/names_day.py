# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A MacroPad's day with the host link busy, on CPython (where ``forget``
keeps every module): the start as ``code.py`` makes it (its stand-ins for
CircuitPython's modules, tests/test_code_py.py), the link's modules, then
over the link ``HELLO``, ``EVENTS ON``, ``SET``s, a menu visit through the
adjustments, a game with ``EXPLAIN`` each turn. Prints every firmware module
loaded on the way, one a line: the modules whose names the board interns
that day (tests/test_names_budget.py).

usage: python names_day.py BOARD PRESET CHOICES
  CHOICES: the deploy's config/choices.txt for the board and preset (made by
  another process: working it out loads every rule set's module)"""

import os
import runpy
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.join(os.path.dirname(HERE), "firmware")
sys.path[:0] = [FIRMWARE, HERE, os.path.join(os.path.dirname(HERE), "simulator", "nimatron_sim")]

import pytest  # noqa: E402 - the stand-ins' monkeypatch
from fake_io import FakeIO, FakeWire  # noqa: E402
from flash import FlashNvm  # noqa: E402
from kit_board import HostChannel, fake_board  # noqa: E402


def main(board, preset, chosen):
    sys.path.insert(0, os.path.join(os.path.dirname(HERE), "host"))
    patch = pytest.MonkeyPatch()
    fake_board(patch, FlashNvm())
    os.chdir(os.environ.get("NAMES_DAY_DRIVE", "."))
    with open("settings.json", "w") as f:
        f.write('{"board": "%s", "preset": "%s"}' % (board, preset))
    import nimatron
    from nimatron.config import boards
    from nimatron.machine import app

    real = nimatron.resource
    patch.setattr(nimatron, "resource", lambda name: chosen if name == "config/choices.txt" else real(name))

    spec = boards.board(board)
    wanted = [("nimatron.drivers." + name[:-3]) for name in driver_modules(spec)]
    for name in wanted:  # the board's driver modules, as its start loads them (FakeIO stands in for them)
        try:
            __import__(name)
        except ImportError:
            pass  # a hardware library this PC lacks: its names are counted from the file all the same
    machines = []

    def make(b, overrides, listener, now_ms, audits):
        machines.append(app.make_controller(b, overrides, io=FakeIO(), listener=listener, now_ms=now_ms, audits=audits))
        return machines[-1]

    channel = HostChannel()
    channel.in_waiting = 1  # the host has spoken: code.py loads the link's modules
    code = runpy.run_path(os.path.join(FIRMWARE, "code.py"), run_name="code")
    code["main"](make=make, loops=40, data=channel)
    from nimatron.link.hostlink import HostLink

    c = machines[-1]
    wire = FakeWire()
    link = HostLink(c, wire, board=board, save=lambda settings, own=None: True)
    now = [100000]

    def send(command, polls=400):
        wire.written = []
        wire.to_machine = command.encode() + b"\n"
        for _ in range(polls):
            now[0] += 20
            c.update(now[0])
            link.poll(now[0])
            if [line for line in wire.lines() if not line.startswith(b"EV ")]:
                break

    fwd = "PLAY PRESS " + ("key 0 0" if c.input_model == "grid" else "row0")
    for command in (
        "HELLO",
        "EVENTS ON",
        "SET remote_play on",
        "SET difficulty teach",
        "MEMORY",
        "CONFIG",
        "SERVICE ON",
        fwd,
        fwd,
        fwd,
        "PLAY PRESS done",
        "PLAY PRESS done",
        "WAIT",
        "PLAY PRESS done",
        "PLAY PRESS done",
        "PLAY PRESS new",
        "SERVICE OFF",
        "NEW",
        "EXPLAIN",
        "STATE",
        "AUDITS",
    ):
        if command == "WAIT":
            for _ in range(500):
                now[0] += 20
                c.update(now[0])
                link.poll(now[0])
            continue
        send(command)
    for _ in range(40):  # a game: the machine's moves, the visitor's answered with EXPLAIN's words
        send("PLAY")
        send("EXPLAIN")
        for _ in range(200):
            now[0] += 20
            c.update(now[0])
            link.poll(now[0])
        if c.state == "over":
            break
    patch.undo()
    for name in sorted(sys.modules):
        if name == "nimatron" or name.startswith("nimatron."):
            print(name)


def driver_modules(spec):
    from nimatron_host.payload import driver_files

    return sorted(name for name in driver_files(spec) if name != "__init__.py")


if __name__ == "__main__":
    if len(sys.argv) != 4:
        print("usage: python names_day.py BOARD PRESET CHOICES", file=sys.stderr)
        sys.exit(2)
    main(sys.argv[1], sys.argv[2], os.path.abspath(sys.argv[3]))
