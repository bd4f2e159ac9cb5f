# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Engine checks under the real MicroPython interpreter (driven by
tests/test_micropython.py; runnable by hand from the repository root):

    export MICROPYPATH=firmware:tests
    micropython tests/mpy/run_engine.py requests nim misere > req.jsonl
    micropython -X heapsize=64K tests/mpy/run_engine.py serve \\
        < req.jsonl > ans.jsonl
    micropython tests/mpy/run_engine.py judge nim misere < ans.jsonl

PART (after ``requests`` / ``judge``) is one of
  seeds RULES          the cases from tests/data/seed_*.json for one rule
                       set (each rule set gets a fresh engine, as a board
                       set up for one game would), and the data's own checks
  RULES normal|misere  every position at exhibit size, as on CPython: heap
                       rules 1..4 heaps of 0..7 in every order, grundy every
                       multiset totalling <= 24, circular every ring of
                       1..16 and every multiset of rows totalling <= 16

Why three steps: the engine alone fits a 64K heap (as on a small board), but
not together with the oracle, whose bytecode and memo need about as much
again, and whose source needs 128K just to compile. So ``serve`` runs the
engine by itself under ``-X heapsize=64K``, reading one request per line and
printing one answer per line; ``requests`` and ``judge`` run the oracle
(tests/oracle.py) in their own MicroPython process with the default heap.
The sweep is the full exhaustive one, not a reduced size.

    micropython -X heapsize=64K tests/mpy/run_engine.py serve leave < every.jsonl

serves the requests of every part, one after another, in one process; when
the rules or the play change, the runner changes them as a board does
(``change``: the modules of the rule sets left dropped by ``machine.unload``
before the new ones load, each step after a collection). Its closing line
adds the least largest free block, at each change and at the end.

    micropython -X heapsize=64K tests/mpy/run_engine.py import MODULE

imports one module. ``judge`` and ``import`` print a summary and exit 1 on
any failure.
"""

import gc
import json
import sys

HEAP_RULES = ("nim", "subtract:1", "subtract:2", "subtract:3", "moore:2", "moore:3", "greedy", "allheaps", "candy")
SEARCH_LIMIT = 20000  # oracle positions per seed case (as on CPython)
SHOW = 8  # failures printed in full


def here():
    path = sys.argv[0]
    cut = path.rfind("/")
    return path[:cut] if cut >= 0 else "."


def load(name):
    with open(here() + "/../data/" + name) as f:
        return json.load(f)


# --------------------------------------------------- the engine, on 64K


def largest_block():
    """The largest block the heap can give now, after a collection: found by
    asking (a binary search over allocations, the collector off so that a try
    that fails scans the allocation table and collects nothing)."""
    gc.collect()
    lo = 0
    hi = gc.mem_free()
    gc.disable()
    try:
        while lo < hi:
            mid = (lo + hi + 1) // 2
            try:
                bytearray(mid)
                lo = mid
            except MemoryError:
                hi = mid - 1
            gc.collect()
    finally:
        gc.enable()
    return lo


SEARCH_HEAP = 32 * 1024  # machine.turns.SEARCH_HEAP: below it a board collects before a search


def change(spec, misere):
    """A board's change of rules or play (``Controller.apply_settings``,
    ``turns.prepare``), each step after a collection so that what stays
    lands at the bottom of the heap, not above the garbage of the step
    before: the searches and modules of the rules left dropped before the
    new ones load (``machine.unload``), then the rule set, then its table.
    Returns the rules, held as a board holds them."""
    from nimatron.games.rules import parse_rules
    from nimatron.games.strategy import forget_searches
    from nimatron.machine.unload import drop_unused

    forget_searches()
    gc.collect()
    drop_unused([])  # every rule set's modules: none is in play while the rules change
    gc.collect()
    rules = parse_rules(spec)
    gc.collect()
    if rules.table_spec(misere) is not None:
        from nimatron.games import tables

        gc.collect()  # the module's own garbage: its table lands below none
        tables.load(rules, misere)
        gc.collect()
    return rules


def serve(leave=False):
    """Answer each request line on stdin; nothing but the engine loaded.
    ``leave``: as a board, when the rules or the play change the modules of
    the rule sets left go (``change``: ``machine.unload``, loaded and
    dropped again each time), and the heap is collected before a search
    when less than SEARCH_HEAP is free, as a board's turn does. The closing
    line: answers, the least free heap (after a collection, every 64
    answers) and the least largest free block (once the rules have changed,
    and at the end)."""
    from nimatron.games.strategy import solve

    low = None
    block = None
    count = 0
    rules = None
    spec = misere = None
    while True:
        if leave and gc.mem_free() < SEARCH_HEAP:
            gc.collect()  # the request and the answer land low, not above the last one's garbage
        line = sys.stdin.readline()
        if not line:
            break
        request = json.loads(line)
        if leave and (request["rules"] != spec or request["misere"] != misere):
            rules = change(request["rules"], request["misere"])
            spec = rules.spec  # made after the collections (the request's string sits above its garbage)
            misere = request["misere"]
            size = largest_block()  # the room the new rules' first search has
            if block is None or size < block:
                block = size
        try:
            answer = {
                "result": solve(
                    rules or request["rules"], request["position"], misere=request["misere"], ring=request["ring"]
                )
            }
        except Exception as exc:  # MemoryError too: that is a finding
            answer = {"error": "%s: %s" % (type(exc).__name__, exc)}
        print(json.dumps(answer))
        count += 1
        if count % 64 == 0:
            gc.collect()
            free = gc.mem_free()
            if low is None or free < low:
                low = free
    gc.collect()
    free = gc.mem_free()
    if low is None or free < low:
        low = free
    size = largest_block()
    if block is None or size < block:
        block = size
    print(json.dumps({"done": count, "least_free": low, "least_block": block}))
    return True


def import_module(name):
    try:
        __import__(name)
    except Exception as exc:
        print("FAIL import %s: %s: %s" % (name, type(exc).__name__, exc))
        return False
    gc.collect()
    print("import %s: ok, %d bytes free" % (name, gc.mem_free()))
    return True


# ------------------------------------------------ the oracle side


def cases(part):
    """The requests of one part, with what the judge needs to check them."""
    import oracle

    if part[0] == "seeds":
        for case in oracle.seed_cases(load("seed_nim.json"), load("seed_variants.json")):
            if case["rules"] == part[1]:
                yield case
        return
    spec, misere = part[0], part[1] == "misere"
    if spec == "circular":
        groups = [([[n] for n in range(1, 17)], True), (oracle.partitions(16), False)]
    elif spec == "grundy":
        groups = [(oracle.partitions(24), False)]
    else:
        groups = [(oracle.ordered_positions(4, 7), False)]
    for positions, ring in groups:
        for position in positions:
            yield {"id": str(position), "rules": spec, "position": position, "misere": misere, "ring": ring}


def requests(part):
    for case in cases(part):
        print(
            json.dumps(
                {"rules": case["rules"], "position": case["position"], "misere": case["misere"], "ring": case["ring"]}
            )
        )
    return True


def judge(part):
    import oracle

    name = " ".join(part)
    oracles = {}
    count = 0
    failed = 0
    if part[0] == "seeds":
        problems = oracle.seed_data_problems(load("seed_nim.json"), load("seed_variants.json"))
        for problem in problems:
            print("FAIL seed data: %s" % problem)
        failed += len(problems)
    for case in cases(part):
        spec = case["rules"]
        if spec not in oracles:
            oracles[spec] = oracle.Oracle(spec)
        o = oracles[spec]
        line = sys.stdin.readline()
        if not line:
            print("FAIL %s: no answer for %s (the engine process died?)" % (name, case["id"]))
            return False
        answer = json.loads(line)
        if "error" in answer:
            problems = ["raised " + answer["error"]]
        elif part[0] == "seeds":
            search = oracle.search_size(o, case["position"]) <= SEARCH_LIMIT
            problems = oracle.check_case(o, case, answer["result"], search)
        else:
            problems = oracle.judge(o, case["position"], answer["result"], case["misere"], case["ring"])
        count += 1
        if problems:
            failed += 1
            if failed <= SHOW:
                print("FAIL %s %s: %s" % (name, case["id"], "; ".join(problems)))
    tail = json.loads(sys.stdin.readline() or "{}")
    print(
        "%s: %d checked, %d failed; engine heap: %s bytes free at least" % (name, count, failed, tail.get("least_free"))
    )
    return failed == 0 and tail.get("done") == count


def valid_part(part):
    if len(part) != 2:
        return False
    if part[0] == "seeds":
        return True
    return part[1] in ("normal", "misere") and (part[0] in HEAP_RULES or part[0] in ("grundy", "circular"))


def main(args):
    if args in (["serve"], ["serve", "leave"]):
        return serve(len(args) == 2)
    if len(args) == 2 and args[0] == "import":
        return import_module(args[1])
    if len(args) > 1 and args[0] == "requests" and valid_part(args[1:]):
        return requests(args[1:])
    if len(args) > 1 and args[0] == "judge" and valid_part(args[1:]):
        return judge(args[1:])
    print(__doc__)
    return False


if __name__ == "__main__":
    if not main(sys.argv[1:]):
        sys.exit(1)
