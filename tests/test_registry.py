# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""One registry of rule sets (``REGISTRY`` in games/rules.py), every list derived from it.

The list of rule sets was kept five times and the copies disagreed: the
operator menu offered 8, the page 10, the terminal 13, the engraved panel
knew 7 (and raised KeyError for the others), and a name missing from an
if-chain imported ``splits``. Now each line of the registry names a rule
set, its module and its class; the menus, ``nimatron tables``, ``nimatron
solve``'s help, the engraved how-to-play and the docs' table are derived
from it, and only the module of the rule set in play is imported.
"""

import os
import re
import subprocess
import sys

import pytest
from kit_recipe import changed_files, follow_recipe
from nimatron.config import boards
from nimatron.config.settings import PRESETS, changed
from nimatron.games import rules
from nimatron.games.registry import entries, menu_specs, usage
from nimatron.games.rules import REGISTRY, RulesError, parse_rules, rules_class
from nimatron.machine.deployed import choices as menu_choices

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIRMWARE = os.path.join(ROOT, "firmware")
NAMES = [entry[0] for entry in entries(REGISTRY)]


# -- the registry itself ------------------------------------------------------------


@pytest.mark.parametrize("name, module, cls, ks", entries(REGISTRY))
def test_each_line_names_the_module_and_class_of_its_rule_set(name, module, cls, ks):
    """The line's module hands out the class: its own (``nim``, ``splits``...),
    or a lookup that imports the class's module when asked (``heaps.Moore``
    is ``games/moore.py``'s: each heap game in a module of its own)."""
    import importlib

    found = rules_class(name)
    assert found.__name__ == cls and found.__module__.startswith("nimatron.games.")
    assert getattr(importlib.import_module("nimatron.games." + module), cls) is found
    assert found.name == name, "class %s calls itself %r: a spec must read back as %r" % (cls, found.name, name)
    assert bool(ks) == found.takes_k, "%s: list the K its menus offer exactly when it takes one" % name
    for spec in [s for s in menu_specs(REGISTRY) if s.partition(":")[0] == name]:
        assert parse_rules(spec).spec == spec


def test_names_are_listed_once_each():
    assert len(set(NAMES)) == len(NAMES)
    assert usage(REGISTRY) == ", ".join(n + (":K" if rules_class(n).takes_k else "") for n in NAMES)


@pytest.mark.parametrize("spec", ["toy", "Nim", "splits", "heaps", "subtract x", ""])
def test_an_unknown_name_is_refused_in_words_naming_every_rule_set(spec):
    with pytest.raises(RulesError) as refused:
        parse_rules(spec)
    assert str(refused.value) == "unknown rules %r (choose from %s)" % (spec.strip().partition(":")[0], usage(REGISTRY))


def test_a_line_naming_a_missing_module_or_class_says_which(monkeypatch):
    """The recipe's two slips: the module's file name, the class's name.
    (Before, any module the if-chain did not know imported ``splits`` and
    failed with AttributeError: module 'splits' has no attribute ...)"""
    monkeypatch.setattr(rules, "REGISTRY", rules.REGISTRY + ("toy toy Toy", "odd nim OddNim"))
    missing = r"^rules 'toy' are not on this board \(No module named 'nimatron.games.toy'\)$"
    with pytest.raises(RulesError, match=missing):
        parse_rules("toy")
    with pytest.raises(RulesError, match=r"^rules 'odd': games/nim.py has no class OddNim "):
        parse_rules("odd")


LOADED = """
import sys
import nimatron.games.rules as rules
before = [m for m in sys.modules if m.startswith("nimatron.games.")]
if sys.argv[1] == "rules":
    rules.parse_rules(sys.argv[2])
else:
    __import__("nimatron.games." + sys.argv[2])
loaded = [m[15:] for m in sys.modules if m.startswith("nimatron.games.")]
loaded.sort()
print(" ".join([m for m in before if m != "nimatron.games.rules"]) + "|" + " ".join(loaded))
"""


def micropython():
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    return exe if os.path.exists(exe) else None


@pytest.mark.parametrize("interpreter", ["cpython", "micropython"])
def test_only_the_chosen_rule_sets_module_is_imported(interpreter, tmp_path):
    """Reading the registry imports nothing; choosing a rule set imports its
    module (and what that module imports itself), as on a board."""
    script = tmp_path / "loaded.py"
    script.write_text(LOADED)
    if interpreter == "cpython":
        command, env = [sys.executable, str(script)], dict(os.environ, PYTHONPATH=FIRMWARE)
    else:
        if micropython() is None:
            pytest.skip("no micropython (its wheel is for x86-64 Linux only)")
        command, env = [micropython(), "-X", "heapsize=256K", str(script)], dict(os.environ, MICROPYPATH=FIRMWARE)

    def loaded(how, what):
        done = subprocess.run(command + [how, what], capture_output=True, text=True, env=env, timeout=120)
        assert done.returncode == 0, done.stdout + done.stderr
        before, after = done.stdout.strip().split("|")
        assert before == "", "reading the registry imported %s" % before
        return after.split()

    for name, module, _cls, ks in entries(REGISTRY):
        spec = "%s:%d" % (name, ks[0]) if ks else name
        own = rules_class(name).__module__[15:]  # the line's module, or the one it hands the class out from
        assert loaded("rules", spec) == sorted(set(loaded("module", module)) | {own}), spec


# -- every list derived ------------------------------------------------------------------


def test_nimatron_tables_builds_a_table_for_each_rule_set_that_names_one():
    from nimatron_host.tables import specs

    built = specs()
    assert len(set(built)) == len(built)
    for name in NAMES:
        cls = rules_class(name)
        for k in range(1, 8) if cls.takes_k else [None]:
            try:
                r = parse_rules(name if k is None else "%s:%d" % (name, k))
            except RulesError:
                continue
            for misere in (False, True):
                if r.table_spec(misere) is not None:  # the table it reads is built
                    assert (r.table_spec(misere), misere) in built, (r.spec, misere)


def test_nimatron_solve_names_every_rule_set(capsys):
    from nimatron_host.cli import main

    with pytest.raises(SystemExit):
        main(["solve", "--help"])
    assert usage(REGISTRY) in " ".join(capsys.readouterr().out.split())


def test_the_docs_table_lists_every_rule_set_in_registry_order():
    with open(os.path.join(ROOT, "docs", "engine.md"), encoding="utf-8") as f:
        text = f.read()
    listed = re.findall(r"^\| `([a-z0-9]+(?::K)?)` \|", text, re.M)
    assert ", ".join(listed) == usage(REGISTRY), "docs/engine.md's table: add or reorder its rows as REGISTRY"


# -- every menu offers every rule set the board plays ------------------------------------
#
# What a menu should offer is found the way its own Apply would find it:
# the page and the terminal build a new simulated machine with the rules
# chosen (``Simulator``: make_controller on mocked pins, the preset's starts
# or else the first of its ``starts_for`` that fits); the operator menu saves the rules into the
# running machine's settings (``apply_settings``, the preset's starts).


@pytest.fixture(scope="module")
def plays():
    """board -> the registry's rule sets a new machine on it plays (as Apply builds it)."""
    from nimatron_sim.engine import Simulator

    out = {}
    for board in boards.names():
        out[board] = []
        for spec in menu_specs(REGISTRY):
            try:
                Simulator(board, {"rules": spec}).close()
            except ValueError:
                continue
            out[board].append(spec)
    return out


def test_every_board_plays_something_and_some_board_plays_each_rule_set(plays):
    assert all(plays.values())
    offered_somewhere = {s.partition(":")[0] for specs in plays.values() for s in specs}
    assert offered_somewhere == set(NAMES)  # Building Nim too: its own starts_for (the stones in the last row)


def test_the_page_offers_every_rule_set_each_board_plays(plays):
    from devtools import Served, call

    with Served("pico-neopixel", {}) as served:
        status, config = call(served.url + "/api/config")
        assert status == 200 and config["rules"] == plays
        mine = {}
        for spec in menu_specs(REGISTRY):  # and Apply agrees on the server's board
            status, state = call(served.url + "/api/machines", dict(mine, rules=spec))
            assert status in (201, 400) and (status == 201) == (spec in plays["pico-neopixel"]), (spec, state)
            if status == 201:
                mine = {"replaces": state["machine"]}


def test_the_pages_settings_follow_the_board_chosen(plays):
    """The page lists the rule sets of the board chosen in its own Board field."""
    from devtools import CHROMIUM, Chromium, Served

    if CHROMIUM is None:
        pytest.skip("needs Debian's chromium package (apt-get install -y chromium)")
    options = "[...document.querySelector('#settings select[name=rules]').options].map(o => o.value).filter(v => v)"
    with Served("pico-neopixel", {}) as served, Chromium() as browser:
        tab = browser.open(served.url + "/")
        tab.wait("document.body.dataset.ready")
        assert tab.eval(options) == plays["pico-neopixel"]
        for board in boards.names():
            tab.eval(
                "(b => { b.value = %r; b.dispatchEvent(new Event('change')); return 1; })"
                "(document.querySelector('#settings select[name=board]'))" % board
            )
            assert tab.eval(options) == plays[board], board


def test_the_terminal_offers_every_rule_set_each_board_plays(plays):
    from kit_tui import SIZE, make_app, run
    from textual.widgets import Select
    from textual.widgets.select import InvalidSelectValueError

    app = make_app()
    offered = {}

    async def look():
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("s")
            screen = app.screen
            assert type(screen).__name__ == "SettingsScreen"
            for board in boards.names():
                screen.query_one("#set-board", Select).value = board
                await pilot.pause()
                rules = screen.query_one("#set-rules", Select)
                offered[board] = []
                for spec in menu_specs(REGISTRY):
                    try:
                        rules.value = spec
                    except InvalidSelectValueError:
                        continue
                    offered[board].append(spec)

    run(look())
    assert offered == plays


@pytest.mark.parametrize("board", boards.names())
def test_the_operator_menu_offers_every_rule_set_the_board_plays(board):
    from nimatron_sim.engine import Simulator

    with Simulator(board) as sim:
        c = sim.controller
        own = c.settings
        saves = []
        for spec in menu_specs(REGISTRY):
            try:
                c.apply_settings(changed(own, "rules", spec))
            except ValueError:
                continue
            saves.append(spec)
            c.apply_settings(own)
        c.service(True, sim.now, by="link")
        assert menu_choices(c.menu, "rules") == saves
        assert own["rules"] in saves


# -- the engraved how-to-play: every preset on every board, in every language -------------


@pytest.mark.parametrize("lang", ["en", "es", "ru"])
def test_every_preset_is_engraved_on_every_board_in_every_language(lang):
    """``nimatron hardware`` engraves the board's preset's how-to-play: any
    preset, its rule set's own sentence, from the faces' words. (It raised
    KeyError for candy, nim2d, building and graph.)"""
    from nimatron_host.hardware import panel
    from nimatron_sim.words import Words

    words = Words(lang)
    drawn = set()
    for board, preset in [(b, p) for b in boards.names() for p in sorted(PRESETS)]:
        spec = dict(boards.board(board), preset=preset)
        steps = panel.how_to_play(spec, lang)
        r = parse_rules(PRESETS[preset]["rules"])
        assert len(steps) == 4 and all(steps), (board, preset)
        assert words.phrase(r.about) in steps[1] and words.phrase(r.last_move) in steps[1], (board, preset)
        if lang != "en":
            assert words.phrase(r.about) != r.about, "%s: %r has no %s words" % (preset, r.about, lang)
        if spec["driver"] != "onboard" and (board, r.spec) not in drawn:  # a built-in board is its own panel
            drawn.add((board, r.spec))
            panel.draw(board, spec, lang)


# -- the contributor's recipe, followed as written -------------------------------------

PACKAGES = ("firmware/nimatron", "simulator/nimatron_sim", "host/nimatron_host", "host/nimatron_pc")

TOY = """
import json, sys
import nimatron
from nimatron.config import boards
from nimatron.games.rules import parse_rules
from nimatron.machine.deployed import choices as menu_choices
from nimatron_sim.engine import Simulator
from nimatron_sim.tui import SettingsScreen
from nimatron_sim.web.machines import Machines
from nimatron_sim.web.server import NimatronServer
from nimatron_sim.words import Words
from nimatron_host.hardware import panel

name = sys.argv[1]
out = {"package": nimatron.__file__, "operator": {}, "page": {}, "terminal": {}, "engraved": {}}
for board in boards.names():
    with Simulator(board) as sim:
        sim.controller.service(True, sim.now, by="link")
        out["operator"][board] = menu_choices(sim.controller.menu, "rules")
    out["terminal"][board] = [v for _, v in SettingsScreen("pico-grid", {}, words=Words("en")).rules_for(board) if v]
    for lang in ("en", "es", "ru"):
        out["engraved"].setdefault(lang, {})[board] = panel.how_to_play(boards.board(board), lang, {"rules": name})[1]
        if boards.board(board)["driver"] != "onboard":
            panel.draw(board, boards.board(board), lang)
server = NimatronServer(("127.0.0.1", 0), Machines("pico-neopixel", {}))
try:
    out["page"] = server.config()["rules"]
finally:
    server.server_close()
    server.machines.close()
out["about"] = dict((lang, Words(lang).phrase(parse_rules(name).about)) for lang in ("en", "es", "ru"))
print(json.dumps(out))
"""


def test_the_recipe_adds_a_rule_set_to_every_menu_and_panel_touching_nothing_else(tmp_path, plays):
    import json
    import shutil

    for package in PACKAGES:
        shutil.copytree(os.path.join(ROOT, package), tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    touched = follow_recipe(tmp_path)
    changed = []
    for package in PACKAGES:
        changed += [os.path.join(package, f) for f in changed_files(os.path.join(ROOT, package), tmp_path / package)]
    assert sorted(changed) == sorted(touched)  # one module, one registry line, the words

    path = os.pathsep.join(str(tmp_path / p) for p in ("firmware", "simulator", "host"))
    done = subprocess.run(
        [sys.executable, "-c", TOY, "odd"],
        capture_output=True,
        text=True,
        timeout=600,
        env=dict(os.environ, PYTHONPATH=path),
        cwd=str(tmp_path),
    )
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout)
    assert found["package"].startswith(str(tmp_path))
    for board in boards.names():  # a one_row rule set of heaps: every board plays it, listed last as its line
        assert found["page"][board] == found["terminal"][board] == plays[board] + ["odd"], board
        assert found["operator"][board][-1] == "odd", board
    for lang, about in found["about"].items():
        assert about != "take an odd number from one heap"  # the screens' word, row, in every language
        for board, line in found["engraved"][lang].items():
            assert about in line, (lang, board, line)
