"""The single file for jump hosts (issue 51): `uv run --group onefile python -m tui.onefile` builds
`dist/cloudtui`, one executable holding the interpreter, the console, its style sheets, the sandbox
and every module the console imports by name rather than by an `import` statement PyInstaller can
follow (products, screens, dialogs, keyring backends, uvicorn's loops and protocols, Textual's widgets,
Rich's Unicode tables, dnspython's record types).

PyInstaller is the well-kept choice: a 25 MB file, built in half a minute, whose servers are on screen
in twice the installed console's time (0.44 s against 0.22 s: it unpacks 35 MB at each start, a third
of it the Secret Service's cryptography). Nuitka compiles to C (minutes of a C compiler per build, and
a larger file); a zipapp (shiv, pex) still needs a Python on the host, which is what a jump host lacks.

The file unpacks to `$TMPDIR` (else `/tmp`) at each start; where that is mounted `noexec`, its
interpreter cannot load from there, and the system's loader says so in its own words before any of
ours can run ("failed to map segment from shared object"): `TMPDIR` set to a folder of one's own
(`TMPDIR=~/.cache`) is the one line to set, which the README says.
"""

from __future__ import annotations

import shutil
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Imported by name at run time, so PyInstaller's import analysis cannot see them: taken whole.
TAKEN_WHOLE = (
    "tui",  # products (manifest), screens (keymap walk), dialogs, the sandbox's products
    "textual",  # widgets imported on first use (`textual.widgets.__getattr__`)
    "rich",  # its Unicode width tables, one module per version, picked at run time
    "uvicorn",  # event loops and HTTP protocols named by strings in its config
    "keyring",  # backends found through entry points (their metadata copied below)
    "dns",  # record types imported by name
    "textual_plotext",
)
METADATA = ("keyring",)  # entry points keyring reads to find its backends
# Never reached by the console: the tests' tools and the build's own.
LEFT_OUT = ("tkinter", "_tkinter", "pytest", "_pytest", "hypothesis", "mypy", "PyInstaller", "setuptools", "pip")

ENTRY = "from tui.cli import main\nraise SystemExit(main())\n"


def arguments(work: Path, dist: Path) -> list[str]:
    """PyInstaller's command line for the single file (its entry script written into `work`)."""
    entry = work / "cloudtui.py"
    entry.write_text(ENTRY)
    out = [
        str(entry),
        "--onefile",
        "--name=cloudtui",
        "--noconfirm",
        "--log-level=WARN",
        f"--distpath={dist}",
        f"--workpath={work}",
        f"--specpath={work}",
        f"--paths={ROOT}",
        f"--add-data={ROOT / 'styles'}:tui/styles",
    ]
    if shutil.which("strip"):  # (binutils) the interpreter as built carries its debugging symbols: 23 MB to
        out.append("--strip")  # unpack at each start rather than 6, and 0.1 s more before the first frame
    else:
        print("tui.onefile: no `strip` here (binutils): the file is built with its debugging symbols", file=sys.stderr)
    out += [f"--collect-submodules={name}" for name in TAKEN_WHOLE]
    out += [f"--copy-metadata={name}" for name in METADATA]
    out += [f"--exclude-module={name}" for name in LEFT_OUT]
    return out


def main(argv: list[str] | None = None) -> int:
    import argparse

    parser = argparse.ArgumentParser(prog="python -m tui.onefile", description="Build the single file dist/cloudtui.")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist", help="where the file goes (default: dist/)")
    args = parser.parse_args(argv)
    try:
        import PyInstaller.__main__ as pyinstaller  # type: ignore[import-untyped]
    except ImportError:
        print("tui.onefile: PyInstaller is not installed: run `uv run --group onefile python -m tui.onefile`",
              file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="cloudtui-build-") as work:
        pyinstaller.run(arguments(Path(work), args.dist.resolve()))
    built = args.dist.resolve() / "cloudtui"
    print(f"built {built} ({built.stat().st_size / 1e6:.0f} MB)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
