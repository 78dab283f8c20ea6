"""The plugin contract: what a backend distribution hands to Ivy core.

A backend plugin is a distribution (``ivy-torch``) with an entry point in the ``ivy.backends``
group whose value is a lightweight module (it must not import its framework at import time)::

    [project.entry-points."ivy.backends"]
    torch = "ivy_torch"

That module implements pluggy hooks of this contract, marked with :data:`hookimpl`. The only
required one is :meth:`IvyHookSpecs.ivy_register_backends`, which hands core a
:class:`BackendSpec`; the framework is imported only when ``BackendSpec.load`` runs, on the first
use of the backend, and that returns a :class:`BackendImpl`. pluggy is used for registration,
devices and compilation only; an op call never goes through pluggy: core keeps the plugin's own
functions and calls them directly.

The ops themselves are plain functions (or aliases of the framework's functions) in modules that
mirror core's spec categories (``creation``, ``elementwise``, ``manipulation``, ``linalg``...);
:func:`collect_ops` gathers them from the modules' ``__all__``. What a plugin may use besides this
contract (core's composed defaults, argument normalisation, the C fast path, interop helpers) is in
:mod:`ivy.plugin_kit`. A plugin that provides no backend (only, say, a device kind) registers in
the ``ivy.plugins`` entry-point group instead.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import pluggy

from ._spec import CATEGORIES
from ._spec._base import EXTENSIONS

__all__ = [
    "PLUGIN_API",
    "ARRAY_API_VERSION",
    "BackendSpec",
    "BackendImpl",
    "DeviceKind",
    "Frontend",
    "FrontendImpl",
    "IvyHookSpecs",
    "hookimpl",
    "hookspec",
    "collect_ops",
]

#: Version of this plugin contract. A plugin built for another version is refused with a message.
PLUGIN_API = 1
#: The Array API revision the op specs follow.
ARRAY_API_VERSION = "2024.12"

#: Marks the hook specifications of :class:`IvyHookSpecs` (pluggy project ``"ivy"``).
hookspec = pluggy.HookspecMarker("ivy")
#: Marks a plugin's implementation of a hook: ``@hookimpl def ivy_register_backends(register): ...``.
hookimpl = pluggy.HookimplMarker("ivy")


@dataclass(frozen=True)
class BackendSpec:
    """What a plugin declares about one backend, without importing its framework.

    Attributes:
        name: the backend's name everywhere: ``ivy.set_backend(name)``, ``ivy.<name>``,
            ``backend=name``. It must equal the entry point's name in ``ivy.backends``.
        array_modules: top-level module names of the framework's array (and dtype) types, e.g.
            ``("jax", "jaxlib")``. Inference maps ``type(x).__module__`` to the backend through
            these, importing nothing. Two plugins claiming one module get a warning.
        load: ``"package.module:function"`` (or a callable) returning a :class:`BackendImpl`. It
            runs on the first use of the backend and is where the framework gets imported.
        plugin_api: the contract version the plugin was written for (:data:`PLUGIN_API`).
        unsafe_after: modules that, if already imported while this framework is not, make
            importing it unsafe (paddle segfaults when imported after tensorflow). Loading then
            raises :class:`ivy.errors.BackendConflictError` instead.
        description: one line shown by ``python -m ivy plugins``.
        framework_distributions: the distributions that install the framework, as pip names them
            (``("tinygrad",)``; ``("tensorflow", "tensorflow-cpu")`` where builds differ).
            ``python -m ivy doctor`` and ``plugins`` read the framework's version from the first
            one installed (package metadata: it works for a framework without ``__version__``),
            and doctor checks it against the range the plugin's distribution requires. Empty:
            the ``__version__`` of ``BackendImpl.framework``, else the version of the distribution
            that installs that module.
    """

    name: str
    array_modules: tuple[str, ...]
    load: str | Callable[[], BackendImpl]
    plugin_api: int = PLUGIN_API
    unsafe_after: tuple[str, ...] = ()
    description: str = ""
    framework_distributions: tuple[str, ...] = ()


def _standard_capabilities() -> dict[str, Any]:
    return {"boolean indexing": True, "data-dependent shapes": True, "max dimensions": None}


@dataclass
class BackendImpl:
    """What a backend provides once loaded: its ops and the facts about its arrays.

    Attributes:
        ops: qualified op name (``"add"``, ``"linalg.inv"``, ``"fft.fft"``) -> implementation,
            usually ``collect_ops("my_plugin")``. Names must be spec op names
            (``ivy.plugin_kit.spec_ops()``); each Python function's signature is checked against
            its spec when the backend loads. Composed ops the plugin leaves out are filled in by
            core's defaults (written against the Array API); other ops the plugin lacks raise
            ``NotImplementedError`` naming the op and the backend when called.
        array_types: the native array types (what ``ivy.is_native_array`` checks with
            ``isinstance``; compiler tracers should be instances too).
        dtypes: standard dtype name (``"float32"``) -> the framework's dtype object, for the dtypes
            the framework supports (one object per name; ``"float16"`` and ``"bfloat16"`` may be
            declared too). Ops receive dtypes as these native objects, as an ``ivy.DType``, or as
            a name string: ``ivy.plugin_kit.native_dtype`` normalises them. Read in reverse, it is
            how Ivy names the framework's dtypes (``ivy.dtype_name``, the conformance kit, the
            transpiler), whatever the framework calls them (tinygrad's float32 is ``float``): by
            identity, else by equality with a declared object. A dtype of the framework that is
            not declared has no Ivy name (``TypeError``), except a half-precision float the
            framework itself names ``float16`` or ``bfloat16``.
        default_dtypes: ``{"real floating": ..., "complex floating": ..., "integral": ...,
            "indexing": ...}`` as native dtype objects.
        devices: returns the devices arrays can be placed on, as the framework's native device
            objects (``ivy.devices()`` shows them as strings, ``"cpu"``, ``"gpu:0"``).
        default_device: returns the native device new arrays go to when none is given.
        capabilities: the Array API's ``{"boolean indexing": bool, "data-dependent shapes":
            bool, "max dimensions": int | None}``.
        autodiff: whether the backend differentiates: its ``value_and_grad_flat``, ``vjp``,
            ``jvp``, ``jacobian`` and ``variable`` work. The conformance kit checks gradients
            where this is true; core's gradient functions raise ``NoAutodiffError`` otherwise.
        extras: further public names of the backend namespace that are not spec ops
            (``ivy.torch.to_native_module``...).
        kernels: optional fused kernels core's functional API uses where a backend has them (not
            ops: no spec, not in the namespace). Known names: ``"adam_update_flat"``, called as
            ``kernel(ws, gs, ms, vs, lr, step, *, beta1, beta2, epsilon, owned_moments)`` with
            lists of leaves and Python-number ``lr`` and ``step``; it returns per leaf
            ``(new_w, new_m, new_v)`` (the new ``w`` cut from the graph), or ``None`` for a leaf
            the generic formula must take. It never writes ``ws`` or ``gs``; it may write the
            new moments into ``ms`` and ``vs`` only when ``owned_moments`` is true (a stateful
            optimizer's own, which nobody else holds).
        framework: the framework's root module (shown in messages and reprs).
        tracing: returns True while the framework's tracing compiler records a program
            (``torch.compiler.is_compiling``). Dispatch then leaves its caches alone: torch.compile
            would replay each write to Python state on every call of the compiled program.
        compiled_side_effects: whether the framework's compiler keeps the Python side effects of
            the function it compiles (torch.compile's dynamo and paddle's SOT replay them). Where
            it does not (``jax.jit``, ``tf.function``), ``ivy.compile`` checks while tracing that
            the function updates no module or optimizer whose state it does not thread.
        random_state: ``(get, set)`` of the backend's global random state, where its random ops
            keep one in Python (JAX's key). ``ivy.compile`` threads it through compiled programs
            that draw random numbers, so that each call draws new ones; the plugin's random ops
            call ``ivy.plugin_kit.touch_random_state(name)`` before they read it.
        random_snapshot: ``(save, restore)`` of the global random state the backend's random ops
            draw from (the framework's generators, or the plugin's own), as JSON-serialisable
            values: ``ivy.save_checkpoint`` stores ``save()`` and ``ivy.load_checkpoint`` calls
            ``restore(value)``, so that training resumed from a checkpoint draws (dropout, ...)
            what it would have drawn without the interruption. None: checkpoints hold no random
            state of this backend.
        native_module: ``(graph) -> module``: the module native to this framework that computes
            ``graph`` (an :class:`ivy.Graph` with lifted parameters, such as ``ivy.transpile``
            builds) with the graph's parameters as the framework's trainable variables,
            initialised from ``graph.param_values`` (``torch.nn.Module`` with ``nn.Parameter``s,
            a Keras layer, a ``paddle.nn.Layer``...). ``ivy.transpile(module, to=name)`` returns
            it; without it, transpiling a module to this backend returns an ``ivy.Module``. It
            may also take a keyword ``retrace=``: ``(training, args, kwargs) -> graph`` (or
            None), which reads the source module again for a call whose mode or input shapes the
            graph was not traced with; ``ivy.transpile`` passes it only to a function that
            accepts it (:class:`ivy.transpile.ModulePrograms` keeps the graphs and programs such a
            module calls, and retraces through it).
        smoke: ``() -> None``, optional: a quick real computation that raises when the framework
            cannot run here (no compiler, no device, a broken build), which
            ``python -m ivy doctor`` calls after loading the backend and reports. None: the
            default check, which makes an array with the backend's ``asarray``, adds it to itself
            with its ``add`` and reads the result back with its ``to_list``.
    """

    ops: Mapping[str, Callable[..., Any]]
    array_types: tuple[type, ...]
    dtypes: Mapping[str, Any]
    default_dtypes: Mapping[str, Any]
    devices: Callable[[], list[Any]]
    default_device: Callable[[], Any]
    capabilities: Mapping[str, Any] = field(default_factory=_standard_capabilities)
    autodiff: bool = False
    extras: Mapping[str, Any] = field(default_factory=dict)
    kernels: Mapping[str, Callable[..., Any]] = field(default_factory=dict)
    framework: Any = None
    tracing: Callable[[], bool] | None = None
    compiled_side_effects: bool = False
    random_state: tuple[Callable[[], Any], Callable[[Any], None]] | None = None
    random_snapshot: tuple[Callable[[], Any], Callable[[Any], None]] | None = None
    native_module: Callable[[Any], Any] | None = None
    smoke: Callable[[], None] | None = None


@dataclass(frozen=True)
class DeviceKind:
    """A device kind a third party adds to a backend (through ``ivy_register_devices``).

    Device strings keep the one format of every backend: ``"<kind>:<index>"``.

    Attributes:
        backend: the backend that gains the kind (``"torch"``).
        kind: the kind (``"npu"``): devices are named ``"npu:0"``, ``"npu:1"``...
        list_devices: lists the devices of this kind present now, as device strings.
        to_native: ``"npu:0"`` -> the framework's device object.
        from_native: the framework's device object -> ``"npu:0"``, or None if it is not of this kind.
    """

    backend: str
    kind: str
    list_devices: Callable[[], list[str]]
    to_native: Callable[[str], Any]
    from_native: Callable[[Any], str | None] = lambda native: None


@dataclass(frozen=True)
class Frontend:
    """A transpiler frontend: reads one framework's programs into Ivy graphs (through
    ``ivy_register_frontends``). It is the source side of ``ivy.transpile``.

    Attributes:
        name: the framework, as ``ivy.transpile(source=...)`` names it (``"torch"``).
        modules: top-level module names of the objects and arrays it reads (``("jax", "flax",
            "haiku")``). ``ivy.transpile`` infers the source from the module of the object's type
            and of the example inputs' types, so nothing is imported to find the frontend.
        load: ``"package.module:function"`` (or a callable) returning a :class:`FrontendImpl`;
            this is where the framework is imported.
        description: one line shown by ``python -m ivy plugins``.
    """

    name: str
    modules: tuple[str, ...]
    load: str | Callable[[], FrontendImpl]
    description: str = ""


@dataclass(frozen=True)
class FrontendImpl:
    """What a frontend provides once loaded.

    Attributes:
        kind: ``(obj) -> "module" | "function" | None``: what ``obj`` is to this frontend: a
            trainable module of the framework (``torch.nn.Module``, a Keras layer, a Flax module,
            params and an apply function...), a function, or ``None`` when it does not read it.
        to_graph: ``(obj, args, kwargs, params_v) -> ivy.Graph``: the program ``obj`` computes on
            the example inputs ``args``/``kwargs``, as spec ops, in the layout the source uses
            (NCHW stays NCHW). A module's parameters and buffers are lifted as graph parameters
            named by key chain (``"encoder/layer/0/attention/query/weight"``), their values in
            ``param_values``; ``params_v`` carries them where the framework keeps them outside
            the object (Flax, Haiku). Ops it cannot map raise
            :class:`ivy.errors.UnsupportedOpsError` listing every one of them at once.
        op_set: ``() -> {native op name: how it maps to Ivy, or None}``: the framework's op set
            (Core ATen, jaxpr primitives, TF raw ops...) as far as the frontend knows it; the
            transpiler guide's coverage table is generated from it.
        fingerprint: ``(obj) -> str | None``, optional: a stable identity of the program ``obj``
            runs (not of its weights' values), for the disk cache of transpiled graphs, or None
            (or "") where the frontend cannot describe ``obj`` well enough: then nothing is cached
            for it. It must change whenever the program could: the code of every function and
            method the trace may run and what that code reads (closures, defaults, the values of
            globals: :func:`ivy.plugin_kit.code_fingerprint` covers these), the object's
            configuration, and the parameters' names, shapes and dtypes. Core's default walks
            the object that way (functions by byte code, user classes by their methods' code,
            arrays that are weights by shape and dtype, other arrays by value).
    """

    kind: Callable[[Any], str | None]
    to_graph: Callable[[Any, tuple[Any, ...], dict[str, Any], Any], Any]
    op_set: Callable[[], Mapping[str, str | None]]
    fingerprint: Callable[[Any], str | None] | None = None


class IvyHookSpecs:
    """The hooks a plugin may implement (pluggy hook specifications)."""

    @hookspec
    def ivy_register_backends(self, register: Callable[[BackendSpec], None]) -> None:
        """Hand core the backends this plugin provides by calling ``register(BackendSpec(...))``.

        Must not import the framework.
        """

    @hookspec
    def ivy_register_devices(self, register: Callable[[DeviceKind], None]) -> None:
        """Add a device kind to a backend: ``register(DeviceKind(backend="torch", kind="npu", ...))``.

        The backend then lists those devices in ``devices()``, accepts ``"npu:0"`` wherever a
        device is accepted and reports it from ``dev(x)``. Must not import the framework.
        """

    @hookspec
    def ivy_register_frontends(self, register: Callable[[Frontend], None]) -> None:
        """Hand core the transpiler frontends this plugin provides: ``register(Frontend(...))``.

        Must not import the framework (``Frontend.load`` does, on the first transpile from it).
        """

    @hookspec(firstresult=True)
    def ivy_compile(
        self, backend: str, fn: Callable[..., Any], options: Mapping[str, Any]
    ) -> Callable[..., Any] | None:
        """Return ``fn`` compiled by the framework ``backend`` (or None if not this plugin's).

        Returning ``fn`` itself says the backend has no compiler (NumPy); ``options`` are the
        caller's compiler options, passed through. ``fn`` may carry attributes a compiler
        can use: ``__ivy_source__`` (it is a program emitted from an :class:`ivy.Graph`:
        straight-line calls of the backend) with ``__ivy_ops__`` (a frozenset of the names of
        the ops it calls, subgraphs' included), and ``__ivy_signature__`` (``fn`` takes ``*args,
        **kwargs`` and passes them on to a function of this signature: a compiler that binds
        each call to the signature, as ``tf.function`` does, binds faster to this one). A third,
        ``__ivy_private_call__``, says that only Ivy calls the result (a training step whose
        module and optimizer state Ivy threads through it as a flat tuple of arrays): the hook
        may then return any callable that runs the compiled program, not the compiler's own
        function object (ivy-tensorflow calls the traced concrete functions directly).
        """


def collect_ops(package: str, categories: tuple[str, ...] | None = None) -> dict[str, Callable[..., Any]]:
    """Gather op implementations from ``package.<category>`` modules that mirror core's specs.

    Each module lists its ops in ``__all__``; functions in the ``linalg`` and ``fft`` modules are
    registered as ``linalg.<name>`` and ``fft.<name>``. A missing module contributes nothing.
    """
    ops: dict[str, Callable[..., Any]] = {}
    for category in categories or CATEGORIES:
        try:
            module = importlib.import_module(f"{package}.{category}")
        except ModuleNotFoundError as e:
            if e.name == f"{package}.{category}":
                continue
            raise
        prefix = f"{category}." if category in EXTENSIONS else ""
        for name in getattr(module, "__all__", ()):
            ops[prefix + name] = getattr(module, name)
    return ops
