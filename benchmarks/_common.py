"""What every stage of the benchmark shares: child processes, the timing method, progress, facts.

Method (every stage): each backend runs in its own child process (paddle must never be imported
after tensorflow, and separate processes keep frameworks from sharing thread pools), with every
framework single-threaded. The variants of a measurement (native, Ivy, a peer...) run in
interleaved rounds, the order alternating between rounds, so that all of them see the same load
of a shared machine; a ratio is the median over rounds of the ratio within a round.

A child talks to the parent on stdout: ``@@P done total`` lines (progress) and one final
``@@R {json}`` line (the result); anything else on stdout or stderr is kept for error messages.
"""

from __future__ import annotations

import gc
import importlib
import json
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
import timeit
from collections.abc import Callable, Sequence
from typing import Any

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BACKENDS = ("numpy", "torch", "jax", "paddle", "tensorflow")  # paddle before tensorflow, always

# ------------------------------------------------------------------------------- child processes


def child_env(backend: str | None = None, **extra: str) -> dict[str, str]:
    """The environment of a child: one thread per framework, quiet logs, JAX on the CPU."""
    env = dict(os.environ)
    for k in (
        "OMP_NUM_THREADS",
        "MKL_NUM_THREADS",
        "OPENBLAS_NUM_THREADS",
        "TF_NUM_INTRAOP_THREADS",
        "TF_NUM_INTEROP_THREADS",
    ):
        env[k] = "1"
    env.update(
        TF_CPP_MIN_LOG_LEVEL="3",
        GLOG_minloglevel="3",
        JAX_PLATFORMS=os.environ.get("JAX_PLATFORMS", "cpu"),
        XLA_FLAGS="--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1",
        PYTHONWARNINGS="ignore",
    )
    if backend in ("numpy", "torch", "jax", "tensorflow"):
        env["KERAS_BACKEND"] = backend  # keras.ops as a peer: the process's own framework
    env.update(extra)
    return env


def pin_one_thread(backend: str) -> None:
    """The frameworks' own thread settings (the environment variables do not reach all of them)."""
    if backend == "torch":
        import torch

        torch.set_num_threads(1)
        try:
            torch.set_num_interop_threads(1)
        except RuntimeError:  # already set once in this process
            pass
    elif backend == "tensorflow":
        import tensorflow as tf

        try:
            tf.config.threading.set_intra_op_parallelism_threads(1)
            tf.config.threading.set_inter_op_parallelism_threads(1)
        except RuntimeError:
            pass
    elif backend == "paddle":
        import paddle

        paddle.set_device("cpu")


def progress(done: float, total: float) -> None:
    """Called in a child: how far it got (the parent's progress bar reads it)."""
    sys.stdout.write(f"@@P {done} {total}\n")
    sys.stdout.flush()


def child_main(module: str, func: str, kwargs_json: str) -> None:
    """Entry point of a child: ``module.func(**kwargs)``, its result as the ``@@R`` line."""
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    fn = getattr(importlib.import_module(module), func)
    result = fn(**json.loads(kwargs_json))
    sys.stdout.write("@@R " + json.dumps(result) + "\n")
    sys.stdout.flush()


class ChildError(RuntimeError):
    """A child exited without a result; the message is the end of its output."""


def run_child(
    module: str,
    func: str,
    kwargs: dict[str, Any],
    on_progress: Callable[[float], None] | None = None,
    *,
    env: dict[str, str] | None = None,
    python: str = sys.executable,
    timeout: float | None = None,
    on_note: Callable[[str], None] | None = None,
) -> Any:
    """Runs ``module.func(**kwargs)`` in a fresh interpreter and returns its JSON result.

    ``on_progress(fraction)`` is called as the child reports progress, ``on_note(text)`` for each
    ``@@N text`` line it writes (what it is doing now).
    """
    code = (
        f"import sys; sys.path.insert(0, {ROOT!r}); "
        "from benchmarks._common import child_main; child_main(*sys.argv[1:4])"
    )
    with tempfile.TemporaryFile("w+") as err:
        p = subprocess.Popen(
            [python, "-c", code, module, func, json.dumps(kwargs)],
            stdout=subprocess.PIPE,
            stderr=err,
            text=True,
            env=env if env is not None else child_env(kwargs.get("backend")),
            cwd=ROOT,
        )
        result, other, started = None, [], time.perf_counter()
        assert p.stdout is not None
        for line in p.stdout:
            if line.startswith("@@P "):
                done, total = (float(v) for v in line.split()[1:3])
                if on_progress is not None and total > 0:
                    on_progress(min(done / total, 1.0))
            elif line.startswith("@@R "):
                result = json.loads(line[4:])
            elif line.startswith("@@N ") and on_note is not None:
                on_note(line[4:].rstrip())
            else:
                other.append(line.rstrip())
            if timeout is not None and time.perf_counter() - started > timeout:
                p.kill()
                raise ChildError(f"timed out after {timeout:.0f} s")
        p.wait()
        if result is None:
            err.seek(0)
            tail = [ln for ln in (err.read().splitlines() + other) if ln.strip()]
            raise ChildError(f"exit {p.returncode}: " + " | ".join(tail[-3:])[-600:])
        return result


# ---------------------------------------------------------------------------------------- timing


def time_calls(fn: Callable[[], Any], number: int) -> float:
    """Seconds per call of ``fn`` over ``number`` calls (timeit: the garbage collector off)."""
    return timeit.timeit(fn, number=number) / number


def calls_for(fn: Callable[[], Any], target_s: float) -> int:
    """How many calls of ``fn`` take about ``target_s`` seconds."""
    return max(1, int(target_s / max(time_calls(fn, 10), 1e-8)))


def _timer_cost() -> float:
    """What a timed call adds to itself: the timer's own cost (fastest of many empty readings)."""
    best = 1.0
    for _ in range(2000):
        t0 = time.perf_counter()
        best = min(best, time.perf_counter() - t0)
    return best


TIMER_COST = _timer_cost()


def fastest_alternating(
    variants: dict[str, Callable[[], Any]], numbers: dict[str, int], flip: bool = False
) -> dict[str, float]:
    """One round: the variants' calls alternate (a call of each in turn), each call timed alone,
    garbage collector off; each variant's fastest call, in seconds. Alternating call by call,
    every variant meets the same state of the machine (frequency, caches, a neighbour's load),
    which drifts within a round too: a round's ratios come out several times tighter than from
    blocks of calls.

    The order rotates from one turn to the next (``flip`` starts it one place on), so that each
    variant takes every place and none is ever called twice in a row: a call right after one of
    its own finds its code and data warm in the caches, and a round's fastest call is often that
    one (a reversing order gave the first and the last variants such calls, the others none).
    With two variants the order stays the same all round (``flip`` reverses it)."""
    clock = time.perf_counter
    names = list(variants)
    fns = [variants[k] for k in names]
    counts = [numbers[k] for k in names]
    best = [float("inf")] * len(fns)
    n = len(fns)
    base = list(range(n))
    if n > 2:
        turns = [base[k:] + base[:k] for k in range(n)]
    else:
        turns = [base[::-1] if flip else base]
    start = 1 if flip and n > 2 else 0
    enabled = gc.isenabled()
    gc.disable()
    try:
        for j in range(max(counts)):
            for i in turns[(j + start) % len(turns)]:
                if j < counts[i]:
                    t0 = clock()
                    fns[i]()
                    t = clock() - t0
                    if t < best[i]:
                        best[i] = t
    finally:
        if enabled:
            gc.enable()
    return {k: max(b - TIMER_COST, 1e-9) for k, b in zip(names, best)}


def interleaved(
    variants: dict[str, Callable[[], Any]], rounds: int, number: int | dict[str, int], *, fastest: bool = False
) -> dict[str, list[float]]:
    """Seconds per call of each variant in each round. A round's figure is, with ``fastest``,
    the fastest of ``number`` calls (or ``number[variant]``) made alternating with the other
    variants' calls (``fastest_alternating``); otherwise the mean of ``number`` calls back to
    back, the order of the variants reversing from round to round.

    Rounds are short (a fraction of a millisecond where a call allows): on a shared machine the
    scheduler's time slice is a few milliseconds, and a short round is seldom cut by it."""
    numbers = number if isinstance(number, dict) else dict.fromkeys(variants, number)
    samples: dict[str, list[float]] = {k: [] for k in variants}
    order = list(variants.items())
    for r in range(rounds):
        if fastest:
            for k, v in fastest_alternating(variants, numbers, flip=r % 2 == 1).items():
                samples[k].append(v)
            continue
        for k, f in order if r % 2 == 0 else order[::-1]:
            samples[k].append(time_calls(f, numbers[k]))
    return samples


def paired(samples: dict[str, list[float]], variant: str, base: str) -> dict[str, float]:
    """``variant`` against ``base``: the median over rounds of the ratio within a round, its
    quartiles, and the time added per call (median of the within-round differences, µs)."""
    ratios = sorted(a / b for a, b in zip(samples[variant], samples[base]))
    return {
        "ratio": statistics.median(ratios),
        "q1": ratios[len(ratios) // 4],
        "q3": ratios[(3 * len(ratios)) // 4],
        "added_us": statistics.median((a - b) * 1e6 for a, b in zip(samples[variant], samples[base])),
        "ratio_of_mins": min(samples[variant]) / min(samples[base]),
    }


def block_until_ready(backend: str) -> Callable[[Any], Any]:
    """JAX dispatches asynchronously: a timed call must wait for its result."""
    if backend != "jax":
        return lambda r: r

    def sync(r: Any) -> Any:
        for leaf in leaves(r):
            if hasattr(leaf, "block_until_ready"):
                leaf.block_until_ready()
        return r

    return sync


def leaves(x: Any) -> list[Any]:
    if isinstance(x, (tuple, list)):
        return [v for item in x for v in leaves(item)]
    if isinstance(x, dict):
        return [v for item in x.values() for v in leaves(item)]
    return [x]


def median(xs: Sequence[float]) -> float | None:
    xs = [x for x in xs if x is not None]
    return statistics.median(xs) if xs else None


# ------------------------------------------------------------------------------------- the facts


def _version(dist: str) -> str | None:
    from importlib import metadata

    try:
        return metadata.version(dist)
    except metadata.PackageNotFoundError:
        return None


def cpu_model() -> str:
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def load() -> tuple[float, float, float] | None:
    try:
        return os.getloadavg()
    except OSError:
        return None


def machine() -> dict[str, Any]:
    """The date, the machine, Python and the versions of everything measured."""
    dists = [
        "ivy-core",
        "numpy",
        "torch",
        "jax",
        "jaxlib",
        "tensorflow-cpu",
        "tensorflow",
        "paddlepaddle",
        "keras",
        "array-api-compat",
        "eagerpy",
        "matplotlib",
    ]
    try:
        commit = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, cwd=ROOT
        ).stdout.strip()
        dirty = bool(
            subprocess.run(["git", "status", "--porcelain"], capture_output=True, text=True, cwd=ROOT).stdout.strip()
        )
    except OSError:
        commit, dirty = "", False
    uptime = (
        subprocess.run(["uptime"], capture_output=True, text=True).stdout.strip()
        if os.path.exists("/usr/bin/uptime")
        else ""
    )
    return {
        "date": time.strftime("%Y-%m-%d %H:%M %Z"),
        "cpu": cpu_model(),
        "cores": os.cpu_count(),
        "threads_per_framework": 1,
        "platform": platform.platform(),
        "python": platform.python_version(),
        "versions": {d: v for d in dists if (v := _version(d)) is not None},
        "commit": commit + ("+local changes" if dirty else ""),
        "uptime": uptime,
    }


# -------------------------------------------------------------------------------------- progress


def _clock(seconds: float) -> str:
    s = int(max(seconds, 0))
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}" if s >= 3600 else f"{s // 60}:{s % 60:02d}"


class Bar:
    """A progress bar for one stage (fraction 0..1) with the time left: tqdm when installed,
    else one line rewritten on stderr."""

    def __init__(self, desc: str, enabled: bool = True) -> None:
        self.desc, self.enabled, self.start, self.fraction, self.note = desc, enabled, time.perf_counter(), 0.0, ""
        self.tqdm = None
        if not enabled:
            return
        try:
            from tqdm import tqdm
        except ImportError:
            return
        fmt = "{desc:<26}{percentage:3.0f}%|{bar:24}| {elapsed}<{remaining}{postfix}"
        self.tqdm = tqdm(total=1000, desc=desc, bar_format=fmt, file=sys.stderr, leave=True, dynamic_ncols=True)

    def update(self, fraction: float, note: str | None = None) -> None:
        self.fraction = max(self.fraction, min(fraction, 1.0))
        if note is not None:
            self.note = note
        if not self.enabled:
            return
        if self.tqdm is not None:
            self.tqdm.n = int(self.fraction * 1000)
            self.tqdm.set_postfix_str(self.note, refresh=False)
            self.tqdm.refresh()
            return
        spent = time.perf_counter() - self.start
        left = spent * (1 - self.fraction) / self.fraction if self.fraction > 0.01 else None
        eta = _clock(left) if left is not None else "?"
        line = f"{self.desc:<26}{self.fraction * 100:3.0f}%  {_clock(spent)} spent, {eta} left  {self.note}"
        sys.stderr.write("\r" + line[:110].ljust(110))
        sys.stderr.flush()

    def close(self, note: str = "") -> None:
        self.update(1.0, note or self.note)
        if self.tqdm is not None:
            self.tqdm.close()
        elif self.enabled:
            sys.stderr.write("\n")


def backend_fractions(bar: Bar, names: Sequence[str]) -> Callable[[int], Callable[[float], None]]:
    """``fraction_of(i)``: the callback of the i-th of ``names`` children, scaled into ``bar``."""

    def fraction_of(i: int) -> Callable[[float], None]:
        return lambda f: bar.update((i + f) / len(names), names[i])

    return fraction_of
