# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron solve``: ask the strategy engine, for a person or a program.

nimatron solve --rules nim 3 4 5
nimatron solve --rules subtract:3 --misere --json 21
echo '{"rules": "nim", "position": [3, 4, 5]}' | nimatron solve --batch
nimatron solve --rules graph:2 --graph '{"nodes": [1, 2, 3], "edges": [[1, 2], [2, 3]]}'
"""

import json
import sys

from nimatron.games import explain, strategy, tables
from nimatron.games.graph import Graph
from nimatron.games.registry import usage
from nimatron.games.rules import REGISTRY, RulesError, parse_rules

from .cli import UsageError, cut_numbers


def add_parser(sub):
    p = sub.add_parser("solve", help="the machine's move for a position", description=__doc__.split("\n")[0])
    p.add_argument("--rules", default="nim", help="%s (default nim)" % usage(REGISTRY))
    p.add_argument("--misere", action="store_true", help="misère play: whoever takes the last object loses")
    p.add_argument("--ring", action="store_true", help="circular Nim: the single heap is an unbroken circle")
    p.add_argument(
        "--candies",
        nargs=2,
        metavar=("MINE", "THEIRS"),
        help="Candy Nim: candies the player to move and the other already hold",
    )
    p.add_argument(
        "--stones", metavar="R", help="Building Nim: stones still to place (0: the building is over, plain Nim)"
    )
    p.add_argument(
        "--graph",
        metavar="JSON",
        help='Graph Nim on any graph: {"nodes": [...], "edges": [[a, b], ...]} (no HEAP arguments)',
    )
    p.add_argument("--json", action="store_true", help="print one JSON line instead of an explanation")
    p.add_argument("--batch", action="store_true", help="read JSON lines from stdin, write one JSON line per input")
    p.add_argument("heaps", nargs="*", metavar="HEAP", help="heap sizes")


def _heap(text):
    try:
        return int(text)
    except ValueError:
        raise UsageError("heap sizes must be whole numbers, got %r" % text) from None


def working(rules, heaps, misere):
    """The reasoning worked in binary, as lines: the rule set's own ``working``
    (the subtraction game's heaps modulo k+1), else the nim-sum where it is the whole story."""
    own = getattr(rules, "working", None)
    lines = own(heaps, misere) if own is not None else explain.nim_sum_lines(heaps) if rules.nim_sum else []
    return glossed(lines)


def glossed(lines):
    """The binary working with its columns named (4 2 1 over the digits,
    the word "binary") and the nim-sum's rule said where it is made: a
    column with an odd count of 1s gives a 1 (issue 44)."""
    at = [i for i in range(len(lines)) if lines[i].strip().startswith("-")]
    if not at:
        return lines
    width = len(lines[at[0]].strip())
    head = "".join(str(1 << c) for c in range(width - 1, -1, -1))  # over the digits where each is one digit
    worth = ", ".join(str(1 << c) for c in range(width - 1, -1, -1))
    top = "  %s  binary: the columns are worth %s" % (head if width <= 4 else " " * width, worth)
    out = list(lines)
    out.insert(
        at[0] - len([line for line in lines[: at[0]] if line.startswith("  ") and line.strip()[:1] in "01"]), top
    )
    out.append("  (the nim-sum adds each column without carrying: an odd count of 1s gives a 1, an even count a 0)")
    return out


def counts_candies(rules):
    """Candy Nim's second goal: a rule set that counts the candies a player can be sure of."""
    return getattr(rules, "candies", None) is not None


def places_stones(rules):
    """Building Nim: a rule set whose position ends with the stones still to place."""
    return getattr(rules, "with_stones", None) is not None


def run(args):
    if args.batch:
        if args.heaps:
            raise UsageError("--batch reads positions from stdin; give no HEAP arguments")
        return batch(sys.stdin, sys.stdout)
    heaps = read_position(args)
    rules, heaps, result = checked(args.rules, heaps, args.misere, args.ring)
    if args.candies is not None or counts_candies(rules):
        held = args.candies if args.candies is not None else [0, 0]
        try:
            add_candies(rules, heaps, args.misere, result, [_heap(c) for c in held])
        except RulesError as e:
            raise UsageError(str(e)) from e
    if args.json:
        result = dict(result)
        if places_stones(rules):
            split_stones(result)
        nodes_left(result)
        print(json.dumps(result))
    else:
        print(report(rules, heaps, args.misere, args.ring, result))
    return 0


def read_position(args, example="nimatron solve --rules nim 3 4 5"):
    """The position of the command line, read the same way by ``solve`` and
    ``demo``: HEAP arguments as heap sizes, rows of 0s and 1s for 2-D Nim and
    Graph Nim, ``--graph`` JSON, and ``--stones`` for Building Nim (required
    there, refused elsewhere). UsageError names what is wrong."""
    graph = getattr(args, "graph", None)
    try:
        rules = parse_rules(args.rules)
        if graph is not None:
            if args.heaps:
                raise UsageError("--graph is the whole position; give no HEAP arguments")
            if not isinstance(rules, Graph):
                raise UsageError("--graph is played by Graph Nim: --rules graph:K")
            heaps = _graph(graph)
        elif not args.heaps:
            raise UsageError("give the heap sizes, e.g. " + example)
        else:
            read = getattr(rules, "read_heap", None) or _heap  # 2-D Nim and Graph Nim read rows of 0s and 1s
            heaps = [read(h) for h in args.heaps]
        stones = None if args.stones is None else _heap(args.stones)
        return with_stones(rules, heaps, stones)
    except RulesError as e:
        raise UsageError(str(e)) from e


def strict_cells(rules, position):
    """2-D Nim and Graph Nim from a program (the batch): their rule set's
    ``check_rows`` (a rectangle of 0s and 1s); a graph of nodes and edges is checked by its own rules."""
    check_rows = getattr(rules, "check_rows", None)
    if check_rows is not None and not isinstance(position, dict):
        check_rows(position)


def checked(spec, heaps, misere=False, ring=False):
    """(rules, heaps, the engine's answer), or UsageError naming the problem.

    The one check of a command-line position (``solve``, ``demo``): rules
    that exist, heaps that are heaps, a size the engine can answer.
    """
    try:
        rules = rules_for(spec, heaps)
        heaps = rules.check(heaps, ring)
        return rules, heaps, strategy.solve(rules, heaps, misere, ring)
    except RulesError as e:
        raise UsageError(str(e)) from e
    except RecursionError:
        raise UsageError("%s: position too large to search" % spec) from None


def report(rules, heaps, misere, ring, result):
    """The answer for a person: outcome, the move in words, the working."""
    play = "misère play (last move loses)" if misere else "normal play (last move wins)"
    if isinstance(heaps, dict) or hasattr(heaps, "left"):
        return _graph_report(rules, heaps, play, result)
    lines = ["%s, %s: %s" % (rules.spec, play, rules.position_words(heaps, ring))]
    worked = working(rules, heaps, misere)
    if worked:
        lines.extend([""] + worked + [""])
    taught = rules.lesson(heaps, misere, ring, result)  # the rule a pupil can carry home, from the engine's numbers
    lines.extend([s + "." for s in taught])
    if not worked and not taught and result["nimber"] is not None:
        lines.append("nim-value (Sprague-Grundy): %d" % result["nimber"])
    if "candies" in result:
        lines.append("The player to move can be sure to end with %d candies." % result["candies"])
    if result["after"] is None:
        lines.append("No move is left: the player to move has %s." % ("won" if result["outcome"] == "win" else "lost"))
        return "\n".join(lines)
    left = rules.position_words(result["after"])
    move = explain.move_leaving(heaps, result["after"], left, rules.ordered, ring)
    if result["outcome"] == "win":
        lines.append("The player to move wins: %s." % move)
    else:
        lines.append("The player to move loses against perfect play; best try: %s." % move)
    return "\n".join(lines)


def _graph(text):
    """--graph: the graph as JSON text (nodes and edges)."""
    try:
        graph = json.loads(text)
    except ValueError as e:
        raise UsageError("--graph: broken JSON: %s" % cut_numbers(str(e))) from e
    if not isinstance(graph, dict):
        raise UsageError('--graph is a JSON object: {"nodes": [...], "edges": [[a, b], ...]}')
    return graph


def rules_for(spec, position, known=None):
    """The rule set: ``parse_rules``, or for a graph given by nodes and
    edges Graph Nim's ``NetGraph`` (loaded only then). ``known``: rule sets
    already made, by spec, so a batch reuses what they learnt (Grundy's
    nim-values of every heap size met so far)."""
    graph = isinstance(position, dict)
    if known is not None and not graph and isinstance(spec, str) and spec in known:
        return known[spec]
    rules = parse_rules(spec)
    if graph and isinstance(rules, Graph):
        from nimatron.games.anygraph import NetGraph  # Graph Nim on any graph: loaded only then

        return NetGraph(rules.k)
    if known is not None and isinstance(spec, str):
        known[spec] = rules
    return rules


def nodes_left(result):
    """Graph Nim on a given graph: ``after`` is the list of nodes left."""
    after = result["after"]
    if after is not None and hasattr(after, "left"):
        result["after"] = after.left()


def _graph_report(rules, net, play, result):
    names = net.left()
    lines = ["%s, %s: a graph of %d node%s" % (rules.spec, play, len(names), "" if len(names) == 1 else "s")]
    if result["nimber"] is not None:
        lines.append("nim-value (Sprague-Grundy): %d" % result["nimber"])
    after = result["after"]
    if after is None:
        lines.append("No move is left: the player to move has %s." % ("won" if result["outcome"] == "win" else "lost"))
        return "\n".join(lines)
    kept = after.left()
    gone = [json.dumps(n) for n in names if n not in kept]
    move = "remove node%s %s" % ("" if len(gone) == 1 else "s", " and ".join(gone))
    left = " ".join(json.dumps(n) for n in kept) or "nothing"
    if result["outcome"] == "win":
        lines.append("The player to move wins: %s, leaving %s." % (move, left))
    else:
        lines.append("The player to move loses against perfect play; best try: %s, leaving %s." % (move, left))
    return "\n".join(lines)


FIELDS = ("rules", "position", "graph", "misere", "ring", "candies", "stones")


def with_stones(rules, heaps, stones):
    """Building Nim: the engine's position is the heaps, then the stones
    still to place (``stones``; 0 is plain Nim). Other rules take none."""
    if not places_stones(rules):
        if stones is not None:
            raise RulesError("stones belong to Building Nim (--rules building)")
        return heaps
    if stones is None:
        raise RulesError('building: say how many stones are still to place (--stones R, "stones": R; 0 is plain Nim)')
    return rules.with_stones(heaps, stones)


def split_stones(result):
    """Building Nim's answer as a program reads it: ``after`` the heaps,
    ``stones`` the stones still to place after the move."""
    after = result["after"]
    if after is not None:
        result["after"], result["stones"] = after[:-1], after[-1]


def add_candies(rules, heaps, misere, result, held):
    """Candy Nim: add ``candies``, the most the mover can be sure to end with,
    counting the ``held`` [mover, other] candies already taken."""
    if not counts_candies(rules):
        raise RulesError("candies belong to Candy Nim (--rules candy)")
    if (
        not isinstance(held, list)
        or len(held) != 2
        or [c for c in held if isinstance(c, bool) or not isinstance(c, int) or c < 0]
    ):
        raise RulesError("candies must be two whole numbers >= 0: [mover, other]")
    result["candies"] = held[0] + rules.candies(heaps, misere)


def solve_request(line, known=None):
    """One batch line (JSON text or bytes) -> the result dict, or {"error": ...}.
    ``known``: the batch's rule sets by spec (``rules_for``)."""
    if isinstance(line, bytes):
        try:
            line = line.decode("utf-8")
        except UnicodeDecodeError as e:
            return {"error": "not UTF-8 text (byte 0x%02x at %d)" % (line[e.start], e.start)}
    try:
        request = json.loads(line)
    except RecursionError:
        return {"error": "broken JSON: nested too deeply"}
    except ValueError as e:
        if "Exceeds the limit" in str(e):
            return {"error": "broken JSON: a number longer than 4,300 digits"}
        return {"error": "broken JSON: %s" % cut_numbers(str(e))}
    if not isinstance(request, dict):
        return {"error": "each line must be a JSON object"}
    graph = "graph" in request
    if graph:
        if "position" in request:
            return {"error": "give 'position' or 'graph', not both"}
        if not isinstance(request["graph"], dict):
            return {"error": '\'graph\' is an object: {"nodes": [...], "edges": [[a, b], ...]}'}
        request["position"] = request.pop("graph")
    for name in ("rules", "position"):
        if name not in request:
            return {"error": "missing field %r" % name}
    unknown = sorted(set(request) - set(FIELDS))
    if unknown:
        return {"error": "unknown field %r" % unknown[0]}
    for name in ("misere", "ring"):
        if not isinstance(request.get(name, False), bool):
            return {"error": "%r must be true or false" % name}
    try:
        rules = rules_for(request["rules"], request["position"], known)
        if graph and not isinstance(rules, Graph):
            return {"error": 'a \'graph\' is played by Graph Nim: "rules": "graph:K"'}
        strict_cells(rules, request["position"])
        if counts_candies(rules) and "candies" not in request:
            raise RulesError(
                'candy: give the candies each player already holds, "candies": [mover, other] ([0, 0] at the start)'
            )
        position = with_stones(rules, request["position"], request.get("stones"))
        result = strategy.solve(rules, position, request.get("misere", False), request.get("ring", False))
        if places_stones(rules):
            split_stones(result)
        nodes_left(result)
        if "candies" in request or counts_candies(rules):
            add_candies(
                rules, request["position"], request.get("misere", False), result, request.get("candies", [0, 0])
            )
        return result
    except RulesError as e:
        return {"error": cut_numbers(str(e))}
    except RecursionError:
        return {"error": "position too large to search"}


def batch(stdin, stdout):
    """One JSON line out per line in, in order; bad lines get an error line.

    Lines are read as bytes, so text that is not UTF-8 is one bad line
    whatever the locale, not the end of the batch.
    """
    write = stdout.write
    dumps = json.dumps
    known = {}
    tables.KEEP = 64  # a PC keeps every table it reads, instead of one as a board does
    for line in getattr(stdin, "buffer", stdin):
        write(dumps(solve_request(line, known)) + "\n")
    stdout.flush()
    return 0
