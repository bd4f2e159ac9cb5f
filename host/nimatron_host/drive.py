# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The drive ``nimatron deploy`` writes to, held open and checked before every write.

A drive is someone else's device and it can change under a deploy: unmounted
(the mount point is then a folder of the host's own disk), swapped for
another board, a link planted where a file is about to go. So:

- the drive is opened once, when the deploy is planned, and every write goes
  through that open folder (``dir_fd``), never through the path: a write
  can only land on the drive that was checked, even if the path now leads
  elsewhere;
- before every write, ``check`` says whether the path still leads to that
  drive: the same device and folder (``os.stat``), still a mount point if it
  was one (its device differs from its parent folder's), and the same
  ``boot_out.txt`` (CIRCUITPY) or ``INFO_UF2.TXT`` (the bootloader drive);
- no link on the drive is ever followed, in a file or in any folder on the
  way to it (``O_NOFOLLOW`` at each step); a link where a write goes stops
  the deploy.

    drive = Drive("/media/me/CIRCUITPY", "boot_out.txt")
    drive.mkdir("lib/nimatron")        # checks first; DriveChanged if it moved
    tmp = drive.stage("lib/nimatron", b"...")
"""

import errno
import os

TEMP_PREFIX = ".nimatron-"
DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
READ_FLAGS = os.O_RDONLY | NOFOLLOW | getattr(os, "O_NONBLOCK", 0)  # a FIFO planted there never blocks a read
MARKER_BYTES = 4096


def device_id(path):
    """The device a path's folder is on (``st_dev``). The one seam the tests
    replace: a real unmount needs root, a fake drive changes this instead."""
    return os.stat(path).st_dev


def read_top(folder, name, limit=MARKER_BYTES):
    """Up to ``limit`` bytes of the plain file ``name`` in ``folder``: OSError
    if it is a link, a folder, a FIFO or unreadable (nothing followed, nothing blocks)."""
    fd = os.open(os.path.join(folder, name), READ_FLAGS)
    try:
        if not _plain(os.fstat(fd)):
            raise OSError(errno.EINVAL, "not a plain file")
        return os.read(fd, limit)
    finally:
        os.close(fd)


class DriveChanged(OSError):
    """The path no longer leads to the drive deploy checked (its ``strerror`` says how)."""

    def __init__(self, how):
        super().__init__(errno.ENODEV, how)


def split(path):
    """(folder parts, name) of a drive-relative path ``a/b/c``."""
    parts = [p for p in path.split("/") if p]
    return parts[:-1], (parts[-1] if parts else "")


class Drive:
    """A drive (or a plain folder) held open from planning to the last write."""

    def __init__(self, path, marker=None):
        self.path = path
        self.real = os.path.realpath(path)
        self.parent = os.path.dirname(self.real) or self.real
        self.fd = os.open(self.real, DIR_FLAGS)
        st = os.fstat(self.fd)
        self.ino = st.st_ino
        self.dev = device_id(self.real)
        self.mounted = self.dev != device_id(self.parent)
        self.marker = marker  # boot_out.txt, INFO_UF2.TXT; None for a folder without one
        self.marker_bytes = self._marker_now() if marker else None
        if self.marker_bytes is None:
            self.marker = None

    def close(self):
        if self.fd is not None:
            os.close(self.fd)
            self.fd = None

    def __del__(self):
        self.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # -- is it still the drive?

    def _marker_now(self, name=None):
        """The marker file's bytes as the path sees it now (None if it is not a plain file there)."""
        try:
            return read_top(self.real, name or self.marker)
        except OSError:
            return None

    def changed(self):
        """How the path no longer leads to this drive, in a few words; None if it still does."""
        try:
            st = os.stat(self.real)
            dev, parent = device_id(self.real), device_id(self.parent)
        except OSError as e:
            return "is gone (%s)" % (e.strerror or e)
        if self.mounted and dev == parent:
            return "was unmounted (%s is a folder of the disk it was mounted on)" % self.path
        if dev != self.dev or st.st_ino != self.ino:
            return "was swapped: another drive is at %s now (device %s, was %s)" % (self.path, dev, self.dev)
        if self.marker and self._marker_now() != self.marker_bytes:
            return "holds another %s now (another board?)" % self.marker
        return None

    def check(self, doing, path=""):
        """DriveChanged unless the path still leads to this drive; called
        before every write (``doing`` ``path`` says which, for the tests)."""
        how = self.changed()
        if how is not None:
            raise DriveChanged("the drive %s" % how)

    # -- no-follow access, relative to the open drive

    def folder(self, parts):
        """A descriptor of the folder ``parts`` below the drive, no link followed."""
        fd = os.dup(self.fd)
        try:
            for part in parts:
                nxt = os.open(part, DIR_FLAGS, dir_fd=fd)
                os.close(fd)
                fd = nxt
        except OSError as e:
            os.close(fd)
            if e.errno in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                raise OSError(e.errno, "%s is a link or not a folder" % "/".join(parts)) from e
            raise
        return fd

    def at(self, path, op):
        """``op(folder descriptor, name)`` for a drive-relative path, its
        folders walked without following a link."""
        parts, name = split(path)
        fd = self.folder(parts)
        try:
            return op(fd, name)
        finally:
            os.close(fd)

    def lstat(self, path):
        """``os.lstat`` of a drive-relative path (None if it is not there); no folder link followed."""
        try:
            return self.at(
                path, lambda fd, name: os.stat(name, dir_fd=fd, follow_symlinks=False) if name else os.fstat(fd)
            )
        except OSError:
            return None

    def read(self, path):
        """The bytes of a plain file on the drive, or None (missing, a link, a folder, unreadable)."""
        try:
            f = self.at(path, lambda fd, name: os.open(name, READ_FLAGS, dir_fd=fd))
        except OSError:
            return None
        try:
            if not _plain(os.fstat(f)):
                return None
            chunks = []
            while True:
                chunk = os.read(f, 1 << 16)
                if not chunk:
                    return b"".join(chunks)
                chunks.append(chunk)
        except OSError:
            return None
        finally:
            os.close(f)

    def is_file(self, path):
        st = self.lstat(path)
        return st is not None and _plain(st)

    # -- writes: each checks first

    def mkdir(self, path):
        self.check("mkdir", path)
        self.at(path, lambda fd, name: os.mkdir(name, dir_fd=fd))

    def stage(self, folder, data):
        """Write ``data`` to a new temporary file in ``folder``; its drive-relative path."""
        self.check("stage", folder)
        name = "%s%s.tmp" % (TEMP_PREFIX, os.urandom(6).hex())

        def write(fd, _):
            f = os.open(name, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o644, dir_fd=fd)
            try:
                _write_all(f, data)
            except BaseException:
                os.close(f)
                f = None
                _unlink(name, fd)
                raise
            finally:
                if f is not None:
                    os.close(f)

        self.at(folder + "/" + name if folder else name, write)
        return (folder + "/" + name) if folder else name

    def rename(self, src, dst, check=True, plain=False):
        """Move ``src`` to ``dst`` on the drive (neither followed if a link);
        ``plain``: only if ``src`` is a plain file (checked after the drive)."""
        if check:
            self.check("rename", dst)
        if plain and not self.is_file(src):
            raise OSError(errno.EEXIST, "%s became a link or a folder during the deploy" % src)
        self.at(src, lambda sfd, sn: self.at(dst, lambda dfd, dn: os.replace(sn, dn, src_dir_fd=sfd, dst_dir_fd=dfd)))

    def unlink(self, path, check=True):
        if check:
            self.check("unlink", path)
        self.at(path, lambda fd, name: os.unlink(name, dir_fd=fd))

    def rmdir(self, path):
        self.at(path, lambda fd, name: os.rmdir(name, dir_fd=fd))

    def write_file(self, name, data):
        """Write ``data`` to ``name`` at the top of the drive in place (the
        bootloader drive takes no temporary names): never through a link,
        never into a file with other names (a hard link)."""
        self.check("write", name)
        f = os.open(name, os.O_WRONLY | os.O_CREAT | NOFOLLOW, 0o644, dir_fd=self.fd)
        try:
            st = os.fstat(f)
            if not _plain(st) or st.st_nlink != 1:
                raise OSError(errno.EEXIST, "%s is there already with another name (a hard link)" % name)
            os.ftruncate(f, 0)
            _write_all(f, data)
        finally:
            os.close(f)


def _plain(st):
    import stat

    return stat.S_ISREG(st.st_mode)


def _write_all(f, data):
    view = memoryview(data)
    while view:
        view = view[os.write(f, view) :]
    os.fsync(f)


def _unlink(name, fd):
    try:
        os.unlink(name, dir_fd=fd)
    except OSError:
        pass
