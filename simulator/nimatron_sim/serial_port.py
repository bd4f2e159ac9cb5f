# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The simulator's serial port: the host link on a pseudo-terminal.

    sim = Simulator("pico-neopixel")
    port = SerialPort(sim)          # prints "serial: /dev/pts/N" on stderr
    port.run_script(actions)        # wait lines pass in real time, link answering
    port.run_until_killed()

The firmware's own ``HostLink`` on a ``PtyTransport``, polled after every
tick of the simulator's main loop: to ``nimatron monitor``, pyserial or
miniterm the path looks like a board's USB data port. While a host may be
talking, time runs in step with the wall clock (a ``wait 5000`` lasts five
seconds); presses in a script still take their usual virtual 100 ms.
"""

import signal
import sys
import time

from nimatron.link.hostlink import HostLink
from nimatron.link.pty import PtyTransport


class SerialPort:
    def __init__(self, sim, announce=None):
        self.sim = sim
        self.transport = PtyTransport()
        self.path = self.transport.path
        self.link = HostLink(sim.controller, self.transport, board=sim.board, now_ms=sim.now)
        sim.machine.attach(self.link)  # SET saved to --nvm; HELLO says who the machine is
        out = sys.stderr if announce is None else announce
        out.write("serial: %s\n" % self.path)
        out.flush()

    def poll(self):
        self.link.poll(self.sim.now)

    def run_real_time(self, ms=None):
        """Run the machine in step with the wall clock for ``ms`` (None: until killed)."""
        sim = self.sim
        start = time.monotonic()
        origin = sim.now
        while ms is None or sim.now < origin + ms:
            due = origin + int((time.monotonic() - start) * 1000)
            if ms is not None and due > origin + ms:
                due = origin + ms
            if due > sim.now:
                step = sim.tick_ms
                while sim.now < due:  # tick by tick, so the link sees every tick
                    sim.advance(min(step, due - sim.now))
                    self.poll()
            else:
                self.poll()
                time.sleep(0.002)

    def run_script(self, actions):
        """A parsed script: presses as usual, ``wait`` in real time with the link live."""
        from . import script

        for action in actions:
            if action[1] == "wait":
                self.run_real_time(action[2][0])
            elif action[1] == "host":
                while not self.link.events:  # a host that watches: it will see every event from here
                    self.run_real_time(self.sim.tick_ms)
            else:
                script.run(self.sim, [action])
                self.poll()

    def run_until_killed(self):
        """Real time until Ctrl-C or SIGTERM (raised as KeyboardInterrupt)."""

        def stop(signum, frame):
            raise KeyboardInterrupt

        signal.signal(signal.SIGTERM, stop)
        self.run_real_time(None)

    def close(self):
        self.transport.close()
