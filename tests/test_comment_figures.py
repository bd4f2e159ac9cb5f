# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""No measured figure in the firmware's comments and docstrings.

The kind: a comment that says how long a pass took or how much heap a
module held ("51 ms (MacroPad)", "6.6 KB of heap on CircuitPython 9.2.8").
It was true on one day's code, in one emulator run, and goes stale at the
next change with nothing to say so; 128 such lines had grown in firmware/.
Figures live in docs/ with the command that makes them (docs/board.md,
"What a pass costs" and the table per board); a comment says why.

What stays: sizes the code or a datasheet fixes (a 4 KB flash sector, a
page's program time), a test's own heap (the 64 KB MicroPython sweep) and
bounds a test holds, each listed in ``KEPT`` with why."""

import ast
import io
import pathlib
import re
import tokenize

ROOT = pathlib.Path(__file__).resolve().parent.parent
FIRMWARE = ROOT / "firmware"

FIGURE = re.compile(r"\b\d[\d,]*(\.\d+)? ?(ms|KB|kB|KiB|K|bytes|µs|us)\b")

# (pattern on the line, why it is not a measurement)
KEPT = [
    (r"4 KB (flash )?sector", "the flash's erase size, a datasheet's figure"),
    (r"0\.4 ms, 3 at most|45 ms, up to 400 ms", "the W25Q16JV's datasheet"),
    (r"64 KB (heap|MicroPython sweep|sweep)", "the heap the MicroPython sweep test gives the engine"),
    (r"2\*\*lamps, 4 KB|a 4 KB bytearray", "a table's size by construction (2 ** 12 bytes)"),
    (r"about 270 bytes", "the presets file's longest line, which the reader's buffer is sized for"),
    (r"switch bounce|worn arcade switch", "a switch's bounce, the debouncer's floor"),
    (r"^# 5 ms costs a scan", "the scan interval the code sets"),
    (
        r"1,040 bytes, one allocation|pin of 32 bytes|20 bytes: two blocks|LIMIT \+ 1 bytes",
        "sizes the code itself makes",
    ),
    (r"\(3\.6 KB$", "a bound tests/test_link_loads.py holds"),
]


def commented_lines(path):
    """(line number, text) of every comment and docstring line of a file."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    numbers = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            numbers.add(token.start[0])
    for node in ast.walk(ast.parse(source)):
        body = getattr(node, "body", None)
        if (
            isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
            and body
            and isinstance(body[0], ast.Expr)
            and isinstance(body[0].value, ast.Constant)
            and isinstance(body[0].value.value, str)
        ):
            numbers.update(range(body[0].lineno, body[0].end_lineno + 1))
    return [(n, lines[n - 1]) for n in sorted(numbers)]


def figures(path):
    """The comment lines of ``path`` that hold a measured figure."""
    found = []
    for number, line in commented_lines(path):
        text = line.strip()
        comment = text[text.index("#") :] if "#" in text and not text.startswith(("'", '"')) else text
        if FIGURE.search(comment) and not any(re.search(p, comment) for p, _ in KEPT):
            found.append("%s:%d: %s" % (path.relative_to(ROOT), number, text))
    return found


def test_no_measured_figure_in_a_firmware_comment():
    found = [line for path in sorted(FIRMWARE.rglob("*.py")) for line in figures(path)]
    assert found == [], (
        "measured figures in comments (put them in docs/ with their command, and say why here):\n" + "\n".join(found)
    )


def test_the_check_finds_a_figure(tmp_path):
    planted = tmp_path / "x.py"
    planted.write_text(
        '"""A module.\n\nIts load took 51 ms of a pass (MacroPad)."""\n\n'
        "X = 1  # 6.6 KB of heap on CircuitPython 9.2.8\n"
        "Y = 2  # a record must fit twice in a 4 KB sector\n"
        'Z = "51 ms"  # a string in code is not a comment\n'
    )
    global ROOT  # noqa: PLW0603 - the checker reads the module's root; the planted tree stands in for it
    saved, ROOT = ROOT, tmp_path
    try:
        found = figures(planted)
    finally:
        ROOT = saved
    assert [line.split(":")[1] for line in found] == ["3", "5"]
