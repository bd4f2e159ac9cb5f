# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Every documented event reaches the host link (issue 46).

``EV saving`` went to stdout only: ``Machine._event`` fed the command
line's listener, not the controller's that ``HostLink.attach`` hooks (and
``code.py`` gives the Machine none), so a running ``nimatron monitor``
never saw saves start failing, though docs/protocol.md says it does. The
machine's own events now go where a game's go (``Machine._emit``).

Tested as it happens: a simulated machine on a real pseudo-terminal, its
store on the store tests' fault-injecting disk (``FaultFiles``), a real
``nimatron monitor`` attached; the disk fails while a game ends, then mends.
"""

import errno
import io
import json
import os
import re
import select
import subprocess
import sys
import time

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "simulator"))

from kit_disk import FaultFiles  # noqa: E402
from kit_link import FakeIO  # noqa: E402
from nimatron.link.hostlink import HostLink  # noqa: E402
from nimatron.machine import app  # noqa: E402
from nimatron.machine.startup import Machine, overrides_source  # noqa: E402
from nimatron.machine.store import RETRY_MS, Store  # noqa: E402
from nimatron_sim import script  # noqa: E402
from nimatron_sim.engine import Simulator  # noqa: E402
from nimatron_sim.serial_port import SerialPort  # noqa: E402

NIMATRON = [sys.executable, "-m", "nimatron_host"]
EIO = os.strerror(errno.EIO)


def lines_until(proc, done, timeout=60):
    """The monitor's stdout lines, read until ``done(lines)`` or the timeout."""
    lines = []
    buf = b""
    end = time.monotonic() + timeout
    fd = proc.stdout.fileno()
    while not done(lines) and time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.1)
        if ready:
            data = os.read(fd, 4096)
            if not data:
                break
            buf += data
            *whole, buf = buf.split(b"\n")
            lines += [line.decode() for line in whole]
    return lines


def saving(lines):
    return [json.loads(line)["failing"] for line in lines if line.startswith("{") and '"saving"' in line]


@pytest.mark.parametrize("json_out", [True, False])
def test_a_monitor_on_the_pty_sees_saves_fail_and_work_again(json_out):
    """The disk fails (EIO on every create) while a game is abandoned: the
    monitor over the pty gets ``saving`` with the error, then, once the disk
    answers and the store's retry (30 s later) succeeds, ``saving`` null."""
    files = FaultFiles()
    store = Store(path="/state.bin", files=files)
    sim = Simulator("pico-neopixel", {"think_ms": 0, "show_ms": 200}, seed=1, store=store)
    port = SerialPort(sim, announce=io.StringIO())
    watch = subprocess.Popen(
        NIMATRON + ["monitor", port.path] + (["--json"] if json_out else []),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    try:
        port.run_script(script.parse(["wait host"]))  # the monitor listens (EVENTS ON)
        files.fault = ("create", errno.EIO)
        port.run_script(
            script.parse(["press new", "press row3", "press done", "wait 300", "press new", "wait 300"])
        )  # the first game abandoned: its audits are saved
        assert store.failing and EIO in store.failing
        failed = lines_until(
            watch,
            lambda lines: any('"event": "saving"' in line or "Saving failed" in line for line in lines),
            timeout=20,
        )
        if json_out:
            assert saving(failed) == ["OSError: [Errno 5] %s" % EIO], failed
        else:
            assert any(re.search("Saving failed: OSError: .*%s" % EIO, line) for line in failed), "\n".join(failed)
        files.fault = None
        sim.advance(RETRY_MS + 1000)  # the store's retry, in the machine's time
        port.run_real_time(300)
        assert store.failing is None
        mended = lines_until(
            watch,
            lambda lines: any('"event": "saving"' in line or "Saving works" in line for line in lines),
            timeout=20,
        )
    finally:
        watch.terminate()
        watch.communicate(timeout=30)
        port.close()
        sim.close()
    if json_out:
        assert saving(mended) == [None], mended
    else:
        assert any("Saving works again" in line for line in mended), mended


def make(board, overrides, listener, now_ms, audits):
    return app.make_controller(board, overrides, io=FakeIO(), listener=listener, now_ms=now_ms, audits=audits)


class Cable:
    def __init__(self):
        self.to_host = b""
        self.connected = True

    def read(self, n):
        return b""

    def write(self, data):
        self.to_host += data
        return len(data)


def test_machine_events_reach_the_link_through_a_fault_and_its_rebuild():
    """``saving`` reaches the link with or without a controller (a fault
    rebuilds it), and the machine's own listener still gets it once."""
    files = FaultFiles()
    heard = []
    m = Machine(
        "pico-neopixel",
        overrides_source({}),
        Store(path="/state.bin", files=files),
        now_ms=0,
        make=make,
        listener=heard.append,
        log=lambda line: None,
    )
    cable = Cable()
    link = m.attach(HostLink(m.controller, cable, board="pico-neopixel"))
    link.events = True
    link.poll(0)  # the host is there
    files.fault = ("create", errno.ENOSPC)
    m.audits.save()
    m.tick(10)
    m.controller = None  # between a fault and its rebuild
    m.retry_at = 10**9
    files.fault = None
    m.tick(RETRY_MS + 100)
    link.poll(RETRY_MS + 100)
    sent = [json.loads(line[3:]) for line in cable.to_host.decode().splitlines() if line.startswith("EV ")]
    assert [e["failing"] for e in sent if e["event"] == "saving"] == [
        "OSError: [Errno 28] No space left on device",
        None,
    ]
    assert [e["failing"] for e in heard if e["event"] == "saving"] == [e["failing"] for e in sent]


def test_every_event_the_firmware_emits_is_documented_and_every_documented_one_is_emitted():
    """The list in docs/protocol.md and the firmware's emitters are one list:
    an event added in code without its line, or documented but never sent,
    fails here (the link carries whatever goes through ``_emit``/``say``)."""
    emitted = set()
    for folder, _, names in os.walk(os.path.join(ROOT, "firmware", "nimatron")):
        for name in names:
            if name.endswith(".py"):
                with open(os.path.join(folder, name), encoding="utf-8") as f:
                    emitted |= set(re.findall(r'"event": "([a-z_]+)"', f.read()))
    emitted.discard("boot")  # the start's report: stdout and HELLO, never an EV line
    with open(os.path.join(ROOT, "docs", "protocol.md"), encoding="utf-8") as f:
        text = f.read()
    events = text[text.index("## Events") : text.index("## What the machine promises")]
    documented = set(re.findall(r'"event": "([a-z_]+)"', events)) | set(re.findall(r"`([a-z_]+)`", events))
    assert emitted - documented == set()
    kinds = set(re.findall(r'"event": "([a-z_]+)"', events))
    assert kinds - emitted == set()
