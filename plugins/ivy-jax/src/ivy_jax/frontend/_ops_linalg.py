"""Linear algebra, Fourier transforms and the total-order comparisons of sorting code.

* ``cholesky``, ``qr``, ``svd``, ``eigh``: ``ivy.linalg`` (JAX's ``eigh`` reads one triangle
  only, so the matrix is rebuilt symmetric from it; eigenvectors are defined up to sign, and the
  target's solver may pick the other one, as two LAPACK builds may).
* ``fft``: ``ivy.fft.fftn`` / ``ifftn`` / ``rfftn`` / ``irfftn`` over the trailing axes.
* ``eq_to`` / ``lt_to`` / ``le_to``: IEEE total order (``jnp.searchsorted``, ``jnp.interp``):
  -0 before +0, and NaN after every number.

``lu`` (hence ``jnp.linalg.solve`` / ``inv`` / ``det``, through ``custom_linear_solve``) and
``triangular_solve`` have no Ivy counterpart with JAX's outputs (pivots, permutation) and are
left unmapped.
"""

from __future__ import annotations

from typing import Any

import ivy

from ._table import Ctx, rule

__all__: list[str] = []


def _swap(x: Any) -> Any:
    return ivy.matrix_transpose(x)


@rule("cholesky", doc="ivy.linalg.cholesky (the lower factor)")
def _cholesky(x: Any) -> Any:
    return ivy.linalg.cholesky(x)


def _no_subset(eqn: Any) -> str | None:
    subset = eqn.params.get("subset_by_index")
    n = min(eqn.invars[0].aval.shape[-2:])
    if subset is not None and tuple(subset) != (0, n):
        return f"subset_by_index={tuple(subset)}: only the full decomposition is translated"
    return None


@rule("eigh", doc="ivy.linalg.eigh of the matrix rebuilt from its lower (or upper) triangle", supports=_no_subset)
def _eigh(x: Any, *, lower: bool) -> Any:
    tri = ivy.tril(x) if lower else ivy.triu(x)
    strict = ivy.tril(x, k=-1) if lower else ivy.triu(x, k=1)
    w, v = ivy.linalg.eigh(ivy.add(tri, _swap(strict)))
    return [v, w]  # JAX's order: eigenvectors first


@rule("svd", doc="ivy.linalg.svd (ivy.linalg.svdvals without compute_uv)", supports=_no_subset)
def _svd(x: Any, *, full_matrices: bool, compute_uv: bool) -> Any:
    if not compute_uv:
        return [ivy.linalg.svdvals(x)]
    u, s, vt = ivy.linalg.svd(x, full_matrices=full_matrices)
    return [s, u, vt]  # JAX's order: singular values first


def _no_pivoting(eqn: Any) -> str | None:
    return "pivoting=True (column-pivoted QR)" if eqn.params.get("pivoting") else None


@rule("qr", doc="ivy.linalg.qr, mode 'complete' or 'reduced'", supports=_no_pivoting)
def _qr(x: Any, *, full_matrices: bool) -> Any:
    q, r = ivy.linalg.qr(x, mode="complete" if full_matrices else "reduced")
    return [q, r]


_FFTS = {0: ivy.fft.fftn, 1: ivy.fft.ifftn, 2: ivy.fft.rfftn, 3: ivy.fft.irfftn}


@rule("fft", doc="ivy.fft.fftn / ifftn / rfftn / irfftn over the trailing len(fft_lengths) axes")
def _fft(x: Any, *, fft_type: Any, fft_lengths: tuple[int, ...]) -> Any:
    n = len(fft_lengths)
    return _FFTS[int(fft_type)](x, s=tuple(fft_lengths), axes=tuple(range(-n, 0)))


def _floats(ctx: Ctx) -> bool:
    return ctx.in_dtype(0).startswith(("float", "bfloat"))


@rule("eq_to", doc="ivy.equal; floats: also NaN == NaN, and -0 != +0 (total order)")
def _eq_to(x: Any, y: Any, *, ctx: Ctx) -> Any:
    if not _floats(ctx):
        return ivy.equal(x, y)
    same = ivy.logical_and(ivy.equal(x, y), ivy.equal(ivy.signbit(x), ivy.signbit(y)))
    return ivy.logical_or(same, ivy.logical_and(ivy.isnan(x), ivy.isnan(y)))


def _lt_to(x: Any, y: Any, ctx: Ctx) -> Any:
    if not _floats(ctx):
        return ivy.less(x, y)
    # -0 < +0; a number < NaN (JAX canonicalises NaNs positive before it compares)
    zeros = ivy.logical_and(ivy.equal(x, y), ivy.logical_and(ivy.signbit(x), ivy.logical_not(ivy.signbit(y))))
    nan_after = ivy.logical_and(ivy.logical_not(ivy.isnan(x)), ivy.isnan(y))
    return ivy.logical_or(ivy.logical_or(ivy.less(x, y), zeros), nan_after)


@rule("lt_to", doc="ivy.less; floats: in IEEE total order (-0 < +0, numbers < NaN)")
def _lt_to_rule(x: Any, y: Any, *, ctx: Ctx) -> Any:
    return _lt_to(x, y, ctx)


@rule("le_to", doc="ivy.less_equal; floats: in IEEE total order (-0 < +0, numbers < NaN)")
def _le_to(x: Any, y: Any, *, ctx: Ctx) -> Any:
    return ivy.logical_not(_lt_to(y, x, ctx))
