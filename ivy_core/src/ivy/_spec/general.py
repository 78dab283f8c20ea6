"""General functions: Ivy's own ops beyond the Array API for indexing, scattering and reshaping,
and structured control flow (``while_loop``, ``cond``, ``scan``).

Gathers, scatters, item assignment and ``einsum`` are backend primitives; the others are composed
in core from the Array API ops (a backend may still provide a native version for speed). Negative
axes count from the end.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Literal

from ._base import Array, DType, spec


@spec
def gather(params: Array, indices: Array, /, *, axis: int = -1, batch_dims: int = 0) -> Array:
    """Gather slices of ``params`` along one axis at integer ``indices``.

    For ``batch_dims = 0``, ``out[a..., i..., b...] = params[a..., indices[i...], b...]`` where
    ``a...`` are the axes before ``axis`` and ``b...`` those after it. With ``batch_dims = n``
    the first ``n`` axes of ``params`` and ``indices`` are batch axes, matched one to one.

    Args:
        params: array to gather from.
        indices: integer array; each entry in ``[0, params.shape[axis])``. Its first
            ``batch_dims`` axes must equal those of ``params``.
        axis: axis of ``params`` to gather along; must not be one of the batch axes.
        batch_dims: number of leading batch axes.

    Returns:
        An array of shape
        ``params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:]`` with the
        dtype of ``params``.
    """


@spec
def gather_nd(params: Array, indices: Array, /, *, batch_dims: int = 0) -> Array:
    """Gather elements or slices of ``params`` at multi-dimensional integer indices.

    The last axis of ``indices`` holds ``k`` coordinates into the first ``k`` non-batch axes of
    ``params``; each index selects an element (``k`` = the number of non-batch axes) or a slice.

    Args:
        params: array to gather from.
        indices: integer array of shape ``[..., k]``; its first ``batch_dims`` axes must equal
            those of ``params``, and ``batch_dims + k <= params.ndim``.
        batch_dims: number of leading batch axes shared by ``params`` and ``indices``.

    Returns:
        An array of shape ``indices.shape[:-1] + params.shape[batch_dims + k:]`` with the dtype of
        ``params``.
    """


@spec
def scatter_nd(
    indices: Array,
    updates: Array | float,
    /,
    shape: Sequence[int] | None = None,
    *,
    reduction: Literal["sum", "replace", "min", "max"] = "sum",
) -> Array:
    """Scatter ``updates`` into a new zero array at multi-dimensional integer indices.

    Args:
        indices: integer array of shape ``[..., k]``; each index addresses an element (``k`` =
            ``len(shape)``) or a slice of the result.
        updates: values of shape ``indices.shape[:-1] + shape[k:]``, or a scalar broadcast to it.
        shape: shape of the result; ``None``: the smallest shape that holds every index,
            ``max(indices[..., j]) + 1`` for each indexed axis ``j``, followed by the trailing
            shape of ``updates``.
        reduction: how updates to the same position combine: ``"sum"`` adds them up; ``"replace"``
            writes them (for repeated indices, which one wins is unspecified); ``"min"`` /
            ``"max"`` keep their minimum / maximum. Positions no index addresses hold zero.

    Returns:
        An array of shape ``shape`` with the dtype of ``updates``.
    """


@spec
def scatter_flat(
    indices: Array,
    updates: Array | float,
    /,
    size: int | None = None,
    *,
    reduction: Literal["sum", "replace", "min", "max"] = "sum",
) -> Array:
    """Scatter ``updates`` into a new 1-D zero array at integer indices.

    Args:
        indices: 1-D integer array, each entry in ``[0, size)``.
        updates: values of the shape of ``indices``, or a scalar broadcast to it.
        size: length of the result; ``None``: ``max(indices) + 1``.
        reduction: how updates to the same position combine: ``"sum"``, ``"replace"``, ``"min"``
            or ``"max"``, as for :func:`scatter_nd`. Positions no index addresses hold zero.

    Returns:
        A 1-D array of length ``size`` with the dtype of ``updates``.
    """


@spec
def get_item(x: Array, /, query: Any) -> Array:
    """``x[query]``, with the indexing rules of the Array API standard.

    Args:
        x: array to index.
        query: an int, a slice, ``...``, ``None``, a boolean or integer array, or a tuple of
            these. An int or integer-array index outside ``[-n, n)`` for the axis it indexes is
            an ``IndexError``.

    Returns:
        The selected elements, with the dtype of ``x``.
    """


@spec
def set_item(x: Array, query: Any, val: Array | complex, /) -> Array:
    """A copy of ``x`` with ``x[query] = val`` applied; ``x`` itself is not modified.

    Args:
        x: array to update.
        query: an index as for :func:`get_item`.
        val: the new values, broadcastable to the shape of ``x[query]``; cast to the dtype of
            ``x``.

    Returns:
        A new array of the shape and dtype of ``x``.
    """


@spec
def inplace_update(x: Array, val: Array | complex, /) -> Array:
    """Overwrite the contents of ``x`` with ``val``, in place.

    Supported where the framework has mutable arrays: NumPy arrays, PyTorch tensors, TensorFlow
    variables (``tf.Variable``) and Paddle tensors. Gradients are not tracked through the write.

    Args:
        x: array to overwrite.
        val: the new values, broadcastable to the shape of ``x``; cast to the dtype of ``x``.

    Returns:
        ``x`` itself, now holding ``val``.

    Raises:
        TypeError: if ``x`` cannot be updated in place (JAX arrays, TensorFlow tensors that are
            not variables).
    """


@spec
def clip_vector_norm(x: Array, max_norm: float, /, *, p: float = 2.0) -> Array:
    """Rescale ``x`` so that its vector p-norm is at most ``max_norm``.

    The norm is taken over all elements of ``x`` as one vector; if it exceeds ``max_norm`` the
    result is ``x * max_norm / norm``, otherwise ``x`` unchanged.

    Args:
        x: real floating-point input array.
        max_norm: the largest norm allowed; non-negative.
        p: order of the norm (as in ``linalg.vector_norm``; ``inf`` for the largest magnitude).

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def clip_matrix_norm(x: Array, max_norm: float, /, *, p: float | Literal["fro", "nuc"] = 2.0) -> Array:
    """Rescale each matrix of ``x`` so that its matrix norm is at most ``max_norm``.

    Each matrix (the last two axes) whose norm exceeds ``max_norm`` is multiplied by
    ``max_norm / norm``; the others are unchanged.

    Args:
        x: real floating-point input array of shape ``[..., m, n]``.
        max_norm: the largest norm allowed; non-negative.
        p: order of the norm, as ``ord`` of ``linalg.matrix_norm``: ``2.0`` the largest singular
            value, ``"fro"`` the Frobenius norm, ``"nuc"`` the nuclear norm, ``1.0`` / ``inf`` the
            largest column / row sum of magnitudes...

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def einsum(equation: str, /, *operands: Array) -> Array:
    """Einstein summation over the operands, as described by ``equation``.

    Args:
        equation: subscripts such as ``"ij,jk->ik"``: one comma-separated term per operand, letters
            naming axes, with an optional ``->`` and output term. Without ``->`` the output holds
            the letters that occur once, in alphabetical order. ``...`` stands for broadcast axes.
        operands: the input arrays, one per term.

    Returns:
        The result, with the promoted dtype of the operands.
    """


@spec
def cumsum(
    x: Array,
    /,
    axis: int = 0,
    *,
    exclusive: bool = False,
    reverse: bool = False,
    dtype: DType | None = None,
) -> Array:
    """Cumulative sum along one axis.

    Args:
        x: input array.
        axis: axis to accumulate along.
        exclusive: whether each output element leaves out its own input element: ``out[i]`` is the
            sum of ``x[:i]`` (so ``out[0] = 0``) instead of ``x[:i + 1]``.
        reverse: whether to accumulate from the end: ``out[i]`` is the sum of ``x[i:]``
            (``x[i + 1:]`` with ``exclusive``).
        dtype: accumulator and output dtype; ``None``: the dtype of ``x``, except that
            integers narrower than the default integer dtype are widened to it (and bools
            become the default integer dtype), as in ``cumulative_sum``.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def cumprod(
    x: Array,
    /,
    axis: int = 0,
    *,
    exclusive: bool = False,
    reverse: bool = False,
    dtype: DType | None = None,
) -> Array:
    """Cumulative product along one axis.

    Args:
        x: input array.
        axis: axis to accumulate along.
        exclusive: whether each output element leaves out its own input element: ``out[i]`` is the
            product of ``x[:i]`` (so ``out[0] = 1``) instead of ``x[:i + 1]``.
        reverse: whether to accumulate from the end: ``out[i]`` is the product of ``x[i:]``
            (``x[i + 1:]`` with ``exclusive``).
        dtype: accumulator and output dtype; ``None``: as for :func:`cumsum`.

    Returns:
        An array of the same shape as ``x``.
    """


@spec
def pad(
    x: Array,
    /,
    pad_width: int | Sequence[int] | Sequence[Sequence[int]],
    *,
    mode: Literal["constant", "reflect", "symmetric", "edge", "wrap"] = "constant",
    value: complex = 0,
) -> Array:
    """Pad ``x`` on both sides of every axis.

    Args:
        x: input array.
        pad_width: elements to add before and after each axis: an int (the same everywhere), one
            ``(before, after)`` pair (for every axis), or one such pair per axis; non-negative.
        mode: what the new elements hold: ``"constant"``: ``value``; ``"reflect"``: the mirror
            image of the array about its edge element, the edge not repeated (``[1, 2, 3]`` padded
            by 2 gives ``[3, 2, 1, 2, 3, 2, 1]``); ``"symmetric"``: the mirror image with the edge
            repeated (``[2, 1, 1, 2, 3, 3, 2]``); ``"edge"``: the edge element repeated;
            ``"wrap"``: the array continued periodically. Paddings longer than the axis keep
            mirroring (or wrapping), as NumPy does.
        value: the fill value for ``"constant"``.

    Returns:
        An array with the dtype of ``x`` whose axis ``i`` has size
        ``x.shape[i] + before_i + after_i``.
    """


@spec
def top_k(x: Array, k: int, /, *, axis: int = -1, largest: bool = True, sorted: bool = True) -> tuple[Array, Array]:
    """The ``k`` largest (or smallest) elements along one axis, with their indices.

    Args:
        x: real input array.
        k: number of elements to take, in ``[0, x.shape[axis]]``.
        axis: axis to search along.
        largest: ``True``: the largest elements; ``False``: the smallest.
        sorted: ``True``: the results are in order (descending for ``largest``, ascending
            otherwise); ``False``: their order is unspecified.

    Returns:
        A tuple ``(values, indices)``, both of the shape of ``x`` with ``axis`` of size ``k``:
        ``values`` with the dtype of ``x``, ``indices`` (the positions along ``axis``) with the
        default integer dtype. Among equal elements, which are chosen is unspecified.
    """


@spec
def split(
    x: Array,
    /,
    num_or_size_splits: int | Sequence[int] | None = None,
    *,
    axis: int = 0,
    with_remainder: bool = False,
) -> list[Array]:
    """Split ``x`` into consecutive pieces along one axis.

    Args:
        x: input array.
        num_or_size_splits: ``None``: pieces of size one, ``x.shape[axis]`` of them; an int ``n``:
            ``n`` pieces of equal size (``n`` must divide the axis size unless
            ``with_remainder``); a sequence of ints: the size of each piece (summing to the axis
            size).
        axis: axis to split along.
        with_remainder: for an int ``n`` that does not divide the axis size ``s``: ``n`` pieces of
            size ``s // n`` followed by one last piece of the remaining ``s % n`` elements.

    Returns:
        A list of arrays with the dtype of ``x``.

    Raises:
        ValueError: if the split sizes do not fit the axis size.
    """


@spec
def flatten(x: Array, /, *, start_dim: int = 0, end_dim: int = -1) -> Array:
    """Merge the axes ``start_dim`` to ``end_dim`` (both inclusive) into one.

    Args:
        x: input array; a 0-d array is treated as of shape ``(1,)``.
        start_dim: first axis to merge.
        end_dim: last axis to merge; not before ``start_dim``.

    Returns:
        An array with the elements (in row-major order) and dtype of ``x``, of rank
        ``x.ndim - (end_dim - start_dim)``.
    """


@spec
def cast(x: Array, dtype: DType, /) -> Array:
    """Convert ``x`` to ``dtype`` (Ivy's name for ``astype``, with its casting rules).

    Args:
        x: input array.
        dtype: target dtype.

    Returns:
        An array of the shape of ``x`` with dtype ``dtype`` (possibly ``x`` itself if it
        already has that dtype).
    """


@spec
def transpose(x: Array, /, axes: Sequence[int] | None = None) -> Array:
    """Permute the axes of ``x``; by default, reverse them.

    Args:
        x: input array of rank ``N``.
        axes: a permutation of ``(0, 1, ..., N-1)``, output axis ``i`` being input axis
            ``axes[i]``; ``None``: ``(N-1, ..., 1, 0)``.

    Returns:
        An array with permuted axes and the dtype of ``x``.
    """


@spec
def while_loop(
    cond_fn: Callable[..., Any], body_fn: Callable[..., Any], loop_vars: Sequence[Array], /
) -> tuple[Array, ...]:
    """Repeat ``loop_vars = body_fn(*loop_vars)`` while ``cond_fn(*loop_vars)`` is true: a loop
    whose number of steps depends on the data, which a compiler keeps as one loop (``lax.while_loop``
    in JAX, ``tf.while_loop`` in TensorFlow; a Python loop on eager backends).

    Args:
        cond_fn: called as ``cond_fn(*loop_vars)``; returns a boolean array of one element.
        body_fn: called as ``body_fn(*loop_vars)``; returns as many arrays as ``loop_vars``, each
            with the shape and dtype of the loop variable it replaces.
        loop_vars: the initial values of the loop variables (at least one array).

    Returns:
        A tuple of the loop variables' values once ``cond_fn`` gives false (the initial values
        where it is false at once).

    Raises:
        ValueError: if ``loop_vars`` is empty, or ``body_fn`` returns another number of arrays or
            another shape or dtype than the loop variables have.
    """


@spec
def cond(pred: Array, true_fn: Callable[..., Any], false_fn: Callable[..., Any], operands: Sequence[Array], /) -> Any:
    """``true_fn(*operands)`` where ``pred`` is true, else ``false_fn(*operands)``: a branch on the
    data, which a compiler keeps as one conditional (``lax.cond`` in JAX, ``tf.cond`` in TensorFlow;
    an ``if`` on eager backends).

    Args:
        pred: a boolean array of one element.
        true_fn, false_fn: functions of the operands returning an array or a tuple of arrays, both
            the same number with the same shapes and dtypes.
        operands: the arrays passed to the branch taken.

    Returns:
        What the branch taken returns.

    Raises:
        ValueError: if ``pred`` has more than one element.
    """


@spec
def scan(
    f: Callable[[Any, Any], tuple[Any, Any]],
    init: Sequence[Array] | Array,
    xs: Sequence[Array] | Array | None = None,
    /,
    *,
    length: int | None = None,
    reverse: bool = False,
) -> tuple[Any, Any]:
    """Loop ``f`` over the leading axis of ``xs``, threading a carry: ``carry, y = f(carry, x)``
    for each slice ``x`` of ``xs`` in turn, starting from ``carry = init``, and stack the ``y``
    along a new leading axis. A loop of a fixed number of steps, which a compiler keeps as one
    loop (``lax.scan`` in JAX, ``tf.while_loop`` in TensorFlow; a Python loop on eager
    backends), differentiable in reverse mode. As ``lax.scan``, in Python::

        carry, ys = init, []
        for i in (reversed(range(n)) if reverse else range(n)):
            carry, y = f(carry, xs[i])  # xs[i]: the i-th slice of every array of xs
            ys.append(y)
        return carry, stack(ys[::-1] if reverse else ys)  # ys[i] is the y of xs[i]

    Args:
        f: called as ``f(carry, x)``; returns ``(carry, y)``: the new carry, with the structure,
            shapes and dtypes of ``init``, and ``y``, a nest of arrays (or ``None``) of the same
            structure, shapes and dtypes at every step.
        init: the initial carry: an array or a nest (tuples, lists, dicts) of arrays.
        xs: an array or a nest of arrays scanned along their first axis, all of the same length;
            ``None``: ``f`` gets ``x = None``, ``length`` times.
        length: the number of steps; required where ``xs`` is ``None``, else it must equal the
            first dimension of the arrays of ``xs``.
        reverse: run from the last slice to the first (``ys`` stays in the order of ``xs``).

    Returns:
        ``(carry, ys)``: the final carry (``init`` where there is no step) and the ``y`` of each
        step stacked along a new first axis, in the order of ``xs`` (``None`` where ``f``
        returns ``y = None``).

    Raises:
        ValueError: if ``xs`` is ``None`` and ``length`` is not given, the arrays of ``xs`` differ
            in their first dimension or from ``length``, or ``f`` returns a carry of another
            structure, shape or dtype than ``init`` has.
        TypeError: if ``f`` is not a function or does not return a pair ``(carry, y)``.
    """
