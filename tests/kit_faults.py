# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A fault layer under ``os`` for the start (the kind "a fault at start",
docs/reliability.md): the calls the start makes on one folder's files are
counted, and the Nth fails with EIO, as a flaky SD card's would.

    with FailingOs(folder, fail_at=3) as layer:   # the 4th call on the folder fails, once
        ...start...
    layer.calls                                   # how many calls were made (a clean run: the N to sweep)

    FailingOs(folder, fail_at=3, reads_of="state.bin")  # from the 4th call on, every read of that file fails

Patched: ``os.open``, ``read``, ``pread``, ``write``, ``pwrite``, ``fstat``,
``lstat``, ``stat``, ``ftruncate``, ``fsync``, ``rename``, ``replace``,
``remove``, ``unlink``, ``mkdir``, ``link``, ``fcntl.flock`` and
``builtins.open`` (its file's ``read`` and ``write`` too). A call counts if
it names a path in the folder or a descriptor opened on one, except a
call on a path where nothing is (its answer is "no such file" whatever the
disk does); ``os.close`` never fails (a descriptor is let go whatever
happened).
"""

import builtins
import errno
import fcntl
import os

PATH_CALLS = ("open", "lstat", "stat", "rename", "replace", "remove", "unlink", "mkdir", "link")
FD_CALLS = ("read", "pread", "write", "pwrite", "fstat", "ftruncate", "fsync")
WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_TRUNC


class FailingOs:
    def __init__(self, folder, fail_at=None, reads_of=None):
        self.folder = os.path.abspath(str(folder))
        self.fail_at = fail_at
        self.reads_of = reads_of  # None: only call ``fail_at`` fails; else every read of this file from it on
        self.calls = 0
        self.failed = []  # (call number, name, what) of each failure
        self.fds = {}  # descriptor -> (path, opened for reading only)
        self.saved = {}

    # -- which calls are ours ------------------------------------------------
    def _ours(self, path):
        try:
            path = os.fsdecode(path)
        except TypeError:
            return None
        full = os.path.abspath(path)
        return full if full == self.folder or full.startswith(self.folder + os.sep) else None

    def _count(self, name, path, read):
        """Count a call on ``path`` (ours); raise EIO if it is the one to fail."""
        n = self.calls
        self.calls += 1
        if self.fail_at is None:
            return
        if self.reads_of is None:
            fail = n == self.fail_at
        else:
            fail = n >= self.fail_at and read and os.path.basename(path) == self.reads_of
        if fail:
            self.failed.append((n, name, path))
            raise OSError(errno.EIO, os.strerror(errno.EIO), path)

    # -- the patches -----------------------------------------------------------
    def _path_call(self, name, real):
        def call(*args, **kw):
            path = self._ours(args[0]) if args else None
            if path is None and name in ("rename", "replace", "link") and len(args) > 1:
                path = self._ours(args[1])
            if path is None:
                return real(*args, **kw)
            read = name in ("lstat", "stat") or (name == "open" and not (args[1] & WRITE_FLAGS))
            creates = name in ("mkdir", "rename", "replace", "link") or (name == "open" and args[1] & os.O_CREAT)
            if not creates and not self._real_lexists(path):
                return real(*args, **kw)  # nothing there: the answer is "no such file", whatever the disk does
            self._count(name, path, read)
            out = real(*args, **kw)
            if name == "open":
                self.fds[out] = (path, read)
            return out

        return call

    def _real_lexists(self, path):
        try:
            self.saved[(os, "lstat")](path)
            return True
        except OSError:
            return False

    def _fd_call(self, name, real):
        def call(*args, **kw):
            fd = args[0] if args else None
            if not isinstance(fd, int) or fd not in self.fds:
                return real(*args, **kw)
            path, _ = self.fds[fd]
            self._count(name, path, name in ("read", "pread", "fstat"))
            return real(*args, **kw)

        return call

    def _close(self, real):
        def close(fd):
            self.fds.pop(fd, None)
            return real(fd)

        return close

    def _flock(self, real):
        def flock(fd, op):
            fd_no = fd if isinstance(fd, int) else fd.fileno()
            if fd_no in self.fds:
                self._count("flock", self.fds[fd_no][0], False)
            return real(fd, op)

        return flock

    def _builtin_open(self, real):
        layer = self

        class File:
            def __init__(self, f, path):
                self.f = f
                self.path = path

            def read(self, *a):
                layer._count("file.read", self.path, True)
                return self.f.read(*a)

            def write(self, data):
                layer._count("file.write", self.path, False)
                return self.f.write(data)

            def __getattr__(self, name):
                return getattr(self.f, name)

            def __enter__(self):
                return self

            def __exit__(self, *exc):
                self.f.close()

        def opener(file, mode="r", *args, **kw):
            path = self._ours(file) if isinstance(file, (str, bytes, os.PathLike)) else None
            if path is None:
                return real(file, mode, *args, **kw)
            self._count("builtins.open", path, not any(c in mode for c in "wax+"))
            return File(real(file, mode, *args, **kw), path)

        return opener

    def __enter__(self):
        for name in PATH_CALLS:
            self.saved[(os, name)] = getattr(os, name)
            setattr(os, name, self._path_call(name, getattr(os, name)))
        for name in FD_CALLS:
            self.saved[(os, name)] = getattr(os, name)
            setattr(os, name, self._fd_call(name, getattr(os, name)))
        self.saved[(os, "close")] = os.close
        os.close = self._close(os.close)
        self.saved[(fcntl, "flock")] = fcntl.flock
        fcntl.flock = self._flock(fcntl.flock)
        self.saved[(builtins, "open")] = builtins.open
        builtins.open = self._builtin_open(builtins.open)
        return self

    def __exit__(self, *exc):
        for (module, name), real in self.saved.items():
            setattr(module, name, real)
        self.saved = {}
