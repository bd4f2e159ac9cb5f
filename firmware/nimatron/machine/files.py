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
        view = view[os.write(fd, view) :]


class OsFiles:
    """The file-system port on ``os``: CPython, MicroPython and CircuitPython.

    ``create`` never follows a link and never writes into a file it did not
    make (another writer: a link planted at ``STATE.tmp`` once had a foreign
    file overwritten). ``notes`` are losses found before the store opened
    (a damaged file kept aside), for ``load`` to report with its own;
    ``lost`` the kinds they may have taken; ``warnings`` faults that cost
    nothing (a read tried again), said at the start all the same.
    """

    def __init__(self, os_module=None):
        if os_module is None:
            import os as os_module
        self.os = os_module
        self.notes = []
        self.lost = []
        self.warnings = []

    def read(self, path):
        """The file's bytes, None if there is none. A read that fails (EIO)
        is tried again (said in ``warnings``); one that keeps failing is a
        fault at start, never a reason to stay dark: the file is kept aside
        (renamed ``PATH.unreadable-N``, for a mended card or a person to
        read), the loss said (``notes``; every kind in ``lost``, so the link
        is sealed) and the store starts from factory."""
        name = path[path.rfind("/") + 1 :]
        error = None
        for n in range(3):  # tries: a flaky SD card's EIO may pass
            try:
                with open(path, "rb") as f:
                    return f.read()
            except OSError as e:
                if getattr(e, "errno", None) == 2:  # ENOENT (the same number on every port)
                    return None
                error = getattr(e, "strerror", None) or str(e)
                if n < 2:
                    self.warnings.append("reading %s: %s; tried again (a failing disk or SD card?)" % (name, error))
        kept = "it could not be kept aside (the next save replaces it)"
        for n in range(1, 100):  # the first free name: nothing is replaced
            aside = "%s.unreadable-%d" % (path, n)
            try:
                self.os.stat(aside)
                continue
            except OSError as e:
                if getattr(e, "errno", None) != 2:
                    continue  # something there that cannot be looked at: never replaced
            try:
                self.os.rename(path, aside)
                kept = "kept aside as " + aside[aside.rfind("/") + 1 :]
            except OSError:
                pass
            break
        self.notes.append("%s could not be read (%s, 3 tries): %s; started from factory" % (name, error, kept))
        for kind in ("audits", "settings"):
            if kind not in self.lost:
                self.lost.append(kind)
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
