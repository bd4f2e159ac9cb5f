# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Issue 13 findings 4 (PIN pauses), 5 (hang-ups shorter than a poll) and
15 (a MemoryError while answering the link never stops the game).
"""

import os

import pytest
from kit_link import PIN, Machine
from nimatron.link.hostlink import HostLink
from nimatron.link.protocol import PIN_PAUSE_MAX_MS, PIN_PAUSE_MS, PIN_TRIES
from nimatron.link.pty import PtyTransport


# -- finding 4: wrong PINs pause UNLOCK longer and longer ------------------------------
def test_wrong_pins_pause_longer_each_time_up_to_a_cap_and_count_in_the_audits():
    m = Machine(operator_pin=PIN)
    for _ in range(PIN_TRIES):
        assert m.err("UNLOCK 1111") == "denied"
    pause = PIN_PAUSE_MS
    for lockouts in range(1, 10):
        assert m.err("UNLOCK " + PIN) == "busy"  # even the right PIN waits
        m.run(pause - 1000, step=1000)
        assert m.err("UNLOCK " + PIN) == "busy"
        m.run(1000, step=1000)
        assert m.err("UNLOCK 2222") == "denied"  # one more wrong PIN: twice the pause
        pause = min(pause * 2, PIN_PAUSE_MAX_MS)
        assert m.ok("AUDITS")["pin_lockouts"] == lockouts + 1
    assert pause == PIN_PAUSE_MAX_MS
    m.run(pause, step=5000)
    m.ok("UNLOCK " + PIN)  # the right PIN starts afresh
    m.ok("LOCK")
    for _ in range(PIN_TRIES - 1):
        assert m.err("UNLOCK 1111") == "denied"
    m.ok("UNLOCK " + PIN)


def test_hanging_up_does_not_reset_the_wrong_pin_count():
    m = Machine(operator_pin=PIN)
    for _ in range(PIN_TRIES):
        assert m.err("UNLOCK 1111") == "denied"
    m.cable.connected = False
    m.run()
    m.cable.connected = True
    assert m.err("UNLOCK " + PIN) == "busy"


# -- finding 5: a new host starts locked with an empty line ----------------------------
def test_a_close_and_reopen_within_one_poll_starts_a_new_session():
    m = Machine(operator_pin=PIN)
    m.cable.changes = 0
    m.run()
    m.ok("UNLOCK " + PIN)
    m.send(b"CONFIG thin")  # the old host leaves mid-line...
    m.cable.changes += 2  # ...closed and reopened between two polls
    m.cable.to_machine += b"k_ms\n"
    m.run()
    kind, data = m.cable.lines()[0]
    assert (kind, data[0]) == ("ERR", "syntax")  # "k_ms", not CONFIG think_ms
    assert m.err("SET seed 5") == "locked"


def _open(path):
    fd = os.open(path, os.O_RDWR | os.O_NOCTTY | os.O_NONBLOCK)
    return fd


def _read_lines(fd, link, controller, now):
    got = b""
    for _ in range(20):
        now += 10
        controller.update(now)
        link.poll(now)
        try:
            got += os.read(fd, 4096)
        except BlockingIOError:
            pass
    return got.decode().splitlines(), now


@pytest.mark.skipif(not os.path.exists("/proc/self/fd"), reason="pseudo-terminals with inotify: Linux")
def test_a_real_pty_reopened_within_a_poll_is_a_new_locked_session():
    m = Machine(operator_pin=PIN)
    transport = PtyTransport()
    try:
        link = HostLink(m.controller, transport, board="pico-neopixel")
        a = _open(transport.path)
        os.write(a, ("UNLOCK %s\n" % PIN).encode())
        lines, now = _read_lines(a, link, m.controller, 0)
        assert lines == ['OK {"locked": false, "pin": true}']
        os.write(a, b"CONFIG thin")  # the old host's half line...
        lines, now = _read_lines(a, link, m.controller, now)
        assert lines == []
        os.write(a, b"k_ms")  # ...more of it, unread, then it hangs up
        os.close(a)
        b = _open(transport.path)  # and a new host opens before the next poll
        os.write(b, b"k_ms\n")
        lines, now = _read_lines(b, link, m.controller, now)
        assert not [line for line in lines if "think_ms" in line]
        os.write(b, b"SET seed 5\n")
        lines, now = _read_lines(b, link, m.controller, now)
        assert lines == ["ERR locked SET needs the operator PIN: UNLOCK PIN first"]
        os.close(b)
    finally:
        transport.close()


# -- finding 15: memory runs out while answering -------------------------------------
def test_a_memory_error_while_answering_never_stops_the_game(monkeypatch):
    m = Machine(remote_play=True)
    from nimatron.link import commands

    def starved(link, args, text, now):
        raise MemoryError("memory allocation failed, allocating 1024 bytes")

    monkeypatch.setitem(commands.HANDLERS, "STATE", starved)
    m.controller.press("new", m.now)
    assert m.err("STATE") == "busy"
    m.ok("HELLO")
    m.ok("PLAY PRESS row3")
    m.ok("PLAY PRESS done")
    m.run(4000)
    assert m.controller.state == "visitor"  # the machine answered its move


def test_a_command_that_meets_full_caches_drops_them_and_answers(monkeypatch):
    """Graph Nim on pico-grid (emulated, 9.2.8): after a game the searches' memos held the heap
    and 'SET difficulty teach' answered 'ERR busy out of memory'. The link drops the
    caches (hostlink.forget_searches: every searching rule set's) and asks once more."""
    from kit_link import Machine
    from nimatron.games import graph, nim2d, strategy
    from nimatron.link import commands

    m = Machine("pico-grid", preset="graph")
    nim2d._memo[("planted", 1, 1)] = 1
    graph._table[0] = ("planted",)
    real = commands.HANDLERS["SET"]
    calls = []

    def set_once_short(link, args, text, now):
        calls.append(len(nim2d._memo))
        if len(calls) == 1:
            raise MemoryError("memory allocation failed, allocating 512 bytes")
        return real(link, args, text, now)

    monkeypatch.setitem(commands.HANDLERS, "SET", set_once_short)
    assert m.ok("SET difficulty teach")["value"] == "teach"
    assert calls[0] >= 1 and calls[1] == 0 and graph._table[0] is None
    monkeypatch.setitem(commands.HANDLERS, "SET", lambda *a: (_ for _ in ()).throw(MemoryError("again")))
    assert m.ask("SET difficulty perfect") == ("ERR", ("busy", "out of memory: try again"))
    strategy.forget()
