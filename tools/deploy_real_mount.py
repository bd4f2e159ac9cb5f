# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron deploy`` onto a real mount that goes away at each step (root, Linux).

The tests fake a drive's device id (``drive.device_id``); this does it for
real: a tmpfs stands in for CIRCUITPY, and before the k-th check of deploy's
writes it is unmounted (``umount -l``: the deploy's open folder still reaches
it) or swapped (another tmpfs with the same boot_out.txt, as another board
of the same kind, mounted in its place), for every k of a whole deploy. It counts the files that land in the
host's folder under the mount point (or on the other drive) and the deploys
that said they were done::

    sudo .venv/bin/python tools/deploy_real_mount.py      # docs/reliability.md has its figures
"""

import contextlib
import io
import os
import subprocess
import sys
import tempfile

from nimatron_host import deploy, drive as drives
from nimatron_host.cli import main

BOOT_OUT = "Adafruit CircuitPython 9.2.8 on 2025-05-28; Raspberry Pi Pico with rp2040\nBoard ID:raspberry_pi_pico\n"


def mount(path, boot_out):
    subprocess.run(["mount", "-t", "tmpfs", "-o", "size=4m", "tmpfs", path], check=True)
    with open(os.path.join(path, "boot_out.txt"), "w") as f:
        f.write(boot_out)


def files(path):
    return sorted(os.path.relpath(os.path.join(f, n), path) for f, _, names in os.walk(path) for n in names)


def unmount_all(path):
    while os.path.ismount(path):
        subprocess.run(["umount", "-l", path], check=True)


def once(point, fault, k):
    """(exit status, files outside the drive that was checked, last line said) with the fault before check k."""
    mount(point, BOOT_OUT)
    steps = [0]
    real = drives.Drive.check

    def check(disk, doing, path=""):
        steps[0] += 1
        if steps[0] == k:
            subprocess.run(["umount", "-l", point], check=True)
            if fault == "swap":
                mount(point, BOOT_OUT)  # another board of the same kind: only its device differs
        return real(disk, doing, path)

    drives.Drive.check = check
    out, err = io.StringIO(), io.StringIO()
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = main(["deploy", "--to", point, "--offline"])
    finally:
        drives.Drive.check = real
    moved = steps[0] >= k
    there = files(point) if moved else []
    outside = [p for p in there if not (fault == "swap" and p == "boot_out.txt")]
    unmount_all(point)
    leftover = files(point)  # the host's own folder under the mount point
    return code, moved, outside + [p for p in leftover if p not in outside], (err.getvalue() or out.getvalue()).strip()


def main_():
    if os.geteuid() != 0:
        print("deploy_real_mount: needs root (it mounts tmpfs)", file=sys.stderr)
        return 2
    deploy.online = lambda *a, **k: False
    with tempfile.TemporaryDirectory() as root:
        point = os.path.join(root, "CIRCUITPY")
        os.mkdir(point)
        for fault in ("unmount", "swap"):
            k, done, written, stops, example = 0, 0, 0, 0, ""
            while True:
                k += 1
                code, moved, outside, said = once(point, fault, k)
                if not moved:
                    break
                written += len(outside)
                stops += code == 1
                done += code == 0
                example = example or said.splitlines()[-1]
            print(
                "%s: %d steps, a deploy stopped at each: %d, said done: %d, files written outside the drive "
                "checked: %d" % (fault, k - 1, stops, done, written)
            )
            print("  e.g. %s" % example)
    return 0


if __name__ == "__main__":
    sys.exit(main_())
