# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# What the exhibit's modules leave in the heap once they are gone: the names
# they brought (qstrs) stay interned for good, in pools that are never freed,
# so a module dropped after use (``nimatron.forget``) gives back its code but
# not its names. Prints the heap free (after a collection) fresh, with the
# exhibit's modules loaded, and after every one of them was dropped; the last
# less the first is what the names (and the pools' spare room) hold. Then,
# with the rest of the exhibit's modules loaded too (those it loads and drops:
# their names stay), how many more names fit in the last pool before a new
# one is allocated (each new pool has room for twice as many as the last, 6
# bytes a name on a 32-bit board, empty at first), and how much that costs.
# usage: tools/emu_names.sh (real CircuitPython, emulated Pico), or
#   cd tests; MICROPYPATH=<compiled tree> micropython -X heapsize=256K -c "import bench_names; bench_names.main()"
import gc
import sys

TRANSIENT = (
    "nimatron.config.boards",
    "nimatron.config.settings",
    "nimatron.link.setting",
    "nimatron.panels.playable",
    "nimatron.machine.service",
    "nimatron.machine.starting",
)
MODULES = (
    "nimatron.machine.app",
    "nimatron.machine.controller",
    "nimatron.machine.startup",
    "nimatron.link.protocol",
    "nimatron.link.play",
    "nimatron.link.commands",
    "nimatron.link.hostlink",
    "nimatron.games.explain",
    "nimatron.games.graph",
)


def free():
    gc.collect()
    return gc.mem_free()


def main():
    fresh = free()
    import nimatron  # the package itself stays: it drops the rest

    for name in MODULES:
        __import__(name)
    loaded = [m for m in sys.modules if m.startswith("nimatron.")]
    held = free()
    nimatron.forget([m[9:] for m in loaded])
    left = free()
    print(
        "names fresh %d loaded %d (%d modules) dropped %d: the modules %d bytes, left behind %d bytes"
        % (fresh, held, len(loaded), left, fresh - held, fresh - left)
    )


def room():
    """Names interned one by one (``hasattr`` interns its name) until the
    heap drops by more than a name's worth: how many fitted, and the drop."""
    last = free()
    for i in range(5000):
        hasattr(room, "nimatron_probe_%04d" % i)
        now = free()
        if last - now > 512:
            return i, last - now
        last = now
    return None, 0


def pools():
    for name in MODULES + TRANSIENT:
        __import__(name)
    fitted, cost = room()
    print("names pool: %s more names fitted before a new pool of %d bytes" % (fitted, cost))


def everything(top="/lib/nimatron"):
    """Every module deployed (every rule set's, every command's): what a board
    that has played every preset and answered every command has interned."""
    import os

    import nimatron

    def walk(folder, package):
        for entry in sorted(os.listdir(folder)):
            if (entry.endswith(".mpy") or entry.endswith(".py")) and entry[:8] != "__init__":  # no tuple here on CP
                name = package + "." + entry.rsplit(".", 1)[0]
                try:
                    __import__(name)
                except ImportError as e:  # a driver for another interpreter
                    print("names skipped %s: %s" % (name, e))
                nimatron.forget([m[9:] for m in sys.modules if m[:9] == "nimatron."])  # code goes, names stay
            elif "." not in entry:
                walk(folder + "/" + entry, package + "." + entry)

    walk(top, "nimatron")
    fitted, cost = room()
    print("names everything: %s more names fitted before a new pool of %d bytes; free %d" % (fitted, cost, free()))
