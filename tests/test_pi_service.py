# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``python -m nimatron`` as a systemd service: sd_notify on a real AF_UNIX
datagram socket, a state file that survives restarts, a bad setting that
falls back instead of crash-looping."""

import json
import os
import signal
import socket
import subprocess
import sys

import pytest
from nimatron.__main__ import Notifier, default_state

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


@pytest.fixture
def notify_socket(tmp_path):
    path = str(tmp_path / "notify.sock")
    sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    sock.bind(path)
    sock.settimeout(60)
    yield path, sock
    sock.close()


def test_notifier_sends_ready_and_rate_limited_watchdog(notify_socket):
    path, sock = notify_socket
    assert Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"}).every_ms == 1000  # at least every second
    n = Notifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000"})
    assert n.every_ms == 500  # half the watchdog's limit
    assert n.notify("READY=1")
    for now in range(0, 1200, 5):
        n.alive(now)
    n.close()
    got = []
    sock.settimeout(0.5)
    try:
        while True:
            got.append(sock.recv(100).decode())
    except socket.timeout:
        pass
    assert got == ["READY=1", "WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1"]  # at 0, 0.5 s, 1 s


def test_notifier_is_silent_outside_systemd_and_when_systemd_is_gone(tmp_path):
    assert Notifier({}).notify("READY=1") is False
    gone = Notifier({"NOTIFY_SOCKET": str(tmp_path / "nobody.sock")})
    assert gone.notify("READY=1") is False  # no exception: the game goes on


def test_the_state_file_defaults_to_systemds_state_directory():
    assert default_state({}) is None
    assert default_state({"STATE_DIRECTORY": "/var/lib/nimatron"}) == "/var/lib/nimatron/state.bin"
    assert default_state({"INVOCATION_ID": "abc"}) == "/var/lib/nimatron/state.bin"


def run_service(tmp_path, *args, notify=None):
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1")
    env.pop("INVOCATION_ID", None)
    env.pop("STATE_DIRECTORY", None)
    if notify:
        env["NOTIFY_SOCKET"] = notify
    return subprocess.Popen(
        [sys.executable, "-m", "nimatron", "--board", "pi-leds", "--state", str(tmp_path / "state" / "state.bin")]
        + list(args),
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )


def boot_then_stop(proc, sock):
    first = json.loads(proc.stdout.readline())
    assert sock.recv(100) == b"READY=1"
    assert sock.recv(100) == b"WATCHDOG=1"  # from the main loop
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    assert sock.recv(100) == b"STOPPING=1"
    return first, err


def test_the_service_boots_notifies_and_remembers_across_restarts(tmp_path, notify_socket):
    path, sock = notify_socket
    boot, err = boot_then_stop(run_service(tmp_path, notify=path), sock)
    assert boot["event"] == "boot" and boot["restored"] == "factory" and boot["board"] == "pi-leds"
    assert os.path.getsize(tmp_path / "state" / "state.bin") > 0
    boot, err = boot_then_stop(run_service(tmp_path, notify=path), sock)
    assert boot["restored"] == "stored" and boot["audits"]["lifetime"]["power_ups"] == 2


def test_a_bad_setting_falls_back_and_plays_instead_of_crash_looping(tmp_path, notify_socket):
    path, sock = notify_socket
    proc = run_service(tmp_path, "--set", "think_ms=99999", "--set", "operator_pin=4321", notify=path)
    boot, err = boot_then_stop(proc, sock)
    assert boot["settings_from"] == "defaults" and "think_ms" in boot["why"]
    assert "settings file rejected" in err


def test_without_a_state_file_a_bad_setting_is_a_usage_error():
    done = subprocess.run(
        [sys.executable, "-m", "nimatron", "--board", "pi-leds", "--set", "think_ms=99999"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=dict(os.environ, GPIOZERO_PIN_FACTORY="mock"),
    )
    assert done.returncode == 2 and "think_ms" in done.stderr and "Traceback" not in done.stderr
