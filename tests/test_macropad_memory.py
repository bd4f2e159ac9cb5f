# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The MacroPad keeps in its heap only what it plays (MicroPython, precompiled
as a board runs it): the stock board had 12.7 KB free in a game, and
``config.settings`` (5 KB of bytecode on the board) stayed resident after the
OLED's attract text read one preset's words from it."""

import gc
import json
import sys

import mpy_runner
import pytest
from kit_link import Machine


@pytest.fixture(scope="module")
def tree(firmware_tree):
    """The firmware compiled once a worker (conftest) for the module's
    MicroPython runs: each test compiled its own, nine compiles a run."""
    return firmware_tree


def test_the_oled_and_the_encoder_leave_no_module_behind(tree):
    out = mpy_runner.run("mpy/run_pad_memory.py", heap="256K", paths=(tree,))
    assert out.returncode == 0, out.stdout + out.stderr
    # resident afterwards: config.settings, games.explain (the binary words of Nimrod's presets)
    assert out.stdout.split("\n")[:3] == ["attract False False", "nim False False", "encoder False False"], out.stdout


def test_memory_collects_first_in_a_pass_and_answers_the_figures_of_that_collection_after_it(monkeypatch):
    """``MEMORY``'s collection and its answer shared one pass: 46-53 ms on a
    stock MacroPad (98 ms with the OLED's refresh), the instrument's own
    longest tick; collected in the pass that read it, it met an
    allocation's own collection (56 ms on a fresh pico-grid). Polled, it
    asks for a collection first thing in the next pass, and answers the pass
    after with the heap as that collection left it, whatever the passes
    since allocated."""
    machine = Machine("macropad")
    machine.run(200)
    heap = {"free": 30000, "collections": 0}

    def collect():
        heap["collections"] += 1
        heap["free"] = 41000

    monkeypatch.setattr(gc, "collect", collect)
    monkeypatch.setattr(gc, "mem_free", lambda: heap["free"], raising=False)
    monkeypatch.setattr(gc, "mem_alloc", lambda: 100000 - heap["free"], raising=False)
    link = machine.link
    machine.cable.to_machine += b"MEMORY\n"
    passes = []
    for _ in range(4):
        machine.now += 10
        link.poll(machine.now)  # polled alone: it makes the collection asked for as it starts
        passes.append((heap["collections"], machine.cable.to_host.count(b"\n")))
        heap["free"] = 39000  # the passes between allocate
    assert passes == [(0, 0), (1, 0), (1, 1), (1, 1)], passes
    kind, data = machine.cable.lines()[0]
    assert kind == "OK" and data["free"] == 41000 and data["used"] == 59000, data
    assert "link.commands" in data["modules"] or data.get("more"), data  # a PC may hold more than a reply lists


def test_explain_loads_its_words_in_a_pass_of_their_own(monkeypatch):
    """``EXPLAIN`` loaded ``games.explain`` (its words) in the pass that
    answered: 48 ms of a stock MacroPad's tick. Polled, the first pass asks
    for a collection, the next begins with it and does nothing more, the
    module loads in the third, the answer comes after. Plain Nim's lesson
    is its nim-sum: ``games.lesson`` (the other rule sets' rules, loaded the
    same way after the words) stays out of the heap, whose names a board
    keeps for good (it cost the link's SETs their margin at 150 KB:
    tests/test_set_peak.py)."""
    machine = Machine("macropad", remote_play=True)
    machine.run(200)
    machine.ok("PLAY PRESS done")
    machine.run(2000)
    assert machine.controller.state == "visitor"
    for name in ("explain", "lesson"):
        monkeypatch.delitem(sys.modules, "nimatron.games." + name, raising=False)
        monkeypatch.delattr(sys.modules["nimatron.games"], name, raising=False)
    machine.cable.to_machine += b"EXPLAIN\n"
    passes = []
    for _ in range(8):
        machine.now += 10
        machine.link.poll(machine.now)
        passes.append(
            (
                "nimatron.games.explain" in sys.modules,
                "nimatron.games.lesson" in sys.modules,
                machine.cable.to_host.count(b"\n"),
            )
        )
    assert passes == [
        (False, False, 0),
        (False, False, 0),
        (True, False, 0),
        (True, False, 1),
        (True, False, 1),
        (True, False, 1),
        (True, False, 1),
        (True, False, 1),
    ], passes
    kind, data = machine.cable.lines()[-1]
    assert kind == "OK" and data["move"] and data["text"], data


def test_a_command_out_of_memory_pass_after_pass_answers_busy_and_the_link_goes_on(monkeypatch):
    """A polled command that ran out of memory was retried once after the
    searches' caches were dropped; a SET's step drops the settings module
    it loaded, so the retry loaded it again and the next pass ran out again:
    under MicroPython (160 KB, a full heap) a SET went round 193 times with
    no reply, and every command after it waited behind it (the stock
    MacroPad's ``SET preset pad-graph``, no reply for 20 s, is the same
    kind). Now it answers ``ERR busy`` after a few passes, and the next
    command is answered."""
    from nimatron.games.budget import Later
    from nimatron.link import commands

    machine = Machine("macropad")
    machine.run(200)
    tries = []

    def short_of_memory(link, args, text, now):  # as cmd_set on a full heap: load, then run out
        tries.append(len(tries))
        if len(tries) % 2:
            raise Later
        raise MemoryError("memory allocation failed, allocating 4352 bytes")

    monkeypatch.setitem(commands.HANDLERS, "SET", short_of_memory)
    kind, data = machine.ask("SET difficulty teach")
    assert (kind, data[0]) == ("ERR", "busy") and len(tries) < 10, (kind, data, len(tries))
    assert machine.ok("CONFIG difficulty") == {"difficulty": "perfect"}
    tries.clear()
    kind, data = machine.ask("SET difficulty teach")  # each command starts its count afresh
    assert (kind, data[0]) == ("ERR", "busy") and 4 <= len(tries) < 10, (kind, data, len(tries))


def test_explain_leaves_its_words_behind_only_where_the_preset_shows_them(tree):
    """The host's ``EXPLAIN`` (the instrument sends one every game) left
    ``games.explain`` resident for good: 2.5 KB of ``.mpy`` on the stock
    MacroPad, where its least free heap was 29.3 KB (``pad-moore``). It now
    leaves after the answer, except on a preset that shows the binary words
    itself (``pad-nimrod``) or while events stream (they word the machine's
    next move with it: loaded again inside its turn, 10 ms more there)."""
    for preset, kept in (("pad-moore", False), ("pad-nim", False), ("pad-nimrod", True)):
        out = mpy_runner.run("mpy/run_pad_heap.py", heap="256K", paths=(tree,), args=(preset,))
        assert out.returncode == 0, out.stdout + out.stderr
        assert "explain %s" % kept in out.stdout.split("\n"), (preset, out.stdout)


def test_the_tables_reader_keeps_no_index_and_no_binomials(tree):
    """Moore's Nim reads its nim-values from ``tables.bin``: the reader kept
    the whole file's index (every table's name and place, parsed from JSON)
    and a table of binomials beside the one table in play, 6.2 KB under
    64-bit MicroPython (``pad-moore``, the MacroPad's lowest heap: 29.3 KB
    free). The index is now read at each table's load and dropped; the
    binomials are computed: 2.2 KB. (Moore's Nim no longer keeps the tables
    in play, tests/test_moore_words.py: the misère subtraction game does.)"""
    out = mpy_runner.run("mpy/run_pad_heap.py", heap="256K", paths=(tree,), args=("21counter",))
    assert out.returncode == 0, out.stdout + out.stderr
    kept = [int(line.split()[-1]) for line in out.stdout.split("\n") if line.startswith("tables kept")]
    assert kept and kept[0] < 4000, out.stdout


def test_a_board_without_a_cursor_keeps_none_of_it(tree):
    """The cursor (a lamp stepped to by one button, pressed by another: the
    Circuit Playground's) was part of ``drivers/presses.py``, resident on
    the MacroPad, which has a key under every lamp. It is
    ``drivers/cursor.py`` now, loaded where the pin map has a cursor: the
    MacroPad's presses keep 4960 -> 4288 bytes (64-bit MicroPython)."""
    out = mpy_runner.run("mpy/run_pad_memory.py", heap="256K", paths=(tree,))
    assert out.returncode == 0, out.stdout + out.stderr
    words = [line.split() for line in out.stdout.split("\n") if line.startswith("cursor")][0]
    assert words[1] == "False" and int(words[2]) < 4600 and words[3:] == ["True", "True"], out.stdout


def test_memory_answers_within_the_reply_limit_however_many_modules_are_resident(monkeypatch):
    """``MEMORY`` lists the firmware's resident modules: on a PC that holds
    many (the whole test suite's), the list is cut to fit the reply and says
    how many it left out, rather than ``ERR toolong``."""
    import sys
    import types

    from nimatron.link.protocol import MAX_REPLY

    machine = Machine("macropad")
    machine.run(200)
    for i in range(80):
        monkeypatch.setitem(sys.modules, "nimatron.games.spare_module_%02d" % i, types.ModuleType("spare"))
    machine.cable.to_machine += b"MEMORY\n"
    machine.run(100)
    ((kind, data),) = machine.cable.lines()
    assert kind == "OK" and data["more"] >= 1 and "config" in data["modules"], data
    count = len([m for m in sys.modules if m.startswith("nimatron.")])
    assert len(data["modules"]) + data["more"] == count
    assert len(json.dumps(data)) < MAX_REPLY


@pytest.mark.parametrize("spec", ["moore:2", "subtract:2", "greedy", "allheaps"])
def test_a_heap_game_keeps_only_its_own_rules_code(tree, spec):
    """``games/heaps.py`` held four rule sets (Subtract, Moore, Greedy,
    AllHeaps with Wythoff's pairs): 7.0 KB of a 64-bit MicroPython heap
    whichever one was played, 3.2 KB of ``.mpy`` on a stock MacroPad
    playing ``pad-moore`` or ``pad-subtract`` (its lowest heaps, 34.0 and
    35.1 KB free). Each is a module of its own now, handed out by the
    registry's ``heaps`` when asked for: 2.0-3.4 KB."""
    out = mpy_runner.run("mpy/run_rule_bytes.py", heap="256K", paths=(tree,), args=(spec,))
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert lines[2] == "spec " + spec, lines
    kept = int(lines[0].split()[1])
    assert kept < 4000, (spec, lines)
    others = {"subtract", "moore", "greedy", "allheaps"} - {spec.partition(":")[0]}
    assert not others & set(lines[1].split()[1:]), lines


def test_the_heap_games_lookup_refuses_a_name_it_does_not_hand_out():
    from nimatron.games import heaps, rules
    from nimatron.games.rules import RulesError

    with pytest.raises(AttributeError):
        heaps.Wythoff  # noqa: B018 - the lookup's refusal
    with pytest.raises(RulesError, match="No module named .nimatron.games.toy."), pytest.MonkeyPatch.context() as patch:
        patch.setattr(rules, "REGISTRY", rules.REGISTRY + ("toy heaps Toy",))  # its class's own module
        rules.rules_class("toy")


def test_the_macropads_driver_keeps_nothing_only_wired_boards_use(tree, tmp_path):
    """The MacroPad's driver (``onboard_io``) was built on ``circuitpython_io``,
    the wired Pico boards' whole driver: discrete LEDs, a row of buttons or a
    key matrix and the strip's own drawing, 4.0 KB of ``.mpy``, all resident
    on a stock MacroPad. What both use is ``strip_io`` now; the MacroPad's
    drive and heap go without the rest."""
    from nimatron.config import boards
    from nimatron_host import payload

    assert "circuitpython_io.py" not in payload.driver_files(boards.board("macropad"))
    assert {"circuitpython_io.py", "strip_io.py"} <= payload.driver_files(boards.board("pico-grid"))
    script = tmp_path / "onboard.py"
    script.write_text(
        "import sys\nimport nimatron.drivers.onboard_io\n"
        "print(' '.join(sorted(m[9:] for m in sys.modules if m[:17] == 'nimatron.drivers.')))\n"
    )
    import os
    import subprocess

    out = subprocess.run(
        [mpy_runner.micropython(), "-X", "heapsize=256K", str(script)],
        capture_output=True,
        text=True,
        env=dict(os.environ, MICROPYPATH=tree),
        timeout=60,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.split() == ["drivers.onboard_io", "drivers.presses", "drivers.strip_io"], out.stdout
