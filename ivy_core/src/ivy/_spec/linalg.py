"""The ``linalg`` extension (Array API 2024.12, "Linear Algebra Extension").

Registered as ``linalg.<name>``. Unless stated otherwise, functions take stacks of matrices: an
array of shape ``(..., M, N)`` whose last two dimensions form the matrices and whose leading
(batch) dimensions are processed independently. Decompositions and solvers expect floating-point
(real or complex) input; functions that return several arrays return named tuples.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from ._base import Array, DType, spec


@spec
def cholesky(x: Array, /, *, upper: bool = False) -> Array:
    """Cholesky factor of each Hermitian positive-definite matrix in ``x``.

    For ``x = L @ L^H`` returns the lower-triangular ``L``; with ``upper=True`` returns the
    upper-triangular ``U = L^H`` so that ``x = U^H @ U``. Only one triangle of ``x`` needs to be
    valid; non positive-definite input gives implementation-defined results.

    Args:
        x: array of shape ``(..., M, M)``, floating-point.
        upper: return the upper instead of the lower factor.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def cross(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """Cross product of 3-element vectors stored along ``axis``.

    Args:
        x1: first input array, numeric.
        x2: second input array, numeric; the dimensions other than ``axis`` broadcast.
        axis: axis holding the vectors; must have size 3 in both inputs (no broadcasting along it)
            and should be negative, in ``[-N, -1]`` with ``N`` the smaller rank of the inputs.

    Returns:
        An array of the broadcast shape; the dtype follows type promotion.

    Raises:
        ValueError: if the size along ``axis`` is not 3 in both inputs.
    """


@spec
def det(x: Array, /) -> Array:
    """Determinant of each square matrix in ``x``.

    Args:
        x: array of shape ``(..., M, M)``, floating-point.

    Returns:
        An array of shape ``(...)`` (0-D for a single matrix) with the dtype of ``x``.
    """


@spec
def diagonal(x: Array, /, *, offset: int = 0) -> Array:
    """A diagonal of each matrix in ``x``.

    Args:
        x: array of shape ``(..., M, N)``.
        offset: which diagonal: 0 is the main diagonal, positive values are above it, negative
            below.

    Returns:
        An array of shape ``(..., K)`` with ``K`` the length of that diagonal, and the dtype of
        ``x``.
    """


@spec
def eigh(x: Array, /) -> tuple[Array, Array]:
    """Eigenvalues and eigenvectors of each Hermitian (real symmetric) matrix in ``x``.

    Only the lower triangle of each matrix needs to be valid. The order of the eigenvalues is
    implementation-defined (ascending is usual); eigenvectors are determined only up to sign
    (phase for complex input).

    Args:
        x: array of shape ``(..., M, M)``, floating-point.

    Returns:
        A named tuple ``(eigenvalues, eigenvectors)``: ``eigenvalues`` has shape ``(..., M)`` and
        the real floating-point dtype of matching precision; ``eigenvectors`` has the shape and
        dtype of ``x``, with the eigenvectors as columns.
    """


@spec
def eigvalsh(x: Array, /) -> Array:
    """Eigenvalues of each Hermitian (real symmetric) matrix in ``x``.

    Only the lower triangle of each matrix needs to be valid. The order of the eigenvalues is
    implementation-defined (ascending is usual).

    Args:
        x: array of shape ``(..., M, M)``, floating-point.

    Returns:
        An array of shape ``(..., M)`` with the real floating-point dtype of matching precision.
    """


@spec
def inv(x: Array, /) -> Array:
    """Inverse of each square matrix in ``x``.

    Args:
        x: array of shape ``(..., M, M)``, floating-point; each matrix should be invertible.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def matmul(x1: Array, x2: Array, /) -> Array:
    """Matrix product; the same as the main-namespace ``matmul``.

    Args:
        x1: first input array, numeric, at least one-dimensional.
        x2: second input array, numeric, at least one-dimensional.

    Returns:
        The product, as for ``matmul``.

    Raises:
        ValueError: if either input is zero-dimensional or the contracted dimensions differ.
    """


@spec
def matrix_norm(
    x: Array,
    /,
    *,
    keepdims: bool = False,
    ord: int | float | Literal["fro", "nuc"] | None = "fro",
) -> Array:
    """Norm of each matrix in ``x``.

    Args:
        x: array of shape ``(..., M, N)``, floating-point.
        keepdims: keep the last two dimensions, with size one.
        ord: the norm: ``"fro"`` (Frobenius), ``"nuc"`` (nuclear: sum of singular values), ``1`` /
            ``-1`` (max / min column sum of absolute values), ``2`` / ``-2`` (largest / smallest
            singular value), ``inf`` / ``-inf`` (max / min row sum of absolute values).

    Returns:
        An array of shape ``(...)`` (or ``(..., 1, 1)`` with ``keepdims``) with the real
        floating-point dtype of matching precision.
    """


@spec
def matrix_power(x: Array, n: int, /) -> Array:
    """Each square matrix of ``x`` raised to the integer power ``n``.

    ``n = 0`` gives identity matrices; a negative ``n`` raises the inverse to ``-n`` (the matrices
    must then be invertible).

    Args:
        x: array of shape ``(..., M, M)``, floating-point.
        n: the exponent.

    Returns:
        An array of the same shape and dtype as ``x``.
    """


@spec
def matrix_rank(x: Array, /, *, rtol: float | Array | None = None) -> Array:
    """Rank of each matrix in ``x``: the number of singular values above a tolerance.

    Args:
        x: array of shape ``(..., M, N)``, floating-point.
        rtol: relative tolerance, multiplied by the largest singular value; a float or an array
            broadcastable against the batch shape. ``None`` means ``max(M, N)`` times the machine
            epsilon of the dtype of ``x``.

    Returns:
        An array of shape ``(...)`` in the default integer dtype.
    """


@spec
def matrix_transpose(x: Array, /) -> Array:
    """Swap the last two dimensions of ``x``; the same as the main-namespace ``matrix_transpose``.

    Args:
        x: array of shape ``(..., M, N)``.

    Returns:
        An array of shape ``(..., N, M)`` with the dtype of ``x``.
    """


@spec
def outer(x1: Array, x2: Array, /) -> Array:
    """Outer product of two vectors.

    Args:
        x1: 1-D array of size ``N``, numeric.
        x2: 1-D array of size ``M``, numeric.

    Returns:
        An array of shape ``(N, M)`` with ``out[i, j] = x1[i] * x2[j]``; the dtype follows type
        promotion.
    """


@spec
def pinv(x: Array, /, *, rtol: float | Array | None = None) -> Array:
    """Moore-Penrose pseudo-inverse of each matrix in ``x``.

    Args:
        x: array of shape ``(..., M, N)``, floating-point.
        rtol: relative cutoff for small singular values, multiplied by the largest one; singular
            values below it are treated as zero. A float or an array broadcastable against the
            batch shape; ``None`` means ``max(M, N)`` times the machine epsilon of the dtype of
            ``x``.

    Returns:
        An array of shape ``(..., N, M)`` with the dtype of ``x``.
    """


@spec
def qr(x: Array, /, *, mode: Literal["reduced", "complete"] = "reduced") -> tuple[Array, Array]:
    """QR decomposition ``x = Q @ R`` of each matrix in ``x`` (full column rank assumed).

    Args:
        x: array of shape ``(..., M, N)``, floating-point.
        mode: ``"reduced"`` gives ``Q`` of shape ``(..., M, K)`` and ``R`` of shape ``(..., K, N)``
            with ``K = min(M, N)``; ``"complete"`` gives ``Q`` of shape ``(..., M, M)`` and ``R`` of
            shape ``(..., M, N)``.

    Returns:
        A named tuple ``(Q, R)``: ``Q`` has orthonormal columns, ``R`` is upper-triangular; both
        have the dtype of ``x``.
    """


@spec
def slogdet(x: Array, /) -> tuple[Array, Array]:
    """Sign and natural logarithm of the absolute value of the determinant of each matrix in ``x``.

    More robust against overflow and underflow than ``det``. A zero determinant gives sign 0 and
    ``logabsdet`` of ``-inf``.

    Args:
        x: array of shape ``(..., M, M)``, floating-point.

    Returns:
        A named tuple ``(sign, logabsdet)``, both of shape ``(...)``: ``sign`` has the dtype of
        ``x`` (-1, 0 or 1 for real input, a unit-modulus number or 0 for complex input);
        ``logabsdet`` has the real floating-point dtype of matching precision. The determinant is
        ``sign * exp(logabsdet)``.
    """


@spec
def solve(x1: Array, x2: Array, /) -> Array:
    """Solution ``X`` of the linear systems ``x1 @ X = x2``.

    Args:
        x1: coefficient array of shape ``(..., M, M)``, floating-point; each matrix must be
            invertible.
        x2: ordinate array of shape ``(..., M, K)``, or of shape ``(M,)`` to be treated as a single
            column vector; batch dimensions broadcast against those of ``x1``.

    Returns:
        The solution, of the shape of ``x2`` with broadcast batch dimensions (shape ``(..., M)`` for
        a vector ``x2``); the dtype follows type promotion.
    """


@spec
def svd(x: Array, /, *, full_matrices: bool = True) -> tuple[Array, Array, Array]:
    """Singular value decomposition ``x = U @ diag(S) @ Vh`` of each matrix in ``x``.

    Singular vectors are determined only up to sign (phase for complex input).

    Args:
        x: array of shape ``(..., M, N)``, floating-point.
        full_matrices: if ``True``, ``U`` has shape ``(..., M, M)`` and ``Vh`` ``(..., N, N)``;
            otherwise ``(..., M, K)`` and ``(..., K, N)`` with ``K = min(M, N)``.

    Returns:
        A named tuple ``(U, S, Vh)``: ``U`` and ``Vh`` have the dtype of ``x`` and orthonormal
        columns / rows; ``S`` has shape ``(..., K)``, the real floating-point dtype of matching
        precision, and holds the singular values in descending order.
    """


@spec
def svdvals(x: Array, /) -> Array:
    """Singular values of each matrix in ``x``.

    Args:
        x: array of shape ``(..., M, N)``, floating-point.

    Returns:
        An array of shape ``(..., min(M, N))`` with the real floating-point dtype of matching
        precision, in descending order.
    """


@spec
def tensordot(
    x1: Array,
    x2: Array,
    /,
    *,
    axes: int | tuple[Sequence[int], Sequence[int]] = 2,
) -> Array:
    """Tensor contraction over the given axes; the same as the main-namespace ``tensordot``.

    Args:
        x1: first input array, numeric.
        x2: second input array, numeric.
        axes: an int ``N`` contracts the last ``N`` axes of ``x1`` with the first ``N`` of ``x2``;
            a pair of sequences lists the axes of each input to contract, pairwise.

    Returns:
        An array of the non-contracted axes of ``x1`` followed by those of ``x2``; the dtype
        follows type promotion.
    """


@spec
def trace(x: Array, /, *, offset: int = 0, dtype: DType | None = None) -> Array:
    """Sum along a diagonal of each matrix in ``x``.

    Args:
        x: array of shape ``(..., M, N)``, numeric.
        offset: which diagonal: 0 is the main diagonal, positive values are above it, negative
            below.
        dtype: dtype of the result and the accumulation. ``None`` follows the rules of ``sum``:
            the default integer dtype for signed integers, the unsigned one of that width for
            unsigned integers, the input dtype for floating-point input.

    Returns:
        An array of shape ``(...)`` (0-D for a single matrix).
    """


@spec
def vecdot(x1: Array, x2: Array, /, *, axis: int = -1) -> Array:
    """Vector dot product along ``axis`` (conjugating ``x1``); the same as the main-namespace one.

    Args:
        x1: first input array, numeric.
        x2: second input array, numeric; broadcast against ``x1`` except along ``axis``.
        axis: negative axis along which to take the product; sizes along it must match.

    Returns:
        An array of the broadcast shape without ``axis``; the dtype follows type promotion.

    Raises:
        ValueError: if the sizes along ``axis`` differ.
    """


@spec
def vector_norm(
    x: Array,
    /,
    *,
    axis: int | tuple[int, ...] | None = None,
    keepdims: bool = False,
    ord: int | float = 2,
) -> Array:
    """Vector norm of ``x`` over the given axes.

    Args:
        x: input array, floating-point.
        axis: axis or axes spanning the vectors; ``None`` treats the whole array as one vector. A
            tuple computes the norm over all the listed axes jointly.
        keepdims: keep the reduced axes as dimensions of size one.
        ord: ``p`` for the p-norm ``sum(|x|**p)**(1/p)``; ``inf`` is the largest absolute value,
            ``-inf`` the smallest, ``0`` the number of non-zero elements. Default: Euclidean (2).

    Returns:
        The norms, with the real floating-point dtype of matching precision; 0-D when reducing over
        all axes.
    """
