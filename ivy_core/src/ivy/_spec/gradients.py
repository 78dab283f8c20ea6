"""Gradient primitives: Ivy's own ops for automatic differentiation.

Each backend implements these with its framework's autodiff (``torch.autograd``,
``tf.GradientTape``, ``jax.grad``/``jax.vjp``, ``paddle.grad``). Higher-level helpers such as
``ivy.grad``, ``ivy.value_and_grad`` and the optimiser updates are built on them in core. A backend
without autodiff (NumPy) implements ``variable``, ``is_variable`` and ``stop_gradient`` trivially
and raises :class:`ivy.errors.NoAutodiffError` from the function transforms.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ._base import Array, spec


@spec
def variable(x: Array, /) -> Array:
    """Mark ``x`` as a trainable variable, one whose gradients the transforms below can track.

    What this means depends on the framework: a leaf tensor with ``requires_grad=True`` in PyTorch,
    a ``tf.Variable`` in TensorFlow, a tensor with ``stop_gradient=False`` in Paddle; JAX arrays
    (and NumPy arrays) are returned as they are.

    Args:
        x: a floating-point (or complex) array.

    Returns:
        The variable, with the shape, dtype, values and device of ``x``.
    """


@spec
def is_variable(x: Array, /, *, exclusive: bool = False) -> bool:
    """Whether ``x`` is a trainable variable.

    Args:
        x: an array (or any object; non-arrays give ``False``).
        exclusive: if ``True``, only a framework's distinct variable kind counts (a leaf with
            ``requires_grad`` in PyTorch, a ``tf.Variable``, a Paddle tensor with
            ``stop_gradient=False``); frameworks without one (JAX, NumPy) always give ``False``. If
            ``False`` (default), on such frameworks every floating-point array counts as a
            variable.

    Returns:
        A Python ``bool``.
    """


@spec
def stop_gradient(x: Array, /) -> Array:
    """The values of ``x``, cut off from gradient computation.

    Gradients flowing back through the result are zero: the result is treated as a constant by
    every transform.

    Args:
        x: input array.

    Returns:
        An array with the shape, dtype and values of ``x`` that no gradient flows through.
    """


@spec
def value_and_grad_flat(
    func: Callable[..., Any], xs: Sequence[Array], /, *, has_aux: bool = False
) -> tuple[Array, list[Array], Any]:
    """Evaluate ``func`` at a list of arrays, and the gradient of its output with respect to each.

    It differentiates under the framework's no-gradient mode too (``torch.no_grad()``,
    ``paddle.no_grad()``), as ``torch.func.grad`` does; so do :func:`vjp`, :func:`jvp` and
    :func:`jacobian`.

    Args:
        func: a function called as ``func(list_of_arrays)`` with a list of the same length as
            ``xs``. It returns a scalar (0-d, real floating-point) array, or with ``has_aux`` a pair
            ``(scalar, aux)`` where ``aux`` is any auxiliary output, not differentiated.
        xs: the arrays to differentiate with respect to, each floating-point.
        has_aux: whether ``func`` returns ``(scalar, aux)`` instead of the scalar alone.

    Returns:
        A tuple ``(value, grads, aux)``: ``value`` the scalar output of ``func``; ``grads`` a list
        with one gradient per entry of ``xs``, each with that entry's shape and dtype (zeros where
        the output does not depend on it); ``aux`` the auxiliary output, or ``None`` without
        ``has_aux``. Neither ``value`` nor the gradients keep a link to the computation.

    Raises:
        NoAutodiffError: if the backend has no automatic differentiation.
        ValueError: if the output of ``func`` is not a scalar.
    """


@spec
def vjp(func: Callable[..., Any], /, *primals: Array) -> tuple[Any, Callable[..., Any]]:
    """Evaluate ``func`` at ``primals`` and return a function computing vector-Jacobian products.

    Args:
        func: a function called as ``func(*primals)`` that returns an array or a tuple of arrays.
        primals: the arrays at which to evaluate ``func``, one per positional argument of it, each
            floating-point.

    Returns:
        A pair ``(outputs, vjp_fn)``: ``outputs`` what ``func(*primals)`` returns; ``vjp_fn`` a
        function that takes cotangents with the structure, shapes and dtypes of ``outputs`` (one
        array, or a tuple of arrays, as ``func`` returns) and returns a tuple with one array per
        primal, each with that primal's shape: the cotangents multiplied by the Jacobian of
        ``func`` with respect to that primal.

    Raises:
        NoAutodiffError: if the backend has no automatic differentiation.
    """


@spec
def jvp(
    func: Callable[..., Any],
    primals: Sequence[Array],
    tangents: Sequence[Array],
    /,
) -> tuple[Any, Any]:
    """Evaluate ``func`` at ``primals`` together with its Jacobian-vector product with ``tangents``.

    Args:
        func: a function called as ``func(*primals)`` that returns an array or a tuple of arrays.
        primals: the arrays at which to evaluate ``func``, one per positional argument of it, each
            floating-point.
        tangents: the tangent vectors, one per primal, each with that primal's shape and dtype.

    Returns:
        A pair ``(outputs, tangent_outputs)``: ``outputs`` what ``func(*primals)`` returns;
        ``tangent_outputs`` the directional derivative of ``func`` at ``primals`` along
        ``tangents``, with the structure, shapes and dtypes of ``outputs``.

    Raises:
        NoAutodiffError: if the backend has no automatic differentiation.
        ValueError: if ``primals`` and ``tangents`` differ in length or in a shape.
    """


@spec
def jacobian(
    func: Callable[..., Any], /, *primals: Array, argnums: int | Sequence[int] = 0
) -> Array | tuple[Array, ...]:
    """The Jacobian of ``func`` at ``primals``.

    Args:
        func: a function called as ``func(*primals)`` that returns one array.
        primals: the arrays at which to differentiate, one per positional argument of ``func``.
        argnums: which primal (by position) to differentiate with respect to, or a sequence of
            positions.

    Returns:
        For an int ``argnums``: an array of shape ``output.shape + primals[argnums].shape`` whose
        entry ``[i..., j...]`` is the derivative of output entry ``i...`` with respect to input
        entry ``j...``. For a sequence: a tuple with one such array per listed position, in order.

    Raises:
        NoAutodiffError: if the backend has no automatic differentiation.
        IndexError: if a position in ``argnums`` is out of range for ``primals``.
    """
