# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Start-up never dark: bad settings fall back (keeping the PIN), faults rebuild
the game, stored settings and audits survive restarts (nimatron.machine.startup)."""

import json
import os
import sys

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "simulator", "nimatron_sim"))

from controller_scenarios import FakeIO  # noqa: E402
from flash import FlashNvm  # noqa: E402
from nimatron.link.hostlink import HostLink  # noqa: E402
from nimatron.machine import app  # noqa: E402
from nimatron.machine.startup import Machine, overrides_source, read_source  # noqa: E402
from nimatron.machine.store import Store  # noqa: E402

BOARD = "pico-neopixel"


def make(board, overrides, listener, now_ms, audits):
    return app.make_controller(board, overrides, io=FakeIO(), listener=listener, now_ms=now_ms, audits=audits)


class Board:
    """One board's nvm across restarts; each ``start`` is a power-up."""

    def __init__(self):
        self.nvm = FlashNvm()
        self.lines = []

    def start(self, text, reason="power_on"):
        store = Store(nvm=FlashNvm(self.nvm.data))
        self.store = store
        m = Machine(BOARD, read_source(text), store, now_ms=0, reset_reason=reason, make=make, log=self.lines.append)
        self.nvm = store.nvm
        return m


def play_a_game(m, t=0):
    c = m.controller
    c.press("new", t)
    row = 0
    while c.state != "over":
        t += 100
        m.tick(t)
        if c.state == "visitor":
            while c.panel.last_lit(row) is None:
                row += 1
            c.press("row%d" % row, t)
            c.press("done", t)
    return t


@pytest.mark.parametrize(
    "text, why",
    [
        (b"{not json", "not valid JSON"),
        (b"[" * 3000 + b"]" * 3000, "not valid JSON"),
        (b"[1, 2]", "must hold a JSON object"),
        (b"\xff\xfe{}", "not valid JSON"),
    ],
)
def test_an_unreadable_settings_file_is_reported_not_raised(text, why):
    over, reason, crc = read_source(text)
    assert over is None and why in reason and crc


@pytest.mark.parametrize(
    "settings",
    [
        {"think_ms": 1e999},  # infinity: OverflowError, not ValueError
        {"board": "pico-neopxl"},  # an unknown board
        {"preset": "100"},  # 100 lamps on a 32-pixel strip
        {"preset": "grundy"},  # grid rules on a row board
        {"think_ms": 99999},
        {"nosuch": 1},
    ],
)
def test_any_bad_settings_file_falls_back_and_plays(settings):
    b = Board()
    m = b.start(json.dumps(settings))
    assert m.settings_from == "defaults" and m.board == BOARD
    assert m.controller.alarm == "settings"
    assert "settings file rejected" in m.boot["why"]
    assert m.audits["settings_fallbacks"] == 1
    play_a_game(m)
    assert m.audits["finished"] == 1
    assert any("settings file rejected" in line for line in b.lines)


@pytest.mark.parametrize(
    "settings",
    [
        {"board": "macropad", "preset": "nosuch"},
        {"board": "macropad", "preset": "graph"},  # eight rows of eight lamps on its twelve keys
        {"board": "macropad", "think_ms": 99999},
    ],
)
def test_a_rejected_file_falls_back_to_the_defaults_of_the_board_it_names(settings):
    """Found in the emulator: a MacroPad (code.py's BOARD is pico-neopixel,
    settings.json names the board) whose settings were rejected fell back to
    pico-neopixel's defaults, a pin map not on its drive, and stayed dark."""
    b = Board()
    m = b.start(json.dumps(settings))
    assert m.settings_from == "defaults" and m.board == "macropad" and m.controller is not None
    assert m.controller.settings["preset"] == "pad-nim"  # the MacroPad's own
    assert "settings file rejected" in m.boot["why"] and "defaults settings rejected" not in m.boot["why"]
    m = b.start(json.dumps(settings))  # and the next start, from what the first one stored
    assert m.board == "macropad" and m.controller is not None


def test_the_fallback_keeps_the_operator_pin():
    b = Board()
    m = b.start(json.dumps({"operator_pin": "1234", "think_ms": 99999}))
    assert m.controller.settings["operator_pin"] == "1234"
    link = m.attach(HostLink(m.controller, board=BOARD))
    assert link.handle(b"SET think_ms 100", 0).startswith("ERR locked")


def test_an_unreadable_file_with_no_known_pin_keeps_the_link_locked():
    b = Board()
    m = b.start(b'{"operator_pin": "1234", "think_ms": ')
    assert m.sealed and m.controller.state == "attract"
    link = m.attach(HostLink(m.controller, board=BOARD))
    assert link.handle(b"UNLOCK 1234", 0).startswith("OK")
    reply = link.handle(b"SET think_ms 100", 0)
    assert reply.startswith("ERR locked") and "PIN is unknown" in reply
    assert link.handle(b"HELLO", 0).startswith("OK")


def test_the_last_good_settings_win_over_a_broken_file():
    b = Board()
    good = json.dumps({"preset": "drnim", "operator_pin": "2468"})
    m = b.start(good)
    assert m.settings_from == "file" and m.controller.settings["preset"] == "drnim"
    m = b.start(good + "}")  # someone broke the file on the drive
    assert m.settings_from == "last good" and m.controller.settings["preset"] == "drnim"
    assert m.controller.settings["operator_pin"] == "2468" and not m.sealed
    assert m.restored == "stored"


def test_set_changes_survive_a_restart_until_the_file_changes():
    b = Board()
    text = json.dumps({"preset": "nimatron"})
    m = b.start(text)
    link = m.attach(HostLink(m.controller, board=BOARD))
    reply = link.handle(b"SET think_ms 700", 0)
    assert json.loads(reply[3:])["saved"] is True
    m = b.start(text)
    assert m.settings_from == "stored" and m.controller.settings["think_ms"] == 700
    m = b.start(json.dumps({"preset": "drnim"}))  # the operator edited the file: it wins
    assert m.settings_from == "file" and m.controller.settings["think_ms"] == 1500


def test_sets_close_together_are_written_once_the_gap_has_passed():
    """Wear: settings are written at most every SETTINGS_GAP_MS. A SET inside
    the gap is applied at once and says when it will be durable; a power cut
    before then keeps the last durable value (which the reply did not claim
    otherwise); the main loop writes it when the gap has passed."""
    from nimatron.machine.startup import _SETTINGS_GAP_MS as SETTINGS_GAP_MS

    b = Board()
    text = json.dumps({"preset": "nimatron"})
    m = b.start(text)
    link = m.attach(HostLink(m.controller, board=BOARD))
    m.tick(1000)
    assert json.loads(link.handle(b"SET think_ms 700", 1000)[3:])["saved"] is True
    m.tick(4000)
    second = json.loads(link.handle(b"SET think_ms 900", 4000)[3:])
    assert second["saved"] is False and second["saving_in_ms"] == SETTINGS_GAP_MS - 3000
    assert m.controller.settings["think_ms"] == 900  # applied at once
    cut = b.start(text)  # the power fails inside the gap: the durable value, as replied
    assert cut.controller.settings["think_ms"] == 700 and not cut.why
    m.tick(1000 + SETTINGS_GAP_MS - 1)
    b.nvm = m.store.nvm  # a cut now, on the board that ran on
    assert b.start(text).controller.settings["think_ms"] == 700
    m.tick(1000 + SETTINGS_GAP_MS)
    b.nvm = m.store.nvm
    assert b.start(text).controller.settings["think_ms"] == 900


def test_a_host_looping_over_set_cannot_wear_the_flash_out():
    """1,000 SETs a second apart alternating two values: one write per gap."""
    from nimatron.machine.startup import _SETTINGS_GAP_MS as SETTINGS_GAP_MS

    b = Board()
    m = b.start(json.dumps({"preset": "nimatron"}))
    link = m.attach(HostLink(m.controller, board=BOARD))
    writes = []
    save = m.store.save_settings
    m.store.save_settings = lambda record: writes.append(record["set"]["think_ms"]) or save(record)
    t = 0
    for i in range(1000):
        t += 1000
        m.tick(t)
        reply = json.loads(link.handle(b"SET think_ms %d" % (700 + 100 * (i % 2)), t)[3:])
        assert reply["saved"] is (i == 0) and reply.get("saving_in_ms", 0) <= SETTINGS_GAP_MS
    assert len(writes) == 1000 * 1000 // SETTINGS_GAP_MS  # 100, not 1,000
    m.tick(t + SETTINGS_GAP_MS)  # the host stops: the last value is written once the gap has passed
    assert writes[-1] == m.controller.settings["think_ms"] == 800


def test_operator_menu_adjustments_survive_a_restart():
    """The menu saves through controller.save, the same store as SET."""
    b = Board()
    text = json.dumps({"preset": "nimatron"})
    m = b.start(text)
    adjusted = dict(m.controller.settings)
    adjusted["difficulty"] = "teach"
    m.controller.apply_settings(adjusted)
    assert m.controller.save(adjusted) is True
    m = b.start(text)
    assert m.settings_from == "stored" and m.controller.settings["difficulty"] == "teach"


def test_the_menu_says_when_a_quick_second_adjustment_is_saved():
    from nimatron.machine.adjust import _saved

    b = Board()
    m = b.start(json.dumps({"preset": "nimatron"}))
    m.tick(500)
    assert _saved({}, m.controller.save(dict(m.controller.settings, think_ms=700))) == {"saved": True}
    m.tick(2500)
    later = _saved({}, m.controller.save(dict(m.controller.settings, think_ms=800)))
    assert later == {"saved": False, "saving_in_ms": 8000}
    assert _saved({}, False) == {"saved": False}


def test_audits_count_games_and_power_ups_across_restarts():
    b = Board()
    m = b.start(None)
    assert m.restored == "factory" and m.boot["audits"]["factory_restores"] == 1
    play_a_game(m)
    m = b.start(None, reason="watchdog")
    assert m.restored == "stored"
    a = m.boot["audits"]
    assert a["finished"] == 1 and a["power_ups"] == 2 and a["watchdog_resets"] == 1
    assert m.boot["event"] == "boot" and m.boot["board"] == BOARD and m.boot["pinmap_crc"]


def test_a_corrupt_nvm_restores_factory_settings_says_so_and_plays():
    b = Board()
    b.nvm = FlashNvm(b"\x4e\x53\x40\x00" + b"\x00" * 200 + b"\xff" * 3892)
    m = b.start(None)
    assert m.restored == "factory" and "settings restored to factory" in m.boot["why"]
    assert m.controller.alarm == "settings"
    play_a_game(m)
    assert b.start(None).boot["audits"]["finished"] == 1


def test_a_fault_rebuilds_the_game_counts_it_and_returns_to_attract():
    b = Board()
    m = b.start(None)
    link = m.attach(HostLink(m.controller, board=BOARD))
    c = m.controller
    c.press("new", 0)

    def broken(now):
        raise RuntimeError("a bug in the game")

    c.update = broken
    m.tick(10)
    assert m.controller is not c and m.controller.state == "attract"
    assert m.controller.alarm == "fault" and link.controller is m.controller
    assert m.audits["faults"] == 1 and "a bug in the game" in m.last_fault
    lamps, status = m.controller.frame(0)
    assert status["machine"] == 1
    t = play_a_game(m, 20)
    assert m.controller.alarm is None and m.audits["finished"] == 1
    assert json.loads(link.handle(b"AUDITS", t)[3:])["faults"] == 1
    assert b.start(None).audits["faults"] == 1  # saved at once


def test_a_fault_every_tick_backs_off_and_never_raises():
    b = Board()
    m = b.start(None)
    built = []

    def flaky(board, overrides, listener, now_ms, audits):
        c = make(board, overrides, listener, now_ms, audits)
        c.update = lambda now: 1 / 0
        built.append(c)
        return c

    m.make = flaky
    m.controller.update = lambda now: 1 / 0
    for t in range(0, 60000, 10):
        m.tick(t)
    assert len(built) < 60 and m.audits["faults"] == len(built) + 1


def test_command_line_overrides_are_a_source_too():
    m = Machine(BOARD, overrides_source({"preset": "21"}), Store(nvm=FlashNvm()), make=make, log=lambda line: None)
    assert m.settings_from == "file" and m.controller.settings["preset"] == "21"


def test_the_headless_simulator_keeps_its_nvm_across_runs(tmp_path):
    import subprocess

    nvm = str(tmp_path / "nvm.bin")
    game = "press new\nwait 200\n" + "press row0\npress done\nwait 300\n" * 12 + "wait 2000\n"

    def sim(script):
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "nimatron_host.cli",
                "sim",
                "--headless",
                "--preset",
                "21",
                "--set",
                "think_ms=0",
                "--set",
                "show_ms=0",
                "--nvm",
                nvm,
                "--script",
                "-",
            ],
            input=script,
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert done.returncode == 0, done.stderr
        return [json.loads(line) for line in done.stdout.splitlines()]

    first = sim(game)
    assert first[0]["event"] == "boot" and first[0]["restored"] == "factory" and os.path.getsize(nvm) == 4096
    won = [e for e in first if e.get("event") == "game_over"]
    assert len(won) == 1
    boot = sim("")[0]
    assert boot["restored"] == "stored" and boot["settings_from"] == "stored"
    assert boot["audits"]["finished"] == 1 and boot["audits"]["lifetime"]["power_ups"] == 2


def test_wrong_pins_and_their_pause_outlive_a_restart():
    """Restarting the board every third guess once reset the count (all 10^4
    PINs in about 2 h instead of over a year) and erased pin_lockouts."""
    b = Board()
    text = json.dumps({"operator_pin": "2468"})
    m = b.start(text)
    link = m.attach(HostLink(m.controller, board=BOARD))
    for guess in (b"UNLOCK 0000", b"UNLOCK 0001", b"UNLOCK 0002"):
        assert link.handle(guess, 0).startswith("ERR denied")
    assert link.handle(b"UNLOCK 2468", 1000).startswith("ERR busy")
    m = b.start(text)  # the power cycled
    assert m.audits.pin_failures == 3 and m.audits.lifetime["pin_lockouts"] == 1
    link = m.attach(HostLink(m.controller, board=BOARD, now_ms=0))
    assert link.handle(b"UNLOCK 2468", 5000).startswith("ERR busy")  # the pause starts again from boot
    assert link.handle(b"UNLOCK 0003", 31000).startswith("ERR denied")
    m = b.start(text)
    assert m.audits.pin_failures == 4 and m.audits.lifetime["pin_lockouts"] == 2
    link = m.attach(HostLink(m.controller, board=BOARD, now_ms=0))
    assert link.handle(b"UNLOCK 2468", 30000).startswith("ERR busy")  # doubled: 60 s
    assert link.handle(b"UNLOCK 2468", 61000).startswith("OK")
    m = b.start(text)
    assert m.audits.pin_failures == 0  # the right PIN starts afresh
    link = m.attach(HostLink(m.controller, board=BOARD, now_ms=0))
    assert link.handle(b"UNLOCK 2468", 0).startswith("OK")


def test_a_loss_the_store_can_see_is_reported_at_boot_and_counted():
    """A compaction cut while its records were programmed: the boot says what
    was lost, lights the alarm and counts data_losses (it used to say
    "restored": "stored" with every audit zeroed)."""
    from nimatron.machine.store import Store as PlainStore

    b = Board()
    m = b.start(None)
    for _ in range(3):
        play_a_game(m)
    nvm = b.nvm
    store = PlainStore(nvm=FlashNvm(nvm.data))
    store.load()
    store._compact()  # a compacted sector...
    data = bytearray(store.nvm.data)
    first = data.index(b"nA")  # ...whose audits record the cut tore
    for i in range(first + 12, first + 40):
        data[i] = 0xFF
    b.nvm = FlashNvm(data)
    m = b.start(None)
    assert "compaction was cut short" in m.why and "audits" in m.why
    assert m.boot["why"] == m.why and m.controller.alarm == "settings"
    assert m.audits.lifetime["data_losses"] == 1


def test_a_button_jammed_at_power_up_is_on_record_before_any_game_ends():
    """A machine stuck at power-up every morning and switched off at night used
    to leave no trace: the audit rode on a game's record that never came."""
    b = Board()
    m = b.start(None)
    io = m.controller.io
    io.queue.append(("row0", True))  # closed at power-up, never let go
    for t in range(0, 2000, 10):
        m.tick(t)
    assert m.audits.lifetime["stuck_buttons"] == 1
    m = b.start(None)  # the power goes without a game
    assert m.audits.lifetime["stuck_buttons"] == 1
