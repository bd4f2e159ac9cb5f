# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A MacroPad switched between presets over the link, as a long run does (issue 43).

On the stock MacroPad (emulated) a ``SET preset`` sent while the game-over
screen showed applied at once, and switching between a graph and a heaps
preset then raised ``TypeError``: the OLED drew the game just ended with the
new rules' words (``'int' object is not iterable``). A SET now waits for the
next game on the game-over screen as it does mid-game. And a rebuild after a
fault found the MacroPad's pixels still claimed (``NEOPIXEL in use``) when
the old driver's close had failed before it reached them: the pixels are let
go first, whatever else fails.

The simulator runs the real firmware and drivers (Blinka on mocked pins, the
OLED's mock framebuffer) in virtual time; a fault there raises (strict)."""

import pytest
from kit_link import Cable
from kit_sim import sims  # noqa: F401 - the fixture
from nimatron.link.hostlink import HostLink
from nimatron_sim.visitor import Visitor

FAST = {"think_ms": 0, "show_ms": 0, "over_ms": 20000}
PAIRS = [("pad-graph", "pad-nim"), ("pad-nim", "pad-graph"), ("pad-graph", "pad-moore"), ("pad-building", "pad-graph")]


def linked(sim):
    link = HostLink(sim.controller, Cable(), board=sim.board)
    link.attach(sim.controller)
    return link


def say(link, sim, line):
    reply = link.handle(line.encode(), sim.now)
    assert reply.startswith("OK"), (line, reply)
    import json

    return json.loads(reply[3:]) if reply[3:] else {}


def play_to_the_end(sim, seed):
    robot = Visitor(sim, "random", seed=seed)
    robot.play_game()
    sim.listeners.remove(robot._event)
    assert sim.controller.state == "over", sim.controller.state


@pytest.mark.parametrize("first, then", PAIRS)
def test_set_preset_on_the_game_over_screen_waits_for_the_next_game(sims, first, then):  # noqa: F811
    sim = sims("macropad", dict(FAST, preset=first))
    sim.advance(100)
    link = linked(sim)
    play_to_the_end(sim, 1)
    sim.advance(200)  # the game-over screen drawn, a line a pass
    c = sim.controller
    rules, shown = c.rules.spec, list(c.io.oled.text)
    out = say(link, sim, "SET preset " + then)
    assert out["applies"] == "next game", out
    assert c.rules.spec == rules and c.state == "over"
    sim.advance(2000)  # the game-over screen as it was: the old game, its own rules' words
    assert c.io.oled.text == shown
    sim.tap_for("new")
    sim.advance(500)
    assert c.settings["preset"] == then and c.rules.spec != rules or first == then
    assert c.io.oled.text[1].split()[0] == c.rules.spec, c.io.oled.text


@pytest.mark.parametrize("first, then", PAIRS)
def test_graph_and_heaps_presets_switched_in_every_state_draw_no_stale_position(sims, first, then):  # noqa: F811
    """SET in attract mode, mid-game, on the game-over screen and after it:
    every pass draws the OLED from the position in play with its own rules."""
    sim = sims("macropad", dict(FAST, preset=first, over_ms=1500))
    sim.advance(100)
    link = linked(sim)
    c = sim.controller
    for k, preset in enumerate((then, first, then, first)):
        play_to_the_end(sim, k)
        say(link, sim, "SET preset " + preset)  # the game-over screen
        sim.advance(3000)  # and back to attract mode, where it applies
        sim.tap_for("new")
        sim.advance(300)
        say(link, sim, "SET preset " + (first if preset == then else then))  # mid-game: from the next game
        sim.advance(300)
        assert c.io.oled.text[1].split()[0] == c.rules.spec, c.io.oled.text
        sim.tap_for("new")  # abandoned: the next game, the other preset's rules
        sim.advance(300)
        assert c.io.oled.text[1].split()[0] == c.rules.spec, c.io.oled.text


@pytest.fixture
def one_strip_a_pin(monkeypatch):
    """CircuitPython's rule on the simulator's NeoPixels: a pin's strip must be
    deinit'ed before another opens on it (``ValueError: NEOPIXEL in use``)."""
    from nimatron_sim import blinka_mock

    blinka_mock.install()  # before neopixel: Blinka's agnostic board
    import neopixel

    live = {}
    opened = neopixel.NeoPixel.__init__
    closed = neopixel.NeoPixel.deinit

    def init(self, pin, *args, **kw):
        if live.get(str(pin)):
            raise ValueError("%s in use" % pin)
        opened(self, pin, *args, **kw)
        live[str(pin)] = self
        self.claimed = str(pin)

    def deinit(self):
        closed(self)
        live.pop(getattr(self, "claimed", None), None)

    monkeypatch.setattr(neopixel.NeoPixel, "__init__", init)
    monkeypatch.setattr(neopixel.NeoPixel, "deinit", deinit)
    return live


@pytest.mark.parametrize("fails", ["tone", "keys", "led", "oled"])
def test_a_rebuild_after_a_fault_finds_the_pixels_let_go_whatever_part_fails_to_close(
    sims,  # noqa: F811
    one_strip_a_pin,
    monkeypatch,
    fails,
):
    """A fault closes the driver and builds the game again. A part that
    fails to close (the heap out of memory, a pin the board refuses) must not
    keep the pixels claimed: the rebuild then failed every 5 s with
    ``NEOPIXEL in use``, the MacroPad dark. The pixels are let go first, and
    every other part is still let go after the one that failed."""
    sim = sims("macropad", dict(FAST, preset="pad-nim"))
    sim.advance(100)
    old = sim.controller.io
    assert one_strip_a_pin and list(one_strip_a_pin.values()) == [old._pixels]

    def broken(*args):
        raise MemoryError("memory allocation failed, allocating 64 bytes")

    part = {
        "tone": old.sound.tone if old.sound else None,
        "keys": old._scanners[0][0],
        "led": old._led,
        "oled": old.oled,
    }[fails]
    assert part is not None, fails
    let_go = []
    others = [o for o in (old._encoder, old._led, old.oled) if o is not None and o is not part]
    for other in others:
        monkeypatch.setattr(other, "deinit", lambda *a, o=other, f=other.deinit: let_go.append(o) or f(*a))
    monkeypatch.setattr(part, "stop" if fails == "tone" else "deinit", broken)
    sim.machine.fault(RuntimeError("a fault"), sim.now)
    assert sim.machine.controller is not None and sim.machine.controller.io is not old, sim.machine.last_fault
    assert list(one_strip_a_pin.values()) == [sim.machine.controller.io._pixels]
    assert let_go == others
