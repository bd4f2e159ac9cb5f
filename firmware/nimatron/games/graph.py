"""Graph Nim on the lamps (the seeds: "the starting board is a disconnected
graph, and players take turns removing adjacent vertices").

Read here as: the vertices are the lit lamps of a grid board, two lamps
joined when they are neighbours in a row or a column (no diagonals). A move
of ``graph:K`` puts out 1 to K lit lamps that are connected to each other
(K = 2 by default: one lamp, or two neighbouring lamps); whoever puts out
the last lamp wins (misère: loses). A position is a 0/1 matrix, as in
two-dimensional Nim (settings: row bitmasks, bit c = column c).

Putting lamps out never joins two groups, so in normal play the position
is the sum of its groups of connected lamps: the nim-value is the XOR of
the groups' values (Sprague-Grundy), each searched once and memoised on the
group's shape moved to the top-left corner. Misère play is no sum: the
whole position is searched bottom-up over every subset of its lit lamps
(a bytearray of 2**lamps, 4 KB for 12 lamps).

``solve`` also takes any graph, ``{"nodes": [...], "edges": [[a, b], ...]}``
(a ``Net``); a component that is a path or a cycle is valued by its length
(``splits.Lines``: circular Nim is graph:3 on a cycle), any other by search.
"""

from . import nim2d
from .nim2d import Nim2D, _cell_bits, _largest_group as largest_group, _mask, _near, _split
from .rules import SMALL, RulesError, SizeError, mex

MAX_K = 4
GROUP_LAMPS = (12, 8)    # normal play, the largest group searched: a PC (about a second), a board
MISERE_LAMPS = (16, 12)  # misère, every lit lamp at once: a PC, a board (a 4 KB bytearray)
NET_NODES = 256          # a graph given by nodes and edges: at most this many nodes
NET_PART = (16, 8)       # normal play, the largest component of such a graph searched: a PC, a board
NET_WORK = 1500000       # moves tried while valuing one graph's components; beyond: SizeError


def _limit(limits):
    return limits[1] if SMALL else limits[0]


class Graph(Nim2D):
    name = "graph"
    takes_k = True
    default_k = 2
    about = "put out 1 to k lamps that touch each other in a row or a column"

    def __init__(self, k=2):
        if not 1 <= k <= MAX_K:
            raise RulesError("graph:K takes 1 <= K <= %d, got %d" % (MAX_K, k))
        Nim2D.__init__(self, k)

    def check(self, position, ring=False):
        if isinstance(position, Net):
            return position
        if isinstance(position, dict):
            if ring:
                raise RulesError("only circular Nim has a ring")
            return net(position)
        return Nim2D.check(self, position, ring)

    def moves(self, matrix, ring=False):
        mask, width = _board(matrix)
        for cut in connected_sets(mask, width, self.k):
            if isinstance(matrix, Net):
                yield matrix.without(cut)
                continue
            after = [list(row) for row in matrix]
            for r in range(len(matrix)):
                for c in range(width):
                    if cut >> (r * width + c) & 1:
                        after[r][c] = 0
            yield after

    def has_move(self, matrix, ring=False):
        return matrix.mask != 0 if isinstance(matrix, Net) else Nim2D.has_move(self, matrix)

    def key(self, matrix, ring=False):
        if isinstance(matrix, Net):  # never searched by strategy (theory answers), but keyed apart
            return (id(matrix.shape), matrix.mask)
        return Nim2D.key(self, matrix)

    def gentle(self, matrix, ring=False):
        if isinstance(matrix, Net):  # a lost graph: remove one node, the last one given
            return matrix.without(_cell_bits(matrix.mask)[-1])
        return Nim2D.gentle(self, matrix)

    def cuts(self, mask, width):
        return connected_sets(mask, width, self.k)

    def searchable(self, matrix, ring=False):
        if isinstance(matrix, Net):
            return _too_large(matrix, self.k) <= _limit(NET_PART)
        return largest_group(matrix) <= _limit(GROUP_LAMPS)

    def size_error(self, matrix, misere):
        if isinstance(matrix, Net):
            if misere:
                return SizeError("%s misere: %d nodes is too many to search here (at most %d)"
                                 % (self.spec, _bits(matrix.mask), _limit(MISERE_LAMPS)))
            return SizeError("%s: a component of %d nodes is too large to search here (at most %d, "
                             "or a path or cycle)" % (self.spec, _too_large(matrix, self.k), _limit(NET_PART)))
        if misere:
            return SizeError("%s misere: %d lit lamps is too many to search here (at most %d)"
                             % (self.spec, lit(matrix), _limit(MISERE_LAMPS)))
        return SizeError("%s: a group of %d connected lamps is too large to search here (at most %d)"
                         % (self.spec, largest_group(matrix), _limit(GROUP_LAMPS)))

    def groups(self, matrix):
        """(lamps, nim-value) of each group of connected lit lamps."""
        if isinstance(matrix, Net):
            return [(_bits(part), _net_value(part, matrix.shape, self.spec, self.k))
                    for part in _pieces(matrix.mask, matrix.shape.near)]
        mask, width = _mask(matrix)
        out = []
        for group in _split(mask, width):
            out.append((_bits(group), nim2d._value(home(group, width), width, False, self.cuts, self.k)))
        return out

    def nimber(self, matrix, ring=False):
        if not self.searchable(matrix):
            return None
        x = 0
        for _, value in self.groups(matrix):
            x ^= value
        return x

    def theory(self, matrix, misere, ring=False):
        if not self.searchable(matrix):
            return None
        if misere:
            return self._misere_wins(matrix)
        if self.nimber(matrix) == 0:
            return []
        wins = []
        for after in self.moves(matrix):
            if self.nimber(after) == 0:
                wins.append(after)
        return wins

    def _misere_wins(self, matrix):
        """Winning moves in misère play: every subset of the lit lamps,
        smallest first (a move only lowers the subset's index)."""
        mask, width = _board(matrix)
        cells = _cell_bits(mask)
        n = len(cells)
        if n > _limit(MISERE_LAMPS):
            raise self.size_error(matrix, True)
        local = []  # each move as a subset of the lamps' own numbering
        for cut in connected_sets(mask, width, self.k):
            bits = 0
            for j in range(n):
                if cut & cells[j]:
                    bits |= 1 << j
            local.append(bits)
        win = bytearray(1 << n)
        win[0] = 1  # no lamp left: the other player put out the last one
        for subset in range(1, 1 << n):
            for cut in local:
                if cut & subset == cut and not win[subset ^ cut]:
                    win[subset] = 1
                    break
        full = (1 << n) - 1
        wins = []
        after_all = list(self.moves(matrix))
        for j in range(len(local)):
            if not win[full ^ local[j]]:
                wins.append(after_all[j])
        return wins


def connected_sets(mask, width, k):
    """Every set of 1 to k lit cells connected to each other, as bitmasks,
    each once, smallest first, in a fixed order (``width``: a grid's, or a
    graph's neighbours, as ``nim2d._near`` reads them)."""
    out = []
    seen = {}
    level = _cell_bits(mask)
    for size in range(1, k + 1):
        grown = []
        for cut in level:
            if cut in seen:
                continue
            seen[cut] = True
            out.append(cut)
            if size == k:
                continue
            for bit in _cell_bits(cut):
                near = _near(bit, width) & mask & ~cut
                while near:
                    one = near & -near
                    near ^= one
                    grown.append(cut | one)
        level = grown
    return out


def home(group, width):
    """A group moved to the top-left corner: the same shape, the same memo key."""
    while group and not group & ((1 << width) - 1):
        group >>= width  # up a row
    column = (1 << width) - 1
    left = 0
    probe = group
    col0 = 0
    while probe:
        col0 |= probe & column
        probe >>= width
    while col0 and not col0 & 1:
        col0 >>= 1
        left += 1
    return group >> left


def _bits(mask):
    n = 0
    while mask:
        mask &= mask - 1
        n += 1
    return n


def lit(matrix):
    return _bits(_mask(matrix)[0])


def _board(matrix):
    """(mask of what is in play, width): a grid's width, or a Net's
    neighbours (``nim2d._near`` reads either)."""
    if isinstance(matrix, Net):
        return matrix.mask, matrix.shape.near
    return _mask(matrix)


class Shape:
    """What every position of one given graph shares: the node names, each
    node's neighbours (dict: node bit -> mask) and the components' values."""

    def __init__(self, names, near):
        self.names = names
        self.near = near
        self.memo = {}  # component mask -> nim-value
        self.work = 0   # moves tried so far, against NET_WORK
        self.top = ""   # the component being valued, in words (for a SizeError)


class Net:
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
    if len(nodes) > NET_NODES:
        raise RulesError("a graph has at most %d nodes, got %d" % (NET_NODES, len(nodes)))
    index = {}
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
            i = index.get((type(name), name)) if isinstance(name, (int, str)) else None
            if i is None:
                raise RulesError("edge %s names %s, which is not in 'nodes'" % (_said(edge), _said(name)))
            ends.append(1 << i)
        if ends[0] == ends[1]:
            raise RulesError("edge %s joins a node to itself" % _said(edge))
        near[ends[0]] |= ends[1]
        near[ends[1]] |= ends[0]
    return Net(Shape(list(nodes), near), (1 << len(nodes)) - 1)


def _said(thing):
    """Part of a bad input, quoted short enough for one line."""
    text = repr(thing)
    return text if len(text) <= 40 else text[:37] + "..."


_lines = {}  # k -> splits.Lines taking 1 to k: the values of paths and cycles


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
            if shape.work > NET_WORK:
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
    """The components of a mask of nodes (``nim2d._split`` for a given graph, inlined: the hot loop)."""
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
