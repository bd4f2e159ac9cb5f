# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""The Nimatron's own firmware: CircuitPython with the ``nimatron`` package frozen in.

Bytecode frozen into flash costs no heap to compile or to hold; only
``.py`` files can be frozen, so the data files (pin maps, presets, tables)
stay on the CIRCUITPY drive, in ``/lib/nimatron/`` where ``nimatron.resource()``
looks when its package is frozen. ``tools/build_firmware.sh`` builds one UF2
per RP2040 board (CircuitPython's board id) with these steps:

    python -m nimatron_host.frozen stage BOARD_ID FOLDER     # the .py files to freeze
    python -m nimatron_host.frozen manifest BOARD_ID UF2 ... # UF2.json beside the UF2

``nimatron deploy --firmware UF2`` then copies the UF2 onto the board's
bootloader drive (RPI-RP2) and, once CIRCUITPY is there, the small
``code.py`` and the data files (``deploy_files``).
"""

import hashlib
import json
import os
import struct
import sys

from .cli import Failure, UsageError

# code.py's body, frozen under this name; the drive's code.py only calls it
CODE_MODULE = "nimatron_code"
# REUSE-IgnoreStart (the header of the code.py it writes)
CODE_PY = (
    "# SPDX-FileCopyrightText: 2026 The Nimatron project contributors\n#\n"
    "# SPDX-License-Identifier: MIT\n"
    '"""The Nimatron on its own firmware: code.py\'s body is frozen into flash\n'
    'as %s (nimatron deploy --firmware). Settings: settings.json."""\n\n'
    "from %s import main\n\nmain()\n" % (CODE_MODULE, CODE_MODULE)
).encode()
# REUSE-IgnoreEnd
PICO = "raspberry_pi_pico"
# the RP2040 boards the build knows (the shared build-circuitpython.sh builds the raspberrypi port)
RP2040_BOARDS = (PICO, "adafruit_macropad_rp2040")
# UF2 (github.com/microsoft/uf2): 512-byte blocks, two magic words first, one last
UF2_MAGIC = (0x0A324655, 0x9E5D5157, 0x0AB16F30)
UF2_FAMILY_FLAG = 0x00002000
RP2040_FAMILY = 0xE48BFF56
BOOTLOADER_IDS = {"RPI-RP2": "rp2040"}  # INFO_UF2.TXT's Board-ID on an RP2040 in BOOTSEL mode
MANIFEST_KEYS = ("board", "circuitpython", "compiler", "mpy_cross", "commit", "uf2_sha256", "frozen", "data")


def board_id(name, spec):
    """CircuitPython's board id a pin map runs on (the Pico for the GPn-wired maps)."""
    ids = spec.get("board_ids")
    if ids:
        return ids[0]
    if spec.get("driver") == "circuitpython" and name.startswith("pico-"):
        return PICO
    return None


def pin_maps(cp_board):
    """The pin maps a firmware for CircuitPython board ``cp_board`` serves."""
    from nimatron.config import boards

    if cp_board not in RP2040_BOARDS:
        return []
    return [n for n, s in sorted(boards.BOARDS.items()) if board_id(n, s) == cp_board]


def _split(files):
    """({module path: bytes} of lib/nimatron's .py files, {drive path: bytes} of the rest)."""
    code, data = {}, {}
    for path, content in files.items():
        if path.startswith("lib/nimatron/") and path.endswith(".py"):
            code[path[len("lib/") :]] = content
        elif path.startswith("lib/nimatron/"):
            data[path] = content
    return code, data


def frozen_files(cp_board):
    """{module path: bytes} to freeze for ``cp_board``: every module its pin
    maps need (what ``nimatron deploy`` copies for each), the Adafruit
    libraries they use, and code.py's body as ``nimatron_code.py``."""
    from . import payload

    names = pin_maps(cp_board)
    if not names:
        raise UsageError(
            "no pin map runs on CircuitPython board %r (choose from %s)" % (cp_board, ", ".join(known_boards()))
        )
    from nimatron.config import boards

    out = {}
    for name in names:
        spec = boards.board(name)
        code, _ = _split(payload.firmware_files(name, spec))
        out.update(code)
        for path, content in payload.library_files(spec).items():
            out[path[len("lib/") :]] = content
    top, _ = payload.firmware_dir()
    with open(os.path.join(top, "code.py"), "rb") as f:
        out[CODE_MODULE + ".py"] = f.read()
    return out


def data_files(cp_board):
    """{drive path: bytes} of every data file the frozen code of ``cp_board`` may open."""
    from nimatron.config import boards

    from . import payload

    out = {}
    for name in pin_maps(cp_board):
        out.update(_split(payload.firmware_files(name, boards.board(name)))[1])
    return out


def known_boards():
    return sorted(RP2040_BOARDS)


def digest(data):
    return hashlib.sha256(data).hexdigest()


def stage(cp_board, folder):
    """Write the modules to freeze under ``folder`` (which must not exist or be empty)."""
    if os.path.isdir(folder) and os.listdir(folder):
        raise UsageError("%s is not empty: stage into a new folder" % folder)
    files = frozen_files(cp_board)
    for path, content in sorted(files.items()):
        full = os.path.join(folder, *path.split("/"))
        os.makedirs(os.path.dirname(full), exist_ok=True)
        with open(full, "wb") as f:
            f.write(content)
    return sorted(files)


def manifest(cp_board, uf2, circuitpython, compiler, mpy_cross, commit):
    """The record written beside a UF2: what it is, what built it, and the
    digests of the data files its frozen code expects on the drive."""
    with open(uf2, "rb") as f:
        blob = f.read()
    check_uf2(blob, uf2)
    return {
        "board": cp_board,
        "circuitpython": circuitpython,
        "compiler": compiler,
        "mpy_cross": mpy_cross,
        "commit": commit,
        "uf2_sha256": digest(blob),
        "frozen": sorted(frozen_files(cp_board)),
        "data": dict(sorted((p, digest(d)) for p, d in data_files(cp_board).items())),
    }


def check_uf2(blob, name):
    """UsageError unless ``blob`` is a UF2 whose every block is for an RP2040."""
    if not blob or len(blob) % 512:
        raise UsageError("%s is not a UF2 file (its size is not a whole number of 512-byte blocks)" % name)
    for at in range(0, len(blob), 512):
        m0, m1, flags, _addr, _size, _num, _total, family = struct.unpack_from("<8I", blob, at)
        (m_end,) = struct.unpack_from("<I", blob, at + 508)
        if (m0, m1, m_end) != UF2_MAGIC:
            raise UsageError("%s is not a UF2 file (block %d has no UF2 magic numbers)" % (name, at // 512))
        if not flags & UF2_FAMILY_FLAG or family != RP2040_FAMILY:
            raise UsageError("%s is not for an RP2040 (block %d names family 0x%08x)" % (name, at // 512, family))


def read_manifest(uf2):
    """(UF2 bytes, manifest) of a firmware built by tools/build_firmware.sh; UsageError otherwise."""
    try:
        with open(uf2, "rb") as f:
            blob = f.read()
    except OSError as e:
        raise UsageError("--firmware: cannot read %s: %s" % (uf2, e.strerror or e)) from e
    path = manifest_path(uf2)
    try:
        with open(path, "rb") as f:
            record = json.loads(f.read().decode("utf-8"))
    except OSError:
        raise UsageError(
            "--firmware: no %s beside %s: use a UF2 built by tools/build_firmware.sh" % (os.path.basename(path), uf2)
        ) from None
    except (ValueError, UnicodeError):
        raise UsageError("--firmware: %s is not a firmware manifest (not JSON)" % path) from None
    if (
        not isinstance(record, dict)
        or any(k not in record for k in MANIFEST_KEYS)
        or not isinstance(record["data"], dict)
    ):
        raise UsageError(
            "--firmware: %s is not a firmware manifest (it lacks %s)"
            % (path, ", ".join(k for k in MANIFEST_KEYS if not isinstance(record, dict) or k not in record))
        )
    check_uf2(blob, uf2)
    if digest(blob) != record["uf2_sha256"]:
        raise UsageError(
            "--firmware: %s is not the UF2 its manifest describes (its SHA-256 differs): build it again" % uf2
        )
    return blob, record


def manifest_path(uf2):
    return (uf2[:-4] if uf2.endswith(".uf2") else uf2) + ".json"


def check_board(record, board, spec):
    """UsageError unless the firmware is for the board the pin map runs on."""
    wanted = board_id(board, spec)
    if wanted != record["board"]:
        raise UsageError(
            "the firmware is for %s; pin map %s runs on %s: build its firmware with "
            "tools/build_firmware.sh %s" % (record["board"], board, wanted, wanted)
        )


def deploy_files(board, spec, record):
    """{drive path: bytes} for CIRCUITPY under the frozen firmware: the
    entry files (code.py only calls the frozen one) and the data files of this
    board, each checked against the digest the firmware was built with."""
    from . import payload

    files = payload.firmware_files(board, spec)
    out = {name: files[name] for name in payload.ENTRY}
    out["code.py"] = CODE_PY
    _, data = _split(files)
    for path, content in sorted(data.items()):
        if record["data"].get(path) != digest(content):
            raise UsageError(
                "%s here differs from the one the firmware was built with (commit %s): build the "
                "firmware again from this checkout" % (path[len("lib/") :], record["commit"])
            )
        out[path] = content
    return out


def bootloader(drive):
    """The chip of an RP2040's bootloader drive (INFO_UF2.TXT), or None if ``drive`` is not one."""
    from .drive import read_top

    path = os.path.join(drive, "INFO_UF2.TXT")
    if not os.path.lexists(path):
        return None
    if os.path.islink(path) or not os.path.isfile(path):
        raise UsageError(
            "%s: INFO_UF2.TXT is a link or not a file, not a bootloader's: deploy follows no link on a "
            "drive (hold BOOTSEL while plugging the board in)" % drive
        )
    try:
        text = read_top(drive, "INFO_UF2.TXT").decode("utf-8", "replace")
    except OSError as e:
        raise Failure("%s: cannot read INFO_UF2.TXT (%s)" % (drive, e.strerror or e)) from e
    said = None
    for line in text.splitlines():
        if line.startswith("Board-ID:"):
            said = line[9:].strip()
    if said not in BOOTLOADER_IDS:
        raise UsageError(
            "%s is a UF2 bootloader drive of board %r, not an RP2040's (RPI-RP2): the firmware is "
            "built for the RP2040" % (drive, (said or "unknown")[:40])
        )
    return BOOTLOADER_IDS[said]


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    try:
        if len(argv) == 3 and argv[0] == "stage":
            for path in stage(argv[1], argv[2]):
                print(path)
            return 0
        if len(argv) == 7 and argv[0] == "manifest":
            record = manifest(*argv[1:])
            with open(manifest_path(argv[2]), "w") as f:
                json.dump(record, f, indent=1, sort_keys=True)
                f.write("\n")
            print(manifest_path(argv[2]))
            return 0
    except (UsageError, Failure) as e:
        print("frozen: %s" % e, file=sys.stderr)
        return 2 if isinstance(e, UsageError) else 1
    print(
        "usage: python -m nimatron_host.frozen stage BOARD_ID FOLDER | manifest BOARD_ID UF2 CIRCUITPYTHON "
        "COMPILER MPY_CROSS COMMIT",
        file=sys.stderr,
    )
    return 2


if __name__ == "__main__":
    sys.exit(main())
