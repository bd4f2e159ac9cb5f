# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every rule set teaches (issue 44): the machine's explanation of a
position from the seeds states the rule a pupil can carry home and the
move, in en, es and ru, on every screen that explains (the reasoning
panel both faces draw, ``nimatron solve``, the firmware's words that
EXPLAIN and the log send).

The kind: a rule set whose words are a verdict, not a lesson, or whose
lesson's numbers are wrong. Every number the words state is checked here
against a brute force of its own (memoised values over the rule set's
legal moves, no theory, no table), not against the engine's answer alone.
"""

import re

import pytest
from nimatron.games import strategy
from nimatron.games.rules import parse_rules
from nimatron.machine.controller import VISITOR
from nimatron_sim.nimrod import nimrod_for
from nimatron_sim.thinking import lines
from nimatron_sim.words import Words

LANGS = ("en", "es", "ru")


def brute(rules, position, misere, ring=False, memo=None):
    """Normal play: the position's value (mex of its moves' values);
    misère: 0 for a loss of the player to move, 1 for a win. By the legal
    moves alone."""
    memo = {} if memo is None else memo
    key = (repr(sorted(position)) if not rules.ordered else repr(position), ring)  # a multiset of parts: one key
    if key in memo:
        return memo[key]
    seen = set()
    for after in rules.moves(position, ring):
        seen.add(brute(rules, after, misere, False, memo))
    if misere:
        got = 0 if seen and 0 not in seen else 1
        if not seen:
            got = 1  # no move left: the other player made the last move, and lost
    else:
        got = 0
        while got in seen:
            got += 1
    memo[key] = got
    return got


def lost(rules, position, misere, ring=False):
    """True if the player to move loses against perfect play (brute force)."""
    return brute(rules, position, misere, ring) == 0


def counts(heaps, width):
    """Per binary column, high to low: how many heaps have a 1 there."""
    return [sum(1 for h in heaps if h >> col & 1) for col in range(width - 1, -1, -1)]


def numbers(text):
    return [int(n) for n in re.findall(r"\d+", text)]


def pairs(text):
    """ "8:2, 7:0" or "1:0 2:0" -> [(8, 2), (7, 0)]."""
    return [(int(a), int(b)) for a, b in re.findall(r"(\d+):(\d+)", text)]


def xor(values):
    x = 0
    for v in values:
        x ^= v
    return x


def said(rules, heaps, misere, ring=False):
    result = strategy.solve(rules, heaps, misere, ring)
    return result, rules.lesson(heaps, misere, ring, result)


# -- the numbers in each rule set's lesson, against the brute force ----------


@pytest.mark.parametrize(
    "spec, heap, misere",
    [
        ("subtract:3", 21, True),
        ("subtract:3", 15, False),
        ("subtract:10", 100, False),
        ("subtract:2", 8, True),
        ("subtract:3", 18, True),
    ],
)
def test_one_heap_subtraction_names_every_number_to_leave(spec, heap, misere):
    """The game of 21 (the seeds': say a multiple of 4, leave 1, 5, 9, 13, 17), Dr. NIM's 15, the game of 100."""
    rules = parse_rules(spec)
    result, words = said(rules, [heap], misere)
    listed = numbers(words[0].split(":", 1)[1])
    want = [h for h in range(heap) if lost(rules, [h], misere)]
    assert listed == want[-10:], (words, want)
    assert words[0].startswith("Leave ") and str(rules.k + 1) in words[0]
    if result["outcome"] == "win":
        n, t, left = numbers(words[1])
        assert (n, n - t) == (heap, left) and left in want and [left] == result["after"]
    else:
        assert lost(rules, [heap], misere) and words[1].startswith("%d is one of them" % heap)
    if spec == "subtract:3" and heap == 21 and misere:
        assert listed == [1, 5, 9, 13, 17]


@pytest.mark.parametrize("heaps", [[5, 6, 7, 7], [4, 6, 7, 7], [1, 2, 3, 9]])
def test_several_heaps_count_modulo_k_plus_1(heaps):
    rules = parse_rules("subtract:3")
    result, words = said(rules, heaps, False)
    values = numbers(words[0].split(":", 1)[1])
    assert values == [brute(rules, [h], False) for h in heaps]
    x = numbers(words[1])[0]
    assert x == xor(values) == brute(rules, heaps, False)
    if x:
        assert brute(rules, result["after"], False) == 0


@pytest.mark.parametrize(
    "spec, heaps",
    [("moore:2", [3, 4, 5, 7]), ("moore:2", [2, 5, 6, 7]), ("moore:2", [3, 5, 6]), ("moore:3", [1, 2, 4, 7])],
)
def test_moore_counts_columns_modulo_k_plus_1(spec, heaps):
    rules = parse_rules(spec)
    m = rules.k + 1
    result, words = said(rules, heaps, False)
    assert "multiple of %d" % m in words[0]
    shown = numbers(words[1])
    width = len(bin(max(heaps))) - 2
    assert shown == counts(heaps, width)
    assert lost(rules, heaps, False) == all(c % m == 0 for c in shown)
    if result["outcome"] == "win":
        leaves = numbers(words[2])
        assert leaves == counts(result["after"], width) and all(c % m == 0 for c in leaves)
        assert lost(rules, result["after"], False)


@pytest.mark.parametrize("heaps", [[3, 5, 7, 7], [2, 4, 6, 7], [1, 3, 5, 7], [7, 7, 7, 2]])
def test_greedy_counts_the_largest_heaps(heaps):
    rules = parse_rules("greedy")
    result, words = said(rules, heaps, False)
    top, many = numbers(words[1])
    assert (top, many) == (max(heaps), heaps.count(max(heaps)))
    assert lost(rules, heaps, False) == (many % 2 == 0)
    if result["outcome"] == "win":
        top, many = numbers(words[2])
        after = result["after"]
        assert (top, many) == (max(after), after.count(max(after))) and many % 2 == 0 and lost(rules, after, False)


@pytest.mark.parametrize("heaps", [[3, 5], [4, 7], [2, 6], [3, 5, 6, 7], [2, 4, 7, 7]])
def test_all_heaps_names_wythoffs_pairs_or_the_tables_value(heaps):
    rules = parse_rules("allheaps")
    result, words = said(rules, heaps, False)
    if len(heaps) == 2:
        listed = numbers(words[0])
        found = list(zip(listed[::2], listed[1::2]))
        want = [(a, b) for b in range(20) for a in range(b + 1) if lost(rules, [a, b], False)]
        want.sort()
        assert found == want[: len(found)] and len(found) >= 3, (found, want)
        if result["outcome"] == "win":
            assert numbers(words[1]) == sorted(result["after"]) and lost(rules, result["after"], False)
        else:
            assert lost(rules, heaps, False) and numbers(words[1]) == sorted(heaps)
    else:
        value = numbers(words[1])[0]
        assert value == brute(rules, heaps, False)
        if value:
            assert brute(rules, result["after"], False) == 0


@pytest.mark.parametrize(
    "spec, heaps",
    [
        ("grundy", [8]),
        ("grundy", [7]),
        ("grundy", [6]),
        ("grundy", [20]),
        ("grundy", [5, 3, 8]),
        ("circular", [5, 3]),
        ("circular", [7]),
    ],
)
def test_values_of_parts_by_size_their_nim_sum_and_the_move(spec, heaps):
    rules = parse_rules(spec)
    result, words = said(rules, heaps, False)
    memo = {}
    table = pairs(words[0].split("Value by size:")[1])
    assert table and all(v == brute(rules, [n], False, False, memo) for n, v in table)
    here = pairs(words[1])
    assert here == [(h, brute(rules, [h], False, False, memo)) for h in heaps]
    x = numbers(words[2])[0]
    assert x == xor([v for _, v in here])
    if x:
        after = pairs(words[3])
        assert xor([v for _, v in after]) == 0 and all(v == brute(rules, [n], False, False, memo) for n, v in after)
        assert sorted(n for n, _ in after) == sorted(h for h in result["after"] if h)


@pytest.mark.parametrize("n", [10, 16, 9, 8])
def test_a_circle_opens_into_a_row_of_value_0(n):
    """The seeds' circle of ten: every first take leaves a row of value not 0."""
    rules = parse_rules("circular")
    result, words = said(rules, [n], False, True)
    memo = {}
    assert all(v == brute(rules, [s], False, False, memo) for s, v in pairs(words[0].split(":", 2)[2]))
    zero = [n - t for t in (1, 2, 3) if brute(rules, [n - t], False, False, memo) == 0]
    assert lost(rules, [n], False, True) == (not zero)
    if zero:
        assert numbers(words[1].split("(")[1]) == zero and result["after"][0] in zero
    else:
        assert "no row" in words[1]


def groups(matrix):
    """Each group of touching lit lamps alone on the board (4-connected): the
    simulator's Nimrod panel finds them by its own flood fill, apart from the
    engine's groups the lesson reads."""
    from nimatron_sim.nimrod import _groups

    return _groups(matrix)


def _cells(rows, width):
    return [[(r >> (width - 1 - c)) & 1 for c in range(width)] for r in rows]


@pytest.mark.parametrize(
    "spec, rows, width",
    [("graph:2", [7, 7, 0, 15], 4), ("graph:2", [11, 8, 14], 4), ("nim2d", [7, 7, 7], 3), ("nim2d", [15, 9, 15], 4)],
)
def test_groups_of_touching_lamps_and_their_values(spec, rows, width):
    rules = parse_rules(spec)
    matrix = _cells(rows, width)
    result, words = said(rules, matrix, False)
    shown = pairs(words[1])
    parts = groups(matrix)
    memo = {}
    assert sorted(shown) == sorted((sum(map(sum, g)), brute(rules, g, False, False, memo)) for g in parts)
    x = numbers(words[2])[0]
    assert x == xor([v for _, v in shown]) == brute(rules, matrix, False, False, memo)


def test_misere_nim_says_the_seeds_endgame_rule():
    rules = parse_rules("nim")
    _, words = said(rules, [1, 3, 5, 7], True)
    assert words == ["Misere: play as in Nim until only heaps of 1 would be left, then leave an odd number of them"]


# -- the same words on every screen, in three languages --------------------

SEEDS = [
    ("subtract:3", [21], True, False),
    ("subtract:3", [15], False, False),
    ("subtract:3", [5, 6, 7, 7], False, False),
    ("moore:2", [3, 4, 5, 7], False, False),
    ("greedy", [2, 4, 6, 7], False, False),
    ("allheaps", [3, 5, 6, 7], False, False),
    ("allheaps", [4, 6], False, False),
    ("grundy", [8], False, False),
    ("circular", [10], False, True),
    ("graph:2", _cells([7, 7, 0, 15], 4), False, False),
    ("nim2d", _cells([7, 5, 7], 3), False, False),
    ("nim", [1, 3, 5, 7], True, False),
    ("candy", [1, 3, 5, 7], True, False),
    ("subtract:3", [5, 6, 7, 7], True, False),
]


@pytest.mark.parametrize("spec, heaps, misere, ring", SEEDS)
def test_every_rule_set_teaches_on_every_screen_in_every_language(spec, heaps, misere, ring):
    rules = parse_rules(spec)
    result, words = said(rules, heaps, misere, ring)
    assert words, "%s teaches nothing" % spec
    panel = nimrod_for(rules, misere, heaps, ring, VISITOR)
    keys = [key for key, _ in panel["lines"]]
    assert "nimrod.other" not in keys and "nimrod.nimber" not in keys
    taught = [params["note"] for key, params in panel["lines"] if key == "nimrod.lesson"]
    if panel["kind"] == "other":
        assert taught == words
    elif panel["kind"] == "values":
        assert taught == words[:1]
    for lang in LANGS:
        w = Words(lang)
        text = "\n".join(lines(panel, w))
        for sentence in taught:
            shown = w.phrase(sentence)
            assert shown + "." in text
            assert numbers(shown) == numbers(sentence), (lang, sentence, shown)
            if lang != "en":
                assert shown != sentence, "untranslated in %s: %s" % (lang, sentence)
        assert "knows the theory" not in text and not w.missing
        for sentence in words:  # EXPLAIN's and the log's words: each part through the phrase table
            assert lang == "en" or w.phrase(sentence) != sentence, "untranslated in %s: %s" % (lang, sentence)
    # the firmware's words (EXPLAIN, the log's reason): the lesson, then the move
    from nimatron_sim.engine import Simulator

    own = {"circular": "circular", "graph:2": "graph", "nim2d": "nim2d"}  # rule sets whose starts are not rows of heaps
    settings = {"preset": own[spec]} if spec in own else {"rules": spec}
    with Simulator("pico-grid", dict(settings, misere=misere)) as sim:
        c = sim.controller
        text = c.explain(heaps, ring, result)
    parts = text.split("; ")
    assert parts[: len(words)] == words or parts[1 : len(words) + 1] == words, text
    assert "winning move: " in text or "plays for time: " in text


def test_solve_prints_the_rule_for_the_game_of_21(capsys):
    from nimatron_host.cli import main

    assert main(["solve", "--rules", "subtract:3", "--misere", "21"]) == 0
    out = capsys.readouterr().out
    assert "Leave 1 more than a multiple of 4: 1, 5, 9, 13, 17." in out
    assert main(["solve", "--rules", "moore:2", "3", "5", "6"]) == 0
    out = capsys.readouterr().out
    assert "count the 1s in each column" in out and "Counts in the columns: 2, 2, 2." in out and "Sprague" not in out
    assert main(["solve", "--rules", "grundy", "100"]) == 0
    out = capsys.readouterr().out
    assert "Value by size: 1:0 2:0 3:1 4:0 5:2" in out and "After the move: 82:4, 18:4." in out


@pytest.mark.parametrize("heaps", [[3, 4, 5], [1, 2], [7, 7, 7, 1], [30, 4, 5]])
def test_solves_binary_is_headed_by_its_column_values_and_says_how_the_nim_sum_is_made(heaps, capsys):
    """Words a twelve-year-old reads: the columns' worth over the digits, the word binary, and the odd-count rule."""
    from nimatron_host.cli import main

    assert main(["solve", "--rules", "nim"] + [str(h) for h in heaps]) == 0
    out = capsys.readouterr().out.splitlines()
    width = len(bin(max(heaps + [xor(heaps)]))) - 2
    head = [line for line in out if "binary: the columns are worth" in line]
    assert len(head) == 1 and head[0].endswith(", ".join(str(1 << c) for c in range(width - 1, -1, -1)))
    rows = out[out.index(head[0]) + 1 : out.index(head[0]) + 1 + len(heaps)]
    assert [int(line.split()[0], 2) for line in rows] == heaps  # the digits under the header are the heaps in binary
    if width <= 4:
        assert head[0][2 : 2 + width] == "".join(str(1 << c) for c in range(width - 1, -1, -1))
    assert any("an odd count of 1s gives a 1" in line for line in out)
