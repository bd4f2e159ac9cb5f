# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The host-link protocol under the real MicroPython interpreter (run by pytest).

    MICROPYPATH=firmware micropython -X heapsize=96K tests/mpy/run_protocol.py fake
    MICROPYPATH=build micropython -X heapsize=128K tests/mpy/run_protocol.py real

Every command once through ``HostLink.poll`` over an in-memory cable that
takes 64 bytes a write, then noise (random bytes, overlong lines, lines cut
in half, bytes over 0x7f); the machine must still answer HELLO and the game
and its settings must be where they were. Prints one line per check; exits
1 on any failure.

``fake``: the link with a stand-in for the controller (the link, protocol
and commands modules compile from source: 66K at least, 96K in the test;
the real controller module does not fit beside them). ``real``: the real Controller built by
``app.make_controller``, imported from ``.mpy`` files (tests/test_protocol.py
compiles them with mpy-cross); link and game together need about 75K.
"""

import gc
import sys

from protocol_checks import main  # compiled first, while the heap is empty

if sys.argv[1:] not in (["fake"], ["real"]):
    print(__doc__)
    sys.exit(2)
# Then the link, innermost module first: each compiles while the heap has room.
gc.collect()
import nimatron.link.protocol  # noqa: E402

gc.collect()
import nimatron.link.play  # noqa: E402

gc.collect()
import nimatron.link.commands  # noqa: E402

gc.collect()
import nimatron.link.hostlink  # noqa: E402,F401

if not main(sys.argv[1:] == ["real"]):
    sys.exit(1)
