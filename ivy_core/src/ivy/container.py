"""``ivy.Container``: a nested dict of native arrays with attribute access and leaf-wise maths.

A Container is a ``dict`` subclass, so it is a nest everywhere in Ivy (``ivy.nest.tree_flatten`` and
``unflatten`` rebuild Containers, gradients of a Container are a Container). Keys are strings;
a *key chain* names a leaf through the nesting, joined with ``"/"``: ``"layer0/w"``. A plain
``dict`` value is turned into a Container on construction and on assignment.

JAX sees a Container as a pytree once its plugin registers :func:`pytree_flatten` and
:func:`pytree_unflatten` (``jax.tree_util.register_pytree_node``); core imports no framework.
"""

from __future__ import annotations

import operator
import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from . import _api as ivy
from . import nest, safetensors

__all__ = ["Container", "pytree_flatten", "pytree_unflatten", "SEPARATOR"]

#: Separator of the keys in a key chain (``"layer0/w"``), in flat dicts and in saved files.
SEPARATOR = "/"


def _is_array(x: Any) -> bool:
    return ivy.is_native_array(x)


def _describe(x: Any) -> str:
    if _is_array(x):
        shape = tuple(int(d) for d in x.shape)
        return f"<array shape={shape} dtype={ivy.dtype_name(x.dtype)}>"
    return repr(x)


class Container(dict):
    """A nested dict with attribute access (``c.layer0.w``) and leaf-wise methods and arithmetic.

    ``Container({"a": x, "b": {"c": y}})``, ``Container(a=x, b={"c": y})`` and
    ``Container([("a", x)])`` all work; nested dicts become Containers. Arithmetic (``+ - * /
    // % **``, unary ``- + abs``) applies leaf by leaf, between two Containers of the same
    structure or between a Container and a scalar or array (applied to every leaf). Keys that are
    also method names (``map``, ``keys``, ``copy``...) are reached with ``c["map"]``.

    Raises:
        AttributeError / KeyError: on an unknown key, naming it and the keys that exist.
    """

    __slots__ = ()

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for k, v in dict.items(self):
            if not isinstance(k, str):
                raise TypeError(f"Container keys must be strings, got {k!r}")
            if SEPARATOR in k:
                raise ValueError(f"Container key {k!r} contains the key-chain separator {SEPARATOR!r}")
            if isinstance(v, dict) and not isinstance(v, Container):
                dict.__setitem__(self, k, Container(v))

    @classmethod
    def _trusted(cls, items: Iterable[tuple[str, Any]]) -> Container:
        """A Container of ``(key, value)`` pairs that are valid already (the keys and nested
        Containers of another Container): the constructor's checks skipped, for the paths that
        rebuild nests on every training step."""
        out = dict.__new__(cls)
        dict.update(out, items)
        return out

    def _same_keys(self, other: Mapping[str, Any]) -> bool:
        """Whether ``other`` has the same keys as this Container at every level (in any order)."""
        if self.keys() != other.keys():
            return False
        plain = isinstance(other, dict)  # (plain item access: other's keys are those of self here)
        for k, v in dict.items(self):
            w = dict.__getitem__(other, k) if plain else other[k]  # type: ignore[index]
            if isinstance(v, Container):
                if not (isinstance(w, Mapping) and v._same_keys(w)):
                    return False
            elif isinstance(w, Mapping):
                return False
        return True

    # ------------------------------------------------------------------ access

    def _missing(self, key: str, chain: str) -> KeyError:
        return KeyError(f"Container has no key {chain!r} (no {key!r} among {sorted(self)})")

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        try:
            return dict.__getitem__(self, name)
        except KeyError:
            raise AttributeError(f"Container has no key {name!r}; its keys: {sorted(self)}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        self[name] = value

    def __delattr__(self, name: str) -> None:
        try:
            del self[name]
        except KeyError:
            raise AttributeError(f"Container has no key {name!r}; its keys: {sorted(self)}") from None

    def __getitem__(self, key: str) -> Any:
        if isinstance(key, str) and SEPARATOR in key:
            return self.at_key_chain(key)
        try:
            return dict.__getitem__(self, key)
        except KeyError:
            raise self._missing(key, key) from None

    def __setitem__(self, key: str, value: Any) -> None:
        if not isinstance(key, str):
            raise TypeError(f"Container keys must be strings, got {key!r}")
        if SEPARATOR in key:
            head, _, rest = key.partition(SEPARATOR)
            sub = dict.get(self, head)
            if sub is None:
                sub = Container()
                dict.__setitem__(self, head, sub)
            if not isinstance(sub, Container):
                raise KeyError(f"cannot set {key!r}: {head!r} is a leaf, not a Container")
            sub[rest] = value
            return
        if isinstance(value, dict) and not isinstance(value, Container):
            value = Container(value)
        dict.__setitem__(self, key, value)

    def __dir__(self) -> list[str]:
        return sorted(set(super().__dir__()) | {k for k in self if k.isidentifier()})

    # dict's pickling would call __setattr__ for the instance dict; a Container has none
    def __reduce__(self) -> Any:
        return (Container, (dict(self),))

    def at_key_chain(self, chain: str) -> Any:
        """The value at ``"a/b/c"``; raises ``KeyError`` naming the first missing key."""
        node: Any = self
        for key in chain.split(SEPARATOR):
            if not isinstance(node, dict) or key not in node:
                where = node if isinstance(node, dict) else {}
                raise KeyError(f"Container has no key chain {chain!r} (no {key!r} among {sorted(where)})")
            node = dict.__getitem__(node, key)
        return node

    def has_key_chain(self, chain: str) -> bool:
        """Whether ``"a/b/c"`` exists."""
        try:
            self.at_key_chain(chain)
        except KeyError:
            return False
        return True

    # ------------------------------------------------------------------ iteration and flattening

    def items_flat(self, prefix: str = "") -> Iterator[tuple[str, Any]]:
        """``(key_chain, leaf)`` for every leaf, depth first, in insertion order."""
        for k, v in dict.items(self):
            chain = f"{prefix}{SEPARATOR}{k}" if prefix else k
            if isinstance(v, Container):
                yield from v.items_flat(chain)
            else:
                yield chain, v

    def key_chains(self) -> list[str]:
        """The key chains of every leaf."""
        return [k for k, _ in self.items_flat()]

    def leaves(self) -> list[Any]:
        """Every leaf, in the order of :meth:`key_chains`."""
        return [v for _, v in self.items_flat()]

    def to_flat_dict(self) -> dict[str, Any]:
        """``{"a/b": leaf, ...}``: one level, keyed by key chain."""
        return dict(self.items_flat())

    @classmethod
    def from_flat_dict(cls, flat: Mapping[str, Any]) -> Container:
        """The inverse of :meth:`to_flat_dict`: ``{"a/b": x}`` -> ``Container(a=Container(b=x))``."""
        out = cls()
        for chain, v in flat.items():
            out[chain] = v
        return out

    def to_dict(self) -> dict[str, Any]:
        """Plain nested dicts (a deep copy of the structure; leaves shared)."""
        return {k: v.to_dict() if isinstance(v, Container) else v for k, v in dict.items(self)}

    def copy(self) -> Container:
        """A copy of the structure (every level); the leaves are shared."""
        return self.map(lambda x, _: x)

    def __copy__(self) -> Container:
        return self.copy()

    # ------------------------------------------------------------------ mapping

    def map(self, fn: Callable[[Any, str], Any], *, key_chains: Iterable[str] | None = None) -> Container:
        """A new Container with ``fn(leaf, key_chain)`` at every leaf.

        Args:
            fn: called as ``fn(leaf, key_chain)``.
            key_chains: apply ``fn`` only at these leaves (the others are kept as they are).
        """
        only = None if key_chains is None else set(key_chains)
        return Container.from_flat_dict(
            {kc: (fn(v, kc) if only is None or kc in only else v) for kc, v in self.items_flat()}
        )._with_order_of(self)

    def _with_order_of(self, like: Container) -> Container:
        # from_flat_dict drops empty sub-Containers: keep them, in the original order
        out = Container()
        for k, v in dict.items(like):
            if isinstance(v, Container):
                mine = dict.get(self, k)
                out[k] = mine._with_order_of(v) if isinstance(mine, Container) else Container()
            else:
                dict.__setitem__(out, k, dict.__getitem__(self, k))
        return out

    def prune_key_chains(self, chains: Iterable[str]) -> Container:
        """A copy without the given key chains (leaves or whole sub-Containers)."""
        drop = set(chains)
        out = Container()
        for k, v in dict.items(self):
            if k in drop:
                continue
            sub = [c.partition(SEPARATOR)[2] for c in drop if c.startswith(k + SEPARATOR)]
            dict.__setitem__(out, k, v.prune_key_chains(sub) if isinstance(v, Container) else v)
        return out

    # ------------------------------------------------------------------ arrays

    def to_device(self, device: Any) -> Container:
        """Every array leaf copied to ``device`` (:func:`ivy.to_device`)."""
        return self.map(lambda x, _: ivy.to_device(x, device) if _is_array(x) else x)

    def stop_gradient(self) -> Container:
        """Every array leaf cut from the gradient graph (:func:`ivy.stop_gradient`)."""
        return self.map(lambda x, _: ivy.stop_gradient(x) if _is_array(x) else x)

    def as_variables(self) -> Container:
        """Every floating-point array leaf made a trainable variable (:func:`ivy.variable`)."""
        return self.map(lambda x, _: ivy.variable(x) if _is_array(x) else x)

    def to_numpy(self) -> Container:
        """Every array leaf as a NumPy array (:func:`ivy.to_numpy`)."""
        return self.map(lambda x, _: ivy.to_numpy(x) if _is_array(x) else x)

    @property
    def shapes(self) -> Container:
        """The shape of every array leaf, as a tuple of ints (``None`` for other leaves)."""
        return self.map(lambda x, _: tuple(int(d) for d in x.shape) if _is_array(x) else None)

    @property
    def num_arrays(self) -> int:
        """How many leaves are arrays."""
        return sum(1 for x in self.leaves() if _is_array(x))

    # ------------------------------------------------------------------ comparison

    @staticmethod
    def structure_diff(a: Mapping[str, Any], b: Mapping[str, Any]) -> tuple[list[str], list[str]]:
        """The key chains only in ``a`` and only in ``b`` (both empty: identical structure)."""
        ka = set(Container(a).key_chains())
        kb = set(Container(b).key_chains())
        return sorted(ka - kb), sorted(kb - ka)

    @staticmethod
    def identical_structure(a: Mapping[str, Any], b: Mapping[str, Any]) -> bool:
        """Whether ``a`` and ``b`` have the same key chains (the leaves are not compared)."""
        return Container.structure_diff(a, b) == ([], [])

    @staticmethod
    def assert_identical_structure(a: Mapping[str, Any], b: Mapping[str, Any], what: str = "Containers") -> None:
        """Raise ``ValueError`` naming the key chains that only one of ``a`` and ``b`` has."""
        only_a, only_b = Container.structure_diff(a, b)
        if only_a or only_b:
            raise ValueError(f"{what} differ in structure: only in the first: {only_a}; only in the second: {only_b}")

    def all_close(self, other: Mapping[str, Any], *, rtol: float = 1e-5, atol: float = 1e-8) -> bool:
        """Same structure, and every pair of leaves equal within ``|a - b| <= atol + rtol |b|``."""
        if not Container.identical_structure(self, other):
            return False
        o = Container(other)
        for kc, x in self.items_flat():
            y = o.at_key_chain(kc)
            if _is_array(x) or _is_array(y):
                if tuple(x.shape) != tuple(y.shape):
                    return False
                if not bool(ivy.all(ivy.abs(x - y) <= atol + rtol * ivy.abs(y))):
                    return False
            elif x != y:
                return False
        return True

    def all_equal(self, other: Mapping[str, Any]) -> bool:
        """Same structure and exactly equal leaves (arrays: same shape and values)."""
        return self.all_close(other, rtol=0.0, atol=0.0)

    # ------------------------------------------------------------------ arithmetic

    def _binary(self, other: Any, op: Callable[[Any, Any], Any], name: str, reflected: bool = False) -> Container:
        if isinstance(other, dict):
            other = other if isinstance(other, Container) else Container(other)
            Container.assert_identical_structure(self, other, f"Containers in {name!r}")
            f = (
                (lambda x, kc: op(other.at_key_chain(kc), x))
                if reflected
                else (lambda x, kc: op(x, other.at_key_chain(kc)))
            )
            return self.map(f)
        if reflected:
            return self.map(lambda x, _: op(other, x))
        return self.map(lambda x, _: op(x, other))

    def __add__(self, o: Any) -> Container:
        return self._binary(o, operator.add, "+")

    def __radd__(self, o: Any) -> Container:
        return self._binary(o, operator.add, "+", True)

    def __sub__(self, o: Any) -> Container:
        return self._binary(o, operator.sub, "-")

    def __rsub__(self, o: Any) -> Container:
        return self._binary(o, operator.sub, "-", True)

    def __mul__(self, o: Any) -> Container:
        return self._binary(o, operator.mul, "*")

    def __rmul__(self, o: Any) -> Container:
        return self._binary(o, operator.mul, "*", True)

    def __truediv__(self, o: Any) -> Container:
        return self._binary(o, operator.truediv, "/")

    def __rtruediv__(self, o: Any) -> Container:
        return self._binary(o, operator.truediv, "/", True)

    def __floordiv__(self, o: Any) -> Container:
        return self._binary(o, operator.floordiv, "//")

    def __rfloordiv__(self, o: Any) -> Container:
        return self._binary(o, operator.floordiv, "//", True)

    def __mod__(self, o: Any) -> Container:
        return self._binary(o, operator.mod, "%")

    def __rmod__(self, o: Any) -> Container:
        return self._binary(o, operator.mod, "%", True)

    def __pow__(self, o: Any) -> Container:
        return self._binary(o, operator.pow, "**")

    def __rpow__(self, o: Any) -> Container:
        return self._binary(o, operator.pow, "**", True)

    def __neg__(self) -> Container:
        return self.map(lambda x, _: -x)

    def __pos__(self) -> Container:
        return self.map(lambda x, _: +x)

    def __abs__(self) -> Container:
        return self.map(lambda x, _: abs(x))

    # dict's ``|`` merges; keep that meaning (``__or__`` is not overridden).

    # ------------------------------------------------------------------ printing

    def _lines(self, indent: int) -> list[str]:
        pad = "    " * indent
        lines = []
        for k, v in dict.items(self):
            if isinstance(v, Container):
                lines.append(f"{pad}{k}: {{")
                lines.extend(v._lines(indent + 1))
                lines.append(f"{pad}}}")
            else:
                lines.append(f"{pad}{k}: {_describe(v)}")
        return lines

    def __repr__(self) -> str:
        if not self:
            return "Container({})"
        return "Container({\n" + "\n".join(self._lines(1)) + "\n})"

    __str__ = __repr__

    # ------------------------------------------------------------------ disk

    def save(self, path: str | os.PathLike[str], metadata: Mapping[str, str] | None = None) -> None:
        """Write every array leaf to a safetensors file, named by key chain (``"layer0/w"``).

        Non-array leaves raise ``TypeError``; empty sub-Containers are not stored.
        """
        flat = self.to_flat_dict()
        for kc, x in flat.items():
            if not _is_array(x):
                raise TypeError(f"Container.save: {kc!r} is not an array ({type(x).__name__})")
        safetensors.save_file(flat, path, metadata={"format": "ivy", "separator": SEPARATOR, **(metadata or {})})

    @classmethod
    def load(cls, path: str | os.PathLike[str], *, backend: Any = None, device: Any = None) -> Container:
        """Read a safetensors file (written by :meth:`save` or any other writer) into a Container.

        Names are split into key chains at ``"/"``. ``backend`` and ``device`` choose where the
        arrays are created (default: the current backend, its default device).
        """
        return cls.from_flat_dict(safetensors.load_file(path, backend=backend, device=device))


def pytree_flatten(c: Container) -> tuple[list[Any], tuple[str, ...]]:
    """``c`` -> ``(children, keys)``, for a framework's pytree registry (``jax.tree_util``)."""
    keys = tuple(c)
    return [dict.__getitem__(c, k) for k in keys], keys


def pytree_unflatten(keys: tuple[str, ...], children: Iterable[Any]) -> Container:
    """The inverse of :func:`pytree_flatten`: ``(keys, children)`` -> a Container."""
    return Container._trusted(zip(keys, children))


nest._DICT_REBUILD[Container] = Container._trusted
