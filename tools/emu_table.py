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
"""

import json
import sys

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
        how += ", " + " ".join("%s=%s" % (k, json.dumps(v, separators=(",", ":"))) for k, v in sorted(row["settings"].items()))
    if row.get("pystack"):
        how += ", pystack %d" % row["pystack"]
    if row.get("firmware"):
        how = row["firmware"] + ", " + how
    out = [
        row.get("board", "?"), row.get("preset", "?"), how,
        check("-" if lamp is None else "%.2f s" % (lamp / 1000), lamp is not None and lamp <= goals["lamp_ms"],
              "first lit lamp %s ms" % lamp),
        check("%.1f ms (%s)" % (tick, row.get("longest_tick_cause") or "-"), tick <= TICK_MS, "longest tick %.1f ms" % tick),
        check("-" if free is None else "%.1f KB" % (free / 1024), free is not None and free / 1024 >= goals["heap_kb"],
              "least heap free %s" % free),
        check("-" if press is None else "%.1f / %.1f ms" % (row["press_lamp_median_ms"], press),
              press is None or press <= PRESS_MS, "press to lamp %s ms" % press),
        check("%d of %d" % (played, len(games)), played == len(games), "games not ended"),
        check(str(len(row.get("errors") or [])), not row.get("errors"), "errors: %s" % "; ".join(row.get("errors") or [])[:200]),
        check("never" if not row.get("watchdog_fired") else "fired", not row.get("watchdog_fired"), "watchdog fired"),
    ]
    return out, missed


def main(argv=None):
    paths = sys.argv[1:] if argv is None else argv
    if not paths or any(p.startswith("-") for p in paths):
        print("usage: emu_table.py ROWS.json... (written by tools/emu_board.py --json)", file=sys.stderr)
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
    print("| board | preset | how | first lit lamp | longest tick (during) | least heap free | press to lamp, median / max | games | errors | watchdog |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    misses = []
    for row in rows:
        out, missed = cells(row)
        print("| " + " | ".join(out) + " |")
        misses.extend("%s %s: %s" % (row.get("board"), row.get("preset"), m) for m in missed)
    for line in misses:
        print("missed: " + line)
    print("%d rows, %d goals missed" % (len(rows), len(misses)))
    return 1 if misses else 0


if __name__ == "__main__":
    sys.exit(main())
