# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron audits PORT``: the machine's counters, like a pinball audit menu.

What the machine reported at its last start (a loss of stored data, saves
failing) first, then every counter it keeps, lifetime and since service:
games (started, finished, won by visitors and by the machine, abandoned),
starts and resets, faults and losses; games per preset; the uptime.

    nimatron audits /dev/ttyACM1
    nimatron audits /dev/ttyACM1 --csv >> audits.csv
"""

import csv
import json
import sys

from nimatron.machine.audits import KEYS

from . import reported
from .link import DeviceError, Link, require, shown

COLUMNS = ("started", "finished", "visitor_wins", "machine_wins", "abandoned")


def add_parser(sub):
    p = sub.add_parser(
        "audits", help="games played, won and abandoned on a Nimatron", description=__doc__.split("\n")[0]
    )
    p.add_argument("port", metavar="PORT", help="serial port of the machine's host link")
    form = p.add_mutually_exclusive_group()
    form.add_argument(
        "--csv",
        action="store_true",
        help="CSV: one row for all games (with every counter and what the machine reported), one per preset",
    )
    form.add_argument("--json", action="store_true", help="the machine's AUDITS reply as JSON")


def rows(audits):
    """("all" and each preset, counters) in a stable order."""
    out = [("all", audits)]
    for preset in sorted(audits.get("presets", {})):
        out.append((preset, audits["presets"][preset]))
    return out


def checked(audits):
    """The AUDITS reply if every counter this tool shows is a count; DeviceError naming the first that is not."""
    what = "an AUDITS reply"
    presets = audits.get("presets", {}) if isinstance(audits, dict) else None
    if not isinstance(presets, dict):
        require(audits, "presets", (dict,), what)
    for name, counts in rows(audits):
        where = "" if name == "all" else " (preset %s)" % shown(name)
        for column in COLUMNS:
            if not isinstance(counts, dict) or column in counts:
                _count(counts, column, what, where)
    for key in KEYS + ("uptime_s", "events_dropped"):
        if key in audits:
            _count(audits, key, what)
    if "lifetime" in audits:
        require(audits, "lifetime", (dict,), what)
        for key in KEYS:
            if key in audits["lifetime"]:
                _count(audits["lifetime"], key, what, " (lifetime)")
    return audits


def _count(data, key, what, where=""):
    value = require(data, key, (int, float) if key == "uptime_s" else (int,), what, where)
    if not 0 <= value < (1e15 if isinstance(value, float) else float("inf")):  # also refuses NaN and infinity
        raise DeviceError("%s with %r = %s%s, where a count belongs" % (what, key, shown(value), where))


def uptime(seconds):
    days, rest = divmod(int(seconds), 86400)
    hours, rest = divmod(rest, 3600)
    text = "%d h %02d min" % (hours, rest // 60)
    return ("%d d " % days + text) if days else text


def run(args):
    with Link(args.port) as link:
        hello = link.hello()
        audits = checked(link.ask("AUDITS"))
    out = sys.stdout
    if args.json:
        out.write(json.dumps(audits, indent=2, sort_keys=True) + "\n")
        return 0
    if args.csv:
        write_csv(out, hello, audits)
        return 0
    out.write(report(args.port, hello, audits))
    return 0


def write_csv(out, hello, audits):
    """The presets' rows, and on the "all" row every counter and what HELLO said."""
    counters = reported.counted(audits)
    writer = csv.writer(out, lineterminator="\n")
    more = reported.csv_header(counters, hello)
    writer.writerow(("preset",) + COLUMNS + ("uptime_s",) + tuple(more))
    for name, counts in rows(audits):
        row = (name,) + tuple(counts.get(c, 0) for c in COLUMNS)
        if name == "all":
            row += (audits.get("uptime_s", ""),) + tuple(reported.csv_values(counters, hello))
        else:
            row += ("",) * (1 + len(more))
        writer.writerow(row)


def report(port, hello, audits):
    """The table, as text: warnings first, every counter, the presets."""
    counters = reported.counted(audits)
    lines = reported.warnings(hello, counters)
    if lines:
        lines.append("")
    lines.append("Nimatron on %s (board %s), up %s" % (port, hello.get("board"), uptime(audits.get("uptime_s", 0))))
    lines += reported.about(hello)
    lines += [""] + reported.table(counters) + [""]
    lines.append("%-12s %8s %9s %9s %9s %10s" % ("preset", "started", "finished", "visitor", "machine", "abandoned"))
    for name, counts in rows(audits):
        lines.append("%-12s %8d %9d %9d %9d %10d" % ((name,) + tuple(counts.get(c, 0) for c in COLUMNS)))
    if audits.get("events_dropped"):
        lines.append("")
        lines.append("%d event lines were dropped while no host was reading." % audits["events_dropped"])
    return "\n".join(lines) + "\n"
