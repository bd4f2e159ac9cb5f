# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""Paths that are not ours are refused, untouched (``--nvm``, ``--state``,
output folders): one line, exit status 2.

Found by a probe: a 23,893-byte text file given as ``--nvm`` became 4,096
bytes of records; as root ``--nvm /dev/null`` replaced the system's
/dev/null with a plain file; a FIFO hung the program; ``sim --screenshot``
and ``hardware --out`` created any missing folder.
"""

import os
import subprocess
import sys

import pytest

EXE = os.path.join(os.path.dirname(sys.executable), "nimatron")


def run(*args, timeout=60):
    return subprocess.run([EXE] + list(args), capture_output=True, text=True, timeout=timeout, stdin=subprocess.DEVNULL)


def pi(*args, timeout=60):
    return subprocess.run(
        [sys.executable, "-m", "nimatron", "--board", "pi-leds", "--quiet"] + list(args),
        capture_output=True,
        text=True,
        timeout=timeout,
        stdin=subprocess.DEVNULL,
    )


def fingerprint(path):
    st = os.lstat(path)
    data = b""
    if os.path.isfile(path) and not os.path.islink(path):
        with open(path, "rb") as f:
            data = f.read()
    return st.st_ino, st.st_mode, data


def cases(tmp_path):
    text = tmp_path / "notes.txt"
    text.write_text("the museum's opening hours\n" * 900)
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    link = tmp_path / "link.bin"
    link.symlink_to(text)
    folder = tmp_path / "folder"
    folder.mkdir()
    return {
        "a text file": (str(text), "holds 24300 bytes that are not a Nimatron's"),
        "a FIFO": (str(fifo), "is not a regular file (a device, FIFO or socket)"),
        "a device": ("/dev/null", "is not a regular file (a device, FIFO or socket)"),
        "a symbolic link": (str(link), "is a symbolic link: name the file itself"),
        "a folder": (str(folder), "is a folder"),
        "a missing folder": (str(tmp_path / "nope" / "nvm.bin"), "the folder %s does not exist" % (tmp_path / "nope")),
    }


@pytest.mark.parametrize(
    "case", ["a text file", "a FIFO", "a device", "a symbolic link", "a folder", "a missing folder"]
)
def test_nvm_that_is_not_ours_is_refused_untouched(tmp_path, case):
    path, words = cases(tmp_path)[case]
    before = fingerprint(path) if os.path.lexists(path) else None
    out = run("sim", "--headless", "--nvm", path, "--script", os.devnull)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and words in out.stderr and "Traceback" not in out.stderr, out.stderr
    assert (fingerprint(path) if os.path.lexists(path) else None) == before


@pytest.mark.parametrize("case", ["a text file", "a FIFO", "a symbolic link", "a folder"])
def test_a_pis_state_file_that_is_not_ours_is_refused_untouched(tmp_path, case):
    path, words = cases(tmp_path)[case]
    before = fingerprint(path)
    out = pi("--state", path)
    assert out.returncode == 2 and words in out.stderr, out.stderr
    assert fingerprint(path) == before


def test_our_own_nvm_a_blank_one_and_an_empty_file_are_accepted(tmp_path):
    script = tmp_path / "script.txt"
    script.write_text("press new\n")
    nvm = tmp_path / "nvm.bin"
    assert run("sim", "--headless", "--nvm", str(nvm), "--script", str(script)).returncode == 0  # created
    first = nvm.read_bytes()
    assert first[:2] == b"\x00n" and len(first) == 4096  # a commit-marked record first
    assert run("sim", "--headless", "--nvm", str(nvm), "--script", str(script)).returncode == 0  # ours: reused
    for content in (b"", b"\xff" * 4096):
        nvm.write_bytes(content)
        assert run("sim", "--headless", "--nvm", str(nvm), "--script", str(script)).returncode == 0


def test_output_folders_that_do_not_exist_are_refused(tmp_path):
    out = run("sim", "--screenshot", str(tmp_path / "no" / "such" / "shot.svg"))
    assert out.returncode == 2 and "the folder %s does not exist" % (tmp_path / "no" / "such") in out.stderr
    out = run("hardware", "--out", str(tmp_path / "no" / "hw"), "--no-png")
    assert out.returncode == 2 and "the folder %s does not exist" % (tmp_path / "no") in out.stderr
    assert not (tmp_path / "no").exists()
