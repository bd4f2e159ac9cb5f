# SPDX-FileCopyrightText: 2026 The Nimatron project contributors
#
# SPDX-License-Identifier: MIT
"""ruff and mypy on the whole tree, as pyproject.toml configures them: no finding.

    .venv/bin/ruff check .        # what test_ruff_finds_nothing runs
    .venv/bin/mypy                # what test_mypy_finds_nothing runs (the packages)

A finding is fixed, not hidden. Where a rule must give way, the ignore says
why in the same line (``# noqa: E402 - the heap is measured first``,
``# type: ignore[attr-defined] - Blinka's pin has it``), or in a comment
beside its entry in pyproject.toml; ``test_every_ignore_says_why`` holds the
source to that. Both tools are pinned to a minor release in the ``test``
extra: a new release that finds more is tried before it is allowed in.
"""

import pathlib
import re
import subprocess
import sys
import tomllib

import pytest

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("firmware", "host", "simulator")
# The rules the suite selects (pyproject.toml, [tool.ruff.lint] select): an
# ignore of one of these must say why; ignores of rules not selected change nothing
# (and ruff's RUF100 takes them off).
RUFF = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["ruff"]
SELECTED = re.compile(r"^(%s)\d*$" % "|".join(RUFF["lint"]["select"]))


def tool(name, *args, cwd=ROOT):
    """Run ``python -m name args``; a missing tool fails, saying how to get it."""
    try:
        __import__(name)
    except ImportError:
        pytest.fail("%s is not installed: pip install -e '.[test]' (tools/setup.sh does)" % name)
    return subprocess.run([sys.executable, "-m", name, *args], cwd=cwd, capture_output=True, text=True, timeout=600)


def test_ruff_finds_nothing():
    run = tool("ruff", "check", "--no-cache", "--output-format", "concise", ".")
    assert run.returncode == 0, (
        "ruff check . found (fix each; `ruff check --fix .` removes unused imports; an "
        "ignore says why, see docs/contributing.md):\n" + run.stdout + run.stderr
    )


def test_the_tree_is_as_ruff_format_writes_it():
    run = tool("ruff", "format", "--no-cache", "--check", ".")
    assert run.returncode == 0, (
        "not formatted (run `ruff format .`; a mutant in tools/mutants/ whose code moved follows it):\n"
        + run.stdout
        + run.stderr
    )


def test_ruff_format_sees_a_planted_line(tmp_path):
    """The format check is alive under the project's own configuration."""
    (tmp_path / "probe.py").write_text("x = {  'a':1 }\n")
    run = tool(
        "ruff", "format", "--no-cache", "--check", "--config", str(ROOT / "pyproject.toml"), "probe.py", cwd=tmp_path
    )
    assert run.returncode == 1 and "probe.py" in run.stdout + run.stderr, run.stdout + run.stderr


def test_mypy_finds_nothing():
    run = tool("mypy", "--no-incremental", "--cache-dir", "/dev/null")
    assert run.returncode == 0 and "unused section" not in run.stdout + run.stderr, (
        "mypy found (fix each: a type comment on a module cache, `str | None` where a subclass sets what the "
        "base leaves None; a library without types goes in [[tool.mypy.overrides]]; see docs/contributing.md):\n"
        + run.stdout
        + run.stderr
    )


# The firmware modules mypy does not yet read inside every function: none
# (the turns' mixins, the last, declare what they use of the controller, issue 43).
UNCHECKED = set()  # type: set


def firmware_modules():
    base = ROOT / "firmware"
    for path in sorted((base / "nimatron").rglob("*.py")):
        parts = path.relative_to(base).with_suffix("").parts
        yield ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def checked_inside(module, patterns):
    """mypy's override matching: ``a.b`` names that module, ``a.*`` it and every module under it."""
    return any(module == p or (p.endswith(".*") and (module + ".").startswith(p[:-1])) for p in patterns)


def test_every_firmware_module_is_checked_inside_its_functions():
    """Every firmware module, one added tomorrow too, is read with check_untyped_defs (an override
    naming modules one by one would leave a new one out); any left unchecked are named in UNCHECKED."""
    overrides = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["mypy"]["overrides"]
    patterns = [m for o in overrides if o.get("check_untyped_defs") for m in o["module"]]
    modules = list(firmware_modules())
    assert set(modules) >= UNCHECKED, sorted(UNCHECKED - set(modules))
    left = [m for m in modules if not checked_inside(m, patterns) and m not in UNCHECKED]
    assert not left, (
        "add these to the check_untyped_defs override in pyproject.toml (make them clean "
        "first: mypy --check-untyped-defs FILE): %s" % left
    )
    now_checked = sorted(m for m in UNCHECKED if checked_inside(m, patterns))
    assert not now_checked, "checked now: take them off UNCHECKED here: %s" % now_checked


@pytest.mark.parametrize(
    "module, patterns, checked",
    [
        ("nimatron.machine.store", ["nimatron.machine.store"], True),
        ("nimatron.machine.store", ["nimatron.machine.*"], True),
        ("nimatron.machine", ["nimatron.machine.*"], True),
        ("nimatron.machinery", ["nimatron.machine.*"], False),
        ("nimatron.machine.turns", ["nimatron.machine.store", "nimatron"], False),
    ],
)
def test_override_patterns_match_as_mypys_do(module, patterns, checked):
    assert checked_inside(module, patterns) == checked


@pytest.mark.parametrize(
    "text, code",
    [
        ("import os\n", "F401"),
        ("def f():\n    return undefined_name\n", "F821"),
        ("def f(x=[]):\n    return x\n", "B006"),  # bugbear
        ("y = set(x for x in 'ab')\n", "C401"),  # comprehensions
        ("import sys\nimport os\n\nprint(os, sys)\n", "I001"),  # imports sorted
        ("import os  # noqa: E501\n\nprint(os)\n", "RUF100"),  # a noqa that suppresses nothing
        ("def f(x):\n    if x:\n        return True\n    return False\n", "SIM103"),
        ("def f():\n    global g\n    g = 1\n", "PLW0603"),
    ],
)
def test_ruff_reports_a_planted_finding(tmp_path, text, code):
    """The check is alive under the project's own configuration, each rule family selected."""
    (tmp_path / "probe.py").write_text(text)
    run = tool(
        "ruff",
        "check",
        "--no-cache",
        "--output-format",
        "concise",
        "--config",
        str(ROOT / "pyproject.toml"),
        "probe.py",
        cwd=tmp_path,
    )
    assert run.returncode == 1 and code in run.stdout, run.stdout + run.stderr


def test_every_ruff_ignore_is_commented():
    """A short ignore list, each entry with its reason on its line (Adafruit's ruff.toml)."""
    text = (ROOT / "pyproject.toml").read_text()
    block = text[text.index("ignore = [", text.index("[tool.ruff.lint]")) :]
    block = block[: block.index("]")]
    entries = [line for line in block.splitlines()[1:] if line.strip()]
    assert 0 < len(entries) <= 5, entries
    assert all(re.match(r'^\s*"[A-Z]+\d+",\s+#\s*\S', line) for line in entries), entries


def test_mypy_reads_the_firmwares_type_comments(tmp_path):
    """The firmware's annotations are comments (MicroPython has no typing): mypy must read them."""
    (tmp_path / "probe.py").write_text('_memo = {}  # type: dict[int, int]  # position -> value\n_memo["a"] = 1\n')
    run = tool(
        "mypy",
        "--config-file",
        str(ROOT / "pyproject.toml"),
        "--no-incremental",
        "--cache-dir",
        "/dev/null",
        "probe.py",
        cwd=tmp_path,
    )
    assert run.returncode == 1 and "probe.py:2: error" in run.stdout and "[index]" in run.stdout, (
        run.stdout + run.stderr
    )


def suppressions(text):
    """(line number, codes, reason) of each ``# noqa`` and ``# type: ignore`` in a source."""
    for n, line in enumerate(text.splitlines(), 1):
        found = re.search(r"#\s*noqa:?\s*([A-Z0-9, ]*)(.*)$", line)
        if found:
            yield n, [c.strip() for c in found.group(1).split(",") if c.strip()], found.group(2).strip(" -()")
        found = re.search(r"#\s*type:\s*ignore(\[[^]]*\])?(.*)$", line)
        if found:
            yield n, ["type: ignore" + (found.group(1) or "")], found.group(2).strip(" -#()")


def unexplained(path, text):
    out = []
    for n, codes, reason in suppressions(text):
        counted = [c for c in codes if c.startswith("type: ignore") or SELECTED.match(c)] or (
            ["noqa"] if not codes else []
        )
        if counted and not reason:
            out.append("%s:%d: %s without a reason" % (path, n, ", ".join(counted)))
        if any(c == "type: ignore" for c in counted):
            out.append("%s:%d: a bare type: ignore (name the error code)" % (path, n))
    return out


def test_every_ignore_says_why():
    """In the packages (the tests' ``sys.path`` preambles excepted: the same reason, 70 times)."""
    wrong = []
    for base in PACKAGES:
        for path in sorted((ROOT / base).rglob("*.py")):
            wrong += unexplained(path.relative_to(ROOT), path.read_text(encoding="utf-8"))
    assert not wrong, "\n".join(wrong)


@pytest.mark.parametrize(
    "line, reported",
    [
        ("import os  # noqa: F401", True),
        ("import os  # noqa", True),
        ("x = f()  # type: ignore", True),
        ("x = f()  # type: ignore[attr-defined]", True),
        ("import os  # noqa: F401 - the tools import it from here", False),
        ("x = f()  # type: ignore[attr-defined]  # Blinka's pin has it", False),
        ("except Exception:  # noqa: BLE001", False),  # a rule the suite does not select
        ("_memo = {}  # type: dict", False),
    ],
)
def test_an_ignore_without_a_reason_is_reported(line, reported):
    assert bool(unexplained("probe.py", line + "\n")) == reported


def test_pre_commit_runs_the_suites_checks_with_its_tools():
    """.pre-commit-config.yaml runs ruff, mypy and reuse from .venv, the versions the test extra pins."""
    import tomllib

    yaml = pytest.importorskip("yaml")  # PyYAML: mkdocs brings it
    hooks = {
        hook["id"]: hook
        for repo in yaml.safe_load((ROOT / ".pre-commit-config.yaml").read_text())["repos"]
        for hook in repo["hooks"]
    }
    assert set(hooks) == {"ruff", "mypy", "reuse"}, sorted(hooks)
    test_extra = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["optional-dependencies"]["test"]
    pinned = {re.split(r"[<>=!;\[ ]", r, maxsplit=1)[0] for r in test_extra}
    for name, hook in hooks.items():
        tool = hook["entry"].split()[0]
        assert hook["language"] == "system" and tool == ".venv/bin/" + name and name in pinned, hook
    assert hooks["mypy"].get("pass_filenames") is False, "mypy checks the packages whole, as the suite does"
    assert hooks["reuse"].get("pass_filenames") is False
