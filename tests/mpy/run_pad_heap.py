# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# What a MacroPad keeps after the host's commands and the machine's turns,
# as its main loop polls the link: after EXPLAIN, the words (games.explain)
# only where the preset shows them itself (Nimrod's binary); after a turn of
# Moore's Nim, its table and the tables' reader, and nothing of the index
# of every other table. Prints, per step, the modules in question resident
# and the heap the tables' reader keeps (bytes, after a collection).
# MICROPYPATH=<compiled tree with fake_io> micropython run_pad_heap.py PRESET
import gc
import sys

from fake_io import FakeIO, FakeWire
from nimatron.link.hostlink import HostLink
from nimatron.machine.app import make_controller


def resident(name):
    return ("nimatron." + name) in sys.modules


preset = sys.argv[1]
c = make_controller("macropad", {"preset": preset, "remote_play": True}, FakeIO())
wire = FakeWire()
link = HostLink(c, wire, board="macropad", save=lambda settings, own=None: True)
now = 0


def ask(command):
    global now
    wire.written = []
    wire.to_machine = command.encode() + b"\n"
    for _ in range(30):
        now += 20
        c.update(now)
        link.poll(now)
        if wire.lines():
            break
    for line in wire.lines():
        if not line.startswith(b"EVENT"):
            return line.decode()
    raise AssertionError("no reply to %s" % command)


def run(ms):
    global now
    end = now + ms
    while now < end:
        now += 20
        c.update(now)
        link.poll(now)


reply = ask("PLAY PRESS done")
assert reply.startswith("OK"), reply
run(3000)
assert c.state == "visitor", c.state
reply = ask("EXPLAIN")
assert reply.startswith("OK"), reply
print("explain", resident("games.explain"))
if "nimatron.games.tables" in sys.modules:  # the whole heap the tables' reader keeps, beyond the table's bytes
    tables = sys.modules["nimatron.games.tables"]
    data = sum(len(d[0]) for d in tables._loaded.values())
    del tables
    gc.collect()
    before = gc.mem_alloc()
    import nimatron.games

    del sys.modules["nimatron.games.tables"]
    delattr(nimatron.games, "tables")
    gc.collect()
    print("tables kept", before - gc.mem_alloc() - data)
