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

BOARD = "pico-neopixel"     # the pin map nimatron/config/pinmaps/pico-neopixel.json
SETTINGS = "settings.json"  # beside code.py (CircuitPython runs it from /)
STATE_FILE = "nimatron-state.bin"  # a second store, if boot.py lets code write the drive
MAX_SETTINGS = 4096         # bytes: a bigger settings file is refused, not parsed
TICKS_PERIOD = 1 << 29      # supervisor.ticks_ms() wraps here
WATCHDOG_S = 7.0            # RP2040's watchdog limit is about 8.3 s
RETRY_MS = 60000            # nothing could start: try again this often

supervisor.runtime.autoreload = False  # a museum PC touching the drive must not restart the game


def read_settings(path):
    """The settings file as a ``nimatron.machine.startup`` source; never raises."""
    from nimatron.machine.startup import read_source

    try:
        with open(path, "rb") as f:
            text = f.read(MAX_SETTINGS + 1)
    except OSError:
        return read_source(None)
    except Exception as e:  # noqa: BLE001 - MemoryError, a damaged drive
        return None, "cannot read %s: %r" % (path, e), 0
    if len(text) > MAX_SETTINGS:
        return None, "%s is bigger than %d bytes" % (path, MAX_SETTINGS), 1
    return read_source(text)


def reset_reason(mc):
    """Why the board started, in the audits' words (None: unknown)."""
    try:
        reason = mc.cpu.reset_reason
        names = mc.ResetReason
    except Exception:  # noqa: BLE001
        return None
    for attr, name in (("POWER_ON", "power_on"), ("BROWNOUT", "power_on"), ("WATCHDOG", "watchdog"),
                       ("SOFTWARE", "software"), ("RESET_PIN", "reset_pin")):
        if reason == getattr(names, attr, object()):
            return name
    return None


def arm_watchdog(mc):
    """The hardware watchdog in RESET mode (RAISE is not implemented on the
    RP2040), armed at every start: a reload or Ctrl-C disarms it."""
    try:
        from watchdog import WatchDogMode

        dog = mc.watchdog
        dog.timeout = WATCHDOG_S
        dog.mode = WatchDogMode.RESET
        dog.feed()
        return dog
    except Exception as e:  # noqa: BLE001 - a board without one still plays
        print("watchdog off: %r" % e)
        return None


def open_store(mc, path=STATE_FILE):
    """nvm, plus a file when code may write the drive (then an nvm erase cut is survivable)."""
    from nimatron.machine.store import Store

    nvm = getattr(mc, "nvm", None)
    try:
        with open(path + ".tmp", "wb") as f:
            f.write(b"")
        import os

        os.remove(path + ".tmp")
        writable = True
    except OSError:
        writable = False  # the usual case: the drive belongs to the host PC
    if nvm is None and not writable:
        print("no nvm and a read-only drive: audits and SET changes last until power-off")
        return None
    return Store(nvm=nvm, path=path if writable else None)


def fed_make(dog):
    """``app.make_controller`` feeding the watchdog between its steps: a start
    compiles modules for seconds, and the main loop is not feeding it yet."""
    feed = dog.feed if dog is not None else None

    def make(board, overrides, listener, now_ms, audits):
        from nimatron.machine.app import make_controller  # at each start: it leaves the heap between them

        return make_controller(board, overrides, listener=listener, now_ms=now_ms, audits=audits, feed=feed)

    return make


def host_data():
    """``usb_cdc.data``, the host link's channel; None if off or missing."""
    try:
        import usb_cdc

        return usb_cdc.data
    except Exception:  # noqa: BLE001 - ImportError: not a CircuitPython board
        return None


def host_spoke(data):
    """True once the host has sent a byte (or the channel is off: then
    ``usb_link`` says why). The link's modules compile only then, 0.5 s on an
    RP2040 that a start without a host no longer waits for."""
    try:
        return data is None or data.in_waiting > 0
    except Exception:  # noqa: BLE001 - let usb_link find out and say
        return True


# The host link's modules, imported one a pass once the host has spoken, each
# after a collection in a pass of its own (all in one pass: 168 ms from .mpy,
# 0.7 s from .py on an RP2040, the lamps frozen meanwhile). From .mpy on
# pico-grid (emulated) a collection takes 18 ms, an import 18-41 ms (18 for the
# package's empty __init__: finding a file on the drive costs most of it;
# link.commands whole was 39-47 ms, so its game commands, link.play, come
# first, in a pass of their own), the link itself 2 ms. A step runs only in a pass whose own work (the
# machine's tick) took under LINK_ROOM_MS: the longest step and such a pass
# stay under 50 ms, and a frame of attract's wave (8-9 ms) or a search waits
# for a quieter pass (the next, mostly: a quiet pass takes 1-2 ms).
LINK_MODULES = ("nimatron.link", "nimatron.link.protocol", "nimatron.link.play", "nimatron.link.commands",
                "nimatron.link.hostlink", "nimatron.link.stream", "nimatron.link.transports")
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
    except Exception as e:  # noqa: BLE001 - MemoryError compiling it: the game goes on
        print("host link off: %r" % e)
        return True, None
    finally:
        if step >= 2 * len(LINK_MODULES):
            from nimatron import forget

            forget(("link.transports",))  # finding and opening the channel: the transport's class stays with it
    if link is not None:
        machine.attach(link)
    return True, None


HEAP_CHUNK = 255      # a filling tuple's items: 1,040 bytes, one allocation (hold_heap)
HEAP_RUN = 4          # chunks in a row: an area's (a hole left in an old area is shorter)
HEAP_TRIES = 2000     # pins tried at most: the first fill the holes code.py's compiling left
HEAP_AREAS = 16       # areas pinned at most (code.py finds a Pico's heap grows by 4 to 6)


def heap_grows():
    """True on CircuitPython 9 and later, whose heap grows (and shrinks) in areas."""
    import sys

    impl = sys.implementation
    return impl.name == "circuitpython" and impl.version[0] >= 9


def hold_heap(gc, chunk=HEAP_CHUNK, new=None, where=id, pin=None):
    """Grow the heap to its whole size once, and keep a pin of 32 bytes in
    each area it grew by. CircuitPython 9 grows its heap in areas and hands
    an area back as soon as a collection empties it; the next load then
    finds no room, collects again and grows again: two collections (20-35 ms
    each on an RP2040) where one was asked for.

    The heap is filled with equal tuples (one allocation each, so an area's
    sit one stride apart) until it can grow no more, as it would under load
    (CircuitPython's own allocations are made before code.py or in this
    heap). The first tuple of each long run starts an area: it is dropped,
    and small tuples are made until one lands in each such hole (a block
    allocation takes the first room that fits). Returns the pins: keep them.
    ``new``, ``pin`` (a filling chunk, a pin) and ``where`` (its address)
    are for tests."""
    gc.collect()
    one = (None,) * chunk
    small = (None,) * 3  # 20 bytes: two blocks (an area whose only block in use is its first is handed back)
    if new is None:
        def new():
            return one * 1  # a new tuple, allocated whole

    if pin is None:
        def pin():
            return small * 1

    # Every list it needs is made now: once the heap is full nothing may grow.
    others = [None] * HEAP_TRIES  # pins that filled older holes first: dropped at the end
    pins = [None] * HEAP_AREAS
    holes = [0] * HEAP_AREAS  # where each area's first chunk was (0: pinned)
    fill = [None] * (gc.mem_free() // (4 * chunk + 16) + 1)
    n = 0
    try:
        while n < len(fill):
            fill[n] = new()
            n += 1
    except MemoryError:
        pass
    stride = 0  # the step between neighbours: the least step forward
    for i in range(1, n):
        step = where(fill[i]) - where(fill[i - 1])
        if step > 0 and (not stride or step < stride):
            stride = step
    areas = 0
    start = 0
    for i in range(1, n + 1):
        if i == n or where(fill[i]) != where(fill[i - 1]) + stride:
            if (i - start >= HEAP_RUN or i == n) and areas < HEAP_AREAS:
                holes[areas] = where(fill[start])
                fill[start] = None
                areas += 1
            start = i
    gc.collect()
    held = 0
    try:
        for t in range(HEAP_TRIES):
            if held == areas:
                break
            p = pin()
            at = where(p)
            for k in range(areas):
                if holes[k] and holes[k] <= at < holes[k] + stride:
                    pins[held] = p
                    holes[k] = 0
                    held += 1
                    break
            else:
                others[t] = p
    except MemoryError:
        pass  # no room left even for a pin: the areas without one may be handed back, as before
    del fill, others, holes
    gc.collect()
    return pins[:held]


def main(mc=microcontroller, sup=supervisor, make=None, loops=None, state=STATE_FILE, data=None):
    """Start and run the machine; ``make``, ``loops``, ``state`` and ``data``
    (a stand-in for ``usb_cdc.data``) are for tests."""
    import gc

    pins = None
    if heap_grows():
        try:
            pins = hold_heap(gc)
            print("nimatron: heap held whole, %d areas pinned" % len(pins))
        except Exception as e:  # noqa: BLE001 - the game plays without it
            print("heap not held: %r" % e)
    from nimatron.machine.startup import Machine

    dog = arm_watchdog(mc)
    if data is None:
        data = host_data()
    linked = False
    step = None  # the host link's start, a step a pass once the host has spoken
    store = open_store(mc, state)
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
            print("nimatron: started %d ms after the watchdog was armed (it fires at %d ms)"
                  % (now, int(WATCHDOG_S * 1000)))
            margin = False
        if machine is None and now >= retry_at:
            try:
                machine = Machine(BOARD, read_settings(SETTINGS), store, now_ms=now,
                                  reset_reason=reset_reason(mc), make=make or fed_make(dog))
                print(json.dumps(machine.boot))
                margin = dog is not None and now < RETRY_MS  # said on the next turn of the loop
            except Exception as e:  # noqa: BLE001 - even the defaults fail (hardware?)
                print("nimatron cannot start: %r; trying again in %d s" % (e, RETRY_MS // 1000))
                retry_at = now + RETRY_MS
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
