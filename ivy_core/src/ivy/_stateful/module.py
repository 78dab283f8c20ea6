"""``ivy.Module``: a layer or model whose variables live in a :class:`ivy.Container`, ``v``.

Variables of a module are its own (declared with :meth:`Module.add_weight`, or made by a layer's
``_create_variables``) plus those of its submodules, found automatically among its attributes (a
module, or a list, tuple or dict of modules), under the attribute's name: ``model.v.linear0.w``,
``model.v.layers["0"].w`` for a list.

**Building.** Variables are created on the first *build*, which happens on the first of:

* access to ``module.v`` (or ``save_weights`` / ``load_weights`` / ``to_device``): the backend is
  the ``backend=`` constructor argument, else the backend in context
  (:func:`ivy.current_backend`: ``ivy.set_backend`` / ``with ivy.use_backend(...)``); the
  device is ``device=``, else that backend's default device;
* the first call ``module(x, ...)`` with ``v=None``: the backend is ``backend=``, else the
  framework of the input arrays; the device is ``device=``, else the device of the first input
  array. A layer created without some input size (``Linear(None, 64)``) takes it from that input.

A module whose sizes come from its input cannot be built before it sees one: accessing ``v``
then raises :class:`ModuleNotBuiltError`.

**Pure use.** ``module(x, v=other_v)`` runs the forward pass with the variables ``other_v`` (a
Container of the same structure as ``module.v``) instead of its own, and leaves its own
unchanged; this is how a training loop differentiates through a module
(``ivy.execute_with_gradients(lambda v: loss(model(x, v=v)), model.v)``).

**State.** Non-trainable buffers (BatchNorm's running statistics) live in ``module.state``, a
Container assembled from the submodules like ``v``. A layer replaces its buffers with new arrays
(gradients stopped) when a forward pass in training mode updates them; they are saved with the
weights.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping
from typing import Any

from .. import _api as ivy
from .. import _tracking, safetensors
from ..container import SEPARATOR, Container
from ..errors import ModuleNotBuiltError
from . import _inspect, _restore
from .initializers import GlorotUniform, Initializer

__all__ = ["Module", "ModuleNotBuiltError"]


def _first_array(tree: Any) -> Any:
    for leaf in ivy.nest.leaves(tree):
        if ivy.is_native_array(leaf):
            return leaf
    return None


def _branch(tree: Any, keys: tuple[str, ...]) -> Container:
    """``tree.at_key_chain(keys)`` where that is a Container, else an empty one."""
    for key in keys:
        tree = dict.get(tree, key) if isinstance(tree, dict) else None
    return tree if isinstance(tree, Container) else Container()


class Module:
    """Base class of layers and models. Subclasses implement :meth:`_forward`; a module's own
    variables and buffers (beyond its submodules') are declared with :meth:`add_weight` (layers of
    the library implement :meth:`_create_variables` and :meth:`_create_state` instead).

    ``Module.__init__`` may be called before or after the submodules are assigned (the paper
    assigns them first). See the module docstring for how and when variables are built.

    Args:
        device: device of the variables; default: see the module docstring.
        backend: Ivy backend of the variables (a name or namespace); default: see the module
            docstring.
        dtype: floating-point dtype of the variables; default ``"float32"``.
        v: variables to use instead of creating them (a Container or nested dict of the same
            structure as the built ``v``).
        training: start in training mode (default) or in evaluation mode.
    """

    # class-level defaults, so that attributes read before Module.__init__ runs are defined
    _own_v: Container | None = None
    _own_state: Container | None = None
    _backend_arg: Any = None
    _device_arg: Any = None
    _dtype: Any = None
    _backend_name: str | None = None
    _device: Any = None
    _pending_v: Any = None
    _declared: dict[str, tuple[tuple[int, ...], Any, Any, bool]] | None = None
    training: bool = True

    def __init__(
        self,
        *,
        device: Any = None,
        backend: Any = None,
        dtype: Any = None,
        v: Any = None,
        training: bool = True,
    ) -> None:
        self._backend_arg = backend
        self._device_arg = device
        self._dtype = dtype
        self._pending_v = v
        self.training = training

    # ------------------------------------------------------------------ to override

    def _forward(self, *args: Any, **kwargs: Any) -> Any:
        """The forward pass; reads variables from ``self.v``."""
        raise NotImplementedError(f"{type(self).__name__} must implement _forward")

    def _create_variables(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        """This module's own trainable variables (not its submodules'): name -> native array."""
        return {}

    def _create_state(self, *, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        """This module's own non-trainable buffers: name -> native array."""
        return {}

    def _needs_input(self) -> bool:
        """Whether some size of this module's own variables comes from its first input."""
        return False

    def _infer_from_input(self, *args: Any, **kwargs: Any) -> None:
        """Set the sizes that come from the first input (called before the build by a call)."""

    # ------------------------------------------------------------------ submodules

    def __setattr__(self, name: str, value: Any) -> None:
        declared = self._declared
        if declared is not None and name in declared:
            raise AttributeError(
                f"{type(self).__name__}.{name} is a weight (add_weight): assign module.v (or state) to change it"
            )
        object.__setattr__(self, name, value)
        # a public attribute may now hold (or no longer hold) a submodule; properties (`v`,
        # `state`, set every training step) keep nothing in the instance dict and change none
        if not name.startswith("_") and name in self.__dict__:
            self.__dict__["_sub_attrs"] = None

    def __delattr__(self, name: str) -> None:
        object.__delattr__(self, name)
        self.__dict__["_sub_attrs"] = None

    def __getattr__(self, name: str) -> Any:
        # only reached when ordinary lookup fails: a weight declared with add_weight, read from the
        # variables in use (those given with v= during a pure call, a compiled program's...)
        declared = self.__dict__.get("_declared")
        if declared is None or name not in declared:
            raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")
        if _tracking._session is not None:  # inside an ivy.compile'd call: is this state threaded?
            _tracking.touch(self)
        if self._own_v is None:
            self._build()
        where = self._own_v if declared[name][3] else self._own_state
        return dict.__getitem__(where or {}, name)

    def add_weight(
        self,
        name: str,
        shape: Any = None,
        *,
        initializer: Any = None,
        dtype: Any = None,
        trainable: bool = True,
    ) -> None:
        """Declare a variable of this module (Keras' ``add_weight``, torch's ``nn.Parameter``): a
        ViT's class token, a learned scale. Call it in ``__init__``; the variable is created with the
        others when the module builds (on its backend and device), and ``_forward`` reads it as
        ``self.<name>`` (also ``self.v.<name>``); it is trained, saved and loaded with the others.

        Args:
            name: its key in ``v`` (or ``state``) and the attribute it is read from.
            shape: its shape; default that of an array ``initializer``.
            initializer: an :class:`ivy.Initializer` (default :class:`ivy.GlorotUniform`, as
                Keras'), or the initial value: a NumPy or native array (of any framework), a
                number or a list.
            dtype: default the module's (``float32``).
            trainable: ``False``: a non-trainable buffer, in ``state`` (torch's
                ``register_buffer``).

        Raises:
            ValueError: the name is not a plain name, or is already taken (a weight, an
                attribute, a submodule); the shape is missing or differs from the value's.
            RuntimeError: the module is already built (its variables exist).
        """
        cls = type(self).__name__
        if not isinstance(name, str) or not name.isidentifier() or name.startswith("_"):
            raise ValueError(f"{cls}.add_weight: the name must be an identifier not starting with '_', got {name!r}")
        if self._own_v is not None:
            raise RuntimeError(
                f"{cls}.add_weight({name!r}): the module is already built; declare its weights in __init__"
            )
        declared = dict(self._declared or {})
        if name in declared or name in vars(self) or hasattr(type(self), name):
            raise ValueError(f"{cls}.add_weight: {name!r} is already taken (a weight, an attribute or a method)")
        if initializer is None:
            initializer = GlorotUniform()
        if not isinstance(initializer, Initializer):
            value_shape = tuple(int(d) for d in getattr(initializer, "shape", ()) or ())
            if not hasattr(initializer, "shape"):  # a number or a list
                import numpy as np

                value_shape = tuple(np.shape(initializer))
            if shape is None:
                shape = value_shape
            if ivy.is_native_array(initializer):
                initializer = ivy.to_numpy(initializer)
        if shape is None:
            raise ValueError(f"{cls}.add_weight({name!r}): give a shape (or an array as the initializer)")
        shape = tuple(int(d) for d in (shape if isinstance(shape, (tuple, list)) else (shape,)))
        if not isinstance(initializer, Initializer) and shape != value_shape:
            raise ValueError(f"{cls}.add_weight({name!r}): shape {shape} but the initial value has shape {value_shape}")
        declared[name] = (shape, initializer, dtype, bool(trainable))
        object.__setattr__(self, "_declared", declared)

    def _create_declared(self, trainable: bool, backend: str, device: Any, dtype: Any) -> dict[str, Any]:
        """The weights declared with :meth:`add_weight` (trainable ones or buffers), created."""
        out = {}
        for name, (shape, init, own_dtype, is_var) in (self._declared or {}).items():
            if is_var != trainable:
                continue
            dt = own_dtype or dtype
            if isinstance(init, Initializer):
                out[name] = init.create(shape, dtype=dt, device=device, backend=backend)
            else:
                out[name] = ivy.asarray(init, dtype=dt, device=device, backend=backend)
        return out

    def _submodule_attrs(self) -> list[str]:
        """Names of the public attributes that hold a module or a list, tuple or dict (which may
        hold modules). Worked out once, again after an attribute is set or deleted: a training
        step asks for the submodules some thirty times, and the attributes rarely change."""
        d = vars(self)
        cached = d.get("_sub_attrs")
        if cached is not None and cached[0] == len(d):  # the length: writes that bypass setattr
            return cached[1]
        names = [
            name
            for name, value in d.items()
            if not name.startswith("_")
            and (
                isinstance(value, (Module, list, tuple))
                or (isinstance(value, dict) and not isinstance(value, Container))
            )
        ]
        d["_sub_attrs"] = (len(d) + (0 if "_sub_attrs" in d else 1), names)
        return names

    def _children(self) -> list[tuple[str, str | None, Module]]:
        """``(attribute, key in it or None, module)`` of every direct submodule, in attribute
        order: the key chain's parts, without building its string."""
        out: list[tuple[str, str | None, Module]] = []
        d = vars(self)
        for name in self._submodule_attrs():
            value = d[name]  # lists and dicts are read every time: they may change in place
            if isinstance(value, Module):
                out.append((name, None, value))
            elif isinstance(value, (list, tuple)):
                out.extend((name, str(i), m) for i, m in enumerate(value) if isinstance(m, Module))
            else:
                out.extend((name, str(k), m) for k, m in value.items() if isinstance(m, Module))
        return out

    def _submodules(self) -> list[tuple[str, Module]]:
        """``(key chain, module)`` of every direct submodule, in attribute order."""
        return [(name if key is None else f"{name}{SEPARATOR}{key}", m) for name, key, m in self._children()]

    def modules(self) -> Iterator[tuple[str, Module]]:
        """``(key chain, module)`` of this module (``""``) and every module below it."""
        yield "", self
        for chain, m in self._submodules():
            for sub, mm in m.modules():
                yield (f"{chain}{SEPARATOR}{sub}" if sub else chain), mm

    # ------------------------------------------------------------------ building

    @property
    def built(self) -> bool:
        """Whether this module's own variables exist (submodules may build later)."""
        return self._own_v is not None

    @property
    def backend(self) -> str | None:
        """The Ivy backend of the variables, once built."""
        return self._backend_name

    @property
    def device(self) -> Any:
        """The device the variables were created on, once built (``None``: the default)."""
        return self._device

    def _placement(self, args: Any, kwargs: Any, backend: Any, device: Any) -> tuple[str, Any]:
        x = _first_array((args, kwargs)) if args or kwargs else None
        b = self._backend_arg if self._backend_arg is not None else backend
        if b is None:
            b = ivy.namespace(x).name if x is not None else ivy.current_backend().name
        elif not isinstance(b, str):
            b = b.name
        d = self._device_arg if self._device_arg is not None else device
        if d is None and x is not None and (self._backend_arg is None or ivy.namespace(x).name == b):
            d = ivy.dev(x)
        return b, d

    def build(self, *args: Any, backend: Any = None, device: Any = None, **kwargs: Any) -> Module:
        """Create the variables now (normally automatic). ``args`` / ``kwargs``: an example input
        for sizes and placement; ``backend`` / ``device`` apply where the constructor gave none."""
        self._build(args, kwargs, backend=backend, device=device)
        return self

    def _build(
        self, args: Any = (), kwargs: Any = None, *, backend: Any = None, device: Any = None, from_input: bool = False
    ) -> None:
        kwargs = kwargs or {}
        if from_input:
            self._infer_from_input(*args, **kwargs)
        b, d = self._placement(args, kwargs, backend, device)
        if self._own_v is None:
            if self._needs_input():
                raise ModuleNotBuiltError(
                    f"{type(self).__name__} takes some sizes from its first input: call it on an "
                    "input first (or give every size to its constructor)"
                )
            self._backend_name, self._device = b, d
            dtype = self._dtype or "float32"
            made = self._create_variables(backend=b, device=d, dtype=dtype)
            buffers = self._create_state(backend=b, device=d, dtype=dtype)
            if self._declared:
                subs = {name for name, _, _ in self._children()}
                for k, new in ((True, made), (False, buffers)):
                    extra = self._create_declared(k, b, d, dtype)
                    clash = sorted(set(extra) & (set(made) | set(buffers) | subs))
                    if clash:
                        raise ValueError(f"{type(self).__name__}: add_weight names {clash} are taken by the layer")
                    new.update(extra)
            self._own_v = Container(made).map(lambda x, _: ivy.variable(x))
            self._own_state = Container(buffers)
        for _, m in self._submodules():
            if not m.built and not m._needs_input():
                m._build(backend=b, device=d)
        if self._pending_v is not None:
            pending, self._pending_v = self._pending_v, None
            self.v = pending

    # ------------------------------------------------------------------ variables and state

    @property
    def v(self) -> Container:
        """All trainable variables: this module's own, and each submodule's under its name.

        Building (see the module docstring) happens here if it has not yet. Assigning a Container
        of the same structure replaces them (``model.v = optimizer.step(model.v, grads)``).
        """
        if _tracking._session is not None:  # inside an ivy.compile'd call: is this state threaded?
            _tracking.touch(self)
        if self._own_v is None:
            self._build()
        out = Container._trusted(dict.items(self._vars))  # (built above)
        for name, key, m in self._children():
            try:
                sub = m.v
            except ModuleNotBuiltError as e:
                chain = name if key is None else f"{name}{SEPARATOR}{key}"
                raise ModuleNotBuiltError(f"submodule {chain!r}: {e}") from None
            if sub:  # modules without variables (activations, pooling) leave no key
                if key is None:
                    dict.__setitem__(out, name, sub)
                elif SEPARATOR in key:  # a dict key that is itself a key chain
                    out[f"{name}{SEPARATOR}{key}"] = sub
                else:  # an item of a list or dict attribute: nested under the attribute's name
                    group = dict.get(out, name)
                    if group is None:
                        group = Container._trusted(())
                        dict.__setitem__(out, name, group)
                    dict.__setitem__(group, key, sub)
        return out

    @v.setter
    def v(self, new: Any) -> None:
        if _tracking._session is not None:  # inside an ivy.compile'd call: is this state threaded?
            _tracking.touch(self)
        new = new if isinstance(new, Container) else Container(new)
        if self._own_v is None:
            try:  # build first (backend and device from the new arrays), so that buffers exist
                self._build((new,), {})
            except ModuleNotBuiltError:
                pass  # sizes come from an input: adopt the variables as they are
        fast = _tracking._session is None and self._v_matches(new)  # (v's touches count when compiling)
        if not fast and all(own is not None for _, own in self._own_v_or_none()):
            cur = self.v
            if not cur._same_keys(new):  # (the same key chains in another order pass)
                Container.assert_identical_structure(new, cur, "the new v and the module's v")
        self._assign_v(new)

    def _v_matches(self, part: Container | None) -> bool:
        """Whether ``part`` has the key chains of the built ``v`` (``None``: ``v`` is empty),
        checked against each module's own variables without building ``v`` (the setter's check on
        every training step). ``False`` where unsure: the caller then compares the built ``v``."""
        own = self._own_v
        if own is None:
            return False
        top: set[str] = set()
        groups: dict[str, int] = {}
        for name, key, m in self._children():
            if key is None:
                sub = dict.get(part, name) if part is not None else None
            elif SEPARATOR in key:
                return False
            else:
                group = dict.get(part, name) if part is not None else None
                sub = dict.get(group, key) if isinstance(group, Container) else None
            if sub is not None and not (isinstance(sub, Container) and sub):
                return False  # (a leaf, or an empty Container where v leaves no key)
            if not m._v_matches(sub):
                return False
            if sub is not None:
                top.add(name)
                if key is not None:
                    groups[name] = groups.get(name, 0) + 1
        if part is None:
            return not own
        if len(part) != len(own) + len(top) or any(len(dict.__getitem__(part, g)) != n for g, n in groups.items()):
            return False
        for k, mine in dict.items(own):
            if k in top or k not in part:
                return False
            theirs = dict.__getitem__(part, k)
            if isinstance(mine, Container):
                if not (isinstance(theirs, Container) and mine._same_keys(theirs)):
                    return False
            elif isinstance(theirs, Mapping):
                return False
        return True

    @property
    def _vars(self) -> Container:
        """This module's own variables, for ``_forward`` (the module is built by then): a layer
        reads its weights here, without ``v``'s copy and walk of submodules on every call."""
        return self._own_v  # type: ignore[return-value]

    def _assign_v(self, new: Container, saved: list[tuple[Module, Container | None]] | None = None) -> None:
        """Give this module and those below it their parts of ``new``. With ``saved`` (a call
        with ``v=``, undone after it) the variables they had are appended to it, and a module
        without submodules takes its part as it is, not a copy."""
        if saved is not None:
            saved.append((self, self._own_v))
        children = self._children()  # (every module, on each call with v=)
        if children:
            roots = set()
            for name, key, m in children:
                roots.add(name)
                m._assign_v(_branch(new, (name,) if key is None else (name, *key.split(SEPARATOR))), saved)
            own = Container._trusted((k, x) for k, x in dict.items(new) if k not in roots)
        else:
            own = new if saved is not None else Container._trusted(dict.items(new))
        object.__setattr__(self, "_own_v", own)  # (a private name: Module.__setattr__ has nothing to do)
        if self._own_state is None:
            self._own_state = Container()

    def _own_v_or_none(self) -> list[tuple[Module, Container | None]]:
        """``(module, its own variables)`` of this module and every module below it, in the
        order of :meth:`modules`."""
        out: list[tuple[Module, Container | None]] = [(self, self._own_v)]
        for _, _, m in self._children():
            out += m._own_v_or_none()
        return out

    @property
    def state(self) -> Container:
        """All non-trainable buffers (running statistics), structured like ``v``."""
        if _tracking._session is not None:  # inside an ivy.compile'd call: is this state threaded?
            _tracking.touch(self)
        if self._own_v is None:
            self._build()
        out = Container(self._own_state or {})
        for chain, m in self._submodules():
            sub = m.state if m.built else Container()
            if sub:
                out[chain] = sub
        return out

    @state.setter
    def state(self, new: Any) -> None:
        if _tracking._session is not None:  # inside an ivy.compile'd call: is this state threaded?
            _tracking.touch(self)
        new = new if isinstance(new, Container) else Container(new)
        Container.assert_identical_structure(new, self.state, "the new state and the module's state")
        for chain, x in new.items_flat():
            path, _, name = chain.rpartition(SEPARATOR)
            m = self._module_at(path)
            m._own_state = Container(m._own_state or {})
            m._own_state[name] = x

    def _module_at(self, chain: str) -> Module:
        for c, m in self.modules():
            if c == chain:
                return m
        raise KeyError(f"no submodule {chain!r}")

    def _update_state(self, **buffers: Any) -> None:
        """Replace own buffers (used by layers during the forward pass); gradients are stopped."""
        if self._own_state is None:
            self._own_state = Container()
        capture = _tracking._capture
        for k, x in buffers.items():
            self._own_state[k] = ivy.stop_gradient(x)
            if capture is not None:  # inside a gradient transform: stored again from its outputs
                capture.append((self, k))

    # ------------------------------------------------------------------ calling

    def __call__(self, *args: Any, v: Any = None, **kwargs: Any) -> Any:
        """Run the forward pass, with the module's variables, or with ``v`` if given (pure use).

        On the first call with ``v=None`` the module builds, taking its backend, device and any
        missing sizes from the input (see the module docstring).
        """
        if _tracking._session is not None:  # inside an ivy.compile'd call: is this state threaded?
            _tracking.touch(self)
        if v is None:
            if self._own_v is None:
                if self._needs_input() and _first_array((args, kwargs)) is None:
                    raise ModuleNotBuiltError(
                        f"{type(self).__name__} is not built and takes its sizes from its input: "
                        "call it with an input array, or pass v="
                    )
                self._build(args, kwargs, from_input=True)
            out = self._forward(*args, **kwargs)
        else:
            new = v if isinstance(v, Container) else Container(v)
            saved: list[tuple[Module, Container | None]] = []
            self._assign_v(new, saved)
            try:
                out = self._forward(*args, **kwargs)
            finally:
                for m, own in saved:
                    object.__setattr__(m, "_own_v", own)
        if _inspect._record is not None:  # model.summary() is running: note this module's output
            _inspect._record.setdefault(id(self), out)
        return out

    # ------------------------------------------------------------------ compiled programs

    def _ivy_members(self) -> list[Module]:
        """This module and every module below it: the stateful objects ``ivy.compile`` threads
        for it (each holds its own variables and buffers)."""
        return [m for _, m in self.modules()]

    def _ivy_get_state(self) -> dict[str, Any]:
        """This module's own variables and buffers (not its submodules'), as plain nests."""
        return {
            "v": None if self._own_v is None else self._own_v.to_dict(),
            "state": None if self._own_state is None else self._own_state.to_dict(),
        }

    def _ivy_set_state(self, state: dict[str, Any], *, concrete: bool = True) -> None:
        v, buffers = state["v"], state["state"]
        self._own_v = None if v is None else Container(v)
        self._own_state = None if buffers is None else Container(buffers)

    def _ivy_flat_state(self) -> tuple[Any, list[Any]] | None:
        """``(key, leaves)``: the state as a compiled training step takes it on every call, where
        this module's own variables and buffers are flat (a layer's are); None otherwise."""
        v, s = self._own_v, self._own_state
        if v is None:
            return None
        leaves = list(dict.values(v))
        if s:
            leaves += dict.values(s)
        for x in leaves:
            if isinstance(x, dict):  # nested variables: the nested form
                return None
        return (tuple(v), None if s is None else tuple(s)), leaves

    def _ivy_set_flat_state(self, key: Any, leaves: list[Any], *, concrete: bool = True) -> None:
        v_keys, s_keys = key
        n = len(v_keys)
        self._own_v = Container._trusted(zip(v_keys, leaves[:n]))
        self._own_state = None if s_keys is None else Container._trusted(zip(s_keys, leaves[n:]))

    def _ivy_ready(self) -> bool:
        """Whether the module is built (a compiled program cannot create variables)."""
        return self._own_v is not None

    # ------------------------------------------------------------------ modes and devices

    def train(self, mode: bool = True) -> Module:
        """Set training mode (``mode=False``: evaluation mode) here and in every submodule."""
        for _, m in self.modules():
            m.training = mode
        return self

    def eval(self) -> Module:
        """Set evaluation mode here and in every submodule."""
        return self.train(False)

    def to_device(self, device: Any) -> Module:
        """Move every variable and buffer to ``device`` (building first if needed)."""
        self.v  # noqa: B018 - builds
        for _, m in self.modules():
            if m._own_v is not None:
                m._own_v = m._own_v.to_device(device)
                m._own_state = (m._own_state or Container()).to_device(device)
                m._device = device
        return self

    # ------------------------------------------------------------------ saving

    def _weights(self) -> dict[str, Any]:
        flat = self.v.to_flat_dict()
        for k, x in self.state.to_flat_dict().items():
            if k in flat:
                raise ValueError(f"{k!r} names both a variable and a buffer")
            flat[k] = x
        return flat

    def save_weights(self, path: str | os.PathLike[str]) -> None:
        """Write ``v`` and ``state`` to a safetensors file, named by key chain (``"linear0/w"``).
        The file is replaced atomically: a crash during the save leaves the previous file whole."""
        safetensors.save_file(self._weights(), path, metadata={"format": "ivy", "separator": SEPARATOR})

    def load_weights(self, path: str | os.PathLike[str]) -> Module:
        """Read ``v`` and ``state`` from a safetensors file written by :meth:`save_weights` (or
        any writer using the same names), into this module's backend and device, cast to the
        dtypes of the current variables (within a kind: a float64 file into float32 weights).

        The whole file is checked first (its format, then every key chain, shape and dtype): a
        load that fails leaves the module as it was.

        Raises:
            ModuleNotBuiltError: the module takes sizes from an input it has not seen yet.
            KeyError: the file lacks some key chains, or has unknown ones (all are named).
            ValueError: a shape differs, or a dtype is of another kind (an integer array for a
                float variable): the file, the key chain and both are named; or the file is not a
                valid safetensors file.
        """
        current = self._weights()  # builds (and raises ModuleNotBuiltError) before reading the file
        where = os.fspath(path)
        header, _ = safetensors.read_header(path)
        _restore.check(_restore.header_specs(header), _restore.specs(current), where)
        loaded = safetensors.load_file(path, backend=self._backend_name, device=self._device)
        return self._load_flat(loaded, where)

    def _load_flat(self, loaded: dict[str, Any], where: str) -> Module:
        """Set ``v`` and ``state`` from a flat ``{key chain: array}`` (arrays of this module's
        backend), cast to the current dtypes; errors name ``where`` the arrays came from, and
        leave the module unchanged."""
        apply = self._prepare_flat(loaded, where)
        undo = self._weights_snapshot()
        try:
            apply()
        except BaseException:
            undo()
            raise
        return self

    def _prepare_flat(self, loaded: dict[str, Any], where: str) -> Any:
        """Check ``loaded`` against the module's weights and convert it; returns the function
        that assigns it (nothing is assigned before)."""
        current = self._weights()
        found, want = _restore.specs(loaded), _restore.specs(current)
        _restore.check(found, want, where)
        new = {}
        for k, x in loaded.items():
            new[k] = x if found[k][1] == want[k][1] else ivy.astype(x, current[k].dtype)
        state_keys = set(self.state.to_flat_dict())
        v = Container.from_flat_dict({k: ivy.variable(x) for k, x in new.items() if k not in state_keys})
        state = Container.from_flat_dict({k: x for k, x in new.items() if k in state_keys}) if state_keys else None

        def apply() -> None:
            self.v = v
            if state is not None:
                self.state = state

        return apply

    def _weights_snapshot(self) -> Any:
        """A function that puts back the variables and buffers every module below holds now."""
        held = [(m, m._own_v, m._own_state) for _, m in self.modules()]

        def undo() -> None:
            for m, own_v, own_state in held:
                object.__setattr__(m, "_own_v", own_v)
                object.__setattr__(m, "_own_state", own_state)

        return undo

    # ------------------------------------------------------------------ inspection

    def extra_repr(self) -> str:
        """This module's settings, as shown by ``repr``: the constructor arguments this module
        keeps as attributes of the same name, those left at their default omitted (as torch's
        ``extra_repr``). Override it to show something else."""
        return _inspect.settings_repr(self)

    def count_params(self) -> int:
        """The number of trainable scalars (elements of every variable), building if needed."""
        return sum(_size(x) for x in self.v.to_flat_dict().values())

    def summary(
        self, *example_args: Any, depth: int | None = None, print_fn: Any = print, **example_kwargs: Any
    ) -> str | None:
        """A table of the layers (every submodule, indented by depth), their output shapes and
        parameter counts, with totals, as Keras' ``model.summary()``: printed with ``print_fn``,
        or returned as a string with ``print_fn=None``.

        Output shapes come from one forward pass on the example input (``model.summary(x)``), run
        in evaluation mode and leaving the variables and buffers unchanged; without an example
        the shapes read ``?``.

        Args:
            *example_args: an example input (its batch size appears in the shapes): native
                arrays of any framework or NumPy arrays, converted to the model's backend and
                device as :meth:`ivy.Trainer.fit` converts its batches.
            depth: show submodules at most this deep (``1``: the direct children); default all.
            print_fn: called with the table; ``None`` to only return it.
            **example_kwargs: further keyword arguments of the example call.

        Raises:
            ModuleNotBuiltError: no example and the module takes sizes from its input.
        """
        text = _inspect.summary(self, example_args, example_kwargs, depth)
        if print_fn is None:
            return text
        print_fn(text)
        return None

    def __repr__(self) -> str:
        return _inspect.module_repr(self)


def _size(x: Any) -> int:
    n = 1
    for d in x.shape:
        n *= int(d)
    return n
