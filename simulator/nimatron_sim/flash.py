# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""A flash sector that fails as the RP2040's does: the simulator's nvm.

    nvm = FlashNvm.open("nvm.bin")      # the same 4096 bytes as a board's nvm
    nvm[0:12] = record                  # into blank bytes: programmed, byte by byte
    nvm[0:4096] = image                 # anything else: erase the sector, then program it

    power = Power(cut_at=7)             # tests: the power fails at the 8th step
    nvm = FlashNvm(power=power); files = ModelFiles(power)
    ...; files.after_cut()              # what a restart would find on the disk

Modelled on CircuitPython's ``nvm.ByteArray`` for the RP2040: a write whose
target bytes are all blank (0xFF) only programs them (bits go 1 -> 0);
any other write copies the sector, erases it and programs it back. Every
byte programmed and every half of the erase is a *step*; with ``cut_at``
set, the power fails at that step (``PowerCut``), leaving the bytes as the
flash would: a prefix programmed, or a sector half erased. ``ModelFiles``
is the same for a file system (``nimatron.machine.store``'s file port): what was
not fsynced is lost (or half there) when the power fails, and a rename is
lost unless its folder was fsynced.

With ``tear`` (anything with ``getrandbits``, e.g. ``random.Random(1)``)
the cuts are NOR flash's own: a program is one step per 256-byte page, and
a cut in it leaves that page's bits that were going 1 -> 0 each done or not,
at random; an erase is one step, and a cut in it leaves every 0 bit of the
sector erased or not, at random (a real chip's half-erased sector). That is
how ``nimatron soak`` cuts the power.

Plain Python in the MicroPython subset, so the store's tests run it under
the MicroPython unix port too.
"""

SIZE = 4096
BLANK = 0xFF
PAGE = 256  # the flash programs a page at a time


class PowerCut(BaseException):
    """The power failed mid-operation: a BaseException, so no ``except
    Exception`` in the firmware can carry on as if it had not happened."""


class Power:
    """Counts the steps of storage operations; fails at step ``cut_at``."""

    def __init__(self, cut_at=None):
        self.steps = 0
        self.cut_at = cut_at

    def step(self):
        if self.cut_at is not None and self.steps >= self.cut_at:
            raise PowerCut("power cut at step %d" % self.steps)
        self.steps += 1


class FlashNvm:
    def __init__(self, data=None, size=SIZE, path=None, power=None, tear=None):
        self.data = bytearray(data) if data is not None else bytearray(b"\xff" * size)
        self.path = path
        self.power = power if power is not None else Power()
        self.tear = tear
        self.erases = 0
        self.programmed = 0
        self.notes = []  # what ``open`` found (said by the store's ``load``)
        self.lost = []  # the kinds ``open`` may have lost (``load`` names them)

    @classmethod
    def open(cls, path, size=SIZE, said=None):
        """The nvm held in ``path`` (created blank if missing).

        A file of another size is not cut to fit in silence: it may be
        another version's image. It is kept aside as ``PATH.other-N`` (a new
        name, never overwriting anything), the sector starts blank with the
        newest readable record of each kind carried over, and ``notes`` says
        so (the store reports it as a loss). If it cannot be kept aside,
        OSError: the file is left as it was.

        A fault at start never darkens the exhibit: a read error (EIO) is
        tried again (said in ``said``); a file that stays unreadable is
        renamed ``PATH.unreadable-N``, the sector starts blank and every kind
        is ``lost`` (the link sealed); a first write that fails is said and
        done again by the next save.
        """
        import os

        from nimatron.machine.statefile import answer, keep_aside, newest_records, read_head, set_aside

        notes = []
        lost = []
        new = False
        try:
            held, data = read_head(path, said)
        except FileNotFoundError:
            held, data, new = 0, b"", True
        except OSError as e:
            if answer(e):
                raise
            aside = set_aside(path, "unreadable")
            notes.append(
                "%s could not be read (%s): %s; started blank"
                % (
                    os.path.basename(path),
                    e.strerror or e,
                    "kept aside as %s" % os.path.basename(aside) if aside else "it could not be kept aside",
                )
            )
            lost = ["audits", "settings"]
            held, data, new = 0, b"", True  # said above: not "was empty" as well
        if held > len(data):
            raise OSError("it holds %d bytes: too many to be kept aside whole" % held)
        image = data
        if held == 0 and not new:
            notes.append(
                "%s was empty (cut short: this program writes the whole sector): whatever it held "
                "is lost, started from factory" % os.path.basename(path)
            )
            lost = ["audits", "settings"]
        elif held not in (0, size):
            aside = keep_aside(path, data, "other")
            if aside is None:
                raise OSError("it holds %d bytes, not %d, and could not be kept aside" % (held, size))
            image = newest_records(data)
            # Cut short or another version's: its newest records may be past the end, or
            # older than ones it lost. Every kind may be lost (an older settings record
            # brought back without the PIN that followed it).
            lost = ["audits", "settings"]
            notes.append(
                "%s held %d bytes, not %d (cut short, or another version's image): kept aside as %s, "
                "%s; the newest audits and settings may be lost"
                % (
                    os.path.basename(path),
                    held,
                    size,
                    os.path.basename(aside),
                    "its newest readable records carried over" if image else "no record in it was readable",
                )
            )
        nvm = cls(image + b"\xff" * (size - len(image)), size, path)
        nvm.notes = notes
        nvm.lost = lost
        if held != size:
            try:
                nvm.flush()
            except OSError as e:
                if answer(e) or said is None:
                    raise
                said.append(
                    "%s could not be written (%s): the next save writes it" % (os.path.basename(path), e.strerror or e)
                )
        return nvm

    def keep(self, word="other"):
        """Copy the sector's file as it is now to ``PATH.WORD-N`` (``statefile.keep_aside``):
        a record the store cannot read is kept before a compaction drops it. Its name, or None."""
        if not self.path:
            return None
        from nimatron.machine.statefile import keep_aside

        return keep_aside(self.path, bytes(self.data), word)

    def flush(self):
        """Keep the bytes in the file (the board's flash keeps them itself).

        Written in place, never through a temporary file renamed over it:
        nothing beside the file is ever written (a link planted at
        ``NVM.tmp`` once had a foreign file overwritten), and a link put in
        the file's place is refused (``O_NOFOLLOW``), never written through.
        One sector's bytes in one write: only the PC's own power cut could
        tear them, which the flash model does anyway."""
        if not self.path:
            return
        import os

        if not hasattr(os, "pwrite"):  # MicroPython's unix port: tests only, no links planted there
            with open(self.path, "wb") as f:
                f.write(self.data)
            return
        flags = os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        fd = os.open(self.path, flags, 0o666)
        try:
            data = bytes(self.data)
            done = 0
            while done < len(data):
                done += os.pwrite(fd, data[done:], done)
            os.ftruncate(fd, len(data))  # another version's longer image: cut only after it was kept aside
        finally:
            os.close(fd)

    def __len__(self):
        return len(self.data)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return bytes(self.data[index])
        return self.data[index]

    def __setitem__(self, index, values):
        if not isinstance(index, slice):
            index = slice(index, index + 1)
            values = bytes([values])
        start = index.start or 0
        stop = len(self.data) if index.stop is None else index.stop
        values = bytes(values)
        if stop - start != len(values) or start < 0 or stop > len(self.data):
            raise ValueError("nvm slice and value differ in length")
        try:
            blank = True
            for b in self.data[start:stop]:
                if b != BLANK:
                    blank = False
                    break
            if blank:
                self._program(start, values)
            else:
                image = bytearray(self.data)
                image[start:stop] = values
                self._erase()
                self._program(0, image)
        finally:
            self.flush()

    def _program(self, start, values):
        if self.tear is not None:
            return self._program_pages(start, values)
        data = self.data
        for i in range(len(values)):
            v = values[i]
            if v != BLANK:  # programming 0xFF changes nothing: no step
                self.power.step()
                data[start + i] &= v
                self.programmed += 1

    def _program_pages(self, start, values):
        data = self.data
        end = start + len(values)
        page = start - start % PAGE
        while page < end:
            lo = max(start, page)
            hi = min(end, page + PAGE)
            try:
                self.power.step()
            except PowerCut:  # some of the page's bits programmed, the rest not
                for i in range(lo, hi):
                    data[i] &= values[i - start] | self.tear.getrandbits(8)
                raise
            for i in range(lo, hi):
                v = values[i - start]
                data[i] &= v
                self.programmed += v != BLANK
            page += PAGE

    def _erase(self):
        data = self.data
        if self.tear is not None:
            try:
                self.power.step()
            except PowerCut:  # a sector half erased: any 0 bit may have become 1
                for i in range(len(data)):
                    data[i] |= self.tear.getrandbits(8)
                raise
            for i in range(len(data)):
                data[i] = BLANK
            self.erases += 1
            return
        half = len(data) // 2
        self.power.step()
        for i in range(half):  # a cut here: half the sector erased, half as it was
            data[i] = BLANK
        self.power.step()
        for i in range(half, len(data)):
            data[i] = BLANK
        self.erases += 1


class ModelFiles:
    """A file system that loses what was not made durable when the power fails.

    The port of ``nimatron.machine.files.OsFiles``. Each operation is one step of
    ``power``. ``after_cut(keep_renames)`` is the disk a restart finds:
    file contents as last fsynced (a file never fsynced holds the first
    half of what was written), folder entries as of the last ``fsync_dir``
    (or, with ``keep_renames``, as they were: some file systems keep a
    rename without the folder's fsync, so both are tried).
    """

    def __init__(self, power=None):
        self.power = power if power is not None else Power()
        self.names = {}  # path -> inode, as the running system sees them
        self.durable = {}  # path -> inode, as the disk holds them
        self.data = {}  # inode -> bytes written
        self.synced = {}  # inode -> bytes on the disk
        self.inodes = 0

    def read(self, path):
        inode = self.names.get(path)
        return None if inode is None else self.data[inode]

    def keep(self, path, data, word="damaged"):
        """``data`` copied to ``PATH.WORD-N``, the first N free (an equal copy reused), made
        durable (``OsFiles.keep``); its name."""
        n = 1
        while True:
            aside = "%s.%s-%d" % (path, word, n)
            inode = self.names.get(aside)
            if inode is None:
                self.create(aside, data)
                self.fsync(aside)
                self.fsync_dir(aside)
                return aside
            if self.data[inode] == bytes(data):
                return aside
            n += 1

    def create(self, path, data):
        self.power.step()
        self.inodes += 1
        self.data[self.inodes] = bytes(data)
        self.synced[self.inodes] = bytes(data[: len(data) // 2])
        self.names[path] = self.inodes

    def fsync(self, path):
        self.power.step()
        inode = self.names[path]
        self.synced[inode] = self.data[inode]

    def rename(self, src, dst):
        self.power.step()
        self.names[dst] = self.names.pop(src)

    def fsync_dir(self, path):
        self.power.step()
        self.durable = dict(self.names)

    def remove(self, path):
        self.power.step()
        self.names.pop(path, None)

    def clone(self, power=None):
        """The same disk, running, with its own ``power``."""
        out = ModelFiles(power)
        out.names = dict(self.names)
        out.durable = dict(self.durable)
        out.data = dict(self.data)
        out.synced = dict(self.synced)
        out.inodes = self.inodes
        return out

    def after_cut(self, keep_renames=False):
        out = ModelFiles()
        names = self.names if keep_renames else self.durable
        for path in names:
            inode = names[path]
            out.inodes += 1
            out.names[path] = out.inodes
            out.data[out.inodes] = self.synced[inode]
            out.synced[out.inodes] = self.synced[inode]
        out.durable = dict(out.names)
        return out
