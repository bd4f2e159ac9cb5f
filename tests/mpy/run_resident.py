# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# What stays in a board's heap while it plays: the machine started as
# code.py starts it (the settings source, the store on nvm, the audits), the
# host link attached and asked what a host asks (EVENTS ON, SET, EXPLAIN on
# every turn, MEMORY), and one whole game of PRESET played on BOARD's keys by
# a visitor making the engine's move. Prints one line per moment:
# "<moment> <firmware module> ..." (the modules loaded then, after the start,
# after each command, at each of the visitor's turns and after the game),
# then "machine moves N worded M" (the machine's moves streamed, those with their words).
# usage: MICROPYPATH=<compiled tree> micropython -X heapsize=N run_resident.py BOARD PRESET [SET [LEAVE]]
# SET: the board starts with the preset PRESET, then an operator sends
# "SET preset SET" (or "SET KEY VALUE" for a SET of KEY=VALUE) and the game
# played is that one; LEAVE: after the game, "SET rules LEAVE" (the moment "SET/LEAVE").
import sys

from fake_io import FakeIO, FakeWire
from nimatron.machine.startup import Machine, overrides_source
from nimatron.machine.store import Store

board, preset = sys.argv[1], sys.argv[2]
chosen = sys.argv[3] if len(sys.argv) > 3 else None
leave = sys.argv[4] if len(sys.argv) > 4 else None


def resident(moment):
    names = [m[9:] for m in sys.modules if m[:9] == "nimatron."]
    names.sort()
    print(moment + " " + " ".join(names))


def make(name, over, listener, now_ms, audits):
    from nimatron.machine.app import make_controller  # as code.py: at each start, then dropped

    return make_controller(name, over, FakeIO(), listener, now_ms, audits)


overrides = {"preset": preset, "think_ms": 100, "show_ms": 100, "over_ms": 1000}
machine = Machine(
    board, overrides_source(overrides), Store(nvm=bytearray(b"\xff" * 4096)), make=make, log=lambda line: None
)
resident("start")
print("from %s: %s" % (machine.settings_from, machine.why))  # "file": the preset itself
from nimatron.link.hostlink import HostLink  # noqa: E402 - as code.py: once the host has spoken

wire = FakeWire()
machine.attach(HostLink(machine.controller, wire, board=board))
now = [0]


def run(ms):
    end = now[0] + ms
    while now[0] < end:
        now[0] += 10
        machine.tick(now[0])


def replies():
    return len([line for line in wire.lines() if line[:3] in (b"OK ", b"OK", b"ERR")])


def command(line):
    wire.to_machine += line.encode() + b"\n"
    answered = replies() + 1
    run(400)  # EXPLAIN's search may take a few polls
    while replies() < answered and now[0] < 600000:
        run(100)  # Candy's first: a search of many polls
    resident(line.split()[0] + "/" + line.split()[-1])


command("EVENTS ON")
command("SET remote_play on")
if chosen:
    command("SET " + " ".join(chosen.split("=")) if "=" in chosen else "SET preset " + chosen)
    print("reply " + wire.written[-1].decode().strip()[:60])
c = machine.controller
from nimatron.machine.turns import bare_solve  # noqa: E402 - the visitor's own moves: the engine's

c.press("new", now[0])
turns = 0
while c.winner is None and turns < 200:
    run(100)
    if c.state != "visitor" or c.panel is None:
        continue
    turns += 1
    command("EXPLAIN")
    resident("turn")
    heaps, ring = c.panel.position()
    after = bare_solve(c.rules, heaps, c.misere, ring)["after"]  # no table of its own
    show = getattr(c.panel, "hint_lamps", None)  # Building Nim: the stone and where it lands (as the hint)
    for r, i in show(after) if show else c.panel.lamps_for(after)[0]:
        c.press("key %d %d" % (r, i), now[0])
    c.press("done", now[0])
run(2000)
resident("over")
command("MEMORY")
if leave:
    command("SET rules " + leave)
    print("reply " + wire.written[-1].decode().strip()[:60])
import json  # noqa: E402

moves = [json.loads(line[3:]) for line in wire.lines() if line[:3] == b"EV "]
moves = [ev for ev in moves if ev.get("event") == "move" and ev.get("by") == "machine"]
print("machine moves %d worded %d" % (len(moves), len([ev for ev in moves if ev.get("why")])))
print("winner %s after %d turns" % (c.winner, turns))
