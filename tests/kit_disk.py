# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A disk that fails as a real one does (the kind "the file system
refuses"): the store tests' model of a file system with a fault set at
will, shared by the store's fault tests and the test of events reaching
the host while the disk fails."""

import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "simulator", "nimatron_sim"))  # flash.py

from flash import ModelFiles  # noqa: E402


class FaultFiles(ModelFiles):
    """ModelFiles whose operations fail as a real disk's do while ``fault`` is set:
    (operation, errno) raises OSError there; ("short", errno) writes half, then raises."""

    def __init__(self):
        super().__init__()
        self.fault = None

    def _maybe(self, op):
        if self.fault is not None and self.fault[0] == op:
            raise OSError(self.fault[1], os.strerror(self.fault[1]))

    def create(self, path, data):
        if self.fault is not None and self.fault[0] == "short":
            super().create(path, data[: len(data) // 2])
            raise OSError(self.fault[1], os.strerror(self.fault[1]))
        self._maybe("create")
        super().create(path, data)

    def fsync(self, path):
        self._maybe("fsync")
        super().fsync(path)

    def rename(self, src, dst):
        self._maybe("rename")
        super().rename(src, dst)

    def fsync_dir(self, path):
        self._maybe("fsync_dir")
        super().fsync_dir(path)

    def restarted(self):
        """The disk a restart finds (what was made durable), faults as they were."""
        out = FaultFiles()
        cut = self.after_cut()
        out.names, out.durable, out.data, out.synced, out.inodes = (
            cut.names,
            cut.durable,
            cut.data,
            cut.synced,
            cut.inodes,
        )
        out.fault = self.fault
        return out
