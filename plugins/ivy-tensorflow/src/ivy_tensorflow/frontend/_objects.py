"""What the TensorFlow frontend reads, and how variables become key chains.

* A Keras 3 layer or model (``keras.layers.Layer``, on Keras' TensorFlow backend): called with
  ``training=False`` (inference: Dropout off, BatchNormalization on its moving statistics).
  Its trainable variables become the graph's parameters and its non-trainable ones (moving
  statistics, and the weights of layers set ``trainable=False``, which are marked frozen: a
  torch target makes them parameters with ``requires_grad=False``) its buffers, by their Keras
  paths without the outer model's name where they start with it:
  ``conv2d/kernel``, ``batch_normalization/moving_mean``. Only the variables the call reads are
  lifted. A layer that is not built yet is built by one eager call on the example inputs.
* A ``tf.Module`` (not Keras) holding ``tf.Variable``\\ s: its ``__call__``; trainable variables
  become parameters, the others buffers, by their variable names (``dense/w``).
* Any other callable (a Python function using ``tf.*``, a ``tf.function``): a function. Variables
  it closes over are read as constants.

Key chains are ``/``-separated, each part made of letters, digits and ``_`` (other characters
become ``_``), so that target modules can mirror them as attribute names.
"""

from __future__ import annotations

import hashlib
import inspect
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import tensorflow as tf

from ivy.plugin_kit import code_fingerprint

__all__ = ["Program", "kind", "read_program", "fingerprint"]


@dataclass
class Program:
    """A TF program with its variables.

    Attributes:
        name: the graph's name.
        call: ``(*args, **kwargs) -> outputs``, traced by ``tf.function``.
        variables: key chain -> the ``tf.Variable`` it names (trainable or not).
        trainable: the key chains of the trainable ones.
        frozen: the key chains of weights made to train that a layer's ``trainable=False``
            keeps from training (not moving statistics, which are never trained).
    """

    name: str
    call: Callable[..., Any]
    variables: dict[str, Any] = field(default_factory=dict)
    trainable: set[str] = field(default_factory=set)
    frozen: set[str] = field(default_factory=set)


def _keras_layer(obj: Any) -> bool:
    keras = sys.modules.get("keras")
    return keras is not None and isinstance(obj, keras.layers.Layer)


def _tf_module(obj: Any) -> bool:
    return isinstance(obj, tf.Module) and not _keras_layer(obj) and bool(obj.variables) and callable(obj)


def kind(obj: Any) -> str | None:
    """``"module"`` for a Keras layer or a callable ``tf.Module`` with variables, ``"function"``
    for other callables, None otherwise."""
    if _keras_layer(obj) or _tf_module(obj):
        return "module"
    if callable(obj) and not isinstance(obj, type):
        return "function"
    return None


def _part(s: str) -> str:
    return re.sub(r"[^0-9A-Za-z_]", "_", s) or "_"


def _chains(paths: list[str], root: str | None) -> list[str]:
    """Key chains from variable paths: the root's own name dropped where a path starts with it
    (a Sequential's layers; variables outside it, such as a seed generator's, keep theirs),
    parts sanitised, duplicates numbered."""
    split = [[p for p in path.split("/") if p] for path in paths]
    split = [s[1:] if root and len(s) > 1 and s[0] == root else s for s in split]
    out: list[str] = []
    seen: dict[str, int] = {}
    for parts in split:
        chain = "/".join(_part(p) for p in parts)
        if chain in seen:
            seen[chain] += 1
            chain = f"{chain}_{seen[chain]}"
        else:
            seen[chain] = 0
        out.append(chain)
    return out


def tf_variable(v: Any) -> Any:
    """The ``tf.Variable`` behind a Keras variable (or ``v`` itself)."""
    inner = getattr(v, "value", None)
    return inner if isinstance(inner, tf.Variable) else v


def read_program(obj: Any, params_v: Any = None) -> Program:
    """The program ``obj`` runs, with its variables by key chain."""
    if params_v is not None:
        raise TypeError(
            "params_v is for frameworks that keep parameters outside the module (Flax, Haiku); a Keras "
            "layer or tf.Module holds its variables: assign them before transpiling instead"
        )
    if _keras_layer(obj):
        variables = list(obj.variables)
        chains = _chains([getattr(v, "path", None) or v.name for v in variables], obj.name)

        def call(*args: Any, **kwargs: Any) -> Any:
            return obj(*args, training=False, **kwargs)

        made_trainable = {id(v) for layer in _inner_layers(obj) for v in getattr(layer, "_trainable_variables", ())}
        return Program(
            obj.name,
            call,
            {c: tf_variable(v) for c, v in zip(chains, variables)},
            {c for c, v in zip(chains, variables) if v.trainable},
            # (Keras 3 keeps, per layer, the variables made trainable; freezing the layer turns
            # their flag off)
            {c for c, v in zip(chains, variables) if not v.trainable and id(v) in made_trainable},
        )
    if _tf_module(obj):
        variables = list(obj.variables)
        chains = _chains([v.name.rsplit(":", 1)[0] for v in variables], obj.name)
        return Program(
            obj.name or type(obj).__name__,
            obj.__call__,
            dict(zip(chains, variables)),
            {c for c, v in zip(chains, variables) if v.trainable},
        )
    fn = getattr(obj, "python_function", obj)  # a tf.function: its Python function, so ops inline
    return Program(getattr(fn, "__name__", type(fn).__name__), fn)


def needs_build(obj: Any) -> bool:
    """Whether ``obj`` is a Keras layer that makes its variables on its first call."""
    return _keras_layer(obj) and not obj.built


def _source(obj: Any) -> str:
    try:
        return inspect.getsource(obj)
    except (OSError, TypeError):
        code = getattr(obj, "__code__", None)
        return repr((code.co_code, code.co_consts, code.co_names)) if code is not None else repr(obj)


def fingerprint(obj: Any) -> str | None:
    """A stable identity of the program ``obj`` runs (not of its weights), for the transpile
    cache: a Keras layer's configuration, its user-defined classes' source (and those of the
    layers inside it) and its variables' paths, shapes and dtypes; a function's source; and what
    that code reads beyond its text (``code_fingerprint``: globals' values, closures, the user
    code it calls). None where that cannot be described (then it is not cached)."""
    if _keras_layer(obj) or _tf_module(obj):
        classes = [c for c in type(obj).__mro__ if not c.__module__.startswith(("keras", "tensorflow", "builtins"))]
        try:
            config = repr(obj.get_config()) if _keras_layer(obj) else ""
        except Exception:  # a layer without a config: its repr
            config = repr(obj)
        variables = sorted(f"{getattr(v, 'path', v.name)}{tuple(v.shape)}{v.dtype}" for v in obj.variables)
        text = f"module|{type(obj).__qualname__}|{config}|{variables}|" + "|".join(_source(c) for c in classes)
        reads = code_fingerprint(*{type(m): None for m in _inner_layers(obj)})
    else:
        fn = getattr(obj, "python_function", obj)
        text = f"function|{_source(fn)}"
        reads = code_fingerprint(fn)
    if reads is None:
        return None
    return hashlib.sha256(f"{text}|{reads}".encode()).hexdigest()


def _inner_layers(obj: Any) -> list[Any]:
    """The object and the layers or modules it holds (whose methods its call may run)."""
    found = [obj]
    for attr in ("_flatten_layers", "submodules"):
        got = getattr(obj, attr, None)
        try:
            found += list(got() if callable(got) else got or ())
        except Exception:  # a tf.Module without Keras' walk, or the reverse
            continue
        break
    return found
