# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron install-pi --kiosk``: the crowd view on a Pi's HDMI screen. The
units' text (the line, the machine on it, the display, Chromium in kiosk
mode), the refusal of values that could not run or that systemd would read
as something else, and the files written."""

import subprocess
import sys

import pytest
from nimatron_host.cli import main

PI = ["--board", "pi-leds", "--user", "pi", "--python", "/opt/nimatron/bin/python"]


def printed(capsys, *more):
    assert main(["install-pi"] + PI + ["--kiosk", "--print"] + list(more)) == 0
    out = capsys.readouterr().out
    units = {}
    for part in out.split("# file: ")[1:]:
        name, text = part.split("\n", 1)
        units[name] = text
    return units


def keys(text):
    return [line.split("=", 1)[0] for line in text.splitlines() if "=" in line and not line.startswith("#")]


def test_kiosk_units_chain_the_machine_the_display_and_the_screen(capsys):
    units = printed(capsys, "--lang", "es", "--web-port", "8080", "--slow", "--browser", "/usr/bin/chromium")
    assert sorted(units) == [
        "nimatron-display.service",
        "nimatron-line.service",
        "nimatron-screen.service",
        "nimatron.service",
    ]
    line = units["nimatron-line.service"]
    assert (
        "ExecStart=/usr/bin/socat pty,raw,echo=0,link=/run/nimatron/machine pty,raw,echo=0,link=/run/nimatron/screen\n"
    ) in line
    assert "RuntimeDirectory=nimatron\n" in line and "User=pi\n" in line
    machine = units["nimatron.service"]
    assert "ExecStart=/opt/nimatron/bin/python -m nimatron --board pi-leds --serial /run/nimatron/machine\n" in machine
    assert "After=nimatron-line.service" in machine and "BindsTo=nimatron-line.service" in machine
    # socat makes its links a moment after it starts: each end waits for its own
    assert 'ExecStartPre=/bin/sh -c "while [ ! -e /run/nimatron/machine ]; do sleep 0.2; done"\n' in machine
    display = units["nimatron-display.service"]
    assert (
        "ExecStart=/opt/nimatron/bin/python -m nimatron_host display /run/nimatron/screen --web --port 8080 --lang es\n"
    ) in display
    assert 'ExecStartPre=/bin/sh -c "while [ ! -e /run/nimatron/screen ]; do sleep 0.2; done"\n' in display
    screen = units["nimatron-screen.service"]
    assert (
        "ExecStart=/usr/bin/chromium --kiosk --noerrdialogs --disable-infobars --incognito --no-first-run "
        '--disable-translate --overscroll-history-navigation=0 "http://localhost:8080/crowd?lang=es&slow=1"\n'
    ) in screen
    assert "Environment=DISPLAY=:0\n" in screen and "WantedBy=graphical.target" in screen
    assert "After=nimatron-display.service graphical.target" in screen
    for text in units.values():
        assert keys(text).count("ExecStart") == 1 and keys(text).count("User") == 1
        assert "Restart=always" in text


def test_the_screens_wait_for_the_pages_runs_and_returns_once_they_answer(capsys):
    """ExecStartPre is real Python: it waits while nothing listens, ends when something does."""
    import socket

    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    port = server.getsockname()[1]
    units = printed(capsys, "--web-port", str(port))
    pre = next(line for line in units["nimatron-screen.service"].splitlines() if line.startswith("ExecStartPre="))
    code = pre.split(" -c ", 1)[1]
    assert code.startswith('"') and code.endswith('"') and "$" not in code and "%" not in code
    code = code[1:-1]
    waiting = subprocess.Popen([sys.executable, "-c", code])
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            waiting.wait(timeout=1.5)  # nothing listens: it waits
        server.listen(1)
        assert waiting.wait(timeout=30) == 0  # the pages answer: the kiosk may start
    finally:
        waiting.kill()
        server.close()


def test_kiosk_writes_four_units(tmp_path, capsys):
    assert main(["install-pi"] + PI + ["--kiosk", "--unit-dir", str(tmp_path)]) == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "nimatron-display.service",
        "nimatron-line.service",
        "nimatron-screen.service",
        "nimatron.service",
    ]
    out = capsys.readouterr().out
    assert (
        "sudo systemctl enable --now nimatron-line.service nimatron.service nimatron-display.service "
        "nimatron-screen.service"
    ) in out


@pytest.mark.parametrize(
    "args, message",
    [
        (PI + ["--kiosk", "--serial", "/dev/ttyGS0"], "--kiosk gives the machine's host link to the screen"),
        (PI + ["--kiosk", "--lang", "tlh"], "--lang must be one of en, es, ru, got 'tlh'"),
        (PI + ["--kiosk", "--lang", "es\nExecStartPre=/bin/sh"], "--lang holds a control character"),
        (PI + ["--kiosk", "--web-port", "80"], "--web-port must be between 1024 and 65535, got 80"),
        (PI + ["--kiosk", "--web-port", "70000"], "--web-port must be between 1024 and 65535, got 70000"),
        (PI + ["--kiosk", "--browser", "chromium"], "--browser must be an absolute path, got 'chromium'"),
        (PI + ["--kiosk", "--browser", "/usr/bin/chromium\r--no-sandbox"], "--browser holds a control character"),
        (["--board", "pi-leds", "--user", "root", "--kiosk"], "--kiosk needs --user: the desktop's user"),
        (PI + ["--lang", "es"], "--lang is for --kiosk only"),
        (PI + ["--web-port", "8080"], "--web-port is for --kiosk only"),
    ],
)
def test_kiosk_refuses_what_cannot_run(tmp_path, capsys, args, message):
    assert main(["install-pi"] + args + ["--unit-dir", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("nimatron install-pi: error: " + message) and err.count("\n") == 1, err
    assert list(tmp_path.iterdir()) == []  # nothing written


def test_kiosk_escapes_what_systemd_would_expand(capsys):
    units = printed(capsys, "--browser", "/opt/my browser/%h$HOME")
    screen = units["nimatron-screen.service"]
    assert 'ExecStart="/opt/my browser/%%h$$HOME" --kiosk' in screen


def test_each_end_waits_for_its_link(tmp_path, capsys):
    """The machine's ExecStartPre is a real shell loop: it waits until socat's link is there."""
    units = printed(capsys)
    pre = next(line for line in units["nimatron.service"].splitlines() if line.startswith("ExecStartPre="))
    script = pre.split(' -c "', 1)[1][:-1].replace("/run/nimatron/machine", str(tmp_path / "machine"))
    waiting = subprocess.Popen(["/bin/sh", "-c", script])
    try:
        with pytest.raises(subprocess.TimeoutExpired):
            waiting.wait(timeout=1)
        (tmp_path / "machine").write_text("")
        assert waiting.wait(timeout=30) == 0
    finally:
        waiting.kill()
