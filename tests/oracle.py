# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Exhaustive game-tree oracle for the Nimatron strategy tests.

Written from the rules alone: it shares no code with ``nimatron`` and uses no
theory (no nim-sums, no closed forms), only the definition of each game, a
plain search and a dict memo. It is slow on purpose and small enough to trust.

    >>> o = Oracle("nim")
    >>> o.win([1, 2, 3]), o.sg([1, 2, 3]), o.win([1, 1], misere=True)
    (False, 0, True)
    >>> sorted(Oracle("grundy").moves([6]))
    [(1, 5), (2, 4)]

Positions
  * ordered rules (nim, subtract:K, moore:K, greedy, allheaps): a list of heap
    sizes; a move keeps the length and heaps may fall to 0. ``moves`` returns
    tuples in the same heap order.
  * grundy and circular: a multiset of heaps / rows, canonically a sorted
    tuple of the parts >= 1. A circle of n objects is ``ring=True`` with the
    position ``[n]``.

Written in the subset shared by CPython and MicroPython (no functools,
itertools, typing or dataclasses; no int.bit_length), so the MicroPython test
runner uses the very same oracle.
"""

ORDERED_RULES = ("nim", "subtract", "moore", "greedy", "allheaps", "candy")
MULTISET_RULES = ("grundy", "circular")
NEEDS_K = ("subtract", "moore")


def parse_spec(spec):
    """ "moore:2" -> ("moore", 2); "nim" -> ("nim", None)."""
    if ":" in spec:
        name, arg = spec.split(":", 1)
        k = int(arg)
    else:
        name, k = spec, None
    if name not in ORDERED_RULES and name not in MULTISET_RULES:
        raise ValueError("oracle does not know rules %r" % spec)
    if (name in NEEDS_K) != (k is not None) or (k is not None and k < 1):
        raise ValueError("bad rules spec %r" % spec)
    return name, k


def mex(values):
    n = 0
    while n in values:
        n += 1
    return n


def multiset(parts):
    """Canonical multiset: sorted tuple of the parts >= 1."""
    return tuple(sorted([p for p in parts if p > 0]))


# ---------------------------------------------------------------- move lists


def _nim_moves(hs):
    for i in range(len(hs)):
        for v in range(hs[i]):
            yield hs[:i] + (v,) + hs[i + 1 :]


def _subtract_moves(hs, k):
    for i in range(len(hs)):
        low = hs[i] - k
        if low < 0:
            low = 0
        for v in range(low, hs[i]):
            yield hs[:i] + (v,) + hs[i + 1 :]


def _moore_moves(hs, k, i=0, changed=0):
    """Every way to lower 1..k distinct heaps, each by any amount >= 1."""
    if i == len(hs):
        if changed:
            yield hs
        return
    # leave heap i alone
    for after in _moore_moves(hs, k, i + 1, changed):
        yield after
    if changed < k:
        for v in range(hs[i]):
            lowered = hs[:i] + (v,) + hs[i + 1 :]
            for after in _moore_moves(lowered, k, i + 1, changed + 1):
                yield after


def _greedy_moves(hs):
    top = 0
    for h in hs:
        if h > top:
            top = h
    for i in range(len(hs)):
        if hs[i] == top and top > 0:
            for v in range(top):
                yield hs[:i] + (v,) + hs[i + 1 :]


def _allheaps_moves(hs):
    for after in _nim_moves(hs):
        yield after
    if len(hs) > 1:  # with one heap the "every heap" move is a nim move
        low = hs[0]
        for h in hs:
            if h < low:
                low = h
        for t in range(1, low + 1):
            yield tuple([h - t for h in hs])


def _grundy_moves(parts):
    """parts: sorted tuple. Split one heap into two unequal non-empty heaps."""
    done = []
    for i in range(len(parts)):
        h = parts[i]
        if h in done:
            continue
        done.append(h)
        rest = parts[:i] + parts[i + 1 :]
        a = 1
        while a < h - a:
            yield multiset(rest + (a, h - a))
            a += 1


def _row_moves(parts):
    """parts: sorted tuple of rows. Take 1..3 adjacent objects from a row."""
    done = []
    for i in range(len(parts)):
        n = parts[i]
        if n in done:
            continue
        done.append(n)
        rest = parts[:i] + parts[i + 1 :]
        for t in (1, 2, 3):
            if t > n:
                break
            left = 0
            while left <= n - t - left:  # the mirror image gives the same
                yield multiset(rest + (left, n - t - left))
                left += 1


def _ring_moves(n):
    """A circle of n: taking t adjacent objects leaves one row of n - t."""
    for t in (1, 2, 3):
        if t <= n:
            yield multiset((n - t,))


# ---------------------------------------------------------------- the oracle


class Oracle:
    """Win/loss and Sprague-Grundy values of one rule set by full search."""

    def __init__(self, spec):
        self.spec = spec
        self.name, self.k = parse_spec(spec)
        self.ordered = self.name in ORDERED_RULES
        self._sg = {}
        self._misere = {}
        self._candy = {}

    def _raw_moves(self, pos):
        """Successors of a tuple position (ordered, or sorted multiset)."""
        name = self.name
        if name in ("nim", "candy"):
            return _nim_moves(pos)
        if name == "subtract":
            return _subtract_moves(pos, self.k)
        if name == "moore":
            return _moore_moves(pos, self.k)
        if name == "greedy":
            return _greedy_moves(pos)
        if name == "allheaps":
            return _allheaps_moves(pos)
        if name == "grundy":
            return _grundy_moves(pos)
        return _row_moves(pos)

    def moves(self, position, ring=False):
        """Every position reachable in one move, each once, as tuples."""
        if ring:
            self._check_ring(position)
            src = _ring_moves(position[0])
        elif self.ordered:
            src = self._raw_moves(tuple(position))
        else:
            src = self._raw_moves(multiset(position))
        out = []
        seen = set()
        for after in src:
            if after not in seen:
                seen.add(after)
                out.append(after)
        return out

    def _check_ring(self, position):
        if self.name != "circular" or len(position) != 1:
            raise ValueError("a ring is one circle of circular nim")

    def is_move(self, before, after, ring=False):
        """Is ``after`` reachable from ``before`` in one legal move?

        Ordered rules compare heap by heap (a direct reading of the rule,
        cross-checked against ``moves`` in the tests); grundy and circular
        compare canonical multisets.
        """
        if ring or not self.ordered:
            return multiset(after) in self.moves(before, ring)
        if len(after) != len(before):
            return False
        diffs = []
        for i in range(len(before)):
            a = after[i]
            if type(a) is not int or a < 0 or a > before[i]:
                return False
            diffs.append(before[i] - a)
        changed = [i for i in range(len(diffs)) if diffs[i] > 0]
        if not changed:
            return False
        name = self.name
        if name in ("nim", "candy"):
            return len(changed) == 1
        if name == "subtract":
            return len(changed) == 1 and diffs[changed[0]] <= self.k
        if name == "moore":
            return len(changed) <= self.k
        if name == "greedy":
            return len(changed) == 1 and before[changed[0]] == max(before)
        # allheaps: one heap, or the same amount from every heap
        if len(changed) == 1:
            return True
        if len(changed) != len(before):
            return False
        return all(d == diffs[0] for d in diffs)

    def _canon(self, position):
        """The position as the search sees it: a sorted tuple (every rule
        here is symmetric in its heaps); Grundy heaps of 1 and 2 never move,
        so they are dropped."""
        if self.ordered:
            return tuple(sorted(position))
        if self.name == "grundy":
            return tuple(sorted([p for p in position if p > 2]))
        return multiset(position)

    def _key(self, canon):
        """A small int naming a canonical position, for the memo.

        Int keys keep a MicroPython heap from fragmenting (tuple keys live
        forever, scattered between the garbage). Ordered rules: one base-256
        digit per heap, heap + 1 (so the heap count is implied). Multisets:
        a 1 bit, then for each part p, p one bits and a zero bit.
        """
        if self.ordered:
            key = 0
            for h in canon:
                if h > 254:
                    return canon  # big heaps: a tuple key, still exact
                key = key * 256 + h + 1
            return key
        key = 1
        for p in canon:
            key = ((key << p) | ((1 << p) - 1)) << 1
        return key

    def _sg_canon(self, canon):
        memo = self._sg
        key = self._key(canon)
        if key in memo:
            return memo[key]
        seen = set()
        for after in self._raw_moves(canon):
            seen.add(self._sg_canon(self._canon(after)))
        value = mex(seen)
        memo[key] = value
        return value

    def _misere_canon(self, canon):
        """True when the player to move wins misere play."""
        memo = self._misere
        key = self._key(canon)
        if key in memo:
            return memo[key]
        value = True  # no move at all: the previous player moved last, lost
        for after in self._raw_moves(canon):
            value = False
            if not self._misere_canon(self._canon(after)):
                value = True
                break
        memo[key] = value
        return value

    def sg(self, position, ring=False):
        """Sprague-Grundy value in normal play."""
        if ring:
            self._check_ring(position)
            seen = set()
            for after in _ring_moves(position[0]):
                seen.add(self._sg_canon(self._canon(after)))
            return mex(seen)
        return self._sg_canon(self._canon(position))

    def win(self, position, misere=False, ring=False):
        """Does the player to move win with perfect play?"""
        if not misere:
            return self.sg(position, ring) != 0
        if ring:
            self._check_ring(position)
            value = True
            for after in _ring_moves(position[0]):
                value = False
                if not self._misere_canon(self._canon(after)):
                    return True
            return value
        return self._misere_canon(self._canon(position))

    def winning_moves(self, position, misere=False, ring=False):
        """The moves that leave the opponent lost."""
        return [a for a in self.moves(position, ring) if not self.win(a, misere)]

    def candy(self, position, misere=False, memo=None):
        """Candy Nim by plain minimax: (mover wins, the most candies the
        mover takes from now on), each player wanting first the win, then
        the most candies for themselves."""
        if memo is None:
            memo = self._candy.setdefault(misere, {})
        pos = tuple(sorted(position))
        if pos in memo:
            return memo[pos]
        total = sum(pos)
        best = (misere, 0)  # no move: the last candy went to the other player
        first = True
        for after in self._raw_moves(pos):
            win, got = self.candy(after, misere, memo)
            mine = (not win, total - got)
            if first or mine > best:
                best, first = mine, False
        memo[pos] = best
        return best

    def forget(self):
        """Drop the memo (frees memory on a small heap)."""
        self._sg = {}
        self._misere = {}
        self._candy = {}


# ------------------------------------------------------------ position lists


def ordered_positions(max_heaps, max_size, min_heaps=1):
    """Every list of min_heaps..max_heaps heaps of 0..max_size, all orders."""
    for n in range(min_heaps, max_heaps + 1):
        hs = [0] * n
        while True:
            yield list(hs)
            i = n - 1
            while i >= 0 and hs[i] == max_size:
                hs[i] = 0
                i -= 1
            if i < 0:
                break
            hs[i] += 1


def partitions(max_total, min_total=1, largest=None):
    """Every multiset of parts >= 1 with min_total <= total <= max_total,
    as a non-increasing list."""
    for total in range(min_total, max_total + 1):
        for p in _partitions_of(total, total if largest is None else largest):
            yield p


def _partitions_of(total, largest):
    if total == 0:
        yield []
        return
    top = largest if largest < total else total
    for first in range(top, 0, -1):
        for rest in _partitions_of(total - first, first):
            yield [first] + rest


def grundy_heap_values(limit):
    """Sprague-Grundy values of single heaps 0..limit of Grundy's game.

    A split leaves two independent heaps, so by the Sprague-Grundy theorem
    its value is the XOR of theirs; the tests check this against the full
    multiset search wherever that search is affordable.
    """
    g = [0] * (limit + 1)
    for n in range(3, limit + 1):
        seen = set()
        a = 1
        while a < n - a:
            seen.add(g[a] ^ g[n - a])
            a += 1
        g[n] = mex(seen)
    return g


# ------------------------------------------------------------ judging answers


def _as_canon(oracle, position):
    if oracle.ordered:
        return tuple(position)
    return multiset(position)


def first_move(oracle, position, ring=False):
    """One legal move, or None when the position has none (cheap)."""
    if ring:
        oracle._check_ring(position)
        src = _ring_moves(position[0])
    elif oracle.ordered:
        src = oracle._raw_moves(tuple(position))
    else:
        src = oracle._raw_moves(multiset(position))
    for after in src:
        return after
    return None


def judge(oracle, position, result, misere=False, ring=False, search=True, nimber_optional=False):
    """Everything wrong with one ``solve`` answer; [] when it is right.

    Always: the keys, legality of ``after`` (or None exactly when no move
    exists), ``ring`` False once a move is made, ``nimber`` None in misere.
    With ``search``: the outcome, the exact nimber in normal play (or None,
    with ``nimber_optional``, beyond exhibit size), and that a "win" answer
    moves to a position the opponent loses.
    """
    problems = []
    if type(result) is not dict:
        return ["solve returned %r, not a dict" % (result,)]
    for name in ("outcome", "after", "ring", "nimber"):
        if name not in result:
            problems.append("no %r in %r" % (name, result))
    if problems:
        return problems
    outcome = result["outcome"]
    after = result["after"]
    if outcome not in ("win", "loss"):
        problems.append("outcome %r is neither 'win' nor 'loss'" % (outcome,))
    legal = first_move(oracle, position, ring)
    if legal is None:
        if after is not None:
            problems.append("no legal move exists but after is %r" % (after,))
    elif after is None:
        problems.append("after is None but %r is legal" % (list(legal),))
    else:
        if type(after) is not list:
            problems.append("after %r is not a list" % (after,))
        bad = [p for p in after if type(p) is not int or p < 0]
        if bad or (not oracle.ordered and 0 in after):
            problems.append("after %r has parts that are not heaps" % (after,))
        elif not oracle.is_move(position, after, ring):
            problems.append("after %r is not a legal move" % (after,))
        if result["ring"] is not False:
            problems.append("ring is %r with after given" % (result["ring"],))
    nimber = result["nimber"]
    if misere and nimber is not None:
        problems.append("nimber %r in misere play (expected None)" % (nimber,))
    if not search:
        return problems
    expected = "win" if oracle.win(position, misere, ring) else "loss"
    if outcome != expected:
        problems.append("outcome %r, oracle says %r" % (outcome, expected))
    if not misere and not (nimber_optional and nimber is None):
        value = oracle.sg(position, ring)
        if nimber != value:
            problems.append("nimber %r, oracle says %r" % (nimber, value))
    if expected == "win" and after is not None and not problems and oracle.win(after, misere):
        problems.append("after %r lets the opponent win" % (after,))
    return problems


# ------------------------------------------------- the seed documents as cases

HEAP_NAMES = "ABCDEFGH"


def _take(heaps, take):
    i = HEAP_NAMES.index(take["heap"])
    out = list(heaps)
    out[i] -= take["count"]
    return out


def _instances(pattern, values):
    """ "1 1 n n" with values [1, 2] -> [1, 1, 1, 1], [1, 1, 2, 2]."""
    letters = []
    for word in pattern.split():
        if not word.isdigit() and word not in letters:
            letters.append(word)
    choices = [[]]
    for _ in letters:
        choices = [c + [v] for c in choices for v in values]
    out = []
    for choice in choices:
        heaps = []
        for word in pattern.split():
            if word.isdigit():
                heaps.append(int(word))
            else:
                heaps.append(choice[letters.index(word)])
        if heaps not in out:
            out.append(heaps)
    return out


def _circle_rows(diagram):
    """'_ . . _' (a circle) -> rows of adjacent objects, or None if whole."""
    places = diagram.split()
    n = len(places)
    if "_" not in places:
        return None
    start = places.index("_")
    rows = []
    run = 0
    for j in range(1, n + 1):
        if places[(start + j) % n] == ".":
            run += 1
        else:
            if run:
                rows.append(run)
            run = 0
    return rows


def _case(cid, rules, position, misere=False, ring=False, **expect):
    case = {"id": cid, "rules": rules, "position": position, "misere": misere, "ring": ring}
    for name in expect:
        case[name] = expect[name]
    return case


def seed_cases(nim, variants):
    """Yield the seeds' games, tables and examples as engine test cases.

    A case has id, rules, position, misere, ring, and may expect:
    ``outcome``; ``move`` (a move the seed makes here: it must be legal, and
    winning when ``move_wins``); ``only`` (the seed's move is the only
    winning one, so the engine must make it); ``nimber``; ``grundy_table``
    (judge a Grundy move by the A002188 values); ``legal`` / ``illegal``
    (moves the seed says are or are not allowed); ``max_take`` (no move may
    remove more objects than this).
    """
    for game in nim["games"]:
        steps = game["steps"]
        for i in range(len(steps)):
            step = steps[i]
            wins = step["mover"] == game["winner"]
            yield _case(
                "%s/%d-%s" % (game["id"], i, step["mover"]),
                game["rules"],
                step["heaps"],
                game["misere"],
                outcome="win" if wins else "loss",
                move=_take(step["heaps"], step["take"]),
                move_wins=wins,
            )
        yield _case(
            "%s/end" % game["id"],
            game["rules"],
            game["final"],
            game["misere"],
            outcome="win" if game["misere"] else "loss",
        )
    for single in nim["single_moves"]:
        yield _case(
            single["id"],
            single["rules"],
            single["heaps"],
            single["misere"],
            outcome=single["outcome"],
            move=single["winning_after"],
            move_wins=True,
        )
    for doc in nim["doctests"]["cases"]:
        misere = doc["game_type"] == "misere"
        cid = "doctest/%s%s" % (doc["game_type"], doc["heaps"])
        if doc["result"] == "You will lose :(":
            yield _case(cid, "nim", doc["heaps"], misere, outcome="loss")
        else:
            after = list(doc["heaps"])
            after[doc["result"][0]] -= doc["result"][1]
            yield _case(cid, "nim", doc["heaps"], misere, outcome="win", move=after, move_wins=True)
    table = nim["winning_positions"]
    for row in table["rows"]:
        modes = table["marks"][row.get("mark", "")]
        for heaps in _instances(row["heaps"], table["instantiate"]):
            row_modes = modes
            if max(heaps) == 1 and not row["heaps"].replace(" ", "").isdigit():
                row_modes = table["marks"]["*"]  # see all_ones_note
            for mode in ("normal", "misere"):
                yield _case(
                    "table/%s/%s/%s" % (row["heaps"], heaps, mode),
                    "nim",
                    heaps,
                    mode == "misere",
                    outcome="loss" if mode in row_modes else "win",
                )

    sub = variants["subtraction"]
    for k in sub["k"]:
        for mode in ("normal", "misere"):
            residue = sub["second_player_wins_residue"][mode]
            for h in range(sub["heaps_up_to"] + 1):
                spec = "subtract:%d" % k
                cid = "subtraction/%s/%s/%d" % (spec, mode, h)
                expect = {}
                if mode == "normal":
                    expect["nimber"] = h % (k + 1)
                if h % (k + 1) == residue:
                    yield _case(cid, spec, [h], mode == "misere", outcome="loss", **expect)
                else:
                    drop = (h - residue) % (k + 1)
                    move = [h - drop] if h else None
                    yield _case(
                        cid, spec, [h], mode == "misere", outcome="win", move=move, move_wins=True, only=True, **expect
                    )

    g21 = variants["game_of_21"]
    target = g21["target"]
    said = [0]
    for turn in g21["sample_game"]:
        wins = turn["player"] == g21["winner"]
        for before in said:
            for says in turn["says"]:
                yield _case(
                    "game21/%d-says-%d" % (before, says),
                    g21["rules"],
                    [target - before],
                    g21["misere"],
                    outcome="win" if wins else "loss",
                    move=[target - says],
                    move_wins=wins,
                    only=wins,
                )
        said = turn["says"]
    yield _case(
        "game21/%d-end" % target, g21["rules"], [0], g21["misere"], outcome="win"
    )  # the player who said 21 lost

    g34 = variants["game_of_34"]
    k34 = int(g34["rules"].split(":")[1])
    start = g34["target"]
    goal = start - (start - 1) % (k34 + 1)  # heaps = 1 (mod k+1) lose, misere
    yield _case(
        "game34/start",
        g34["rules"],
        [start],
        g34["misere"],
        outcome="win" if goal != start else "loss",
        move=[goal],
        move_wins=True,
        only=True,
    )

    g100 = variants["game_of_100"]
    target = g100["target"]
    keys = g100["key_numbers"]
    for total in range(target + 1):
        cid = "game100/at-%d" % total
        if total in keys:
            yield _case(cid, g100["rules"], [target - total], g100["misere"], outcome="loss")
        else:
            nxt = [key for key in keys if key > total][0]
            yield _case(
                cid,
                g100["rules"],
                [target - total],
                g100["misere"],
                outcome="win",
                move=[target - nxt],
                move_wins=True,
                only=True,
            )

    wy = variants["wythoff"]
    for pair in wy["p_positions"]:
        for heaps in ([pair[0], pair[1]], [pair[1], pair[0]]):
            yield _case("wythoff/%s" % heaps, wy["rules"], heaps, outcome="loss", nimber=0)

    gr = variants["grundy"]
    values = gr["a002188"]
    for n in range(1, len(values)):
        yield _case(
            "grundy/%d" % n,
            gr["rules"],
            [n],
            outcome="win" if values[n] else "loss",
            nimber=values[n],
            grundy_table=values,
        )
    split = gr["split_example"]
    yield _case(
        "grundy/split-%d" % split["heap"], gr["rules"], [split["heap"]], legal=split["splits"], illegal=split["not"]
    )

    ci = variants["circular"]
    diagrams = ci["diagrams"]
    before = [len(diagrams[0].split())]
    ring = True
    for i in range(1, len(diagrams)):
        rows = _circle_rows(diagrams[i])
        yield _case("circular/diagram-%d" % i, ci["rules"], before, ring=ring, legal=[rows])
        before = rows
        ring = False
    yield _case("circular/then", ci["rules"], before, max_take=ci["then_cannot_take"] - 1)

    gr = variants["greedy"]
    for example in gr["examples"]:
        yield _case("greedy/%s" % example[0], gr["rules"], example[0], outcome=example[1])
    for example in variants["moore"]["examples"]:
        yield _case(
            "moore/%s/%s" % (example["rules"], example["heaps"]),
            example["rules"],
            example["heaps"],
            outcome=example["outcome"],
        )


def check_case(oracle, case, result, search=True):
    """Everything wrong with the engine's ``result`` for one seed case."""
    position = case["position"]
    misere = case["misere"]
    ring = case["ring"]
    problems = judge(oracle, position, result, misere, ring, search)
    if problems and ("no %r in %r" % ("outcome", result)) in problems:
        return problems
    after = result.get("after")
    if "outcome" in case and result.get("outcome") != case["outcome"]:
        problems.append("outcome %r, the seed says %r" % (result.get("outcome"), case["outcome"]))
    if "nimber" in case and not misere and result.get("nimber") != case["nimber"]:
        problems.append("nimber %r, the seed says %r" % (result.get("nimber"), case["nimber"]))
    move = case.get("move")
    if move is not None:
        if not oracle.is_move(position, move, ring):
            problems.append("the seed's move %r is not legal" % (move,))
        elif case.get("move_wins") and search and oracle.win(move, misere):
            problems.append("the seed's move %r does not win" % (move,))
        if (
            case.get("only")
            or (case.get("move_wins") and search and len(oracle.winning_moves(position, misere, ring)) == 1)
        ) and (after is None or (_as_canon(oracle, after) != _as_canon(oracle, move))):
            problems.append("after %r, the only winning move is %r" % (after, move))
    for legal in case.get("legal", ()):
        if not oracle.is_move(position, legal, ring):
            problems.append("the seed's move %r is not legal" % (legal,))
    for illegal in case.get("illegal", ()):
        if oracle.is_move(position, illegal, ring):
            problems.append("the seed's non-move %r is legal" % (illegal,))
    if "max_take" in case:
        for other in oracle.moves(position, ring):
            if sum(position) - sum(other) > case["max_take"]:
                problems.append("%r -> %r takes more than %d" % (position, other, case["max_take"]))
    table = case.get("grundy_table")
    if table and after is not None and case.get("outcome") == "win":
        total = 0
        for p in after:
            total ^= table[p]
        if total != 0:
            problems.append("after %r has nim-value %d by A002188, not 0" % (after, total))
    return problems


def wythoff_pairs(count):
    """Wythoff's P-positions built by their definition: a is the least number
    not used yet, b = a + n."""
    used = []
    pairs = []
    for n in range(count):
        a = mex(used)
        pairs.append([a, a + n])
        used.append(a)
        used.append(a + n)
    return pairs


def seed_data_problems(nim, variants):
    """Is the seed data consistent with itself and with the oracle?"""
    problems = []
    for game in nim["games"]:
        steps = game["steps"]
        for i in range(len(steps)):
            step = steps[i]
            take = step["take"]
            heap = step["heaps"][HEAP_NAMES.index(take["heap"])]
            if not 1 <= take["count"] <= heap:
                problems.append("%s step %d: cannot take %r" % (game["id"], i, take))
            nxt = steps[i + 1]["heaps"] if i + 1 < len(steps) else game["final"]
            if _take(step["heaps"], take) != nxt:
                problems.append("%s step %d: %r then %r is not %r" % (game["id"], i, step["heaps"], take, nxt))
            if "nim_sum" in step:
                total = 0
                for h in step["heaps"]:
                    total ^= h
                if total != step["nim_sum"]:
                    problems.append("%s step %d: nim-sum %d, not %d" % (game["id"], i, total, step["nim_sum"]))
        if game["final"] != [0] * len(game["final"]):
            problems.append("%s does not end empty" % game["id"])
    for single in nim["single_moves"]:
        if "nim_sum" in single:
            total = 0
            for h in single["heaps"]:
                total ^= h
            if total != single["nim_sum"]:
                problems.append("%s: nim-sum %d" % (single["id"], total))
    pairs = variants["wythoff"]["p_positions"]
    if pairs != wythoff_pairs(len(pairs)):
        problems.append("Wythoff pairs differ from the construction: %r" % wythoff_pairs(len(pairs)))
    values = variants["grundy"]["a002188"]
    computed = grundy_heap_values(len(values) - 1)
    for n in range(len(values)):
        if values[n] != computed[n]:
            problems.append("A002188[%d] = %d in the data, oracle says %d" % (n, values[n], computed[n]))
    diagrams = variants["circular"]["diagrams"]
    taken = variants["circular"]["taken"]
    for i in range(1, len(diagrams)):
        old = diagrams[i - 1].split()
        new = diagrams[i].split()
        n = len(old)
        gone = [j for j in range(n) if old[j] == "." and new[j] == "_"]
        back = [j for j in range(n) if old[j] == "_" and new[j] == "."]
        # one run of consecutive places around the circle
        starts = [j for j in gone if (j - 1) % n not in gone]
        if back or len(new) != n or len(gone) != taken[i - 1] or (len(gone) < n and len(starts) != 1):
            problems.append("circle step %d takes %r, not %d adjacent" % (i, gone, taken[i - 1]))
    return problems


def search_size(oracle, position):
    """Roughly how many positions a search from ``position`` visits."""
    if oracle.ordered:
        n = len(position)
        top = max(position) if position else 0
        count = 1
        for i in range(1, n + 1):  # C(top + n, n): sorted heap tuples
            count = count * (top + i) // i
        return count
    total = 0
    for p in position:
        total += p
    ways = [1] + [0] * total  # p(total): multisets of parts summing to total
    for part in range(1, total + 1):
        for s in range(part, total + 1):
            ways[s] += ways[s - part]
    return ways[total]


# ------------------------------------------------------ two-dimensional Nim


def nim2d_wins(rows, cols, misere=False):
    """Win (True) or loss for the player to move in every position of a
    rows x cols board of two-dimensional Nim, by the rule alone: a move puts
    out lit cells side by side in one row or one column. Index: bit r*cols+c
    set where cell (r, c) is lit. Bottom-up over the masks: every move
    lowers the mask, so each position's moves are already known."""
    segments = []
    for r in range(rows):
        for a in range(cols):
            for b in range(a, cols):
                m = 0
                for c in range(a, b + 1):
                    m |= 1 << (r * cols + c)
                segments.append(m)
    for c in range(cols):
        for a in range(rows):
            for b in range(a + 1, rows):
                m = 0
                for r in range(a, b + 1):
                    m |= 1 << (r * cols + c)
                segments.append(m)
    return _wins_over_masks(rows * cols, segments, misere)


def _wins_over_masks(bits, moves, misere):
    """Win (1) or loss (0) for every mask of ``bits`` lit places, where a move
    puts out one of ``moves`` (masks) lying wholly lit. Bottom-up: a move only
    lowers the mask. No lit place, no move: lost in normal play, won in misère."""
    wins = bytearray(1 << bits)
    for mask in range(1 << bits):
        win = misere if mask == 0 else False
        for move in moves:
            if move & mask == move and not wins[mask ^ move]:
                win = True
                break
        wins[mask] = 1 if win else 0
    return wins


# ---------------------------------------------------------------- Building Nim


def building_win(heaps, stones, misere=False, memo=None):
    """Building Nim by plain search, from the rule alone (no nim-sums):
    while stones remain a move puts one on any heap; then a move takes any
    number >= 1 from one heap. True if the player to move wins."""
    if memo is None:
        memo = {}
    key = (tuple(sorted(heaps)), stones)
    if key in memo:
        return memo[key]
    children = []
    if stones:
        for i in range(len(heaps)):
            after = list(heaps)
            after[i] += 1
            children.append((after, stones - 1))
    else:
        for i in range(len(heaps)):
            for left in range(heaps[i]):
                after = list(heaps)
                after[i] = left
                children.append((after, 0))
    win = misere  # no move: normal play lost, misère play won
    if children:
        win = False
        for after, left in children:
            if not building_win(after, left, misere, memo):
                win = True
                break
    memo[key] = win
    return win


def building_positions(n, s):
    """Every building position of BN(n, s) (stones still to place >= 1),
    heaps in every order: (heaps, stones)."""
    out = []
    for placed in range(n):
        for heaps in _compositions(placed, s):
            out.append((heaps, n - placed))
    return out


def _compositions(total, parts):
    if parts == 1:
        return [[total]]
    out = []
    for first in range(total + 1):
        for rest in _compositions(total - first, parts - 1):
            out.append([first] + rest)
    return out


# ---------------------------------------------------------------- Graph Nim


def graph_wins(cells, k, misere=False):
    """Graph Nim on the lamps ``cells`` [(row, col), ...], by the rule alone:
    vertices are the cells, joined when side by side in a row or column; a
    move removes 1..k vertices connected to each other. Win (1) or loss (0)
    for the player to move in every subset of the cells (bit j = cells[j]
    still lit), bottom-up: a move only lowers the subset."""
    n = len(cells)
    edges = [
        (a, b)
        for a in range(n)
        for b in range(a + 1, n)
        if abs(cells[a][0] - cells[b][0]) + abs(cells[a][1] - cells[b][1]) == 1
    ]
    return net_wins(n, edges, k, misere)


def net_wins(n, edges, k, misere=False):
    """Graph Nim on any graph: nodes 0..n-1 joined by ``edges`` [(a, b)...].
    Win (1) or loss (0) in every subset of the nodes (bit j = node j left)."""
    joined = set()
    for a, b in edges:
        joined.add((a, b))
        joined.add((b, a))
    cuts = []
    for subset in range(1, 1 << n):
        members = [j for j in range(n) if subset >> j & 1]
        if len(members) <= k and _linked(members, joined):
            cuts.append(subset)
    return _wins_over_masks(n, cuts, misere)


def _connected(cells):
    """Lamps [(row, col), ...] joined through side-by-side neighbours."""
    joined = {(a, b) for a in cells for b in cells if abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1}
    return _linked(list(cells), joined)


def _linked(members, joined):
    seen = [members[0]]
    todo = [members[0]]
    while todo:
        a = todo.pop()
        for b in members:
            if b not in seen and (a, b) in joined:
                seen.append(b)
                todo.append(b)
    return len(seen) == len(members)
