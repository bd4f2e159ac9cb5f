"""Nimrod's panel as data: each heap in binary, the column counts, the nim-sum,
and the move that makes it zero, for the crowd view's lamps.

The Ferranti Nimrod (1951) showed its working on lamps; the crowd view draws
this structure the same way. The numbers come from the firmware's engine
(``nimatron.strategy.solve``) and its words (``nimatron.explain``); which
rule sets get a binary table follows the terminal's "how the machine
thinks" panel (``face.reasoning``): Nim and Candy Nim by their heaps; the
subtraction game, Grundy's game and circular Nim by each heap's nim-value;
Moore's Nim by column counts modulo k+1; anything else by its verdict only.
"""

import json

from nimatron import explain, strategy
from nimatron.controller import OVER, SHOWING, THINKING

from ..face import position_text

_cache = {}


def nimrod(controller):
    """The panel for the position in play, or None in attract mode."""
    position = controller.position()
    if position is None:
        return None
    return nimrod_for(controller.rules, controller.misere, position[0], position[1], controller.state)


def nimrod_for(rules, misere, heaps, ring, state):
    """The panel for a position (``state``: the controller's, to know who moves)."""
    mover = "machine" if state in (THINKING, SHOWING) else "visitor"
    if state == OVER:
        mover = None
    key = json.dumps([rules.spec, misere, heaps, ring, mover])
    panel = _cache.get(key)
    if panel is None:
        if len(_cache) > 256:
            _cache.clear()
        try:
            panel = _panel(rules, misere, heaps, ring)
        except ValueError as e:  # SizeError: too large to work out here
            panel = {"kind": "other", "position": position_text(heaps), "error": str(e)}
        panel["mover"] = mover
        _cache[key] = panel
    return panel


def _panel(rules, misere, heaps, ring):
    result = strategy.solve(rules, heaps, misere, ring)
    name = rules.name
    out = {"kind": "other", "rules": rules.spec, "misere": bool(misere), "ring": bool(ring),
           "position": position_text(heaps), "nimber": result["nimber"], "outcome": result["outcome"]}
    if name in ("nim", "candy"):
        out.update(_table(heaps, heaps))
        out["kind"] = "nim"
    elif name in ("subtract", "grundy", "circular") and not misere and not ring:
        values = [strategy.solve(rules, [h], False)["nimber"] or 0 for h in heaps]
        out.update(_table(heaps, values))
        out["kind"] = "values"
        out["how"] = name
        out["k"] = rules.k
    elif name == "moore" and not misere:
        out.update(_table(heaps, heaps))
        out["kind"] = "moore"
        out["k"] = rules.k
    after = result["after"]
    out["move"] = None if after is None else explain.describe_move(heaps, after, rules.ordered, ring)
    out["after"] = None if after is None else position_text(after)
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
        "rows": [{"label": explain.label(i), "heap": heaps[i], "value": values[i],
                  "bits": [int(b) for b in explain.binary(values[i], width)]} for i in range(len(values))],
        "counts": counts,
        "sum": x,
        "sum_bits": [int(b) for b in explain.binary(x, width)],
    }
