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
from nimatron.games.rules import RulesError, parse_rules

from . import reported
from .audits import checked
from .link import Link, checked_state, shown
from .solve import working


def add_parser(sub):
    p = sub.add_parser(
        "monitor", help="live log of the games on a Nimatron, with its reasoning", description=__doc__.split("\n")[0]
    )
    p.add_argument("port", metavar="PORT", help="serial port of the machine's host link")
    p.add_argument("--json", action="store_true", help="print the raw events, one JSON object a line")
    p.add_argument("--no-working", action="store_true", help="leave out the nim-sum worked in binary")
    p.add_argument("--games", type=int, metavar="N", help="stop after N games have ended")


def rules_of(spec):
    """The rule set a device reports (``parse_rules``); plain Nim for one this tool does not know."""
    try:
        return parse_rules(spec)
    except RulesError:
        return parse_rules("nim")


class Printer:
    """Events in words, one game at a time: positions and moves in the rule
    set's own words (``position_words``, ``working``), as solve and demo say them."""

    def __init__(self, out, working=True):
        self.out = out
        self.working = working
        self.rules = rules_of("nim")
        self.misere = False
        self.ring = False

    def line(self, text=""):
        self.out.write(text + "\n")
        self.out.flush()

    def event(self, ev):
        kind = ev.get("event")
        if kind == "new_game":
            self.rules = rules_of(ev.get("rules", "nim"))
            self.misere = bool(ev.get("misere"))
            self.ring = bool(ev.get("ring"))
            play = "misère play (taking the last lamp loses)" if self.misere else "normal play"
            self.line()
            self.line(
                "%s  New game: %s  (%s, %s, %s; %s moves first)"
                % (
                    time.strftime("%H:%M:%S"),
                    self.rules.position_words(ev.get("position", []), self.ring),
                    ev.get("preset", "?"),
                    self.rules.spec,
                    play,
                    ev.get("first", "visitor"),
                )
            )
        elif kind == "move":
            rules = self.rules
            before, after = ev.get("before", []), ev.get("after", [])
            words = explain.describe_move(before, after, rules.ordered, self.ring) if len(before) else "moves"
            self.ring = False  # a circle is broken by its first move
            who = "Visitor" if ev.get("by") == "visitor" else "Machine"
            if who == "Machine" and self.working and before:
                for text in working(rules, before, self.misere):
                    self.line("          " + text)
            self.line("  %-9s%s  ->  %s" % (who + ":", words, rules.position_words(after)))
            if ev.get("why"):
                self.line("            reasoning: " + ev["why"])
            if ev.get("deliberate"):
                self.line("            (not its best move, on purpose: difficulty %s)" % ev["deliberate"])
        elif kind == "refused":
            self.line("  refused:  " + ev.get("reason", ""))
        elif kind == "hint":
            self.line("  hint:     the winning move leaves " + self.rules.position_words(ev.get("after", [])))
        elif kind == "game_over":
            winner = ev.get("winner")
            self.line(
                {
                    "visitor": "  The visitor wins: NIM CHAMP!",
                    "machine": "  The machine wins.",
                    "abandoned": "  Game abandoned (the visitor walked away, or a new game began).",
                }.get(winner, "  Game over: %s" % winner)
            )
        elif kind == "saving":
            if ev.get("failing"):
                self.line(
                    "%s  Saving failed: %s (audits and settings kept in memory, tried again every 30 s)"
                    % (time.strftime("%H:%M:%S"), _words(ev["failing"]))
                )
            else:
                self.line("%s  Saving works again: nothing waiting was lost" % time.strftime("%H:%M:%S"))
        elif kind == "fault":
            self.line(
                "  fault:    the %s could not answer (%s): the machine played a legal move without it"
                % (_words(ev.get("what", "?")), _words(ev.get("error", "")))
            )
        elif kind == "stuck":
            self.line(
                "  stuck:    button %s %s"
                % (
                    ev.get("button"),
                    "released" if ev.get("released") else "ignored (%s) until it is released" % ev.get("why", "held"),
                )
            )
        elif kind == "check_switch":
            self.line("  check:    button %s not pressed in %s games" % (ev.get("button"), ev.get("games")))
        elif kind is not None:
            self.line("  %s: %s" % (kind, shown(ev, 200)))  # every event is shown: none is lost in silence


def _words(value, limit=200):
    """A text the device sent, as words (no quotes), one line; anything else as JSON."""
    if isinstance(value, str):
        text = "".join(c if c.isprintable() else "?" for c in value)
        return text if len(text) <= limit else text[: limit - 3] + "..."
    return shown(value, limit)


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
            for line in (
                warnings + ([""] if warnings else []) + reported.about(hello) + [""] + reported.table(counters) + [""]
            ):
                out.write(line + "\n")
            out.write(
                "Watching the Nimatron on %s (board %s, preset %s, %s%s). Ctrl-C to stop.\n"
                % (
                    args.port,
                    hello.get("board"),
                    hello.get("preset"),
                    state.get("rules"),
                    ", misère" if state.get("misere") else "",
                )
            )
            if state.get("position"):
                out.write(
                    "A game is in play: %s, %s to move.\n"
                    % (
                        rules_of(state.get("rules", "nim")).position_words(state["position"], bool(state.get("ring"))),
                        state.get("turn"),
                    )
                )
            out.flush()
        printer = Printer(out, working=not args.no_working)
        printer.rules = rules_of(state.get("rules", "nim"))
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
