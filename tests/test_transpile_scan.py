"""``ivy.scan`` in graphs: one node holding its function as a subgraph, emitted as each target's
own loop (``lax.scan`` in the JAX program, a ``While`` op in the TensorFlow one, a Python loop on
eager backends); JAX's ``lax.scan`` and torch.export's ``scan``/``map`` transpile to it.

The references are a Python loop over NumPy (gradients by central finite differences in float64)
and the source frameworks themselves (JAX's ``jax.grad``, torch's autograd).

    python -m pytest tests/test_transpile_scan.py --backend tensorflow -q
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing._helpers.nn_reference import fd_grad

_RNG = np.random.default_rng(7)
INPUTS = [_RNG.normal(size=(5, 3)).astype(np.float32) for _ in range(2)]
W = np.float32([0.5, -0.8, 0.9])
#: weights of each y in the loss whose gradient the tests compare
YW = _RNG.normal(size=(5, 3)).astype(np.float32)


def _scanning(x: Any, w: Any) -> Any:
    """A leaky running sum of the rows of ``x`` (the leak ``w``) and each step's ``tanh``."""

    def step(c: Any, row: Any) -> Any:
        c = ivy.add(ivy.multiply(c, w), row)
        return c, ivy.tanh(c)

    return ivy.scan(step, ivy.zeros_like(x[0]), x)


def _reference(x: np.ndarray, w: np.ndarray, reverse: bool = False) -> tuple[np.ndarray, np.ndarray]:
    c, ys = np.zeros(x.shape[1], x.dtype), [np.zeros(0)] * len(x)
    for i in reversed(range(len(x))) if reverse else range(len(x)):
        c = c * w + x[i]
        ys[i] = np.tanh(c)
    return c, np.stack(ys)


def _loss_np(xs: list[np.ndarray], reverse: bool = False) -> float:
    c, ys = _reference(xs[0], xs[1], reverse)
    return float(np.sum(np.sin(c)) + np.sum(ys * YW))


def _loss(out: Any, yw: Any) -> Any:
    c, ys = out
    return ivy.add(ivy.sum(ivy.sin(c)), ivy.sum(ivy.multiply(ys, yw)))


def _check_grads(prog: Any, to_native: Any, to_numpy: Any, reverse: bool = False) -> None:
    yw = to_native(YW)
    for x in INPUTS:
        _, grads, _ = ivy.value_and_grad_flat(lambda a: _loss(prog(*a), yw), [to_native(x), to_native(W)])
        want = fd_grad(lambda a: _loss_np(a, reverse), [x.astype(np.float64), W.astype(np.float64)])
        for g, w in zip(grads, want):
            np.testing.assert_allclose(to_numpy(g), w, rtol=2e-3, atol=2e-4)


@pytest.fixture(scope="module")
def scan_graph(backend: str) -> Any:
    with ivy.use_backend(backend):
        return ivy.trace_graph(_scanning, args=(ivy.asarray(INPUTS[0]), ivy.asarray(W)))


def test_the_scan_is_one_node_with_its_function_once(scan_graph: Any) -> None:
    ops = scan_graph.ops()
    assert ops["scan"] == 1 and ops["tanh"] == 1  # the body once, not once per row
    assert "tanh" not in [n.op for n in scan_graph.nodes]
    assert "def f(carry, " in scan_graph.code and "ivy.scan(f, " in scan_graph.code


@pytest.mark.parametrize("compiled", [False, True], ids=["eager", "compiled"])
def test_the_emitted_scan_computes_the_loop(
    scan_graph: Any, backend: str, to_native: Any, to_numpy: Any, compiled: bool
) -> None:
    prog = scan_graph.to(backend, compile=compiled)
    for x in INPUTS:
        c, ys = prog(to_native(x), to_native(W))
        want_c, want_ys = _reference(x, W)
        np.testing.assert_allclose(to_numpy(c), want_c, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(to_numpy(ys), want_ys, rtol=1e-5, atol=1e-6)


def test_the_emitted_program_runs_the_targets_own_loop(scan_graph: Any, backend: str, to_native: Any) -> None:
    assert "scan(f, " in scan_graph.source(backend)  # one call of the loop, its function defined once
    args = (to_native(INPUTS[0]), to_native(W))
    if backend == "jax":
        import jax

        assert "scan[" in str(jax.make_jaxpr(scan_graph.to("jax", compile=False))(*args))  # lax.scan
    elif backend == "tensorflow":
        import tensorflow as tf

        graph = tf.function(scan_graph.to("tensorflow", compile=False)).get_concrete_function(*args).graph
        assert {"While", "StatelessWhile"} & {op.type for op in graph.get_operations()}


def test_gradients_flow_through_the_emitted_scan(scan_graph: Any, backend: str, to_native: Any, to_numpy: Any) -> None:
    if backend == "numpy":
        pytest.skip("NumPy has no automatic differentiation")
    _check_grads(scan_graph.to(backend), to_native, to_numpy)


def test_a_saved_scan_graph_loads_and_runs(
    scan_graph: Any, backend: str, to_native: Any, to_numpy: Any, tmp_path: Path
) -> None:
    scan_graph.save(tmp_path / "scan.json")
    loaded = ivy.Graph.load(tmp_path / "scan.json")
    assert loaded.code == scan_graph.code
    c, ys = loaded.to(backend, compile=False)(to_native(INPUTS[1]), to_native(W))
    want_c, want_ys = _reference(INPUTS[1], W)
    np.testing.assert_allclose(to_numpy(c), want_c, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(to_numpy(ys), want_ys, rtol=1e-5, atol=1e-6)


def test_a_scan_without_xs_and_a_dynamic_length(backend: str, to_native: Any, to_numpy: Any) -> None:
    def doubling(x: Any) -> Any:
        return ivy.scan(lambda c, _: (ivy.multiply(c, 2.0), ivy.sum(c)), x, None, length=3)

    def cumulative(x: Any) -> Any:  # (the number of rows is dynamic: the loop's length follows it)
        return ivy.scan(lambda c, row: (ivy.add(c, row), c), ivy.zeros_like(x[0]), x)[1]

    with ivy.use_backend(backend):
        g = ivy.trace_graph(doubling, args=(ivy.asarray(W),))
        dyn = ivy.trace_graph(cumulative, args=(ivy.asarray(INPUTS[0]),), dynamic={"x": 0})
    c, ys = g.to(backend)(to_native(W))
    np.testing.assert_allclose(to_numpy(c), W * 8)
    np.testing.assert_allclose(to_numpy(ys), [W.sum(), 2 * W.sum(), 4 * W.sum()], rtol=1e-6)
    x = INPUTS[1][:3]
    want = np.cumsum(np.concatenate([np.zeros((1, 3), np.float32), x[:-1]]), axis=0)
    np.testing.assert_allclose(to_numpy(dyn.to(backend)(to_native(x))), want, rtol=1e-6)


# ------------------------------------------------------------------------------ from JAX


def _jax_fn(x: Any, w: Any) -> Any:
    import jax.numpy as jnp
    from jax import lax

    return lax.scan(lambda c, row: (c * w + row, jnp.tanh(c * w + row)), jnp.zeros(x.shape[1], x.dtype), x)


def test_jax_lax_scan_transpiles_to_one_loop(
    backend: str, to_native: Any, to_numpy: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    if backend == "jax":
        pytest.skip("jax to jax is not a transpilation")
    pytest.importorskip("jax")
    monkeypatch.setenv("IVY_CACHE_DIR", str(tmp_path / "cache"))
    graph = ivy.transpile(_jax_fn, source="jax", to="ivy", args=(INPUTS[0], W))
    assert graph.ops()["scan"] == 1 and graph.ops()["tanh"] == 1  # not unrolled
    prog = ivy.transpile(_jax_fn, source="jax", to=backend)
    for x in INPUTS:
        c, ys = prog(to_native(x), to_native(W))
        want_c, want_ys = _reference(x, W)
        np.testing.assert_allclose(to_numpy(c), want_c, rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(to_numpy(ys), want_ys, rtol=1e-5, atol=1e-6)
    if backend != "numpy":
        _check_grads(prog, to_native, to_numpy)


# ------------------------------------------------------------------------------ from torch


def _torch_fn(x: Any, w: Any) -> Any:
    from torch._higher_order_ops.map import map as torch_map
    from torch._higher_order_ops.scan import scan

    c, ys = scan(lambda c, row: (c * w + row, (c * w + row).tanh()), x.new_zeros(x.shape[1]), x, reverse=True)
    return c, ys, torch_map(lambda row, w: row.cos() * w, x, w)


def test_torch_scan_and_map_transpile_to_one_loop_each(
    backend: str, to_native: Any, to_numpy: Any, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    torch = pytest.importorskip("torch")
    if backend == "torch":
        pytest.skip("torch to torch is not a transpilation")
    monkeypatch.setenv("IVY_CACHE_DIR", str(tmp_path / "cache"))
    graph = ivy.transpile(_torch_fn, source="torch", to="ivy", args=(INPUTS[0], W))
    assert graph.ops()["scan"] == 2 and graph.ops()["tanh"] == 1 and graph.ops()["cos"] == 1
    prog = ivy.transpile(_torch_fn, source="torch", to=backend)
    for x in INPUTS:
        got = prog(to_native(x), to_native(W))
        want = _torch_fn(torch.from_numpy(x), torch.from_numpy(W))
        for g, w in zip(got, want):
            np.testing.assert_allclose(to_numpy(g), w.numpy(), rtol=1e-5, atol=1e-6)
    if backend != "numpy":
        _check_grads(lambda x, w: prog(x, w)[:2], to_native, to_numpy, reverse=True)


def test_nests_in_the_carry_and_the_rows_are_kept(backend: str, to_native: Any, to_numpy: Any) -> None:
    def counted(x: Any, w: Any) -> Any:  # a dict carry (keys out of order), a y holding None
        def step(c: Any, row: Any) -> Any:
            a = ivy.add(ivy.multiply(c["a"], w), row["v"])
            return {"a": a, "k": ivy.add(c["k"], 1)}, (ivy.sum(a), None)

        return ivy.scan(step, {"k": ivy.zeros((), dtype="int32"), "a": ivy.zeros_like(w)}, {"v": x}, reverse=True)

    with ivy.use_backend(backend):
        g = ivy.trace_graph(counted, args=(ivy.asarray(INPUTS[0]), ivy.asarray(W)), dynamic={"x": 0})
    for compiled in (False, True):
        x = INPUTS[1][:3]  # (another number of rows than traced)
        c, (sums, none) = g.to(backend, compile=compiled)(to_native(x), to_native(W))
        want_c, _ = _reference(x, W, reverse=True)
        np.testing.assert_allclose(to_numpy(c["a"]), want_c, rtol=1e-5, atol=1e-6)
        assert int(to_numpy(c["k"])) == 3 and none is None
        want_sums = [_reference(x[i:], W, reverse=True)[0].sum() for i in range(3)]
        np.testing.assert_allclose(to_numpy(sums), want_sums, rtol=1e-5, atol=1e-5)
