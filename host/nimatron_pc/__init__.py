# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What the PC-side packages share, so that neither has to import the other.

The simulator (``nimatron_sim``, with its faces) and the host tools
(``nimatron_host``) both stand on the firmware (``nimatron``); both report
bad input and failed commands the same way. Those two errors live here:
the simulator no longer imports the host's command line to raise them, and
the import graph has no circle (``tests/test_layers.py``).
"""
