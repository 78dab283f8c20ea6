"""``to_graph`` of the NumPy frontend: a NumPy function, probed and traced on tracer arrays
(:mod:`ivy_numpy.frontend._tracer`), as an :class:`ivy.Graph`; and its op set."""

from __future__ import annotations

import hashlib
import inspect
from collections.abc import Mapping
from typing import Any

import numpy as np

import ivy
from ivy.errors import UnsupportedOpsError
from ivy.plugin_kit import code_fingerprint, trace_program

from ._table import DOCS, FUNCTIONS, UFUNCS, ufunc_doc
from ._tracer import Session, Tracer, function_name

__all__ = ["kind", "to_graph", "op_set", "fingerprint", "probe"]


def kind(obj: Any) -> str | None:
    """NumPy has no modules: every callable is a function."""
    return "function" if callable(obj) and not isinstance(obj, type) else None


def _numpy_inputs(tree: Any) -> Any:
    if isinstance(tree, (np.ndarray, np.generic)):
        return np.array(tree)  # a copy: the probe runs NumPy itself, and the function may write to it
    if isinstance(tree, tuple):
        return tuple(_numpy_inputs(t) for t in tree)
    if isinstance(tree, list):
        return [_numpy_inputs(t) for t in tree]
    if isinstance(tree, dict):
        return {k: _numpy_inputs(v) for k, v in tree.items()}
    return tree


def _run(session: Session, fn: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any]) -> Any:
    return fn(*session.wrap(tuple(args)), **{k: session.wrap(v) for k, v in kwargs.items()})


def _outputs(tree: Any) -> Any:
    if isinstance(tree, Tracer):
        return tree._x
    if isinstance(tree, (np.ndarray, np.generic)):
        return ivy.asarray(np.asarray(tree))  # an output that depends on no input: a constant
    if isinstance(tree, (tuple, list)):
        return type(tree)(_outputs(t) for t in tree)
    if isinstance(tree, dict):
        return {k: _outputs(v) for k, v in tree.items()}
    return tree


def probe(fn: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any] | None = None) -> Session:
    """Run ``fn`` on tracers computing with NumPy itself: the session lists the NumPy calls it made
    (``names``), the dtype and shape of each result, and the calls that cannot be translated."""
    session = Session("probe")
    _run(session, fn, _numpy_inputs(tuple(args)), _numpy_inputs(dict(kwargs or {})))
    return session


def to_graph(obj: Any, args: tuple[Any, ...], kwargs: Mapping[str, Any] | None, params_v: Any) -> Any:
    """The :class:`ivy.Graph` of the NumPy function ``obj`` on the example inputs."""
    if params_v is not None:
        raise TypeError(
            "params_v is for frameworks that keep parameters outside the module; NumPy functions take arrays"
        )
    kwargs = dict(kwargs or {})
    name = getattr(obj, "__name__", type(obj).__name__)
    seen = probe(obj, tuple(args), kwargs)
    if seen.problems:
        raise UnsupportedOpsError("numpy", seen.problems, what=name)

    def run(values: Mapping[str, Any], *a: Any, **k: Any) -> Any:
        return _outputs(_run(Session("trace", seen.record), obj, a, k))

    return trace_program(run, args=tuple(args), kwargs=kwargs, name=name, backend="numpy")


def op_set() -> dict[str, str | None]:
    """Every ufunc and public function of ``numpy``, ``numpy.linalg`` and ``numpy.fft`` -> what the
    frontend translates it into (None: not translated)."""
    ops: dict[str, str | None] = {}
    for prefix, module in (("", np), ("linalg.", np.linalg), ("fft.", np.fft)):
        for n in dir(module):
            obj = getattr(module, n)
            if n.startswith("_") or isinstance(obj, type) or not callable(obj):
                continue
            if isinstance(obj, np.ufunc):
                ops[obj.__name__] = ufunc_doc(obj.__name__) if obj.__name__ in UFUNCS else None
            else:
                key = prefix + n if prefix else function_name(obj) if hasattr(obj, "__name__") else n
                ops[key] = DOCS.get(key)
    ops.update({k: DOCS[k] for k in FUNCTIONS})
    return dict(sorted(ops.items()))


def fingerprint(obj: Any) -> str | None:
    """The source of the function (its code where the source is not available), and what its
    code reads beyond its text (``code_fingerprint``: the globals' values, closures, the
    functions it calls); None where that cannot be described (then it is not cached)."""
    try:
        text = inspect.getsource(obj)
    except (OSError, TypeError):
        code = getattr(obj, "__code__", None)
        text = repr((code.co_code, code.co_consts, code.co_names)) if code is not None else repr(obj)
    reads = code_fingerprint(obj)
    if reads is None:
        return None
    return hashlib.sha256(f"numpy|{text}|{reads}".encode()).hexdigest()
