"""Native-module interop for JAX: ``ivy.to_native_module`` / ``ivy.from_native_module``.

JAX has no module objects of its own: a JAX model is a pytree of parameters plus a pure function
``apply(params, *args)``. So:

* :func:`to_native_module` gives ``(params, apply)``: ``params`` is the Ivy module's ``v`` (an
  ``ivy.Container``, a registered pytree: :func:`register_container_pytree`), ``apply`` a pure
  function, usable under ``jax.jit`` / ``jax.grad`` and with optax. Train with any JAX optimizer,
  then hand the result back with ``module.v = params``. ``with_state=True`` gives
  ``(params, state, apply)`` with ``apply(params, state, *args) -> (out, new_state)`` for modules
  with buffers (BatchNorm); without it, buffers are read from the module and their updates are
  dropped (``apply`` stays pure).
* :func:`from_native_module` takes an ``(apply_fn, params)`` pair (either order, so the result of
  :func:`to_native_module` round-trips), a ``(flax.linen.Module, variables)`` pair, or a
  ``flax.nnx.Module`` (both only where flax is installed), and gives a :class:`JaxFunctionWrapper`,
  an ``ivy.Module`` whose ``v`` is a Container of the parameter leaves (by pytree path:
  ``{"dense": {"w": ...}}`` -> ``v.dense.w``) and whose forward pass is ``apply_fn(params, *args)``.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from typing import Any

import jax

from ivy import Container, Module
from ivy.plugin_kit import NativeModuleWrapper, call_with_variables, module_variables

__all__ = [
    "to_native_module",
    "from_native_module",
    "register_container_pytree",
    "JaxFunctionWrapper",
]

_SEP = "/"


def register_container_pytree() -> None:
    """Register ``ivy.Container`` as a JAX pytree (idempotent), so that Containers pass through
    ``jax.jit``, ``jax.grad``, ``jax.tree_util`` and optax. The backend does this when it loads."""
    from ivy.plugin_kit import pytree_flatten, pytree_unflatten

    try:
        jax.tree_util.register_pytree_node(Container, pytree_flatten, pytree_unflatten)
    except ValueError:  # already registered
        pass


register_container_pytree()


# --------------------------------------------------------------------------- Ivy -> JAX


def _flat(params: Any) -> dict[str, Any]:
    c = params if isinstance(params, Container) else Container(params)
    return c.to_flat_dict()


def _jax_inputs(args: tuple[Any, ...], kwargs: dict[str, Any]) -> tuple[Any, Any]:
    """NumPy arrays among the inputs as JAX arrays, as a JAX function takes them (the Ivy model
    would otherwise see arrays of two frameworks in one call)."""
    import numpy as np

    def leaf(x: Any) -> Any:
        return jax.numpy.asarray(x) if isinstance(x, (np.ndarray, np.generic)) else x

    return jax.tree_util.tree_map(leaf, (args, kwargs))


def to_native_module(module: Module, /, *, with_state: bool = False) -> tuple[Any, ...]:
    """``(params, apply)`` for the Ivy module ``module`` (see the module docstring).

    ``apply(params, *args, **kwargs)`` runs ``module(*args, v=params, **kwargs)``, with the
    module's state as it is when ``apply`` runs; with ``with_state=True`` the result is
    ``(params, state, apply)`` and ``apply(params, state, *args, **kwargs)`` returns
    ``(out, new_state)``. The module itself is not changed by ``apply``. Like any JAX function,
    ``apply`` takes NumPy arrays among its inputs too.
    """
    variables, buffers = module_variables(module)
    params = Container.from_flat_dict(variables)

    if with_state:

        def apply_with_state(params: Any, state: Any, *args: Any, **kwargs: Any) -> tuple[Any, Container]:
            args, kwargs = _jax_inputs(args, kwargs)
            out, new = call_with_variables(module, _flat(params), _flat(state) if state else {}, *args, **kwargs)
            return out, Container.from_flat_dict(new)

        return params, Container.from_flat_dict(buffers), apply_with_state

    def apply(params: Any, *args: Any, **kwargs: Any) -> Any:
        args, kwargs = _jax_inputs(args, kwargs)
        # the module's own buffers are read (not updated): apply is a pure function of params
        out, _ = call_with_variables(module, _flat(params), module.state.to_flat_dict(), *args, **kwargs)
        return out

    apply.__name__ = f"apply_{type(module).__name__}"
    return params, apply


# --------------------------------------------------------------------------- JAX -> Ivy


def _key_name(k: Any) -> str:
    for attr in ("key", "idx", "name"):  # DictKey, SequenceKey, GetAttrKey
        if hasattr(k, attr):
            return str(getattr(k, attr)).replace(_SEP, "__")
    return str(k).strip("[].'\"").replace(_SEP, "__")


class JaxFunctionWrapper(NativeModuleWrapper):
    """An ``ivy.Module`` running a pure JAX function ``apply_fn(params, *args, **kwargs)``.

    ``v``: the array leaves of ``params``, by pytree path (dict keys, sequence indices,
    attribute names joined with ``/``); the forward pass rebuilds ``params`` (same tree
    structure) from ``v`` and calls ``apply_fn``. ``state`` holds ``extra`` (variables passed to
    ``apply_fn`` but not trained, e.g. flax collections other than ``params``). :meth:`to_native`
    returns ``(apply_fn, params)`` with the current ``v``.
    """

    def __init__(
        self, apply_fn: Callable[..., Any], params: Any, *, call: Callable[..., Any] | None = None, extra: Any = None
    ) -> None:
        if not callable(apply_fn):
            raise TypeError(f"from_native_module (jax): apply_fn must be callable, got {type(apply_fn).__name__}")
        self._apply_fn = apply_fn
        self._call = call  # (params, extra, args, kwargs) -> out; default: apply_fn(params, *args)
        # a Container flattens without key names: take its paths from the equivalent dict
        self._container = isinstance(params, Container)
        if self._container:
            params = params.to_dict()
        leaves_p, self._treedef = jax.tree_util.tree_flatten_with_path(params)
        self._names = self._unique(["/".join(_key_name(k) for k in path) or "params" for path, _ in leaves_p])
        self._extra_treedef = None
        extra_named: dict[str, Any] = {}
        if extra is not None:
            leaves_e, self._extra_treedef = jax.tree_util.tree_flatten_with_path(extra)
            self._extra_names = self._unique(
                ["extra/" + ("/".join(_key_name(k) for k in path) or "state") for path, _ in leaves_e]
            )
            extra_named = {n: x for n, (_, x) in zip(self._extra_names, leaves_e)}
        named = {n: x for n, (_, x) in zip(self._names, leaves_p)}
        if isinstance(params, dict):  # keep the dict's own key order (JAX sorts the keys)
            try:
                order = Container(params).key_chains()
            except (TypeError, ValueError):  # keys that are not strings, or contain "/"
                order = None
            if order is not None and set(order) == set(named):
                named = {n: named[n] for n in order}
        for n, x in named.items():
            if not isinstance(x, jax.Array):
                raise TypeError(
                    f"from_native_module (jax): the parameter {n!r} is a {type(x).__name__}, not a jax.Array"
                )
        device = next((next(iter(x.devices())) for x in named.values()), None)
        super().__init__(
            (apply_fn, Container(params) if self._container else params),
            backend="jax",
            params=named,
            buffers=extra_named,
            separator=_SEP,
            device=device,
        )

    @staticmethod
    def _unique(names: list[str]) -> list[str]:
        out, seen = [], set()
        for n in names:
            m, k = n, 0
            while m in seen:
                k += 1
                m = f"{n}_{k}"
            seen.add(m)
            out.append(m)
        return out

    def _trees(self, params: dict[str, Any], buffers: dict[str, Any]) -> tuple[Any, Any]:
        p = jax.tree_util.tree_unflatten(self._treedef, [params[n] for n in self._names])
        if self._container:
            p = Container(p)
        e = None
        if self._extra_treedef is not None:
            e = jax.tree_util.tree_unflatten(self._extra_treedef, [buffers[n] for n in self._extra_names])
        return p, e

    def _native_call(
        self, params: dict[str, Any], buffers: dict[str, Any], args: tuple[Any, ...], kwargs: dict[str, Any]
    ) -> tuple[Any, dict[str, Any] | None]:
        p, e = self._trees(params, buffers)
        if self._call is not None:
            return self._call(p, e, args, kwargs), None
        return self._apply_fn(p, *args, **kwargs), None

    def _write_native(self, params: dict[str, Any], buffers: dict[str, Any]) -> None:
        p, _ = self._trees(params, buffers)
        self._native = (self._apply_fn, p)

    @property
    def apply_fn(self) -> Callable[..., Any]:
        return self._apply_fn

    @property
    def params(self) -> Any:
        """The current ``v`` in the original pytree structure of the parameters."""
        return self._trees(self._by_native_name(self.v), self._by_native_name(self.state))[0]

    def to_native(self) -> tuple[Callable[..., Any], Any]:
        """``(apply_fn, params)`` with the current ``v`` as ``params``."""
        return super().to_native()


def _flax() -> Any:
    try:
        import flax
    except ImportError:
        return None
    return flax


def _from_flax(native: Any) -> JaxFunctionWrapper | None:
    flax = _flax()
    if flax is None:
        return None
    if isinstance(native, (tuple, list)) and len(native) == 2:
        import flax.linen as nn

        mod, variables = native
        if isinstance(variables, nn.Module):
            mod, variables = variables, mod
        if isinstance(mod, nn.Module):
            variables = dict(variables)
            params = variables.pop("params")
            rest = variables or None

            def call(p: Any, extra: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
                return mod.apply({"params": p, **(extra or {})}, *args, **kwargs)

            return JaxFunctionWrapper(mod.apply, params, call=call, extra=rest)
        return None
    try:
        from flax import nnx
    except ImportError:
        return None
    if isinstance(native, nnx.Module):
        # two filters: three values (flax's annotation of split leaves their number open)
        graphdef, params, rest = nnx.split(native, nnx.Param, ...)  # type: ignore[misc]

        def call_nnx(p: Any, extra: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
            return nnx.merge(graphdef, p, extra)(*args, **kwargs)

        return JaxFunctionWrapper(lambda p, *a, **k: call_nnx(p, rest, a, k), params, call=call_nnx, extra=rest)
    return None


def from_native_module(native: Any, /) -> NativeModuleWrapper:
    """An ``ivy.Module`` running a JAX model: an ``(apply_fn, params)`` pair (either order), a
    flax module where flax is installed (see the module docstring), or a module
    ``ivy.transpile(..., to="jax")`` made (a :class:`ivy_jax._native_module.TranspiledModuleWrapper`)."""
    transpiled = sys.modules.get("ivy_jax._native_module")  # (loaded once a module is transpiled to jax)
    if transpiled is not None and isinstance(native, transpiled.TranspiledModule):
        return transpiled.TranspiledModuleWrapper(native)
    wrapped = _from_flax(native)
    if wrapped is not None:
        return wrapped
    if isinstance(native, (tuple, list)) and len(native) == 2:
        a, b = native
        if callable(a) and not callable(b):
            return JaxFunctionWrapper(a, b)
        if callable(b) and not callable(a):
            return JaxFunctionWrapper(b, a)
    raise TypeError(
        "from_native_module (jax) takes an (apply_fn, params) pair: apply_fn(params, *args) a pure "
        "JAX function and params a pytree of jax arrays"
        + (
            ""
            if _flax() is not None
            else ' (flax modules need flax, which is not installed: pip install "ivy-jax[flax]")'
        )
        + f"; got {type(native).__module__}.{type(native).__qualname__}"
    )
