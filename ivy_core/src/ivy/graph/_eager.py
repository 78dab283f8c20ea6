"""Building a program outside the compiler trace its first call may be in.

Programs are emitted, and a graph's constants made native, lazily: on the first call that needs
them, which may be inside ``jax.jit`` or ``tf.function``. Made there, a constant would be a value
of that trace (a JAX tracer, a tensor of the function's graph), and the caches that keep it (the
emitted program, :class:`ivy.graph.ConstArray`'s natives) would hand it to every later call,
jitted or eager: JAX's ``UnexpectedTracerError``, TF's "defined in another graph". So they are
made in the framework's own escape from its trace: ``jax.ensure_compile_time_eval`` (concrete
arrays, even under a trace) and ``tf.init_scope`` (eager tensors, which a function captures);
``torch.jit.trace``'s recorder is set aside (its trace would record, and fail on, the reading).
The frameworks are found among the modules already imported (none is imported here).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

__all__ = ["outside_traces"]


@contextlib.contextmanager
def outside_traces(*frameworks: str) -> Iterator[None]:
    """Compute eagerly, outside any trace of ``frameworks`` (backend names: ``"jax"``,
    ``"tensorflow"``, ``"torch"``; others have no such trace and are ignored)."""
    with contextlib.ExitStack() as stack:
        tf = sys.modules.get("tensorflow") if "tensorflow" in frameworks else None
        if tf is not None:
            stack.enter_context(tf.init_scope())
        jax = sys.modules.get("jax") if "jax" in frameworks else None
        if jax is not None:
            stack.enter_context(jax.ensure_compile_time_eval())
        torch = sys.modules.get("torch") if "torch" in frameworks else None
        recorder = torch._C._get_tracing_state() if torch is not None else None
        if torch is not None and recorder is not None:  # torch.jit.trace records this thread's ops: not these
            torch._C._set_tracing_state(None)
            stack.callback(torch._C._set_tracing_state, recorder)
        yield
