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

from typing import Any, Callable

from .. import nest
from .._functional.optimizers import _adam_leaves
from ..container import Container

__all__ = ["Optimizer", "SGD", "Adam", "AdamW", "LAMB", "LARS"]


def _ivy() -> Any:
    import ivy

    return ivy


def _zeros_like(tree: Any) -> Any:
    ivy = _ivy()
    return nest.map(lambda x: ivy.zeros_like(ivy.stop_gradient(x)), tree)


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

    @property
    def state(self) -> Container:
        """The optimizer's state: ``{name: nest like v}`` (empty before the first step)."""
        out = dict(self._state)
        if self._flat is not None:  # kept as lists of leaves between steps (see Adam)
            structure, named = self._flat
            out.update({k: nest.unflatten(structure, leaves) for k, leaves in named.items()})
        return Container(out)

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
        if g_structure != structure:  # (a training step takes the fast path above: same structure)
            if isinstance(v, dict) and isinstance(grads, dict):
                Container.assert_identical_structure(v, grads, "the variables and the gradients")
                if isinstance(v, Container) and not isinstance(grads, Container):
                    grads = Container(grads)  # nests compare their dict classes too
                elif type(v) is dict and isinstance(grads, Container):
                    grads = grads.to_dict()
                g_leaves, g_structure = nest.flatten(grads)
            if g_structure != structure:
                raise ValueError("the variables and the gradients differ in structure")
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
            self._flat = (structure, {n: [ivy.zeros_like(ivy.stop_gradient(x)) for x in leaves] for n in names})
        elif self._flat[0] != structure:
            raise ValueError(f"{type(self).__name__}: the variables differ in structure from those of the first "
                             "step, which the optimizer state was made for")
        return [self._flat[1][n] for n in names]

    def _step(self, v: Any, grads: Any, lr: float) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must implement _step(v, grads, lr)")

    def _moments(self, v: Any) -> tuple[Any, Any]:
        if "mw" not in self._state:
            self._state["mw"], self._state["vw"] = _zeros_like(v), _zeros_like(v)
        return self._state["mw"], self._state["vw"]

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

    def _step(self, v: Any, grads: Any, lr: float) -> Any:
        ivy = _ivy()
        if self.weight_decay:
            grads = nest.map(lambda g, w: g + self.weight_decay * w, grads, v)
        if self.momentum:
            mu = self.momentum
            if "momentum" not in self._state:
                buf = nest.map(ivy.stop_gradient, grads)
            else:
                buf = nest.map(lambda b, g: mu * b + (1.0 - self.dampening) * g, self._state["momentum"], grads)
            self._state["momentum"] = buf
            grads = nest.map(lambda g, b: g + mu * b, grads, buf) if self.nesterov else buf
        return ivy.gradient_descent_update(v, grads, lr, stop_gradients=self.stop_gradients)


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

    def __init__(self, lr: float | Callable[[int], float] = 1e-3, *, beta1: float = 0.9, beta2: float = 0.999,
                 epsilon: float = 1e-7, weight_decay: float = 0.0, stop_gradients: bool = True) -> None:
        super().__init__(lr, stop_gradients=stop_gradients)
        self.beta1, self.beta2, self.epsilon, self.weight_decay = beta1, beta2, epsilon, weight_decay

    def _decay(self, w: list[Any], g: list[Any], lr: float) -> tuple[list[Any], list[Any]]:
        if self.weight_decay:
            g = [gi + self.weight_decay * wi for gi, wi in zip(g, w)]
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
            w = [wi * (1.0 - lr * self.weight_decay) for wi in w]
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

    def _step(self, v: Any, grads: Any, lr: float) -> Any:
        mw, vw = self._moments(v)
        new, self._state["mw"], self._state["vw"] = _ivy().lamb_update(
            v, grads, lr, mw, vw, self.step_count, beta1=self.beta1, beta2=self.beta2, epsilon=self.epsilon,
            max_trust_ratio=self.max_trust_ratio, decay_lambda=self.decay_lambda, stop_gradients=self.stop_gradients,
        )
        return new


class LARS(Optimizer):
    """LARS (You et al., 2017) through :func:`ivy.lars_update`: per variable,
    ``d = g + decay_lambda w`` and ``w -= lr (‖w‖ / ‖d‖) d``. No state."""

    def __init__(self, lr: float | Callable[[int], float] = 1e-2, *, decay_lambda: float = 0.0,
                 stop_gradients: bool = True) -> None:
        super().__init__(lr, stop_gradients=stop_gradients)
        self.decay_lambda = decay_lambda

    def _step(self, v: Any, grads: Any, lr: float) -> Any:
        return _ivy().lars_update(v, grads, lr, decay_lambda=self.decay_lambda, stop_gradients=self.stop_gradients)
