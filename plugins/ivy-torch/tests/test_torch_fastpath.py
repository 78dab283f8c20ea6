"""The torch ops that call torch from C for plain calls (``ivy.plugin.fastpath``) give exactly what
their full Python function gives, for every dtype (the guards send the dtypes torch lacks kernels
for to the full function), and torch.compile still traces through them in one graph.

    python -m pytest plugins/ivy-torch/tests/test_torch_fastpath.py -q
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

torch = pytest.importorskip("torch")
ivy = pytest.importorskip("ivy")
from ivy import _dispatch

pytestmark = pytest.mark.skipif(not _dispatch.C_DISPATCH, reason="ivy._cdispatch is not built")

DTYPES = [
    torch.bool,
    torch.int8,
    torch.int16,
    torch.int32,
    torch.int64,
    torch.uint8,
    torch.uint16,
    torch.uint32,
    torch.uint64,
    torch.float16,
    torch.float32,
    torch.float64,
    torch.complex64,
]


def _fast_ops() -> list[str]:
    from ivy import _registry

    ops = _registry.get_backend("torch").ops
    return sorted(n for n, f in ops.items() if type(f).__name__ == "FastPath")


def _array(dtype: torch.dtype, shape: tuple[int, ...], seed: int) -> torch.Tensor:
    rng = np.random.default_rng(seed)
    v = rng.integers(0, 5, size=shape)
    if dtype is torch.bool:
        return torch.from_numpy(v > 2)
    return torch.from_numpy(v.astype(np.int64)).to(dtype)


def _plain_args(name: str, dtype: torch.dtype) -> tuple[Any, ...]:
    a, b = _array(dtype, (2, 3), 0), _array(dtype, (2, 3), 1)
    one = {
        "sum",
        "prod",
        "max",
        "min",
        "mean",
        "argmax",
        "argmin",
        "abs",
        "negative",
        "square",
        "bitwise_invert",
        "logical_not",
        "cumsum",
        "cumprod",
        "gelu",
        "softmax",
        "log_softmax",
        "leaky_relu",
    }
    if name in one:
        return (a,)
    if name == "concat":
        return ([a, b],)
    if name == "reshape":
        return (a, (3, 2))
    if name == "permute_dims":
        return (a, (1, 0))
    if name == "where":
        return (_array(torch.int64, (2, 3), 2) > 1, a, b)
    if name in ("matmul", "linalg.matmul"):
        return (a, _array(dtype, (3, 2), 1))
    if name == "einsum":
        return ("ij,kj->ik", a, b)
    if name == "expand_dims":
        return (a, 1)
    if name == "broadcast_to":
        return (a, (2, 2, 3))
    return (a, b)  # binary element-wise


def _outcome(fn: Any, args: tuple[Any, ...]) -> tuple[Any, ...]:
    try:
        r = fn(*args)
    except Exception as e:  # the error is the outcome compared
        return ("raise", type(e))
    if isinstance(r, tuple):
        r = r[0]
    return ("ok", r.dtype, tuple(r.shape), r.to(torch.complex128 if r.is_complex() else torch.float64).tolist())


def test_torch_common_ops_are_fast_paths() -> None:
    assert {
        "add",
        "subtract",
        "multiply",
        "divide",
        "sum",
        "max",
        "mean",
        "where",
        "reshape",
        "permute_dims",
        "concat",
        "abs",
    } <= set(_fast_ops())


@pytest.mark.parametrize("dtype", DTYPES, ids=str)
@pytest.mark.parametrize("name", _fast_ops())
def test_torch_fast_path_equals_full_function(name: str, dtype: torch.dtype) -> None:
    fn = ivy.backend_namespace("torch")
    for part in name.split("."):  # linalg.matmul: the namespace's linalg module
        fn = getattr(fn, part)
    args = _plain_args(name, dtype)
    got = _outcome(fn, args)
    want = _outcome(fn.__ivy_python__, args)
    if want[0] == "ok" and got[0] == "ok":
        assert got[:3] == want[:3]
        np.testing.assert_array_equal(np.asarray(got[3]), np.asarray(want[3]))
    else:
        assert got == want


@pytest.mark.parametrize("axis", [0, 1, -1, 2])
@pytest.mark.parametrize("name", ["cumsum", "cumprod"])
def test_torch_cumulative_default_axis_and_errors(name: str, axis: int) -> None:
    fn = getattr(ivy.backend_namespace("torch"), name)
    for dtype in (torch.float32, torch.int32, torch.uint8, torch.bool):
        a = _array(dtype, (2, 3), 3)
        assert _outcome(fn, (a, axis)) == _outcome(fn.__ivy_python__, (a, axis))
    ref = np.cumsum if name == "cumsum" else np.cumprod
    np.testing.assert_array_equal(fn(torch.arange(1.0, 5.0)).numpy(), ref(np.arange(1.0, 5.0)))
    with pytest.raises(IndexError, match="out of bounds"):
        fn(torch.ones(3), 4)


def test_torch_fast_paths_keep_standard_promotion() -> None:
    # torch would keep float32 for a 0-d float64 operand; the guard sends it to the full function
    x, y = torch.ones(3), torch.tensor(2.0, dtype=torch.float64)
    assert ivy.add(x, y).dtype == torch.float64 and ivy.torch.add(x, y).dtype == torch.float64
    assert ivy.add(x, 2.0).dtype == torch.float32
    assert ivy.sum(torch.ones(3, dtype=torch.uint16)).dtype == torch.uint64
    # a non-bool condition (the guard admits bool only) is read as "!= 0"
    c = torch.tensor([2, 0, -1])
    np.testing.assert_array_equal(ivy.where(c, torch.ones(3), torch.zeros(3)).numpy(), [1.0, 0.0, 1.0])


def test_torch_compile_traces_ivy_ops_in_one_graph() -> None:
    def f(x: torch.Tensor, y: torch.Tensor) -> torch.Tensor:
        z = ivy.where(x > 0, ivy.add(x, y), ivy.multiply(x, y))
        return ivy.sum(ivy.reshape(ivy.abs(z), (-1,)))

    x, y = torch.randn(4, 3), torch.randn(4, 3)
    f(x, y)  # fills the dispatch tables (the first call takes the slow path)
    compiled = torch.compile(f, fullgraph=True, backend="eager")  # fullgraph: a break would raise
    torch.testing.assert_close(compiled(x, y), torch.where(x > 0, x + y, x * y).abs().sum())


def test_torch_compile_first_call_leaves_dispatch_caches_alone(tmp_path):
    # Ivy code whose first call is under torch.compile: dispatch must not fill its tables while
    # dynamo traces (torch would replay that write after every call of the compiled program).
    import subprocess
    import sys

    script = tmp_path / "first_call_compiled.py"
    script.write_text(
        "import torch, ivy\n"
        "from ivy import _dispatch\n"
        "ivy.backend_namespace('torch')  # loaded, but no op called yet\n"
        "f = torch.compile(lambda x: ivy.sin(ivy.add(x, x)), backend='eager', fullgraph=True)\n"
        "x = torch.randn(5)\n"
        "for _ in range(3):\n"
        "    torch.testing.assert_close(f(x), torch.sin(2 * x))\n"
        "assert torch.Tensor not in _dispatch.TABLES.get('sin', {}), 'table written by the trace'\n"
        "ivy.sin(x)\n"
        "assert torch.Tensor in _dispatch.TABLES['sin']  # eager calls do fill it\n"
        "print('ok')\n"
    )
    p = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=900)
    assert p.returncode == 0 and p.stdout.strip().endswith("ok"), p.stderr[-3000:]


KEYWORD_CALLS: list[tuple[str, dict[str, Any]]] = [
    *[
        (op, kw)
        for op in ("sum", "prod", "max", "min", "mean")
        for kw in (
            {"axis": 0},
            {"axis": -1, "keepdims": True},
            {"keepdims": True},
            {"keepdims": False, "axis": 1},
            {"axis": ()},  # torch reads dim=() as every axis: the full function
            {"axis": (0, 1)},
            {"axis": True},  # a bool is no axis here: the full function decides
        )
    ],
    ("concat", {"axis": -1}),
    ("concat", {"axis": None}),
    ("stack", {"axis": 1}),
    ("unstack", {"axis": -1}),
]


@pytest.mark.parametrize("dtype", [torch.bool, torch.int32, torch.uint8, torch.uint16, torch.float32], ids=str)
@pytest.mark.parametrize(("name", "kwargs"), KEYWORD_CALLS, ids=lambda v: str(v))
def test_torch_fast_path_keywords_equal_full_function(name: str, kwargs: dict[str, Any], dtype: torch.dtype) -> None:
    # options passed by keyword take the fast path (positionally to torch) where they can, and
    # give what the full Python function gives
    fn = getattr(ivy.backend_namespace("torch"), name)
    a, b = _array(dtype, (2, 3), 0), _array(dtype, (2, 3), 1)
    args: tuple[Any, ...] = ([a, b],) if name in ("concat", "stack") else (a,)

    def call(f: Any) -> tuple[Any, ...]:
        return _outcome(lambda *xs: f(*xs, **kwargs), args)

    got, want = call(fn), call(fn.__ivy_python__)
    if want[0] == "ok" and got[0] == "ok":
        assert got[:3] == want[:3]
        np.testing.assert_array_equal(np.asarray(got[3]), np.asarray(want[3]))
    else:
        assert got == want
    assert call(getattr(ivy, name)) == got  # through ivy's dispatch: the same
