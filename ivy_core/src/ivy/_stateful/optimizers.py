"""Stateful optimizers: ``new_v = opt.step(v, grads)``, built on Ivy's pure update functions
(:func:`ivy.gradient_descent_update`, :func:`ivy.adam_update`, :func:`ivy.lamb_update`,
:func:`ivy.lars_update`).

``v`` and ``grads`` are nests of the same structure (a :class:`ivy.Container`, as ``model.v`` and
the gradients of :func:`ivy.execute_with_gradients` are); the new variables come back in that
structure, cut from the gradient graph. The optimizer keeps its state (moments, momentum
buffers) in ``opt.state``, a Container created on the first step, and counts steps in
``opt.step_count``. ``lr`` is a number, or a function of the step number (from 1) giving one
(:mod:`ivy.schedules`).

Every optimizer also takes ``clip_value`` and ``clip_norm`` (gradient clipping, applied in that
order before the update) and ``accumulate_steps`` (gradient accumulation).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Mapping
from typing import Any

from .. import _api as ivy
from .. import _tracking, nest, safetensors
from .._functional.optimizers import _adam_leaves, _descent_leaves, _lamb_leaves, _lars_leaves
from ..container import SEPARATOR, Container
from . import _restore
from ._restore import reorder as _reorder

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "LAMB", "LARS", "clip_grad_norm", "clip_grad_value"]


def _global_norm(grads: list[Any]) -> Any:
    total = None
    for g in grads:  # a loop, not a comprehension: see ivy._functional.optimizers
        sq = ivy.sum(ivy.astype(g, "float32") * ivy.astype(g, "float32"))
        total = sq if total is None else total + sq
    return ivy.sqrt(total)


def _scaled_by_norm(grads: list[Any], max_norm: float) -> tuple[list[Any], Any]:
    norm = _global_norm(grads)
    # torch's clip_grad_norm_: factor max_norm / (norm + 1e-6), at most 1
    factor = ivy.minimum(max_norm / (norm + 1e-6), ivy.ones_like(norm))
    out = []
    for g in grads:
        out.append(g * ivy.astype(factor, g.dtype))
    return out, norm


def clip_grad_norm(grads: Any, max_norm: float) -> tuple[Any, Any]:
    """Scale every gradient of the nest ``grads`` by ``min(1, max_norm / (‖g‖ + 1e-6))``, ``‖g‖``
    the global L2 norm of all of them together (torch's ``clip_grad_norm_``, without the in-place
    update; Keras' ``global_clipnorm``).

    Returns:
        ``(clipped grads, global norm before clipping)``: a nest like ``grads``, a 0-d float32 array.
    """
    leaves, structure = nest.tree_flatten(grads)
    out, norm = _scaled_by_norm(leaves, max_norm)
    return nest.tree_unflatten(structure, out), norm


def clip_grad_value(grads: Any, clip_value: float) -> Any:
    """Every element of every gradient in the nest ``grads`` clipped to ``[-clip_value,
    clip_value]`` (torch's ``clip_grad_value_``, Keras' ``clipvalue``)."""
    return nest.map(lambda g: ivy.clip(g, -clip_value, clip_value), grads)


def _is_number(x: Any) -> bool:
    return isinstance(x, (int, float)) and not isinstance(x, bool)


class Optimizer:
    """Base class: subclasses implement :meth:`_step` (or :meth:`_step_leaves`).

    Args:
        lr: learning rate, or a function ``step -> learning rate`` (:mod:`ivy.schedules`).
        stop_gradients: cut the new variables from the graph of the old ones (default).
        clip_value: clip every gradient element to ``[-clip_value, clip_value]`` first.
        clip_norm: then scale the gradients so that their global L2 norm is at most ``clip_norm``
            (as torch's ``clip_grad_norm_``; see :func:`clip_grad_norm`).
        accumulate_steps: average the gradients of this many calls of :meth:`step` and update
            the variables on the last of them only (the others return the variables unchanged):
            gradient accumulation, a batch ``accumulate_steps`` times larger. The step count (and
            a schedule) counts updates. Works inside compiled steps too.
    """

    def __init__(
        self,
        lr: float | Callable[[int], float],
        *,
        stop_gradients: bool = True,
        clip_value: float | None = None,
        clip_norm: float | None = None,
        accumulate_steps: int = 1,
    ) -> None:
        if accumulate_steps < 1:
            raise ValueError(f"accumulate_steps must be >= 1, got {accumulate_steps}")
        for name, value in (("clip_value", clip_value), ("clip_norm", clip_norm)):
            if value is not None and not value > 0:
                raise ValueError(f"{name} must be > 0, got {value}")
        self.lr = lr
        self.stop_gradients = stop_gradients
        self.clip_value, self.clip_norm, self.accumulate_steps = clip_value, clip_norm, accumulate_steps
        self.step_count = 0
        #: calls of step() since the last update (with accumulate_steps > 1)
        self.micro_step = 0
        # on the instance from the start: torch.compile guards on which attributes an object
        # has, and would compile a training step again once the first compiled call set them
        self._step_array = self._micro_array = None
        self._state: dict[str, Any] = {}
        #: state kept as leaves: (structure of v, {name: list of leaves}); None until used
        self._flat: tuple[Any, dict[str, list[Any]]] | None = None

    #: names of the state kept as lists of leaves between steps (see :meth:`_flat_state`)
    _FLAT: tuple[str, ...] = ()

    #: Whether the arrays of ``_flat`` are this optimizer's alone: made by its own last eager
    #: step (or its first zeros), never handed out since. Only then may an update write them in
    #: place (a fused kernel's moments); reading ``state``, copying the optimizer or threading it
    #: through a compiled program hands out references, and the next update makes new arrays.
    _owned = False

    # A compiled training step returns the counts as 0-d arrays. Converting one to an int waits
    # for the step to finish (JAX runs it asynchronously), so it is stored as it came, and
    # converted when first read (not while a compiled step runs: torch.compile's program gets
    # that very tensor). ``_step_array`` is that array: a count restored after a compiler traced
    # the step (the same object) is recognised as concrete again.
    _step_count: Any = 0
    _step_array: Any = None
    _micro_step: Any = 0
    _micro_array: Any = None

    @property
    def step_count(self) -> Any:
        """Updates made so far: an int (a traced scalar while a compiler traces a step)."""
        s = self._step_count
        if _tracking._session is None and s is not None and s is self._step_array:  # (compiled: no read)
            s = self._step_count = int(ivy.to_scalar(s))
        return s

    @step_count.setter
    def step_count(self, value: Any) -> None:
        self._step_count = value

    @property
    def micro_step(self) -> Any:
        """Calls of :meth:`step` since the last update (with ``accumulate_steps > 1``)."""
        s = self._micro_step
        if _tracking._session is None and s is not None and s is self._micro_array:  # (compiled: no read)
            s = self._micro_step = int(ivy.to_scalar(s))
        return s

    @micro_step.setter
    def micro_step(self, value: Any) -> None:
        self._micro_step = value

    @property
    def state(self) -> Container:
        """The optimizer's state: ``{name: nest like v}`` (empty before the first step).

        Assigning a Container of the same form (from another optimizer of the same kind, or from
        :meth:`state_dict`) restores it; :meth:`save` / :meth:`load` do so through a file.

        The arrays read here keep their values: an optimizer whose backend has a fused kernel
        (Adam on torch and paddle) updates its moments in place, as ``torch.optim.Adam`` does,
        but only while nobody else holds them; after a read, an assignment or a copy of the
        optimizer, its next step makes new arrays.
        """
        if _tracking._session is not None:  # inside an ivy.compile'd call: is this state threaded?
            _tracking.touch(self)
        self._owned = False  # the caller may keep these arrays: the next update must not write them
        out = dict(self._state)
        if self._flat is not None:  # kept as lists of leaves between steps (see Adam)
            structure, named = self._flat
            out.update({k: nest.tree_unflatten(structure, leaves) for k, leaves in named.items()})
        return Container(out)

    @state.setter
    def state(self, new: Any) -> None:
        if _tracking._session is not None:
            _tracking.touch(self)
        new = new if isinstance(new, Container) else Container(new)
        # (everything is worked out before anything is assigned: a bad state changes nothing)
        kept: dict[str, Any] = {}
        flat: dict[str, list[Any]] = {}
        structure = None
        for name, tree in new.items():
            if name in self._FLAT:
                flat[name], s = nest.tree_flatten(tree)
                if structure is not None and not nest.same_structure(s, structure):
                    raise ValueError(f"{type(self).__name__}.state: {sorted(flat)} differ in structure")
                structure = s
            else:
                kept[name] = tree
        if flat:
            missing = sorted(set(self._FLAT) - set(flat))
            if missing:
                raise ValueError(f"{type(self).__name__}.state: {missing} missing (it holds {sorted(self._FLAT)})")
        self._state, self._flat, self._owned = kept, ((structure, flat) if flat else None), False

    def state_dict(self) -> dict[str, Any]:
        """``{"step_count": int, "state": Container}`` (and ``"micro_step"`` with gradient
        accumulation): what resuming training needs (the hyperparameters come from the
        constructor; a schedule is a function of the step)."""
        out = {"step_count": self.step_count, "state": self.state}
        if self.accumulate_steps > 1:
            out["micro_step"] = self.micro_step
        return out

    def load_state_dict(self, state: Mapping[str, Any]) -> Optimizer:
        """Restore what :meth:`state_dict` returned; returns the optimizer.

        Everything is checked before anything changes: the counts (non-negative integers, and
        ``micro_step`` below ``accumulate_steps``); the state's names (those this optimizer keeps,
        each a nest of arrays with the same key chains); and, where the optimizer holds state
        already, the same key chains, shapes and dtype kinds as that state. The first
        :meth:`step` after a load checks the state against the variables it updates (their key
        chains and shapes; the arrays take the variables' dtypes). A load that fails leaves the
        optimizer as it was.

        Raises:
            KeyError: ``"step_count"`` or ``"state"`` is missing, or key chains differ from the
                state held (all named).
            ValueError: a count is not a non-negative integer; the state holds names this
                optimizer does not keep, or nests that differ; a shape or dtype kind differs.
        """
        _restore.load_optimizer_state(self, state, f"{type(self).__name__}.load_state_dict")
        return self

    def _state_names(self) -> set[str] | None:
        """The names of the state this optimizer keeps; None where a subclass keeps its own."""
        if not self._FLAT:
            return None
        return set(self._FLAT) | ({"accum"} if self.accumulate_steps > 1 else set())

    #: whether the next step must check (and fit) the state loaded into the optimizer against
    #: the variables it updates
    _check_loaded = False

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the state and the step count to a safetensors file (the arrays named by key
        chain, ``"mw/fc0/w"``); :meth:`load` resumes from it exactly. The file is replaced
        atomically: a crash during the save leaves the previous file whole."""
        flat = self.state.to_flat_dict()
        meta = {
            "format": "ivy",
            "separator": SEPARATOR,
            "ivy_optimizer": type(self).__name__,
            "step_count": str(self.step_count),
            "micro_step": str(self.micro_step),
            "key_chains": json.dumps(list(flat)),
        }
        safetensors.save_file(flat, path, metadata=meta)

    def load(self, path: str | os.PathLike[str], *, backend: Any = None, device: Any = None) -> Optimizer:
        """Read a file written by :meth:`save` into this optimizer (state and step count).

        The arrays go to ``backend`` and ``device`` if given; by default they move, on the next
        :meth:`step`, to the backend and device of the variables it updates. The file is checked
        whole first (see :meth:`load_state_dict`): a load that fails leaves the optimizer as it was.

        Raises:
            ValueError: the file was saved by another kind of optimizer, is not an optimizer file
                or not a valid safetensors file, or its state does not fit (see
                :meth:`load_state_dict`).
        """
        where = os.fspath(path)
        header, meta = safetensors.read_header(path)
        kind = meta.get("ivy_optimizer")
        if kind is None or "step_count" not in meta:
            raise ValueError(f"{where} is not an optimizer file written by Optimizer.save")
        if kind != type(self).__name__:
            raise ValueError(f"{where} holds the state of {kind}, not of {type(self).__name__}")
        order = _restore.json_list(meta.get("key_chains", "[]"), "key_chains", where) or list(header)
        if sorted(order) != sorted(header):
            raise ValueError(f"{where}: the metadata's key_chains do not list the file's arrays")
        arrays = safetensors.load_file(path, backend=backend, device=device)
        _restore.load_optimizer_state(
            self,
            {
                "step_count": meta["step_count"],
                "micro_step": meta.get("micro_step", "0"),
                "state": Container.from_flat_dict({k: arrays[k] for k in order}),
            },
            where,
        )
        self._place_state = backend is None and device is None
        return self

    # ------------------------------------------------------------------ compiled programs

    def _ivy_members(self) -> list[Any]:
        # a schedule with state of its own (ReduceLROnPlateau's rate) is threaded with the optimizer
        lr: Any = self.lr
        return [self, *lr._ivy_members()] if hasattr(type(lr), "_ivy_get_state") else [self]

    def _ivy_get_state(self) -> dict[str, Any]:
        # the counts as stored: an array a compiled step returned stays one (see step_count)
        out = {"step_count": self._step_count, "state": self.state.to_dict()}
        if self.accumulate_steps > 1:
            out["micro_step"] = self._micro_step
        if _is_number(self.lr) or ivy.is_native_array(self.lr):
            # a number learning rate is an input of compiled programs: a callback may change it
            out["lr"] = self.lr
        return out

    def _ivy_flat_state(self) -> tuple[Any, list[Any]] | None:
        """``(key, leaves)``: the state as a compiled training step takes it on every call (the
        step count, the rate, the moments kept as leaves); None for the nested form of
        :meth:`_ivy_get_state` (gradient accumulation: its sums come and go between steps, and
        its two forms must not alternate)."""
        if self._state or self.accumulate_steps > 1:
            return None
        self._owned = False
        lr: Any = self.lr
        has_lr = _is_number(lr) or ivy.is_native_array(lr)
        leaves = [self._step_count, lr] if has_lr else [self._step_count]
        if self._flat is None:
            return (has_lr, None, ()), leaves
        structure, named = self._flat
        for tree in named.values():
            leaves += tree
        return (has_lr, structure, tuple(named)), leaves

    def _ivy_set_flat_state(self, key: Any, leaves: list[Any], *, concrete: bool = True) -> None:
        has_lr, structure, names = key
        self._owned = False
        self._set_counts({"step_count": leaves[0], "lr": leaves[1]} if has_lr else {"step_count": leaves[0]}, concrete)
        self._state = {}
        if structure is None:
            self._flat = None
        else:
            k, n = (2 if has_lr else 1), structure.num_leaves
            self._flat = (structure, {name: leaves[k + i * n : k + (i + 1) * n] for i, name in enumerate(names)})

    def _ivy_set_state(self, state: dict[str, Any], *, concrete: bool = True) -> None:
        self._set_counts(state, concrete)
        self.state = state["state"]

    def _set_counts(self, state: dict[str, Any], concrete: bool) -> None:
        step = state["step_count"]
        if concrete and not isinstance(step, int):  # a scalar array back from a compiled program
            self._step_array = step  # read as an int when asked (reading it now would wait)
        self._step_count = step
        if "micro_step" in state:
            micro = state["micro_step"]
            if concrete and not isinstance(micro, int):
                self._micro_array = micro
            self._micro_step = micro
        if "lr" in state:
            lr = state["lr"]
            self.lr = float(ivy.to_scalar(lr)) if concrete and not _is_number(lr) else lr

    def _ivy_ready(self) -> bool:
        return True

    def _ivy_lazy(self) -> bool:  # state still to be made by the first step (see ivy.compile)
        return self._flat is None and not self._state

    #: whether state loaded from a file still has to move to the variables' backend and device
    _place_state = False

    def _move_state(self, like: Any) -> None:
        b, d = ivy.namespace(like), ivy.dev(like)
        self.state = nest.map(lambda x: ivy.to_device(ivy.asarray(x, backend=b), d), self.state)
        self._place_state = False

    def current_lr(self) -> float:
        """The learning rate of the current step (``lr(step_count)`` for a schedule)."""
        return self.lr(self.step_count) if callable(self.lr) else self.lr

    def _lr_for(self, leaves: list[Any]) -> Any:
        """The current rate; an array rate (inside a compiled program) in the variables' dtype,
        so that it does not promote them (a float64 scalar under JAX's x64, say)."""
        lr: Any = self.current_lr()
        if leaves and ivy.is_native_array(lr) and lr.dtype != leaves[0].dtype:
            lr = ivy.astype(lr, leaves[0].dtype)
        return lr

    def _clip(self, grads: list[Any]) -> list[Any]:
        if self.clip_value is not None:
            out = []
            for g in grads:
                out.append(ivy.clip(g, -self.clip_value, self.clip_value))
            grads = out
        if self.clip_norm is not None:
            grads = _scaled_by_norm(grads, self.clip_norm)[0]
        return grads

    def step(self, v: Any, grads: Any) -> Any:
        """One update: returns the new variables (same structure as ``v``).

        Raises:
            ValueError: ``v`` and ``grads`` differ in structure (the key chains are named).
        """
        leaves, structure = nest.tree_flatten(v)
        g_leaves, g_structure = nest.tree_flatten(grads)
        if not nest.same_structure(
            g_structure, structure
        ):  # (a training step takes the fast path above: same structure)
            if isinstance(v, dict) and isinstance(grads, dict):
                Container.assert_identical_structure(v, grads, "the variables and the gradients")
                if isinstance(v, Container) and not isinstance(grads, Container):
                    grads = Container(grads)  # nests compare their dict classes too
                elif type(v) is dict and isinstance(grads, Container):
                    grads = grads.to_dict()
                g_leaves, g_structure = nest.tree_flatten(grads)
            if not nest.same_structure(g_structure, structure):
                raise ValueError("the variables and the gradients differ in structure")
        if _tracking._session is not None:  # inside an ivy.compile'd call: is this state threaded?
            _tracking.touch(self)
        if self._place_state and leaves:
            self._move_state(leaves[0])
        if self._check_loaded:
            _restore.fit_loaded_state(self, leaves, structure)
        if self.clip_value is not None or self.clip_norm is not None:
            g_leaves = self._clip(g_leaves)
        if self.accumulate_steps > 1:
            return nest.tree_unflatten(structure, self._accumulate(leaves, g_leaves, structure))
        return nest.tree_unflatten(structure, self._update(leaves, g_leaves, structure))

    def _update(self, leaves: list[Any], g_leaves: list[Any], structure: Any) -> list[Any]:
        self.step_count = self.step_count + 1  # (not +=: in place on a tensor inside compiled programs)
        lr = self._lr_for(leaves)
        new = self._step_leaves(leaves, g_leaves, structure, lr)
        if new is NotImplemented:
            new = nest.leaves(
                self._step(nest.tree_unflatten(structure, leaves), nest.tree_unflatten(structure, g_leaves), lr)
            )
        return new

    def _accumulate(self, leaves: list[Any], g_leaves: list[Any], structure: Any) -> list[Any]:
        """Gradient accumulation: the summed gradients wait in ``state["accum"]``; every
        ``accumulate_steps``-th call updates with their mean."""
        k = self.accumulate_steps
        acc = self._state.get("accum")
        total = []
        if acc is None:
            for g in g_leaves:
                total.append(ivy.stop_gradient(g))
        else:
            acc_leaves, acc_structure = nest.tree_flatten(acc)
            if not nest.same_structure(acc_structure, structure):
                # the sums came back from a compiler with sorted keys (or were loaded): by path
                order = _reorder(acc_structure, structure)
                if order is None:
                    raise ValueError(
                        f"{type(self).__name__}: the variables differ in structure from the accumulated gradients'"
                    )
                acc_leaves = [acc_leaves[i] for i in order]
            for a, g in zip(acc_leaves, g_leaves):
                total.append(a + ivy.stop_gradient(g))
        micro = self.micro_step + 1
        if _is_number(micro):  # eagerly: a Python branch
            if micro < k:
                self.micro_step, self._state["accum"] = micro, nest.tree_unflatten(structure, total)
                return self._unchanged(leaves)
            self.micro_step = 0
            self._state.pop("accum", None)
            mean = []
            for a in total:
                mean.append(a / k)
            return self._update(leaves, mean, structure)
        # inside a compiled program the count is a traced scalar: compute the update, and keep it
        # (and the optimizer state it produced) only where the count completes
        apply = micro >= k
        if self._FLAT:  # (created, or put in the order of the variables' leaves, as the update will)
            self._flat_state(leaves, structure, *self._FLAT)
        old_flat, old_count, old_state = self._flat, self.step_count, dict(self._state)
        mean = []
        for a in total:
            mean.append(a / k)
        self._state.pop("accum", None)
        new = self._update(leaves, mean, structure)
        kept = []
        for n, w in zip(new, self._unchanged(leaves)):
            kept.append(ivy.where(apply, n, w))
        if old_flat is not None and self._flat is not None:
            named: dict[str, list[Any]] = {}
            for name, new_leaves in self._flat[1].items():
                named[name] = []
                for n, o in zip(new_leaves, old_flat[1][name]):
                    named[name].append(ivy.where(apply, n, o))
            self._flat = (self._flat[0], named)
        self.step_count = ivy.where(apply, self.step_count, old_count)
        for name, tree in old_state.items():
            if name != "accum" and name in self._state:
                self._state[name] = nest.map(lambda n, o: ivy.where(apply, n, o), self._state[name], tree)
        zeros = []
        for a in total:
            zeros.append(ivy.where(apply, ivy.zeros_like(a), a))
        self._state["accum"] = nest.tree_unflatten(structure, zeros)
        self.micro_step = ivy.where(apply, ivy.zeros_like(micro), micro)
        return kept

    def _unchanged(self, leaves: list[Any]) -> list[Any]:
        if not self.stop_gradients:
            return leaves
        out = []
        for w in leaves:
            out.append(ivy.stop_gradient(w))
        return out

    def _step_leaves(self, leaves: list[Any], grads: list[Any], structure: Any, lr: float) -> Any:
        """:meth:`_step` on the leaves of ``v`` and of the gradients (saves rebuilding nests);
        returns the new leaves, or ``NotImplemented`` to have :meth:`_step` called instead."""
        return NotImplemented

    def _flat_state(self, leaves: list[Any], structure: Any, *names: str) -> list[list[Any]]:
        """The state ``names`` as lists of leaves (zeros on the first step)."""
        if self._flat is None:
            zeros: dict[str, list[Any]] = {}
            for n in names:  # loops, not comprehensions: see ivy._functional.optimizers
                zeros[n] = []
                for x in leaves:
                    zeros[n].append(ivy.zeros_like(ivy.stop_gradient(x)))
            self._flat = (structure, zeros)
            self._owned = _tracking._session is None
        elif not nest.same_structure(self._flat[0], structure):
            # The same keys in another order, or dicts where there were Containers: state restored
            # from a file, or passed through a compiler (jax.jit and tf.function sort dict keys).
            old, named = self._flat
            order = _reorder(old, structure)
            if order is None:
                raise ValueError(
                    f"{type(self).__name__}: the variables differ in structure from those of the "
                    "first step, which the optimizer state was made for"
                )
            self._flat = (structure, {n: [leaves[i] for i in order] for n, leaves in named.items()})
        return [self._flat[1][n] for n in names]

    def _step(self, v: Any, grads: Any, lr: float) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must implement _step(v, grads, lr)")

    def __getstate__(self) -> dict[str, Any]:
        # a copy (copy.copy, pickle) may share the moment arrays: neither side writes them now
        self._owned = False
        return dict(self.__dict__)

    def __repr__(self) -> str:
        extra = "".join(
            f", {k}={getattr(self, k)!r}" for k in ("clip_value", "clip_norm") if getattr(self, k) is not None
        )
        if self.accumulate_steps > 1:
            extra += f", accumulate_steps={self.accumulate_steps}"
        return f"{type(self).__name__}(lr={self.lr!r}{extra}, step_count={self.step_count})"


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
        clip_value, clip_norm, accumulate_steps: see :class:`Optimizer`.
    """

    def __init__(
        self,
        lr: float | Callable[[int], float] = 1e-2,
        *,
        momentum: float = 0.0,
        dampening: float = 0.0,
        nesterov: bool = False,
        weight_decay: float = 0.0,
        stop_gradients: bool = True,
        clip_value: float | None = None,
        clip_norm: float | None = None,
        accumulate_steps: int = 1,
    ) -> None:
        super().__init__(
            lr,
            stop_gradients=stop_gradients,
            clip_value=clip_value,
            clip_norm=clip_norm,
            accumulate_steps=accumulate_steps,
        )
        self.momentum, self.dampening, self.nesterov, self.weight_decay = momentum, dampening, nesterov, weight_decay

    _FLAT = ("momentum",)

    def _ivy_lazy(self) -> bool:
        # without momentum or accumulation, SGD keeps no state: nothing to make first
        return (bool(self.momentum) or self.accumulate_steps > 1) and super()._ivy_lazy()

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
                buf.append(ivy.stop_gradient(gi) if first else mu * b + (1.0 - self.dampening) * gi)
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
        clip_value, clip_norm, accumulate_steps: see :class:`Optimizer`.
    """

    _FLAT = ("mw", "vw")

    def __init__(
        self,
        lr: float | Callable[[int], float] = 1e-3,
        *,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-7,
        weight_decay: float = 0.0,
        stop_gradients: bool = True,
        clip_value: float | None = None,
        clip_norm: float | None = None,
        accumulate_steps: int = 1,
    ) -> None:
        super().__init__(
            lr,
            stop_gradients=stop_gradients,
            clip_value=clip_value,
            clip_norm=clip_norm,
            accumulate_steps=accumulate_steps,
        )
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
        eager = _tracking._session is None
        new, m, v = _adam_leaves(
            w,
            g,
            m,
            v,
            lr,
            self.step_count,
            self.beta1,
            self.beta2,
            self.epsilon,
            self.stop_gradients,
            self._owned and eager,
        )
        self._flat = (structure, {"mw": m, "vw": v})
        self._owned = eager  # (traced values: a compiled program's outputs replace them)
        return new

    def _step(self, v: Any, grads: Any, lr: float) -> Any:
        leaves, structure = nest.tree_flatten(v)
        return nest.tree_unflatten(structure, self._adam_leaves(leaves, nest.leaves(grads), structure, lr))


class AdamW(Adam):
    """Adam with decoupled weight decay (Loshchilov & Hutter, 2019), as ``torch.optim.AdamW``:
    ``w *= 1 - lr λ``, then the Adam step (pass ``epsilon=1e-8`` for torch's default). Arguments as
    :class:`Adam`; ``weight_decay`` (λ) defaults to ``0.01``, as torch's."""

    def __init__(
        self,
        lr: float | Callable[[int], float] = 1e-3,
        *,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-7,
        weight_decay: float = 0.01,
        stop_gradients: bool = True,
        clip_value: float | None = None,
        clip_norm: float | None = None,
        accumulate_steps: int = 1,
    ) -> None:
        super().__init__(
            lr,
            beta1=beta1,
            beta2=beta2,
            epsilon=epsilon,
            weight_decay=weight_decay,
            stop_gradients=stop_gradients,
            clip_value=clip_value,
            clip_norm=clip_norm,
            accumulate_steps=accumulate_steps,
        )

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
    State: ``mw``, ``vw``. Options ``clip_value``, ``clip_norm``, ``accumulate_steps`` as for
    :class:`Optimizer`."""

    def __init__(
        self,
        lr: float | Callable[[int], float] = 1e-3,
        *,
        beta1: float = 0.9,
        beta2: float = 0.999,
        epsilon: float = 1e-7,
        max_trust_ratio: float = 10.0,
        decay_lambda: float = 0.0,
        stop_gradients: bool = True,
        clip_value: float | None = None,
        clip_norm: float | None = None,
        accumulate_steps: int = 1,
    ) -> None:
        super().__init__(
            lr,
            stop_gradients=stop_gradients,
            clip_value=clip_value,
            clip_norm=clip_norm,
            accumulate_steps=accumulate_steps,
        )
        self.beta1, self.beta2, self.epsilon = beta1, beta2, epsilon
        self.max_trust_ratio, self.decay_lambda = max_trust_ratio, decay_lambda

    _FLAT = ("mw", "vw")

    def _step_leaves(self, leaves: list[Any], grads: list[Any], structure: Any, lr: float) -> Any:
        m, v = self._flat_state(leaves, structure, "mw", "vw")
        new, m, v = _lamb_leaves(
            leaves,
            grads,
            m,
            v,
            lr,
            self.step_count,
            self.beta1,
            self.beta2,
            self.epsilon,
            self.max_trust_ratio,
            self.decay_lambda,
            self.stop_gradients,
        )
        self._flat = (structure, {"mw": m, "vw": v})
        return new


class LARS(Optimizer):
    """LARS (You et al., 2017) through :func:`ivy.lars_update`: per variable,
    ``d = g + decay_lambda w`` and ``w -= lr (‖w‖ / ‖d‖) d``. No state. Options ``clip_value``,
    ``clip_norm``, ``accumulate_steps`` as for :class:`Optimizer`."""

    def __init__(
        self,
        lr: float | Callable[[int], float] = 1e-2,
        *,
        decay_lambda: float = 0.0,
        stop_gradients: bool = True,
        clip_value: float | None = None,
        clip_norm: float | None = None,
        accumulate_steps: int = 1,
    ) -> None:
        super().__init__(
            lr,
            stop_gradients=stop_gradients,
            clip_value=clip_value,
            clip_norm=clip_norm,
            accumulate_steps=accumulate_steps,
        )
        self.decay_lambda = decay_lambda

    def _step_leaves(self, leaves: list[Any], grads: list[Any], structure: Any, lr: float) -> Any:
        return _lars_leaves(leaves, grads, lr, self.decay_lambda, self.stop_gradients)
