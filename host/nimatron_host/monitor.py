# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron monitor PORT``: the games on a Nimatron as they happen.

One line per move, with the machine's reasoning (for Nim, the nim-sum worked
in binary, as on the Ferranti Nimrod's panel); refusals, hints and the end of
each game. It starts with what the machine reported (a loss of stored
data, saves failing) and every audit counter, as ``nimatron audits`` shows
them (``--json``: the warnings on stderr). For a projector in a classroom,
or a log in the office:

    nimatron monitor /dev/ttyACM1
    nimatron monitor /dev/ttyACM1 --json >> games.jsonl
"""

import json
import sys
import time

from nimatron.games import explain

from . import reported
from .audits import checked
from .link import Link, checked_state, shown


def add_parser(sub):
    p = sub.add_parser("monitor", help="live log of the games on a Nimatron, with its reasoning",
                       description=__doc__.split("\n")[0])
    p.add_argument("port", metavar="PORT", help="serial port of the machine's host link")
    p.add_argument("--json", action="store_true", help="print the raw events, one JSON object a line")
    p.add_argument("--no-working", action="store_true", help="leave out the nim-sum worked in binary")
    p.add_argument("--games", type=int, metavar="N", help="stop after N games have ended")


def heaps(position):
    return " ".join(str(h) for h in position)


class Printer:
    """Events in words, one game at a time."""

    def __init__(self, out, working=True):
        self.out = out
        self.working = working
        self.rules = "nim"

    def line(self, text=""):
        self.out.write(text + "\n")
        self.out.flush()

    def event(self, ev):
        kind = ev.get("event")
        if kind == "new_game":
            self.rules = ev.get("rules", "nim")
            play = "misère play (taking the last lamp loses)" if ev.get("misere") else "normal play"
            self.line()
            self.line("%s  New game: %s  (%s, %s, %s; %s moves first)" % (
                time.strftime("%H:%M:%S"), heaps(ev.get("position", [])), ev.get("preset", "?"),
                self.rules, play, ev.get("first", "visitor")))
        elif kind == "move":
            before, after = ev.get("before", []), ev.get("after", [])
            ordered = self.rules.split(":")[0] not in ("grundy", "circular")
            words = explain.describe_move(before, after, ordered) if len(before) else "moves"
            who = "Visitor" if ev.get("by") == "visitor" else "Machine"
            if who == "Machine" and self.working and self.rules == "nim" and before:
                for text in explain.nim_sum_lines(before):
                    self.line("          " + text)
            self.line("  %-9s%s  ->  %s" % (who + ":", words, heaps(after)))
            if ev.get("why"):
                self.line("            reasoning: " + ev["why"])
            if ev.get("deliberate"):
                self.line("            (not its best move, on purpose: difficulty %s)" % ev["deliberate"])
        elif kind == "refused":
            self.line("  refused:  " + ev.get("reason", ""))
        elif kind == "hint":
            self.line("  hint:     the winning move leaves " + heaps(ev.get("after", [])))
        elif kind == "game_over":
            winner = ev.get("winner")
            self.line({"visitor": "  The visitor wins: NIM CHAMP!", "machine": "  The machine wins.",
                       "abandoned": "  Game abandoned (the visitor walked away, or a new game began)."}
                      .get(winner, "  Game over: %s" % winner))


def run(args):
    out = sys.stdout
    with Link(args.port) as link:
        hello = link.hello()
        state = checked_state(link.ask("STATE"))
        counters = reported.counted(checked(link.ask("AUDITS")))
        warnings = reported.warnings(hello, counters)
        link.command("EVENTS ON")
        if args.json:
            for line in warnings:
                sys.stderr.write(line + "\n")
        else:
            for line in warnings + ([""] if warnings else []) + reported.about(hello) + [""] + reported.table(counters) + [""]:
                out.write(line + "\n")
            out.write("Watching the Nimatron on %s (board %s, preset %s, %s%s). Ctrl-C to stop.\n" % (
                args.port, hello.get("board"), hello.get("preset"), state.get("rules"),
                ", misère" if state.get("misere") else ""))
            if state.get("position"):
                out.write("A game is in play: %s, %s to move.\n" % (heaps(state["position"]), state.get("turn")))
            out.flush()
        printer = Printer(out, working=not args.no_working)
        printer.rules = state.get("rules", "nim")
        ended = 0
        while args.games is None or ended < args.games:
            ev = link.next_event(timeout=None)
            if args.json:
                out.write(json.dumps(ev) + "\n")
                out.flush()
            else:
                try:
                    printer.event(ev)
                except (TypeError, ValueError, AttributeError, KeyError, IndexError):
                    printer.line("  (the device sent an event this tool cannot read: %s)" % shown(ev, 200))
            if ev.get("event") == "game_over":
                ended += 1
        try:
            link.command("EVENTS OFF", timeout=1)
        except Exception:
            pass
    return 0
