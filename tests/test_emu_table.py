# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""tools/emu_table.py: the instrument's rows as docs/board.md's table, every
goal of issue 27 checked, so a pasted table cannot hide a miss."""

import copy
import importlib.util
import json
import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.path.join(ROOT, "tools", "emu_table.py")


def row(**over):
    out = {
        "board": "pico-grid",
        "preset": "graph",
        "how": "settings.json",
        "firmware": ".mpy",
        "first_lit_ms": 1500.0,
        "longest_tick_ms": 45.1,
        "longest_tick_cause": "SET",
        "least_free": 41 * 1024,
        "press_lamp_median_ms": 12.0,
        "press_lamp_max_ms": 16.5,
        "games": [{"skill": "random", "winner": "machine"}],
        "errors": [],
        "watchdog_fired": 0,
    }
    out.update(over)
    return out


def run(tmp_path, *rows):
    path = tmp_path / "rows.json"
    path.write_text(json.dumps(list(rows)))
    return subprocess.run([sys.executable, TOOL, str(path)], capture_output=True, text=True)


def test_a_row_that_meets_every_goal(tmp_path):
    done = run(tmp_path, row())
    assert done.returncode == 0, done.stdout + done.stderr
    assert (
        "| pico-grid | graph | .mpy, settings.json | 1.50 s | 45.1 ms (SET) | 41.0 KB | 12.0 / 16.5 ms | 1 of 1 | 0 | never |"
        in done.stdout
    )
    assert done.stdout.rstrip().endswith("1 rows, 0 goals missed")


def test_a_rows_own_settings_and_python_stack_are_shown(tmp_path):
    done = run(tmp_path, row(settings={"rules": "graph:3", "starts": [[15, 15, 15]]}, pystack=3072))
    assert '| .mpy, settings.json, rules="graph:3" starts=[[15,15,15]], pystack 3072 |' in done.stdout


def test_every_goal_missed_is_marked_and_said(tmp_path):
    bad = row(
        first_lit_ms=3100.0,
        longest_tick_ms=50.3,
        least_free=39 * 1024,
        press_lamp_max_ms=25.0,
        games=[{"skill": "random", "winner": None}],
        errors=["console: nimatron: fault: RuntimeError"],
        watchdog_fired=1,
    )
    done = run(tmp_path, bad)
    assert done.returncode == 1
    assert done.stdout.count("✗") == 7
    assert "missed: pico-grid graph (.mpy, settings.json): least heap free 39.0 KB (goal 40 KB)" in done.stdout
    assert done.stdout.rstrip().endswith("1 rows, 7 goals missed")


def test_the_frozen_firmware_has_its_own_goals(tmp_path):
    done = run(tmp_path, row(firmware="frozen", first_lit_ms=2600.0, least_free=99 * 1024))
    assert done.returncode == 1
    assert "**2.60 s ✗**" in done.stdout and "**99.0 KB ✗**" in done.stdout
    assert run(tmp_path, row(firmware="frozen", first_lit_ms=1460.0, least_free=114 * 1024)).returncode == 0


def test_bad_input_is_one_line_and_status_2(tmp_path):
    for args in ([], ["--help"], [str(tmp_path / "none.json")]):
        done = subprocess.run([sys.executable, TOOL] + args, capture_output=True, text=True)
        assert done.returncode == 2 and "Traceback" not in done.stderr and done.stderr.strip()
    for text in ("{", "{}", "[1, 2]"):
        (tmp_path / "bad.json").write_text(text)
        done = subprocess.run([sys.executable, TOOL, str(tmp_path / "bad.json")], capture_output=True, text=True)
        assert done.returncode == 2 and "bad.json" in done.stderr and "Traceback" not in done.stderr


def emu_table():
    spec = importlib.util.spec_from_file_location("emu_table", TOOL)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_pages_table_is_made_from_the_figures_file():
    """docs/board.md's table is tools/emu_table.py --doc's output over
    docs/board-figures.json, to the byte: a figure edited by hand in the page,
    or a row added to the file without making the page again, fails here."""
    tool = emu_table()
    with open(tool.FIGURES, encoding="utf-8") as f:
        figures = json.load(f)
    with open(tool.PAGE, encoding="utf-8") as f:
        page = f.read()
    assert page.count(tool.BEGIN) == 1 and page.count(tool.END) == 1
    assert tool.page_with_table(page, figures) == page, "run: .venv/bin/python tools/emu_table.py --doc"
    done = subprocess.run([sys.executable, TOOL, "--doc", "--check"], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def test_a_changed_figure_changes_the_page():
    tool = emu_table()
    with open(tool.FIGURES, encoding="utf-8") as f:
        figures = json.load(f)
    with open(tool.PAGE, encoding="utf-8") as f:
        page = f.read()
    worse = copy.deepcopy(figures)
    worse["runs"][0]["rows"][0]["longest_tick_ms"] = 50.5
    made = tool.page_with_table(page, worse)
    assert made != page and "**50.5 ms" in made and "longest tick 50.5 ms (goal 50 ms)" in made
    # every row of the file is in the page, and nothing else between the markers is
    rows = sum(len(run["rows"]) for run in figures["runs"])
    block = page[page.index(tool.BEGIN) : page.index(tool.END)]
    assert block.count("\n| ") - 1 == rows
