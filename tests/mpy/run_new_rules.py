# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The NEW that begins a game of new rules, as a board's main loop polls it: a
# game in play, SET preset sent mid-game (it applies at the next game), then
# NEW. Prints the poll each reply came in ("reply at poll N") and, for each
# poll from the NEW on, the games modules it dropped and the collections it
# made, as "poll N dropped [...] collected K"; then "ok". The old rules'
# modules leave in a poll after the NEW's and their garbage is collected
# first thing in the next (the drop, its load of machine.unload and the
# collection in the NEW's pass: 82-98 ms on pico-grid).
# MICROPYPATH=<compiled tree> micropython run_new_rules.py BOARD PRESET NEW_PRESET
import gc
import sys

from fake_io import FakeIO, FakeWire
from nimatron.link.hostlink import HostLink
from nimatron.machine.app import make_controller

counts = [0]


class CountingGC:
    """``gc`` as the firmware imports it (``import gc`` finds sys.modules first), counting collections."""

    def collect(self):
        counts[0] += 1
        gc.collect()

    def __getattr__(self, name):
        return getattr(gc, name)


sys.modules["gc"] = CountingGC()
board, preset, new_preset = sys.argv[1], sys.argv[2], sys.argv[3]
c = make_controller(board, {"preset": preset}, FakeIO())
wire = FakeWire()
link = HostLink(c, wire, board=board, save=lambda settings, own=None: True)
now = 0


def games():
    return [name for name in sys.modules if name.startswith("nimatron.games.")]


def command(line, after=0):
    """Send ``line``; poll until its reply and ``after`` polls more: the reply and [(dropped, collections)] a poll."""
    global now
    wire.written = []
    wire.to_machine = line.encode() + b"\n"
    polls = []
    left = None
    while len(polls) < 80 and (left is None or left > 0):
        before = games()
        counts[0] = 0
        now += 20
        c.update(now)
        link.poll(now)
        polls.append(([name for name in before if name not in games()], counts[0]))
        if left is None and wire.lines():
            left = after
            print("reply at poll %d" % (len(polls) - 1))
        elif left is not None:
            left -= 1
    assert wire.lines(), "no reply to %s" % line
    return wire.lines()[0].decode(), polls


reply, _ = command("NEW")
assert reply.startswith("OK"), reply
reply, _ = command("SET preset " + new_preset)
print("set")
assert reply.startswith("OK"), reply
assert c.rules.spec != c.settings["rules"], "the new rules applied mid-game, not at the next game: " + reply
reply, polls = command("NEW", 3)
assert reply.startswith("OK"), reply
for i, (dropped, collected) in enumerate(polls):
    print("poll %d dropped %s collected %d" % (i, dropped, collected))
print("ok")
