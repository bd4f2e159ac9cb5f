# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""CircuitPython safe mode: record why, then restart normally (CircuitPython 8.2+).

CircuitPython runs this instead of code.py when its port reports a safe-mode
reason at start. A museum exhibit must come back on its own after a
brown-out or a watchdog reset: count the restart in the audits (the reason
is readable only here), then reset into code.py. Anything else (a hard
fault, the reset button pressed during the start's wait) stays in safe
mode: that needs a person, and a crash loop must not wear out the flash.

Which boards get here after a watchdog reset or a brown-out (CircuitPython's
``port_init``, 9.2.8 and its main branch of 2026-08):

- **RP2040 (the Pico, the MacroPad): never.** The raspberrypi port reports
  no safe-mode reason for either. After a watchdog reset CircuitPython skips
  its safe-mode wait and runs code.py at once, which counts it
  (``microcontroller.cpu.reset_reason`` is ``WATCHDOG``: the
  ``watchdog_resets`` audit); a brown-out reads as a power-on there. On an
  RP2040 this file runs only for the reasons that stay (it prints and
  stays).
- nRF52840 (the Circuit Playground Bluefruit): a watchdog reset while USB
  has power. ESP32-S2/S3: a brown-out or the interrupt watchdog. SAMD21/51:
  a brown-out. These are restarted here.
"""

import microcontroller
import supervisor

RESTART = ("BROWNOUT", "WATCHDOG")  # SafeModeReason names that mean "just start again"


def reason_name(sup):
    try:
        reason = sup.runtime.safe_mode_reason
        names = sup.SafeModeReason
    except Exception:
        return None
    for name in RESTART:
        if reason == getattr(names, name, object()):
            return name
    return None


def record(mc, name):
    """One audits record: a safe-mode restart (and a watchdog reset if so)."""
    try:
        from nimatron.machine.audits import Audits
        from nimatron.machine.store import Store

        store = Store(nvm=mc.nvm)
        audits = Audits(store.load()["audits"], store)
        audits.count("safe_mode_restarts")
        if name == "WATCHDOG":
            audits.count("watchdog_resets")
        return audits.save()
    except Exception as e:  # restarting matters more than counting
        print("safe mode not recorded: %r" % e)
        return False


def main(mc=microcontroller, sup=supervisor):
    name = reason_name(sup)
    print("safe mode: %s" % (name or "stay (needs a person)"))
    if name is not None:
        record(mc, name)
        mc.reset()


if __name__ == "__main__":
    main()
