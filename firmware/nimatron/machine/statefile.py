# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Is this path ours to keep state in? (a PC or a Pi; never on a board)

``--nvm`` (the simulator's flash) and ``--state`` (a Pi's audits and SET
changes) are rewritten on every save. A path given by mistake must not be
destroyed: ``--nvm /dev/null`` once replaced the system's /dev/null, a
23,893-byte text file became 4,096 bytes of records, a FIFO hung the
program. A path is ours only if it does not exist yet (in a folder that
does) or is a regular file, not a link, that is empty, blank flash (all
0xFF) or holds the store's own records.
"""

from .store import BLANK, scan


def problem(path, what="state"):
    """None if ``path`` may hold the store; else one sentence saying why not."""
    import os
    import stat

    try:
        st = os.lstat(path)
    except FileNotFoundError:
        folder = os.path.dirname(os.path.abspath(path))
        if not os.path.isdir(folder):
            return "%s: the folder %s does not exist" % (path, folder)
        return None
    except OSError as e:
        return "%s: %s" % (path, e.strerror or e)
    if stat.S_ISLNK(st.st_mode):
        return "%s is a symbolic link: name the file itself" % path
    if stat.S_ISDIR(st.st_mode):
        return "%s is a folder, not a %s file" % (path, what)
    if not stat.S_ISREG(st.st_mode):
        return "%s is not a regular file (a device, FIFO or socket): it cannot hold %s" % (path, what)
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
        try:
            data = os.read(fd, 65537)
        finally:
            os.close(fd)
    except OSError as e:
        return "%s: %s" % (path, e.strerror or e)
    if not data or data.count(BLANK) == len(data):
        return None
    records, tail, clean, damaged = scan(data)
    if not records:
        return ("%s holds %d bytes that are not a Nimatron's %s: move it away or name another file"
                % (path, st.st_size, what))
    return None
