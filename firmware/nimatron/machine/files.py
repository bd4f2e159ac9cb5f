# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The store's file-system port on ``os`` (``nimatron.machine.store``).

A module of its own so a board keeping its state in nvm alone never
compiles it: the store is imported at every start, this only where a
state file is kept (a Pi, a board whose drive code.py may write).
"""


def _write_all(os, fd, data):
    """``os.write`` until every byte is written (it may write fewer)."""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


class OsFiles:
    """The file-system port on ``os``: CPython, MicroPython and CircuitPython.

    ``create`` never follows a link and never writes into a file it did not
    make (another writer: a link planted at ``STATE.tmp`` once had a foreign
    file overwritten). ``notes`` are losses found before the store opened
    (a damaged file kept aside), for ``load`` to report with its own.
    """

    def __init__(self, os_module=None):
        if os_module is None:
            import os as os_module
        self.os = os_module
        self.notes = []

    def read(self, path):
        try:
            with open(path, "rb") as f:
                return f.read()
        except OSError:
            return None

    def keep(self, path, data, word="damaged"):
        """``data`` (what ``path`` held) copied to ``PATH.WORD-N`` where nothing
        overwrites it (``statefile.keep_aside``): its name, or None if it
        cannot be (a board without ``os.open``: said as not kept)."""
        if not hasattr(self.os, "O_EXCL"):
            return None
        from .statefile import keep_aside

        return keep_aside(path, data, word)

    def create(self, path, data):
        """A new file at ``path`` holding ``data``: whatever was there (a stale
        temporary file, a planted link) is removed first (a link itself, never
        its target), then the file is made exclusively, without following links."""
        os = self.os
        if not hasattr(os, "open") or not hasattr(os, "O_EXCL"):
            with open(path, "wb") as f:  # a board's drive: FAT has no links, one program writes it
                f.write(data)
                f.flush()
            return
        try:
            os.remove(path)
        except OSError:
            pass
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(path, flags, 0o666)
        try:
            _write_all(os, fd, data)
        finally:
            os.close(fd)

    def fsync(self, path):
        fsync = getattr(self.os, "fsync", None)
        if fsync is None:
            sync = getattr(self.os, "sync", None)  # CircuitPython: the whole drive
            if sync is not None:
                sync()
            return
        fd = self.os.open(path, self.os.O_RDONLY)
        try:
            fsync(fd)
        finally:
            self.os.close(fd)

    def rename(self, src, dst):
        if hasattr(self.os, "replace"):
            self.os.replace(src, dst)
            return
        try:  # FAT (CircuitPython) will not rename onto an existing file
            self.os.remove(dst)
        except OSError:
            pass
        self.os.rename(src, dst)

    def fsync_dir(self, path):
        if not hasattr(self.os, "O_DIRECTORY"):
            return self.fsync(path)
        cut = path.rfind("/")
        folder = path[:cut] if cut > 0 else ("/" if cut == 0 else ".")
        fd = self.os.open(folder, self.os.O_RDONLY | self.os.O_DIRECTORY)
        try:
            self.os.fsync(fd)
        finally:
            self.os.close(fd)

    def remove(self, path):
        try:
            self.os.remove(path)
        except OSError:
            pass
