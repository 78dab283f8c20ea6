"""Native-framework interop of the stateful API: Ivy modules to native modules and back.

* :func:`to_native_module` turns an :class:`ivy.Module` into the framework's own module (a
  ``torch.nn.Module``, a Keras layer, a JAX ``(params, apply)`` pair, a ``paddle.nn.Layer``)
  whose parameters are the Ivy variables, trainable with the framework's own optimizers.
* :func:`from_native_module` wraps a native module as an :class:`ivy.Module` (a
  :class:`NativeModuleWrapper`) whose ``v`` is a Container of the native parameters, usable with
  ``ivy.execute_with_gradients`` and Ivy's optimizers.

Core imports no framework: both functions dispatch to the backend plugin's
``BackendImpl.extras["to_native_module"]`` / ``extras["from_native_module"]`` (which therefore
are also ``ivy.<backend>.to_native_module`` ...). A backend without them raises
:class:`InteropNotSupportedError`.

The helpers :func:`module_variables`, :func:`call_with_variables` and :class:`NativeModuleWrapper`
are the core side that plugins build on.
"""

from __future__ import annotations

import inspect
import sys
from collections.abc import Callable, Mapping
from typing import Any

from .. import _api as ivy
from .. import _registry
from ..container import SEPARATOR, Container
from ..errors import IvyError
from .module import Module, ModuleNotBuiltError

__all__ = [
    "to_native_module",
    "from_native_module",
    "NativeModuleWrapper",
    "InteropNotSupportedError",
    "module_variables",
    "call_with_variables",
    "mirror_place",
]

#: Top-level modules of high-level libraries built on a framework, which no plugin declares in
#: ``array_modules``: their objects are interop'd by that framework's backend.
_LIBRARY_OWNERS = {
    "keras": "tensorflow",
    "tf_keras": "tensorflow",
    "flax": "jax",
    "haiku": "jax",
    "equinox": "jax",
}


class InteropNotSupportedError(IvyError, NotImplementedError):
    """The backend offers no native-module interop (or not for this kind of object)."""


def _extra(backend: str, name: str) -> Callable[..., Any]:
    b = _registry.get_backend(backend)
    fn = b.impl.extras.get(name)
    if fn is None:
        offered = [n for n in ("to_native_module", "from_native_module") if n in b.impl.extras]
        raise InteropNotSupportedError(
            f"the {backend!r} backend ({b.dist}) offers no native-module interop: its plugin has "
            f"no BackendImpl.extras[{name!r}] (it offers {offered or 'neither direction'}). "
            "Native modules exist for torch, tensorflow (Keras), jax and paddle."
        )
    return fn


def _backend_name(b: Any) -> str:
    return b if isinstance(b, str) else b.name


# --------------------------------------------------------------------------- Ivy -> native


def to_native_module(module: Module, /, *, backend: Any = None, **kwargs: Any) -> Any:
    """The framework's own form of the Ivy module ``module``, sharing its variables.

    The backend is ``backend`` if given, else the module's own backend (once built), else its
    ``backend=`` constructor argument, else the current backend (:func:`ivy.current_backend`).
    An unbuilt module is built on that backend first.

    Returns, per backend (see each plugin's ``interop`` module):

    * torch: a ``torch.nn.Module`` whose ``nn.Parameter``\\ s are the variables;
    * tensorflow: a Keras 3 layer whose weights are the variables;
    * jax: ``(params, apply)``, ``params`` a pytree of the variables and ``apply(params, *args)``
      a pure, ``jax.jit`` / ``jax.grad``-able function;
    * paddle: a ``paddle.nn.Layer`` whose parameters are the variables.

    ``kwargs`` go to the backend's converter.

    Raises:
        InteropNotSupportedError: the backend has no native modules (NumPy).
        ModuleNotBuiltError: the module takes sizes from an input it has not seen (call it once).
        ValueError: the module is built on another backend than ``backend``.
    """
    if not isinstance(module, Module):
        raise TypeError(f"to_native_module takes an ivy.Module, got {type(module).__name__}")
    built = module.backend
    if backend is not None:
        name = _backend_name(backend)
        if built is not None and built != name:
            raise ValueError(
                f"{type(module).__name__} is built on the {built!r} backend, not {name!r}: create it "
                f"with backend={name!r}, or move its weights with save_weights / load_weights"
            )
    elif built is not None:
        name = built
    elif module._backend_arg is not None:
        name = _backend_name(module._backend_arg)
    else:
        name = ivy.current_backend().name
    fn = _extra(name, "to_native_module")
    if not module.built:
        try:
            module.build(backend=name)
        except ModuleNotBuiltError as e:
            raise ModuleNotBuiltError(
                f"to_native_module: {e} (call the module on an example input before converting it)"
            ) from None
    return fn(module, **kwargs)


def module_variables(module: Module) -> tuple[dict[str, Any], dict[str, Any]]:
    """``(variables, buffers)`` of ``module`` as flat dicts keyed by key chain (``"fc0/w"``).

    Builds the module if needed. For plugins' ``to_native_module``.
    """
    return module.v.to_flat_dict(), module.state.to_flat_dict()


def mirror_place(
    root: Any, chain: str, module: Module, make_holder: Callable[[str], Any], children: str
) -> tuple[Any, str]:
    """Where key chain ``chain`` of Ivy module ``module`` lives in a native module tree that
    mirrors the Ivy submodule tree: ``(native module holding it, leaf name)``.

    For plugins' ``to_native_module`` (torch modules and paddle layers: both keep their
    parameters and buffers in ``_parameters`` / ``_buffers`` dicts). ``"fc0/w"`` is the leaf
    ``"w"`` of the child ``"fc0"`` of ``root``; missing children are made on the way with
    ``make_holder(kind)`` (``kind``: the Ivy submodule's class name) and stored in the dict
    attribute named ``children`` (``"_modules"`` / ``"_sub_layers"``).

    Raises:
        ValueError: a name is taken twice (a variable and a submodule of the same name).
    """
    kinds = _kinds_cache(module)
    *path, leaf = chain.split(SEPARATOR)
    owner = root
    for i, part in enumerate(path):
        kids = getattr(owner, children)
        child = kids.get(part)
        if child is None:
            if part in owner._parameters or part in owner._buffers:
                raise ValueError(f"{chain!r}: {part!r} names both a variable and a submodule")
            child = make_holder(kinds.get(SEPARATOR.join(path[: i + 1]), "Container"))
            kids[part] = child
        owner = child
    if leaf in getattr(owner, children) or leaf in owner._parameters or leaf in owner._buffers:
        raise ValueError(f"the key chain {chain!r} clashes with another variable or submodule")
    return owner, leaf


def _kinds_cache(module: Module) -> dict[str, str]:
    return {c: type(m).__name__ for c, m in module.modules()}


def call_with_variables(
    module: Module,
    variables: Mapping[str, Any],
    buffers: Mapping[str, Any] | None,
    /,
    *args: Any,
    **kwargs: Any,
) -> tuple[Any, dict[str, Any]]:
    """Run ``module(*args, v=variables, **kwargs)`` with flat ``variables`` (key chain -> array),
    and with ``buffers`` (key chain -> array) as its state during the call.

    Returns ``(output, new_buffers)``: the state after the call (a layer in training mode updates
    its running statistics), flat; the module's own variables and state are left as they were.
    For plugins' native wrappers of Ivy modules.
    """
    v = Container.from_flat_dict(dict(variables))
    if not buffers:
        return module(*args, v=v, **kwargs), {}
    saved = module.state
    module.state = Container.from_flat_dict(dict(buffers))
    try:
        out = module(*args, v=v, **kwargs)
        new = module.state.to_flat_dict()
    finally:
        module.state = saved
    return out, new


# --------------------------------------------------------------------------- native -> Ivy


def _owner_of(native: Any) -> str | None:
    installed = set(_registry.backends())
    # a module ivy.transpile made: its target's (JAX's is no class of a framework). Read without
    # running the object's code: a lazily transpiled library would transpile its "programs"
    made = sys.modules.get("ivy.transpile._programs")
    programs = inspect.getattr_static(native, "programs", None)
    if made is not None and isinstance(programs, made.ModulePrograms):
        return str(programs.backend)
    for cls in type(native).__mro__:
        mod = getattr(cls, "__module__", None)
        top = mod.partition(".")[0] if isinstance(mod, str) else ""
        if not top or top == "builtins":
            continue
        owner = _registry._module_owner(top)
        if owner is None and _LIBRARY_OWNERS.get(top) in installed:
            owner = _LIBRARY_OWNERS[top]
        if owner is not None:
            return owner
    # (apply_fn, params) pairs, dicts of arrays...: the framework of the array leaves
    if isinstance(native, (tuple, list, dict)):
        for leaf in ivy.nest.leaves(native):
            if ivy.is_native_array(leaf):
                return ivy.namespace(leaf).name
    return None


def from_native_module(native: Any, /, *, backend: Any = None, **kwargs: Any) -> Module:
    """An :class:`ivy.Module` running the native module ``native``, trainable the Ivy way.

    Its ``v`` is a Container of the native module's trainable parameters, named by their native
    names with the framework's separator turned into ``/`` (``fc0.weight`` -> ``v.fc0.weight``);
    ``model(x, v=new_v)`` runs the native module with ``new_v`` (a functional call, the native
    module is not changed), so ``ivy.execute_with_gradients`` and Ivy's optimizers train it.
    :meth:`NativeModuleWrapper.to_native` writes the current ``v`` back into the native module.

    The backend is ``backend`` if given, else the framework that defines ``type(native)`` (or one
    of its bases): torch for a ``torch.nn.Module``, tensorflow for a Keras layer, paddle for a
    ``paddle.nn.Layer``, jax for a flax module or an ``(apply_fn, params)`` pair.

    Raises:
        InteropNotSupportedError: no installed backend takes objects of this type.
    """
    if backend is not None:
        name = _backend_name(backend)
    else:
        found = _owner_of(native)
        if found is None:
            raise InteropNotSupportedError(
                f"from_native_module: no installed Ivy backend takes a {type(native).__module__}."
                f"{type(native).__qualname__} (expected a torch.nn.Module, a Keras layer, a "
                "paddle.nn.Layer, a flax module or a JAX (apply_fn, params) pair); pass backend= "
                "to say which backend should wrap it"
            )
        name = found
    return _extra(name, "from_native_module")(native, **kwargs)


class NativeModuleWrapper(Module):
    """Base class of the Ivy modules that run a native module (made by the plugins'
    ``from_native_module``).

    ``v`` is a Container of the native trainable parameters and ``state`` one of its buffers
    (non-trainable weights), keyed by key chain: the native name with ``separator`` replaced by
    ``/``. The forward pass calls :meth:`_native_call` with flat dicts keyed by *native* names,
    holding the arrays of ``v`` / ``state`` in effect (the module's own, or ``v=`` of the call).

    Subclasses implement :meth:`_native_call` (a functional call of the native module), and may
    implement :meth:`_write_native` (copy arrays into the native module's parameters) for
    :meth:`to_native`.

    Args:
        native: the native module.
        backend: the Ivy backend name (``"torch"``...).
        params: native name -> trainable parameter (native array).
        buffers: native name -> non-trainable buffer.
        separator: the native names' nesting separator (``"."`` in torch and paddle).
        device: device of the parameters, if known.
        training: start in training mode (``native.training`` where the framework has it).
    """

    def __init__(
        self,
        native: Any,
        *,
        backend: str,
        params: Mapping[str, Any],
        buffers: Mapping[str, Any] | None = None,
        separator: str = ".",
        device: Any = None,
        training: bool = True,
    ) -> None:
        self._native = native
        self._separator = separator
        self._native_params = dict(params)
        self._native_buffers = dict(buffers or {})
        self._chain_to_name: dict[str, str] = {}
        for n in list(self._native_params) + list(self._native_buffers):
            chain = self._chain_of(n)
            if chain in self._chain_to_name:
                raise ValueError(
                    f"native names {self._chain_to_name[chain]!r} and {n!r} both map to the key chain {chain!r}"
                )
            self._chain_to_name[chain] = n
        super().__init__(backend=backend, device=device, training=training)
        self.build()  # v and state are the native arrays from the start

    def _chain_of(self, name: str) -> str:
        chain = name.replace(self._separator, SEPARATOR) if self._separator else name
        if not chain or any(part == "" for part in chain.split(SEPARATOR)):
            raise ValueError(f"the native name {name!r} gives an empty key in its key chain {chain!r}")
        return chain

    # ------------------------------------------------------------------ Module hooks

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        return Container.from_flat_dict({self._chain_of(n): p for n, p in self._native_params.items()})

    def _create_state(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        return Container.from_flat_dict({self._chain_of(n): b for n, b in self._native_buffers.items()})

    def _by_native_name(self, c: Container) -> dict[str, Any]:
        return {self._chain_to_name[k]: x for k, x in c.to_flat_dict().items()}

    def _forward(self, *args: Any, **kwargs: Any) -> Any:
        self._check_inputs(args, kwargs)
        params = self._by_native_name(self.v)
        buffers = self._by_native_name(self.state)
        out, new_buffers = self._native_call(params, buffers, args, kwargs)
        if new_buffers:
            flat = self.state.to_flat_dict()
            for n, x in new_buffers.items():
                flat[self._chain_of(n)] = x
            self._own_state = Container.from_flat_dict(flat)  # a wrapper has no submodules
        return out

    def _check_inputs(self, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        """Arrays of another framework: a clear error here rather than the native module's own
        (a torch module given a JAX array raises a bare ``TypeError`` deep inside torch)."""
        own = self._backend_arg if isinstance(self._backend_arg, str) else getattr(self._backend_arg, "name", None)
        for n, a in enumerate(ivy.nest.leaves((args, kwargs))):
            if not ivy.is_native_array(a):
                continue
            theirs = ivy.namespace(a).name
            if theirs == own or theirs == "numpy":  # (NumPy: some frameworks take it, the others say so)
                continue
            kind = f"{type(self._native).__module__}.{type(self._native).__qualname__}"
            raise TypeError(
                f"{type(self).__name__} runs a {own} module ({kind}): it takes {own} arrays, got a "
                f"{theirs} array ({type(a).__module__}.{type(a).__qualname__}, input {n}). Convert the "
                f"inputs (ivy.asarray(x, backend={own!r})), or run the module on {theirs} with "
                f"ivy.transpile(module, to={theirs!r})"
            )

    # ------------------------------------------------------------------ to implement

    def _native_call(
        self, params: dict[str, Any], buffers: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[Any, dict[str, Any] | None]:
        """Call the native module with these parameters and buffers (native name -> array),
        in training mode if ``self.training``. Returns ``(output, new_buffers or None)``; the new
        buffers (native name -> array) become ``state`` and must carry no gradient history (nor,
        inside a function transform, a tracer of it)."""
        raise NotImplementedError(f"{type(self).__name__} must implement _native_call")

    def _write_native(self, params: dict[str, Any], buffers: dict[str, Any]) -> None:
        """Copy these arrays (native name -> array) into the native module's own weights."""
        raise NotImplementedError(f"{type(self).__name__} cannot write weights back to its native module")

    # ------------------------------------------------------------------ public

    @property
    def native(self) -> Any:
        """The wrapped native module (its weights are the initial ones until :meth:`to_native`)."""
        return self._native

    def to_native(self) -> Any:
        """Copy the current ``v`` and ``state`` into the native module's weights; return it."""
        self._write_native(self._by_native_name(self.v), self._by_native_name(self.state))
        return self._native

    def native_name(self, key_chain: str) -> str:
        """The native name of the variable or buffer at ``key_chain``."""
        return self._chain_to_name[key_chain]

    def __repr__(self) -> str:
        return f"{type(self).__name__}({type(self._native).__name__}, backend={self._backend_arg!r})"
