# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""CircuitPython boot: a second USB serial channel for the operator link.

``usb_cdc.console`` stays the REPL; ``usb_cdc.data`` carries the host
protocol, where a stray Ctrl-C cannot stop code.py. Runs once at power-up
(not on a soft reload); changes here need a hard reset.
"""

import usb_cdc

usb_cdc.enable(console=True, data=True)
