"""How :class:`ivy.Trainer` compiles its steps: the per-backend default of ``compile="auto"``, the
compile messages on the progress bar, one program for every batch of an epoch (a last, smaller
batch runs eagerly), and the check that a compiled step is not slower than the eager one."""

from __future__ import annotations

import statistics
import time
import warnings
from collections.abc import Callable
from typing import Any

from .. import _api as ivy
from ..errors import CompileFailedWarning

__all__ = ["AUTO_COMPILES", "StepMonitor", "auto_compiles"]

#: ``compile="auto"``: whether ``fit`` compiles its steps on a backend, by what is faster over a
#: training run (measured on 2 CPU cores, interleaved medians, an MLP and a GRU with Adam): jax.jit
#: (MLP 0.21 vs 8.7 ms eager) and tf.function (MLP 10 vs 55 ms, GRU 3.3 vs 181 ms) win after a few
#: seconds of compiling; paddle's to_static ran slower (MLP 30 vs 1.9 ms, GRU 43 vs 39 ms) after
#: 30 s of compiling; torch.compile's 73 s of inductor bought 0.55 ms a step on the MLP (1.30 ->
#: 0.75 ms: 130,000 steps to break even) and a larger model's step ran slower (a conv VAE: 138 vs
#: 107 ms), so torch runs eagerly, as under Keras 3's ``jit_compile="auto"``.
AUTO_COMPILES = {"jax": True, "tensorflow": True, "torch": False, "paddle": False}

#: Steps timed, compiled then eager, to check a compiled step the backend does not compile by default.
_TIMED = 3


def auto_compiles(backend: str) -> bool:
    """Whether ``compile="auto"`` compiles on ``backend`` (a backend not listed runs eagerly)."""
    return AUTO_COMPILES.get(backend, False)


def _signature(x: Any, y: Any) -> tuple[Any, ...]:
    """The shapes and dtypes of a batch's arrays (a compiled program is made for one)."""
    return tuple((tuple(a.shape), str(a.dtype)) if ivy.is_native_array(a) else type(a) for a in ivy.nest.leaves((x, y)))


def _sync(out: Any) -> None:
    """Wait for ``out`` (a step's loss) to be computed (asynchronous backends return at once)."""
    if ivy.is_native_array(out) and len(out.shape) == 0:
        ivy.to_scalar(out)


class StepMonitor:
    """Runs one kind of step (``"train"`` or ``"eval"``) of a :class:`ivy.Trainer` compiled.

    * A batch whose leading size is smaller than that of an earlier batch of the same shape
      otherwise (the last batch of an epoch) runs eagerly: no program is compiled for it, so no
      later epoch compiles again.
    * Each call that may compile (the first with ready state, a new batch shape) is announced on
      the progress bar, and its time is reported when it did compile; ``compiles`` counts them.
    * With ``check``, the first steps after compiling are timed against as many eager steps; a
      compiled step slower than the eager one gets a :class:`RuntimeWarning` naming both times.
    """

    def __init__(self, kind: str, objs: tuple[Any, ...], check: bool) -> None:
        self.kind = kind
        self.objs = [o for o in objs if o is not None and hasattr(o, "_ivy_ready")]
        self.compiles = 0
        self.progress: Any = None
        self._seen: set[Any] = set()
        self._largest: dict[Any, int] = {}
        self._check = check
        self._times: dict[str, list[float]] = {"compiled": [], "eager": []}

    def partial(self, key: tuple[Any, ...]) -> bool:
        """Whether a batch of signature ``key`` is a smaller batch of a shape seen before: its
        arrays of the same shapes but for a smaller first axis, common to all."""
        if not key or not all(isinstance(k, tuple) and k[0] for k in key):
            return False
        n = key[0][0][0]
        if any(k[0][0] != n for k in key):
            return False
        rest = tuple((k[0][1:], k[1]) for k in key)
        largest = self._largest.get(rest)
        if largest is None or n > largest:
            self._largest[rest] = n
            return False
        return n < largest

    def _programs(self, fn: Any) -> int:
        count = getattr(fn, "_programs", None)
        return count() if count is not None else 0

    def call(self, fn: Callable[..., Any], eager: Callable[..., Any], x: Any, y: Any) -> Any:
        key = _signature(x, y)
        if self.partial(key):
            return eager(x, y)
        if self._check and len(self._times["compiled"]) == _TIMED and len(self._times["eager"]) < _TIMED:
            return self._timed("eager", eager, x, y)
        before = self._programs(fn)
        maybe = (before == 0 or key not in self._seen) and all(o._ivy_ready() for o in self.objs)
        self._seen.add(key)
        if not maybe:
            if self._check and self.compiles and len(self._times["compiled"]) < _TIMED:
                return self._timed("compiled", fn, x, y)
            return fn(x, y)
        self._note(f"compiling the {self.kind} step")
        start = time.perf_counter()
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            out = fn(x, y)
        took = time.perf_counter() - start
        failed = None
        for w in caught:
            if isinstance(w.message, CompileFailedWarning):
                e = w.message.error
                failed = f"{type(e).__name__}: {str(e).strip().splitlines()[0] if str(e).strip() else ''}"
            else:  # (not ours: passed on)
                warnings.warn_explicit(w.message, w.category, w.filename, w.lineno)
        if failed is not None:
            raise _CompileFailed(out, failed)
        after = self._programs(fn)
        if after > before or before:
            self.compiles += max(after - before, 1)
            self._note(f"compiled the {self.kind} step in {took:.1f} s", done=True)
        else:
            self._note(None)
        return out

    def _timed(self, which: str, f: Callable[..., Any], x: Any, y: Any) -> Any:
        start = time.perf_counter()
        out = f(x, y)
        _sync(out)
        times = self._times[which]
        times.append(time.perf_counter() - start)
        if which == "eager" and len(times) == _TIMED:
            fast, slow = statistics.median(times), statistics.median(self._times["compiled"])
            if slow > fast:
                warnings.warn(
                    f"ivy.Trainer: the compiled {self.kind} step is slower than the eager one "
                    f"({slow * 1e3:.3g} ms against {fast * 1e3:.3g} ms, medians of {_TIMED} steps): "
                    "pass compile=False (or compile='auto') to train eagerly",
                    RuntimeWarning,
                    stacklevel=5,
                )
        return out

    def _note(self, text: str | None, done: bool = False) -> None:
        if self.progress is not None:
            self.progress.note(text, done)


class _CompileFailed(Exception):
    """The compiler failed on a step, which then ran eagerly: ``out`` is its result."""

    def __init__(self, out: Any, message: str) -> None:
        super().__init__(message)
        self.out = out
