# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# A technician's visit leaves the heap as it found it: a board's main loop
# (controller, then link) polled through HELLO, MEMORY, SERVICE ON, the
# adjustments (a setting's values checked, one saved, and one left while its
# checks run, PLAY PRESS), SERVICE OFF, MEMORY, then a game's NEW, EXPLAIN and MEMORY, no poll loading more
# than one module (opening the menu loaded five in one: 207-213 ms on a stock
# board). Prints the firmware
# modules resident after the visit that were not before it, and those after
# the game; "ok" when the visit left none (exit 3 otherwise).
# MICROPYPATH=<compiled tree> micropython -X heapsize=H run_menu_visit.py BOARD PRESET
import json
import sys

from counting_gc import counts, install
from fake_io import FakeIO, FakeWire

install()  # the firmware's ``gc``: its collections counted a poll at a time

from nimatron.link.hostlink import HostLink  # noqa: E402
from nimatron.machine.app import make_controller  # noqa: E402

board, preset = sys.argv[1], sys.argv[2]
c = make_controller(board, {"preset": preset}, FakeIO())
wire = FakeWire()
link = HostLink(c, wire, board=board, save=lambda settings, own=None: True)
now = 0
resident = []


def poll(command):
    """A pass of the main loop: at most one heavy thing in it, a module's
    load (a tick's work on a board) or a collection (18-25 ms of a Pico's)."""
    before = len(sys.modules)  # no list made: a count is enough (modules only come in a poll)
    counts["collect"] = 0
    c.update(now)
    link.poll(now)
    heavy = len(sys.modules) - before + counts["collect"]
    if heavy > 1:
        print(
            "%s: a poll loaded %d modules and collected %d times"
            % (command, len(sys.modules) - before, counts["collect"])
        )
        sys.exit(3)


fwd = "PLAY PRESS " + ("key 0 0" if c.input_model == "grid" else "row0")  # a step forward in the menu
# in the menu: to its adjustments (item 3), the presets' list (checked a pass each: the rule
# sets' modules come and go) to its end, DONE on the current one (saved, nothing changes), the
# list again left half checked (NEW), and again, the menu closed while it is checked (SERVICE OFF)
DONE, NEW = "PLAY PRESS done", "PLAY PRESS new"
ADJUST = (fwd, fwd, fwd, DONE, DONE, "WAIT", DONE, DONE, NEW, DONE)
for command in (
    ("HELLO", "SET remote_play on", "MEMORY", "SERVICE ON")
    + ADJUST
    + ("SERVICE OFF", "MEMORY", "NEW", "EXPLAIN", "MEMORY")
):
    if command == "WAIT":  # the values' checks, a pass each, to their end
        for _ in range(500):
            now += 20
            poll(command)
        if c.menu is None or c.menu.work is not None:
            print("checks: not done")
            sys.exit(3)
        continue
    wire.written = []
    wire.to_machine = command.encode() + b"\n"
    polls = 0
    while not wire.lines() and polls < 300:
        now += 20
        poll(command)
        polls += 1
    lines = [line for line in wire.lines() if not line.startswith(b"EV ")]
    if not lines or not lines[0].startswith(b"OK"):
        print("%s: %s" % (command, lines[0].decode() if lines else "no reply"))
        sys.exit(3)
    if command == "MEMORY":
        out = json.loads(lines[0][3:])
        if out.get("more"):
            print("MEMORY: the list was cut")
            sys.exit(3)
        resident.append(out["modules"])
came = [m for m in resident[1] if m not in resident[0]]
print("after the visit:", " ".join(came))
print("after a game:", " ".join(m for m in resident[2] if m not in resident[0]))
if came:
    sys.exit(3)
print("ok")
