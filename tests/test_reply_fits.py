# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every reply the firmware can make fits one reply line (``MAX_REPLY``).

Issue 43: on a pico-neopixel after a sweep over every preset and a menu
visit, a reply was refused with ``ERR toolong reply longer than 1024
bytes``. The kind: a reply whose parts grow with what the machine has seen
(the per-preset counts of ``AUDITS``, the buttons Check Switch names, the
stuck ones, the menu's screen, the modules ``MEMORY`` lists, a long
rotation of starts). ``AUDITS`` cut its per-preset counts to fit before
the menu, stuck buttons and Check Switch were added to it: counts just under
the cut and a button or two over it made the line too long.

Two generators: the variable parts at their extremes on every board
(Hypothesis, bounded), and every board and preset played through the link
with every read command asked after each move."""

import json

import pytest
from hypothesis import HealthCheck, Phase, given, settings, strategies as st
from kit_link import Machine
from nimatron.config import boards
from nimatron.config.values import MAX_STARTS
from nimatron.link.protocol import MAX_REPLY
from nimatron.machine.audits import KEYS, MAX_PRESETS, PRESET_KEYS

BOARDS = boards.names()
READS = ("HELLO", "HELP", "STATE", "EXPLAIN", "AUDITS", "CONFIG", "MEMORY", "SERVICE")


def presets_of(board):
    import emu_board  # tools/: the presets a board plays (as the emulator's rows take them)

    return emu_board.playable(board)


@pytest.fixture(autouse=True)
def _tools_path(monkeypatch):
    import os
    import sys

    monkeypatch.syspath_prepend(os.path.join(os.path.dirname(os.path.dirname(__file__)), "tools"))
    yield
    sys.modules.pop("emu_board", None)


def fits(machine, line):
    reply = machine.link.handle(line.encode(), machine.now)
    assert len(reply) <= MAX_REPLY, (line, len(reply), reply[:200])
    assert not reply.startswith("ERR toolong"), (line, reply)
    return reply


# Bounds of a machine in use: a game a minute, ten hours a day, for 270 years
# is under a million; a power-up a day under 10,000; a fault counter past 99
# is a machine to mend, not one to read from afar.
games = st.integers(min_value=0, max_value=999999)
power = st.integers(min_value=0, max_value=9999)
faults = st.integers(min_value=0, max_value=99)
MACHINES = {}


def machine(board):
    """One machine a board, its growing parts emptied (a Machine is 0.1-0.3 s to make)."""
    m = MACHINES.get(board)
    if m is None:
        m = MACHINES[board] = Machine(board)
    c = m.controller
    c.audits.presets = {}
    for key in c.audits.service:
        c.audits.service[key] = c.audits.lifetime[key] = 0
    c.switches.stuck.clear()
    c.switches.idle.clear()
    m.link.handle(b"SERVICE OFF", m.now)
    return m


@pytest.mark.parametrize("board", BOARDS)
@settings(
    max_examples=20,
    deadline=None,
    phases=(Phase.explicit, Phase.reuse, Phase.generate),
    suppress_health_check=[HealthCheck.function_scoped_fixture],
)
@given(data=st.data())
def test_the_growing_parts_at_their_extremes_fit(board, data):
    m = machine(board)
    c = m.controller
    names = data.draw(
        st.lists(st.sampled_from(presets_of(board)), max_size=MAX_PRESETS, unique=True)
        | st.lists(
            st.text("abcdefghijklmnopqrstuvwxyz-0123456789", min_size=1, max_size=16), max_size=MAX_PRESETS, unique=True
        )
    )
    for name in names:
        c.audits.presets[name] = {key: data.draw(games) for key in PRESET_KEYS}
    for i, key in enumerate(KEYS):
        c.audits.service[key] = c.audits.lifetime[key] = data.draw(games if i < 5 else power if i < 7 else faults)
    sw = c.switches
    roles = (
        sw.watched()
        + ["row%d" % r for r in range(len(c.layout))]
        + ["key %d %d" % (r, i) for r in range(len(c.layout)) for i in range(c.layout[r])]
    )
    for role in data.draw(st.lists(st.sampled_from(roles), unique=True)):
        sw.stuck[role] = "held"
    for role in data.draw(st.lists(st.sampled_from(sw.watched()), unique=True)):
        sw.idle[role] = c.settings["check_switch_games"] or 30
    if data.draw(st.booleans()):
        m.link.handle(b"SERVICE ON", m.now)
    for line in READS:
        fits(m, line)
    audits = json.loads(fits(m, "AUDITS")[3:])  # all it counted, or it says what it left out
    if not audits.get("presets_cut"):
        assert audits["presets"] == c.audits.presets
    state = json.loads(fits(m, "STATE")[3:])
    assert "stuck" in audits or not audits["presets"], "the lists left out before the presets"
    if "stuck" in audits:
        assert (audits["stuck"], audits["check_switch"]) == (state["stuck"], state["check_switch"])


def largest_starts(board, preset):
    """``MAX_STARTS`` copies of the preset's longest start (its JSON), or None."""
    m = Machine(board, preset=preset)
    longest = max(m.controller.settings["starts"], key=lambda s: len(json.dumps(s)))
    try:
        return Machine(board, preset=preset, starts=[longest] * MAX_STARTS)
    except Exception:  # a start the machine cannot play that many times: not a reply's case
        return None


@pytest.mark.slow  # every board and preset, a game each, five commands after every move (8-10 s in all)
@pytest.mark.parametrize("board", BOARDS)
def test_every_reply_through_a_game_fits_on_every_board_and_preset(board):
    from kit_link import Cable
    from nimatron.link.hostlink import HostLink
    from nimatron_sim import Simulator
    from nimatron_sim.visitor import Visitor

    for preset in presets_of(board):
        many = largest_starts(board, preset)
        if many is not None:  # CONFIG too long with them leaves the starts to CONFIG starts: read back whole
            shown = json.loads(fits(many, "CONFIG")[3:])
            for key in shown.pop("more", []):
                shown.update(json.loads(fits(many, "CONFIG " + key)[3:]))
            assert shown["starts"] == many.controller.settings["starts"], (board, preset)
            for line in ("STATE", "NEW"):
                fits(many, line)
        sim = Simulator(board, {"think_ms": 0, "show_ms": 0, "preset": preset, "remote_play": True})
        try:
            sim.advance(100)
            link = HostLink(sim.controller, Cable(), board=board)
            asked = []

            def ask(event, link=link, sim=sim):
                if event["event"] in ("move", "new_game", "game_over"):
                    for line in READS[:5]:
                        reply = link.handle(line.encode(), sim.now)
                        asked.append((line, len(reply), reply[:120]))

            sim.listeners.append(ask)
            robot = Visitor(sim, "random", seed=1)
            robot.play_game()
            for line in READS + ("PLAY PRESS done", "SET difficulty perfect", "NEW", "PLAY PRESS done"):
                reply = link.handle(line.encode(), sim.now)
                asked.append((line, len(reply), reply[:120]))
            too_long = [a for a in asked if a[1] > MAX_REPLY or a[2].startswith("ERR toolong")]
            assert not too_long, (board, preset, too_long[:3])
            assert asked
        finally:
            sim.close()
