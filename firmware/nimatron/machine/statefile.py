# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Is this path ours to keep state in, and is this process its one owner?
(a PC or a Pi; never on a board)

``--nvm`` (the simulator's flash) and ``--state`` (a Pi's audits and SET
changes) are rewritten on every save. A path given by mistake must not be
destroyed: ``--nvm /dev/null`` once replaced the system's /dev/null, a
text file became a file of records, a FIFO hung the
program. Three verdicts (``verdict``):

- ``ours``: missing (in a folder that exists), empty, blank flash (all
  0xFF) or whole records of the store's and nothing else;
- ``damaged``: ours, but something in it was lost: zeroed or blanked by a
  power cut, a flipped or torn header, garbage after a record, bytes that
  are mostly 0x00/0xFF. The machine still starts (a damaged file must never
  darken the exhibit): a copy is kept aside (``keep_aside``), the store
  reads what it can, the loss is reported;
- ``foreign``: someone else's: a link, a folder, a device or FIFO, text,
  more bytes than any state this store writes (``LIMIT``). Refused in one
  line, untouched.

Another writer: two programs on one file lose each other's saves (last
writer wins: 13 of 24 games lost on a Pi, 399 of 798 in two simulators).
``Owner`` holds ``PATH.lock`` with ``flock`` for the process's life; the
lock file is never replaced or removed (the state file is replaced by
rename on every save, so a lock on it would not outlive the first save).
"""

from .reading import scan
from .records import BLANK, KINDS, MAGIC, MAGIC2, MAX_PAYLOAD, SCANNED

LIMIT = 65536  # bytes: more than any state this store writes (two records of at most 2012)


def _flags(os, *names):
    out = 0
    for name in names:
        out |= getattr(os, name, 0)
    return out


TRIES = 3  # an I/O error (a flaky SD card) is tried this many times in all before it counts

# Errors that answer the question (tried again, they say the same): never tried again.
_ANSWERS = (
    "ENOENT",
    "ELOOP",
    "EISDIR",
    "ENOTDIR",
    "EACCES",
    "EPERM",
    "ENAMETOOLONG",
    "ENXIO",
    "EEXIST",
    "EROFS",
    "ENOSPC",
    "EWOULDBLOCK",
    "EAGAIN",
    "EBADF",
)


def answer(e):
    """True if the OSError ``e`` is an answer (no such file, a link, no
    permission...), False if it is a fault that may pass (EIO)."""
    import errno

    code = getattr(e, "errno", None)
    if code is None:
        return True
    for name in _ANSWERS:
        if code == getattr(errno, name, None):
            return True
    return False


def again(call, said=None, what="", tries=TRIES):
    """``call()``, tried again when it fails with a fault rather than an
    answer (``answer``), ``tries`` times in all; each failure tried again
    is said in ``said`` (a list of sentences). The last failure raises."""
    for n in range(tries):
        try:
            return call()
        except OSError as e:
            if answer(e) or n == tries - 1:
                raise
            if said is not None:
                said.append("%s: %s; tried again (a failing disk or SD card?)" % (what, e.strerror or e))
    raise OSError("no tries")  # tries < 1


def read_head(path, said=None):
    """(size, the first LIMIT + 1 bytes) of ``path``, never following a link
    nor blocking on a FIFO; OSError if it cannot be read. A fault (EIO) is
    tried again (``again``), said in ``said``."""
    return again(lambda: _read_head(path), said, "reading %s" % _name(path))


def _read_head(path):
    import os

    fd = os.open(path, os.O_RDONLY | _flags(os, "O_NOFOLLOW", "O_NONBLOCK", "O_CLOEXEC"))
    try:
        size = os.fstat(fd).st_size
        data = b""
        while len(data) <= LIMIT:
            more = os.read(fd, LIMIT + 1 - len(data))
            if not more:
                break
            data += more
        return size, data
    finally:
        os.close(fd)


def _text(data):
    try:
        words = data.decode("utf-8")
    except UnicodeError:
        return False
    for c in words:
        if not (c.isprintable() or c in "\t\n\r\f\v"):
            return False
    return True


def _header_like(data):
    """Two of a record header's three marks at its start: the magic byte, a
    kind the store writes, a length it could write (after the commit mark,
    in a record of this version). One flipped byte, or a header torn from
    its record, keeps two; text never has the length."""
    for at, magic in ((0, MAGIC), (1, MAGIC2)):
        head = data[at : at + 4]
        if len(head) < 4:
            if head[:1] == bytes([magic]) and (len(head) < 2 or head[1] in SCANNED):
                return True
            continue
        length = head[2] | (head[3] << 8)
        if (head[0] == magic) + (head[1] in SCANNED) + (length <= MAX_PAYLOAD) >= 2:
            return True
    return False


def verdict(data, size=None, what="state"):
    """("ours" | "damaged" | "foreign", words) for a file's bytes.

    ``words`` says what was found (for the note or the refusal). ``what``:
    ``"state"`` (a Pi's file, replaced whole: blank bytes are damage) or
    ``"nvm"`` (a flash sector: blank bytes are its empty tail).
    """
    size = len(data) if size is None else size
    if size > LIMIT:
        return "foreign", "more than any Nimatron's %s" % what
    if not data:
        return ("ours", "") if what == "nvm" else ("damaged", "no bytes at all")
    records, end, clean, damaged = scan(data)
    blank = data.count(BLANK)
    zeros = data.count(0)
    if records:
        if clean and not damaged and (what == "nvm" or end == len(data)):
            return "ours", ""
        return "damaged", "unreadable bytes beside %d record%s" % (len(records), "" if len(records) == 1 else "s")
    if blank == len(data):
        return ("ours", "") if what == "nvm" else ("damaged", "blank bytes (0xFF) only")
    if zeros == len(data):
        return "damaged", "zero bytes only (what a power cut can leave)"
    if _text(data):
        return "foreign", "text"
    if _header_like(data):
        return "damaged", "a record's header but no whole record"
    if (blank + zeros) * 4 >= len(data) * 3:
        return "damaged", "mostly zero and blank bytes (a torn write or erase)"
    return "foreign", "no record of a Nimatron's"


def problem(path, what="state", said=None):
    """None if ``path`` may hold the store; else one sentence saying why not
    (what a person must change: a link, a folder, someone else's file, no
    permission).

    A damaged file of ours is no problem here: see ``examine``. Nor is a
    file that cannot be read for a fault (EIO): it is tried again (said in
    ``said``), and if it still fails the store keeps it aside and plays
    (``files.OsFiles.read``): a fault at start never darkens the exhibit."""
    import os
    import stat

    try:
        st = again(lambda: os.lstat(path), said, "examining %s" % _name(path))
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            return "%s: the folder %s does not exist" % (path, folder)
        return None
    except OSError as e:
        return "%s: %s" % (path, e.strerror or e) if answer(e) else None
    if stat.S_ISLNK(st.st_mode):
        return "%s is a symbolic link: name the file itself" % path
    if stat.S_ISDIR(st.st_mode):
        return "%s is a folder, not a %s file" % (path, what)
    if not stat.S_ISREG(st.st_mode):
        return "%s is not a regular file (a device, FIFO or socket): it cannot hold %s" % (path, what)
    try:
        size, data = read_head(path, said)
    except OSError as e:
        return "%s: %s" % (path, e.strerror or e) if answer(e) else None
    if verdict(data, size, what)[0] == "foreign":
        return "%s holds %d bytes that are not a Nimatron's %s: move it away or name another file" % (path, size, what)
    return None


def keep_aside(path, data, word="damaged"):
    """Copy ``data`` (the bytes of ``path``) to ``PATH.WORD-N``, the first N
    free (made exclusively: nothing there is overwritten, no link followed);
    an earlier copy of the same bytes is reused. The copy's name, or None."""
    import os

    for n in range(1, 100):
        aside = "%s.%s-%d" % (path, word, n)
        try:
            fd = os.open(aside, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _flags(os, "O_NOFOLLOW", "O_CLOEXEC"), 0o644)
        except FileExistsError:
            try:
                if read_head(aside)[1] == data:
                    return aside  # kept aside at an earlier start that could not replace the file
            except OSError:
                pass  # a link or something unreadable: not ours, left alone
            continue
        except OSError:
            return None
        try:
            with open(fd, "wb", closefd=False) as f:  # every byte written, or OSError (a PC's file object)
                f.write(data)
            os.fsync(fd)
        except OSError:
            return None
        finally:
            os.close(fd)
        return aside
    return None


def set_aside(path, word):
    """``path`` renamed ``PATH.WORD-N``, the first N with nothing there (not
    even a link); the new name, or None. For a file that cannot be read: its
    bytes are kept whole where a copy could not be made."""
    import os

    for n in range(1, 100):
        aside = "%s.%s-%d" % (path, word, n)
        try:
            os.lstat(aside)
            continue
        except FileNotFoundError:
            pass
        except OSError:
            continue
        try:
            os.rename(path, aside)
            return aside
        except OSError:
            return None
    return None


def _name(path):
    import os

    return os.path.basename(path)


def examine(path, what="state", said=None):
    """With the lock held, before the store opens ``path``: a note (one
    sentence) if the file is ours but damaged, a copy then kept aside; else
    None. The file stays where it is for the store to read what it can (and
    replace at its next save). Never raises."""
    try:
        size, data = read_head(path, said)
    except OSError:
        return None  # missing (ours to create) or unreadable (the store will say)
    kind, words = verdict(data, size, what)
    if kind != "damaged":
        return None
    name = _name(path)
    if not data:
        return "%s was empty (a power cut before its bytes reached the disk?): started from factory" % name
    records = scan(data)[0]
    start = "started from its readable records" if records else "started from factory"
    aside = keep_aside(path, data)
    if aside is None:
        return "%s held %d bytes: %s; it could not be kept aside; %s" % (name, size, words, start)
    return "%s held %d bytes: %s; kept aside as %s, %s" % (name, size, words, _name(aside), start)


class Owner:
    """This process's hold on a state file, for its life.

        owner = Owner("/var/lib/nimatron/state.bin")
        why = owner.take()     # None, or one sentence: what a person must change
        owner.note             # None, or what went wrong that did not stop the start
        ...
        owner.close()          # or the process ends: the kernel lets go

    ``flock(LOCK_EX | LOCK_NB)`` on ``PATH.lock``, opened without following
    a link (a planted link is refused, its target untouched). The lock
    file is ours by its name, whatever its bytes: ``flock`` says whether
    another Nimatron holds it, never what the file holds (a power cut
    leaves zeros in a file written without fsync, a flipped bit a letter).
    Refused: a link, something that is not a regular file, and a file with
    other names (a hard link to someone's file would take our process id).
    The lock file holds the owner's process id, for a refusal to name it;
    it is never removed (removing a lock file lets a third process lock a
    new one). A fault (EIO) is tried again; one that lasts, or a lock the
    file system cannot give, is a note and the machine plays unguarded.
    """

    def __init__(self, path):
        self.path = path
        self.lock = path + ".lock"
        self.fd = None
        self.notes = []  # what went wrong without stopping the start (warnings, not losses)

    @property
    def note(self):
        return "; ".join(self.notes) if self.notes else None

    def _unguarded(self, why):
        self.notes.append("%s %s: a second Nimatron would not be noticed" % (self.lock, why))

    def take(self):
        import errno
        import os
        import stat

        try:
            import fcntl
        except ImportError:  # not a POSIX system: play, unguarded
            self._unguarded("cannot be locked here (no flock)")
            return None

        said = self.notes
        name = _name(self.lock)
        flags = os.O_RDWR | os.O_CREAT | _flags(os, "O_NOFOLLOW", "O_NONBLOCK", "O_CLOEXEC")
        try:
            fd = again(lambda: os.open(self.lock, flags, 0o644), said, "opening " + name)
        except OSError as e:
            if e.errno == errno.ELOOP:
                return "%s is a symbolic link: a Nimatron's lock file never is (remove the link)" % self.lock
            if e.errno == errno.EISDIR:
                return "%s is a folder: a Nimatron's lock file never is (move it away)" % self.lock
            if e.errno not in (errno.EROFS, errno.EACCES, errno.EPERM, errno.ENOSPC):
                self._unguarded("cannot be opened (%s)" % (e.strerror or e))
                return None
            try:  # a read-only folder: lock the file if it is there, else play unlocked
                fd = again(
                    lambda: os.open(self.lock, os.O_RDONLY | _flags(os, "O_NOFOLLOW", "O_NONBLOCK", "O_CLOEXEC")),
                    said,
                    "opening " + name,
                )
            except OSError:
                self._unguarded("cannot be made (%s)" % (e.strerror or e))
                return None
        try:
            st = again(lambda: os.fstat(fd), said, "examining " + name)
        except OSError as e:
            os.close(fd)
            self._unguarded("cannot be examined (%s)" % (e.strerror or e))
            return None
        if not stat.S_ISREG(st.st_mode):
            os.close(fd)
            return "%s is not a regular file: it cannot be a Nimatron's lock (move it away)" % self.lock
        if st.st_nlink != 1:
            os.close(fd)  # a hard link to someone's file: never truncated
            return "%s has other names (a hard link to another file): it cannot be a Nimatron's lock (move it away)" % (
                self.lock
            )
        try:
            held = again(lambda: os.pread(fd, 33, 0), said, "reading " + name)
        except OSError:
            held = None  # who holds it cannot be said: the lock is the truth anyway
        pid = held.strip() if held is not None and len(held) <= 32 and held.strip().isdigit() else None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as e:
            os.close(fd)
            if e.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                who = " (process %s)" % pid.decode() if pid else ""
                return "%s: another Nimatron is using it%s; one file, one machine" % (self.path, who)
            self._unguarded("cannot be locked (%s)" % (e.strerror or e))
            return None
        self.fd = fd
        if held and pid is None:
            said.append(
                "%s held %s, not a process id (what a power cut or a torn write leaves): "
                "rewritten (the lock is flock's, whatever the file holds)"
                % (name, "%d bytes" % st.st_size if st.st_size != 1 else "1 byte")
            )
        try:
            os.ftruncate(fd, 0)
            os.pwrite(fd, b"%d\n" % os.getpid(), 0)
        except OSError as e:
            if not answer(e):  # read-only (EBADF, EROFS): the lock holds all the same, nothing to say
                said.append(
                    "%s: our process id could not be written (%s): the lock holds all the same"
                    % (name, e.strerror or e)
                )
        return None

    def close(self):
        if self.fd is not None:
            import os

            os.close(self.fd)  # the lock goes with its last descriptor
            self.fd = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def newest_records(data):
    """The newest whole record of each kind in ``data``, audits first, as
    one image (what a compaction would write)."""
    best = {}  # type: dict  # kind -> (seq, raw)
    for kind, seq, _payload, raw in scan(data)[0]:
        if kind in KINDS and (kind not in best or seq > best[kind][0]):
            best[kind] = (seq, raw)
    out = b""
    for kind in KINDS:
        if kind in best:
            out += best[kind][1]
    return out
