# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The pass of a SET that applies new games does only that: it loads no
# module and drops none (a drop collects the garbage, 18-100 ms on a Pico;
# with the games' check it made SET preset graph's apply pass 133 ms, and
# 903.6 ms while the check searched). After the reply the new games' drawing
# is still resident, and a NEW after the last SET loads no module (the old
# rules' drop took the drawing the SET had loaded, and the NEW's press loaded
# it again: 41-47 ms on pico-grid, emulated). Prints, per command, the polls
# and what the applying poll loaded and dropped, then "ok N" (N applying
# polls seen) or exits 3. tests/test_set_apply.py runs it.
# MICROPYPATH=<compiled tree>:tests micropython run_set_apply.py BOARD PRESET "SET ..." ...
import sys

from fake_io import FakeIO, FakeWire
from nimatron.link.hostlink import HostLink
from nimatron.machine.app import make_controller
from nimatron.panels.panel import panel_module


def loaded():
    return [name for name in sys.modules if name.startswith("nimatron")]


board, preset = sys.argv[1], sys.argv[2]
c = make_controller(board, {"preset": preset}, FakeIO())
wire = FakeWire()
link = HostLink(c, wire, board=board, save=lambda settings: True)
now = 0
bad = 0
applied = 0
for command in sys.argv[3:]:
    wire.written = []
    wire.to_machine = command.encode() + b"\n"
    polls = 0
    while not wire.lines() and polls < 60:
        before = loaded()
        settings = c.settings
        now += 20
        link.poll(now)  # the link alone: the machine's own pass is not the SET's
        polls += 1
        if c.settings is not settings:
            applied += 1
            after = loaded()
            came = [n for n in after if n not in before]
            went = [n for n in before if n not in after]
            print("%-22s poll %d applied: loaded %s dropped %s" % (command, polls, came, went))
            if came or went:
                bad += 1
    print("%-22s %d polls -> %s" % (command, polls, wire.lines()[0].decode()[:60] if wire.lines() else "no reply"))
    if not wire.lines() or not wire.lines()[0].startswith(b"OK"):
        bad += 1
    shape = panel_module(c.rules, c.settings.get("counter"))
    if shape and "nimatron.panels." + shape not in sys.modules:
        print("%-22s the drawing of its games, panels.%s, left the heap" % (command, shape))
        bad += 1
before = loaded()
c.new_game(now + 20)
came = [n for n in loaded() if n not in before]
print("NEW loaded %s" % came)
if came:
    bad += 1
if bad:
    sys.exit(3)
print("ok", applied)
