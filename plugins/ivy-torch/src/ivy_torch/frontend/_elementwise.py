"""Element-wise ATen ops: math, arithmetic, comparisons, logic, clamps and activations.

torch computes an element-wise op in the dtype its promotion gives (an integer tensor times
``0.5`` is float32, a float32 tensor plus a float64 0-d tensor stays float32), where the Array
API would promote otherwise: the rules made by :func:`math` cast every array operand to the dtype
torch computes in before calling the Ivy op, and comparisons cast to the operands' common dtype.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import torch

import ivy

from ._rules import Out, Rule, cast, is_array, result_dtype, rule, same

__all__ = ["TABLE"]


def math(fn: Callable[..., Any], doc: str | None = None) -> Rule:
    """An Ivy op applied with every array operand in the dtype torch computes the result in."""

    def apply(out: Out, *operands: Any) -> Any:
        return fn(*(cast(x, out.dtype) for x in operands))

    return Rule(apply, doc or f"ivy.{fn.__name__}", out=True)


def compare(fn: Callable[..., Any]) -> Rule:
    """A comparison, made in the operands' common dtype (torch's promotion)."""

    def apply(a: Any, b: Any) -> Any:
        dtype = result_dtype(a, b)
        return fn(cast(a, dtype), cast(b, dtype))

    return Rule(apply, f"ivy.{fn.__name__}")


def _as_bool(x: Any) -> Any:
    return x if not is_array(x) or x.dtype == torch.bool else ivy.not_equal(x, 0)


def logical(fn: Callable[..., Any]) -> Rule:
    """A logical op: torch reads any dtype as truth values, Ivy takes booleans."""
    return Rule(lambda *xs: fn(*(_as_bool(x) for x in xs)), f"ivy.{fn.__name__} of the operands as booleans")


def _is_negative(x: Any) -> Any:
    return x < 0 if not is_array(x) else ivy.less(x, 0)


@rule(out=True)
def add(out: Out, a: Any, b: Any, *, alpha: Any = 1) -> Any:
    """a + alpha * b (bools: logical or)"""
    a, b = cast(a, out.dtype), cast(b, out.dtype)
    if out.dtype == torch.bool:
        return ivy.logical_or(a, b)
    return ivy.add(a, b if alpha == 1 else ivy.multiply(b, alpha))


@rule(out=True)
def sub(out: Out, a: Any, b: Any, *, alpha: Any = 1) -> Any:
    """a - alpha * b"""
    a, b = cast(a, out.dtype), cast(b, out.dtype)
    return ivy.subtract(a, b if alpha == 1 else ivy.multiply(b, alpha))


@rule(out=True)
def mul(out: Out, a: Any, b: Any) -> Any:
    """ivy.multiply (bools: logical and)"""
    a, b = cast(a, out.dtype), cast(b, out.dtype)
    return ivy.logical_and(a, b) if out.dtype == torch.bool else ivy.multiply(a, b)


@rule(out=True)
def div_mode(out: Out, a: Any, b: Any, *, rounding_mode: str | None = None) -> Any:
    """ivy.divide, ivy.floor_divide, or a truncating division (floor corrected toward zero)"""
    a, b = cast(a, out.dtype), cast(b, out.dtype)
    if rounding_mode is None:
        return ivy.divide(a, b)
    if rounding_mode == "floor":
        return ivy.floor_divide(a, b)
    if out.dtype.is_floating_point:
        return ivy.trunc(ivy.divide(a, b))
    # integers: the floor quotient is one below the truncated one when the exact quotient is
    # negative and not whole
    q = ivy.floor_divide(a, b)
    inexact = ivy.not_equal(ivy.remainder(a, b), 0)
    negative = ivy.not_equal(_is_negative(a), _is_negative(b))
    return ivy.where(ivy.logical_and(inexact, negative), ivy.add(q, 1), q)


@rule(out=True)
def fmod(out: Out, a: Any, b: Any) -> Any:
    """C's remainder (sign of a): ivy.remainder (sign of b) corrected by b where the signs differ"""
    a, b = cast(a, out.dtype), cast(b, out.dtype)
    r = ivy.remainder(a, b)
    wrong = ivy.logical_and(ivy.not_equal(r, 0), ivy.not_equal(ivy.less(r, 0), _is_negative(a)))
    return ivy.where(wrong, ivy.subtract(r, b), r)


@rule(out=True)
def rsqrt(out: Out, x: Any) -> Any:
    """1 / ivy.sqrt(x)"""
    return ivy.reciprocal(ivy.sqrt(cast(x, out.dtype)))


@rule()
def bitwise_not(x: Any) -> Any:
    """ivy.bitwise_invert (bools: ivy.logical_not)"""
    return ivy.logical_not(x) if x.dtype == torch.bool else ivy.bitwise_invert(x)


@rule(out=True)
def clamp(out: Out, x: Any, min: Any = None, max: Any = None) -> Any:
    """ivy.clip (bounds may be scalars or tensors)"""
    return ivy.clip(cast(x, out.dtype), cast(min, out.dtype), cast(max, out.dtype))


@rule()
def hardtanh(x: Any, min_val: float = -1.0, max_val: float = 1.0) -> Any:
    """ivy.clip(x, min_val, max_val) (ReLU6 is hardtanh(0, 6))"""
    return ivy.clip(x, min_val, max_val)


@rule(out=True)
def where(out: Out, condition: Any, a: Any, b: Any) -> Any:
    """ivy.where, both branches in torch's result dtype"""
    return ivy.where(_as_bool(condition), cast(a, out.dtype), cast(b, out.dtype))


@rule()
def leaky_relu(x: Any, negative_slope: float = 0.01) -> Any:
    """ivy.leaky_relu(alpha=negative_slope)"""
    return ivy.leaky_relu(x, alpha=negative_slope)


_SELU_ALPHA, _SELU_SCALE = 1.6732632423543772, 1.0507009873554805


@rule()
def elu(x: Any, alpha: float = 1.0, scale: float = 1.0, input_scale: float = 1.0) -> Any:
    """ivy.elu, ivy.selu for SELU's constants, else scale * elu(x) with input_scale inside exp"""
    if scale == 1 and input_scale == 1:
        return ivy.elu(x, alpha=alpha)
    if input_scale == 1 and abs(alpha - _SELU_ALPHA) < 1e-12 and abs(scale - _SELU_SCALE) < 1e-12:
        return ivy.selu(x)
    negative = ivy.multiply(ivy.expm1(ivy.multiply(x, input_scale)), alpha * scale)
    return ivy.where(ivy.greater(x, 0), ivy.multiply(x, scale), negative)


@rule()
def celu(x: Any, alpha: float = 1.0) -> Any:
    """elu with the input scaled by 1/alpha (torch's celu)"""
    return elu.fn(x, alpha, 1.0, 1.0 / alpha)


@rule()
def gelu(x: Any, *, approximate: str = "none") -> Any:
    """ivy.gelu(approximate=approximate == "tanh")"""
    return ivy.gelu(x, approximate=approximate == "tanh")


@rule()
def softplus(x: Any, beta: float = 1.0, threshold: float = 20.0) -> Any:
    """ivy.softplus(beta, threshold) (kept whole, not decomposed)"""
    return ivy.softplus(x, beta=beta, threshold=threshold)


@rule(out=True)
def exp2(out: Out, x: Any) -> Any:
    """ivy.pow(2, x)"""
    return ivy.pow(2.0, cast(x, out.dtype))


@rule(out=True)
def erfc(out: Out, x: Any) -> Any:
    """1 - ivy.erf(x)"""
    return ivy.subtract(1.0, ivy.erf(cast(x, out.dtype)))


TABLE: dict[str, Rule] = {
    # unary math, in torch's result dtype (integers become floats for sin, exp, ...)
    "abs": math(ivy.abs),
    "acos": math(ivy.acos),
    "acosh": math(ivy.acosh),
    "asin": math(ivy.asin),
    "asinh": math(ivy.asinh),
    "atan": math(ivy.atan),
    "atanh": math(ivy.atanh),
    "ceil": math(ivy.ceil),
    "cos": math(ivy.cos),
    "cosh": math(ivy.cosh),
    "erf": math(ivy.erf),
    "exp": math(ivy.exp),
    "expm1": math(ivy.expm1),
    "exp2": exp2,
    "erfc": erfc,
    "floor": math(ivy.floor),
    "log": math(ivy.log),
    "log10": math(ivy.log10),
    "log1p": math(ivy.log1p),
    "log2": math(ivy.log2),
    "neg": math(ivy.negative),
    "reciprocal": math(ivy.reciprocal),
    "round": math(ivy.round, "ivy.round (half to even, as torch)"),
    "rsqrt": rsqrt,
    "sigmoid": math(ivy.sigmoid),
    "sign": math(ivy.sign),
    "sin": math(ivy.sin),
    "sinh": math(ivy.sinh),
    "sqrt": math(ivy.sqrt),
    "tan": math(ivy.tan),
    "tanh": math(ivy.tanh),
    "trunc": math(ivy.trunc),
    "isinf": same(ivy.isinf),
    "isnan": same(ivy.isnan),
    "bitwise_not": bitwise_not,
    "logical_not": logical(ivy.logical_not),
    # binary arithmetic
    "add.Tensor": add,
    "add.Scalar": add,
    "sub.Tensor": sub,
    "sub.Scalar": sub,
    "mul.Tensor": mul,
    "mul.Scalar": mul,
    "div.Tensor": math(ivy.divide, "ivy.divide (true division)"),
    "div.Scalar": math(ivy.divide, "ivy.divide (true division)"),
    "div.Tensor_mode": div_mode,
    "div.Scalar_mode": div_mode,
    "pow.Tensor_Tensor": math(ivy.pow),
    "pow.Tensor_Scalar": math(ivy.pow),
    "pow.Scalar": math(ivy.pow),
    "atan2": math(ivy.atan2),
    "hypot": math(ivy.hypot),
    "atan2.out": math(ivy.atan2, "ivy.atan2 (the result, not written to out)"),
    "maximum": math(ivy.maximum),
    "minimum": math(ivy.minimum),
    "remainder.Tensor": math(ivy.remainder, "ivy.remainder (sign of the divisor, as torch)"),
    "remainder.Scalar": math(ivy.remainder, "ivy.remainder (sign of the divisor, as torch)"),
    "fmod.Tensor": fmod,
    "fmod.Scalar": fmod,
    "bitwise_and.Tensor": math(ivy.bitwise_and),
    "bitwise_and.Scalar": math(ivy.bitwise_and),
    "bitwise_or.Tensor": math(ivy.bitwise_or),
    "bitwise_or.Scalar": math(ivy.bitwise_or),
    "bitwise_xor.Tensor": math(ivy.bitwise_xor),
    "bitwise_xor.Scalar": math(ivy.bitwise_xor),
    "logical_and": logical(ivy.logical_and),
    "logical_or": logical(ivy.logical_or),
    "logical_xor": logical(ivy.logical_xor),
    # comparisons
    "eq.Tensor": compare(ivy.equal),
    "eq.Scalar": compare(ivy.equal),
    "ne.Tensor": compare(ivy.not_equal),
    "ne.Scalar": compare(ivy.not_equal),
    "lt.Tensor": compare(ivy.less),
    "lt.Scalar": compare(ivy.less),
    "le.Tensor": compare(ivy.less_equal),
    "le.Scalar": compare(ivy.less_equal),
    "gt.Tensor": compare(ivy.greater),
    "gt.Scalar": compare(ivy.greater),
    "ge.Tensor": compare(ivy.greater_equal),
    "ge.Scalar": compare(ivy.greater_equal),
    # selection and clamps
    "where.self": where,
    "clamp": clamp,
    "clamp.Tensor": clamp,
    "hardtanh": hardtanh,
    # activations
    "relu": same(ivy.relu),
    "leaky_relu": leaky_relu,
    "elu": elu,
    "selu": same(ivy.selu, "ivy.selu (kept whole, not decomposed)"),
    "celu": celu,
    "gelu": gelu,
    "silu": same(ivy.silu, "ivy.silu (kept whole, not decomposed)"),
    "hardswish": same(ivy.hardswish, "ivy.hardswish (kept whole, not decomposed)"),
    "mish": same(ivy.mish, "ivy.mish (kept whole, not decomposed)"),
    "softplus": softplus,
}
