# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# SET over the host link, as a board's main loop polls it: each poll loads at
# most one firmware module, every module (the SET's own, a new rule set's and
# its class's, the tables its check reads) in a poll right after one that only
# collected (but a refusal's words, in its last poll); the presets file is read at most once
# a poll, never in a poll that loads a module or saves (the save compares
# with the preset as read, never resolves again); the modules of the rules
# left behind are dropped in a poll that does not collect, and the next one
# collects; the reply comes once the
# setting is applied and saved, and what was saved resolves back to it.
# Prints, per command, the polls it took and the modules each poll loaded;
# "ok" at the end.
# MICROPYPATH=<compiled tree> micropython run_set_passes.py BOARD PRESET "SET ..." ...
import gc
import sys

import nimatron
from fake_io import FakeIO, FakeWire
from nimatron.games.rules import REGISTRY
from nimatron.link.hostlink import HostLink
from nimatron.machine.app import make_controller
from nimatron.machine.startup import settings_diff

PRESETS = "config/presets.json"
counts = {"collect": 0, "presets": 0}


class CountingGC:
    """``gc`` as the firmware imports it (``import gc`` finds sys.modules
    first), counting collections."""

    def collect(self):
        counts["collect"] += 1
        gc.collect()

    def __getattr__(self, name):
        return getattr(gc, name)


real_resource = nimatron.resource


def resource(name):
    if name == PRESETS:
        counts["presets"] += 1
    return real_resource(name)


sys.modules["gc"] = CountingGC()
nimatron.resource = resource  # config.settings takes it at each import (a SET loads it again)


# What a SET loads before applying: its own modules and the new rules' module
# (the apply step's checks load what the games need: not counted here).
LOADS = ["nimatron.config.values", "nimatron.config.settings"] + [
    "nimatron.games." + line.split()[1] for line in REGISTRY
]


def steps(names):
    """Modules loaded in a poll, a rule set's module and the game modules it
    imports at its top (Graph Nim's nim2d) counted as one."""
    games = [n for n in names if n.startswith("nimatron.games.")]
    return len(names) - len(games) + (1 if games else 0)


def loaded():
    return [name for name in sys.modules if name.startswith("nimatron")]


saved = []


def save(settings, own=None):
    saved.append(settings_diff(settings, own) if own else settings_diff(settings))
    counts["saves"] = counts.get("saves", 0) + 1
    return True


board, preset = sys.argv[1], sys.argv[2]
c = make_controller(board, {"preset": preset}, FakeIO())
wire = FakeWire()
link = HostLink(c, wire, board=board, save=save)
now = 0
worst = 0
for command in sys.argv[3:]:
    wire.written = []
    wire.to_machine = command.encode() + b"\n"
    polls = []
    while not wire.lines() and len(polls) < 60:
        before = loaded()
        counts["collect"] = counts["presets"] = counts["saves"] = 0
        now += 20
        c.update(now)
        link.poll(now)
        now_in = loaded()
        polls.append(
            (
                [name for name in now_in if name not in before],
                counts["collect"],
                counts["presets"],
                counts["saves"],
                [name for name in before if name not in now_in and name.startswith("nimatron.games.")],
            )
        )
    assert wire.lines(), "no reply to %s after %d polls" % (command, len(polls))
    reply = wire.lines()[0].decode()
    most = max(steps(p[0]) for p in polls)
    worst = max(worst, most)
    print("%-26s %2d polls, modules a poll %s -> %s" % (command, len(polls), [p[0] for p in polls if p[0]], reply[:70]))
    assert most <= 1, "%s: a poll loaded %d modules: %s" % (command, most, polls)
    for i, (names, collected, reads, saves, dropped) in enumerate(polls):
        assert reads <= 1, "%s: poll %d read the presets file %d times" % (command, i, reads)
        assert not (reads and (names or saves)), "%s: poll %d read the presets file and loaded %s or saved" % (
            command,
            i,
            names,
        )
        refusal = i == len(polls) - 1 and reply.startswith("ERR")  # the words of a refusal: its last poll
        if dropped and not refusal:  # the rules left behind: their modules dropped in one poll, collected
            # first thing in the next (both in one poll: 59 ms of SET preset graph's pass on pico-grid)
            assert not collected, "%s: poll %d dropped %s and collected: %s" % (command, i, dropped, polls)
            assert i + 1 < len(polls) and polls[i + 1][1], "%s: %s dropped, not collected next poll: %s" % (
                command,
                dropped,
                polls,
            )
        for name in names:  # any module: one loaded inside a check's or a parse's poll was 51 ms (MacroPad)
            assert refusal or not collected and i and polls[i - 1][1] and not polls[i - 1][0], (
                "%s: %s loaded in poll %d, not after a poll that only collected: %s" % (command, name, i, polls)
            )
    key, value = command.split()[1:3]
    if reply.startswith("OK"):
        assert str(c.settings[key]) == value, (key, c.settings[key])
        assert saved, "%s: not saved" % command
        from nimatron.config.settings import resolve

        over = dict(saved[-1])
        again = resolve(over, over.pop("preset"))
        assert again == c.settings, "%s: saved %s, which resolves to %s, not %s" % (
            command,
            saved[-1],
            again,
            c.settings,
        )
        nimatron.forget(("config.settings", "config.values"))
    saved.clear()
print("ok", worst)
