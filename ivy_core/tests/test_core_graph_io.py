"""Graphs stored (JSON + safetensors), drawn (dot text, PNG) and traced from modules, on core's
test backend (numpy); values are checked against NumPy formulas written here."""

from __future__ import annotations

import hashlib
import json
import math
from pathlib import Path

import numpy as np
import pytest

import ivy
from ivy.graph import ConstArray, Graph, GraphTraceError

RNG = np.random.default_rng(1)
X = RNG.standard_normal((5, 3)).astype(np.float32)


def _mixed(x):  # constants of several dtypes, slices, dtypes, a Container
    c = ivy.asarray(np.array([1 + 2j, -3j], np.complex64))
    k = ivy.asarray(np.array([[1, 2, 3]], np.int64))
    y = ivy.astype(x[1:4:2, ...], ivy.float64) * ivy.astype(k + 1, "float64")
    z = ivy.where(x > 0, x, float("-inf"))
    return ivy.Container(y=y, z=z), ivy.real(c * (1 + 1j)), (y.shape, math.inf)


def test_json_and_safetensors_round_trip(tmp_path: Path) -> None:
    g = ivy.trace_graph(_mixed, args=(X,))
    g.save(tmp_path / "mixed")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["mixed.json", "mixed.safetensors"]
    doc = json.loads((tmp_path / "mixed.json").read_text())
    assert doc["format"] == "ivy.graph" and {n["op"] for n in doc["graph"]["nodes"]} >= {"get_item", "where"}
    # the saved document is to_json's plus the hash of its data file (a document never loads
    # with another save's data)
    assert doc.pop("data_sha256") == hashlib.sha256((tmp_path / "mixed.safetensors").read_bytes()).hexdigest()
    assert json.loads(g.to_json()) == doc
    back = Graph.load(tmp_path / "mixed.json")
    assert back.code == g.code
    want, got = g(X), back(X)
    np.testing.assert_allclose(got[0].y, want[0].y)
    np.testing.assert_allclose(got[0].z, want[0].z)
    np.testing.assert_allclose(got[1], np.real(np.array([1 + 2j, -3j]) * (1 + 1j)))
    assert got[2] == ((2, 3), math.inf) and isinstance(got[0], ivy.Container)
    kinds = {c.dtype for c in back.constants()}
    assert {"complex64", "int64"} <= kinds or {"float64"} <= kinds


def test_const_arrays_hold_bytes_and_convert_to_any_backend() -> None:
    a = np.arange(6, dtype=np.int16).reshape(2, 3)
    c = ConstArray.from_native(a)
    assert (c.dtype, c.shape, c.data) == ("int16", (2, 3), a.tobytes())
    assert c.tolist() == list(range(6))
    b = ivy._registry.get_backend("numpy")
    np.testing.assert_array_equal(c.to_native(b), a)
    with pytest.raises(ValueError, match="do not hold"):
        ConstArray("float32", (3,), b"\x00" * 8)


def test_dot_text_colours_ops_by_category() -> None:
    g = ivy.trace_graph(lambda x: ivy.sum(ivy.relu(ivy.matmul(x, ivy.matrix_transpose(x)))), args=(X,))
    dot = g.to_dot()
    assert dot.startswith('digraph "<lambda>"') or dot.startswith('digraph "')
    from ivy.graph._draw import COLORS

    assert f'fillcolor="{COLORS["nn"]}"' in dot  # relu
    assert f'fillcolor="{COLORS["statistical"]}"' in dot  # sum
    assert dot.count("->") >= 4 and "float32[5, 5]" in dot


def test_save_image_writes_a_png(tmp_path: Path) -> None:
    pytest.importorskip("matplotlib")
    g = ivy.trace_graph(lambda x: ivy.sin(x) + ivy.cos(x), args=(X,))
    g.save_image(tmp_path / "g.png")
    assert (tmp_path / "g.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


class _Net(ivy.Module):
    def __init__(self) -> None:
        self.fc = ivy.Linear(3, 4)
        self.out = ivy.Linear(None, 2)  # sized by its first input: built by a call before tracing
        ivy.Module.__init__(self)

    def _forward(self, x):
        return self.out(ivy.relu(self.fc(x)))


def _net_np(v: dict, x: np.ndarray) -> np.ndarray:
    h = np.maximum(x @ v["fc/w"].T + v["fc/b"], 0)
    return h @ v["out/w"].T + v["out/b"]


def test_modules_lift_their_variables_as_named_inputs() -> None:
    with ivy.use_backend("numpy"):
        net = _Net()
    g = ivy.trace_graph(net, args=(X,))
    assert list(g.params) == ["fc/w", "fc/b", "out/w", "out/b"] and not g.buffers
    assert g.code.startswith("# params: 4 arrays") and "def _Net(params, x):" in g.code
    v = {k: np.asarray(a) for k, a in net.v.to_flat_dict().items()}
    np.testing.assert_allclose(g(v, X), _net_np(v, X), rtol=1e-6)
    np.testing.assert_allclose(g(net.v, X), _net_np(v, X), rtol=1e-6)  # a Container works too
    np.testing.assert_allclose(g.to("numpy")(g.param_arrays(), X), _net_np(v, X), rtol=1e-6)
    m = g.module()
    np.testing.assert_allclose(m(X), _net_np(v, X), rtol=1e-6)
    other = {k: a + 1 for k, a in v.items()}
    np.testing.assert_allclose(m(X, v=ivy.Container.from_flat_dict(other)), _net_np(other, X), rtol=1e-6)


class _Normed(ivy.Module):
    def __init__(self) -> None:
        self.bn = ivy.BatchNorm2D(2)
        ivy.Module.__init__(self, backend="numpy")

    def _forward(self, x):
        return self.bn(x)


def test_buffers_updated_in_training_mode_come_out_as_state() -> None:
    net = _Normed()
    x = RNG.standard_normal((3, 2, 2, 2)).astype(np.float32)
    before = {k: np.asarray(a).copy() for k, a in net.state.to_flat_dict().items()}
    g = ivy.trace_graph(net, args=(x,))
    assert set(g.buffers) == set(before) and set(g.state_updates) == set(before)
    assert {k: np.asarray(a) for k, a in net.state.to_flat_dict().items()}.keys() == before.keys()
    for k, a in net.state.to_flat_dict().items():  # tracing left the module as it was
        np.testing.assert_array_equal(np.asarray(a), before[k])
    params = g.param_arrays()
    out, state = g(params, x)
    want = net(x)
    np.testing.assert_allclose(out, want, rtol=1e-5, atol=1e-6)
    for k, a in net.state.to_flat_dict().items():
        np.testing.assert_allclose(state[k], a, rtol=1e-6)
    m = g.module()
    m(x)
    for k, a in net.state.to_flat_dict().items():  # the module form keeps its state updated
        np.testing.assert_allclose(np.asarray(m.state.to_flat_dict()[k]), a, rtol=1e-6)
    net.eval()
    ge = ivy.trace_graph(net, args=(x,))
    assert not ge.state_updates


def test_graph_repr_and_ops() -> None:
    g = ivy.trace_graph(lambda x: ivy.sin(x) + ivy.sin(x * 2), args=(X,))
    assert repr(g) == "<ivy.Graph '<lambda>': 4 nodes, inputs (float32[5, 3])>" or "4 nodes" in repr(g)
    assert g.ops() == {"sin": 2, "multiply": 1, "add": 1}
    assert len(g) == 4


def test_a_function_using_a_module_threads_its_state() -> None:
    nets = _Normed(), _Normed()
    for n in nets:
        n.build()  # (a module must have built its variables before a function using it is traced)
    x = RNG.standard_normal((3, 2, 2, 2)).astype(np.float32)

    def make(net):
        return lambda x: net(x) * 2

    traced, eager = make(nets[0]), make(nets[1])
    g = ivy.trace_graph(traced, args=(x,))
    assert g.meta["state"] == ["_Normed", "BatchNorm2D"] and g.arg_names[0] == "state"
    for k, a in nets[0].state.to_flat_dict().items():  # tracing changed nothing
        np.testing.assert_array_equal(np.asarray(a), np.asarray(nets[1].state.to_flat_dict()[k]))
    for _ in range(3):
        np.testing.assert_allclose(g(x), eager(x), rtol=1e-5, atol=1e-6)
    for k, a in nets[1].state.to_flat_dict().items():  # the running statistics moved alike
        np.testing.assert_allclose(np.asarray(nets[0].state.to_flat_dict()[k]), a, rtol=1e-6)
    doc = json.loads(g.to_json())
    fields = ("name", "inputs", "in_tree", "arg_names", "nodes", "outputs", "meta")
    back = Graph(**{k: getattr(g, k) for k in fields})  # as a stored graph: without the objects
    with pytest.raises(TypeError, match="threads the state of _Normed, BatchNorm2D"):
        back(x)
    assert doc["graph"]["meta"]["state"] == ["_Normed", "BatchNorm2D"]


def test_a_function_of_named_parameters_and_buffers_lifts_them() -> None:
    w = RNG.standard_normal((3, 2)).astype(np.float32)
    b = RNG.standard_normal(2).astype(np.float32)
    mean = np.zeros(2, np.float32)

    def step(values, x):  # a dense layer, and a running mean of its outputs
        y = ivy.matmul(x, values["fc/w"]) + values["fc/b"]
        return y, {"stats/mean": 0.9 * values["stats/mean"] + 0.1 * ivy.mean(y, axis=0)}

    g = ivy.trace_graph(step, args=(X,), params={"fc/w": w, "fc/b": b}, buffers={"stats/mean": mean})
    assert list(g.params) == ["fc/w", "fc/b", "stats/mean"] and g.buffers == ["stats/mean"]
    assert "def step(params, x):" in g.code
    want = X @ w + b
    y, state = g({"fc/w": w + 1, "fc/b": b, "stats/mean": mean + 1}, X)  # the values given, not the traced
    np.testing.assert_allclose(y, X @ (w + 1) + b, rtol=1e-5)
    np.testing.assert_allclose(state["stats/mean"], 0.9 + 0.1 * (X @ (w + 1) + b).mean(0), rtol=1e-5)
    m = g.module()  # trains the parameters; the buffer is its state, updated by each call
    assert set(m.v.to_flat_dict()) == {"fc/w", "fc/b"} and set(m.state.to_flat_dict()) == {"stats/mean"}
    np.testing.assert_allclose(m(X), want, rtol=1e-5)
    np.testing.assert_allclose(np.asarray(m.state.to_flat_dict()["stats/mean"]), 0.1 * want.mean(0), rtol=1e-5)
    with pytest.raises(GraphTraceError, match="'other', which is not one of its buffers"):
        ivy.trace_graph(lambda v, x: (x, {"other": x}), args=(X,), buffers={"stats/mean": mean})
    with pytest.raises(GraphTraceError, match="name both a parameter and a buffer"):
        ivy.trace_graph(step, args=(X,), params={"fc/w": w}, buffers={"fc/w": w})
