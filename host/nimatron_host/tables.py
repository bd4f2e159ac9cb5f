# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Build ``firmware/nimatron/games/tables.bin`` by exhaustive search (CPython).

The board then answers every exhibit-size position of the search-only games
by one table lookup. ``nimatron tables --check`` verifies the shipped file.
"""

import json

from nimatron import resource
from nimatron.games import strategy, tables
from nimatron.games.registry import entries
from nimatron.games.rules import REGISTRY, RulesError, parse_rules, rules_class


def specs():
    """(rules spec, misère) of every exhibit-size table, in registry order:
    each registered rule set whose ``table_spec`` names itself. A K past the
    exhibit's largest heap (``tables.TOP``) plays as a smaller K and shares
    its table (``moore:5`` is ``moore:4`` on four heaps), so K stops there."""
    out = []
    for name, _, _, _ in entries(REGISTRY):
        for spec in ["%s:%d" % (name, k) for k in range(1, tables.TOP + 1)] if rules_class(name).takes_k else [name]:
            try:
                rules = parse_rules(spec)
            except RulesError:  # a K this rule set does not take
                continue
            for misere in (False, True):
                if rules.table_spec(misere) == rules.spec:
                    out.append((rules.spec, misere))
    return out


def sorted_positions(n, top=tables.TOP):
    """Every sorted position of n heaps of 0..top, in rank order."""
    out = []

    def walk(prefix, low):
        if len(prefix) == n:
            out.append(list(prefix))
            return
        for h in range(low, top + 1):
            walk(prefix + [h], h)

    walk([], 0)
    out.sort(key=tables.rank)
    return out


def partitions(total, smallest):
    """Every multiset of parts >= smallest with sum <= total (sorted lists)."""
    out = []

    def walk(prefix, low, left):
        out.append(list(prefix))
        for p in range(low, left + 1):
            walk(prefix + [p], p, left - p)

    walk([], smallest, total)
    return out


def heap_table(rules, misere):
    """Normal play: one nim-value byte per position. Misère play: two bytes,
    the winning move by sorted slot (tables.encode), or tables.LOST."""
    memo = {}
    data = bytearray()
    for n in range(1, tables.HEAPS + 1):
        for heaps in sorted_positions(n):
            if not misere:
                value = strategy.nim_value(rules, heaps, False, memo)
                assert value < 256
                data.append(value)
                continue
            code = tables.LOST
            for after in rules.moves(heaps):  # heaps sorted: slots in order
                if not strategy.misere_wins(rules, after, False, memo):
                    code = tables.encode(after)
                    break
            data.append(code >> 8)
            data.append(code & 255)
    return bytes(data), 2 if misere else 1


def split_table(rules):
    """Misère losing positions: sorted keys, zero-padded to one width."""
    memo = {}
    smallest = rules.dead_below
    lost = set()
    for parts in partitions(tables.SPLIT_TOTAL[rules.name], smallest):
        if not strategy.misere_wins(rules, parts, False, memo):
            lost.add(rules.key(parts))
    size = max(len(k) for k in lost)
    data = bytearray()
    for key in sorted(bytes(size - len(k)) + k for k in lost):
        data.extend(key)
    return bytes(data), size


def build():
    """The bytes of tables.bin: a JSON index line, then the tables."""
    blobs = []
    index = {}
    offset = 0
    for spec, misere in specs():
        rules = parse_rules(spec)
        if rules.name in tables.SPLIT_TOTAL:
            blob, record = split_table(rules)
        else:
            blob, record = heap_table(rules, misere)
        index[tables.name(rules, misere)] = [offset, len(blob), record]
        offset += len(blob)
        blobs.append(blob)
    header = json.dumps(index, sort_keys=True, separators=(",", ":")) + "\n"
    return header.encode() + b"".join(blobs)


def path():
    return resource(tables.FILE)
