# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A rule change on a board that compiles its modules from source restarts
the board (issue 43): compiled into a heap cut up by what is resident, a
new rule set's module ran out of memory (``SET preset graph`` on pico-grid
from ``.py``). The rule (``startup.Machine.restart``, ``machine/restart.py``): only where
``code.py`` gave a reload port (``power_on.source``: ``.py`` on the drive),
only for a value ``nimatron deploy`` listed for the board and whose rules'
modules are not resident (``machine/restart.py``); the settings written first, the reply sent, then
the restart once no game is shown; a save that fails changes nothing and
restarts nothing. Here on CPython with a fake port and the store on a fake
nvm sector; under MicroPython: tests/test_py_sets.py."""

import sys

import pytest
from kit_link import Cable
from kit_start import make
from nimatron.link.hostlink import HostLink
from nimatron.machine.startup import Machine, read_source
from nimatron.machine.store import Store

BOARD = "pico-grid"


class Wire(Cable):
    """The cable, keeping every byte the machine wrote."""

    def __init__(self):
        super().__init__()
        self.sent = b""

    def write(self, data):
        self.sent += data
        return super().write(data)


class Restarted(BaseException):
    """CircuitPython's reload: raised, never caught by ``except Exception``."""


class Port:
    """``supervisor`` as the machine sees it: what had happened when it was asked to reload."""

    def __init__(self, cable, nvm):
        self.cable, self.nvm = cable, nvm
        self.asked = []

    def reload(self):
        found = Store(nvm=bytearray(self.nvm)).load()["settings"]
        self.asked.append({"host had": self.cable.sent, "stored": found})
        raise Restarted


@pytest.fixture
def deployed(monkeypatch, tmp_path):
    """The board's drive as ``nimatron deploy`` leaves it: ``config/choices.txt``."""
    import nimatron
    from nimatron.config import boards
    from nimatron_host.deploy import choices_file

    (tmp_path / "choices.txt").write_bytes(choices_file(BOARD, {"preset": boards.board(BOARD)["preset"]}))
    real = nimatron.resource
    monkeypatch.setattr(
        nimatron, "resource", lambda name: str(tmp_path / "choices.txt") if name == "config/choices.txt" else real(name)
    )


def not_resident(monkeypatch, *names):
    """CPython keeps every module it loaded (``nimatron.forget``): these are left out, as on a board."""
    import nimatron.games

    for name in names:  # the package's attribute too: a module imported again here is this test's alone
        monkeypatch.delitem(sys.modules, "nimatron.games." + name, raising=False)
        monkeypatch.delattr(nimatron.games, name, raising=False)


def start(nvm, reload=None):
    cable = Wire()
    m = Machine(BOARD, read_source(None), Store(nvm=nvm), make=make, log=lambda line: None, reload=reload)
    m.attach(HostLink(m.controller, cable, board=BOARD))
    return m, cable


def from_source():
    """A board whose modules compile from source: code.py gave the machine its reload port."""
    nvm = bytearray(b"\xff" * 4096)
    m, cable = start(nvm)
    port = m.reload = Port(cable, nvm)
    m.link.restart = m.restart  # as ``attach`` does when code.py gave the port
    m.controller.restart = m.restart  # and ``_build``
    return m, cable, port, nvm


def game_over(m, now):
    """The game in play over, attract mode: the pass that restarts."""
    m.controller._abandon()
    m.controller.panel = None
    m.controller._enter("attract", now)
    with pytest.raises(Restarted):
        m.tick(now + 20)


def ask(m, cable, line, now=1000, passes=400):
    """``line`` over the link, the main loop polled until it answers (or a restart)."""
    cable.to_machine += line.encode() + b"\n"
    for _ in range(passes):
        now += 20
        m.tick(now)
        got = cable.lines()
        if got:
            return got[0], now
    raise AssertionError("no reply to %s" % line)


def test_a_rule_change_from_source_is_saved_answered_then_restarts(monkeypatch, deployed):
    m, cable, port, nvm = from_source()
    not_resident(monkeypatch, "graph")
    reply, now = ask(m, cable, "SET preset graph")
    assert reply == ("OK", {"key": "preset", "value": "graph", "applies": "now", "saved": True, "restart": True})
    assert "nimatron.games.graph" not in sys.modules  # nothing compiled in the old heap
    assert not port.asked  # the reply's pass asks nothing: the next pass, once the reply is out
    with pytest.raises(Restarted):
        for _ in range(5):
            now += 20
            m.tick(now)
    (asked,) = port.asked
    assert b'"restart": true' in asked["host had"]  # the reply went out before the restart
    assert asked["stored"]["set"]["preset"] == "graph"  # and the settings were written
    again, _ = start(nvm)  # code.py again, as after CircuitPython's reload
    assert again.controller.settings["preset"] == "graph"
    assert again.settings_from == "stored"


def test_without_a_port_the_change_applies_in_place(monkeypatch, deployed):
    """From ``.mpy``, frozen, a Pi, the simulator: no port, no restart."""
    nvm = bytearray(b"\xff" * 4096)
    m, cable = start(nvm)
    assert getattr(m.link, "restart", None) is None
    reply, _ = ask(m, cable, "SET preset graph")
    assert reply[0] == "OK" and "restart" not in reply[1]
    assert m.controller.settings["preset"] == "graph"


def test_resident_rules_and_unlisted_values_apply_in_place(monkeypatch, deployed):
    m, cable, port, nvm = from_source()
    reply, _ = ask(m, cable, "SET preset graph")  # graph resident (CPython keeps it): nothing compiles
    assert reply[0] == "OK" and "restart" not in reply[1]
    assert m.controller.settings["preset"] == "graph"
    not_resident(monkeypatch, "nim2d")
    monkeypatch.setattr("nimatron.machine.deployed.listed", lambda c, key: ["grundy"])  # the deploy vouched for less
    reply, _ = ask(m, cable, "SET preset nim2d")
    assert reply[0] == "OK" and "restart" not in reply[1]
    assert m.controller.settings["preset"] == "nim2d"
    assert not port.asked


class BrokenNvm(bytearray):
    """A sector whose writes fail (a worn flash)."""

    def __setitem__(self, key, value):
        raise OSError(5, "Input/output error")


def test_a_save_that_fails_changes_nothing_and_restarts_nothing(monkeypatch, deployed):
    m, cable, port, nvm = from_source()
    before = dict(m.controller.settings)
    m.store.nvm = BrokenNvm(nvm)
    not_resident(monkeypatch, "graph")
    reply, now = ask(m, cable, "SET preset graph")
    assert reply[0] == "ERR" and reply[1][0] == "busy", reply
    assert "saving fails" in reply[1][1] and "Input/output error" in reply[1][1], reply
    for _ in range(20):
        now += 20
        m.tick(now)
    assert not port.asked
    assert m.controller.settings == before
    assert m.overrides.get("preset") in (None, before["preset"])


def test_a_game_in_play_ends_before_the_restart(monkeypatch, deployed):
    """As a SET mid-game today: the new rules from the next game; the board restarts once it is over."""
    m, cable, port, nvm = from_source()
    m.controller.new_game(1000)
    not_resident(monkeypatch, "graph")
    reply, now = ask(m, cable, "SET preset graph")
    assert reply[1]["applies"] == "next game" and reply[1]["restart"] is True
    for _ in range(50):
        now += 20
        m.tick(now)
    assert not port.asked  # the visitor's game goes on
    game_over(m, now)
    assert port.asked[0]["stored"]["set"]["preset"] == "graph"


def test_the_port_is_given_only_where_the_board_compiles_source(monkeypatch):
    import nimatron
    from nimatron.machine import power_on

    port = object()
    assert power_on.source(port) is None  # CPython: never
    monkeypatch.setattr(sys.implementation, "name", "circuitpython")
    monkeypatch.setattr(power_on, "__file__", "/lib/nimatron/machine/power_on.py")
    assert power_on.source(port) is port
    monkeypatch.setattr(power_on, "__file__", "/lib/nimatron/machine/power_on.mpy")
    assert power_on.source(port) is None  # the default deploy: .mpy
    monkeypatch.setattr(power_on, "__file__", "nimatron/machine/power_on.py")
    monkeypatch.setattr(nimatron, "__path__", ".frozen/nimatron", raising=False)
    assert power_on.source(port) is None  # frozen into the firmware


class RestartingPort:
    """The board's serial port while it restarts: the first ``lost`` HELLOs
    wait in its buffer, then its link is up and answers every line it holds."""

    def __init__(self, lost=2):
        self.lost = lost
        self.held = []
        self.out = b""

    @property
    def in_waiting(self):
        return len(self.out)

    def write(self, data):
        self.held.append(data.strip())
        if len(self.held) > self.lost:
            for line in self.held:
                self.out += (
                    b'OK {"name": "nimatron", "protocol": 1}\n' if line == b"HELLO" else b'OK {"preset": "graph"}\n'
                )
            self.held = []
            self.lost = 0  # up: every line answered as it comes
        return len(data)

    def flush(self):
        pass

    def read(self, n):
        data, self.out = self.out[:n], self.out[n:]
        return data


def test_the_host_waits_for_the_board_to_come_back():
    """``nimatron config`` after a reply saying the board restarts: HELLO
    until it answers; the replies to the HELLOs it sent meanwhile are read
    there, so the next command reads its own."""
    from nimatron_host.link import Link

    port = RestartingPort()
    link = Link("fake", timeout=1, serial_port=port)
    hello = link.back(seconds=5, every=0.05)
    assert hello["name"] == "nimatron"
    assert link.ask("CONFIG preset") == {"preset": "graph"}


def test_the_operator_menus_rule_change_takes_the_same_path(monkeypatch, deployed):
    """A preset chosen from the deploy's list in the menu: saved, said, and
    the board restarts once the menu is closed (attract mode)."""
    from nimatron.machine import adjust, deployed as lists

    m, cable, port, nvm = from_source()
    c = m.controller
    events = []
    m.listener = events.append
    not_resident(monkeypatch, "graph")
    now = 1000
    c.service(True, now, by="link")
    menu = c.menu
    menu.key = "preset"
    assert lists.show(menu, "preset")  # the deploy's list: checked on the host
    menu.index = menu.choices.index("graph")
    menu.screen = "adjust_value"
    adjust.select(menu, now)
    said = [e for e in events if e.get("event") == "adjusted"]
    assert said and said[-1]["restart"] is True and said[-1]["saved"] is True, said
    assert "nimatron.games.graph" not in sys.modules
    for _ in range(10):
        now += 20
        m.tick(now)
    assert not port.asked  # the menu stays open
    c.service(False, now, by="link")
    with pytest.raises(Restarted):
        m.tick(now + 20)
    assert port.asked[0]["stored"]["set"]["preset"] == "graph"


def test_a_change_while_the_restart_is_due_keeps_the_rules_saved_for_it(monkeypatch, deployed):
    """A second SET mid-game, after one that restarts: it lasts until the
    restart ("saved": false); the settings saved for the restart stay."""
    m, cable, port, nvm = from_source()
    m.controller.new_game(1000)
    not_resident(monkeypatch, "graph")
    reply, now = ask(m, cable, "SET preset graph")
    assert reply[1]["restart"] is True
    reply, now = ask(m, cable, "SET difficulty teach", now)
    assert reply[0] == "OK" and reply[1]["saved"] is False, reply
    for _ in range(600):  # past the settings' write gap (10 s): the game goes on
        now += 20
        m.tick(now)
    assert not port.asked
    assert Store(nvm=bytearray(nvm)).load()["settings"]["set"]["preset"] == "graph"
    game_over(m, now)
    assert port.asked[0]["stored"]["set"]["preset"] == "graph"
