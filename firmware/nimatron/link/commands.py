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

from .. import __version__, ascii_digits
from ..games.budget import Later
from .protocol import COMMANDS, MAX_REPLY, PIN_PAUSE_MAX_MS, PIN_PAUSE_MS, PIN_TRIES, PROTOCOL, CommandError, _shown

def cmd_hello(link, args, text, now):
    _no_args(args, "HELLO")
    out = {"name": "nimatron", "version": __version__, "protocol": PROTOCOL,
           "board": link.board, "preset": link.controller.settings["preset"],
           "input": link.controller.input_model}
    if link.boot:
        out.update(link.boot)  # who the machine is, what it started with (nimatron.machine.startup)
    return out


def cmd_help(link, args, text, now):
    return {"commands": list(COMMANDS), "doc": "docs/protocol.md"}


def cmd_state(link, args, text, now):
    _no_args(args, "STATE")
    return state(link, now)


def state(link, now):
    c = link.controller
    position = c.position()
    heaps, ring = position if position else (None, False)
    turn = None
    if c.state == "visitor":
        turn = "visitor"
    elif c.state in ("thinking", "showing"):
        turn = "machine"
    lamps, status = c.frame(now)
    rows = []
    for row in lamps:
        rows.append("".join([str(s) for s in row]))
    last = None
    if c.last_move:
        last = {"by": c.last_move[0], "before": c.last_move[1], "after": c.last_move[2]}
    s = c.settings
    return {"state": c.state, "turn": turn, "position": heaps, "ring": ring,
            "rules": c.rules.spec, "misere": c.misere, "difficulty": s["difficulty"],
            "preset": s["preset"], "winner": c.winner, "last_move": last,
            "lamps": rows, "status": status, "remote_play": s["remote_play"]}


def cmd_explain(link, args, text, now):
    _no_args(args, "EXPLAIN")
    c = link.controller
    position = c.position()
    if position is None:
        return {"position": None, "text": "no game in play"}
    heaps, ring = position
    if not c.rules.has_move(heaps, ring):
        return {"position": heaps, "ring": ring, "text": "game over: no move left"}
    _alone(link, "games.explain")  # its words: loaded with the answer, 48 ms of a stock MacroPad's pass
    from ..games import explain

    result = solve(c, heaps, ring)
    out = {"position": heaps, "ring": ring, "rules": c.rules.spec, "misere": c.misere,
           "difficulty": c.settings["difficulty"], "outcome": result["outcome"],
           "after": result["after"], "nimber": result["nimber"],
           "move": explain.describe_move(heaps, result["after"], c.rules.ordered, ring,
                                         getattr(c.panel, "unlettered", None)),
           "text": c.explain(heaps, ring, result)}  # its words from this search, not a second one
    if c.rules.nim_sum:
        x = 0
        for h in heaps:
            x ^= h
        out["nim_sum"] = x
        out["working"] = explain.nim_sum_lines(heaps, x)
    if not c.settings["explain"] and not link.events:  # words only a preset that explains itself keeps
        # (2.5 KB on a stock MacroPad); streamed events word the machine's next move with them
        from .. import forget

        forget(("games.explain",), collect=False)  # the next collection frees it: none in the answering pass
    return out


def solve(c, heaps, ring):
    from ..games import strategy

    return strategy.solve(c.rules, heaps, c.misere, ring)


def cmd_audits(link, args, text, now):
    _no_args(args, "AUDITS")
    out = link.controller.audits.snapshot()  # since service; "lifetime" never cleared
    out["started"] = out.pop("games")
    out["uptime_s"] = (now - link.started_ms) // 1000
    if link.dropped:
        out["events_dropped"] = link.dropped
    while out["presets"] and len(json.dumps(out)) > MAX_REPLY - 30:
        out["presets"] = {}  # one reply line, whatever was counted
        out["presets_cut"] = True
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
    return shown


def _alone(link, name):
    """Load ``nimatron.<name>`` in a pass of its own when the link is polled
    (``link.stepping``): on a board a module's load is a tick's work (30-33
    ms on pico-grid, emulated). A collection (18-25 ms there) goes first, in
    a pass of its own too, as ``code.py`` loads the link's modules: one that
    fell inside the load's pass doubled it (EXPLAIN's words, loaded with no
    collection before them: 51-53 ms passes on pico-grid). A command's first
    step (EXPLAIN; SET loading ``link.setting``) starts ``link.step`` with
    the module it collected for (item 5, as ``setting.set_steps`` keeps it).
    Direct callers (tests, tools) get the whole command at once."""
    import sys

    if not link.stepping or "nimatron." + name in sys.modules:
        return
    step = link.step
    if step is None:
        step = link.step = [None, None, None, None, None, None, None]
    if step[5] != name:
        import gc

        step[5] = name
        gc.collect()
        raise Later
    __import__("nimatron." + name)
    raise Later


def cmd_set(link, args, text, now):
    """SET's steps are in ``link.setting``, loaded in a pass of its own and
    dropped after the reply: compiled from source with the other commands
    its 9 KB of text took the link's compile past 96 KB of heap."""
    _alone(link, "link.setting")
    from .setting import set_steps

    return set_steps(link, args, text, now)


def _pass(link):
    """End this pass here when polled; the command goes on next pass."""
    if link.stepping:
        raise Later


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


def cmd_new(link, args, text, now):
    _no_args(args, "NEW")
    link.operator("NEW")
    link.controller.new_game(now)
    return state(link, now)


def cmd_events(link, args, text, now):
    if len(args) != 1 or args[0].upper() not in ("ON", "OFF"):
        raise CommandError("syntax", "usage: EVENTS ON|OFF")
    link.events = args[0].upper() == "ON"
    return {"events": link.events}


def cmd_play(link, args, text, now):
    c = link.controller
    if len(args) < 2 or args[0].upper() != "PRESS":
        raise CommandError("syntax", "usage: PLAY PRESS row0|done|new|key R I")
    if not c.settings["remote_play"]:
        raise CommandError("denied", "remote play is off (SET remote_play on)")
    role = _role(c, args[1:])
    refused = []
    before = c.listener

    def catch(event):
        if event.get("event") == "refused":
            refused.append(event.get("reason"))
        if before is not None:
            before(event)

    c.listener = catch
    try:
        c.press(role, now)
    finally:
        c.listener = before
    out = state(link, now)
    out["pressed"] = role
    if refused:
        out["refused"] = refused[-1]
    return out


def cmd_memory(link, args, text, now):
    """The heap after a collection: what the board has left for the next
    search or command (null where the interpreter does not say). Polled
    (``link.stepping``), the collection has a pass of its own and the answer,
    its figures taken right after it, the next: on a stock MacroPad the
    collection is 19-30 ms and the answer (the modules' list) 15-20 ms, and
    in one pass they were 46-53 ms."""
    _no_args(args, "MEMORY")
    import gc

    step = link.step
    if step is None or step[0] != text:
        gc.collect()
        free = getattr(gc, "mem_free", None)
        used = getattr(gc, "mem_alloc", None)
        step = link.step = [text, free() if free else None, used() if used else None]
        _pass(link)
    import sys

    loaded = sorted([name[9:] for name in sys.modules if name[:9] == "nimatron."])
    out = {"free": step[1], "used": step[2], "modules": loaded}
    while loaded and len(json.dumps(out)) > MAX_REPLY - 30:  # a PC may hold every module
        out["more"] = out.get("more", 0) + 1
        loaded.pop()
    return out


def _role(c, words):
    name = words[0].lower()
    if name in ("done", "new") and len(words) == 1:
        return name
    if name == "key" and len(words) == 3 and c.input_model == "grid":
        r = _small_int(words[1])
        i = _small_int(words[2])
        if r is not None and i is not None and r < len(c.layout) and i < c.layout[r]:
            return "key %d %d" % (r, i)
        raise CommandError("value", "no key %s %s on this board" % (_shown(words[1]), _shown(words[2])))
    if name[:3] == "row" and len(words) == 1 and c.input_model == "rows":
        r = _small_int(name[3:])
        if r is not None and r < len(c.layout):
            return "row%d" % r
    what = "row0..row%d, done, new" % (len(c.layout) - 1)
    if c.input_model == "grid":
        what = "key R I, done, new"
    raise CommandError("value", "no button %s on this board (%s)" % (_shown(" ".join(words)), what))


def _no_args(args, verb):
    if args:
        raise CommandError("syntax", "%s takes no arguments" % verb)


def _small_int(text):
    if len(text) > 3 or not ascii_digits(text):
        return None
    return int(text)


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
