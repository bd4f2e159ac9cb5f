# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""EXPLAIN does a bounded share of work in each poll of the host link
(issue 27: EXPLAIN on Graph Nim took one 228.4 ms pass on the emulated
pico-grid). Its search spends budget units, but a memo hit is free: Graph
Nim's theory looked up the groups' values of every move of the position
again on each poll, and again for the words (``Controller.explain``), all
outside the budget. For every preset of every board at exhibit size, each
start, normal and misere, from cold caches and again warm: the Python calls the link's poll
makes while an EXPLAIN is pending are counted (work, not time) and the
most in one poll must stay under ``CALLS_A_POLL``; the reply still comes.
"""

import sys

import pytest
from kit_link import Machine
from kit_sim import FAST
from nimatron.games.rules import parse_rules
from nimatron.link.hostlink import forget_searches
from nimatron_sim.engine import playable_presets

# Calls one poll may make: a budget's worth of search (LINK_UNITS) and the
# reply's words. Graph Nim's EXPLAIN made 2,889 in one poll before (1,367 on pad-graph).
CALLS_A_POLL = 1000


def cases():
    out = []
    for board in ("pico-grid", "pico-ring", "pico-neopixel", "macropad", "circuitplayground"):
        for preset in playable_presets(board):
            out.append((board, preset))
    return out


def calls_per_poll(m):
    """Poll until EXPLAIN's reply: (most calls in one poll, polls, the reply)."""
    most = 0
    polls = 0
    count = [0]

    def profile(frame, event, arg):
        if event == "call":
            count[0] += 1

    m.cable.to_machine += b"EXPLAIN\n"
    while b"\n" not in m.cable.to_host:
        m.now += 10
        m.controller.update(m.now)
        count[0] = 0
        sys.setprofile(profile)
        try:
            m.link.poll(m.now)
        finally:
            sys.setprofile(None)
        most = max(most, count[0])
        polls += 1
        assert polls < 20000, "no reply"
    reply = m.cable.to_host.decode()
    m.cable.to_host = b""
    return most, polls, reply


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
@pytest.mark.parametrize("board, preset", cases())
def test_explain_does_a_bounded_share_of_work_each_poll(board, preset, misere):
    m = Machine(board, preset=preset, misere=misere, first="visitor", **FAST)
    starts = m.controller.settings["starts"]
    worst = (0, None)
    for _ in starts:
        m.ok("NEW")
        assert m.controller.state == "visitor"
        forget_searches()
        for _ in ("cold", "warm"):  # the search's own work, then the memo's hits alone (free in units)
            most, polls, reply = calls_per_poll(m)
            assert reply.startswith("OK"), reply
            if most > worst[0]:
                worst = (most, m.controller.position()[0])
    assert worst[0] <= CALLS_A_POLL, "%s %s: %d calls in one poll at %s" % (
        board,
        preset,
        worst[0],
        parse_rules(m.controller.rules.spec).position_words(worst[1]),
    )


def passes_of(m, line):
    """Send ``line`` and poll until its reply: per pass (the controller's
    update, then the link's poll), (collections, the firmware modules the
    poll loaded, replied)."""
    import gc

    collected = [0]
    real = gc.collect

    def collect(*args):
        collected[0] += 1
        return real(*args)

    out = []
    m.cable.to_machine += line + b"\n"
    gc.collect = collect
    try:
        while b"\n" not in m.cable.to_host:
            m.now += 10
            collected[0] = 0
            m.controller.update(m.now)  # a collection the link asked for is made as it begins
            before = set(sys.modules)
            m.link.poll(m.now)
            loaded = sorted(n for n in set(sys.modules) - before if n.startswith("nimatron."))
            out.append((collected[0], loaded, b"\n" in m.cable.to_host))
            assert len(out) < 20000, "no reply"
    finally:
        gc.collect = real
    m.cable.to_host = b""
    return out


@pytest.mark.parametrize("board, preset", [c for c in cases() if c[0] in ("pico-grid", "pico-ring")])
def test_explain_loads_its_words_alone_after_a_collection_of_their_own(board, preset, monkeypatch):
    """On a board a module's load is most of a tick (games.explain: 28 ms on
    pico-grid, emulated) and a collection 18-25 ms: EXPLAIN loaded its words
    with no collection before them, the heap ran out in the load's pass and
    the collector ran there too (51-53 ms passes on 7 pico-grid presets).
    Every poll that loads a module loads one, and does nothing else; the
    poll before it collected and did nothing else."""
    import nimatron.games as games

    m = Machine(board, preset=preset, first="visitor", **FAST)
    m.ok("NEW")
    assert m.controller.state == "visitor"
    monkeypatch.delitem(sys.modules, "nimatron.games.explain", raising=False)
    monkeypatch.delattr(games, "explain", raising=False)  # as forget() leaves a board
    polls = passes_of(m, b"EXPLAIN")
    loads = [i for i, (_, loaded, _) in enumerate(polls) if loaded]
    assert loads, "EXPLAIN loaded no module: %r" % (polls,)
    for i in loads:
        collections, loaded, replied = polls[i]
        assert loaded == ["nimatron.games.explain"] and not collections and not replied, polls[i]
        assert i > 0 and polls[i - 1] == (1, [], False), "poll %d loads with no collection of its own before: %r" % (
            i,
            polls[: i + 1],
        )
    assert polls[-1][0] == 0, "a collection in the answering poll"
