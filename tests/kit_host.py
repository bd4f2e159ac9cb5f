# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""``nimatron sim --headless --serial`` in a subprocess, as a maker starts
it: the machine the host-tool tests (and pyserial's miniterm) talk to."""

import os
import subprocess
import sys
import threading

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
NIMATRON = [sys.executable, "-m", "nimatron_host"]


class Sim:
    """``nimatron sim --headless --serial`` in a subprocess; ``.path`` is its port."""

    def __init__(self, *args, script=None):
        cmd = NIMATRON + ["sim", "--headless", "--serial"] + list(args)
        if script is None:
            cmd.append("--until-killed")
        else:
            cmd += ["--script", "-"]
        self.proc = subprocess.Popen(
            cmd, cwd=ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
        if script is not None:
            self.proc.stdin.write(script)
        self.proc.stdin.close()
        first = self.proc.stderr.readline()
        assert first.startswith("serial: /dev/"), first + self.proc.stderr.read()
        self.path = first.split(" ", 1)[1].strip()
        self.stdout = []
        threading.Thread(target=self._drain, daemon=True).start()

    def _drain(self):
        for line in self.proc.stdout:
            self.stdout.append(line)

    def stop(self):
        if self.proc.poll() is None:
            self.proc.terminate()
        self.proc.wait(10)
        return self.proc.returncode
