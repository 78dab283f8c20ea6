"""``ivy.transpile``: the orchestration (source, inputs, frontend, cache, target)."""

from __future__ import annotations

import inspect
import time
import types
from collections.abc import Mapping
from typing import Any

from ..errors import TranspileError
from ._frontends import frontend_impl, frontends, unknown_source
from ._infer import infer_library_source, infer_source
from ._lazy import LazyFunction, LazyLibrary, LazyModule
from ._source import Source, describe, log
from ._targets import check_module_target, check_target, function_program, module_object

__all__ = ["transpile"]


def _needs_inputs(obj: Any) -> bool:
    """Whether calling ``obj`` takes arguments (without example inputs it is transpiled lazily)."""
    try:
        params = inspect.signature(obj).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(
        p.default is inspect.Parameter.empty and p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD) for p in params
    ) or any(p.kind is p.VAR_POSITIONAL for p in params)


def transpile(
    obj: Any,
    *,
    source: str | None = None,
    to: str,
    args: Any = (),
    kwargs: Mapping[str, Any] | None = None,
    params_v: Any = None,
    cache: bool = True,
) -> Any:
    """Convert ``obj``, written in one framework, into a program native to another.

    What comes back depends on what ``obj`` is:

    * a **function**: a native function of ``to``, a program of the target's own calls (compiled
      by ``jax.jit`` / ``tf.function``; eager on torch and paddle, where ``torch.compile`` /
      ``paddle.jit`` are the user's choice), differentiable by the target's autodiff. It is
      specialised to the example inputs' shapes and dtypes. Without example inputs, a function
      that takes arguments is transpiled on its first call, once per call signature.
    * a **module** (``torch.nn.Module``, Flax/Haiku with ``params_v``, a Keras layer or model,
      ``paddle.nn.Layer``, ``ivy.Module``): the target's module (``BackendImpl.native_module``:
      a ``torch.nn.Module``, a Keras layer, a ``paddle.nn.Layer``, a JAX object with ``.params``
      and a pure ``.apply``) holding the source's weights as trainable variables: weights the
      source ties are one variable, weights it freezes are not trainable, and outputs the source
      returns as a record class (a Hugging Face ``ModelOutput``) come back as
      :class:`ivy.transpile.Record`. It reads the source again for inputs of another signature
      or the other mode (``train()``/``eval()``). Without example inputs, a module is
      transpiled on its first call.
    * a **Python module or package** (``kornia``): a lazy proxy; each function is transpiled on
      its first call per call signature, classes that build modules give lazily transpiled
      modules, other attributes are the library's own.

    ``to="ivy"`` gives the :class:`ivy.Graph` of a function (example inputs required), and an
    ``ivy.Module`` running the graph of a module (on any backend). The logger ``ivy.transpile``
    reports each step at level INFO as it starts (reading the source, emitting the target
    program) and how long it took: ``logging.getLogger("ivy.transpile").setLevel("INFO")`` with a
    handler shows the progress of a long transpile.

    Args:
        obj: the function, module or library.
        source: the framework it is written in (a frontend's name: ``"torch"``, ``"jax"``,
            ``"tensorflow"``, ``"numpy"``, ``"paddle"``, ``"ivy"``...); default: inferred from
            the types of ``obj`` and of the example inputs.
        to: the target: an installed backend's name, or ``"ivy"``.
        args, kwargs: example inputs; arrays of any framework (or NumPy), converted to the
            source's.
        params_v: the parameters, where the framework keeps them outside the module (Flax's
            variables, Haiku's params).
        cache: keep transpiled graphs on disk (``$IVY_CACHE_DIR``, default
            ``~/.cache/ivy/transpile``, a folder only you may write), keyed by the object's
            program (its code and the values of the globals that code reads), the inputs'
            signature and the versions; weights always come from ``obj``.

    Raises:
        TranspileError: the target or source is unknown, the source cannot be inferred, or the
            frontend failed (the message names the object, the frameworks and the step).
        ivy.errors.UnsupportedOpsError: the source program uses ops the frontend cannot map;
            all of them are listed.
        ivy.errors.UnsafeCacheError: the cache folder is not private (another user owns it, or
            group or others may write in it); ``cache=False`` or ``IVY_CACHE_DIR`` avoid it.
    """
    to = check_target(to)
    fronts = frontends()
    if source is not None and source not in fronts:
        raise unknown_source(source)
    if isinstance(obj, types.ModuleType):
        name = source or infer_library_source(obj, fronts)
        frontend_impl(name)  # loaded now: a broken frontend fails here, not on the first call
        return LazyLibrary(obj, source=name, to=to, cache=cache)
    args = tuple(args) if isinstance(args, (tuple, list)) else (args,)
    kwargs = dict(kwargs or {})
    name = source or infer_source(obj, args, kwargs, params_v, fronts)
    src = Source(obj, name, params_v=params_v, cache=cache)
    kind = src.kind()
    if kind == "module":
        check_module_target(to)
    if not args and not kwargs and _needs_inputs(obj):
        if kind == "function" and to == "ivy":
            raise TranspileError(
                f"no example inputs for {describe(obj)}: to='ivy' returns the function's graph, which is traced "
                "on example inputs. Pass args= (and kwargs=) with arrays of the shapes and dtypes it will be "
                "called with (any framework's, or NumPy's), or transpile to a backend to have it transpiled "
                "on its first call"
            )
        return LazyModule(src, to) if kind == "module" else LazyFunction(src, to)
    start = time.perf_counter()
    graph = src.graph(args, kwargs)
    log.info("emitting %s for %s (%d nodes, %d parameters)", describe(obj), to, len(graph), len(graph.params))
    if kind == "module" and graph.params:
        out = module_object(graph, to, src.retrace)
    else:  # (a module without parameters or buffers, ReLU say, is a function of its inputs)
        out = function_program(graph, to)
    log.info("transpiled %s from %s to %s in %.2f s", describe(obj), name, to, time.perf_counter() - start)
    return out
