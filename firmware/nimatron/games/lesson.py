# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The lesson of a position: the rule a pupil can carry home, in the words
of the rule set's own theory, and how this position and the machine's move
follow it.

A rule set names its lesson (``Rules.teaches``: "modulo", "columns",
"largest", "wythoff", "values", "groups", "nim"); ``Rules.lesson`` loads
this module only when a position is explained (EXPLAIN, the log's reason,
``nimatron solve``, the faces' reasoning panel), so a board playing keeps
none of these words. Every number comes from the engine (``strategy.solve``,
the rule set's own values); the sentences are English, the board's language,
and the faces translate them by ``lang/*.json``'s phrases.

Each lesson is a list of sentences: the first is the rule, the rest apply
it to this position and to the move ``result`` (``strategy.solve``'s).

    >>> from nimatron.games.rules import parse_rules
    >>> from nimatron.games import strategy
    >>> r = parse_rules("subtract:3")
    >>> for s in lesson(r, [21], True, False, strategy.solve(r, [21], True)): print(s)
    Leave 1 more than a multiple of 4: 1, 5, 9, 13, 17
    21 is one of them: every take leaves a number that is not
"""

from . import strategy


def lesson(rules, heaps, misere, ring, result):
    teach = globals().get("_" + (rules.teaches or ""))
    if teach is None or result["after"] is None:
        return []
    return teach(rules, heaps, misere, ring, result)


def _join(items):
    return ", ".join([str(i) for i in items])


def _sum(values):
    x = 0
    for v in values:
        x ^= v
    return x


def _ending(x):
    if x:
        return "Nim-sum %d: the move makes it 0" % x
    return "Nim-sum 0: every move makes it non-zero"


NO_RULE = "No short rule for this misere game: the machine checked every line of play from here"


def _misere_nim(heaps):
    return "Misere: play as in Nim until only heaps of 1 would be left, then leave an odd number of them"


def _nim(rules, heaps, misere, ring, result):
    return [_misere_nim(heaps)] if misere else []


def _modulo(rules, heaps, misere, ring, result):
    """The subtraction game: heaps count modulo k+1 (the seeds' n = 0 or 1 mod k+1)."""
    m = rules.k + 1
    if len(heaps) == 1:
        n = heaps[0]
        r = 1 if misere else 0
        aims = [j for j in range(r, n, m)]
        shown = _join(aims[-10:])
        if len(aims) > 10:
            shown = "..., " + shown
        lines = ["Leave %s multiple of %d: %s" % ("1 more than a" if misere else "a", m, shown)]
        if result["outcome"] == "win":
            left = result["after"][0]
            lines.append("From %d take %d to leave %d" % (n, n - left, left))
        else:
            lines.append("%d is one of them: every take leaves a number that is not" % n)
        return lines
    if misere:
        return [_misere_nim(heaps)] if max(heaps) <= rules.k else [NO_RULE]
    values = [h % m for h in heaps]
    return ["Each heap counts as what is left after taking out %ds: %s" % (m, _join(values)),
            _ending(_sum(values))]


def _columns(rules, heaps, misere, ring, result):
    """Moore's Nim: the binary column counts modulo k+1 (the seeds' index-k Nim)."""
    if misere:
        return [NO_RULE]
    m = rules.k + 1
    width = len(bin(max(heaps))) - 2
    lines = ["Write each heap in binary and count the 1s in each column: "
             "the player to move loses when every count is a multiple of %d" % m,
             "Counts: %s" % _join(counts(heaps, width))]
    if result["outcome"] == "win":
        lines.append("The move leaves counts %s" % _join(counts(result["after"], width)))
    return lines


def counts(heaps, width):
    """Per binary column, high to low, ``width`` columns: how many heaps have a 1 there."""
    return [len([h for h in heaps if h >> col & 1]) for col in range(width - 1, -1, -1)]


def _largest(rules, heaps, misere, ring, result):
    """Greedy Nim: the seeds' theorem, an even count of largest heaps is a P-position."""
    if misere:
        return [NO_RULE]
    top = max(heaps)
    lines = ["The player to move loses when the largest heap appears an even number of times",
             "Largest heap %d: %d of them" % (top, heaps.count(top))]
    if result["outcome"] == "win":
        after = result["after"]
        top = max(after)
        lines.append("The move leaves largest heap %d: %d of them" % (top, after.count(top)))
    return lines


def _wythoff(rules, heaps, misere, ring, result):
    """All-heaps Nim: Wythoff's pairs with two heaps; else the machine's value."""
    if len(heaps) == 2 and not misere:
        from .allheaps import wythoff_partner

        pairs = []
        a = 0
        while a <= max(heaps) and len(pairs) < 8:
            b = wythoff_partner(a)
            if b >= a:
                pairs.append("%d %d" % (a, b))
            a += 1
        lines = ["Two heaps: Wythoff's game, whose losing pairs begin %s" % _join(pairs)]
        if result["outcome"] == "win":
            lines.append("The move leaves the pair %d %d" % tuple(sorted(result["after"])))
        else:
            lines.append("%d %d is one of them" % tuple(sorted(heaps)))
        return lines
    if misere:
        return [NO_RULE]
    value = result["nimber"]
    if value is None:
        value = strategy.solve(rules, heaps, False)["nimber"]
    return ["No short rule beyond two heaps: the machine's table gives each position a value, "
            "0 when the player to move loses", "This one: %d, the move leaves 0" % value
            if value else "This one: 0"]


def _parts(rules, heaps):
    return [strategy.solve(rules, [h], False)["nimber"] or 0 for h in heaps]


def _values(rules, heaps, misere, ring, result):
    """Grundy's game, circular Nim: each part is a game with a value (Sprague-Grundy)."""
    if misere:
        return [NO_RULE]
    top = max(heaps)
    if ring:
        top -= 1
    table = " ".join(["%d:%d" % (n, rules.value(n)) for n in range(1, min(top, 12) + 1)])
    lines = ["Each %s is a game of its own: its value is the smallest number that no position one move away has. "
             "Value by size: %s" % ("row" if ring or rules.panel == "ring" else "heap", table)]
    if ring:
        n = heaps[0]
        zero = [n - t for t in range(1, min(rules.most, n) + 1) if not rules.value(n - t)]
        if zero:
            lines.append("The first take makes the circle a row: leave a row of value 0 (%s)" % _join(zero))
        else:
            lines.append("The first take makes the circle a row: no row it can leave has value 0")
        return lines
    values = _parts(rules, heaps)
    lines.append("Values here: %s" % _join(["%d:%d" % (h, v) for h, v in zip(heaps, values)]))
    x = _sum(values)
    lines.append(_ending(x))
    if x and result["outcome"] == "win":
        after = [h for h in result["after"] if h]
        lines.append("After the move: %s" % _join(["%d:%d" % (h, v) for h, v in zip(after, _parts(rules, after))]))
    return lines


def _groups(rules, heaps, misere, ring, result):
    """Graph Nim, 2-D Nim: each group of touching lamps is a game with a value."""
    if misere:
        return [NO_RULE]
    parts = groups(heaps)
    values = [strategy.solve(rules, g, False)["nimber"] or 0 for g in parts]
    sizes = [sum([sum(row) for row in g]) for g in parts]
    return ["Each group of touching lamps is a game of its own with a value",
            "Lamps:value here: %s" % _join(["%d:%d" % (n, v) for n, v in zip(sizes, values)]), _ending(_sum(values))]


def groups(matrix):
    """Each group of touching lit lamps alone on the board (4-connected)."""
    seen = {}
    out = []
    for r in range(len(matrix)):
        for c in range(len(matrix[r])):
            if not matrix[r][c] or (r, c) in seen:
                continue
            group = [[0] * len(row) for row in matrix]
            todo = [(r, c)]
            seen[(r, c)] = 1
            while todo:
                i, j = todo.pop()
                group[i][j] = 1
                for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                    if 0 <= a < len(matrix) and 0 <= b < len(matrix[a]) and matrix[a][b] and (a, b) not in seen:
                        seen[(a, b)] = 1
                        todo.append((a, b))
            out.append(group)
    return out
