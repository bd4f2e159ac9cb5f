# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The two ways a PC-side command fails, each one line on the terminal.

raise UsageError("--nvm x.txt holds 23893 bytes that are not a Nimatron's nvm")   # exit status 2
raise Failure("no reply from /dev/ttyACM1 in 3 s")                                 # exit status 1
"""


class UsageError(Exception):
    """Bad input from the user: reported in one line, exit status 2."""


class Failure(Exception):
    """A command that could not do its job (no such port, no reply): one line, exit status 1."""
