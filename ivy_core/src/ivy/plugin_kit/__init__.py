"""The toolkit of plugin authors: what a backend plugin may use from core besides the contract
(:mod:`ivy.plugin`). Everything here is public and versioned with the plugin API.

Ops and specs
    :func:`spec_ops` (the spec op names, per category), :data:`CATEGORIES`, :func:`composed`
    (core's default of an op, written once against the Array API, to fall back to),
    :func:`conformant_ops` and :func:`native_dtype` (alias a conformant Array API library: the
    dtype and device forms Ivy passes normalised to its own), :data:`DTYPE_KINDS`,
    :func:`by_dtype_constant` (a dtype table keyed by ``ivy.float32`` and friends: a plugin's
    dtype conversion finds them by identity).

Dtype promotion
    :func:`promote_types` and :func:`result_type_name`: the standard's promotion lattice and
    Ivy's rules outside it, written once; plugins derive their tables from it.

Neural-network argument normalisation
    :func:`channels_last` and :func:`filters_last` (data and filter layouts), :func:`ntuple`,
    :func:`padding_pairs`, :func:`check_bias` and :func:`add_channel_bias` (a convolution's bias),
    :func:`conv_output_sizes` (a convolution's spatial output sizes), :func:`tiny_conv_outputs` (a
    convolution that is one matrix product), :func:`trailing_pads`
    (an ``ivy.pad`` that a framework's edge/reflect/wrap padding kernel computes),
    :func:`bilinear_sample_layout` (the checked axes of ``ivy.bilinear_sample``), and the op families
    :func:`conv_family`, :func:`conv_transpose_family`, :func:`pool_family` (the 1-3-d ops with
    the spec's signatures, from one N-d function), and the types of those N-d functions,
    :class:`ConvND`, :class:`ConvTransposeND`, :class:`PoolND`, :class:`AvgPoolND` (their arguments
    and layouts).

Argument checks
    :func:`axis_index`, :func:`axis_tuple`, :func:`check_probability`, :func:`check_count`,
    :func:`check_fft_points`, :func:`check_index_range`, :func:`check_query`,
    :func:`host_bounds`, :func:`check_integer_indices`, :func:`check_alloc`, :func:`host_memory`,
    :func:`known_true` (a check on values, skipped while a compiler traces),
    :func:`check_int_scalar` (a Python int outside an integer array's dtype), :func:`one_truth`
    and :func:`check_carry` (a control-flow op's predicate, and a loop body's results against its
    loop variables): one wording of each error, called by the plugins whose framework would not
    refuse the input itself. :func:`scan_inputs` and :func:`scan_step` (``scan``'s inputs and
    each step's result, checked), :func:`scan_loop` (``scan`` as a Python loop, for eager
    backends); :func:`rnn_layers` (a stack of recurrent layers' per-layer weights and states
    agree on the number of layers).

Speed
    :func:`fastpath`: the framework's function called from C for plain calls;
    :func:`specializer`: an op's call specialised to a graph's static arguments on emission.

Devices, state, interop
    :func:`device_kinds` / :func:`refresh_device_kinds` (device kinds third parties add),
    :func:`touch_random_state` (a global random state ``ivy.compile`` must thread),
    ``NativeModuleWrapper``, ``module_variables``, ``call_with_variables``, ``mirror_place``,
    ``pytree_flatten``, ``pytree_unflatten`` (native-module interop; loaded on first use).

Transpiler frontends
    :func:`trace_program`: trace an interpreter of a source program, written with Ivy ops, into
    an :class:`ivy.Graph` with the program's parameters lifted; :func:`code_names`: the names a
    function's code reads, :func:`code_fingerprint`: what code depends on beyond its text (the
    values of the globals it reads, its closures, followed through the user code it calls), and
    :func:`inert`: objects a fingerprint may describe by kind alone (loggers, locks), for a
    frontend's fingerprint (loaded on first use).
"""

from __future__ import annotations

import functools
import importlib
from collections.abc import Callable
from typing import Any

from .. import _context
from .._compose import load_defaults
from .._dtypes import KINDS as DTYPE_KINDS
from .._dtypes import by_constant as by_dtype_constant
from .._promotion import check_int_scalar, promote_types, result_type_name
from .._spec import CATEGORIES, SPECS
from .._tracking import touch_random_state
from ._adapt import conformant_ops, native_dtype
from ._checks import (
    axis_index,
    axis_tuple,
    check_alloc,
    check_carry,
    check_count,
    check_fft_points,
    check_index_range,
    check_integer_indices,
    check_probability,
    check_query,
    host_bounds,
    host_memory,
    known_true,
    one_truth,
    rnn_layers,
)
from ._devices import device_kinds, refresh_device_kinds
from ._fastpath import fastpath
from ._nn import (
    AvgPoolND,
    ConvND,
    ConvTransposeND,
    PoolND,
    add_channel_bias,
    bilinear_sample_layout,
    channels_last,
    check_bias,
    conv_family,
    conv_output_sizes,
    conv_transpose_family,
    filters_last,
    ntuple,
    padding_pairs,
    pool_family,
    tiny_conv_outputs,
    trailing_pads,
)
from ._scan import scan_inputs, scan_loop, scan_step
from ._specialize import specializer

__all__ = [
    "CATEGORIES",
    "DTYPE_KINDS",
    "spec_ops",
    "composed",
    "conformant_ops",
    "native_dtype",
    "by_dtype_constant",
    "promote_types",
    "result_type_name",
    "check_int_scalar",
    "axis_index",
    "axis_tuple",
    "check_probability",
    "check_count",
    "check_fft_points",
    "check_index_range",
    "check_query",
    "host_bounds",
    "check_integer_indices",
    "check_alloc",
    "host_memory",
    "known_true",
    "one_truth",
    "check_carry",
    "scan_inputs",
    "scan_step",
    "scan_loop",
    "rnn_layers",
    "channels_last",
    "filters_last",
    "conv_output_sizes",
    "tiny_conv_outputs",
    "trailing_pads",
    "ntuple",
    "padding_pairs",
    "check_bias",
    "add_channel_bias",
    "bilinear_sample_layout",
    "conv_family",
    "conv_transpose_family",
    "pool_family",
    "ConvND",
    "ConvTransposeND",
    "PoolND",
    "AvgPoolND",
    "fastpath",
    "specializer",
    "device_kinds",
    "refresh_device_kinds",
    "touch_random_state",
    "NativeModuleWrapper",
    "module_variables",
    "call_with_variables",
    "mirror_place",
    "pytree_flatten",
    "pytree_unflatten",
    "trace_program",
    "code_names",
    "code_fingerprint",
    "inert",
]


def spec_ops(category: str | None = None) -> list[str]:
    """The qualified names of the spec ops (``"add"``, ``"linalg.inv"``), of one category
    (``"elementwise"``, ``"nn"``... see :data:`CATEGORIES`) or of all; composed ops included
    (``composed(name, backend)`` has their defaults)."""
    if category is not None and category not in CATEGORIES:
        raise ValueError(f"unknown category {category!r}; the categories are {', '.join(CATEGORIES)}")
    return [name for name, s in SPECS.items() if category is None or s.category == category]


@functools.cache
def composed(name: str, backend: str) -> Callable[..., Any]:
    """Core's composed default of op ``name`` (``"linspace"``, ``"linalg.pinv"``...), running on
    the namespace of ``backend``: a function taking the op's arguments.

    A plugin calls it for the inputs its framework cannot handle, e.g.
    ``_linspace_arrays = composed("linspace", "torch")`` at import time, then
    ``return _linspace_arrays(start, stop, num, ...)`` for array endpoints. The namespace is
    looked up on the first call (it does not exist yet while the plugin loads).

    Raises:
        KeyError: core has no composed default of ``name`` (the known ones are named).
    """
    defaults = load_defaults()
    if name not in defaults:
        raise KeyError(f"core has no composed default of {name!r}; it has: {', '.join(sorted(defaults))}")
    default = defaults[name]
    xp: Any = None

    def call(*args: Any, **kwargs: Any) -> Any:
        nonlocal xp
        if xp is None:
            xp = _context.backend_namespace(backend)
        return default(xp, *args, **kwargs)

    call.__name__ = call.__qualname__ = name.rpartition(".")[2]
    call.__doc__ = f"Core's composed default of {name!r} on the {backend!r} backend."
    return call


_INTEROP = {
    "NativeModuleWrapper": "ivy._stateful.interop",
    "module_variables": "ivy._stateful.interop",
    "call_with_variables": "ivy._stateful.interop",
    "mirror_place": "ivy._stateful.interop",
    "pytree_flatten": "ivy.container",
    "pytree_unflatten": "ivy.container",
    "trace_program": "ivy.plugin_kit._frontend",
    "code_names": "ivy.transpile._fingerprint",
    "code_fingerprint": "ivy.transpile._fingerprint",
    "inert": "ivy.transpile._fingerprint",
}


def __getattr__(name: str) -> Any:
    # the interop and frontend helpers load the stateful API and the graph tracer: only when a
    # plugin's interop module or frontend asks for them
    if name in _INTEROP:
        value = getattr(importlib.import_module(_INTEROP[name]), name)
        globals()[name] = value
        return value
    raise AttributeError(f"module 'ivy.plugin_kit' has no attribute {name!r}")
