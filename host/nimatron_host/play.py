# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron play PORT``: play the machine from the PC keyboard.

The remote visitor presses the machine's own buttons over the link, so the
game is exactly the one on the lamps. Off unless an operator allows it:
``nimatron config PORT remote_play on``.

    B 2        take 2 lamps from row B (rows start at A), then DONE
    C 1 C 2    on a grid board: select lamps 1 and 2 of row C, then DONE
               (rows by number work too: 3 1 3 2)
    d          DONE: finish a move begun on the machine's buttons
    n          new game          q   quit

A move is checked against the lamps before any button is pressed.
"""

import sys

from .cli import Failure
from .link import Link, MachineError, checked_state

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def add_parser(sub):
    p = sub.add_parser(
        "play", help="play a Nimatron from the keyboard (if its remote_play is on)", description=__doc__.split("\n")[0]
    )
    p.add_argument("port", metavar="PORT", help="serial port of the machine's host link")
    p.add_argument(
        "--wait",
        type=float,
        default=30.0,
        metavar="S",
        help="longest wait for the machine's move, in seconds (default 30)",
    )


def lamp_chars(out):
    encoding = (getattr(out, "encoding", None) or "").lower()
    return ("\u25cf", "\u00b7") if "utf" in encoding else ("O", ".")


def draw(state, out):
    lit, dark = lamp_chars(out)
    for i, row in enumerate(state.get("lamps", [])):
        count = state["position"][i] if state.get("position") and i < len(state["position"]) else 0
        out.write("  %s  %s   %d\n" % (row_name(i), " ".join(lit if c != "0" else dark for c in row), count))


def row_name(i):
    return LETTERS[i] if i < 26 else str(i + 1)


def _dash(out):
    encoding = (getattr(out, "encoding", None) or "").lower()
    return "\u2013" if "utf" in encoding else "-"


def _row(word, rows, dash):
    """A row as the screen names it (a letter) or by number from 1; ValueError if none."""
    span = "rows %s%s%s" % (row_name(0), dash, row_name(rows - 1)) if rows > 1 else "row A"
    if word.isdigit():
        row = int(word) - 1 if len(word) < 6 else rows
    elif len(word) == 1 and word.upper() in LETTERS:
        row = LETTERS.index(word.upper())
    else:
        row = rows
    if not 0 <= row < rows:
        raise ValueError("no row %s (%s)" % (word.upper() if len(word) < 6 else word[:6] + "...", span))
    return row


def parse_move(text, state, grid, dash="-"):
    """Keyboard text -> the presses it means (without the final DONE).

    The whole move is checked against the lamps in ``state`` before anything
    is pressed, so a bad move never leaves half a move on the machine.
    """
    import re

    lamps = state.get("lamps") or []
    words = re.findall(r"[A-Za-z]+|\d+", text)
    if not words or re.sub(r"[A-Za-z0-9,\s]", "", text):
        raise ValueError(USAGE[grid])
    if grid:
        if len(words) % 2:
            raise ValueError(USAGE[grid])
        presses = []
        for i in range(0, len(words), 2):
            row = _row(words[i], len(lamps), dash)
            lamp = words[i + 1]
            if not lamp.isdigit():
                raise ValueError(USAGE[grid])
            shown = lamps[row]
            if not 1 <= (int(lamp) if len(lamp) < 6 else 0) <= len(shown):
                raise ValueError(
                    "no lamp %s %s: row %s has lamps 1%s%d"
                    % (row_name(row), lamp if len(lamp) < 6 else lamp[:5] + "...", row_name(row), dash, len(shown))
                )
            index = int(lamp) - 1
            if shown[index] == "0":
                raise ValueError("lamp %s %d is already out" % (row_name(row), index + 1))
            press = "key %d %d" % (row, index)
            if press in presses:
                raise ValueError("lamp %s %d is named twice" % (row_name(row), index + 1))
            presses.append(press)
        return presses
    if len(words) != 2 or not words[1].isdigit():
        raise ValueError(USAGE[grid])
    row = _row(words[0], len(lamps), dash)
    lit = sum(1 for c in lamps[row] if c != "0")
    count = int(words[1]) if len(words[1]) < 6 else lit + 1
    if count < 1:
        raise ValueError("take at least one lamp")
    if count > lit:
        if not lit:
            raise ValueError("row %s has no lamps lit" % row_name(row))
        raise ValueError(
            "row %s has %d lamp%s lit: take %s"
            % (row_name(row), lit, "" if lit == 1 else "s", "1" if lit == 1 else "1%s%d" % (dash, lit))
        )
    position = state.get("position")
    if state.get("rules") and position and row < len(position):
        from nimatron.games.rules import RulesError, parse_rules

        after = list(position)
        after[row] -= count
        try:
            legal = parse_rules(state["rules"]).is_legal(position, after)
        except RulesError:
            legal = True  # rules this tool does not know: the machine decides
        if not legal:
            raise ValueError("%s does not allow taking %d from row %s" % (state["rules"], count, row_name(row)))
    return ["row%d" % row] * count


USAGE = {
    False: "type a row letter and how many lamps to take, e.g. B 2",
    True: "name lamps by row and lamp, as on the screen: C 1 C 2 (or by numbers: 3 1 3 2)",
}


def run(args):
    out = sys.stdout
    with Link(args.port) as link:
        hello = link.hello()
        state = checked_state(link.ask("STATE"))
        if not state.get("remote_play"):
            raise Failure(
                "remote play is off on this machine; an operator can allow it with: "
                "nimatron config %s remote_play on" % args.port
            )
        grid = hello.get("input") == "grid"
        link.command("EVENTS ON")
        out.write(
            "The Nimatron on %s (%s). Type a move, n for a new game, q to quit.\n" % (args.port, state.get("rules"))
        )
        if state.get("state") in ("attract", "over"):
            state = checked_state(link.ask("PLAY PRESS new"))
        while True:
            _show(state, out)
            if state.get("state") == "over":
                out.write("New game? (n / q) ")
            elif state.get("turn") == "machine":
                state = _await_machine(link, out, args.wait)
                continue
            else:
                out.write("Your move: ")
            out.flush()
            text = sys.stdin.readline()
            if not text or text.strip().lower() in ("q", "quit", "exit"):
                out.write("\n")
                break
            text = text.strip()
            if not text:
                continue
            if text.lower() in ("n", "new"):
                state = checked_state(link.ask("PLAY PRESS new"))
                continue
            if text.lower() in ("d", "done"):  # finish a move begun on the machine's own buttons
                state = _press_all(link, [], out)
                continue
            try:
                presses = parse_move(text, state, grid, _dash(out))
            except ValueError as e:
                out.write("  %s\n" % e)
                continue
            state = _press_all(link, presses, out)
        link.command("EVENTS OFF", timeout=1)
    return 0


def _show(state, out):
    out.write("\n")
    if state.get("position"):
        draw(state, out)
    winner = state.get("winner")
    if state.get("state") == "over":
        out.write("  %s\n" % ("You win: NIM CHAMP!" if winner == "visitor" else "The machine wins."))


def _press_all(link, presses, out):
    """Press each button of a checked move, then DONE; say so if the machine stops it half-way."""
    state = None
    for n, role in enumerate(presses + ["done"]):
        try:
            state = checked_state(link.ask("PLAY PRESS " + role))
        except MachineError as e:
            if e.code == "value" and role.startswith("key"):
                r, i = role.split()[1:]
                out.write("  there is no lamp %s %d on this board\n" % (row_name(int(r)), int(i) + 1))
            else:
                out.write("  %s\n" % e.message)
            return checked_state(link.ask("STATE"))
        if state.get("refused"):
            out.write("  refused: %s\n" % state["refused"])
            if role != "done":
                if n:
                    out.write("  part of the move is made: take more, or type d (DONE) to hand over\n")
                return state
        if state.get("turn") != "visitor":
            break  # the last lamp ends the game without DONE
    return state


def _await_machine(link, out, wait):
    out.write("The machine is thinking...\n")
    out.flush()
    while True:
        ev = link.next_event(timeout=wait)
        if ev is None:
            raise Failure("the machine did not move within %g s" % wait)
        if ev.get("event") == "move" and ev.get("by") == "machine":
            out.write("The machine leaves %s." % " ".join(str(h) for h in ev.get("after", [])))
            out.write(("  (%s)\n" % ev["why"]) if ev.get("why") else "\n")
        if ev.get("event") in ("move", "game_over") and ev.get("by") != "visitor":
            state = checked_state(link.ask("STATE"))
            if state.get("turn") != "machine":
                return state
