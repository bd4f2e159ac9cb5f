# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The host link's commands: one function per command word.

Each takes ``(link, args, text, now)`` (the ``HostLink``, the words after
the command, the whole line, the time) and returns the reply's JSON object
(or None for a bare ``OK``); a CommandError becomes ``ERR code message``.
Kept apart from ``hostlink`` so each module compiles in a small heap.
"""

import json
import sys

from .. import __version__
from ..passes import busy, collect, collect_next, due, heap, own
from ..games.budget import Later
from .play import _no_args, cmd_explain, cmd_new, cmd_play, cmd_state
from .protocol import COMMANDS, MAX_REPLY, PIN_PAUSE_MAX_MS, PIN_PAUSE_MS, PIN_TRIES, PROTOCOL, CommandError, _shown


def cmd_hello(link, args, text, now):
    _no_args(args, "HELLO")
    out = {
        "name": "nimatron",
        "version": __version__,
        "protocol": PROTOCOL,
        "board": link.board,
        "preset": link.controller.settings["preset"],
        "input": link.controller.input_model,
    }
    if link.boot:
        out.update(link.boot)  # who the machine is, what it started with (nimatron.machine.startup)
    return out


def cmd_help(link, args, text, now):
    return {"commands": list(COMMANDS), "doc": "docs/protocol.md"}


def cmd_audits(link, args, text, now):
    _no_args(args, "AUDITS")
    out = link.controller.audits.snapshot()  # since service; "lifetime" never cleared
    out["started"] = out.pop("games")
    out["uptime_s"] = (now - link.started_ms) // 1000
    if link.dropped:
        out["events_dropped"] = link.dropped
    switches = getattr(link.controller, "switches", None)
    if switches is not None:
        switches.report(out)  # the menu, stuck buttons, Check Switch: counted in the line's length below
    while len(json.dumps(out)) > MAX_REPLY - 30:  # one reply line, whatever was counted
        if out["presets"]:
            out["presets"] = {}
            out["presets_cut"] = True
        elif "stuck" in out:  # left out, not empty: STATE has them
            del out["stuck"]
            del out["check_switch"]
        else:
            break
    return out


def cmd_config(link, args, text, now):
    settings = link.controller.settings
    if len(args) > 1:
        raise CommandError("syntax", "usage: CONFIG [KEY]")
    shown = {}
    for key in settings:
        shown[key] = settings[key]
    if shown.get("operator_pin"):
        shown["operator_pin"] = "****"  # never sent back, even unlocked
    if args:
        key = args[0]
        if key not in shown:
            raise CommandError("value", "unknown setting %s" % _shown(key))
        return {key: shown[key]}
    if len(json.dumps(shown)) > MAX_REPLY - 30:  # a long rotation: read on its own (CONFIG starts)
        del shown["starts"]
        shown["more"] = ["starts"]
    return shown


# Bytes one pass of a command may allocate: EXPLAIN's search a poll on
# Graph Nim, NEW's panel, a module's load up to twice its .mpy (3.6 KB
# at most: tests/test_link_loads.py). With less free before a command's pass,
# the garbage is collected in a pass of its own first (the machine's search
# does the same: ``turns.SEARCH_HEAP``): the collector the heap would start by
# itself inside that pass made EXPLAIN on Graph Nim and NEW overrun a pass.
# The size is the least that keeps that collection out of every command's pass
# on 64-bit MicroPython (tests/test_link_room.py), with one more command
# waiting a pass (``passes.busy``) to spare.
LINK_HEAP = 24 * 1024


def room(link, handled):
    """Before a command's pass: True if the command waits for the next poll.
    It waits once when this pass is busy already (a collection, a display's
    line, a lamp frame: ``nimatron.passes``), besides the pass of its own
    collection; when the heap has less than LINK_HEAP free it asks for one
    first in the next pass instead (after a command already handled in the
    poll, it leaves that to the next). After its collection it reads nothing
    (a reading walks the whole heap on a stock board).
    Never two collecting polls in a row; no collection of its own while the
    machine searches, nor where the interpreter cannot say what is free."""
    due()  # asked for, not made: no controller began a pass since (the link polled alone)
    if busy() and not link.waited:
        link.waited = not handled and not own()  # its own collection's pass is not its one wait
        return True
    link.waited = False
    if link.tidied:
        link.tidied = False
        return False
    figures = heap()  # read once a pass: the controller's reading serves (``nimatron.passes.heap``)
    if figures is None or figures[0] >= LINK_HEAP or link.controller.state == "thinking":
        return False
    if not handled:
        collect_next()  # first in the next pass (``passes.begin``), before anything allocates
        link.tidied = True
    return True


def cmd_set(link, args, text, now):
    """SET's steps are in ``link.setting``, loaded in a pass of its own and
    dropped after the reply: compiled from source with the other commands
    its text took the link's compile past what a board's heap holds."""
    link.load("link.setting")
    from .setting import set_steps

    return set_steps(link, args, text, now)


def pin_pause(failures):
    """How long UNLOCK waits after ``failures`` wrong PINs in a row (0: not at all)."""
    beyond = failures - PIN_TRIES
    if beyond < 0:
        return 0
    pause = PIN_PAUSE_MS << (beyond if beyond < 8 else 8)
    return pause if pause < PIN_PAUSE_MAX_MS else PIN_PAUSE_MAX_MS


def cmd_unlock(link, args, text, now):
    if len(args) != 1:
        raise CommandError("syntax", "usage: UNLOCK PIN")
    pin = link.controller.settings.get("operator_pin") or ""
    if not pin:
        link.unlocked = True
        return {"locked": False, "pin": False}
    if link.pin_pause_until is not None and now < link.pin_pause_until:
        raise CommandError("busy", "too many wrong PINs: wait %d s" % ((link.pin_pause_until - now + 999) // 1000))
    audits = link.controller.audits
    failing = audits.saving_fails()
    if failing:  # an uncounted wrong PIN would be a free guess after each restart: fail closed
        raise CommandError("busy", "saving fails (%s): UNLOCK waits" % _shown(failing, 80))
    if args[0] != pin:
        # Each wrong PIN past PIN_TRIES pauses UNLOCK twice as long as the
        # last, up to PIN_PAUSE_MAX_MS; only the right PIN starts afresh. The
        # count is in the audits record, written at once: a restart neither
        # forgets it nor cuts the pause short (``HostLink`` pauses from boot).
        audits.pin_failures += 1
        pause = pin_pause(audits.pin_failures)
        if pause:
            link.pin_pause_until = now + pause
            audits.count("pin_lockouts")
        audits.save(True)  # urgent: counted before the next is tried
        raise CommandError("denied", "wrong PIN")
    if audits.pin_failures:
        audits.pin_failures = 0
        audits.save()
    link.pin_pause_until = None
    link.unlocked = True
    return {"locked": False, "pin": True}


def cmd_lock(link, args, text, now):
    _no_args(args, "LOCK")
    link.unlocked = False
    return {"locked": True}


def cmd_events(link, args, text, now):
    if len(args) != 1 or args[0].upper() not in ("ON", "OFF"):
        raise CommandError("syntax", "usage: EVENTS ON|OFF")
    link.events = args[0].upper() == "ON"
    return {"events": link.events}


def cmd_memory(link, args, text, now):
    """The heap after a collection: what the board has left for the next
    search or command, and its largest free block (``probe``; null where
    the interpreter does not say). Polled
    (``link.stepping``), the collection is the first thing of the next pass
    (``passes.collect_next``) and the answer comes in the pass after that:
    on a stock MacroPad the collection and the answer (the modules' list)
    are each a good part of a pass, and in one pass they overran it; collected
    where the command was read, it met an allocation's own collection
    (a fresh pico-grid after ``SET preset grundy``). The figures are one reading of the heap
    (``passes.heap``: what is free, and the heap's total less that): each
    of ``gc.mem_free()`` and ``gc.mem_alloc()`` walks the whole heap
    on a stock board."""
    _no_args(args, "MEMORY")
    step = link.step
    if not link.stepping:
        collect()
        figures = heap()
        step = [text] if figures is None else [text, figures[0], figures[1] - figures[0]]
    elif step is None or step[0] != text:
        link.step = [text]
        collect_next(link.step)  # its figures appended there, read right after it
        link.tidied = True
        raise Later

    loaded = sorted([name[9:] for name in sys.modules if name[:9] == "nimatron."])
    out = {"free": None, "used": None, "block": None, "modules": loaded}  # type: dict
    if len(step) == 3:
        out["free"], out["used"] = step[1], step[2]
        out["block"] = probe(step[1])
    while loaded and len(json.dumps(out)) > MAX_REPLY - 30:  # a PC may hold every module
        out["more"] = out.get("more", 0) + 1
        loaded.pop()
    return out


def probe(free):
    """The largest block the heap could give now, never more than it could:
    interpreters say only what is free in all, and a long run's heap may have
    plenty free in holes too small for one record. Found by asking:
    allocations from ``free`` down, an eighth less each time, with the
    collector off so that one that fails costs a scan of the allocation table,
    not a collection; the first that succeeds is the answer (its bytes are
    garbage at the next collection). A lower bound: about an eighth under,
    and each try that fails leaves its exception's few bytes behind, which may
    land in the largest hole. At most about 60 tries."""
    import gc

    was = gc.isenabled()
    gc.disable()
    try:
        while free >= 16:
            try:
                bytearray(free)
                return free
            except MemoryError:
                free -= free >> 3 or 1
        return 0
    finally:
        if was:
            gc.enable()


HANDLERS = {
    "HELLO": cmd_hello,
    "HELP": cmd_help,
    "STATE": cmd_state,
    "EXPLAIN": cmd_explain,
    "AUDITS": cmd_audits,
    "CONFIG": cmd_config,
    "SET": cmd_set,
    "UNLOCK": cmd_unlock,
    "LOCK": cmd_lock,
    "NEW": cmd_new,
    "EVENTS": cmd_events,
    "PLAY": cmd_play,
    "MEMORY": cmd_memory,
}
