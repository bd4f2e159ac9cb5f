# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""No search outside a tick's budget, whoever asks for it (issue 27: EXPLAIN
142-170 ms, the teaching hint 115 ms and the link's reasoning for its events
each ran a whole search in one tick, freezing the lamps on an RP2040).

Every search counts its work (``games.budget.spend``); the main loop's
searchers (the machine's turn, the teaching hint, the host link's commands)
give it a budget per tick. Here a whole exhibit runs, pico-grid with its host
link asked EXPLAIN on every turn, events on, the teaching hint, a SET and a
NEW: any unit of work spent with no budget set is a search that froze a tick.
The work is counted, not timed, so the test holds on any machine.
"""

import pytest
from kit_link import Cable
from kit_sim import FAST
from nimatron.games import budget, building, candy, graph, nim2d
from nimatron.link.hostlink import _LINK_UNITS as LINK_UNITS, HostLink, forget_searches as forget_everything
from nimatron.link.protocol import parse_line
from nimatron.machine import turns
from nimatron_sim.visitor import Visitor

MOST_A_SPEND = 3 * 40 + 1  # a new position's charge, as tests/test_search_budget.py


class Watch:
    """Units spent with no budget set, and the most spent in one budget."""

    def __init__(self, monkeypatch):
        self.unbudgeted = []
        self.most = 0
        real_spend, real_stop = budget.spend, budget.stop

        def spend(units=1):
            if budget._left[0] is None:
                self.unbudgeted.append(units)
            return real_spend(units)

        def stop():
            self.most = max(self.most, budget.spent())
            real_stop()

        for module in (budget, building, candy, graph, nim2d):
            if getattr(module, "spend", None) is real_spend:
                monkeypatch.setattr(module, "spend", spend)
        monkeypatch.setattr(budget, "stop", stop)


def linked(sim):
    """The firmware's own host link on the simulated machine, polled every tick as code.py does."""
    cable = Cable()
    link = HostLink(sim.controller, cable, board=sim.board)
    keep = sim.machine.keep

    def tick(now):
        keep(now)
        link.poll(now)

    sim.machine.keep = tick
    return cable, link


def ask(sim, cable, line, wait_ms=20000):
    """One command; runs the machine until its reply comes (events skipped)."""
    cable.to_machine += line.encode() + b"\n"
    end = sim.now + wait_ms
    while sim.now < end:
        sim.advance(sim.tick_ms)
        got = [parse_line(x) for x in cable.to_host.split(b"\n")[:-1]]
        replies = [g for g in got if g[0] != "EV"]
        if replies:
            cable.to_host = b""
            assert len(replies) == 1, replies
            return replies[0]
    raise AssertionError("no reply to %s in %d ms" % (line, wait_ms))


@pytest.mark.parametrize(
    "preset, misere",
    [("graph", True), ("graph", False), ("candy", True), ("nim2d", False), ("grundy", False), ("building", False)],
)
def test_no_command_hint_or_event_searches_outside_a_budget(sims, monkeypatch, preset, misere):
    forget_everything()
    sim = sims("pico-grid", FAST, seed=7)
    cable, link = linked(sim)
    assert ask(sim, cable, "EVENTS ON")[0] == "OK"
    watch = Watch(monkeypatch)  # from here: a SET's check of the games searches nothing (tests/test_checks.py)
    kind, data = ask(sim, cable, "SET preset %s" % preset)
    assert kind == "OK", data
    assert ask(sim, cable, "SET misere %s" % ("on" if misere else "off"))[0] == "OK"
    assert ask(sim, cable, "SET difficulty teach")[0] == "OK"
    for key, value in (("first", "visitor"), ("hint_ms", 1000), ("think_ms", 0), ("show_ms", 0)):
        kind, data = ask(sim, cable, "SET %s %s" % (key, value))  # a preset brings its own timings
        assert kind == "OK", data
    robot = Visitor(sim, "random", seed=3, hold_ms=30, gap_ms=30)
    explained = hinted = 0
    for game in range(2):
        robot.turn = None
        robot.tap_for("new")
        end = sim.now + 600000
        while robot.winner is None and sim.now < end:
            if robot.turn == "visitor":
                sim.advance(1100)  # the hint comes after hint_ms
                hinted += sim.controller.hint is not None  # searched: [] when no move wins
                kind, data = ask(sim, cable, "EXPLAIN")
                assert kind == "OK", data
                explained += 1
                if robot.turn == "visitor" and robot.winner is None:
                    robot.move()
            else:
                sim.advance(sim.tick_ms)
        assert robot.winner in ("machine", "visitor")
        if game == 0:
            assert ask(sim, cable, "NEW")[0] == "OK"
    assert explained >= 2 and hinted >= 2
    assert not watch.unbudgeted, "%d units of search outside any budget" % sum(watch.unbudgeted)
    assert watch.most <= max(turns.SEARCH_UNITS, LINK_UNITS) + MOST_A_SPEND
    assert link.failure is None, link.failure


def test_an_explain_that_needs_several_ticks_answers_as_one_search_would():
    """EXPLAIN on Graph Nim misère's 13 lamps: no reply while its search goes on, then the
    same reply the unbudgeted command gives."""
    from kit_link import Machine

    forget_everything()
    m = Machine("pico-grid", preset="graph", misere=True, first="visitor", **FAST)
    m.ok("NEW")
    forget_everything()
    whole = m.link.handle(b"EXPLAIN", m.now)
    forget_everything()
    polls = 0
    m.cable.to_machine += b"EXPLAIN\n"
    while b"\n" not in m.cable.to_host:
        m.now += 10
        m.controller.update(m.now)
        m.link.poll(m.now)
        polls += 1
        assert polls < 5000
    assert polls > 2, "the search fitted one poll: the test proves nothing"
    assert m.cable.to_host.decode().rstrip("\n") == whole
