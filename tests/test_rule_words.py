# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A rule set says its own words; nobody else tests its flags or its name.

- A source scan: outside ``firmware/nimatron/games`` no code compares a rule
  set's ``panel``, ``carries`` or ``reasoning`` with a value, nor anything
  made of a rule set's spec or name with a rule set's name (``rules.panel ==
  "supply"``, ``self.rules == "nim"``, ``spec.split(":")[0] in ("nim2d",
  "graph")``): what a rule set is, it says by a method or attribute of its
  own class (``position_words``, a panel's ``rows_words``, Building's
  ``with_stones``, Candy's ``candies``).
- A sweep over every registered rule set and several positions of each:
  ``nimatron solve``, ``nimatron demo``, ``nimatron monitor``, the OLED, the
  web pages' log and the terminal face put the same position into the same
  words, the rule set's own ``position_words`` (English, the board's
  language); in es and ru the terminal face shows those words through the
  phrase table of ``lang/*.json``, every word of them translated.
"""

import ast
import io
import json
import os
import re
from types import SimpleNamespace

import pytest
from nimatron.drivers import oled
from nimatron.games import explain
from nimatron.games.registry import entries
from nimatron.games.rules import REGISTRY, parse_rules, rules_class
from nimatron_host import cli
from nimatron_host.monitor import Printer
from nimatron_sim.face import Face
from nimatron_sim.web.machines import event_record
from nimatron_sim.words import Words, languages

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SCANNED = ("firmware", "host", "simulator")
OWN = os.path.join("firmware", "nimatron", "games") + os.sep  # where rule sets live: they may test themselves
FLAGS = ("panel", "carries", "reasoning")  # what a rule set says of itself, never compared outside it
SAYS_RULES = re.compile(r"\b(rules|spec|name)\b")  # an expression made of a rule set's spec or name
PRESETS = os.path.join(ROOT, "firmware", "nimatron", "config", "presets.json")

RULES = [name for name, _, _, _ in entries(REGISTRY)]  # every registered rule set


# -- the scan ---------------------------------------------------------------------------------
def _strings(node):
    """The string constants a comparison operand is, or holds (a tuple, list or set of them)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        return [e.value for e in node.elts if isinstance(e, ast.Constant) and isinstance(e.value, str)]
    return []


def flag_tests(source, filename="<planted>"):
    """(line, text) of each comparison of a rule set's flag or name in ``source``."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Compare):
            continue
        if not all(isinstance(op, (ast.Eq, ast.NotEq, ast.In, ast.NotIn)) for op in node.ops):
            continue
        operands = [node.left] + list(node.comparators)
        constants = [s for o in operands for s in _strings(o)]
        flagged = any(isinstance(o, ast.Attribute) and o.attr in FLAGS for o in operands) and constants
        named = [s for s in constants if s.split(":")[0] in RULES] and any(
            SAYS_RULES.search(ast.unparse(o)) for o in operands if not _strings(o)
        )
        if flagged or named:
            found.append((node.lineno, ast.unparse(node)))
    return found


def scanned_files():
    for top in SCANNED:
        for folder, dirs, files in os.walk(os.path.join(ROOT, top)):
            dirs[:] = [d for d in dirs if d not in ("__pycache__", "node_modules")]
            for name in sorted(files):
                path = os.path.relpath(os.path.join(folder, name), ROOT)
                if name.endswith(".py") and not path.startswith(OWN):
                    yield path


@pytest.mark.parametrize(
    "planted",
    [
        'if rules.panel == "supply": pass',
        'if self.face.controller.rules.panel == "tally": pass',
        'x = controller.rules.panel != "cells"',
        'if rules.carries == "stones": pass',
        'if "candies" == rules.carries: pass',
        'if rules.reasoning in ("building", "nim"): pass',
        'if rules.name == "subtract" and not misere: pass',
        'if self.rules == "nim": pass',
        'ordered = self.rules.split(":")[0] not in ("grundy", "circular")',
        'if args.rules.strip().split(":")[0] in ("nim2d", "graph"): pass',
        'if str(request.get("rules")).split(":")[0] != "graph": pass',
        'if rules.spec == "subtract:3": pass',
        'if spec.split(":")[0] in ("nim2d", "graph"): pass',
        'if name == "candy": pass',
    ],
)
def test_the_scan_finds_each_form_of_a_flag_or_name_test(planted):
    assert flag_tests(planted), planted


@pytest.mark.parametrize(
    "innocent",
    [
        "if controller.panel is None: pass",  # the panel object, not the rule set's flag
        'if out["kind"] == "nim": pass',  # Nimrod's table kind, not a rule set
        'if sys.implementation.name != "cpython": pass',  # a name, but not of a rule set
        'if state == "visitor": pass',
    ],
)
def test_the_scan_leaves_other_comparisons_alone(innocent):
    assert not flag_tests(innocent), innocent


def test_no_flag_or_name_test_outside_the_rule_sets():
    found = []
    for path in scanned_files():
        with open(os.path.join(ROOT, path), encoding="utf-8") as f:
            for line, text in flag_tests(f.read(), path):
                found.append("%s:%d: %s" % (path, line, text))
    assert not found, (
        "a rule set's flag or name compared outside its class (ask it by a method instead):\n" + "\n".join(found)
    )


# -- the sweep ------------------------------------------------------------------------------
def _presets():
    with open(PRESETS, encoding="utf-8") as f:
        return json.load(f)


# a start for a rule set no preset plays, by the lamps it asks for (a preset is optional)
ANY_START = {
    "heaps": [3, 4, 5],
    "ring": [8],
    "splits": [7],
    "cells": [[1, 1, 0], [0, 1, 1]],
    "supply": [0, 0, 0, 5],
    "tally": [2, 3, 4],
}


def _starts(name):
    """(spec, starts): the preset named after rule set ``name``, else the first
    that plays it, else one start for the lamps it asks for."""
    presets = [
        (key, p)
        for key, p in _presets().items()
        if isinstance(p, dict) and str(p.get("rules", "")).split(":")[0] == name
    ]
    presets.sort(key=lambda item: item[0] != name)
    if presets:
        return presets[0][1]["rules"], presets[0][1]["starts"]
    cls = rules_class(name)
    spec = name if not cls.takes_k or cls.default_k else name + ":3"
    return spec, [ANY_START[parse_rules(spec).panel]]


def _positions(name):
    """Several positions of a rule set: its first two starts, and the position
    the middle move of each leaves (neither the first nor the last move the
    rule set generates)."""
    spec, starts = _starts(name)
    rules = parse_rules(spec)
    out = []
    for start in starts[:2]:
        position, ring = rules.check(start), rules.has_ring  # a circle's start is a circle
        out.append((position, ring))
        moves = list(rules.moves(position, ring))
        if moves:
            out.append((moves[len(moves) // 2], False))
    unique = []
    for case in out:
        if case not in unique:
            unique.append(case)
    return spec, unique


CASES = [
    (spec, position, ring) for name in RULES for spec, positions in [_positions(name)] for position, ring in positions
]


def _ids(case):
    return "%s-%s%s" % (case[0], json.dumps(case[1]).replace(" ", ""), "-ring" if case[2] else "")


def _argv(rules, position, ring):
    """The position as ``nimatron solve`` and ``demo`` read it, from what the rule set says it reads."""
    heaps, extra = position, []
    if getattr(rules, "with_stones", None) is not None:  # Building Nim: the stones as --stones
        heaps, extra = position[:-1], ["--stones", str(position[-1])]
    words = ["".join(str(x) for x in h) if isinstance(h, list) else str(h) for h in heaps]
    return ["--rules", rules.spec] + (["--ring"] if ring else []) + extra + words


def _run(capsys, argv):
    code = cli.main(argv)
    out, err = capsys.readouterr()
    assert code == 0, err
    return out


@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_solve_demo_monitor_and_oled_say_the_rule_sets_words(case, capsys):
    spec, position, ring = case
    rules = parse_rules(spec)
    words = rules.position_words(position, ring)
    # solve: the position, then what the move leaves
    out = _run(capsys, ["solve"] + _argv(rules, position, ring))
    assert out.splitlines()[0].endswith(": " + words), out
    answer = json.loads(_run(capsys, ["solve", "--json"] + _argv(rules, position, ring)))
    if answer["after"] is not None:
        after = answer["after"] + ([answer["stones"]] if "stones" in answer else [])
        assert explain.move_leaving(position, after, rules.position_words(after), rules.ordered, ring) in out, out
    # demo: the start, then each position a move leaves, each one reachable from the one before
    if not ring:  # demo plays from heaps, never a circle
        lines = _run(capsys, ["demo", "--seed", "3"] + _argv(rules, position, ring)).splitlines()
        assert lines[1] == "Start: " + words
        before = position
        for line in lines:
            m = re.match(r"^(Visitor|Machine): .* -> (.*?)(  \(.*\))?$", line)
            if m:
                said = m.group(2)
                reached = [after for after in rules.moves(before) if rules.position_words(after) == said]
                assert reached, "demo said %r, which no move from %r leaves" % (said, before)
                before = reached[0]
    # monitor: a game starting here, and a move from here
    log = io.StringIO()
    printer = Printer(log)
    printer.event({"event": "new_game", "rules": spec, "position": position, "ring": ring, "misere": False})
    after = next(iter(rules.moves(position, ring)), None)
    if after is not None:
        printer.event({"event": "move", "by": "visitor", "before": position, "after": after})
    said = log.getvalue().splitlines()
    assert "New game: %s  (" % words in said[1]
    if after is not None:
        assert said[2].endswith("  ->  " + rules.position_words(after)), said
    # the web pages' log: a new game carries the words the page translates
    game = {"event": "new_game", "rules": spec, "position": position, "ring": ring, "misere": False}
    assert event_record(game, rules)["words"] == words
    # the OLED: the position's lines are the words, wrapped to the screen
    controller = SimpleNamespace(
        state="visitor",
        settings={"explain": False, "preset": "nim"},
        rules=rules,
        misere=False,
        winner=None,
        position=lambda: (position, ring),
    )
    assert oled.lines(controller)[2 : 2 + len(oled._wrap(words, 2))] == oled._wrap(words, 2)


@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("case", CASES, ids=_ids)
def test_the_terminal_face_says_the_same_words_in_each_language(case, lang):
    """A real game on the simulated pico-grid from the position, the machine
    first: the log names the start and what the machine's move leaves in the
    rule set's words through the phrase table (in es and ru every word of them
    translated)."""
    spec, position, _ = case
    rules = parse_rules(spec)
    words = Words(lang)
    start = [
        sum(x << c for c, x in enumerate(row)) if isinstance(row, list) else row for row in position
    ]  # a settings file gives lamps as row bitmasks
    face = Face(
        "pico-grid", {"rules": spec, "starts": [start], "first": "machine", "think_ms": 0, "show_ms": 0}, 1, lang=lang
    )
    seen = []
    face.sim.listeners.append(seen.append)
    try:
        face.tap("new")
        face.advance(3000)
        log = [text for _, text in face.log]
    finally:
        face.close()
    game = [e for e in seen if e.get("event") == "new_game"][-1]
    said = [rules.position_words(game["position"], game["ring"])]
    said += [rules.position_words(e["after"]) for e in seen if e.get("event") == "move"][:1]
    assert len(said) == 2, seen
    for english in said:
        shown = words.phrase(english)
        if lang != "en" and re.search("[a-z]", english):
            assert shown != english, "%s.json has no phrase for %r" % (lang, english)
        assert any(shown in line for line in log), (shown, log)


def test_every_rule_set_is_swept():
    assert sorted({parse_rules(spec).name for spec, _, _ in CASES}) == sorted(RULES)


@pytest.mark.parametrize("lang", languages())
@pytest.mark.parametrize("name", sorted(RULES))
def test_the_rows_that_are_not_heaps_are_said_by_the_panel_in_each_language(name, lang):
    """The legend's lines for rows beyond the heaps (Candy Nim's tallies, Building
    Nim's supply) come from the panel, before a game and during one, translated."""
    spec, starts = _starts(name)
    face = Face("pico-grid", {"rules": spec, "starts": starts[:1], "think_ms": 0, "show_ms": 0}, 1, lang=lang)
    try:
        before = face.rows_words()
        face.tap("new")
        face.advance(100)
        during = face.rows_words()
        english = getattr(face.controller.panel, "rows_words", list)()
    finally:
        face.close()
    assert before == during == [Words(lang).phrase(line) for line in english]
    for line, shown in zip(english, during):
        assert lang == "en" or shown != line, "%s.json has no phrase for %r" % (lang, line)
