# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The machine: the game flow (``controller``), its buttons (debouncing,
stuck switches), the operator menu, audits, sound, storage and start-up.
"""
