"""``nimatron audits PORT``: the machine's counters, like a pinball audit menu.

Games started, finished, won by visitors and by the machine, abandoned
(visitors who walked away), per preset, and the uptime since power-on.

    nimatron audits /dev/ttyACM1
    nimatron audits /dev/ttyACM1 --csv >> audits.csv
"""

import csv
import json
import sys

from .link import DeviceError, Link, require, shown

COLUMNS = ("started", "finished", "visitor_wins", "machine_wins", "abandoned")


def add_parser(sub):
    p = sub.add_parser("audits", help="games played, won and abandoned on a Nimatron", description=__doc__.split("\n")[0])
    p.add_argument("port", metavar="PORT", help="serial port of the machine's host link")
    form = p.add_mutually_exclusive_group()
    form.add_argument("--csv", action="store_true", help="CSV: one row for all games, one per preset")
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
    for key in ("uptime_s", "events_dropped"):
        if key in audits:
            _count(audits, key, what)
    return audits


def _count(data, key, what, where=""):
    value = require(data, key, (int, float) if key == "uptime_s" else (int,), what, where)
    if not 0 <= value < 1e15:  # also refuses NaN and infinity
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
        writer = csv.writer(out, lineterminator="\n")
        writer.writerow(("preset",) + COLUMNS + ("uptime_s",))
        for name, counts in rows(audits):
            writer.writerow((name,) + tuple(counts.get(c, 0) for c in COLUMNS)
                            + (audits.get("uptime_s", "") if name == "all" else "",))
        return 0
    out.write("Nimatron on %s (board %s), up %s\n\n" % (args.port, hello.get("board"), uptime(audits.get("uptime_s", 0))))
    out.write("%-12s %8s %9s %9s %9s %10s\n" % ("preset", "started", "finished", "visitor", "machine", "abandoned"))
    for name, counts in rows(audits):
        out.write("%-12s %8d %9d %9d %9d %10d\n" % ((name,) + tuple(counts.get(c, 0) for c in COLUMNS)))
    if audits.get("events_dropped"):
        out.write("\n%d event lines were dropped while no host was reading.\n" % audits["events_dropped"])
    return 0
