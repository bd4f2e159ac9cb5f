# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""What a machine is configured as: board pin maps (``pinmaps/``),
presets (``presets.json``), checked settings and the power budget.
"""
