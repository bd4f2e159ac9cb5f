# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A fault at start is never a reason to stay dark (issue 46; docs/reliability.md,
"A fault at start").

Kinds (../shared/guide/faults.md, "a fault at start"):

- a damaged lock file: ``printf '\\0\\0\\0\\0' > STATE.lock`` (what a power cut
  leaves in a file written without fsync), a flipped digit, ``\\n``, two
  pids, ``\\xff\\xff\\xff\\xff``: 14 of 14 refused the start ("not a
  Nimatron's lock file", exit 2, never restarted), the Pi's ``STATE.lock``
  and the simulator's ``NVM.lock`` alike. Generator: Hypothesis over the
  lock file's bytes, any bytes and any length;
- one read error at start: an EIO opening or reading the state file
  refused the start for good (``statefile.problem``), and an EIO in the
  store's own read started from factory in silence, the link open.
  Generator: a fault layer under ``os`` (``kit_faults.FailingOs``) failing
  the Nth call of a whole start, for every N, once and for good;
- a folder or a link where a file should be (companion paths): a folder at
  ``STATE.tmp`` failed every save until someone removed it.

The invariant: the exhibit starts and plays (its games saved once the disk
answers), the fault is said, and the start refuses (exit 2) only what a
person must change: a link, a folder, a hard link or someone's file at the
state file or its lock, another Nimatron on the file.
"""

import io
import json
import os
import shutil
import signal
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, os.path.join(ROOT, "simulator"))

from kit_faults import FailingOs  # noqa: E402
from nimatron.__main__ import open_state  # noqa: E402
from nimatron.machine import statefile  # noqa: E402
from nimatron.machine.audits import Audits  # noqa: E402
from nimatron.machine.startup import Machine, overrides_source  # noqa: E402
from nimatron.machine.store import Store  # noqa: E402

EIO = os.strerror(5)
# The program's own sweep (a pi-leds start each) takes every 6th call in the suite, every call with START_EXAMPLES set.
STRIDE = 1 if "START_EXAMPLES" in os.environ else 6
VICTIM = b"someone else's file: never written\n"
ISSUE_LOCKS = (b"\0\0\0\0", b"12s45\n", b"\n", b"123\n456\n", b"\xff\xff\xff\xff")
QUICK = settings(
    max_examples=int(os.environ.get("START_EXAMPLES", "60")),
    deadline=None,
    derandomize="START_EXAMPLES" not in os.environ,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture, HealthCheck.data_too_large],
)


from kit_start import Err, make, pi_start  # noqa: E402


def stored(path):
    """The lifetime audits a later start finds (no faults then)."""
    found = Store(path=path).load()
    return Audits(found["audits"]).snapshot()["lifetime"], found


def first_state(folder):
    """A folder as a Pi leaves it after one start and a clean stop."""
    path = str(folder / "state.bin")
    lines, m = pi_start(path)
    assert m is not None, lines
    return path


# -- lock files of any bytes ----------------------------------------------------
@QUICK
@given(
    st.one_of(
        st.sampled_from(ISSUE_LOCKS),
        st.binary(max_size=100),
        st.binary(min_size=100, max_size=70000),
        st.integers(1, 4194304).map(lambda n: b"%d\n" % n),
    )
)
def test_a_lock_file_of_any_bytes_is_ours_and_the_pi_plays(tmp_path_factory, data):
    """A damaged lock file: any bytes, any length: the start plays, the lock
    then names this process, and bytes that were not a process id are said."""
    folder = tmp_path_factory.mktemp("lock")
    path = str(folder / "state.bin")
    (folder / "state.bin.lock").write_bytes(data)
    lines = []
    store = open_state(path, err=Err(lines))
    assert store is not None, lines
    try:
        m = Machine("pico-neopixel", overrides_source({}), store, now_ms=0, make=make, log=lines.append)
        assert m.controller is not None
        assert (folder / "state.bin.lock").read_bytes() == b"%d\n" % os.getpid()
        pid = data.strip().isdigit() and len(data) <= 32
        said = [line for line in lines if "state.bin.lock held" in line]
        assert len(said) == (0 if pid or not data else 1), lines
        assert not said or "rewritten" in m.boot["why"]
    finally:
        store.owner.close()


@QUICK
@given(st.one_of(st.sampled_from(ISSUE_LOCKS), st.binary(max_size=200)))
def test_a_lock_file_of_any_bytes_is_ours_and_the_simulator_plays(tmp_path_factory, data):
    from nimatron_sim.cli import _open_nvm

    folder = tmp_path_factory.mktemp("nvmlock")
    (folder / "nvm.bin.lock").write_bytes(data)
    nvm, store, owner = _open_nvm(str(folder / "nvm.bin"))
    try:
        assert store.save_audits({"l": [1]}) is True
        assert (folder / "nvm.bin.lock").read_bytes() == b"%d\n" % os.getpid()
    finally:
        owner.close()


@QUICK
@given(st.binary(max_size=64))
def test_flock_is_the_truth_whatever_the_lock_file_holds(tmp_path_factory, data):
    """Another writer: a second Nimatron is refused however the first's lock
    file was damaged meanwhile; once the first lets go, the second plays."""
    folder = tmp_path_factory.mktemp("two")
    path = str(folder / "state.bin")
    first = statefile.Owner(path)
    assert first.take() is None
    with open(path + ".lock", "r+b") as f:  # the same file, its bytes damaged in place
        f.truncate(0)
        f.write(data)
    second = statefile.Owner(path)
    why = second.take()
    assert why is not None and "another Nimatron is using it" in why
    first.close()
    assert second.take() is None
    second.close()


@pytest.mark.parametrize(
    "what", ["a hard link to someone's empty file", "a hard link to someone's file", "a symbolic link", "a folder"]
)
def test_a_lock_that_is_not_ours_by_its_names_is_refused_untouched(tmp_path, what):
    """Another writer: a hard link would have someone's file truncated to our
    process id; a link, a folder: a person must move them."""
    victim = tmp_path / "victim"
    victim.write_bytes(b"" if "empty" in what else VICTIM)
    lock = tmp_path / "state.bin.lock"
    if "hard" in what:
        os.link(str(victim), str(lock))
    elif "symbolic" in what:
        os.symlink(str(victim), str(lock))
    else:
        lock.mkdir()
    lines = []
    assert open_state(str(tmp_path / "state.bin"), err=Err(lines)) is None
    assert len(lines) == 1 and "state.bin.lock" in lines[0], lines
    assert victim.read_bytes() == (b"" if "empty" in what else VICTIM)
    assert not (tmp_path / "state.bin").exists()


# -- read errors at every call of the start ---------------------------------------
def _sweep(tmp_path, reads_of=None):
    """Every N: the start with its Nth call on the state folder failing (once;
    or, with ``reads_of``, every read of that file from then on)."""
    base = tmp_path / "base"
    base.mkdir()
    first_state(base)
    shutil.copytree(base, tmp_path / "clean")
    with FailingOs(tmp_path / "clean") as clean:
        pi_start(str(tmp_path / "clean" / "state.bin"))
    calls = clean.calls
    assert calls > 20, calls
    outcomes = []
    for n in range(calls + 1):
        folder = tmp_path / ("n%d" % n)
        shutil.copytree(base, folder)
        path = str(folder / "state.bin")
        with FailingOs(folder, fail_at=n, reads_of=reads_of) as layer:
            lines, m = pi_start(path)
        outcomes.append((n, layer.failed, lines, m, folder))
    return calls, outcomes


def test_one_read_error_at_any_call_of_the_start_is_said_and_the_exhibit_plays(tmp_path):
    """One transient EIO, at each call the start makes in turn (open, read,
    fstat, lstat, flock, the lock's write, the run marker, the store's read,
    the first saves): the machine starts, plays a game that is saved (once
    the disk answers again), keeps every record it had, and says the error."""
    calls, outcomes = _sweep(tmp_path)
    for n, failed, lines, m, folder in outcomes:
        assert m is not None and m.controller is not None, (n, failed, lines)
        if n == calls:
            assert not failed
            continue
        assert len(failed) == 1, (n, failed)
        said = "\n".join(lines)
        assert EIO in said, (n, failed, lines)
        assert m.store.failing is None, (n, failed, m.store.failing)
        lifetime, found = stored(str(folder / "state.bin"))
        assert lifetime["power_ups"] == 2 and lifetime["finished"] == 2, (n, failed, lifetime, lines)
        assert not found["problems"], (n, failed, found["problems"])


def test_a_state_file_that_stays_unreadable_is_kept_aside_and_the_link_sealed(tmp_path):
    """Every read of the state file fails from the Nth call on, for every N:
    the start plays, the file is kept aside (renamed, its bytes whole for a
    mended card), the loss said and the link sealed (its PIN may be in it)."""
    calls, outcomes = _sweep(tmp_path, reads_of="state.bin")
    original = (tmp_path / "base" / "state.bin").read_bytes()
    aside_count = 0
    for n, failed, lines, m, folder in outcomes:
        assert m is not None and m.controller is not None, (n, failed, lines)
        said = "\n".join(lines)
        if failed:
            assert EIO in said, (n, failed, lines)
        aside = folder / "state.bin.unreadable-1"
        if aside.exists():
            aside_count += 1
            assert aside.read_bytes() == original
            assert "kept aside as state.bin.unreadable-1" in m.boot["why"]
            assert m.sealed and m.restored == "factory", (n, m.boot)
            lifetime, found = stored(str(folder / "state.bin"))
            assert lifetime["finished"] == 1  # the game played since: saved in a new file
    assert aside_count > 0


def test_an_unreadable_nvm_is_kept_aside_and_the_simulator_plays(tmp_path):
    from nimatron_sim.cli import _open_nvm

    path = str(tmp_path / "nvm.bin")
    nvm, store, owner = _open_nvm(path)
    assert store.save_audits({"l": [3]}) is True
    owner.close()
    before = open(path, "rb").read()
    with FailingOs(tmp_path, fail_at=0, reads_of="nvm.bin"):
        nvm, store, owner = _open_nvm(path)
    found = store.load()
    owner.close()
    assert (tmp_path / "nvm.bin.unreadable-1").read_bytes() == before
    assert (
        sorted(found["lost"]) == ["audits", "settings"] and "kept aside as nvm.bin.unreadable-1" in found["problems"][0]
    )
    assert EIO in "\n".join(found["warnings"])


def test_the_pi_program_starts_on_a_damaged_lock_and_stops_cleanly(tmp_path):
    """The repro through the real program: ``printf '\\0\\0\\0\\0' > STATE.lock``."""
    folder = tmp_path / "st"
    folder.mkdir()
    (folder / "state.bin.lock").write_bytes(b"\0\0\0\0")
    env = dict(os.environ, GPIOZERO_PIN_FACTORY="mock", PYTHONUNBUFFERED="1")
    for key in ("INVOCATION_ID", "STATE_DIRECTORY", "NOTIFY_SOCKET"):
        env.pop(key, None)
    proc = subprocess.Popen(
        [sys.executable, "-m", "nimatron", "--board", "pi-leds", "--state", str(folder / "state.bin")],
        cwd=ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
    )
    line = proc.stdout.readline()
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 0, err
    boot = json.loads(line)
    assert boot["event"] == "boot" and "state.bin.lock held 4 bytes, not a process id" in boot["why"]
    assert err.count("state.bin.lock held") == 1, err


def run_main(monkeypatch, argv):
    """``python -m nimatron`` in-process, stopped (as by SIGTERM) at its first
    sleep: its exit status and stderr."""
    import nimatron.__main__ as pi

    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    for key in ("INVOCATION_ID", "STATE_DIRECTORY", "NOTIFY_SOCKET"):
        monkeypatch.delenv(key, raising=False)

    class Clock:
        """The program's ``time``, stopped at its first sleep: the module's own
        ``time.sleep`` is left alone (another thread of this worker, displayio's
        background refresh, sleeps through it too)."""

        monotonic_ns = staticmethod(pi.time.monotonic_ns)
        time = staticmethod(pi.time.time)

        @staticmethod
        def sleep(seconds):
            raise KeyboardInterrupt

    monkeypatch.setattr(pi, "time", Clock)
    monkeypatch.setattr(pi.signal, "signal", lambda *a: None)
    err = io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    out = io.StringIO()
    monkeypatch.setattr(sys, "stdout", out)
    status = pi.main(argv)
    monkeypatch.undo()
    return status, err.getvalue(), out.getvalue()


@pytest.mark.slow  # about 7 s: a whole pi-leds start through the program at every sixth call, twice
def test_the_program_exits_2_only_for_what_a_person_must_mend(tmp_path, monkeypatch):
    """Exit 2 is never restarted (install-pi's ``RestartPreventExitStatus=2``):
    ``python -m nimatron`` gives it for a usage error only, never for a fault
    at start (an EIO at any call of it, once, or every read of the state file)."""
    from gpiozero import Device
    from nimatron_host import install_pi

    assert "Restart=always" in install_pi.RESTART and "RestartPreventExitStatus=2" in install_pi.RESTART
    base = tmp_path / "base"
    base.mkdir()
    argv = ["--board", "pi-leds", "--state", str(base / "state.bin")]
    assert run_main(monkeypatch, argv)[0] == 0
    shutil.copytree(base, tmp_path / "clean")
    with FailingOs(tmp_path / "clean") as clean:
        assert run_main(monkeypatch, ["--board", "pi-leds", "--state", str(tmp_path / "clean" / "state.bin")])[0] == 0
    for reads_of in (None, "state.bin"):
        for n in range(reads_of is not None, clean.calls, STRIDE):  # every call: the in-process sweeps above
            folder = tmp_path / ("n%d-%s" % (n, reads_of))
            shutil.copytree(base, folder)
            with FailingOs(folder, fail_at=n, reads_of=reads_of) as layer:
                status, err, out = run_main(monkeypatch, ["--board", "pi-leds", "--state", str(folder / "state.bin")])
            Device.pin_factory.reset()
            assert status == 0, (n, reads_of, layer.failed, err)
            assert json.loads(out.splitlines()[0])["event"] == "boot"
    usage = {  # what a person must mend: one line, exit 2
        "a folder": lambda p: p.mkdir(),
        "someone's text": lambda p: p.write_text("opening hours\n"),
        "a link": lambda p: os.symlink(str(base / "state.bin"), str(p)),
        "a hard link at the lock": lambda p: os.link(str(base / "state.bin"), str(p) + ".lock"),
    }
    for what, plant in usage.items():
        folder = tmp_path / what.replace(" ", "-").replace("'", "")
        folder.mkdir()
        plant(folder / "state.bin")
        status, err, out = run_main(monkeypatch, ["--board", "pi-leds", "--state", str(folder / "state.bin")])
        assert status == 2 and err.count("\n") == 1, (what, err)
    status, err, out = run_main(monkeypatch, ["--board", "pi-leds", "--set", "think_ms=-5"])
    assert status == 2 and err.count("\n") == 1, err


# -- folders and links at companion paths ----------------------------------------
COMPANIONS = (".tmp", ".run", ".run.tmp", ".damaged-1", ".unreadable-1")


@pytest.mark.parametrize("name", COMPANIONS)
@pytest.mark.parametrize("what", ["a folder", "a link"])
def test_a_folder_or_link_at_a_companion_path_never_stops_the_saves(tmp_path, name, what):
    """A folder planted at ``STATE.tmp`` failed every save until someone
    removed it: saves go on beside it, and nothing planted is written."""
    folder = tmp_path / "st"
    folder.mkdir()
    path = first_state(folder)
    planted = folder / ("state.bin" + name)
    victim = tmp_path / "victim"
    victim.write_bytes(VICTIM)
    if planted.exists():
        planted.unlink()  # the run marker the first start left
    if what == "a folder":
        planted.mkdir()
        (planted / "inside").write_bytes(VICTIM)
    else:
        os.symlink(str(victim), str(planted))
    lines, m = pi_start(path)
    assert m is not None, lines
    assert m.store.failing is None, lines
    lifetime, found = stored(path)
    assert lifetime["power_ups"] == 2 and lifetime["finished"] == 2, lifetime
    assert victim.read_bytes() == VICTIM
    if what == "a folder":
        assert (planted / "inside").read_bytes() == VICTIM


def test_a_host_link_that_cannot_be_opened_leaves_the_exhibit_playing_and_is_tried_again(tmp_path, monkeypatch):
    """``--serial /dev/ttyGS0`` before the USB gadget is up exited 2 (never
    restarted: dark). The machine now plays without its link, says so once,
    and opens it when the device appears (tried every ``LINK_RETRY_MS``)."""
    import pty
    import tty

    import nimatron.__main__ as pi

    port = tmp_path / "ttyGS0"
    master, slave = pty.openpty()
    tty.setraw(slave)
    clock = [0]
    sleeps = [0]

    def a_pass(seconds):
        sleeps[0] += 1
        clock[0] += 1000 * 1000 * 1000  # a second of the machine's time a pass
        if sleeps[0] == 2:
            os.symlink(os.ttyname(slave), str(port))  # the gadget is up
        if sleeps[0] > 3 + pi.LINK_RETRY_MS // 1000:
            raise KeyboardInterrupt

    class Clock:
        """The program's ``time`` (the module's own left alone: another thread
        of this worker, displayio's background refresh, sleeps through it)."""

        monotonic_ns = staticmethod(lambda: clock[0])
        time = staticmethod(pi.time.time)
        sleep = staticmethod(a_pass)

    monkeypatch.setattr(pi, "time", Clock)
    monkeypatch.setenv("GPIOZERO_PIN_FACTORY", "mock")
    for key in ("INVOCATION_ID", "STATE_DIRECTORY", "NOTIFY_SOCKET"):
        monkeypatch.delenv(key, raising=False)
    monkeypatch.setattr(pi.signal, "signal", lambda *a: None)
    err, out = io.StringIO(), io.StringIO()
    monkeypatch.setattr(sys, "stderr", err)
    monkeypatch.setattr(sys, "stdout", out)
    try:
        status = pi.main(["--board", "pi-leds", "--serial", str(port)])
    finally:
        monkeypatch.undo()
        os.close(master)
        os.close(slave)
    lines = err.getvalue().splitlines()
    assert status == 0, lines
    assert json.loads(out.getvalue().splitlines()[0])["event"] == "boot"
    assert len([line for line in lines if "playing without the host link" in line]) == 1, lines
    assert lines[-1] == "serial: %s" % port, lines


def sim_start(path, said):
    """The simulator's ``--nvm`` start in-process (``_open_nvm``), a few saves
    (the failed ones tried again): the store, or None if refused."""
    from contextlib import redirect_stderr

    from nimatron_pc.errors import UsageError
    from nimatron_sim.cli import _open_nvm

    err = io.StringIO()
    try:
        with redirect_stderr(err):
            nvm, store, owner = _open_nvm(path)
    except UsageError as e:
        said.append(str(e))
        return None
    found = store.load()
    said.extend(err.getvalue().splitlines() + found["warnings"] + found["problems"])
    for games in range(3):
        store.save_audits({"l": [games]})
        if store.failing:
            said.append(store.failing)
    if store.unsaved:
        store.flush()
    owner.close()
    return store


def test_one_read_error_at_any_call_of_the_simulators_start_is_said_and_it_plays(tmp_path):
    """The same sweep over ``nimatron sim --nvm``: an EIO at each call of its
    start and first saves, once: never refused, said, the saves made."""
    base = tmp_path / "base"
    base.mkdir()
    assert sim_start(str(base / "nvm.bin"), []) is not None
    shutil.copytree(base, tmp_path / "clean")
    with FailingOs(tmp_path / "clean") as clean:
        sim_start(str(tmp_path / "clean" / "nvm.bin"), [])
    assert clean.calls > 10
    for n in range(clean.calls):
        folder = tmp_path / ("n%d" % n)
        shutil.copytree(base, folder)
        said = []
        with FailingOs(folder, fail_at=n) as layer:
            store = sim_start(str(folder / "nvm.bin"), said)
        assert store is not None, (n, layer.failed, said)
        assert EIO in "\n".join(said), (n, layer.failed, said)
        assert store.failing is None, (n, layer.failed, store.failing)
        from nimatron_sim.flash import FlashNvm

        found = Store(nvm=FlashNvm.open(str(folder / "nvm.bin"))).load()
        assert found["audits"] == {"l": [2]} and not found["problems"], (n, layer.failed, found)
