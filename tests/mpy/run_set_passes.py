# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# SET over the host link, as a board's main loop polls it: each poll loads at
# most one firmware module (on a board a module's load is a tick's work) and
# the reply comes once the setting is applied and saved. Prints, per command,
# the polls it took and the modules each poll loaded; "ok" at the end.
# MICROPYPATH=<compiled tree> micropython run_set_passes.py BOARD PRESET "SET ..." ...
import sys

from fake_io import FakeIO, FakeWire
from nimatron.link.hostlink import HostLink
from nimatron.machine.app import make_controller


def steps(names):
    """Modules loaded in a poll, a rule set's module and the game modules it
    imports at its top (Graph Nim's nim2d) counted as one."""
    games = [n for n in names if n.startswith("nimatron.games.")]
    return len(names) - len(games) + (1 if games else 0)


def loaded():
    return [name for name in sys.modules if name.startswith("nimatron")]


board, preset = sys.argv[1], sys.argv[2]
c = make_controller(board, {"preset": preset}, FakeIO())
wire = FakeWire()
link = HostLink(c, wire, board=board, save=lambda settings: True)
now = 0
worst = 0
for command in sys.argv[3:]:
    wire.written = []
    wire.to_machine = command.encode() + b"\n"
    polls = []
    while not wire.lines() and len(polls) < 20:
        before = loaded()
        now += 20
        c.update(now)
        link.poll(now)
        polls.append([name for name in loaded() if name not in before])
    assert wire.lines(), "no reply to %s after %d polls" % (command, len(polls))
    reply = wire.lines()[0].decode()
    most = max(steps(p) for p in polls)
    worst = max(worst, most)
    print("%-26s %2d polls, modules a poll %s -> %s" % (command, len(polls), [p for p in polls if p], reply[:70]))
    assert most <= 1, "%s: a poll loaded %d modules: %s" % (command, most, polls)
    key, value = command.split()[1:3]
    if reply.startswith("OK"):
        assert str(c.settings[key]) == value, (key, c.settings[key])
print("ok", worst)
