# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The host link: the line protocol, its commands, and the transports
(USB serial on a board, a serial port or pseudo-terminal on a Pi).
"""
