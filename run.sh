#!/bin/sh
# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
# The main job: the Nimatron on this computer (sets itself up on first run).
# Any arguments go to the `nimatron` command, e.g. ./run.sh solve 3 4 5
set -e
cd "$(dirname "$0")"
. tools/setup.sh
if [ $# -eq 0 ]; then set -- sim; fi
exec .venv/bin/nimatron "$@"
