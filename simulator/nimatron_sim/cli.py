# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron sim``: the firmware on a simulated board.

    nimatron sim --list-boards
    nimatron sim --headless --board pico-neopixel --script game.txt
    echo "press new" | nimatron sim --headless --board pi-leds --script -

Headless mode plays a script (see ``nimatron_sim.script``) on a virtual
clock and prints JSON lines: ``{"t": MS, "lamps": [[0|1, ...], ...],
"status": {...}}`` whenever the lamps read back from the pins change, and
each game event (``move``, ``refused``, ``new_game``, ``game_over``, ...)
with ``"t"`` added. The first line is the ``boot`` event: who the machine
is, its audits and whether they were ``"restored": "stored"`` from
``--nvm FILE`` (the same 4096 bytes as a board's ``microcontroller.nvm``,
created blank if missing; one simulator at a time: ``FILE.lock``; a file of
another size kept aside as ``FILE.other-N``, its newest records carried
over) or ``"factory"``.
"""

import json
import sys
import time

from nimatron_pc.errors import UsageError

from .options import overrides

MAX_TICK = 1000  # ms: a main loop slower than a second is no longer the machine


def add_parser(sub):
    p = sub.add_parser("sim", help="run the firmware on a simulated board", description=__doc__.split("\n")[0])
    p.add_argument("--list-boards", action="store_true", help="one line per board: name, driver, input model")
    p.add_argument("--headless", action="store_true", help="play a script, print JSON lines (no screen)")
    p.add_argument(
        "--board",
        default="pico-neopixel",
        help="the board to simulate (default pico-neopixel; --list-boards lists them)",
    )
    p.add_argument("--preset", help="preset (default: the board's own)")
    p.add_argument("--rules", help="rule set, e.g. nim, subtract:3")
    p.add_argument("--misere", action="store_true", help="misère play: whoever takes the last lamp loses")
    p.add_argument("--difficulty", help="perfect, fallible, equalizer or teach")
    p.add_argument("--seed", type=int, help="seed for the machine's choices and for switch bounce")
    p.add_argument(
        "--set",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="any other setting, e.g. --set think_ms=0 (repeatable)",
    )
    p.add_argument("--script", metavar="FILE", help="actions, one per line ('-' reads stdin)")
    p.add_argument("--tick", type=int, default=5, metavar="MS", help="main-loop tick in virtual ms (default 5)")
    p.add_argument(
        "--until-killed", action="store_true", help="after the script, keep running in real time until interrupted"
    )
    p.add_argument(
        "--serial",
        action="store_true",
        help="host link on a pseudo-terminal, path printed as 'serial: PATH' (first line on stderr); "
        "script waits then pass in real time",
    )
    p.add_argument(
        "--nvm",
        metavar="FILE",
        help="the board's nvm (4096 bytes, created if missing): audits and SET changes survive runs",
    )
    p.add_argument("--first", choices=("visitor", "machine", "alternate"), help="who moves first")
    p.add_argument("--thinking", action="store_true", help="open with the 'how the machine thinks' panel shown")
    p.add_argument(
        "--web", action="store_true", help="serve the machine as a web page (and /crowd, the crowd view) on localhost"
    )
    p.add_argument("--port", type=int, default=8000, help="port for --web (default 8000)")
    p.add_argument(
        "--host",
        default="localhost",
        metavar="ADDRESS",
        help="address for --web (default localhost; 0.0.0.0 serves the LAN, a machine per tab)",
    )
    p.add_argument(
        "--lang",
        default="en",
        help="language of the words, in the terminal and the --web pages: en, es or ru (default en)",
    )
    p.add_argument("--screenshot", metavar="PATH", help="save an SVG of the interactive simulator mid-game, then exit")


def list_boards(out=None):
    from nimatron.config.boards import BOARDS

    out = out or sys.stdout
    for name in sorted(BOARDS):
        spec = BOARDS[name]
        out.write("%s %s %s\n" % (name, spec["driver"], spec["input"]))


def _open_script(path):
    from .script import Script

    if path is None:
        return None
    try:
        return Script(path)
    except OSError as e:
        raise UsageError("cannot read script %s: %s" % (path, e.strerror or e)) from e


def run(args):
    """``--list-boards`` or ``--headless``. The terminal app and the web page
    are the simulator's faces, which stand above it: the command line that a
    user types (``nimatron_host.sim_cmd``) starts them."""
    if args.list_boards:
        list_boards()
        return 0
    if not 1 <= args.tick <= MAX_TICK:
        raise UsageError("--tick must be 1 to %d ms, got %s" % (MAX_TICK, args.tick))
    from nimatron.config import boards

    from . import script

    try:
        spec = boards.board(args.board)
    except ValueError as e:
        raise UsageError(str(e)) from e
    settings = overrides(args)
    source = _open_script(args.script)
    try:
        _play(args, spec, settings, source)
    except script.ScriptError as e:  # a bad line found before anything ran
        raise UsageError(str(e)) from e
    finally:
        if source:
            source.close()
    return 0


def _play(args, spec, settings, source):
    from . import script

    roles = _roles(spec)
    if source:
        source.check(roles)
    actions = source.actions(roles) if source else ()

    from .engine import Simulator

    nvm = store = owner = None
    if args.nvm:
        nvm, store, owner = _open_nvm(args.nvm)
    try:
        sim = Simulator(args.board, settings, args.seed, tick_ms=args.tick, nvm=nvm, store=store)
    except ValueError as e:  # BoardError, SettingsError, PanelError, DriverError
        if owner:
            owner.close()
        raise UsageError(str(e).split("\n")[0]) from e
    out = sys.stdout

    def emit(record):
        out.write(json.dumps(record) + "\n")
        out.flush()

    boot = {"t": sim.now}
    boot.update(sim.machine.boot)
    emit(boot)
    sim.listeners.append(emit)
    sim.output_listeners.append(lambda t, lamps, status: emit({"t": t, "lamps": lamps, "status": status}))
    port = None
    try:
        if args.serial:  # the host link (nimatron_sim.serial_port)
            from .serial_port import SerialPort

            port = SerialPort(sim)
            port.run_script(actions)
        else:
            script.run(sim, actions)
        sim.advance(0)
        if args.until_killed:
            port.run_until_killed() if port else _real_time(sim)
    except KeyboardInterrupt:
        pass
    finally:
        if port:
            port.close()
        sim.close()
        if owner:
            owner.close()


def _open_nvm(path):
    """(nvm, store, owner) for ``--nvm PATH``, this process its one owner.

    The lock is ``PATH.lock``, the Pi's scheme (``statefile.Owner``), not a
    lock on the nvm file itself: another version's image is kept aside
    before the sector is made, and one scheme for both files is one to
    test. Refused in one line (exit 2) if the file is not ours or another
    Nimatron is using it, before anything is written."""
    from nimatron.machine.statefile import Owner, problem
    from nimatron.machine.store import Store

    from .flash import FlashNvm

    said = []  # faults that did not stop the start: said on stderr and in the boot event
    why = problem(path, "nvm", said)
    if why:
        raise UsageError("--nvm " + why)
    owner = Owner(path)
    why = owner.take()
    if why:
        raise UsageError("--nvm " + why)
    try:
        nvm = FlashNvm.open(path, said=said)
    except OSError as e:
        owner.close()
        raise UsageError("cannot use %s as nvm: %s" % (path, e.strerror or e)) from e
    for note in owner.notes + said + nvm.notes:
        sys.stderr.write("nimatron: %s\n" % note)
    store = Store(nvm=nvm)
    store.warnings = owner.notes + said
    return nvm, store, owner


def _roles(spec):
    from .bench import board_roles

    return board_roles(spec)


def _real_time(sim):
    """Keep the virtual clock in step with the wall clock until interrupted."""
    import signal

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    start = time.monotonic()
    origin = sim.now
    while True:
        due = origin + int((time.monotonic() - start) * 1000)
        if due > sim.now:
            sim.advance(due - sim.now)
        time.sleep(sim.tick_ms / 1000)
