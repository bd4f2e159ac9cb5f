# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The operator's side through the real drivers on mocked pins (the
simulator), the host link and the script syntax; a Hypothesis fuzz of button
storms on the core. The menu's screens themselves are in service_scenarios.
"""

import json

import pytest
from controller_scenarios import Rig
from hypothesis import HealthCheck, given, settings, strategies as st
from nimatron.link.hostlink import HostLink
from nimatron.machine.controller import ATTRACT, SERVICE, VISITOR
from nimatron.machine.switches import CHORD_MS
from nimatron_host.cli import main
from nimatron_sim.engine import Simulator

BOARDS = ("pi-leds", "pico-neopixel", "pico-grid")


def events(sim):
    out = []
    sim.listeners.append(out.append)
    return out


def kinds(out, name):
    return [e for e in out if e["event"] == name]


def first_button(sim):
    return "row0" if "row0" in sim.roles else "key 0 0"


@pytest.mark.parametrize("board", BOARDS)
def test_the_chord_opens_the_menu_through_the_real_drivers(board):
    with Simulator(board) as sim:
        out = events(sim)
        sim.chord(["done", "new"], CHORD_MS + 100)
        assert sim.controller.state == SERVICE
        assert kinds(out, "service")[0] == {
            "t": kinds(out, "service")[0]["t"],
            "event": "service",
            "open": True,
            "by": "buttons",
        }
        lamps = sim.read_lamps()
        assert sum(map(sum, lamps)) == 1 and lamps[0][0] == 1  # item 1: one lamp
        assert sim.read_status()["champ"] == 1
        sim.tap(first_button(sim))
        assert sum(map(sum, sim.read_lamps())) == 2  # item 2, read back from the pins
        sim.tap("new")
        assert sim.controller.state == ATTRACT


@pytest.mark.parametrize("board", BOARDS)
def test_a_button_held_at_power_up_is_stuck_and_the_rest_plays(board):
    sim = Simulator(board)
    held = first_button(sim)
    sim.hold_at_power_up(held)
    out = events(sim)
    sim.advance(500)
    assert kinds(out, "stuck") == [{"t": 0, "event": "stuck", "button": held, "why": "power-up"}]
    assert sim.controller.state == ATTRACT
    blinks = set()
    for _ in range(40):
        sim.advance(50)
        blinks.add(sim.read_status()["machine_wins"])
    assert blinks == {0, 1}  # the stuck pattern, read back from the status lamp
    sim.tap("new")
    assert sim.controller.state == VISITOR
    sim.release(held)
    sim.advance(100)
    assert kinds(out, "stuck")[-1]["released"] is True
    sim.close()


def test_gpiozero_reports_a_button_closed_before_the_driver_opens():
    from gpiozero.pins.mock import MockFactory, MockPin
    from nimatron.config import boards
    from nimatron.drivers.gpiozero_io import GpiozeroIO

    class ShortedPin(MockPin):
        """A pin a closed button holds low: the pull-up cannot raise it."""

        shorted = False

        def drive_high(self):
            if not self.shorted:
                MockPin.drive_high(self)

    spec = boards.board("pi-leds")
    factory = MockFactory(pin_class=ShortedPin)
    pin = factory.pin(spec["buttons"]["row1"])
    pin.shorted = True
    pin.drive_low()
    io_ = GpiozeroIO(spec, boards.layout(spec), pin_factory=factory)
    try:
        assert io_.events() == [("row1", True)]
    finally:
        io_.close()
        factory.reset()


def test_every_key_of_the_matrix_at_once_never_wedges_the_game():
    with Simulator("pico-grid", {"think_ms": 100, "show_ms": 100}) as sim:
        out = events(sim)
        sim.tap("new")
        everything = list(sim.roles)
        sim.chord(everything, 2000)  # every key, DONE and NEW: a hand on the board
        sim.chord(everything, 12000)  # ... leaning on it: all stuck, then released
        assert {e["button"] for e in kinds(out, "stuck") if e.get("why")} == set(everything)
        assert sim.controller.state != SERVICE and not sim.controller.switches.stuck
        _plays_on(sim, out)


def test_a_keypad_queue_overflow_never_wedges_the_game():
    with Simulator("pico-grid", {"think_ms": 100, "show_ms": 100}) as sim:
        out = events(sim)
        sim.tap("new")
        keys = [r for r in sim.roles if r.startswith("key ")]
        bench = sim.bench
        t = sim.now
        for n in range(80):  # the main loop stalls while the scanner queues 80 edges
            t += 20
            bench.set_switch(keys[(n // 2) % len(keys)], n % 2 == 0)
            bench.scan(t)
        queue = bench._scanners[0].events
        assert queue.overflowed
        for role in keys:
            bench.set_switch(role, False)
        sim.advance(t - sim.now + 200)
        assert not queue.overflowed
        _plays_on(sim, out)


def _plays_on(sim, out):
    """A fresh game takes a legal move and the machine answers."""
    sim.tap("new")
    assert sim.controller.state == VISITOR
    heaps, ring = sim.controller.position()
    lamp = sim.controller.panel.lamps_for([h - 1 if k == 0 else h for k, h in enumerate(heaps)])[0]
    sim.tap("key %d %d" % lamp[0])
    sim.tap("done")
    sim.advance(1000)
    moves = kinds(out, "move")
    assert moves[-1]["by"] == "machine" and moves[-2]["by"] == "visitor"


def test_a_script_holds_several_buttons_at_once(tmp_path, capsys):
    script = tmp_path / "chord.txt"
    script.write_text(
        "down row2\nwait 100\ndown done\ndown new\nwait 5100\nup done\nup new\n"
        "press row0\nwait 100\nchord done new 3000\nup row2\n"
    )
    assert main(["sim", "--headless", "--board", "pico-neopixel", "--script", str(script)]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    evs = [e for e in lines if "event" in e and e["event"] != "boot"]
    assert evs[0] == {"t": 0, "event": "stuck", "button": "row2", "why": "power-up"}
    opened = [e for e in evs if e["event"] == "service" and "open" in e]
    assert [e["open"] for e in opened] == [True] and opened[0]["by"] == "buttons"
    assert any(e["event"] == "service" and e.get("item") == "button_test" for e in evs)


@pytest.mark.parametrize(
    "line, message",
    [
        ("chord done 500", "chord needs two or more buttons"),
        ("chord done new", "chord needs two or more buttons"),
        ("chord done nope 500", "no button 'nope'"),
        ("down", "which button?"),
        ("up row9", "no button 'row9'"),
    ],
)
def test_bad_chord_and_hold_lines_exit_2_naming_the_line(tmp_path, capsys, line, message):
    script = tmp_path / "bad.txt"
    script.write_text("press new\n" + line + "\n")
    assert main(["sim", "--headless", "--board", "pico-neopixel", "--script", str(script)]) == 2
    err = capsys.readouterr().err
    assert "line 2" in err and message in err and "Traceback" not in err


# -- the host link -------------------------------------------------------------------
def test_service_over_the_link_needs_the_pin_and_shows_in_state():
    rig = Rig(operator_pin="1234")
    link = HostLink(rig.c, board="pi-neopixel")

    def ask(line):
        return link.handle(line.encode(), rig.t)

    assert ask("SERVICE ON").startswith("ERR locked")
    assert rig.c.state == ATTRACT
    assert json.loads(ask("SERVICE")[3:]) == {"service": None, "stuck": [], "check_switch": []}
    assert ask("UNLOCK 1234").startswith("OK")
    assert json.loads(ask("SERVICE ON")[3:])["service"] == "menu"
    state = json.loads(ask("STATE")[3:])
    assert state["state"] == "service" and state["service"] == "menu"
    assert ask("SERVICE MAYBE").startswith("ERR syntax")
    assert json.loads(ask("SERVICE OFF")[3:])["service"] is None
    assert rig.c.state == ATTRACT
    audits = json.loads(ask("AUDITS")[3:])
    assert "stuck_buttons" not in audits and audits["check_switch"] == []


def test_a_jammed_matrix_never_overflows_a_state_reply():
    with Simulator("pico-grid") as sim:
        link = HostLink(sim.controller, board="pico-grid")
        sim.chord(list(sim.roles), 11000)
        for role in sim.roles:
            sim.press(role)
        sim.advance(11000)
        reply = link.handle(b"STATE", sim.now)
        assert reply.startswith("OK ")
        assert json.loads(reply[3:])["stuck"][-1] == "+%d more" % (len(sim.roles) - 8)


# -- fuzz: a visitor's storm never opens the menu; a 5 s chord always does ---------------
press = st.tuples(
    st.sampled_from(["row0", "row1", "row2", "row3", "done", "new"]), st.integers(0, CHORD_MS - 200), st.booleans()
)
together = st.tuples(st.just("chord"), st.integers(0, CHORD_MS - 200), st.booleans())


@settings(max_examples=60, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.one_of(press, together), max_size=40), st.booleans())
def test_button_storms_never_open_the_menu_but_the_chord_does(storm, bounce):
    rig = Rig(think_ms=100, show_ms=100, over_ms=1000)
    for role, hold, chatter in storm:
        roles = ["done", "new"] if role == "chord" else [role]
        for r in roles:
            rig.edge(r, True)
            if chatter or bounce:
                rig.edge(r, False)
                rig.edge(r, True)
        rig.run(hold)
        for r in roles:
            rig.edge(r, False)
        rig.run(50)
        assert rig.c.menu is None
    assert not [e for e in rig.events if e["event"] in ("service", "stuck")]
    rig.edge("done", True)
    rig.edge("new", True)
    rig.run(CHORD_MS + 50)
    assert rig.c.state == SERVICE
