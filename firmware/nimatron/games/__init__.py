# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The games: rule sets (one small class each), their theories and
tables, the search engine (``strategy``) and the words that explain a move.
Pure Python; knows nothing of lamps or buttons.
"""
