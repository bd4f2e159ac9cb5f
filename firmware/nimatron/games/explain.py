# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Words for the machine's reasoning: moves, the nim-sum in binary.

Shared by the command line, the text link and the "how the machine thinks"
panel (after the Ferranti Nimrod, which showed its working on lamps).

    >>> print("\\n".join(nim_sum_lines([3, 4, 5])))
      011  3  heap A
      100  4  heap B
      101  5  heap C
      ---
      010  2  nim-sum
"""

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def label(i):
    return LETTERS[i] if i < len(LETTERS) else str(i + 1)


def binary(n, width):
    """n in binary, padded with zeros to ``width`` digits."""
    digits = ""
    while n:
        digits = ("1" if n & 1 else "0") + digits
        n >>= 1
    while len(digits) < width:
        digits = "0" + digits
    return digits


def _width(values):
    top = 1
    for v in values:
        w = len(binary(v, 1))
        if w > top:
            top = w
    return top


def _pad(text, width):
    while len(text) < width:
        text = " " + text
    return text


def nim_sum_lines(heaps, x=None):
    """The nim-sum worked in binary, one line per heap, the way the seeds do."""
    if x is None:
        x = 0
        for h in heaps:
            x ^= h
    width = _width(list(heaps) + [x])
    num = len(str(max(list(heaps) + [x])))
    lines = []
    for i in range(len(heaps)):
        lines.append("  %s  %s  heap %s" % (binary(heaps[i], width), _pad(str(heaps[i]), num), label(i)))
    lines.append("  " + "-" * width)
    lines.append("  %s  %s  nim-sum" % (binary(x, width), _pad(str(x), num)))
    return lines


def column_parities(heaps):
    """Per binary column, high to low: how many heaps have a 1 there."""
    width = _width(heaps)
    counts = []
    for col in range(width - 1, -1, -1):
        n = 0
        for h in heaps:
            if h >> col & 1:
                n += 1
        counts.append(n)
    return counts


def _plural(n, word):
    return "%d %s%s" % (n, word, "" if n == 1 else "s")


def describe_move(before, after, ordered=True, ring=False, part=None):
    """A move in words: "take 2 from heap A", "split a heap of 7 into 4 and 3".
    ``part``: what the board draws a heap as, where that is not a lettered
    row (a panel's ``unlettered``: "arc" on the ring): "split an arc of 7"."""
    if after is None:
        return "no move"
    if before and isinstance(before[0], list):
        return _cells_move(before, after)
    if ordered:
        grew = [i for i in range(len(before)) if after[i] > before[i]]
        if grew:  # Building Nim: a stone from the supply (the last number) onto a heap
            return "place a stone on heap %s (%d left to place)" % (label(grew[0]), after[-1])
        taken = [(i, before[i] - after[i]) for i in range(len(before)) if before[i] != after[i]]
        if len(taken) == len(before) > 1 and len({t for _, t in taken}) == 1:
            return "take %d from every heap" % taken[0][1]
        parts = ["%d from heap %s" % (t, label(i)) for i, t in taken]
        if len(parts) > 1:
            return "take " + ", ".join(parts[:-1]) + " and " + parts[-1]
        return "take " + parts[0]
    old = _difference(before, after)
    new = _difference(after, before)
    if ring:
        n = before[0]
        return "take %d from the circle of %d" % (n - sum(after), n)
    if len(old) == 1:
        gone = old[0] - sum(new)
        if gone == 0:
            return "split %s of %d into %s" % (
                "an arc" if part == "arc" else "a heap",
                old[0],
                " and ".join([str(p) for p in new]),
            )
        if not new:
            return "take %s (a whole row)" % _plural(gone, "object")
        if len(new) == 1:
            return "take %d from the end of a row of %d" % (gone, old[0])
        return "take %d from the middle of a row of %d, leaving %d and %d" % (gone, old[0], new[0], new[1])
    return "move from %s to %s" % (before, after)


def move_leaving(before, after, left, ordered=True, ring=False, part=None):
    """A move and what it leaves, saying each part once: "take 2 from heap
    A, leaving 1 4 5"; "split a heap of 9 into 7 and 2" (its words already
    say what is left); ``left`` is the caller's text for ``after``."""
    words = describe_move(before, after, ordered, ring, part)
    if ordered or ring:
        return "%s, leaving %s" % (words, left)
    if len([h for h in before if h]) == 1 and len(after) == 2 and (words.startswith("split") or "leaving" in words):
        return words
    if "leaving" in words:  # a take from the middle of one row of several
        return "%s (%s in all)" % (words, left)
    return "%s, leaving %s" % (words, left)


def _cells_move(before, after):
    """Two-dimensional Nim: "put out 3 lamps of row B" (rows A.., columns 1..)."""
    gone = []
    for r in range(len(before)):
        for c in range(len(before[r])):
            if before[r][c] and not after[r][c]:
                gone.append((r, c))
    if len(gone) == 1:
        return "put out the lamp at row %s, column %d" % (label(gone[0][0]), gone[0][1] + 1)
    if gone[0][0] == gone[-1][0]:
        return "put out %d lamps of row %s" % (len(gone), label(gone[0][0]))
    if gone[0][1] == gone[-1][1] and len({c for _, c in gone}) == 1:
        return "put out %d lamps of column %d" % (len(gone), gone[0][1] + 1)
    return "put out %d neighbouring lamps from row %s, column %d" % (len(gone), label(gone[0][0]), gone[0][1] + 1)


def _difference(a, b):
    """Parts of multiset a that are not in multiset b (parts >= 1)."""
    rest = [x for x in b if x]
    out = []
    for x in a:
        if not x:
            continue
        if x in rest:
            rest.remove(x)
        else:
            out.append(x)
    return out
