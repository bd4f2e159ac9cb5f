# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Panels: how a game's position is laid out on the lamps (rows, a ring,
cells, a counter, Building Nim's supply, Candy Nim's tallies) and
whether a board can show every position of a game (``playable``).
"""
