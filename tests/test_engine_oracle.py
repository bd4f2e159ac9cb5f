# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The strategy engine against an independent exhaustive search.

The search is tests/oracle.py; it shares no code with the engine.

Every position at exhibit size, every rule set, normal and misère play:
  * heap rules: 1..4 heaps of 0..7, every ordering;
  * circular: every ring of 1..16 and every multiset of rows totalling <= 16;
  * grundy: every multiset of heaps totalling <= 24.
For each: the outcome and the nimber match the oracle, ``after`` is a legal
move (a winning one when the outcome is "win"), ``ring`` is False once a move
is made, ``after`` is None exactly when no move exists.

Beyond exhibit size the engine answers from theory; those answers are checked
against formulas written here from the seed documents (Bouton's nim-sum and
misère rule, heaps mod K+1, Moore's digit sums, the greedy parity theorem,
Wythoff's pairs, Grundy's game values).
"""

import os
import random
import subprocess
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
FIRMWARE = os.path.join(os.path.dirname(HERE), "firmware")
if HERE not in sys.path:
    sys.path.insert(0, HERE)
try:
    import nimatron  # noqa: F401  (installed editable by tools/setup.sh)
except ImportError:
    sys.path.insert(0, FIRMWARE)

import oracle  # noqa: E402
from nimatron.games.rules import RulesError  # noqa: E402
from nimatron.games.strategy import solve  # noqa: E402

HEAP_RULES = ["nim", "subtract:1", "subtract:2", "subtract:3", "moore:2", "moore:3", "greedy", "allheaps"]
PLAY = [pytest.param(False, id="normal"), pytest.param(True, id="misere")]

_ORACLES = {}


def oracle_for(spec):
    """One oracle per rule set per test process (the memo is the cost)."""
    if spec not in _ORACLES:
        _ORACLES[spec] = oracle.Oracle(spec)
    return _ORACLES[spec]


def sweep(spec, positions, misere, ring=False):
    """Solve every position; return (count, failures) against the oracle."""
    o = oracle_for(spec)
    failures = []
    count = 0
    for position in positions:
        count += 1
        given = list(position)
        try:
            result = solve(spec, given, misere=misere, ring=ring)
        except Exception as exc:  # report every position, not just the first
            failures.append((position, ["raised %r" % (exc,)]))
            continue
        problems = oracle.judge(o, position, result, misere, ring)
        if given != list(position):
            problems.append("solve changed its input to %r" % (given,))
        if problems:
            failures.append((position, problems))
    return count, failures


def report(spec, misere, count, failures):
    mode = "misere" if misere else "normal"
    lines = ["%s %s: %d of %d positions wrong" % (spec, mode, len(failures), count)]
    for position, problems in failures[:12]:
        lines.append("  %r: %s" % (position, "; ".join(problems)))
    return "\n".join(lines)


# ------------------------------------------------ exhaustive, exhibit size


@pytest.mark.parametrize("misere", PLAY)
@pytest.mark.parametrize("spec", HEAP_RULES)
def test_every_heap_position(spec, misere):
    count, failures = sweep(spec, oracle.ordered_positions(4, 7), misere)
    assert count == 8 + 8**2 + 8**3 + 8**4
    assert not failures, report(spec, misere, count, failures)


@pytest.mark.parametrize("misere", PLAY)
def test_every_ring(misere):
    rings = [[n] for n in range(1, 17)]
    count, failures = sweep("circular", rings, misere, ring=True)
    assert not failures, report("circular ring", misere, count, failures)


@pytest.mark.parametrize("misere", PLAY)
def test_every_set_of_rows(misere):
    count, failures = sweep("circular", oracle.partitions(16), misere)
    assert count == 914  # p(1) + ... + p(16)
    assert not failures, report("circular rows", misere, count, failures)


@pytest.mark.parametrize("misere", PLAY)
def test_every_grundy_position(misere):
    count, failures = sweep("grundy", oracle.partitions(24), misere)
    assert count == 7337  # p(1) + ... + p(24)
    assert not failures, report("grundy", misere, count, failures)


def test_order_of_rows_does_not_matter():
    """Multiset rules accept their parts in any order."""
    rng = random.Random(7)
    for spec, total in (("circular", 16), ("grundy", 24)):
        for parts in oracle.partitions(total, total):
            if len(parts) < 2 or rng.random() > 0.2:
                continue
            shuffled = list(parts)
            rng.shuffle(shuffled)
            for misere in (False, True):
                a = solve(spec, list(parts), misere=misere)
                b = solve(spec, shuffled, misere=misere)
                assert (a["outcome"], a["nimber"]) == (b["outcome"], b["nimber"]), (spec, parts, shuffled)
                assert oracle.judge(oracle_for(spec), shuffled, b, misere) == [], (spec, shuffled, b)


# ------------------------------------------- the oracle checks its own rules


@pytest.mark.parametrize("spec", HEAP_RULES)
def test_oracle_is_move_matches_its_move_list(spec):
    """The direct legality test agrees with the enumerated moves."""
    o = oracle_for(spec)
    for before in oracle.ordered_positions(3, 4):
        listed = set(o.moves(before))
        for after in oracle.ordered_positions(len(before), 4, len(before)):
            assert o.is_move(before, after) == (tuple(after) in listed), (spec, before, after)


def test_oracle_grundy_search_agrees_with_heap_values():
    """Full multiset search = XOR of single-heap values (Sprague-Grundy)."""
    o = oracle_for("grundy")
    values = oracle.grundy_heap_values(24)
    for parts in oracle.partitions(24):
        total = 0
        for p in parts:
            total ^= values[p]
        assert o.sg(parts) == total, parts


def test_oracle_circular_rows_are_octal_0777():
    """A row is octal game .777: take 1-3 from an end or the middle.

    Values worked by hand from the definition, e.g. row 5: taking 1 leaves
    4|0, 3|1, 2|2 (values 4, 3^1=2, 0), taking 2 leaves 3|0, 2|1 (3, 3),
    taking 3 leaves 2|0, 1|1 (2, 0): mex{0, 2, 3, 4} = 1. A ring of n breaks
    into one row of n-1, n-2 or n-3."""
    o = oracle_for("circular")
    assert [o.sg([n]) for n in range(7)] == [0, 1, 2, 3, 4, 1, 6]
    assert [o.sg([n], ring=True) for n in range(1, 8)] == [1, 2, 3, 0, 0, 0, 0]


def test_judge_catches_wrong_answers():
    """The checker itself: each kind of mistake is reported."""
    o = oracle_for("nim")
    good = {"outcome": "win", "after": [1, 4, 5], "ring": False, "nimber": 2}
    assert oracle.judge(o, [3, 4, 5], good) == []
    for bad in (
        dict(good, outcome="loss"),
        dict(good, nimber=3),
        dict(good, after=[2, 4, 5]),
        dict(good, after=[1, 3, 5]),
        dict(good, after=None),
        dict(good, ring=True),
        dict(good, after=(1, 4, 5)),
    ):
        assert oracle.judge(o, [3, 4, 5], bad), bad
    assert oracle.judge(o, [3, 4, 5], good, misere=True)  # nimber 2
    assert oracle.judge(o, [3, 4, 5], dict(good, nimber=None), True) == []
    none = {"outcome": "win", "after": None, "ring": False, "nimber": None}
    assert oracle.judge(o, [0, 0], none, misere=True) == []
    assert oracle.judge(o, [0, 0], none, misere=False)


# ---------------------------------------------- theory at large sizes


def xor(heaps):
    total = 0
    for h in heaps:
        total ^= h
    return total


def moore_p(heaps, k):
    """Moore 1910: P iff every binary digit summed over heaps is 0 mod k+1."""
    bit = 1
    while bit <= max(heaps + [0]):
        if sum(1 for h in heaps if h & bit) % (k + 1):
            return False
        bit <<= 1
    return True


def greedy_p(heaps):
    """Greedy Nim: P iff the number of largest heaps is even (0 included)."""
    top = max(heaps)
    return top == 0 or heaps.count(top) % 2 == 0


def subtract_p(heaps, k):
    return xor([h % (k + 1) for h in heaps]) == 0


def misere_nim_p(heaps):
    """Bouton: as normal play unless every heap is 0 or 1; then P iff the
    number of 1s is odd."""
    if max(heaps) <= 1:
        return sum(heaps) % 2 == 1
    return xor(heaps) == 0


THEORY = {
    "nim": lambda hs: xor(hs) == 0,
    "subtract:1": lambda hs: subtract_p(hs, 1),
    "subtract:3": lambda hs: subtract_p(hs, 3),
    "subtract:10": lambda hs: subtract_p(hs, 10),
    "moore:1": lambda hs: moore_p(hs, 1),
    "moore:2": lambda hs: moore_p(hs, 2),
    "moore:3": lambda hs: moore_p(hs, 3),
    "greedy": greedy_p,
}
THEORY_NIMBER = {
    "nim": xor,
    "subtract:1": lambda hs: xor([h % 2 for h in hs]),
    "subtract:3": lambda hs: xor([h % 4 for h in hs]),
    "subtract:10": lambda hs: xor([h % 11 for h in hs]),
    "moore:1": xor,
}


def big_positions(spec, is_p, count=120, heaps=8, top=65535):
    """Random large positions, half of them made into P-positions."""
    rng = random.Random(spec)
    out = []
    while len(out) < count:
        hs = [rng.randint(0, top) for _ in range(rng.randint(1, heaps))]
        if len(out) % 2:
            hs = make_p(spec, hs, rng)
            if hs is None or not is_p(hs):
                continue
        out.append(hs)
    out.append([top] * heaps)
    out.append([top] * (heaps - 1) + [top - 1])
    return out


def make_p(spec, hs, rng):
    name = spec.split(":")[0]
    if name in ("nim", "moore"):
        k = int(spec.split(":")[1]) if ":" in spec else 1
        hs = list(hs)
        bit = 1
        while bit <= 65535:
            holders = [i for i in range(len(hs)) if hs[i] & bit]
            for i in holders[: len(holders) % (k + 1)]:
                hs[i] &= ~bit
            bit <<= 1
        return hs
    if name == "greedy":
        top = max(hs)
        return [h for h in hs if h != top] + [top, top]
    if name == "subtract":
        k = int(spec.split(":")[1])
        rest = xor([h % (k + 1) for h in hs[:-1]])
        if rest > k:
            return None
        return hs[:-1] + [hs[-1] - hs[-1] % (k + 1) + rest if hs[-1] - hs[-1] % (k + 1) + rest <= 65535 else rest]
    raise AssertionError(spec)


def check_theory_answer(spec, hs, result, is_p, misere=False):
    o = oracle_for(spec)  # used only for the legality test, no search
    expected = "loss" if is_p(hs) else "win"
    assert result["outcome"] == expected, (spec, hs, result)
    after = result["after"]
    if max(hs) == 0:
        assert after is None, (spec, hs, result)
        return
    assert type(after) is list and o.is_move(hs, after), (spec, hs, result)
    assert result["ring"] is False
    if expected == "win":
        assert is_p(after), ("after is not a P-position", spec, hs, result)


@pytest.mark.parametrize("spec", sorted(THEORY))
def test_theory_sizes_normal_play(spec):
    is_p = THEORY[spec]
    for hs in big_positions(spec, is_p):  # how fast: tests/bench_engine.py
        result = solve(spec, list(hs))
        check_theory_answer(spec, hs, result, is_p)
        nimber = result["nimber"]
        if spec in THEORY_NIMBER:
            assert nimber == THEORY_NIMBER[spec](hs), (spec, hs, result)
        elif nimber is not None:  # may be None here; if given, consistent
            assert (nimber == 0) == is_p(hs), (spec, hs, result)


def test_theory_sizes_misere_nim():
    rng = random.Random("misere nim")
    cases = big_positions("nim", THEORY["nim"])
    for _ in range(40):  # the endgame: heaps of 0 and 1 with one big heap
        hs = [rng.randint(0, 1) for _ in range(rng.randint(1, 8))]
        hs[rng.randrange(len(hs))] = rng.choice([0, 1, 2, 3, 65535])
        cases.append(hs)
    for hs in cases:
        result = solve("nim", list(hs), misere=True)
        assert result["nimber"] is None, (hs, result)
        if max(hs) == 0:
            assert result == {"outcome": "win", "after": None, "ring": False, "nimber": None}
            continue
        check_theory_answer("nim", hs, result, misere_nim_p)


def test_wythoff_two_heaps_up_to_100():
    """allheaps with two heaps is Wythoff's game: P iff a Wythoff pair."""
    pairs = oracle.wythoff_pairs(70)  # b reaches past 100
    losing = set()
    for a, b in pairs:
        losing.add((a, b))
        losing.add((b, a))
    o = oracle_for("allheaps")
    for a in range(101):
        for b in range(101):
            result = solve("allheaps", [a, b])
            assert result["outcome"] == ("loss" if (a, b) in losing else "win"), (a, b, result)
            after = result["after"]
            if (a, b) == (0, 0):
                assert after is None
                continue
            assert type(after) is list and o.is_move([a, b], after), (a, b, result)
            if (a, b) not in losing:
                assert tuple(after) in losing, (a, b, result)
            if result["nimber"] is not None:
                assert result["nimber"] == o.sg([a, b]), (a, b, result)


def test_wythoff_two_heaps_misere_up_to_40():
    """Misère Wythoff against the oracle, or a clear size error."""
    o = oracle_for("allheaps")
    for a in range(41):
        for b in range(41):
            try:
                result = solve("allheaps", [a, b], misere=True)
            except RulesError:
                continue  # beyond the engine's misère limit: allowed
            assert oracle.judge(o, [a, b], result, True) == [], (a, b, result)


def test_allheaps_three_heaps_up_to_20_sample():
    rng = random.Random("allheaps 3")
    o = oracle_for("allheaps")
    positions = [[rng.randint(0, 20) for _ in range(3)] for _ in range(300)]
    positions += [[20, 20, 20], [0, 20, 20], [1, 2, 3], [20, 19, 18]]
    for hs in positions:
        result = solve("allheaps", list(hs))
        problems = oracle.judge(o, hs, result, nimber_optional=True)
        assert problems == [], (hs, result, problems)


def test_grundy_one_heap_up_to_200():
    values = oracle.grundy_heap_values(200)
    o = oracle_for("grundy")
    for n in range(1, 201):
        result = solve("grundy", [n])
        assert result["nimber"] == values[n], (n, result)
        assert result["outcome"] == ("win" if values[n] else "loss"), (n, result)
        after = result["after"]
        if n <= 2:
            assert after is None, (n, result)
            continue
        assert o.is_move([n], after), (n, result)
        if values[n]:
            assert xor([values[p] for p in after]) == 0, (n, result)


# ------------------------------------------------ determinism and seeds

SEED_POSITIONS = [
    ("nim", [3, 5, 6, 7], False),
    ("nim", [7, 7, 6, 1], True),
    ("nim", [12, 9, 5], False),
    ("subtract:3", [6, 7, 5, 2], False),
    ("moore:2", [7, 6, 5, 4], False),
    ("moore:3", [7, 3, 5, 1], True),
    ("greedy", [7, 7, 7, 2], False),
    ("allheaps", [6, 5, 3, 2], True),
    ("grundy", [9, 10, 11], False),
    ("grundy", [7, 8, 9], True),
    ("circular", [5, 4, 3], False),
    ("circular", [9, 2], True),
    ("circular", [16], False),
    ("nim", [0, 0], False),
]


@pytest.mark.parametrize("spec,heaps,misere", SEED_POSITIONS)
def test_same_input_same_answer(spec, heaps, misere):
    ring = spec == "circular" and len(heaps) == 1
    first = solve(spec, list(heaps), misere=misere, ring=ring)
    for other in SEED_POSITIONS:  # other work in between must not matter
        solve(other[0], list(other[1]), misere=other[2])
    assert solve(spec, list(heaps), misere=misere, ring=ring) == first
    assert solve(spec, list(heaps), misere, ring) == first


@pytest.mark.parametrize("spec,heaps,misere", SEED_POSITIONS)
def test_seed_varies_only_among_equally_good_moves(spec, heaps, misere):
    ring = spec == "circular" and len(heaps) == 1
    o = oracle_for(spec)
    plain = solve(spec, list(heaps), misere=misere, ring=ring)
    good = o.winning_moves(heaps, misere, ring)
    for seed in range(25):
        result = solve(spec, list(heaps), misere=misere, ring=ring, seed=seed)
        assert result["outcome"] == plain["outcome"]
        assert result["nimber"] == plain["nimber"]
        assert oracle.judge(o, heaps, result, misere, ring) == [], (seed, result)
        if good:  # a winning move stays a winning move
            after = result["after"]
            chosen = tuple(after) if o.ordered else oracle.multiset(after)
            assert chosen in good, (seed, result, good)
        assert solve(spec, list(heaps), misere=misere, ring=ring, seed=seed) == result  # a seed replays


# ------------------------------------------------------------ bad input


def test_errors_are_value_errors():
    assert issubclass(RulesError, ValueError)


@pytest.mark.parametrize(
    "spec,position,kwargs",
    [
        ("chess", [1, 2], {}),
        ("", [1, 2], {}),
        ("subtract:0", [3], {}),
        ("subtract:x", [3], {}),
        ("subtract", [3], {}),
        ("moore:0", [3, 3], {}),
        ("nim", [3, -1], {}),
        ("nim", [3, 1.5], {}),
        ("nim", [3, "4"], {}),
        ("nim", [3, None], {}),
        ("circular", [3, 4], {"ring": True}),
        ("circular", [], {"ring": True}),
        ("nim", [5], {"ring": True}),
        ("grundy", [5], {"ring": True}),
        ("grundy", [5, -2], {}),
    ],
)
def test_bad_input_is_refused(spec, position, kwargs):
    with pytest.raises(ValueError) as info:
        solve(spec, position, **kwargs)
    assert isinstance(info.value, RulesError)
    assert str(info.value).strip(), "an error needs a message"


BEYOND_LIMITS = [
    ("moore:2", [1000] * 8, True),
    ("moore:3", [1000] * 8, True),
    ("greedy", [1000] * 8, True),
    ("subtract:3", [1000] * 8, True),
    ("allheaps", [1000] * 8, True),
    ("allheaps", [1000] * 8, False),
    ("grundy", [1000, 999, 998], True),
    ("circular", [400, 300, 200], True),
]


@pytest.mark.parametrize("spec,heaps,misere", BEYOND_LIMITS)
def test_beyond_search_limits_fails_fast(spec, heaps, misere):
    """No hang: either an answer or a RulesError (size); how fast is a benchmark's business.

    Run in a child process so a hang is killed instead of stalling pytest.
    """
    code = (
        "import sys\n"
        "sys.path.insert(0, %r)\n"
        "from nimatron.games.strategy import solve\n"
        "try:\n"
        "    r = solve(%r, %r, misere=%r)\n"
        "    print('answer', r['outcome'])\n"
        "except ValueError as e:\n"
        "    from nimatron.games.rules import RulesError\n"
        "    print('error', isinstance(e, RulesError), repr(str(e)))\n"
    ) % (FIRMWARE, spec, heaps, misere)
    try:
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        pytest.fail("solve(%r, %r, misere=%r) hung for 120 s" % (spec, heaps, misere))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith("answer") or lines[0].startswith("error True"), done.stdout
    if lines[0].startswith("error"):
        assert len(lines[0]) > len("error True ''"), "error without message"


def test_misere_moore_far_beyond_limits_is_a_size_error():
    with pytest.raises(ValueError) as info:
        solve("moore:2", [1000] * 8, misere=True)
    assert isinstance(info.value, RulesError)
    assert str(info.value).strip()


def test_oracle_doctests():
    import doctest

    assert doctest.testmod(oracle).failed == 0
