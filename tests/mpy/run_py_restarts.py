# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# A board whose modules compile from source, run as code.py runs it: the
# machine (startup.Machine) with its store on an nvm sector kept in a file
# and a reload port, its host link polled with the controller, one SET at a
# time. A SET answered "restart" ends the process once the machine asks the
# port to reload (after its reply went out and the settings were written):
# the sector is written back to the file and the caller starts this script
# again with the commands left, as CircuitPython runs code.py again.
# Prints "start PRESET", then per command its reply; "restart" when the port
# was asked; "ok" when every command was answered.
# NVM_FILE "-": no store and no port (a board from .mpy, with every change applied in place).
# MICROPYPATH=<tree> micropython -X heapsize=H run_py_restarts.py BOARD NVM_FILE COMMAND...
import sys

from fake_io import FakeIO, FakeWire
from nimatron.link.hostlink import HostLink
from nimatron.machine.app import make_controller
from nimatron.machine.startup import Machine, read_source
from nimatron.machine.store import Store


class Reload(BaseException):
    """CircuitPython's reload: raised through the main loop, never caught by ``except Exception``."""


class Port:
    def __init__(self, wire):
        self.wire = wire
        self.asked = None

    def reload(self):
        self.asked = b"".join(self.wire.written)  # what the host had been sent by then
        raise Reload


def make(board, overrides, listener, now_ms, audits):
    return make_controller(board, overrides, FakeIO(), listener=listener, now_ms=now_ms, audits=audits)


board, path = sys.argv[1], sys.argv[2]
try:
    if path == "-":
        raise OSError
    with open(path, "rb") as f:
        nvm = bytearray(f.read())
except OSError:
    nvm = bytearray(b"\xff" * 4096)
wire = FakeWire()
port = Port(wire)
m = Machine(
    board,
    read_source(None),
    None if path == "-" else Store(nvm=nvm),
    make=make,
    log=lambda line: None,
    reload=None if path == "-" else port,
)
m.attach(HostLink(m.controller, wire, board=board))
print("start", m.controller.settings["preset"])
now = 0
for command in sys.argv[3:]:
    wire.written = []
    wire.to_machine = command.encode() + b"\n"
    polls = 0
    reply = None
    try:
        while polls < 400 and (reply is None or b'"restart": true' in reply):
            now += 20
            m.tick(now)
            polls += 1
            if reply is None and wire.lines():
                reply = wire.lines()[0]
                print(command, "->", reply.decode())
    except Reload:
        if reply is None or reply not in port.asked:
            print("restart before the reply went out")
            sys.exit(3)
        if m.store is None or m.store.unsaved:
            print("restart before the settings were written")
            sys.exit(3)
        with open(path, "wb") as f:
            f.write(nvm)
        print("restart")
        sys.exit(0)
    if reply is None or b'"restart": true' in reply:
        print(command, "-> no reply" if reply is None else "-> no restart")
        sys.exit(3)
print("ok")
