# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""CircuitPython entry point: the Nimatron on this board.

Put it on the board with ``nimatron deploy --to CIRCUITPY --board NAME``
(code.py, boot.py, safemode.py, lib/nimatron with the board's pin map, and
the neopixel library). Change ``BOARD`` to your pin map in
``nimatron/config/pinmaps/``, or put ``{"board": "pico-grid", "preset": "grundy"}``
in ``settings.json``.

Needs CircuitPython 8.2 or newer, played in the emulator on 8.2.9 and 9.2.8 (``supervisor.runtime.autoreload``,
``safemode.py``, ``microcontroller.watchdog``). Never dark: a settings file
that fails for any reason falls back to the last good settings (or the
board's defaults) and says why (console, host link, status lamps); an
unexpected exception rebuilds the game instead of reloading; a watchdog in
RESET mode, fed by the main loop, restarts a hung board (on an RP2040
CircuitPython then runs code.py again at once and the start counts the
watchdog reset; ``safemode.py`` restarts the boards whose port reports it as
a safe-mode reason instead). Audits and ``SET`` changes are kept in
``microcontroller.nvm`` (``nimatron.machine.store``).
"""

import json

import microcontroller
import supervisor

BOARD = "pico-neopixel"  # the pin map nimatron/config/pinmaps/pico-neopixel.json
SETTINGS = "settings.json"  # beside code.py (CircuitPython runs it from /)
STATE_FILE = "nimatron-state.bin"  # a second store, if boot.py lets code write the drive
TICKS_PERIOD = 1 << 29  # supervisor.ticks_ms() wraps here
WATCHDOG_S = 7.0  # RP2040's watchdog limit is about 8.3 s
RETRY_MS = 60000  # nothing could start: try again this often

supervisor.runtime.autoreload = False  # a museum PC touching the drive must not restart the game


def fed_make(dog):
    """``app.make_controller`` feeding the watchdog between its steps: a start
    compiles modules for seconds, and the main loop is not feeding it yet."""
    feed = dog.feed if dog is not None else None

    def make(board, overrides, listener, now_ms, audits):
        from nimatron.machine.app import make_controller  # at each start: it leaves the heap between them

        return make_controller(board, overrides, listener=listener, now_ms=now_ms, audits=audits, feed=feed)

    return make


def host_spoke(data):
    """True once the host has sent a byte (or the channel is off: then
    ``usb_link`` says why). The link's modules compile only then, 0.5 s on an
    RP2040 that a start without a host no longer waits for."""
    try:
        return data is None or data.in_waiting > 0
    except Exception:  # let usb_link find out and say
        return True


# The host link's modules, imported one a pass once the host has spoken, each
# after a collection in a pass of its own (all in one pass, the lamps froze
# for most of a second on an RP2040). A collection or an import is most of a
# pass there (even the package's empty __init__: finding a file on the drive
# costs most of it; link.commands whole was the dearest, so its game commands,
# link.play, come first, in a pass of their own); the link itself is cheap.
# A step runs only in a pass whose own work (the
# machine's tick) took under LINK_ROOM_MS: the longest step and such a pass
# stay within a pass's budget, and a frame of attract's wave or a search waits
# for a quieter pass (the next, mostly). Figures: docs/board.md, "What a pass costs".
LINK_MODULES = (
    "nimatron.link",
    "nimatron.link.protocol",
    "nimatron.link.play",
    "nimatron.link.commands",
    "nimatron.link.hostlink",
    "nimatron.link.stream",
    "nimatron.link.transports",
)
LINK_ROOM_MS = 8


def load_link(machine, step, now):
    """One step of the host link's start: a collection, a module (each loads
    into a heap just collected: a collection in the same pass doubled it), or
    (the last) the link itself, attached. Returns (linked, next step)."""
    try:
        if step < 2 * len(LINK_MODULES):
            if step % 2:
                __import__(LINK_MODULES[step // 2])
            else:
                import gc

                gc.collect()
            return False, step + 1
        from nimatron.link.transports import usb_link

        link = usb_link(machine.controller, machine.board, now)
    except Exception as e:  # MemoryError compiling it: the game goes on
        print("host link off: %r" % e)
        return True, None
    finally:
        if step >= 2 * len(LINK_MODULES):
            from nimatron import forget

            forget(("link.transports",))  # finding and opening the channel: the transport's class stays with it
    if link is not None:
        machine.attach(link)
    return True, None


def main(mc=microcontroller, sup=supervisor, make=None, loops=None, state=STATE_FILE, data=None):
    """Start and run the machine; ``make``, ``loops``, ``state`` and ``data``
    (a stand-in for ``usb_cdc.data``) are for tests."""
    import gc

    from nimatron import forget
    from nimatron.machine import power_on as once  # dropped once the machine is built

    pins = once.hold(gc)  # noqa: F841 - held while main runs: an area with a pin is never handed back
    once.first_lamp(BOARD, SETTINGS)  # lit now, not when the start has compiled (2.3 s from .py)
    from nimatron.machine.startup import Machine

    dog = once.arm_watchdog(mc, WATCHDOG_S)
    if data is None:
        data = once.host_data()
    linked = False
    step = None  # the host link's start, a step a pass once the host has spoken
    store = once.open_store(mc, state)
    reason = once.reset_reason(mc)
    now = 0
    last = sup.ticks_ms()
    machine = None
    margin = False
    retry_at = 0
    while loops is None or loops > 0:
        if loops is not None:
            loops -= 1
        ticks = sup.ticks_ms()
        now += (ticks - last) & (TICKS_PERIOD - 1)
        last = ticks
        if margin:  # the boot's watchdog margin, for the technician: first feed below
            print(
                "nimatron: started %d ms after the watchdog was armed (it fires at %d ms)"
                % (now, int(WATCHDOG_S * 1000))
            )
            margin = False
        if machine is None and now >= retry_at:
            try:
                if once is None:  # a start that failed, tried again: the settings file read anew
                    from nimatron.machine import power_on as once
                machine = Machine(
                    BOARD,
                    once.read_settings(SETTINGS),
                    store,
                    now_ms=now,
                    reset_reason=reason,
                    make=make or fed_make(dog),
                    reload=once.source(sup),  # from .py: a rule change restarts the board (startup.Machine.restart)
                )
                print(json.dumps(machine.boot))
                margin = dog is not None and now < RETRY_MS  # said on the next turn of the loop
            except Exception as e:  # even the defaults fail (hardware?)
                print("nimatron cannot start: %r; trying again in %d s" % (e, RETRY_MS // 1000))
                retry_at = now + RETRY_MS
            once = None
            forget(("machine.power_on",), collect=False)  # its code: freed by the next collection
        if machine is not None:
            machine.tick(now)
        if machine is not None and machine.controller is not None and not linked:
            if step is None and host_spoke(data):
                step = 0
            if step is not None and (sup.ticks_ms() - ticks) & (TICKS_PERIOD - 1) < LINK_ROOM_MS:
                linked, step = load_link(machine, step, now)  # a quiet pass: no frame, no command
        if dog is not None:
            dog.feed()
    return machine


if __name__ == "__main__":
    main()
