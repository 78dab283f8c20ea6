"""What ``import ivy`` costs in a fresh interpreter, and what the first uses that load the rest cost.

    python benchmarks/bench_import.py              # 20 runs of each
    python benchmarks/bench_import.py --runs 50

Every figure is the minimum over the runs, each a new ``python`` process (the machine's load only
ever adds time; the minimum is the cost itself):

* import ivy     ``time.perf_counter()`` around ``import ivy``, in the process
* importtime     the cumulative time of ``ivy`` in ``python -X importtime -c "import ivy"``
                 (the importer's own bookkeeping makes it a little larger)
* wall           ``python -c "import ivy"`` minus ``python -c "pass"``: start-up excluded
* ivy.add        ``import ivy`` then ``ivy.add`` (the specs, dispatch and registry load; no
                 framework is imported)
* first call     ``import ivy`` then ``ivy.add(1.0, 2.0, backend="numpy")`` (NumPy and its
                 plugin load too)

``import ivy`` loads only the dtype names, the constants and the exceptions; everything else
loads on first use (``ivy_core/tests/test_core_import.py`` checks which modules it loads).
"""

from __future__ import annotations

import argparse
import subprocess
import sys
import time

_TIMED = """
import time
t = time.perf_counter()
import ivy
{after}
print(time.perf_counter() - t)
"""


def _in_process(after: str, runs: int) -> float:
    """Seconds from before ``import ivy`` to after ``after`` ran, the minimum over ``runs`` processes."""
    code = _TIMED.format(after=after)
    return min(
        float(subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout)
        for _ in range(runs)
    )


def _importtime(runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        err = subprocess.run(
            [sys.executable, "-X", "importtime", "-c", "import ivy"], capture_output=True, text=True, check=True
        ).stderr
        for line in err.splitlines():
            parts = line.split("|")
            if len(parts) == 3 and parts[2].strip() == "ivy":
                best = min(best, int(parts[1]) / 1e6)
    return best


def _wall(code: str, runs: int) -> float:
    best = float("inf")
    for _ in range(runs):
        t = time.perf_counter()
        subprocess.run([sys.executable, "-c", code], check=True)
        best = min(best, time.perf_counter() - t)
    return best


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--runs", type=int, default=20, help="processes per figure (default 20)")
    args = ap.parse_args()
    n = args.runs
    rows = [
        ("import ivy", _in_process("", n)),
        ("importtime", _importtime(n)),
        ("wall", _wall("import ivy", n) - _wall("pass", n)),
        ("ivy.add", _in_process("ivy.add", n)),
        ("first call", _in_process('ivy.add(1.0, 2.0, backend="numpy")', n)),
    ]
    print(f"{'':<12} ms (min of {n} processes, {sys.executable})")
    for name, seconds in rows:
        print(f"{name:<12} {seconds * 1e3:8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
