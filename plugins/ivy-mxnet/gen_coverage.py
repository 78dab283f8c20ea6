#!/usr/bin/env python3
"""The coverage table of README.md, from ``python -m ivy plugins --json`` (Ivy's own report) and a
call of each fft op (those whose result is complex only raise ``UnsupportedDTypeError`` on MXNet).

Run it with the Python of the environment where ivy-mxnet is installed:

    .venv-mxnet/bin/python plugins/ivy-mxnet/gen_coverage.py            # print the table
    .venv-mxnet/bin/python plugins/ivy-mxnet/gen_coverage.py --write    # rewrite it in README.md
    .venv-mxnet/bin/python plugins/ivy-mxnet/gen_coverage.py --check    # exit 1 if README.md is stale

The table sits between ``<!-- coverage -->`` and ``<!-- /coverage -->`` in README.md.
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from pathlib import Path

README = Path(__file__).resolve().parent / "README.md"
MARKED = re.compile(r"(<!-- coverage -->\n)(.*?)(<!-- /coverage -->)", re.S)


def coverage_text() -> str:
    out = subprocess.run(
        [sys.executable, "-m", "ivy", "plugins", "--json"], capture_output=True, text=True, check=False, timeout=600
    )
    rows = {r["name"]: r for r in json.loads(out.stdout)}
    r = rows.get("mxnet")
    if r is None or "native" not in r:
        raise SystemExit(f"the mxnet backend is not installed or does not load here: {out.stdout or out.stderr}")
    complex_only = _complex_only()
    native, composed, missing, total = len(r["native"]), len(r["composed"]), len(r["missing"]), r["total"]
    rows = (
        ("native: the plugin's own functions (MXNet's kernels, NumPy on the host where MXNet has none)", native),
        ("&nbsp;&nbsp;of which only raise `UnsupportedDTypeError` (a complex result)", len(complex_only)),
        ("composed by core from those (written once against the Array API)", composed),
        ("missing", missing),
    )
    table = "\n".join(f"| {what} | {n} | {100 * n / total:.0f}% |" for what, n in rows)
    names = ", ".join(f"`{n}`" for n in sorted(r["composed"]))
    lacking = ", ".join(f"`{n}`" for n in sorted(r["missing"])) or "none"
    raising = ", ".join(f"`{n}`" for n in complex_only)
    return (
        f"Spec ops on MXNet {r['framework_version']} (`python -m ivy plugins`):\n\n"
        f"| ops | count | of {total} |\n|---|---:|---:|\n{table}\n\n"
        f"Composed by core: {names}.\n\nOnly raising (MXNet has no complex dtype): {raising}.\n\n"
        f"Missing: {lacking}.\n"
    )


def _complex_only() -> list[str]:
    """The fft ops that raise ``UnsupportedDTypeError`` on real input: their result is complex."""
    import ivy
    from ivy.errors import UnsupportedDTypeError
    from ivy.plugin_kit import spec_ops

    x = ivy.ones((4,), dtype="float32", backend="mxnet")
    out = []
    for name in spec_ops("fft"):
        fn = getattr(ivy.fft, name.split(".", 1)[1])
        try:
            fn(x)
        except UnsupportedDTypeError:
            out.append(name)
        except TypeError:  # fftfreq, rfftfreq: not functions of an array
            pass
    return out


def main() -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    g = p.add_mutually_exclusive_group()
    g.add_argument("--write", action="store_true", help="rewrite the marked lines of README.md")
    g.add_argument("--check", action="store_true", help="exit 1 if README.md's marked lines are stale")
    args = p.parse_args()
    text = coverage_text()
    if not (args.write or args.check):
        print(text, end="")
        return 0
    readme = README.read_text()
    m = MARKED.search(readme)
    if m is None:
        raise SystemExit(f"{README}: no <!-- coverage --> ... <!-- /coverage --> block")
    if args.check:
        if m.group(2) != text:
            print(f"{README} is stale; run {Path(__file__).name} --write", file=sys.stderr)
            return 1
        return 0
    README.write_text(readme[: m.start(2)] + text + readme[m.end(2) :])
    return 0


if __name__ == "__main__":
    sys.exit(main())
