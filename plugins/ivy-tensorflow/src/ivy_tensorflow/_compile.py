"""``ivy.compile`` for the tensorflow backend: ``tf.function`` with the caller's options.

Kept framework-free at import: TensorFlow is imported only when a function is compiled.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable, Mapping
from typing import Any

from ivy.plugin import hookimpl

__all__ = ["ivy_compile"]

_AUTOGRAPH_RULES_ADDED = False


def _autograph_leaves_ivy_alone() -> None:
    """Tell AutoGraph not to convert Ivy's own functions.

    AutoGraph converts the user's function, and from it tries every function it calls. Ivy's
    public ops are generated code (or C objects) without source, so each attempt failed with an
    "AutoGraph could not transform <function linear>" warning per op and trace, and the op then
    ran unconverted anyway. Ivy's implementations are written for graph mode without AutoGraph,
    so marking them do-not-convert changes no program: it only drops the futile attempts. The
    user's own functions are converted as before.
    """
    global _AUTOGRAPH_RULES_ADDED
    if _AUTOGRAPH_RULES_ADDED:
        return
    _AUTOGRAPH_RULES_ADDED = True
    try:  # TensorFlow's own module-prefix rules (as for numpy, keras, ...): internal, so guarded
        from tensorflow.python.autograph.core import config
    except ImportError:
        return
    rules = tuple(config.DoNotConvert(m) for m in ("ivy", "ivy_tensorflow"))
    config.CONVERSION_RULES = rules + tuple(config.CONVERSION_RULES)


@hookimpl
def ivy_compile(backend: str, fn: Callable[..., Any], options: Mapping[str, Any]) -> Callable[..., Any] | None:
    if backend != "tensorflow":
        return None
    import tensorflow as tf

    _autograph_leaves_ivy_alone()
    opts = dict(options)
    if getattr(fn, "__ivy_source__", None) is not None:
        # a program emitted from an ivy.Graph: straight-line calls (control flow is already the
        # backend's cond/while ops), nothing for AutoGraph to convert; its analysis of one long
        # function grows quadratically (minutes for a MobileNetV2, 100 s for a ResNet-18)
        opts.setdefault("autograph", False)
    signature = getattr(fn, "__ivy_signature__", None)
    if signature is not None and getattr(fn, "__signature__", None) is None:
        # tf.function binds every call to fn's signature: to a plain one ~6% faster (10 us on a
        # small program) than to the *args, **kwargs of Ivy's wrapper
        fn.__signature__ = signature  # type: ignore[attr-defined]
    ops = getattr(fn, "__ivy_ops__", None)
    if ops is not None and "jit_compile" not in opts and _xla_pays(ops):
        return _XlaFirst(tf.function(fn, **opts, jit_compile=True), tf.function(fn, **opts))
    compiled = tf.function(fn, **opts)
    if getattr(fn, "__ivy_private_call__", False):
        return _FlatCalls(compiled)
    return compiled


#: Ops whose programs run slower under XLA than under TensorFlow's own kernels on CPU (oneDNN's
#: convolutions and pools against XLA's): kornia's sobel 0.52 -> 0.74 ms, canny 1.32 -> 2.24 ms.
_NATIVE_KERNELS = ("conv", "pool")
#: Fewer kinds of op than this: too little for XLA to fuse to pay for its compile.
_MIN_OPS = 8


def _xla_pays(ops: frozenset[str]) -> bool:
    """Whether an emitted program is compiled with XLA (``jit_compile=True``) when the caller did
    not say: programs of element-wise, indexing and reduction ops, which XLA fuses into a few
    loops (kornia's dilation, 48 single-row updates: 0.96 -> 0.29 ms, kornia on torch 0.63 ms;
    rgb_to_hsv 0.32 -> 0.15 ms), not those with convolutions or pools (slower under XLA here)."""
    return len(ops) >= _MIN_OPS and not any(k in op for op in ops for k in _NATIVE_KERNELS)


class _XlaFirst:
    """A program compiled with XLA, or, where XLA cannot compile it (an op without an XLA kernel,
    a shape XLA cannot make static), with plain ``tf.function``: decided on the first call, once."""

    __slots__ = ("_xla", "_plain", "_fn", "__wrapped__")

    def __init__(self, xla: Any, plain: Any) -> None:
        self._xla, self._plain, self._fn = xla, plain, None
        self.__wrapped__ = plain.python_function

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        fn = self._fn
        if fn is not None:
            return fn(*args, **kwargs)
        import tensorflow as tf

        try:
            out = self._xla(*args, **kwargs)
        except (tf.errors.InvalidArgumentError, tf.errors.UnimplementedError, tf.errors.InternalError):
            self._fn = self._plain  # (an error the program also raises plainly is raised below)
            return self._plain(*args, **kwargs)
        self._fn = self._xla
        return out

    def __getattr__(self, name: str) -> Any:  # the tf.function's own API (get_concrete_function...)
        if name.startswith("__") or name in self.__slots__:
            raise AttributeError(name)
        return getattr(self._fn if self._fn is not None else self._xla, name)


class _FlatCalls:
    """A ``tf.function`` that only Ivy calls (a training step with its state threaded), called
    through its concrete functions once traced.

    ``tf.function`` matches every call's arguments against its traces in Python: for the 20-40
    tensors of a small model's threaded state that costs 0.4-0.6 ms per call, as much as the
    model's step itself. Here a call's structure, dtypes, shapes and Python values form a key to
    the concrete function ``tf.function`` traced for them, which is then called with the flat
    tensors directly: the same program, and the same result. A call that cannot be keyed (an
    argument other than tensors, Python scalars, strings or None in tuples, lists and dicts), or
    with a new key, goes through ``tf.function`` (which traces where it must).
    """

    __slots__ = ("_fn", "_calls")

    def __init__(self, fn: Any) -> None:
        global _EAGER
        if _EAGER is None:
            _EAGER = _eager_type()
        self._fn = fn
        #: key -> (concrete function, positions of its inputs among the call's flat tensors), or None
        #: where that call cannot be replayed
        self._calls: dict[Any, tuple[Any, tuple[int, ...]] | None] | None = {}

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        calls = self._calls
        if calls is None:
            return self._fn(*args, **kwargs)
        flat: list[Any] = []
        key = _key((args, kwargs), flat)
        hit = calls.get(key, _NEW) if key is not None else None
        if type(hit) is tuple:  # (neither None nor _NEW)
            cf, order = hit
            return cf._call_flat([flat[i] for i in order], cf.captured_inputs)
        out = self._fn(*args, **kwargs)
        if hit is _NEW and len(calls) < 32:  # (a state that keeps changing: no unbounded cache)
            calls[key] = self._learn(flat, args, kwargs)
        return out

    def _learn(self, flat: list[Any], args: Any, kwargs: Any) -> tuple[Any, tuple[int, ...]] | None:
        """The concrete function of a call and where its inputs are among the call's tensors
        (None: this call's key goes through tf.function)."""
        try:  # (internal API: where it differs, every call goes through tf.function)
            cf = self._fn.get_concrete_function(*args, **kwargs)
            ftype, _ = cf.function_type, cf._call_flat
        except Exception:
            self._calls = None
            return None
        try:
            try:
                bound = ftype.bind(*args, **kwargs)
            except TypeError:  # the concrete function's parameters hold the defaults as given
                full = inspect.signature(self._fn.python_function).bind(*args, **kwargs)
                full.apply_defaults()
                bound = ftype.bind(*full.args, **full.kwargs)
            theirs = ftype.unpack_inputs(bound)
        except Exception:
            return None
        at = {id(t): i for i, t in enumerate(flat)}
        if len(at) != len(flat) or len(theirs) != len(flat) or any(id(t) not in at for t in theirs):
            return None  # a tensor passed twice, or inputs this key does not see
        return cf, tuple(at[id(t)] for t in theirs)

    def __getattr__(self, name: str) -> Any:  # (the tf.function's own API: get_concrete_function...)
        if name.startswith("__") or name in self.__slots__:  # (copy and pickle probe before _fn exists)
            raise AttributeError(name)
        return getattr(self._fn, name)


_SCALARS = (bool, int, float, str, type(None))
_NEW = object()  # a key not seen yet
_EAGER: Any = None  # TensorFlow's eager tensor type, once a program is compiled


def _key(x: Any, flat: list[Any]) -> Any:
    """A hashable key of a call's arguments (the tensors' dtypes and shapes, the other values
    themselves), the tensors appended to ``flat``; None where some value cannot be keyed."""
    t = type(x)
    if t is _EAGER:
        flat.append(x)
        return (x._datatype_enum(), x._shape_tuple())
    if t is tuple or t is list:
        parts = []
        for c in x:
            k = _key(c, flat)
            if k is None:
                return None
            parts.append(k)
        return (t, tuple(parts))
    if t is dict:
        parts = []
        for name in sorted(x):  # (tf.function orders a dict's values by key)
            k = _key(x[name], flat)
            if k is None:
                return None
            parts.append((name, k))
        return (t, tuple(parts))
    if t in _SCALARS:
        return (t, x)
    return None


def _eager_type() -> Any:
    from tensorflow.python.framework.ops import EagerTensor  # (the type of eager tensors)

    return EagerTensor
