# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron ports``: serial ports, and which of them are Nimatrons.

A CircuitPython board shows two ports: the console (REPL) and the data
channel the Nimatron's host link uses ("CircuitPython CDC2 data"). Ports
named on the command line (pseudo-terminals of ``nimatron sim --serial`` are
not listed by the OS) and, with ``--probe``, every listed port, are asked
HELLO: a Nimatron answers with its board and preset.

    nimatron ports
    nimatron ports --probe
    nimatron ports /dev/pts/4
"""

import sys

from .cli import Failure
from .link import Link

DATA = ("CircuitPython CDC2 data", "CircuitPython CDC data")
CONSOLE = ("CircuitPython CDC control",)
ADAFRUIT_VID = 0x239A


def add_parser(sub):
    p = sub.add_parser("ports", help="list serial ports and find Nimatrons", description=__doc__.split("\n")[0])
    p.add_argument("paths", nargs="*", metavar="PATH", help="also ask these ports (e.g. a simulator's /dev/pts/N)")
    p.add_argument("--probe", action="store_true", help="send HELLO to every data port found (not consoles)")
    p.add_argument("--timeout", type=float, default=1.0, metavar="S", help="wait for a HELLO reply (default 1 s)")


def kind(info):
    """What the USB description says the port is."""
    text = " ".join(str(x) for x in (info.interface, info.description, info.product) if x)
    if any(name in text for name in DATA):
        return "data"
    if any(name in text for name in CONSOLE):
        return "console"
    if info.vid == ADAFRUIT_VID or "CircuitPython" in text:
        return "circuitpython"
    return ""


def probe(path, timeout):
    """ "nimatron (board B, preset P)" or why not."""
    try:
        with Link(path, timeout=timeout) as link:
            hello = link.hello()
    except Failure as e:
        message = str(e)
        if message.startswith("cannot open"):
            return message
        return "no Nimatron here (%s)" % ("no HELLO reply" if message.startswith("no reply") else message)
    return "Nimatron (board %s, preset %s, protocol %s)" % (
        hello.get("board"),
        hello.get("preset"),
        hello.get("protocol"),
    )


def run(args):
    from serial.tools import list_ports

    out = sys.stdout
    found = sorted(list_ports.comports(), key=lambda p: p.device)
    for info in found:
        what = kind(info)
        note = {
            "data": "CircuitPython data channel: the host link",
            "console": "CircuitPython console (REPL)",
            "circuitpython": "CircuitPython board",
        }.get(what, "")
        if what == "data" or (args.probe and what != "console"):
            note = probe(info.device, args.timeout)
        out.write("%-16s %-40s %s\n" % (info.device, info.description or "", note))
    for path in args.paths:
        out.write("%-16s %-40s %s\n" % (path, "(given)", probe(path, args.timeout)))
    if not found and not args.paths:
        out.write("no serial ports found (a simulator's pseudo-terminal is not listed: give its path)\n")
    return 0
