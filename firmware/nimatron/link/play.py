# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The host link's game commands: STATE, EXPLAIN, NEW and PLAY (each as in
``nimatron.link.commands``, which lists them in ``HANDLERS``).

A module of its own so that no pass loads the link's commands whole: on a
board a module's load is a tick's work, and ``link.commands`` in one was
the dearest of them (the first pass of a host's first
command, ``code.load_link``). ``code.py`` loads this one first, in a pass of
its own."""

from .. import ascii_digits
from ..passes import collect_next
from .protocol import MAX_REPLY, CommandError, _shown, event_line


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
    return {
        "state": c.state,
        "turn": turn,
        "position": heaps,
        "ring": ring,
        "rules": c.rules.spec,
        "misere": c.misere,
        "difficulty": s["difficulty"],
        "preset": s["preset"],
        "winner": c.winner,
        "last_move": last,
        "lamps": rows,
        "status": status,
        "remote_play": s["remote_play"],
    }


def cmd_explain(link, args, text, now):
    _no_args(args, "EXPLAIN")
    c = link.controller
    position = c.position()
    if position is None:
        return {"position": None, "text": "no game in play"}
    heaps, ring = position
    if not c.rules.has_move(heaps, ring):
        return {"position": heaps, "ring": ring, "text": "game over: no move left"}
    link.load("games.explain")  # its words: loaded with the answer, they overran a stock MacroPad's pass
    if c.rules.teach and (c.misere or not c.rules.nim_sum):
        link.load("games.lesson")  # the rule set's lesson (games/lesson.py), in a pass of its own too
    if _table_words(c):
        link.load("games.tables")  # the nim-value the machine's play does not read (Moore's Nim)
    from ..games import explain

    result = solve(c, heaps, ring)
    out = {
        "position": heaps,
        "ring": ring,
        "rules": c.rules.spec,
        "misere": c.misere,
        "difficulty": c.settings["difficulty"],
        "outcome": result["outcome"],
        "after": result["after"],
        "nimber": result["nimber"],
        "move": explain.describe_move(
            heaps, result["after"], c.rules.ordered, ring, getattr(c.panel, "unlettered", None)
        ),
        "text": c.explain(heaps, ring, result),
    }  # its words from this search, not a second one
    if c.rules.nim_sum:
        x = 0
        for h in heaps:
            x ^= h
        out["nim_sum"] = x
        out["working"] = explain.nim_sum_lines(heaps, x)
    _drop_words(link)
    return out


def solve(c, heaps, ring):
    from ..games import strategy

    return strategy.solve(c.rules, heaps, c.misere, ring)


def cmd_new(link, args, text, now):
    _no_args(args, "NEW")
    link.operator("NEW")
    link.controller.new_game(now)
    return state(link, now)


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


# -- events: the EV lines of ``EVENTS ON`` ------------------------------------
def stream(link, event):
    """A game event's EV line, sent now or, for the machine's move while its
    words' module (``games.explain``, dear on a stock Pico's heap) is not
    loaded, held (with every event after it, in order) until ``word_held``
    has loaded it in a pass of its own. Kept loaded for the stream, it was
    the heap a board's searches lacked (the MacroPad's Moore's Nim below
    its goal)."""
    c = link.controller
    kind = event.get("event")
    ev = dict(event)
    ring = link._ring
    result = None
    if kind == "move" and event.get("by") == "machine":
        try:  # the search the machine's turn just finished (cached): never one of its own
            result = c.solution(event["before"], ring)
            if event.get("after") != result["after"]:
                ev["deliberate"] = c.settings["difficulty"]  # not the best move, on purpose
        except Exception as exc:  # MemoryError on a small board: the event goes without
            link.failure = exc
        if "why" in ev:
            result = None  # worded by the machine already (a preset that explains itself)
    if kind == "new_game" or (kind == "move" and event.get("by") == "visitor"):
        link._ring = bool(event.get("ring")) if kind == "new_game" else False
    if kind == "new_game":
        ev["preset"] = c.settings["preset"]
    item = (ev, ring, result)
    import sys

    if link.held or (result is not None and link.transport is not None and "nimatron.games.explain" not in sys.modules):
        link.held.append(item)
    else:
        link._send(_worded(link, item), False)


def word_held(link):
    """The held events' lines (``stream``), once their words' module is
    loaded: a collection first, then the load, each in a pass of its own
    (as ``HostLink.load`` loads a command's module). True once sent; with
    no room for the words, they go without them (``failure`` says why),
    never the link itself."""
    import sys

    worded = True
    want = "nimatron.games.explain"
    c = link.controller
    if want in sys.modules and c.rules.teach and (c.misere or not c.rules.nim_sum):
        want = "nimatron.games.lesson"  # the rule set's lesson, loaded after
    if want in sys.modules and _table_words(c):
        want = "nimatron.games.tables"  # the nim-value the machine's play does not read, loaded after
    if want not in sys.modules:
        if not link.wording:
            link.wording = True
            collect_next()  # first in the next pass; the load in the pass after it
            link.tidied = True
            return False
        link.wording = False
        try:
            __import__(want)  # this pass's work
            return False
        except MemoryError as exc:
            link.failure = exc
            worded = False
    held = link.held
    link.held = []
    for ev, ring, result in held:
        link._send(_worded(link, (ev, ring, result if worded else None)), False)
    if worded and link.step is None:  # a command under way (EXPLAIN) drops them itself
        _drop_words(link)
    return True


def _worded(link, item):
    ev, ring, result = item
    if result is not None:
        try:
            ev["why"] = link.controller.explain(ev["before"], ring, result)
        except Exception as exc:  # the move goes without its reasoning
            link.failure = exc
    line = event_line(ev)
    if len(line) > MAX_REPLY:
        ev.pop("why", None)
        line = event_line(ev)
    return line


def _drop_words(link):
    """``games.explain`` dropped again, but where the machine words its own
    moves (a preset that explains itself keeps it); the tables too where
    they were loaded for the words alone (``_table_words``)."""
    c = link.controller
    if not c.settings["explain"]:
        from .. import forget

        names = ["games.explain", "games.lesson"]
        if _table_words(c, True):
            names.append("games.tables")  # imported again when words next ask
        forget(names, collect=False)  # the next collection frees it: none in this pass


def _table_words(c, loaded=False):
    """True if the words' nim-value comes from a table the game in play
    does not read (``Controller.words_table``): not loaded, or, with
    ``loaded``, loaded now."""
    import sys

    return c.words_table() and ("nimatron.games.tables" in sys.modules) == loaded
