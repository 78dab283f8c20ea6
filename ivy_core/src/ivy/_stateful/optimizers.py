"""Stateful optimizers: ``new_v = opt.step(v, grads)``, built on Ivy's pure update functions
(:func:`ivy.gradient_descent_update`, :func:`ivy.adam_update`, :func:`ivy.lamb_update`,
:func:`ivy.lars_update`).

``v`` and ``grads`` are nests of the same structure (a :class:`ivy.Container`, as ``model.v`` and
the gradients of :func:`ivy.execute_with_gradients` are); the new variables come back in that
structure, cut from the gradient graph. The optimizer keeps its state (moments, momentum
buffers) in ``opt.state``, a Container created on the first step, and counts steps in
``opt.step_count``. ``lr`` is a number, or a function of the step number (from 1) giving one.
"""

from __future__ import annotations

import json
import os
from typing import Any, Callable

from .. import _api
from .. import _tracking, nest
from .._functional.optimizers import _adam_leaves, _descent_leaves, _lamb_leaves, _lars_leaves
from ..container import SEPARATOR, Container

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "LAMB", "LARS"]


def _ivy() -> Any:
    return _api


def _paths(s: nest.Structure, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The path (keys and indices) of each leaf of a nest structure, in leaf order."""
    if s.kind == "leaf":
        return [prefix]
    keys = s.meta[1] if s.kind == "dict" else range(len(s.children))
    return [p for k, c in zip(keys, s.children) for p in _paths(c, (*prefix, k))]


def _reorder(old: nest.Structure, new: nest.Structure) -> list[int] | None:
    """For each leaf of ``new``, the index of the leaf at the same path in ``old``; None when
    the two hold different paths."""
    where = {p: i for i, p in enumerate(_paths(old))}
    paths = _paths(new)
    if len(paths) != len(where) or any(p not in where for p in paths):
        return None
    return [where[p] for p in paths]


class Optimizer:
    """Base class: subclasses implement :meth:`_step`.

    Args:
        lr: learning rate, or a function ``step -> learning rate``.
        stop_gradients: cut the new variables from the graph of the old ones (default).
    """

    def __init__(self, lr: float | Callable[[int], float], *, stop_gradients: bool = True) -> None:
        self.lr = lr
        self.stop_gradients = stop_gradients
        self.step_count = 0
        self._state: dict[str, Any] = {}
        #: state kept as leaves: (structure of v, {name: list of leaves}); None until used
        self._flat: tuple[Any, dict[str, list[Any]]] | None = None

    #: names of the state kept as lists of leaves between steps (see :meth:`_flat_state`)
    _FLAT: tuple[str, ...] = ()

    @property
    def state(self) -> Container:
        """The optimizer's state: ``{name: nest like v}`` (empty before the first step).

        Assigning a Container of the same form (from another optimizer of the same kind, or from
        :meth:`state_dict`) restores it; :meth:`save` / :meth:`load` do so through a file.
        """
        if _tracking._session is not None:  # inside an ivy.compile'd call: is this state threaded?
            _tracking.touch(self)
        out = dict(self._state)
        if self._flat is not None:  # kept as lists of leaves between steps (see Adam)
            structure, named = self._flat
            out.update({k: nest.unflatten(structure, leaves) for k, leaves in named.items()})
        return Container(out)

    @state.setter
    def state(self, new: Any) -> None:
        if _tracking._session is not None:
            _tracking.touch(self)
        new = new if isinstance(new, Container) else Container(new)
        self._state, self._flat = {}, None
        flat: dict[str, list[Any]] = {}
        structure = None
        for name, tree in new.items():
            if name in self._FLAT:
                flat[name], s = nest.flatten(tree)
                if structure is not None and not nest.same_structure(s, structure):
                    raise ValueError(f"{type(self).__name__}.state: {sorted(flat)} differ in structure")
                structure = s
            else:
                self._state[name] = tree
        if flat:
            missing = sorted(set(self._FLAT) - set(flat))
            if missing:
                raise ValueError(f"{type(self).__name__}.state: {missing} missing (it holds {sorted(self._FLAT)})")
            self._flat = (structure, flat)

    def state_dict(self) -> dict[str, Any]:
        """``{"step_count": int, "state": Container}``: what resuming training needs (the
        hyperparameters come from the constructor; a schedule is a function of the step)."""
        return {"step_count": self.step_count, "state": self.state}

    def load_state_dict(self, state: dict[str, Any]) -> "Optimizer":
        """Restore what :meth:`state_dict` returned; returns the optimizer."""
        self.step_count = int(state["step_count"])
        self.state = state["state"]
        return self

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the state and the step count to a safetensors file (the arrays named by key
        chain, ``"mw/fc0/w"``); :meth:`load` resumes from it exactly."""
        from .. import safetensors

        flat = self.state.to_flat_dict()
        meta = {
            "format": "ivy", "separator": SEPARATOR, "ivy_optimizer": type(self).__name__,
            "step_count": str(self.step_count), "key_chains": json.dumps(list(flat)),
        }
        safetensors.save_file(flat, path, metadata=meta)

    def load(self, path: str | os.PathLike[str], *, backend: Any = None, device: Any = None) -> "Optimizer":
        """Read a file written by :meth:`save` into this optimizer (state and step count).

        The arrays go to ``backend`` and ``device`` if given; by default they move, on the next
        :meth:`step`, to the backend and device of the variables it updates.

        Raises:
            ValueError: the file was saved by another kind of optimizer, or is not an optimizer file.
        """
        from .. import safetensors

        _, meta = safetensors.read_header(path)
        kind = meta.get("ivy_optimizer")
        if kind is None or "step_count" not in meta:
            raise ValueError(f"{os.fspath(path)} is not an optimizer file written by Optimizer.save")
        if kind != type(self).__name__:
            raise ValueError(f"{os.fspath(path)} holds the state of {kind}, not of {type(self).__name__}")
        arrays = safetensors.load_file(path, backend=backend, device=device)
        self._place_state = backend is None and device is None
        order = json.loads(meta.get("key_chains", "[]")) or list(arrays)
        self.load_state_dict({
            "step_count": meta["step_count"],
            "state": Container.from_flat_dict({k: arrays[k] for k in order}),
        })
        return self

    # ------------------------------------------------------------------ compiled programs

    def _ivy_members(self) -> list["Optimizer"]:
        return [self]

    def _ivy_get_state(self) -> dict[str, Any]:
        return {"step_count": self.step_count, "state": self.state.to_dict()}

    def _ivy_set_state(self, state: dict[str, Any], *, concrete: bool = True) -> None:
        step = state["step_count"]
        if concrete and not isinstance(step, int):  # a scalar array back from a compiled program
            step = int(_api.to_scalar(step))
        self.step_count = step
        self.state = state["state"]

    def _ivy_ready(self) -> bool:
        return True

    #: whether state loaded from a file still has to move to the variables' backend and device
    _place_state = False

    def _move_state(self, like: Any) -> None:
        ivy = _ivy()
        b, d = ivy.namespace(like), ivy.dev(like)
        self.state = nest.map(lambda x: ivy.to_device(ivy.asarray(x, backend=b), d), self.state)
        self._place_state = False

    def current_lr(self) -> float:
        """The learning rate of the current step (``lr(step_count)`` for a schedule)."""
        return self.lr(self.step_count) if callable(self.lr) else self.lr  # type: ignore[return-value]

    def step(self, v: Any, grads: Any) -> Any:
        """One update: returns the new variables (same structure as ``v``).

        Raises:
            ValueError: ``v`` and ``grads`` differ in structure (the key chains are named).
        """
        leaves, structure = nest.flatten(v)
        g_leaves, g_structure = nest.flatten(grads)
        if not nest.same_structure(g_structure, structure):  # (a training step takes the fast path above: same structure)
            if isinstance(v, dict) and isinstance(grads, dict):
                Container.assert_identical_structure(v, grads, "the variables and the gradients")
                if isinstance(v, Container) and not isinstance(grads, Container):
                    grads = Container(grads)  # nests compare their dict classes too
                elif type(v) is dict and isinstance(grads, Container):
                    grads = grads.to_dict()
                g_leaves, g_structure = nest.flatten(grads)
            if not nest.same_structure(g_structure, structure):
                raise ValueError("the variables and the gradients differ in structure")
        if _tracking._session is not None:  # inside an ivy.compile'd call: is this state threaded?
            _tracking.touch(self)
        if self._place_state and leaves:
            self._move_state(leaves[0])
        self.step_count += 1
        lr = self.current_lr()
        new = self._step_leaves(leaves, g_leaves, structure, lr)
        if new is NotImplemented:
            return self._step(v, grads, lr)
        return nest.unflatten(structure, new)

    def _step_leaves(self, leaves: list[Any], grads: list[Any], structure: Any, lr: float) -> Any:
        """:meth:`_step` on the leaves of ``v`` and of the gradients (saves rebuilding nests);
        returns the new leaves, or ``NotImplemented`` to have :meth:`_step` called instead."""
        return NotImplemented

    def _flat_state(self, leaves: list[Any], structure: Any, *names: str) -> list[list[Any]]:
        """The state ``names`` as lists of leaves (zeros on the first step)."""
        if self._flat is None:
            ivy = _ivy()
            zeros: dict[str, list[Any]] = {}
            for n in names:  # loops, not comprehensions: see ivy._functional.optimizers
                zeros[n] = []
                for x in leaves:
                    zeros[n].append(ivy.zeros_like(ivy.stop_gradient(x)))
            self._flat = (structure, zeros)
        elif not nest.same_structure(self._flat[0], structure):
            # The same keys in another order, or dicts where there were Containers: state restored
            # from a file, or passed through a compiler (jax.jit and tf.function sort dict keys).
            old, named = self._flat
            order = _reorder(old, structure)
            if order is None:
                raise ValueError(f"{type(self).__name__}: the variables differ in structure from those of the "
                                 "first step, which the optimizer state was made for")
            self._flat = (structure, {n: [leaves[i] for i in order] for n, leaves in named.items()})
        return [self._flat[1][n] for n in names]

    def _step(self, v: Any, grads: Any, lr: float) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must implement _step(v, grads, lr)")

    def __repr__(self) -> str:
        return f"{type(self).__name__}(lr={self.lr!r}, step_count={self.step_count})"


class SGD(Optimizer):
    """Stochastic gradient descent, with optional momentum and weight decay, as ``torch.optim.SGD``:
    ``g += wd w``; ``buf = g`` on the first step, then ``buf = μ buf + (1 - dampening) g``;
    ``d = g + μ buf`` (Nesterov) or ``buf``; ``w -= lr d``. State: ``momentum`` (the buffers).

    Args:
        lr: learning rate (or schedule).
        momentum: ``μ``; 0 for plain gradient descent.
        dampening: dampening of the momentum.
        nesterov: use Nesterov momentum.
        weight_decay: L2 penalty added to the gradient.
        stop_gradients: see :class:`Optimizer`.
    """

    def __init__(self, lr: float | Callable[[int], float] = 1e-2, *, momentum: float = 0.0, dampening: float = 0.0,
                 nesterov: bool = False, weight_decay: float = 0.0, stop_gradients: bool = True) -> None:
        super().__init__(lr, stop_gradients=stop_gradients)
        self.momentum, self.dampening, self.nesterov, self.weight_decay = momentum, dampening, nesterov, weight_decay

    _FLAT = ("momentum",)

    def _step_leaves(self, leaves: list[Any], grads: list[Any], structure: Any, lr: float) -> Any:
        # explicit loops, no comprehensions: see ivy._functional.optimizers
        g = grads
        if self.weight_decay:
            g = []
            for gi, wi in zip(grads, leaves):
                g.append(gi + self.weight_decay * wi)
        if self.momentum:
            mu, first = self.momentum, self._flat is None
            (old,) = self._flat_state(leaves, structure, "momentum")
            buf = []
            for b, gi in zip(old, g):  # torch's rule: the buffer starts as the first gradient
                buf.append(_ivy().stop_gradient(gi) if first else mu * b + (1.0 - self.dampening) * gi)
            self._flat = (structure, {"momentum": buf})
            if self.nesterov:
                d = []
                for gi, b in zip(g, buf):
                    d.append(gi + mu * b)
                g = d
            else:
                g = buf
        return _descent_leaves(leaves, g, lr, self.stop_gradients)


class Adam(Optimizer):
    """Adam (Kingma & Ba, 2015) through :func:`ivy.adam_update`. State: ``mw``, ``vw`` (first and
    second moments).

    Args:
        lr: learning rate (or schedule).
        beta1: decay of the first moment.
        beta2: decay of the second moment.
        epsilon: added to the denominator (default ``1e-7``, as the paper's Ivy; torch: ``1e-8``).
        weight_decay: L2 penalty added to the gradient (coupled, as ``torch.optim.Adam``).
        stop_gradients: see :class:`Optimizer`.
    """

    _FLAT = ("mw", "vw")

    def __init__(self, lr: float | Callable[[int], float] = 1e-3, *, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-7, weight_decay: float = 0.0, stop_gradients: bool = True) -> None:
        super().__init__(lr, stop_gradients=stop_gradients)
        self.beta1, self.beta2, self.epsilon, self.weight_decay = beta1, beta2, epsilon, weight_decay

    def _decay(self, w: list[Any], g: list[Any], lr: float) -> tuple[list[Any], list[Any]]:
        if self.weight_decay:
            out = []
            for gi, wi in zip(g, w):
                out.append(gi + self.weight_decay * wi)
            g = out
        return w, g

    def _step_leaves(self, leaves: list[Any], grads: list[Any], structure: Any, lr: float) -> Any:
        if type(self)._step is not Adam._step:  # a subclass with its own nest-level rule
            return NotImplemented
        return self._adam_leaves(leaves, grads, structure, lr)

    def _adam_leaves(self, leaves: list[Any], grads: list[Any], structure: Any, lr: float) -> list[Any]:
        w, g = self._decay(leaves, grads, lr)
        m, v = self._flat_state(w, structure, "mw", "vw")
        new, m, v = _adam_leaves(w, g, m, v, lr, self.step_count, self.beta1, self.beta2, self.epsilon,
                                 self.stop_gradients)
        self._flat = (structure, {"mw": m, "vw": v})
        return new

    def _step(self, v: Any, grads: Any, lr: float) -> Any:
        leaves, structure = nest.flatten(v)
        return nest.unflatten(structure, self._adam_leaves(leaves, nest.leaves(grads), structure, lr))


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter, 2019), as ``torch.optim.AdamW``:
    ``w *= 1 - lr λ``, then the Adam step. Arguments as :class:`Adam`; ``weight_decay`` (λ)
    defaults to ``0.01``."""

    def __init__(self, lr: float | Callable[[int], float] = 1e-3, *, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-7, weight_decay: float = 0.01, stop_gradients: bool = True) -> None:
        super().__init__(lr, beta1=beta1, beta2=beta2, epsilon=epsilon, weight_decay=weight_decay,
                         stop_gradients=stop_gradients)

    def _decay(self, w: list[Any], g: list[Any], lr: float) -> tuple[list[Any], list[Any]]:
        if self.weight_decay:
            out = []
            for wi in w:
                out.append(wi * (1.0 - lr * self.weight_decay))
            w = out
        return w, g


class LAMB(Optimizer):
    """LAMB (You et al., 2020) through :func:`ivy.lamb_update`: the Adam direction plus
    ``decay_lambda w``, scaled per variable by the trust ratio ``min(‖w‖ / ‖r‖, max_trust_ratio)``.
    State: ``mw``, ``vw``."""

    def __init__(self, lr: float | Callable[[int], float] = 1e-3, *, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-7, max_trust_ratio: float = 10.0, decay_lambda: float = 0.0,
                 stop_gradients: bool = True) -> None:
        super().__init__(lr, stop_gradients=stop_gradients)
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon
        self.max_trust_ratio, self.decay_lambda = max_trust_ratio, decay_lambda

    _FLAT = ("mw", "vw")

    def _step_leaves(self, leaves: list[Any], grads: list[Any], structure: Any, lr: float) -> Any:
        m, v = self._flat_state(leaves, structure, "mw", "vw")
        new, m, v = _lamb_leaves(leaves, grads, m, v, lr, self.step_count, self.beta1, self.beta2, self.epsilon,
                                 self.max_trust_ratio, self.decay_lambda, self.stop_gradients)
        self._flat = (structure, {"mw": m, "vw": v})
        return new


class LARS(Optimizer):
    """LARS (You et al., 2017) through :func:`ivy.lars_update`: per variable,
    ``d = g + decay_lambda w`` and ``w -= lr (‖w‖ / ‖d‖) d``. No state."""

    def __init__(self, lr: float | Callable[[int], float] = 1e-2, *, decay_lambda: float = 0.0,
                 stop_gradients: bool = True) -> None:
        super().__init__(lr, stop_gradients=stop_gradients)
        self.decay_lambda = decay_lambda

    def _step_leaves(self, leaves: list[Any], grads: list[Any], structure: Any, lr: float) -> Any:
        return _lars_leaves(leaves, grads, lr, self.decay_lambda, self.stop_gradients)
