"""``ivy.compile`` for the tensorflow backend: ``tf.function`` with the caller's options.

Kept framework-free at import: TensorFlow is imported only when a function is compiled.
"""

from __future__ import annotations

from typing import Any, Callable, Mapping

from ivy.plugin import hookimpl

__all__ = ["ivy_compile"]


@hookimpl
def ivy_compile(backend: str, fn: Callable[..., Any], options: Mapping[str, Any]) -> Callable[..., Any] | None:
    if backend != "tensorflow":
        return None
    import tensorflow as tf

    return tf.function(fn, **dict(options))
