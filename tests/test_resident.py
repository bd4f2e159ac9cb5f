# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A playing board keeps in its heap only what the game in play needs.

Under MicroPython, precompiled as a board runs it (tests/mpy/run_resident.py):
the machine started as code.py starts it, the host link asked EVENTS ON,
SET, EXPLAIN on every turn and MEMORY, and a whole game of every preset of
each grid board played to its end. At every moment after the start, none of
these is resident:

- what only a start needs: its choice of settings (``machine.starting``),
  what builds the controller (``machine.app``), the store's read path
  (``machine.reading``) and the audits' (``machine.audits_load``), the pin map's checks and the
  power budget, the settings' checks (a SET brings them back and drops them
  again), the playable check;
- another rule set's module (``games.nim`` excepted: Bouton's nim-sum, which
  Candy, Building and the heap games build on): Graph Nim without 2-D Nim's;
- a panel the game does not show: Graph Nim without the ring's and Grundy's;
- the tables, for rules that read none; and after ``SET preset P`` on a
  fresh board, anything of the rule set it started with that P does not use.

Each was measured resident in the emulated Pico (docs/board.md, "How
these were measured"), 3-9 KB of heap apiece on CircuitPython 9.2.8.
"""

import mpy_runner
import pytest
from nimatron.config.settings import resolve
from nimatron.games.rules import REGISTRY, parse_rules, rules_class
from nimatron.machine.turns import plays_by_table

# What a running board never needs once started (each is imported again when asked for).
NEVER_IN_PLAY = (
    "machine.starting",
    "machine.app",
    "machine.reading",
    "machine.audits_load",
    "config.boards",
    "config.power",
    "config.settings",
    "config.values",
    "panels.playable",
    "games.registry",
    "games.anygraph",
    "link.pty",
    "machine.files",
    "machine.statefile",
    "machine.service",
    "machine.adjust",
    "machine.deployed",
    "machine.power_on",
)
# The panel module of each kind of panel a rule set asks for (``panels.make_panel``).
PANELS = {
    "cells": "panels.cells",
    "ring": "panels.circle",
    "splits": "panels.shapes",
    "tally": "panels.tally",
    "supply": "panels.supply",
    "heaps": None,
}
SHARED_GAMES = ("games.nim",)  # Bouton's nim-sum: the base of Candy, Building and the heap games


def _presets():
    from nimatron_sim.engine import playable_presets

    out = []
    for board in ("pico-grid", "pico-ring"):
        out.extend([(board, p) for p in playable_presets(board)])
    return out + [("macropad", "pad-moore")]


@pytest.fixture(scope="module")
def tree(firmware_tree):
    return firmware_tree  # compiled once a worker (conftest)


def forbidden(settings):
    """The modules a game of these settings must never keep resident."""
    rules = parse_rules(settings["rules"])
    own = "games." + type(rules).__module__.rsplit(".", 1)[1]
    line = ["games." + line.split()[1] for line in REGISTRY if line.split()[0] == rules.name]  # heaps: the lookup
    games = set(
        ["games." + line.split()[1] for line in REGISTRY]
        + ["games." + rules_class(line.split()[0]).__module__.rsplit(".", 1)[1] for line in REGISTRY]
    )
    games = games - {own} - set(line) - set(SHARED_GAMES)
    shown = "panels.counter" if settings.get("counter") else PANELS[rules.panel]
    panels = set([m for m in PANELS.values() if m] + ["panels.counter"]) - {shown}
    if not plays_by_table(rules, False) and not plays_by_table(rules, settings["misere"]):
        games.add("games.tables")  # none of these rules' moves reads one (Moore's Nim: its words, then dropped)
    if not settings["explain"]:
        games.add("games.explain")  # the machine's words: loaded for an answer or an event's line, then dropped
    return set(NEVER_IN_PLAY) | games | panels


@pytest.mark.parametrize("board,preset", _presets())
def test_a_playing_board_keeps_only_what_its_game_needs(tree, board, preset):
    moments = played(tree, board, preset)
    assert [m[0] for m in moments][:4] == ["start", "EVENTS/ON", "SET/on", "EXPLAIN/EXPLAIN"]
    check(moments, board, preset)


@pytest.mark.parametrize("chosen", ["graph", "nim2d", "grundy", "candy"])
def test_the_rules_a_set_left_leave_the_heap(tree, chosen):
    """A fresh pico-grid (its own preset: the heap games, with their tables)
    told ``SET preset P`` over the link: from then on only P's modules stay."""
    from nimatron.config import boards

    own = boards.board("pico-grid")["preset"]
    moments = played(tree, "pico-grid", own, chosen)
    assert [m[0] for m in moments][:4] == ["start", "EVENTS/ON", "SET/on", "SET/" + chosen]
    check(moments[:3], "pico-grid", own)  # its own game first
    check(moments[3:], "pico-grid", chosen)


def played(tree, board, preset, chosen=None):
    """The moments of run_resident.py, each [moment, module, ...]."""
    args = (board, preset) + ((chosen,) if chosen else ())
    out = mpy_runner.run("mpy/run_resident.py", heap="256K", paths=(tree,), args=args)
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[-1].startswith("winner ") and "winner None" not in lines[-1], lines[-1]  # a whole game
    assert lines[1].startswith("from file:"), lines[1]  # started with the preset asked for, not a fallback
    if chosen:
        assert [line for line in lines if line.startswith("reply OK")], "SET preset %s refused" % chosen
    moves = [line.split() for line in lines if line.startswith("machine moves ")][0]
    assert int(moves[2]) > 0 and moves[4] == moves[2], lines[-2]  # every move it streamed says why
    return [line.split() for line in lines if not line.startswith(("from ", "winner ", "reply ", "machine moves "))]


def check(moments, board, preset):
    """No moment has a module resident that a game of ``preset`` must not keep."""
    settings = resolve({}, preset)
    never = forbidden(settings)
    own = "games." + type(parse_rules(settings["rules"])).__module__.rsplit(".", 1)[1]
    for words in moments:
        loaded = set(words[1:])
        assert own in loaded and "machine.controller" in loaded, words[0]  # the listing is the board's own
        assert not loaded & never, "%s %s: resident after %s: %s" % (
            board,
            preset,
            words[0],
            " ".join(sorted(loaded & never)),
        )
