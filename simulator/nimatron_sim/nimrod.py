# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Nimrod's panel as data: what "how the machine thinks" shows, for every face.

The Ferranti Nimrod (1951) showed its working on lamps: each heap in binary,
the column counts, the nim-sum and the move that makes it zero. This module
builds that working as data, for the web pages (drawn as lamps by
``common.js``) and the terminal (``thinking.lines``). Every number comes
from the firmware's engine (``nimatron.games.strategy.solve``, a rule set's own
``candies``) and every move's words from ``nimatron.games.explain``; nothing here
decides a move. The sentences are ``[key, params]`` in the faces' language
files (``web/static/lang/``): a param named ``move``, ``note``, ``position`` or ``after`` is a
firmware sentence (translated by the phrase table), one starting with
``who`` or ``player`` a player (``visitor``/``machine``: "who.visitor" is
"for you" in some languages, "player.visitor" is "you" as a subject).

Which rule sets get a table: Nim and Candy Nim by their heaps; the
subtraction game, Grundy's game and circular Nim by each heap's nim-value;
Graph Nim and 2-D Nim by each group of touching lamps' nim-value; Building
Nim by the Nim position its building plan aims for; Moore's Nim by column
counts modulo k+1. Every rule set's lesson (``Rules.lesson``: the rule a
pupil can carry home, worked on this position) follows the table, or
stands alone where there is none (the game of 21, Greedy Nim, Wythoff's pairs).
"""

import copy
import json

from nimatron.games import explain, strategy
from nimatron.machine.controller import OVER, SHOWING, THINKING, VISITOR
from nimatron.panels.panel import row_label

from .words import position_text

_cache = {}  # type: dict


def nimrod(controller):
    """The panel for the position in play, or None in attract mode; mid-move,
    it reasons about the move in progress (``in_progress``)."""
    position = controller.position()
    if position is None:
        return None
    candies = getattr(controller.panel, "candies", None)  # Candy Nim's tallies
    unlettered = getattr(controller.panel, "unlettered", None)  # a ring's arcs or rows
    panel = nimrod_for(
        controller.rules, controller.misere, position[0], position[1], controller.state, candies, unlettered
    )
    if getattr(controller.panel, "bit_lamps", None) is not None:  # a counter (the game of 21): counts, not heaps
        return counted(controller, panel)
    if not controller.rules.ordered and panel.get("after_heaps"):  # "leaving ..." as the lamps will show it
        panel = _leaving(panel, controller.rules.position_words(as_shown(controller.panel, panel["after_heaps"])))
    if controller.state == VISITOR and (getattr(controller, "taken", None) or getattr(controller, "selected", None)):
        panel = in_progress(controller, panel)
    return panel


def as_shown(board_panel, after=None, selected=None):
    """A position after a move (``after``, or the visitor's ``selected``
    lamps), its heaps in the order the board's lamps will show them. The
    engine lists a split's parts its own way (Grundy's game: the rest, then
    both parts); the panel keeps each heap in its row and lights a split-off
    part in the first empty row. Worked out on a copy of the panel."""
    twin = copy.deepcopy(board_panel)
    try:
        if selected is not None:
            twin.apply_selection(selected)
        else:
            twin.apply(*twin.lamps_for(after))
    except (ValueError, AttributeError, TypeError):  # not a move this panel can show: the engine's order
        return after
    return twin.position()[0]


def _leaving(panel, words):
    lines = [[key, dict(params, after=words) if "after" in params else params] for key, params in panel["lines"]]
    return dict(panel, after=words, lines=lines)


def counted(controller, panel):
    """A counter's panel in the count's words: the heap (what is left to
    say) is the machine's working, not what the lamps show."""
    counter = controller.panel
    heap = controller.position()[0][0]
    out = dict(panel, rows=None, kind="count")
    lines = [
        [
            "nimrod.count",
            {"count": counter.total - heap, "total": counter.total, "goal": "loses" if controller.misere else "wins"},
        ]
    ]
    said = [
        counter.total - h
        for h in range(counter.total)  # the counts to say: the heaps the engine finds lost
        if strategy.solve(controller.rules, [h], controller.misere, False)["outcome"] == "loss"
    ]
    lines.append(["nimrod.count.rule", {"said": ", ".join([str(n) for n in sorted(said) if n])}])
    if controller.state in (VISITOR, THINKING, SHOWING) and heap:
        start = controller.turn_start[0][0] if controller.state == VISITOR and controller.turn_start else heap
        result = strategy.solve(controller.rules, [start], controller.misere, False)
        if result["after"] is not None:
            k = start - result["after"][0]
            who = "machine" if controller.state in (THINKING, SHOWING) else "visitor"
            lines.append(
                [
                    "nimrod.count.win" if result["outcome"] == "win" else "nimrod.count.lose",
                    {"who": who, "k": k, "said": counter.total - result["after"][0]},
                ]
            )
    if controller.state == VISITOR and controller.selected:  # the choice lamps selected: what DONE would say
        after = counter.after_selection(controller.selected)
        if after is None or not controller.rules.is_legal([heap], after, False):
            lines.append(["nimrod.selected.not", {}])
        else:
            lost = strategy.solve(controller.rules, after, controller.misere, False)["outcome"] == "loss"
            lines.append(
                [
                    "nimrod.count.chosen." + ("win" if lost else "lose"),
                    {"k": heap - after[0], "said": counter.total - after[0]},
                ]
            )
    out["lines"] = lines
    return out


# A fresh position's verdict: mid-move it would speak of a turn that has begun
VERDICTS = ("nimrod.nonzero", "nimrod.zero", "nimrod.win", "nimrod.win.said", "nimrod.lose")


def in_progress(controller, panel):
    """The panel while the visitor is mid-move. Row buttons: the lamps taken
    so far are from one heap (``turn_row``), so the advice is what to take
    from that heap: more (how many, leaving what), DONE now, or nothing there
    wins. Lamp keys: the lamps chosen are still lit; what DONE would leave."""
    rules, misere = controller.rules, controller.misere
    start, ring = controller.turn_start
    out = dict(panel)
    if controller.taken and controller.turn_row is not None:
        row = controller.turn_row
        now = controller.position()[0]
        lines = [line for line in panel["lines"] if line[0] not in VERDICTS]
        lines.append(["nimrod.taking", {"row": row_label(row), "n": start[row] - now[row]}])
        done = False
        best = None
        for after in rules.moves(start, ring):
            if after[row] > now[row] or any(after[i] != start[i] for i in range(len(start)) if i != row):
                continue  # not a way to finish this move
            if strategy.solve(rules, after, misere, False)["outcome"] != "loss":
                continue  # the machine would then have a winning move
            if after == now:
                done = True
            elif best is None or after[row] > best[row]:
                best = after  # the fewest lamps more
        if done:
            lines.append(["nimrod.taking.done", {"after": rules.position_words(now)}])
        elif best is not None:
            lines.append(
                [
                    "nimrod.taking.more",
                    {"row": row_label(row), "more": now[row] - best[row], "after": rules.position_words(best)},
                ]
            )
        else:
            lines.append(["nimrod.taking.none", {"row": row_label(row)}])
        out["lines"] = lines
        out["taking"] = {"row": row, "done": done, "more": None if best is None else now[row] - best[row]}
        return out
    after = controller.panel.after_selection(controller.selected)
    lines = list(panel["lines"])
    if after is None or not rules.is_legal(start, after, ring):
        lines.append(["nimrod.selected.not", {}])
    else:
        lost = strategy.solve(rules, after, misere, False)["outcome"] == "loss"
        if not rules.ordered:
            after = as_shown(controller.panel, selected=list(controller.selected)) or after
        lines.append(
            ["nimrod.selected.win" if lost else "nimrod.selected.lose", {"after": rules.position_words(after)}]
        )
    out["lines"] = lines
    return out


def nimrod_for(rules, misere, heaps, ring, state, candies=None, unlettered=None):
    """The panel for a position (``state``: the controller's, to know who
    moves; ``candies``: Candy Nim's {"visitor": n, "machine": m} so far;
    ``unlettered``: "arc" or "row" where the board draws the parts with no
    row letter, a ring: they are named by size, "arc of 5")."""
    mover = "machine" if state in (THINKING, SHOWING) else "visitor"
    if state == OVER:
        mover = None
    key = json.dumps([rules.spec, misere, heaps, ring, mover, candies, unlettered], sort_keys=True)
    panel = _cache.get(key)
    if panel is None:
        if len(_cache) > 256:
            _cache.clear()
        try:
            panel = _panel(rules, misere, heaps, ring, mover, candies, unlettered)
        except ValueError as e:  # SizeError: too large to work out here
            panel = {
                "kind": "other",
                "position": rules.position_words(heaps, ring),
                "error": str(e),
                "rows": None,
                "lines": [
                    ["nimrod.other", {"position": rules.position_words(heaps, ring)}],
                    ["nimrod.error", {"note": str(e)}],
                ],
            }
        panel["mover"] = mover
        _cache[key] = panel
    return panel


def _panel(rules, misere, heaps, ring, mover, candies, unlettered=None):
    result = strategy.solve(rules, heaps, misere, ring)
    name = rules.name
    reasoning = rules.reasoning  # which table Nimrod draws: the rule set says (games/rules.py)
    out = {
        "kind": "other",
        "rules": rules.spec,
        "misere": bool(misere),
        "ring": bool(ring),
        "position": rules.position_words(heaps, ring),
        "nimber": result["nimber"],
        "outcome": result["outcome"],
        "rows": None,
        "row_key": "nimrod.heap",
    }
    lines = []
    if result["after"] is None:  # the game is over (circular Nim's last take leaves nothing at all)
        out.update(move=None, after=None, lines=[["nimrod.over", {}]])
        return out
    shown, after = heaps, result["after"]
    if reasoning == "building":
        shown, after = _building(rules, misere, heaps, after, mover, out, lines)
    elif reasoning == "nim":
        out.update(_table(heaps, heaps))
        out["kind"] = "nim"
    elif reasoning == "values" and not misere and not ring:
        values = [strategy.solve(rules, [h], False)["nimber"] or 0 for h in heaps]
        out.update(_table(heaps, values))
        # each part named as its rule set's lamps draw it: a row ("value.heaps"), or Grundy's heaps ("value.splits")
        out.update(kind="values", how=name, k=rules.k, row_key="nimrod.value." + rules.panel)
        if unlettered:  # a ring draws no row letters: "arc of 5", "row of 5"
            out["row_key"] = "nimrod.%s_value" % unlettered
        lines.append(["nimrod.values." + (unlettered + "s" if unlettered else name), {"k1": (rules.k or 0) + 1}])
    elif reasoning == "groups" and not misere:
        groups = _groups(heaps)
        sizes = [sum(sum(row) for row in g) for g in groups]
        out.update(_table(sizes, [strategy.solve(rules, g, False)["nimber"] or 0 for g in groups]))
        for k, row in enumerate(out["rows"]):
            row["label"] = str(k + 1)
        out.update(kind="values", how="groups", row_key="nimrod.group")
        lines.append(["nimrod.values.groups", {}])
    elif reasoning == "moore" and not misere:
        out.update(_table(heaps, heaps))
        out.update(kind="moore", k=rules.k)
        lines.append(["nimrod.moore", {"k1": rules.k + 1}])
    taught = rules.lesson(heaps, misere, ring, result)  # the rule to carry home, from the engine's numbers
    if out["kind"] == "other" and taught:
        lines.extend([["nimrod.lesson", {"note": sentence}] for sentence in taught])
    elif out["kind"] == "other":
        lines.append(["nimrod.other", {"position": out["position"]}])
        if result["nimber"] is not None:
            lines.append(["nimrod.nimber", {"n": result["nimber"]}])
    elif (
        taught and out["kind"] == "values"
    ):  # the table shows each heap's value: the rule to carry home, in plain words
        # (a group's lesson says what nimrod.values.groups says: in its place, not twice in a row)
        first = 0 if out["how"] == "groups" else 1
        lines[first:1] = [["nimrod.lesson", {"note": taught[0]}]]
    if out["kind"] == "nim" and misere:
        lines.append(["nimrod.misere", {}])
    elif out["kind"] in ("nim", "values"):
        lines.append(["nimrod.nonzero" if out["sum"] else "nimrod.zero", {"x": out["sum"]}])
    if getattr(rules, "candies", None) is not None:  # Candy Nim: the candies each player holds decide a tie
        _candy(rules, misere, heaps, mover, candies, out, lines)
    who = mover or "visitor"
    out["move"] = None if after is None else explain.describe_move(shown, after, rules.ordered, ring, unlettered)
    out["after"] = (
        None if after is None else rules.position_words(result["after"])
    )  # the whole position, in its rule set's words
    out["after_heaps"] = result["after"]
    if after is None:
        lines.append(["nimrod.over", {}])
    elif result["outcome"] == "win" and (
        "leaving" in out["move"]
        or out["move"] == explain.move_leaving(shown, after, out["after"], rules.ordered, ring, unlettered)
    ):  # the move's words already say what is left
        lines.append(["nimrod.win.said", {"who": who, "move": out["move"]}])
    elif result["outcome"] == "win":
        lines.append(["nimrod.win", {"who": who, "move": out["move"], "after": out["after"]}])
    else:
        lines.append(["nimrod.lose", {"who": who, "move": out["move"]}])
    out["lines"] = glossed(out, lines)
    return out


def glossed(out, lines):
    """The panel's lines, then a short gloss of each term they use
    (binary, nim-sum, value, misère): words a twelve-year-old reads."""
    keys = [key for key, _ in lines]
    terms = []
    if out.get("rows") is not None:
        cols = [1 << c for c in range(out["width"] - 1, -1, -1)]
        row = next((row for row in out["rows"] if sum(row["bits"]) > 1), None)  # its own example
        if row is None:  # every heap a power of two ("1 0 = 2 = 2" shows nothing): the widest number instead
            row = {"bits": [1] * len(cols), "value": sum(cols)}
        terms.append(
            [
                "nimrod.gloss.binary",
                {
                    "cols": " ".join(str(c) for c in cols),
                    "bits": " ".join(str(b) for b in row["bits"]),
                    "n": row["value"],
                    "parts": " + ".join(str(c) for c, b in zip(cols, row["bits"]) if b) or "0",
                },
            ]
        )
        terms.append(["nimrod.gloss.counts" if out["kind"] == "moore" else "nimrod.gloss.sum", {}])
        if out.get("row_key", "nimrod.heap") in ("nimrod.heap", "nimrod.value.heaps"):  # the table's rows are lamp rows
            terms.append(["nimrod.gloss.heap", {}])  # the one place a row is called a heap: Nim's own word for it
    if out["kind"] == "values" or "nimrod.nimber" in keys or any(key.startswith("nimrod.values.") for key in keys):
        terms.append(["nimrod.gloss.value", {}])
    if out.get("misere"):
        terms.append(["nimrod.gloss.misere", {}])
    return lines + terms  # footnotes: the rule and the move stay first, where a small terminal shows them


def _building(rules, misere, position, after, mover, out, lines):
    """Building Nim's plan: the stones still to place, who places the last,
    and the Nim position best play by both builds (followed move by move
    through the firmware's own solver). Returns what the move line shows."""
    heaps, stones = position[:-1], position[-1]
    if not stones:  # all placed: plain Nim on the heaps
        out.update(_table(heaps, heaps))
        out.update(kind="nim", stones=0)
        lines.append(["nimrod.built", {}])
        return heaps, None if after is None else after[:-1]
    aim = list(position)
    while aim[-1]:
        aim = strategy.solve(rules, aim, misere)["after"]
    mover = mover or "visitor"
    other = "machine" if mover == "visitor" else "visitor"
    last = mover if stones % 2 else other
    out.update(_table(aim[:-1], aim[:-1]))
    out.update(kind="building", stones=stones, who_last=last, aim=position_text(aim[:-1]))
    lines.append(["nimrod.building", {"n": stones, "heaps": position_text(heaps)}])
    lines.append(["nimrod.building.last", {"player": last}])
    lines.append(["nimrod.building.aim", {"aim": out["aim"], "x": out["sum"]}])
    lines.append(
        [
            "nimrod.building.nonzero" if out["sum"] else "nimrod.building.zero",
            {"player": mover if last == other else other},
        ]
    )
    return position, after


def _candy(rules, misere, heaps, mover, candies, out, lines):
    """Candy Nim's second goal: the candies each player holds, and the most
    the player to move can be sure of (the firmware's own count)."""
    left = sum(heaps)
    sure = rules.candies(heaps, misere) if left and rules.searchable(heaps) else None
    out["candy"] = {
        "left": left,
        "sure": sure,
        "held": None if candies is None else dict(candies),
    }  # a copy: panels are cached
    if candies is not None:
        lines.append(["nimrod.candy.held", {"you": candies.get("visitor", 0), "machine": candies.get("machine", 0)}])
    if sure is not None and mover is not None:
        lines.append(["nimrod.candy.sure", {"player": mover, "n": sure, "left": left}])


def _groups(matrix):
    """Each group of touching lit lamps alone on the board: a Graph Nim or
    2-D Nim position is the sum of these independent games."""
    seen = set()
    out = []
    for r in range(len(matrix)):
        for c in range(len(matrix[r])):
            if not matrix[r][c] or (r, c) in seen:
                continue
            group = [[0] * len(row) for row in matrix]
            todo = [(r, c)]
            seen.add((r, c))
            while todo:
                i, j = todo.pop()
                group[i][j] = 1
                for a, b in ((i - 1, j), (i + 1, j), (i, j - 1), (i, j + 1)):
                    if 0 <= a < len(matrix) and 0 <= b < len(matrix[a]) and matrix[a][b] and (a, b) not in seen:
                        seen.add((a, b))
                        todo.append((a, b))
            out.append(group)
    return out


def _table(heaps, values):
    """Rows of binary digits over a common width, column counts, the nim-sum."""
    x = 0
    for v in values:
        x ^= v
    counts = explain.column_parities(list(values))  # a nim-sum is never wider than its heaps
    width = len(counts)
    return {
        "width": width,
        "rows": [
            {
                "label": explain.label(i),
                "heap": heaps[i],
                "value": values[i],
                "bits": [int(b) for b in explain.binary(values[i], width)],
            }
            for i in range(len(values))
        ],
        "counts": counts,
        "sum": x,
        "sum_bits": [int(b) for b in explain.binary(x, width)],
    }
