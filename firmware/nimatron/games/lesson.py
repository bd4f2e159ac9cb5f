# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The lesson of a position: the rule a pupil can carry home, in the words
of the rule set's own theory, and how this position and the machine's move
follow it.

A rule set names its lesson (``Rules.teach``: "subtract", "columns",
"greedy", "allheaps", "values", "groups", "nim"); ``Rules.lesson`` loads
this module only when a position is explained (EXPLAIN, the log's reason,
``nimatron solve``, the faces' reasoning panel), so a board playing keeps
none of these words. Every number comes from the engine (``strategy.solve``,
the rule set's own values); the sentences are English, the board's language,
and the faces translate them by ``lang/*.json``'s phrases.

Each lesson is a list of sentences: the first is the rule, the rest apply
it to this position and to the move ``result`` (``strategy.solve``'s).
One function with few names: a board interns every name a module it loads
holds, and never frees one (tests/test_names_budget.py).

    >>> from nimatron.games.rules import parse_rules
    >>> from nimatron.games import strategy
    >>> r = parse_rules("subtract:3")
    >>> for s in lesson(r, [21], True, False, strategy.solve(r, [21], True)): print(s)
    Leave 1 more than a multiple of 4: 1, 5, 9, 13, 17
    21 is one of them: every take leaves a number that is not
"""


def join(items):
    return ", ".join([str(i) for i in items])


def lesson(rules, heaps, misere, ring, result):
    teach = rules.teach
    after = result["after"]
    won = result["outcome"] == "win"
    if after is None:
        return []
    if misere and (teach == "nim" or teach == "subtract" and len(heaps) > 1 and max(heaps) <= rules.k):
        # the seeds' misere Nim: a subtraction game whose heaps are all below its limit plays as Nim
        return ["Misere: play as in Nim until only heaps of 1 would be left, then leave an odd number of them"]
    if teach == "nim":
        return []
    if teach == "subtract" and len(heaps) == 1:  # the seeds: n = 0 (normal) or 1 (misere) modulo k+1 loses
        m = rules.k + 1
        n = heaps[0]
        aims = list(range(1 if misere else 0, n, m))[-10:]
        lines = ["Leave %s multiple of %d: %s" % ("1 more than a" if misere else "a", m, join(aims))]
        if won:
            lines.append("From %d take %d to leave %d" % (n, n - after[0], after[0]))
        else:
            lines.append("%d is one of them: every take leaves a number that is not" % n)
        return lines
    if misere:
        return ["No short rule for this misere game: the machine checked every line of play from here"]
    values = None
    if teach == "subtract":  # several heaps: each counts modulo k+1, then Nim
        values = [h % (rules.k + 1) for h in heaps]
        lines = ["Each heap counts as what is left after taking out %ds: %s" % (rules.k + 1, join(values))]
    elif teach == "columns":  # Moore's index-k Nim: every binary column's count modulo k+1
        width = len(bin(max(heaps))) - 2
        lines = [
            "Write each heap in binary and count the 1s in each column: "
            "the player to move loses when every count is a multiple of %d" % (rules.k + 1)
        ]
        for shown in (heaps, after) if won else (heaps,):
            n = [len([h for h in shown if h >> c & 1]) for c in range(width - 1, -1, -1)]
            lines.append(("The move leaves counts %s" if shown is after else "Counts in the columns: %s") % join(n))
        return lines
    elif teach == "greedy":  # Greedy Nim: the seeds' theorem
        lines = ["The player to move loses when the largest heap appears an even number of times"]
        for shown in (heaps, after) if won else (heaps,):
            top = max(shown)
            lines.append(
                ("The move leaves largest heap %d: %d of them" if shown is after else "Largest heap %d: %d of them")
                % (top, shown.count(top))
            )
        return lines
    elif teach == "allheaps" and len(heaps) == 2:  # Wythoff's game: its losing pairs, as the engine finds them
        pairs = []  # type: list[str]
        for b in range(max(heaps) + 8):
            for a in range(b + 1):
                if len(pairs) < 8 and (a > b - 8 or a == 0) and rules.theory([a, b], False) == []:
                    pairs.append(str(a) + " " + str(b))
        lines = ["Two heaps: Wythoff's game, whose losing pairs begin " + join(pairs)]
        shown = sorted(after if won else heaps)
        lines.append(("The move leaves the pair %d %d" if won else "%d %d is one of them") % (shown[0], shown[1]))
        return lines
    elif teach == "allheaps":
        x = result["nimber"]  # None: beyond the table, no search for it here (the move's own pass)
        return [
            "No short rule beyond two heaps: the machine's table gives each position a value, "
            "0 when the player to move loses",
            "This one: 0"
            if not won
            else "This one: %d, the move leaves 0" % x
            if x
            else "This one is not 0, the move leaves 0",
        ]
    elif teach == "values":  # Sprague-Grundy: each part a game, its value by size
        if rules.nimber(heaps, ring) is None:  # beyond the rule set's value table: none worked out here
            return []
        top = max(heaps) - (1 if ring else 0)
        row = ring or rules.panel == "ring"
        lines = [
            "Each %s is a game of its own: its value is the smallest number that no position one move "
            "away has. Value by size: %s"
            % (
                "row" if row else "heap",
                " ".join([str(n) + ":" + str(rules.value(n)) for n in range(1, min(top, 12) + 1)]),
            )
        ]
        if ring:
            n = heaps[0]
            zero = [n - t for t in range(1, min(rules.most, n) + 1) if not rules.value(n - t)]
            lines.append(
                "The first take makes the circle a row: "
                + ("leave a row of value 0 (%s)" % join(zero) if zero else "no row it can leave has value 0")
            )
            return lines
        values = [rules.value(h) for h in heaps]
        lines.append("Values here: " + join([str(h) + ":" + str(v) for h, v in zip(heaps, values)]))
    elif teach == "groups":  # Graph Nim, 2-D Nim: the rule set's own values of each group
        found = rules.groups(heaps)
        if found is None:  # too large to value group by group here
            return []
        values = [v for _, v in found]
        lines = [
            "Each group of touching lamps is a game of its own with a value",
            "Lamps:value here: " + join([str(n) + ":" + str(v) for n, v in found]),
        ]
    else:
        return []
    x = 0
    for v in values:
        x ^= v
    lines.append("Nim-sum %d: the move makes it 0" % x if x else "Nim-sum 0: every move makes it non-zero")
    if x and teach == "values":
        parts = [h for h in after if h]
        lines.append("After the move: " + join([str(h) + ":" + str(rules.value(h)) for h in parts]))
    return lines
