# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The checks behind tests/mpy/run_protocol.py.

Imports nothing from nimatron at module level: on a 64K heap this module
compiles first, then the link, then the settings, each while the heap still
has room for the compiler.
"""

import gc

failures = []


def check(label, ok, detail=""):
    print("%s %s %s" % ("ok  " if ok else "FAIL", label, detail))
    if not ok:
        failures.append(label)


class FakeIO:
    def show(self, lamps, status):
        pass

    def events(self):
        return []

    def close(self):
        pass


# settings.resolve({"operator_pin": "1234", "remote_play": True}): the fake
# does not import the settings module (it does not fit beside the link here).
SETTINGS = {
    "preset": "nimatron",
    "rules": "nim",
    "misere": False,
    "starts": [[3, 4, 5, 7]],
    "layout": [7, 7, 7, 7],
    "difficulty": "perfect",
    "error_rate": 30,
    "first": "visitor",
    "think_ms": 1500,
    "show_ms": 1600,
    "over_ms": 15000,
    "walkaway_ms": 60000,
    "hint_ms": 8000,
    "refuse_ms": 500,
    "debounce_ms": 30,
    "explain": False,
    "seed": 1940,
    "remote_play": True,
    "operator_pin": "1234",
}


class FakeRules:
    spec = "nim"
    name = "nim"
    ordered = True

    def has_move(self, heaps, ring=False):
        return sum(heaps) > 0


class FakePanel:
    def __init__(self, heaps):
        self.heaps = list(heaps)

    def position(self):
        return list(self.heaps), False


class FakeAudits(dict):
    """The surface of nimatron.machine.audits.Audits the link uses."""

    pin_failures = 0

    def save(self, urgent=False):
        return False

    def saving_fails(self):
        return None

    def snapshot(self):
        return {"games": self["games"], "presets": {}}


class FakeController:
    """The surface of Controller the link uses: one row button takes one lamp,
    DONE ends the turn and the machine takes one lamp from the first row."""

    def __init__(self, settings):
        self.settings = settings
        self.listener = None
        self.rules = FakeRules()
        self.misere = settings["misere"]
        self.layout = [7, 7, 7, 7]
        self.input_model = "rows"
        self.state = "attract"
        self.panel = None
        self.winner = None
        self.last_move = None
        self.audits = FakeAudits(games=0)
        self.taken = False

    def apply_settings(self, settings):
        self.settings = settings

    def position(self):
        return self.panel.position() if self.panel else None

    def new_game(self, now):
        self.audits["games"] += 1
        self.panel = FakePanel(self.settings["starts"][0])
        self.state = "visitor"
        self.listener({"event": "new_game", "position": self.panel.heaps, "first": "visitor"})

    def press(self, role, now):
        if role == "new" or self.state == "attract":
            return self.new_game(now)
        heaps = self.panel.heaps
        if role[:3] == "row":
            r = int(role[3:])
            if heaps[r]:
                heaps[r] -= 1
                self.taken = True
            else:
                self.listener({"event": "refused", "reason": "row %s is empty" % "ABCDEFGH"[r]})
        elif role == "done" and self.taken:
            self.taken = False
            self.listener({"event": "move", "by": "visitor", "before": [], "after": list(heaps)})
            self.state = "thinking"

    def update(self, now):
        if self.state == "thinking":
            before = list(self.panel.heaps)
            for r in range(len(before)):
                if self.panel.heaps[r]:
                    self.panel.heaps[r] -= 1
                    break
            self.state = "visitor"
            self.listener({"event": "move", "by": "machine", "before": before, "after": list(self.panel.heaps)})

    def frame(self, now):
        lamps = [
            [1 if i < (self.panel.heaps[r] if self.panel else 0) else 0 for i in range(n)]
            for r, n in enumerate(self.layout)
        ]
        return lamps, {"visitor": 1, "machine": 0, "champ": 0, "machine_wins": 0}

    def explain(self, heaps=None, ring=None):
        return "the stand-in controller has no reasoning"


class Wire:
    """Both ends of a serial cable in memory; writes take a few bytes at a time."""

    def __init__(self):
        self.to_machine = b""
        self.to_host = b""
        self.connected = True

    def read(self, n):
        data = self.to_machine[:n]
        self.to_machine = self.to_machine[n:]
        return data

    def write(self, data):
        n = min(len(data), 64)  # a slow host: partial writes
        self.to_host += data[:n]
        return n

    def lines(self):
        from nimatron.link.protocol import parse_line

        out = self.to_host.split(b"\n")
        self.to_host = out.pop()
        return [parse_line(line) for line in out]


class Rng:
    def __init__(self, seed):
        self.state = seed

    def below(self, n):
        self.state = (self.state * 1103515245 + 12345) & 0x7FFFFFFF
        return (self.state >> 8) % n


def run(link, wire, controller, now, polls=60):  # a SET of starts: 40 passes and more (its collections first in a pass)
    for _ in range(polls):
        now += 10
        controller.update(now)
        link.poll(now)
    return now


def ask(link, wire, controller, now, line):
    wire.to_machine += line + b"\n"
    now = run(link, wire, controller, now)
    return now, wire.lines()


def make(real):
    gc.collect()
    if real:
        from nimatron.machine.app import make_controller

        return make_controller("pico-neopixel", {"operator_pin": "1234"}, io=FakeIO())
    return FakeController(dict(SETTINGS))


def main(real):
    from nimatron.link.hostlink import HostLink
    from nimatron.link.protocol import MAX_LINE

    wire = Wire()
    c = make(real)
    link = HostLink(c, wire, board="pico-neopixel")
    now = 0
    now, got = ask(link, wire, c, now, b"HELLO")
    check("hello", len(got) == 1 and got[0][0] == "OK" and got[0][1]["protocol"] == 1, repr(got))
    now, got = ask(link, wire, c, now, b"SET difficulty teach")
    check("set refused while locked", got == [("ERR", ("locked", got[0][1][1]))], repr(got))
    now, got = ask(link, wire, c, now, b"UNLOCK 1234")
    check("unlock", got[0][0] == "OK", repr(got))
    script = (b"NEW", b"STATE", b"AUDITS", b"CONFIG", b"CONFIG seed", b"EVENTS ON")
    if real:  # SET loads the settings module, EXPLAIN the engine: no room beside the fake
        script = (
            b"EXPLAIN",
            b"NEW",
            b"EXPLAIN",
            b"STATE",
            b"AUDITS",
            b"CONFIG",
            b"CONFIG seed",
            b"SET difficulty teach",
            b"SET starts [[1,2,3],[2,3,4]]",
            b"EVENTS ON",
            b"SET remote_play on",
        )
    events = []
    for cmd in script + (b"PLAY PRESS row0", b"PLAY PRESS done", b"HELP", b"LOCK"):
        now, got = ask(link, wire, c, now, cmd)
        kinds = [k for k, d in got]
        check(cmd.decode(), kinds.count("OK") == 1 and kinds.count("ERR") == 0, repr(kinds))
        events += [d for k, d in got if k == "EV"]
        gc.collect()
    now = run(link, wire, c, now, 400)  # the machine answers the visitor's move
    events += [d for k, d in wire.lines() if k == "EV"]
    moves = [e["by"] for e in events if e["event"] == "move"]
    check("events", moves == ["visitor", "machine"], repr(events)[:160])
    c.settings["remote_play"] = False  # from here on nothing may change the game
    link.failure = None  # (the fake mode's reasoning fails for want of room, on purpose)
    before = (c.state, c.position(), dict(c.settings))
    rng = Rng(1940)
    noise = [
        b"\xff\xfe\x00\x01" * 10,
        b"\xc3\x28 invalid utf-8\n",
        b"x" * (MAX_LINE * 3) + b"\n",
        b"SET difficulty perfect\n",
        b"UNLOCK 0000\n",
        b"NEW\n",
        b"PLAY PRESS row1\n",
        b"HEL",
    ]
    for i in range(len(noise) + 60):  # 60 random chunks, made one at a time (no list to grow)
        chunk = noise[i] if i < len(noise) else bytes([rng.below(256) for _ in range(rng.below(40))])
        wire.to_machine += chunk
        now = run(link, wire, c, now, 3)
        wire.to_host = b""  # a host reading as it goes: no growing buffer to fragment the heap
        gc.collect()
    now = run(link, wire, c, now, 200)
    wire.lines()
    wire.to_machine += b"\nHELLO\n"
    now = run(link, wire, c, now)
    got = wire.lines()
    check("hello after noise", got and got[-1][0] == "OK" and got[-1][1]["name"] == "nimatron", repr(got)[-100:])
    after = (c.state, c.position(), dict(c.settings))
    check("game and settings untouched", before == after, repr(after)[:100])
    check("no failure inside the link", link.failure is None, repr(link.failure))
    gc.collect()
    mem = getattr(gc, "mem_free", None)
    print("heap free: %s" % (mem() if mem else "?"))
    print("%d checks failed" % len(failures))
    return not failures
