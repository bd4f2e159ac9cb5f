#!/usr/bin/env python3
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The instrument's rows (``tools/emu_board.py --json FILE``) as docs/board.md's
table, each figure checked against issue 27's goals: a miss is in bold with
a cross, so a table pasted into the docs cannot hide one.

    .venv/bin/python tools/emu_table.py /tmp/pico-grid.json /tmp/macropad.json

Goals, stock CircuitPython (``.mpy``): first lit lamp <= 3 s, longest tick
<= 50 ms, least heap free >= 40 KB, press to lamp <= 20 ms at the most; the
frozen firmware: first lit lamp <= 2.5 s, least heap free >= 100 KB (and the
same ticks and presses). Every row: no error, the watchdog never fired.
Prints the table, then one line per goal missed; exit status 1 if any was.

docs/board.md's table is made from docs/board-figures.json (the runs' rows,
commits and commands) by

    .venv/bin/python tools/emu_table.py --doc           # rewrite it in docs/board.md
    .venv/bin/python tools/emu_table.py --doc --check   # exit 1 if the page differs

so a new run's rows go into that file, never by hand into the page.
"""

import json
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
FIGURES = os.path.join(ROOT, "docs", "board-figures.json")
PAGE = os.path.join(ROOT, "docs", "board.md")
BEGIN = "<!-- made by tools/emu_table.py --doc from docs/board-figures.json: edit that file, not this table -->"
END = "<!-- end of the table made by tools/emu_table.py -->"
HEADER = (
    "| board | preset | how | first lit lamp | longest tick (during) | least heap free "
    "| press to lamp, median / max | games | errors | watchdog |"
)

STOCK = {"lamp_ms": 3000, "heap_kb": 40}
FROZEN = {"lamp_ms": 2500, "heap_kb": 100}
TICK_MS = 50
PRESS_MS = 20


def cells(row):
    """(markdown cells, goals missed) of one row."""
    goals = FROZEN if row.get("firmware") == "frozen" else STOCK
    missed = []

    def check(text, ok, what):
        if ok:
            return text
        missed.append(what)
        return "**%s ✗**" % text

    lamp = row.get("first_lit_ms")
    free = row.get("least_free")
    tick = row.get("longest_tick_ms") or 0.0
    press = row.get("press_lamp_max_ms")
    games = row.get("games") or []
    played = sum(1 for g in games if g.get("winner"))
    how = row.get("how", "")
    if how == "set":
        how = "`SET preset`"
    if row.get("service"):
        how += ", menu visit"
    if row.get("settings"):
        how += ", " + " ".join(
            "%s=%s" % (k, json.dumps(v, separators=(",", ":"))) for k, v in sorted(row["settings"].items())
        )
    if row.get("pystack"):
        how += ", pystack %d" % row["pystack"]
    if row.get("firmware"):
        how = row["firmware"] + ", " + how
    out = [
        row.get("board", "?"),
        row.get("preset", "?"),
        how,
        check(
            "-" if lamp is None else "%.2f s" % (lamp / 1000),
            lamp is not None and lamp <= goals["lamp_ms"],
            "first lit lamp %s (goal %.1f s)"
            % ("-" if lamp is None else "%.2f s" % (lamp / 1000), goals["lamp_ms"] / 1000),
        ),
        check(
            "%.1f ms (%s)" % (tick, row.get("longest_tick_cause") or "-"),
            tick <= TICK_MS,
            "longest tick %.1f ms (goal %d ms)" % (tick, TICK_MS),
        ),
        check(
            "-" if free is None else "%.1f KB" % (free / 1024),
            free is not None and free / 1024 >= goals["heap_kb"],
            "least heap free %s (goal %d KB)" % ("-" if free is None else "%.1f KB" % (free / 1024), goals["heap_kb"]),
        ),
        check(
            "-" if press is None else "%.1f / %.1f ms" % (row["press_lamp_median_ms"], press),
            press is None or press <= PRESS_MS,
            "press to lamp %s ms (goal %d ms)" % (press, PRESS_MS),
        ),
        check("%d of %d" % (played, len(games)), played == len(games), "games not ended"),
        check(
            str(len(row.get("errors") or [])),
            not row.get("errors"),
            "errors: %s" % "; ".join(row.get("errors") or [])[:200],
        ),
        check("never" if not row.get("watchdog_fired") else "fired", not row.get("watchdog_fired"), "watchdog fired"),
    ]
    return out, missed


def table(rows):
    """(markdown lines of the table, one line per goal missed)."""
    lines = [HEADER, "|---|---|---|---|---|---|---|---|---|---|"]
    misses = []
    for row in rows:
        out, missed = cells(row)
        lines.append("| " + " | ".join(out) + " |")
        misses.extend("%s %s (%s): %s" % (out[0], out[1], out[2], m) for m in missed)
    return lines, misses


def doc_block(figures):
    """docs/board.md's generated part: the one table of every run's rows, the
    goals missed, and each run's commit, date and commands."""
    rows = [row for run in figures["runs"] for row in run["rows"]]
    lines, misses = table(rows)
    out = [BEGIN, ""] + lines + [""]
    if misses:
        out.append("Goals missed (%d in %d rows):" % (len(misses), len(rows)))
        out.append("")
        out.extend("- " + m for m in misses)
    else:
        out.append("Every goal met in all %d rows." % len(rows))
    out.append("")
    for run in figures["runs"]:
        out.append("Measured at %s, %s: %s (%d rows)." % (run["commit"], run["date"], run["what"], len(run["rows"])))
        out += ["", "```sh"] + run["commands"] + ["```", ""]
    out.append(END)
    return "\n".join(out) + "\n"


def page_with_table(page, figures):
    """The page's text with its generated part made again from the figures."""
    start, end = page.index(BEGIN), page.index(END) + len(END) + 1
    return page[:start] + doc_block(figures) + page[end:]


def doc(check):
    with open(FIGURES, encoding="utf-8") as f:
        figures = json.load(f)
    with open(PAGE, encoding="utf-8") as f:
        page = f.read()
    if BEGIN not in page or END not in page:
        print("emu_table: docs/board.md has lost the table's markers (%s ... %s)" % (BEGIN, END), file=sys.stderr)
        return 2
    made = page_with_table(page, figures)
    if check:
        if made != page:
            print(
                "emu_table: docs/board.md's table is not docs/board-figures.json's: run tools/emu_table.py --doc",
                file=sys.stderr,
            )
            return 1
        return 0
    if made != page:
        with open(PAGE, "w", encoding="utf-8") as f:
            f.write(made)
        print("emu_table: docs/board.md's table made again")
    return 0


def main(argv=None):
    paths = sys.argv[1:] if argv is None else argv
    if paths and paths[0] == "--doc" and set(paths[1:]) <= {"--check"}:
        return doc("--check" in paths[1:])
    if not paths or any(p.startswith("-") for p in paths):
        print(
            "usage: emu_table.py ROWS.json... (written by tools/emu_board.py --json), or emu_table.py --doc [--check]",
            file=sys.stderr,
        )
        return 2
    rows = []
    for path in paths:
        try:
            with open(path) as f:
                got = json.load(f)
        except (OSError, ValueError) as e:
            print("emu_table: %s: %s" % (path, e), file=sys.stderr)
            return 2
        if not isinstance(got, list) or not all(isinstance(r, dict) for r in got):
            print("emu_table: %s: not a list of rows (tools/emu_board.py --json writes one)" % path, file=sys.stderr)
            return 2
        rows.extend(got)
    lines, misses = table(rows)
    for line in lines:
        print(line)
    for line in misses:
        print("missed: " + line)
    print("%d rows, %d goals missed" % (len(rows), len(misses)))
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
