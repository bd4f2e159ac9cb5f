"""``nimatron play PORT``: play the machine from the PC keyboard.

The remote visitor presses the machine's own buttons over the link, so the
game is exactly the one on the lamps. Off unless an operator allows it:
``nimatron config PORT remote_play on``.

    B 2        take 2 lamps from row B (rows start at A), then DONE
    3 1 3 2    on a grid board: select lamps 1 and 2 of row 3, then DONE
    n          new game          q   quit
"""

import sys

from .cli import Failure
from .link import Link, MachineError

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def add_parser(sub):
    p = sub.add_parser("play", help="play a Nimatron from the keyboard (if its remote_play is on)",
                       description=__doc__.split("\n")[0])
    p.add_argument("port", metavar="PORT", help="serial port of the machine's host link")
    p.add_argument("--wait", type=float, default=30.0, metavar="S",
                   help="longest wait for the machine's move, in seconds (default 30)")


def lamp_chars(out):
    encoding = (getattr(out, "encoding", None) or "").lower()
    return ("\u25cf", "\u00b7") if "utf" in encoding else ("O", ".")


def draw(state, out):
    lit, dark = lamp_chars(out)
    for i, row in enumerate(state.get("lamps", [])):
        count = state["position"][i] if state.get("position") and i < len(state["position"]) else 0
        out.write("  %s  %s   %d\n" % (LETTERS[i] if i < 26 else i, " ".join(lit if c != "0" else dark for c in row), count))


def parse_move(text, state, grid):
    """Keyboard text -> the presses it means (without the final DONE)."""
    words = text.replace(",", " ").split()
    if grid:
        if len(words) % 2 or not words or not all(w.isdigit() for w in words):
            raise ValueError("on this board name lamps as ROW LAMP pairs, counting from 1: 3 1 3 2")
        pairs = [(int(words[i]) - 1, int(words[i + 1]) - 1) for i in range(0, len(words), 2)]
        return ["key %d %d" % p for p in pairs]
    if len(words) != 2 or len(words[0]) != 1 or not words[0].isalpha() or not words[1].isdigit():
        raise ValueError("type a row letter and how many lamps to take, e.g. B 2")
    row = LETTERS.index(words[0].upper())
    count = int(words[1])
    if count < 1:
        raise ValueError("take at least one lamp")
    return ["row%d" % row] * count


def run(args):
    out = sys.stdout
    with Link(args.port) as link:
        hello = link.hello()
        state = link.command("STATE")
        if not state.get("remote_play"):
            raise Failure("remote play is off on this machine; an operator can allow it with: "
                          "nimatron config %s remote_play on" % args.port)
        grid = hello.get("input") == "grid"
        link.command("EVENTS ON")
        out.write("The Nimatron on %s (%s). Type a move, n for a new game, q to quit.\n" % (args.port, state.get("rules")))
        if state.get("state") in ("attract", "over"):
            state = link.command("PLAY PRESS new")
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
                state = link.command("PLAY PRESS new")
                continue
            try:
                presses = parse_move(text, state, grid)
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
    state = None
    for role in presses + ["done"]:
        try:
            state = link.command("PLAY PRESS " + role)
        except MachineError as e:
            if e.code == "value" and role.startswith("key"):
                r, i = role.split()[1:]
                out.write("  there is no lamp %d %d on this board\n" % (int(r) + 1, int(i) + 1))
            else:
                out.write("  %s\n" % e.message)
            return link.command("STATE")
        if state.get("refused"):
            out.write("  refused: %s\n" % state["refused"])
            if role != "done":
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
            state = link.command("STATE")
            if state.get("turn") != "machine":
                return state
