# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Graph Nim on any graph, given by nodes and edges (``nimatron solve``):
``{"nodes": [1, 2, 3, "x"], "edges": [[1, 2], [2, 3], [3, "x"]]}``.

A position is a ``Net``: node i is bit i of a mask of the nodes still in
play. Components are independent games, so in normal play their nim-values
add (XOR). A component that is a path or a cycle is valued by its length
from ``splits.Lines`` (taking 1 to K neighbours: circular Nim is K = 3, so
``circular`` is exactly graph:3 on a cycle, by the same code); any other is
searched, memoised on the nodes left, its moves filtered from the list of
the component it came from. Misère play is ``graph.Graph``'s bottom-up
search over every subset. ``NetGraph`` is the rule set for such input
(``nimatron solve`` makes one); imported only then: a board's Graph Nim is
played on its lamps (``graph``) and never needs this.
"""

from .. import const
from .graph import MISERE_LAMPS, Graph, _bits, _limit, connected_sets
from .grid import _cell_bits
from .rules import RulesError, SizeError, mex

_NET_NODES = const(256)  # a graph given by nodes and edges: at most this many nodes
NET_PART = (16, 8)  # normal play, the largest component searched (paths and cycles: any): a PC, a board
_NET_WORK = const(1500000)  # moves tried while valuing one graph's components; beyond: SizeError


class NetGraph(Graph):
    """``graph:K`` on a graph given by nodes and edges (positions: ``Net``);
    ``graph.Graph`` itself plays the lamps of a grid."""

    def check(self, position, ring=False):
        if isinstance(position, Net):
            return position
        if ring:
            raise RulesError("only circular Nim has a ring")
        if not isinstance(position, dict):
            raise RulesError('a graph is {"nodes": [...], "edges": [[a, b], ...]}')
        return net(position)

    def _board(self, net):
        return net.mask, net.shape.near

    def moves(self, net, ring=False):
        for cut in connected_sets(net.mask, net.shape.near, self.k):
            yield net.without(cut)

    def _cut(self, net, cut):
        return net.without(cut)

    def _cut_value(self, net, mask, near, cut):
        return self.nimber(net.without(cut))

    def has_move(self, net, ring=False):
        return net.mask != 0

    def key(self, net, ring=False):  # never searched by strategy (theory answers), but keyed apart
        return (id(net.shape), net.mask)

    def gentle(self, net, ring=False):
        """A lost graph: remove one node, the last one given."""
        return net.without(_cell_bits(net.mask)[-1])

    def searchable(self, net, ring=False):
        return _too_large(net, self.k) <= _limit(NET_PART)

    def size_error(self, net, misere):
        if misere:
            return SizeError(
                "%s misere: %d nodes is too many to search here (at most %d)"
                % (self.spec, _bits(net.mask), _limit(MISERE_LAMPS))
            )
        return SizeError(
            "%s: a component of %d nodes is too large to search here (at most %d, "
            "or a path or cycle)" % (self.spec, _too_large(net, self.k), _limit(NET_PART))
        )

    def groups(self, net):
        """(nodes, nim-value) of each component."""
        return [
            (_bits(part), _net_value(part, net.shape, self.spec, self.k)) for part in _pieces(net.mask, net.shape.near)
        ]


class Shape:
    """What every position of one given graph shares: the node names, each
    node's neighbours (dict: node bit -> mask) and the components' values."""

    def __init__(self, names, near):
        self.names = names
        self.near = near
        self.memo = {}  # component mask -> nim-value
        self.work = 0  # moves tried so far, against _NET_WORK
        self.top = ""  # the component being valued, in words (for a SizeError)


class Net:  # noqa: PLW1641 - compared, never a key: no __hash__
    """A position of Graph Nim on a given graph: node i is bit i of
    ``mask`` (1: still in play)."""

    def __init__(self, shape, mask):
        self.shape = shape
        self.mask = mask

    def without(self, cut):
        return Net(self.shape, self.mask & ~cut)

    def left(self):
        """The nodes still in play, in the order they were given."""
        names = self.shape.names
        return [names[i] for i in range(len(names)) if self.mask >> i & 1]

    def __eq__(self, other):
        return isinstance(other, Net) and other.shape is self.shape and other.mask == self.mask

    def __repr__(self):
        return "<Net %r>" % (self.left(),)


def net(graph):
    """A Net from ``{"nodes": [...], "edges": [[a, b], ...]}``, or RulesError.

    A node is a whole number or a string, named once (1 and "1" are two
    nodes); an edge joins two different nodes of the list; an edge given
    twice (either way round) is one edge. No nodes: the game is over.
    """
    nodes = graph.get("nodes")
    edges = graph.get("edges", [])
    for key in graph:
        if key not in ("nodes", "edges"):
            raise RulesError("a graph has 'nodes' and 'edges', not %s" % _said(key))
    if not isinstance(nodes, list):  # [] is a graph with nothing left: the game is over
        raise RulesError("a graph needs 'nodes': a list of node names")
    if len(nodes) > _NET_NODES:
        raise RulesError("a graph has at most %d nodes, got %d" % (_NET_NODES, len(nodes)))
    index = {}  # type: dict
    for name in nodes:
        if isinstance(name, bool) or not isinstance(name, (int, str)):
            raise RulesError("a node is a whole number or a string, got %s" % _said(name))
        if (type(name), name) in index:
            raise RulesError("node %s is listed twice" % _said(name))
        index[(type(name), name)] = len(index)
    if not isinstance(edges, list):
        raise RulesError("'edges' is a list of [a, b] pairs of nodes")
    near = {}
    for i in range(len(nodes)):
        near[1 << i] = 0
    for edge in edges:
        if not isinstance(edge, list) or len(edge) != 2:
            raise RulesError("an edge is a pair of nodes [a, b], got %s" % _said(edge))
        ends = []
        for name in edge:
            at = index.get((type(name), name)) if isinstance(name, (int, str)) else None
            if at is None:
                raise RulesError("edge %s names %s, which is not in 'nodes'" % (_said(edge), _said(name)))
            ends.append(1 << at)
        if ends[0] == ends[1]:
            raise RulesError("edge %s joins a node to itself" % _said(edge))
        near[ends[0]] |= ends[1]
        near[ends[1]] |= ends[0]
    return Net(Shape(list(nodes), near), (1 << len(nodes)) - 1)


def _said(thing):
    """Part of a bad input, quoted short enough for one line."""
    text = repr(thing)
    return text if len(text) <= 40 else text[:37] + "..."


_lines = {}  # type: dict  # k -> splits.Lines taking 1 to k: the values of paths and cycles


def _line(part, near):
    """(nodes, is a cycle) if a component is a path or a cycle, else None."""
    n = 0
    ends = 0
    for bit in _cell_bits(part):
        degree = _bits(near[bit] & part)
        if degree > 2:
            return None
        if degree < 2:
            ends += 1
        n += 1
    return n, ends == 0 and n >= 3  # connected, no node of degree 3: a path or a cycle


def _lines_for(k):
    """The path and cycle values of graph:K (``splits.Lines`` taking 1 to K)."""
    lines = _lines.get(k)
    if lines is None:
        from .splits import Lines

        lines = Lines()
        lines.most = k
        _lines[k] = lines
    return lines


def _line_value(part, near, k):
    """The nim-value of a path or a cycle by its length; None for any other
    component (or a line too long for the table)."""
    line = _line(part, near)
    lines = _lines_for(k)
    if line is None or line[0] > lines.max_part:
        return None
    if line[1]:
        return lines.nimber([line[0]], True)
    return lines.value(line[0])


def _too_large(net, k):
    """The largest component that is neither a path nor a cycle (those are
    valued by their length), in nodes."""
    most = 0
    for part in _pieces(net.mask, net.shape.near):
        if _line_value(part, net.shape.near, k) is None:
            most = max(most, _bits(part))
    return most


def _net_value(part, shape, spec, k, cuts=None):
    """Nim-value of one connected component of a given graph (normal play).
    ``cuts``: the moves of a component holding this one (a move inside a
    part is a move of the whole, so its list is filtered, not rebuilt)."""
    memo = shape.memo
    value = memo.get(part)
    if value is None:
        near = shape.near
        value = _line_value(part, near, k)
        if value is None:
            if cuts is None:
                cuts = connected_sets(part, near, k)
                shape.top = "%d nodes and %d moves" % (_bits(part), len(cuts))
            cuts = [cut for cut in cuts if cut & part == cut]
            shape.work += len(cuts)
            if shape.work > _NET_WORK:
                raise SizeError("%s: a component of %s is too much to search here" % (spec, shape.top))
            seen = []
            for cut in cuts:
                rest = part & ~cut
                x = memo.get(rest)  # a rest of several pieces is memoised whole too
                if x is None:
                    x = 0
                    for piece in _pieces(rest, near):
                        x ^= _net_value(piece, shape, spec, k, cuts)
                    memo[rest] = x
                if x not in seen:
                    seen.append(x)
            value = mex(seen)
        memo[part] = value
    return value


def _pieces(mask, near):
    """The components of a mask of nodes (``grid._split`` for a given graph, inlined: the hot loop)."""
    out = []
    while mask:
        grow = mask & -mask
        piece = grow
        while grow:
            bit = grow & -grow
            grow ^= bit
            new = near[bit] & mask & ~piece
            piece |= new
            grow |= new
        out.append(piece)
        mask &= ~piece
    return out
