"""The built sdist and wheel ship the skill and the schemas, and the installed wheel runs.

Builds without isolation (the backend comes from the test extras) from a copy
of the source tree, so the test needs no network and leaves the checkout alone.
The wheel goes into a fresh virtual environment with --no-deps; that
environment sees this one's dependencies through a .pth line, which adds the
folder without running its .pth files, so an editable install of multidebate
here cannot shadow the wheel.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import zipfile
from pathlib import Path

import pytest

from multidebate import __version__

ROOT = Path(__file__).resolve().parent.parent
SKILL = (ROOT / "multidebate" / "skill" / "SKILL.md").read_bytes()
SCHEMAS = sorted(p.name for p in (ROOT / "multidebate" / "schemas").glob("*.schema.json"))
JUNK = (".git", ".venv", "venv", "build", "dist", "*.egg-info", "__pycache__", ".mypy_cache", ".pytest_cache",
        ".hypothesis")


def _run(*args: str | Path, cwd: Path) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME", "VIRTUAL_ENV")}
    result = subprocess.run([str(a) for a in args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, f"{args}\n{result.stdout}\n{result.stderr}"
    return result


def test_sdist_and_wheel_ship_the_skill_and_the_installed_wheel_runs(tmp_path: Path) -> None:
    src, dist, venv = tmp_path / "src", tmp_path / "dist", tmp_path / "venv"
    shutil.copytree(ROOT, src, symlinks=True, ignore=shutil.ignore_patterns(*JUNK))
    # no --sdist/--wheel: the wheel is built from the sdist, which proves the sdist is complete
    _run(sys.executable, "-m", "build", "--no-isolation", "--outdir", dist, src, cwd=tmp_path)
    (sdist,) = dist.glob("multidebate-*.tar.gz")
    (wheel,) = dist.glob("multidebate-*.whl")

    with zipfile.ZipFile(wheel) as archive:
        assert archive.read("multidebate/skill/SKILL.md") == SKILL
        assert sorted(n.rsplit("/", 1)[1] for n in archive.namelist() if n.startswith("multidebate/schemas/")) \
            == SCHEMAS
        assert "multidebate/py.typed" in archive.namelist()
    with tarfile.open(sdist) as archive:
        root = f"multidebate-{__version__}"
        member = archive.extractfile(f"{root}/multidebate/skill/SKILL.md")
        assert member is not None
        assert member.read() == SKILL
        assert all(f"{root}/multidebate/schemas/{name}" in archive.getnames() for name in SCHEMAS)

    _run(sys.executable, "-m", "venv", "--without-pip", venv, cwd=tmp_path)
    python = venv / "bin" / "python"
    site = Path(_run(python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])", cwd=tmp_path)
                .stdout.strip())
    _run(sys.executable, "-m", "pip", "--python", python, "install", "--no-deps", "--no-index", "--quiet", wheel,
         cwd=tmp_path)
    # only now: had pip seen this environment's multidebate, it would have taken the wheel as installed already
    here = dict.fromkeys([sysconfig.get_paths()["purelib"], sysconfig.get_paths()["platlib"]])
    (site / "_multidebate_test_deps.pth").write_text("".join(f"{p}\n" for p in here))

    exe = venv / "bin" / "multidebate"
    assert _run(exe, "--version", cwd=tmp_path).stdout == f"multidebate, version {__version__}\n"
    assert _run(exe, "skill", "show", cwd=tmp_path).stdout.encode() == SKILL
    where = _run(python, "-c", "import multidebate; print(multidebate.__file__)", cwd=tmp_path).stdout
    assert where.startswith(str(site))


def test_local_state_of_any_debate_folder_is_never_committed() -> None:
    """Parse caches and served records are per-machine state: ignored in every debate folder, none tracked."""
    root = Path(__file__).resolve().parent.parent
    if shutil.which("git") is None or not (root / ".git").exists():
        pytest.skip("not a git checkout")
    local = ["examples/any/.multidebate/cache/turn-1.json", "examples/any/.multidebate/served/a.turn-2.json",
             ".multidebate/cache/checks.json"]
    ignored = subprocess.run(["git", "check-ignore", *local], cwd=root, capture_output=True, text=True).stdout
    assert ignored.split() == local
    tracked = subprocess.run(["git", "ls-files"], cwd=root, capture_output=True, text=True, check=True).stdout
    assert [p for p in tracked.splitlines() if "/.multidebate/cache/" in p or "/.multidebate/served/" in p] == []
