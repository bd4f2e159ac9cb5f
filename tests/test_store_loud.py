# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Faults of the store as the machine shows them: loud, retried, failing closed.

The file system refuses (a full or read-only disk): said once on the
console, in a ``saving`` event, in HELLO and on the status lamps, retried,
and no PIN is checked while a wrong one cannot be counted. Damage at rest in
a settings record seals the host link; in an audits record UNLOCK starts
paused. Repetition: NEW flooded over the link writes nothing.
"""

import errno
import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "simulator", "nimatron_sim"))

from controller_scenarios import FakeIO  # noqa: E402
from flash import FlashNvm, ModelFiles  # noqa: E402
from nimatron.link.hostlink import HostLink  # noqa: E402
from nimatron.machine import app  # noqa: E402
from nimatron.machine.startup import Machine, overrides_source  # noqa: E402
from nimatron.machine.store import Store  # noqa: E402

BOARD = "pi-leds"
PIN = "2468"


def make(board, overrides, listener, now_ms, audits):
    return app.make_controller(board, overrides, io=FakeIO(), listener=listener, now_ms=now_ms, audits=audits)


class Disk(ModelFiles):
    """A Pi's disk that can be full: every create then fails with ENOSPC."""

    full = False
    why = "No space left on device"

    def create(self, path, data):
        if self.full:
            raise OSError(errno.ENOSPC, self.why)
        super().create(path, data)


class Pi:
    """A Pi's state file across restarts; ``start`` is a start of the service."""

    def __init__(self, settings=None):
        self.disk = Disk()
        self.settings = settings or {}
        self.lines = []
        self.events = []

    def start(self):
        store = Store(path="/state.bin", files=self.disk)
        self.machine = Machine(
            BOARD,
            overrides_source(self.settings),
            store,
            now_ms=0,
            make=make,
            log=self.lines.append,
            listener=self.events.append,
        )
        self.link = self.machine.attach(HostLink(self.machine.controller, board=BOARD, now_ms=0))
        return self.machine

    def ask(self, line, now=0):
        reply = self.link.handle(line.encode(), now)
        word, _, rest = reply.partition(" ")
        return word, (json.loads(rest) if word == "OK" else rest)


def test_a_full_disk_is_loud_once_retried_and_said_again_when_it_recovers():
    pi = Pi()
    m = pi.start()
    pi.disk.full = True
    m.audits.game_started("nimatron")
    assert m.audits.game_ended("machine") is False
    m.tick(100)
    failing = [line for line in pi.lines if "saving failed" in line]
    assert len(failing) == 1 and "No space left on device" in failing[0]
    assert m.controller.alarm == "store"
    assert pi.ask("HELLO")[1]["saving"].endswith("No space left on device")
    assert {"event": "saving", "failing": m.store.failing} in pi.events
    for t in range(200, 100000, 1000):  # a hundred seconds of retries: said once
        m.tick(t)
    assert len([line for line in pi.lines if "saving failed" in line]) == 1
    pi.disk.full = False
    m.tick(200000)
    assert m.store.failing is None and not m.store.unsaved
    assert [line for line in pi.lines if "saving works again" in line]
    assert m.controller.alarm is None and "saving" not in pi.ask("HELLO")[1]
    again = Pi()
    again.disk = pi.disk.after_cut()
    assert again.start().audits.lifetime["games"] == 1  # the game waited in memory, then was written


def test_a_refusal_longer_than_a_line_is_said_cut_to_one():
    """What a failed save says (HELLO's ``saving``, the console, the event) is
    one line: the exception's type and as much of its words as fit in 120
    characters, then "..." (``store.short``, the start's notes' too)."""
    pi = Pi()
    m = pi.start()
    pi.disk.full = True
    pi.disk.why = "No space left on device " * 20
    m.audits.game_started("nimatron")
    m.audits.game_ended("machine")
    m.tick(100)
    said = m.store.failing
    assert len(said) == 123 and said.startswith("OSError: ") and said.endswith("...")
    assert pi.ask("HELLO")[1]["saving"].endswith(said)


def test_a_full_disk_gives_no_pin_guesses_across_restarts():
    """4 wrong UNLOCKs per start, the disk full, 4 restarts: 12 PINs were checked; now none."""
    pi = Pi({"operator_pin": PIN})
    pi.start()
    pi.disk.full = True
    checked = 0
    for _restart in range(4):
        pi.start()
        for guess in ("0000", "1111", "2222", "3333"):
            word, why = pi.ask("UNLOCK " + guess)
            checked += why != "busy" and not str(why).startswith("busy")
    assert checked == 0
    assert pi.ask("UNLOCK " + PIN)[0] == "ERR"  # fails closed: even the right one waits for the disk
    pi.disk.full = False
    pi.start()
    assert pi.ask("UNLOCK " + PIN)[1] == {"locked": False, "pin": True}


def _damaged(pi, kind_byte):
    """Flip a bit inside the newest record of ``kind_byte`` in the Pi's state file."""
    path = "/state.bin"
    data = bytearray(pi.disk.read(path))
    at = data.rfind(bytes([0x6E, kind_byte]))
    data[at + 12] ^= 0x04
    inode = pi.disk.names[path]
    pi.disk.data[inode] = pi.disk.synced[inode] = bytes(data)


def test_a_damaged_settings_record_seals_the_link_until_the_operator_menu_saves():
    """The PIN silently reverted to none 573 times in 600 flips: a record that may hold it fails closed."""
    pi = Pi()
    pi.start()
    assert pi.ask("SET operator_pin " + PIN)[0] == "OK"
    pi.machine.tick(20000)
    _damaged(pi, 0x53)
    m = pi.start()
    assert "settings" in m.why and "locked" in m.why
    assert pi.ask("NEW")[0] == "ERR" and pi.ask("UNLOCK " + PIN)[0] == "OK" and pi.ask("NEW")[0] == "ERR"
    assert m.audits.lifetime["data_losses"] == 1
    m.save_settings(m.controller.settings)  # what the operator menu's adjustments call
    assert pi.link.sealed is None


def test_a_damaged_audits_record_starts_unlock_paused():
    pi = Pi({"operator_pin": PIN})
    m = pi.start()
    m.audits.game_started("nimatron")
    m.audits.game_ended("machine")
    _damaged(pi, 0x41)
    m = pi.start()
    assert "wrong-PIN count" in m.why
    word, why = pi.ask("UNLOCK " + PIN)
    assert word == "ERR" and "wait" in why


def test_new_flooded_over_the_link_writes_nothing():
    """1,000 NEWs wrote 1,021 records and 999 abandoned games."""
    store = Store(nvm=FlashNvm())
    m = Machine("pico-neopixel", overrides_source({}), store, now_ms=0, make=make)
    link = m.attach(HostLink(m.controller, board="pico-neopixel", now_ms=0))
    before = store.writes
    for t in range(1000):
        assert link.handle(b"NEW", t * 10).startswith("OK")
        m.tick(t * 10)
    assert store.writes == before and m.audits.lifetime["abandoned"] == 0 and m.audits.lifetime["games"] == 1


@pytest.mark.parametrize("board", ["pi-leds", "pico-neopixel"])
def test_a_game_over_event_says_when_an_untouched_game_was_not_counted(board):
    events = []
    m = Machine(board, overrides_source({}), None, now_ms=0, make=make, listener=events.append)
    m.controller.new_game(0)
    m.controller.new_game(10)
    over = [e for e in events if e.get("event") == "game_over"]
    assert over == [{"event": "game_over", "winner": "abandoned", "counted": False}]
