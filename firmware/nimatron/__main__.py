# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``python -m nimatron --board pi-leds``: the Nimatron on a Raspberry Pi.

    python -m nimatron --board pi-leds
    python -m nimatron --board pi-neopixel --preset drnim --set think_ms=800

Opens the board's driver (gpiozero, or Blinka for NeoPixel boards), then
runs the main loop until Ctrl-C or SIGTERM, and closes the driver so the
lamps go dark. Game events go to stdout as JSON lines (for journald), the
first one the ``boot`` event (who the machine is, its audits).
On a PC, ``GPIOZERO_PIN_FACTORY=mock`` runs a gpiozero board with no hardware.

``--state FILE`` keeps audits and ``SET`` changes across restarts (written
atomically: temporary file, fsync, rename, fsync of the folder); under
systemd it defaults to ``$STATE_DIRECTORY/state.bin`` (``StateDirectory=``)
or ``/var/lib/nimatron/state.bin``. With a state file, settings that fail
fall back to the last good ones (or the board's defaults, keeping the PIN)
and the machine plays: a service never crash-loops on a typo. Without one,
a bad setting exits 2. Under systemd with ``Type=notify`` it sends
``READY=1`` once playing and ``WATCHDOG=1`` from the main loop.

One process owns a state file (``FILE.lock``, flock, whatever the lock
file's bytes): a second is refused in one line, exit 2. A state file of
ours that is damaged (zeroed by a power cut, a flipped byte) is kept aside
as ``FILE.damaged-N`` and the machine plays from what could be read,
saying so at boot; a read error is tried again, and a file that stays
unreadable is kept aside as ``FILE.unreadable-N``: a fault at start never
darkens the exhibit. Exit 2 only for what a person must mend (a bad
setting; someone else's file, a link or a folder named by ``--state``;
another Nimatron on the file), which install-pi's unit does not restart;
a ``--serial`` device that cannot be opened yet is tried again every 5 s
while the machine plays.
"""

import argparse
import json
import os
import signal
import sys
import time

TICK_S = 0.005  # sleep between loop ticks (here only: the core never sleeps)
LINK_RETRY_MS = 5000  # a host link that could not be opened is tried again this often
SERVICE_STATE = "/var/lib/nimatron/state.bin"


class Notifier:
    """systemd's sd_notify in a few lines: a datagram to $NOTIFY_SOCKET.

    Does nothing outside systemd. ``WATCHDOG=1`` goes out at most every
    half of ``$WATCHDOG_USEC`` (or once a second), whatever the loop rate.
    """

    def __init__(self, env=None):
        env = os.environ if env is None else env
        self.sock = None
        self.addr = env.get("NOTIFY_SOCKET") or None
        self.every_ms = 1000
        self.last_ms = None
        try:
            self.every_ms = max(1, min(self.every_ms, int(env.get("WATCHDOG_USEC", "")) // 2000))
        except ValueError:
            pass
        if self.addr:
            import socket

            if self.addr[0] == "@":  # an abstract socket
                self.addr = "\0" + self.addr[1:]
            self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)

    def notify(self, state):
        if self.sock is None:
            return False
        try:
            self.sock.sendto(state.encode(), self.addr)  # type: ignore[arg-type]  # set whenever sock is
            return True
        except OSError:
            return False  # systemd gone or restarting: the game goes on

    def alive(self, now_ms):
        """From the main loop: WATCHDOG=1, rate-limited."""
        if self.sock is not None and (self.last_ms is None or now_ms - self.last_ms >= self.every_ms):
            self.last_ms = now_ms
            self.notify("WATCHDOG=1")

    def close(self):
        if self.sock is not None:
            self.sock.close()
            self.sock = None


BOOT_ID = "/proc/sys/kernel/random/boot_id"


class RunMarker:
    """Why this start happened, on a Pi that has no reset-reason register.

    A small file beside the state file holds the kernel's boot id and
    ``running`` (written at start) or ``stopped`` (written on a clean stop:
    SIGTERM, Ctrl-C). At the next start: another boot id means the Pi
    itself started again (``power_on``: a power cut, a reboot); the same
    boot after a clean stop is a restart by hand (``software``); the same
    boot after a run that never stopped cleanly was a crash or systemd's
    watchdog killing a hung loop, then a restart (``watchdog``).
    """

    def __init__(self, path, boot_id_file=BOOT_ID):
        self.path = path
        self.note = None  # a fault reading or writing the marker: said, never a reason not to play
        try:
            with open(boot_id_file) as f:
                self.boot = f.read().strip() or "unknown"
        except OSError:
            self.boot = "unknown"

    def start(self):
        """The reason for this start; marks the run as running."""
        try:
            fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
            try:
                words = os.read(fd, 200).decode("ascii", "replace").split()
            finally:
                os.close(fd)
        except OSError as e:
            words = []  # missing, or a link planted there: no claim
            from .machine.statefile import answer

            if not answer(e):  # a fault (EIO): said, and the start counted as a power-on
                self.note = "%s could not be read (%s): this start is counted as a power-on" % (
                    os.path.basename(self.path),
                    e.strerror or e,
                )
        if len(words) != 2 or self.boot == "unknown" or words[0] != self.boot:
            reason = "power_on"
        elif words[1] == "stopped":
            reason = "software"
        else:
            reason = "watchdog"
        self._write("running")
        return reason

    def stop(self):
        self._write("stopped")

    def _write(self, word):
        """A new file renamed over the old one: a link planted at ``STATE.run``
        or ``STATE.run.tmp`` is replaced, its target never written."""
        from .machine.files import OsFiles

        files = OsFiles()
        try:
            files.create(self.path + ".tmp", ("%s %s\n" % (self.boot, word)).encode())
            files.rename(self.path + ".tmp", self.path)
        except OSError as e:  # the reason is a nicety: never a reason not to play, but said
            self.note = "%s could not be written (%s): the next start's reason may be wrong" % (
                os.path.basename(self.path),
                e.strerror or e,
            )


def default_state(env=None):
    """Where a service keeps its state; None when run by hand."""
    env = os.environ if env is None else env
    if env.get("STATE_DIRECTORY"):
        return os.path.join(env["STATE_DIRECTORY"].split(":")[0], "state.bin")
    if env.get("INVOCATION_ID"):  # started by systemd
        return SERVICE_STATE
    return None


def parse_args(argv):
    from .config.boards import names

    p = argparse.ArgumentParser(prog="python -m nimatron", description=__doc__.split("\n")[0])
    p.add_argument("--board", required=True, help="one of: " + ", ".join(names()))
    p.add_argument("--preset", help="preset (default: the board's own)")
    p.add_argument("--rules")
    p.add_argument("--misere", action="store_true")
    p.add_argument("--difficulty")
    p.add_argument("--seed", type=int)
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="any setting (repeatable)")
    p.add_argument("--quiet", action="store_true", help="do not print game events")
    p.add_argument(
        "--state", metavar="FILE", help="keep audits and SET changes here (default under systemd: %s)" % SERVICE_STATE
    )
    p.add_argument(
        "--serial",
        metavar="WHERE",
        help="host link: a serial device (/dev/ttyGS0) or 'pty' (its path printed on stderr)",
    )
    return p.parse_args(argv)


def overrides(args):
    out = {}
    for item in args.set:
        key, sep, value = item.partition("=")
        if not sep:
            raise ValueError("--set wants KEY=VALUE, got %r" % item)
        try:
            value = json.loads(value)
        except ValueError:
            pass
        out[key] = value
    for key in ("preset", "rules", "difficulty", "seed"):
        if getattr(args, key) is not None:
            out[key] = getattr(args, key)
    if args.misere:
        out["misere"] = True
    return out


def open_state(state, err=None):
    """The store on ``state``, this process its one owner; None (said in one
    line on ``err``) only for what a person must change: the file is not
    ours (a link, a folder, someone's file), no permission, or another
    Nimatron has it.

    A fault at start is no reason not to play: a file of ours that is
    damaged (zeroed by a power cut, a flipped byte) is kept aside, the store
    reads what it can and the boot event says what was lost
    (``statefile.examine``); a read error (EIO) is tried again, and a file
    that stays unreadable is kept aside (``files.OsFiles.read``); a lock
    file of any bytes is ours (``statefile.Owner``). What went wrong is said
    at boot (``store.warnings``)."""
    from .machine.statefile import Owner, again, answer, examine, problem
    from .machine.files import OsFiles
    from .machine.store import Store

    err = sys.stderr if err is None else err
    said = []  # type: list[str]  # faults that did not stop the start (a read tried again, a lock file rewritten): said at boot
    folder = os.path.dirname(os.path.abspath(state))
    try:
        again(lambda: os.stat(folder), said, "examining " + folder)
        missing = False
    except FileNotFoundError:
        missing = True
    except OSError:
        missing = False  # a fault (said): the file itself may still be read
    why = None if missing else problem(state, said=said)
    if why:
        print("nimatron: --state %s" % why, file=err)
        return None
    try:
        if missing:
            again(lambda: os.makedirs(folder, exist_ok=True), said, "making " + folder)
    except OSError as e:
        if answer(e):  # no permission, a read-only disk, a file where the folder goes: a person's to mend
            print("nimatron: cannot keep state in %s: %s" % (folder, e.strerror or e), file=err)
            return None
        said.append(
            "cannot make %s (%s): saves fail (and are tried again) until it can be made" % (folder, e.strerror or e)
        )
    owner = Owner(state)
    why = owner.take()
    if why:
        print("nimatron: --state %s" % why, file=err)
        return None
    files = OsFiles()
    note = examine(state, said=said)
    if note:
        files.notes.append(note)
    store = Store(path=state, files=files)
    store.warnings = owner.notes + said  # said by the start (the boot event's why, stderr)
    store.owner = owner  # type: ignore[attr-defined]  # held for the store's life: the process's
    return store


def attach_link(machine, where, now, quiet=False):
    """The host link on ``where`` (``--serial``), attached: True; False if it
    cannot be opened (a USB gadget not up yet, a cable out): said (unless
    ``quiet``: said once already), and the machine plays without it, tried
    again every ``LINK_RETRY_MS``. It used to exit 2: never restarted, dark."""
    from .link.transports import LinkError, open_link

    if machine.controller is None:  # a fault's rebuild under way: the next try
        return False
    try:
        link = open_link(machine.controller, where, board=machine.board, now_ms=now)
    except LinkError as e:
        if not quiet:
            print(
                "nimatron: %s: playing without the host link, trying again every %d s" % (e, LINK_RETRY_MS // 1000),
                file=sys.stderr,
                flush=True,
            )
        return False
    machine.attach(link)
    print("serial: %s" % link.transport.path, file=sys.stderr, flush=True)
    return True


def main(argv=None):
    args = parse_args(sys.argv[1:] if argv is None else argv)
    from .machine.startup import Machine, overrides_source

    def listener(event):
        if not args.quiet:
            print(json.dumps(event), flush=True)

    def ms():
        return time.monotonic_ns() // 1_000_000

    def stop(signum, frame):
        raise KeyboardInterrupt

    signal.signal(signal.SIGTERM, stop)
    state = args.state or default_state()
    store = None
    if state:
        store = open_state(state)
        if store is None:
            return 2
    marker = RunMarker(state + ".run") if state else None
    reason = marker.start() if marker else None
    if marker is not None and marker.note:
        store.warnings.append(marker.note)  # type: ignore[union-attr]  # a marker only with a state: its store; said at boot with the start's other faults
    try:
        source = overrides_source(overrides(args))
        machine = Machine(
            args.board,
            source,
            store,
            now_ms=ms(),
            reset_reason=reason,
            clock=lambda: int(time.time()),
            listener=listener,
            log=lambda line: print(line, file=sys.stderr, flush=True),
            strict=store is None,
        )
    except (ValueError, OverflowError) as e:  # BoardError, SettingsError, PanelError, DriverError
        if marker is not None:
            marker.stop()  # a refusal, not a crash: the next start is not a fault
        print("nimatron: %s" % e, file=sys.stderr)
        return 2
    notifier = Notifier()
    try:
        listener(machine.boot)
        link_at = None  # when to try the host link again (it could not be opened)
        if args.serial and not attach_link(machine, args.serial, ms()):
            link_at = ms() + LINK_RETRY_MS
        notifier.notify("READY=1")
        while True:
            now = ms()
            machine.tick(now)
            if link_at is not None and now >= link_at:
                link_at = None if attach_link(machine, args.serial, now, quiet=True) else now + LINK_RETRY_MS
            notifier.alive(now)
            time.sleep(TICK_S)
    except KeyboardInterrupt:  # Ctrl-C or SIGTERM, from the boot event on: a clean stop
        return 0
    finally:
        if marker is not None:
            marker.note = None
            marker.stop()
            if marker.note:
                print("nimatron: %s" % marker.note, file=sys.stderr)
        notifier.notify("STOPPING=1")
        notifier.close()
        if machine.controller is not None:
            machine.controller.io.close()


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:  # Ctrl-C while still starting: a clean stop too
        sys.exit(0)
