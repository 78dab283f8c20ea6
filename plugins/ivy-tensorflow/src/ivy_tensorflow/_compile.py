"""``ivy.compile`` for the tensorflow backend: ``tf.function`` with the caller's options.

Kept framework-free at import: TensorFlow is imported only when a function is compiled.
"""

from __future__ import annotations

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
    return tf.function(fn, **opts)
