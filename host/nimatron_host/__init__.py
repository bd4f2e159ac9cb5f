# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Host-side tools for the Nimatron: the ``nimatron`` command and its helpers."""
