# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What code.py does once at power-on: the heap held whole, the first lamp
lit, the watchdog armed, the store opened, the settings file read, why the board started.

A module of its own so that code.py drops it once the machine is built
(``nimatron.forget``): code.py's own functions stay in the heap as long as
it runs, and these ran once.
It imports no hardware library: ``mc`` is ``microcontroller``, passed in.
"""

from .. import const

_MAX_SETTINGS = const(4096)  # bytes: a bigger settings file is refused, not parsed


def read_settings(path):
    """The settings file as a ``nimatron.machine.startup`` source; never raises."""
    from nimatron.machine.startup import read_source

    try:
        with open(path, "rb") as f:
            text = f.read(_MAX_SETTINGS + 1)
    except OSError:
        return read_source(None)
    except Exception as e:  # MemoryError, a damaged drive
        return None, "cannot read %s: %r" % (path, e), 0
    if len(text) > _MAX_SETTINGS:
        return None, "%s is bigger than %d bytes" % (path, _MAX_SETTINGS), 1
    return read_source(text)


def first_lamp(board, settings_path):
    """The first lamp, lit before the start compiles its modules
    (``nimatron.drivers.first_lamp``: seconds from ``.py``); its module
    leaves at once. The pixel lit, or None; never raises."""
    from nimatron import forget

    try:
        from nimatron.drivers.first_lamp import light

        return light(board, settings_path)
    except Exception:  # MemoryError compiling it: the start lights the lamps later
        return None
    finally:
        forget(("drivers.first_lamp",), collect=False)


def source(sup):
    """``sup`` (``supervisor``: anything with ``reload()``) where the board
    compiles this package from source (``.py`` on the drive), else None:
    there a rule change restarts the board (``startup.Machine.restart``).
    Not from ``.mpy`` (this module's own file says which), not frozen (no
    compile at all), never on CPython."""
    import sys

    import nimatron

    if sys.implementation.name == "cpython" or nimatron.frozen(getattr(nimatron, "__path__", None)):
        return None
    return sup if __file__[-3:] == ".py" else None


def reset_reason(mc):
    """Why the board started, in the audits' words (None: unknown)."""
    try:
        reason = mc.cpu.reset_reason
        names = mc.ResetReason
    except Exception:
        return None
    for attr, name in (
        ("POWER_ON", "power_on"),
        ("BROWNOUT", "power_on"),
        ("WATCHDOG", "watchdog"),
        ("SOFTWARE", "software"),
        ("RESET_PIN", "reset_pin"),
    ):
        if reason == getattr(names, attr, object()):
            return name
    return None


def arm_watchdog(mc, seconds):
    """The hardware watchdog in RESET mode (RAISE is not implemented on the
    RP2040), armed at every start: a reload or Ctrl-C disarms it."""
    try:
        from watchdog import WatchDogMode

        dog = mc.watchdog
        dog.timeout = seconds
        dog.mode = WatchDogMode.RESET
        dog.feed()
        return dog
    except Exception as e:  # a board without one still plays
        print("watchdog off: %r" % e)
        return None


def open_store(mc, path):
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


def host_data():
    """``usb_cdc.data``, the host link's channel; None if off or missing."""
    try:
        import usb_cdc

        return usb_cdc.data
    except Exception:  # ImportError: not a CircuitPython board
        return None


_HEAP_CHUNK = const(255)  # a filling tuple's items: 1,040 bytes, one allocation (hold_heap)
_HEAP_RUN = const(4)  # chunks in a row: an area's (a hole left in an old area is shorter)
_HEAP_TRIES = const(2000)  # pins tried at most: the first fill the holes code.py's compiling left
_HEAP_AREAS = const(16)  # areas pinned at most (code.py finds a Pico's heap grows by 4 to 6)


def heap_grows():
    """True on CircuitPython 9 and later, whose heap grows (and shrinks) in areas."""
    import sys

    impl = sys.implementation
    return impl.name == "circuitpython" and impl.version[0] >= 9


def hold_heap(gc, chunk=_HEAP_CHUNK, new=None, where=id, pin=None):
    """Grow the heap to its whole size once, and keep a pin of 32 bytes in
    each area it grew by. CircuitPython 9 grows its heap in areas and hands
    an area back as soon as a collection empties it; the next load then
    finds no room, collects again and grows again: two collections (each
    most of a pass on an RP2040) where one was asked for.

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
    others = [None] * _HEAP_TRIES  # pins that filled older holes first: dropped at the end
    pins = [None] * _HEAP_AREAS
    holes = [0] * _HEAP_AREAS  # where each area's first chunk was (0: pinned)
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
            if (i - start >= _HEAP_RUN or i == n) and areas < _HEAP_AREAS:
                holes[areas] = where(fill[start])
                fill[start] = None
                areas += 1
            start = i
    gc.collect()
    held = 0
    try:
        for t in range(_HEAP_TRIES):
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


def hold(gc):
    """``hold_heap`` where the heap grows, saying what it did; never raises
    (a MemoryError there once kept a MacroPad dark). Returns the pins or None."""
    if not heap_grows():
        return None
    try:
        pins = hold_heap(gc)
        print("nimatron: heap held whole, %d areas pinned" % len(pins))
        return pins
    except Exception as e:  # the game plays without it
        print("heap not held: %r" % e)
        return None
