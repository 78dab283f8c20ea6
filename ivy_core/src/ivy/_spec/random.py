"""Random sampling: Ivy's own ops for pseudo-random numbers.

Each backend draws from its framework's generator. Without ``seed`` a call draws from the backend's
global state, which :func:`seed` resets; with ``seed`` the call is reproducible and leaves the
global state alone. The JAX backend keeps a PRNG key as its global state, seeded by :func:`seed`
and split on every call. For an explicit JAX PRNG key, call the JAX namespace's functions, which
take a further keyword ``key=`` and then touch no global state:
``ivy.jax.random_uniform(shape=(3,), key=jax.random.key(0))`` (under ``jax.jit``, pass ``key=``:
the global key would be baked into the compiled function).

Where ``dtype`` is ``None`` the default real floating-point dtype is used (the default integer
dtype for :func:`randint`); where ``device`` is ``None``, the default device. Where ``shape`` is
``None`` the result has the broadcast shape of the array parameters (a 0-d array when they are all
Python scalars).
"""

from __future__ import annotations

from collections.abc import Sequence

from ._base import Array, Device, DType, spec


@spec
def seed(seed_value: int = 0, /) -> None:
    """Reset the global random state of the backend, so that later draws are reproducible.

    ``ivy.seed(n)`` without ``backend=`` seeds every backend: those loaded now, and each backend
    that loads later as it loads, so a program that seeds first and picks its backend afterwards
    (``with ivy.use_backend("torch"):``) draws the same numbers on every run. With ``backend=``,
    or through a backend namespace (``ivy.torch.seed``), it seeds that backend alone.

    Args:
        seed_value: a non-negative integer.
    """


@spec
def random_uniform(
    *,
    low: Array | float = 0.0,
    high: Array | float = 1.0,
    shape: Sequence[int] | None = None,
    dtype: DType | None = None,
    device: Device | None = None,
    seed: int | None = None,
) -> Array:
    """Samples from the uniform distribution on the half-open interval [low, high).

    Args:
        low: lower bound (inclusive), a Python float or an array broadcastable to ``shape``.
        high: upper bound (exclusive), a Python float or an array broadcastable to ``shape``;
            must be greater than ``low``.
        shape: shape of the result; ``None``: the broadcast shape of ``low`` and ``high``.
        dtype: real floating-point output dtype.
        device: device to place the result on.
        seed: seed for this call only.

    Returns:
        An array of shape ``shape`` and dtype ``dtype``.
    """


@spec
def random_normal(
    *,
    mean: Array | float = 0.0,
    std: Array | float = 1.0,
    shape: Sequence[int] | None = None,
    dtype: DType | None = None,
    device: Device | None = None,
    seed: int | None = None,
) -> Array:
    """Samples from the normal (Gaussian) distribution with the given mean and standard deviation.

    Args:
        mean: mean, a Python float or an array broadcastable to ``shape``.
        std: standard deviation (non-negative), a Python float or an array broadcastable to
            ``shape``.
        shape: shape of the result; ``None``: the broadcast shape of ``mean`` and ``std``.
        dtype: real floating-point output dtype.
        device: device to place the result on.
        seed: seed for this call only.

    Returns:
        An array of shape ``shape`` and dtype ``dtype``.
    """


@spec
def randint(
    low: Array | int,
    high: Array | int,
    /,
    shape: Sequence[int] | None = None,
    *,
    dtype: DType | None = None,
    device: Device | None = None,
    seed: int | None = None,
) -> Array:
    """Integers drawn uniformly from the half-open interval [low, high).

    Args:
        low: lower bound (inclusive), an int or an integer array broadcastable to ``shape``.
        high: upper bound (exclusive), an int or an integer array broadcastable to ``shape``; must
            be greater than ``low``.
        shape: shape of the result; ``None``: the broadcast shape of ``low`` and ``high``.
        dtype: integer output dtype; ``None``: the default integer dtype.
        device: device to place the result on.
        seed: seed for this call only.

    Returns:
        An integer array of shape ``shape`` and dtype ``dtype``.
    """


@spec
def multinomial(
    population_size: int,
    num_samples: int,
    /,
    *,
    batch_size: int = 1,
    probs: Array | None = None,
    replace: bool = True,
    device: Device | None = None,
    seed: int | None = None,
) -> Array:
    """Draw category indices in ``[0, population_size)`` from categorical distributions.

    Args:
        population_size: number of categories.
        num_samples: number of draws per batch entry; without replacement it must not exceed the
            number of categories of non-zero probability.
        batch_size: number of independent distributions (rows); ignored when ``probs`` is given.
        probs: non-negative weights of shape ``[batch_size, population_size]``, normalised per row
            (they need not sum to one); ``None``: every category equally likely.
        replace: whether to draw with replacement; without it, no index repeats within a row.
        device: device to place the result on (with ``probs``, its device is used).
        seed: seed for this call only.

    Returns:
        An array of shape ``[batch_size, num_samples]`` with the default integer dtype.
    """


@spec
def shuffle(x: Array, /, axis: int = 0, *, seed: int | None = None) -> Array:
    """Randomly permute ``x`` along one axis.

    Args:
        x: input array of rank at least one.
        axis: axis along which to permute; the slices along it move as whole units.
        seed: seed for this call only.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def bernoulli(
    probs: Array | float,
    /,
    *,
    shape: Sequence[int] | None = None,
    dtype: DType | None = None,
    device: Device | None = None,
    seed: int | None = None,
) -> Array:
    """Samples from Bernoulli distributions: 1 with probability ``probs``, else 0.

    Args:
        probs: probability of a one, in [0, 1]; a Python float or an array broadcastable to
            ``shape``.
        shape: shape of the result; ``None``: the shape of ``probs``.
        dtype: output dtype (ones and zeros of any dtype, ``bool`` included); ``None``: the default
            real floating-point dtype.
        device: device to place the result on.
        seed: seed for this call only.

    Returns:
        An array of shape ``shape`` and dtype ``dtype`` holding zeros and ones.
    """


@spec
def dropout(
    x: Array,
    prob: float,
    /,
    *,
    scale: bool = True,
    training: bool = True,
    seed: int | None = None,
) -> Array:
    """Randomly zeroes elements of ``x`` with probability ``prob`` (inverted dropout).

    Each element is kept with probability ``1 - prob``. With ``scale`` the kept elements are
    divided by ``1 - prob`` so that the expected value is unchanged. With ``training=False`` (or
    ``prob == 0``) ``x`` is returned unchanged.

    Args:
        x: input array (floating point).
        prob: probability of dropping an element, in [0, 1).
        scale: divide the kept elements by ``1 - prob``.
        training: apply dropout; ``False`` is the identity (evaluation mode).
        seed: seed for this call only.

    Returns:
        An array of the same shape and dtype as ``x``.
    """
