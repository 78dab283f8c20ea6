"""``ivy.transpile`` without a framework, part two: the disk cache and fingerprints, the lazy
library proxy, the per-signature programs of native modules, and dtype narrowing (the NumPy
backend computes)."""

from __future__ import annotations

import json
import logging
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ivy
from ivy.errors import TranspileError
from ivy.transpile import _cache
from ivy.transpile._fingerprint import Unfingerprintable, fingerprint
from ivy.transpile._inputs import portable, signature
from ivy.transpile._programs import ModulePrograms, mode_sensitive


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("IVY_CACHE_DIR", str(d))
    return d


def _x(*shape: int) -> Any:
    return np.random.default_rng(0).standard_normal(shape).astype("float32")


class Scaled(ivy.Module):
    """A small Ivy model whose program depends on a plain attribute (``scale``)."""

    def __init__(self, scale: float = 2.0):
        self.scale = scale
        self.fc = ivy.Linear(3, 2)
        ivy.Module.__init__(self)

    def _forward(self, x: Any) -> Any:
        return ivy.multiply(self.fc(x), self.scale)


def _model(scale: float = 2.0) -> Scaled:
    with ivy.use_backend("numpy"):
        m = Scaled(scale)
        m(_x(4, 3))
    return m


# --------------------------------------------------------------------------- fingerprints


def test_the_fingerprint_is_the_program_not_the_weights() -> None:
    a, b = _model(), _model()
    assert fingerprint(a) == fingerprint(b)
    b.v = b.v.map(lambda x, _: x * 3)
    assert fingerprint(a) == fingerprint(b)
    assert fingerprint(a) != fingerprint(_model(scale=3.0))  # an attribute changes the program


def test_the_fingerprint_of_a_function_follows_its_code_closures_and_globals() -> None:
    def make(k: float) -> Any:
        def f(x: Any) -> Any:
            return ivy.multiply(x, k)

        return f

    assert fingerprint(make(2.0)) == fingerprint(make(2.0))
    assert fingerprint(make(2.0)) != fingerprint(make(3.0))

    def g(x: Any) -> Any:
        return ivy.add(x, 1.0)

    def h(x: Any) -> Any:
        return ivy.add(x, 2.0)

    assert fingerprint(g) != fingerprint(h)


def test_constant_arrays_count_by_value_weights_by_shape() -> None:
    def make(c: Any) -> Any:
        def f(x: Any) -> Any:
            return ivy.add(x, ivy.asarray(c))

        return f

    assert fingerprint(make(np.ones(3))) == fingerprint(make(np.ones(3)))
    assert fingerprint(make(np.ones(3))) != fingerprint(make(np.zeros(3)))


def test_an_object_with_hidden_state_is_not_fingerprinted() -> None:
    class Holder:
        def __init__(self) -> None:
            self.rows = iter([1, 2, 3])  # (a C object whose state its repr does not show)

    with pytest.raises(Unfingerprintable):
        fingerprint(Holder())


def test_signatures_hold_shapes_dtypes_and_static_values() -> None:
    a = signature((_x(2, 3), 3, "same"), {"axis": -1})
    assert a == signature((_x(2, 3) + 1, 3, "same"), {"axis": -1})
    assert a != signature((_x(2, 4), 3, "same"), {"axis": -1})
    assert a != signature((_x(2, 3).astype("float64"), 3, "same"), {"axis": -1})
    assert a != signature((_x(2, 3), 4, "same"), {"axis": -1})
    assert portable(a) and not portable(signature((object(),)))


# --------------------------------------------------------------------------- the disk cache


def test_a_second_transpile_loads_the_graph_from_disk(cache_dir: Path, caplog: pytest.LogCaptureFixture) -> None:
    m, x = _model(), _x(4, 3)
    first = ivy.transpile(m, to="ivy", args=(x,))
    entries = list(cache_dir.glob("*.json"))
    assert len(entries) == 1
    with caplog.at_level(logging.DEBUG, logger="ivy.transpile"):
        second = ivy.transpile(m, to="ivy", args=(x,))
    assert "transpile cache hit" in caplog.text
    np.testing.assert_allclose(ivy.to_numpy(second(x)), ivy.to_numpy(first(x)), rtol=1e-6)


def test_cache_entries_hold_no_weights_and_hits_use_the_objects(cache_dir: Path) -> None:
    m, x = _model(), _x(4, 3)
    ivy.transpile(m, to="ivy", args=(x,))
    (entry,) = cache_dir.glob("*.json")
    doc = json.loads(entry.read_text())
    assert doc["graph"]["param_values"] == {}
    assert not any(name.startswith("param/") for name in doc["constants"])
    m.v = m.v.map(lambda v, _: v + 1.0)  # trained further: the next transpile must see it
    again = ivy.transpile(m, to="ivy", args=(x,))
    np.testing.assert_allclose(ivy.to_numpy(again(x)), ivy.to_numpy(m(x)), rtol=1e-6)


def test_parameters_named_otherwise_by_the_frontend_are_found_by_value() -> None:
    m, x = _model(), _x(4, 3)
    graph = ivy.trace_graph(m, args=(x,))
    w, b = (ivy.to_numpy(a) for a in (m.v.fc.w, m.v.fc.b))
    # core's reading of the object names them otherwise (Haiku's scopes, Flax's collections...)
    theirs = {"scope/~/bias": b, "scope/~/kernel": w}
    mapping = _cache.weight_map(graph, theirs)
    assert mapping == {"fc/w": "scope/~/kernel", "fc/b": "scope/~/bias"}
    entry = graph.replace(param_values={}, meta={**graph.meta, "weight_map": mapping})
    trained = {"scope/~/bias": b + 1.0, "scope/~/kernel": w * 2.0}  # the weights now: the entry takes them
    hit = _cache.with_weights(entry, trained)
    np.testing.assert_allclose(
        ivy.to_numpy(hit(hit.param_arrays("numpy"), x)), (x @ (w * 2.0).T + b + 1.0) * 2.0, rtol=1e-5
    )
    assert _cache.with_weights(entry, {"scope/~/bias": b}) is None  # a weight gone: not used
    assert _cache.with_weights(entry, {**trained, "scope/~/bias": np.zeros(5, "float32")}) is None  # reshaped
    assert _cache.weight_map(graph, {"other": b}) is None  # a parameter that is none of the object's weights


def test_equal_values_are_matched_in_order() -> None:
    with ivy.use_backend("numpy"):
        m = ivy.Sequential(ivy.Linear(3, 3), ivy.Linear(3, 3))
        m(_x(2, 3))
    m.v = m.v.map(lambda v, _: ivy.zeros_like(v))  # every bias and weight of a shape equal
    graph = ivy.trace_graph(m, args=(_x(2, 3),))
    order = list(graph.params)
    weights = {f"p{i}": np.zeros(graph.params[k].shape, "float32") for i, k in enumerate(order)}
    assert _cache.weight_map(graph, weights) == {k: f"p{i}" for i, k in enumerate(order)}


def test_other_signatures_and_programs_get_other_entries(cache_dir: Path) -> None:
    ivy.transpile(_model(), to="ivy", args=(_x(4, 3),))
    ivy.transpile(_model(), to="ivy", args=(_x(5, 3),))
    ivy.transpile(_model(scale=5.0), to="ivy", args=(_x(4, 3),))
    assert len(list(cache_dir.glob("*.json"))) == 3


def test_a_corrupt_entry_is_ignored_with_a_warning_and_rewritten(cache_dir: Path) -> None:
    m, x = _model(), _x(4, 3)
    ivy.transpile(m, to="ivy", args=(x,))
    (entry,) = cache_dir.glob("*.json")
    entry.write_text("{not json")
    with pytest.warns(UserWarning, match="discarding the transpile cache entry"):
        out = ivy.transpile(m, to="ivy", args=(x,))
    np.testing.assert_allclose(ivy.to_numpy(out(x)), ivy.to_numpy(m(x)), rtol=1e-6)
    json.loads(entry.read_text())  # written again


def test_cache_false_writes_nothing(cache_dir: Path) -> None:
    ivy.transpile(_model(), to="ivy", args=(_x(4, 3),), cache=False)
    assert not cache_dir.exists() or not list(cache_dir.iterdir())


def test_the_cache_folder_and_clearing_it(cache_dir: Path) -> None:
    assert ivy.transpile.cache_dir() == cache_dir
    ivy.transpile(_model(), to="ivy", args=(_x(4, 3),))
    cache_dir.joinpath("notes.json").write_text("{}")  # the folder may be shared: not ours
    assert ivy.transpile.clear_cache() == 1
    assert [p.name for p in cache_dir.iterdir()] == ["notes.json"]


def test_the_default_folder(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("IVY_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert _cache.cache_dir() == tmp_path / "xdg" / "ivy" / "transpile"


def test_an_unwritable_folder_only_warns(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("")
    monkeypatch.setenv("IVY_CACHE_DIR", str(blocker / "sub"))
    with pytest.warns(UserWarning, match="could not write the transpile cache entry"):
        out = ivy.transpile(_model(), to="ivy", args=(_x(4, 3),))
    assert isinstance(out, ivy.Module)


# --------------------------------------------------------------------------- the lazy library proxy


@pytest.fixture
def lib(tmp_path: Path) -> Any:
    """A small package written with Ivy: functions, a module class, a constant, a submodule, and
    names from elsewhere (a standard-library function, a foreign module)."""
    pkg = tmp_path / "lazylib_for_test"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text(
        textwrap.dedent(
            """
            import math
            from math import sqrt
            import ivy
            from .filters import box, scale_by, Affine
            from . import sub
            GAIN = 3.0
            """
        )
    )
    (pkg / "filters.py").write_text(
        textwrap.dedent(
            """
            import ivy

            def box(x):
                return ivy.divide(ivy.add(x, ivy.flip(x, axis=-1)), 2.0)

            def scale_by(x, k=2.0):
                return ivy.multiply(x, k)

            class Affine(ivy.Module):
                def __init__(self, n):
                    self.fc = ivy.Linear(n, n)
                    ivy.Module.__init__(self)

                def _forward(self, x):
                    return self.fc(x)
            """
        )
    )
    (pkg / "sub" / "__init__.py").write_text("import ivy\n\ndef neg(x):\n    return ivy.negative(x)\n")
    sys.path.insert(0, str(tmp_path))
    try:
        import lazylib_for_test

        yield lazylib_for_test
    finally:
        sys.path.remove(str(tmp_path))
        for name in [n for n in sys.modules if n.startswith("lazylib_for_test")]:
            del sys.modules[name]


def test_a_library_is_inferred_and_proxied(lib: Any) -> None:
    proxy = ivy.transpile(lib, to="numpy")
    assert isinstance(proxy, ivy.transpile.LazyLibrary)
    assert proxy._source_name == "ivy"
    x = _x(2, 4)
    np.testing.assert_allclose(proxy.box(x), (x + x[:, ::-1]) / 2, rtol=1e-6)
    np.testing.assert_allclose(proxy.sub.neg(x), -x)
    np.testing.assert_allclose(proxy.filters.scale_by(x, k=5.0), 5 * x, rtol=1e-6)


def test_membership_is_by_module_objects(lib: Any) -> None:
    proxy = ivy.transpile(lib, to="numpy")
    assert isinstance(proxy.box, ivy.transpile.LazyFunction)
    assert proxy.box is proxy.filters.box  # one proxy per member of the library
    assert isinstance(proxy.sub, ivy.transpile.LazyLibrary)
    assert proxy.sqrt is lib.sqrt and proxy.math is lib.math and proxy.ivy is ivy  # not the library's
    assert proxy.GAIN == 3.0
    assert "box" in dir(proxy)


def test_functions_are_transpiled_once_per_signature(lib: Any, caplog: pytest.LogCaptureFixture) -> None:
    proxy = ivy.transpile(lib, to="numpy", cache=False)
    with caplog.at_level(logging.INFO, logger="ivy.transpile"):
        proxy.scale_by(_x(2, 3))
        proxy.scale_by(_x(2, 3))
        proxy.scale_by(_x(5, 3))
        proxy.scale_by(_x(5, 3), k=4.0)
    lines = [r.getMessage() for r in caplog.records if r.getMessage().startswith("transpiled scale_by")]
    assert len(lines) == 3, lines
    assert "for (float32[2, 3])" in lines[0] and "k=4.0" in lines[2]
    assert len(proxy.scale_by.programs) == 3


def test_classes_of_the_library_build_lazily_transpiled_modules(lib: Any) -> None:
    proxy = ivy.transpile(lib, to="ivy")
    with ivy.use_backend("numpy"):
        made = proxy.Affine(3)
    assert isinstance(made, ivy.transpile.LazyModule)
    assert isinstance(made, proxy.Affine) and issubclass(lib.Affine, proxy.Affine)
    assert not isinstance(3, proxy.Affine)
    with pytest.raises(AttributeError, match="built on its first call"):
        made.v  # noqa: B018
    x = _x(2, 3)
    out = made(x)
    assert isinstance(made.native, ivy.Module) and ivy.to_numpy(out).shape == (2, 3)


# --------------------------------------------------------------------------- programs of native modules


def _graph(training: bool = True, batch: int = 4) -> Any:
    m = _model()
    m.train(training)
    with ivy.use_backend("numpy"):
        return ivy.trace_graph(m, args=(_x(batch, 3),))


def test_module_programs_run_the_graph_and_say_what_they_expect() -> None:
    g = _graph()
    progs = ModulePrograms(g, "numpy", compile=False)
    assert progs.trainable == ["fc/w", "fc/b"] and progs.buffers == [] and progs.training is True
    params = g.param_arrays("numpy")
    out, updates = progs.run(params, True, (_x(4, 3),), {})
    assert out.shape == (4, 2) and updates is None
    with pytest.raises(
        TranspileError, match=r"specialised to its example inputs .*float32\[4, 3\].*passes \(float32\[7, 3\]\)"
    ):
        progs.run(params, True, (_x(7, 3),), {})
    # no buffers and no random ops: the mode does not matter
    assert not mode_sensitive(g)
    out2, _ = progs.run(params, False, (_x(4, 3),), {})
    np.testing.assert_allclose(out2, out)


def test_module_programs_read_the_source_again_for_new_signatures() -> None:
    calls = []

    def retrace(training: bool, args: Any, kwargs: Any) -> Any:
        calls.append((training, args[0].shape))
        return _graph(training, args[0].shape[0])

    g = _graph()
    progs = ModulePrograms(g, "numpy", retrace=retrace, compile=False)
    params = g.param_arrays("numpy")
    progs.run(params, True, (_x(7, 3),), {})
    progs.run(params, True, (_x(7, 3),), {})
    progs.run(params, False, (_x(4, 3),), {})
    assert calls == [(True, (7, 3)), (False, (4, 3))]
    assert len(progs.graphs) == 3


def test_retraced_graphs_must_keep_the_parameters() -> None:
    def retrace(training: bool, args: Any, kwargs: Any) -> Any:
        with ivy.use_backend("numpy"):
            other = ivy.Linear(3, 5)
            return ivy.trace_graph(other, args=(args[0],))

    g = _graph()
    progs = ModulePrograms(g, "numpy", retrace=retrace, compile=False)
    with pytest.raises(TranspileError, match="gave other parameters than the first read"):
        progs.run(g.param_arrays("numpy"), True, (_x(6, 3),), {})


def test_a_mode_dependent_graph_is_not_reused_in_the_other_mode() -> None:
    with ivy.use_backend("numpy"):
        m = ivy.Sequential(ivy.Linear(3, 3), ivy.BatchNorm1D(3) if hasattr(ivy, "BatchNorm1D") else ivy.LayerNorm([3]))
        m(_x(4, 3))
        m.train(True)
        g = ivy.trace_graph(m, args=(_x(4, 3),))
    if not g.state_updates:
        pytest.skip("no 1-d batch norm layer here")
    progs = ModulePrograms(g, "numpy", compile=False)
    with pytest.raises(TranspileError, match="read from its source in training mode only"):
        progs.run(g.param_arrays("numpy"), False, (_x(4, 3),), {})


def test_unknown_dimensions_fit_a_traced_shape() -> None:
    from ivy.transpile._programs import _matches, graph_signature

    traced = graph_signature(_graph())
    assert traced == ("call", ("tuple", (("a", (4, 3), "float32"),)), ("dict", ()))
    unknown_batch = ("call", ("tuple", (("a", (None, 3), "float32"),)), ("dict", ()))
    assert _matches(unknown_batch, traced)
    assert not _matches(("call", ("tuple", (("a", (None, 4), "float32"),)), ("dict", ())), traced)
    assert not _matches(("call", ("tuple", (("a", (None, 3), "float64"),)), ("dict", ())), traced)


# --------------------------------------------------------------------------- dtype narrowing


def test_dtypes_a_target_lacks_are_narrowed() -> None:
    from ivy.transpile._dtypes import narrow_dtypes

    def f(x: Any, i: Any) -> Any:
        return ivy.add(ivy.astype(x, "float64"), ivy.astype(ivy.add(i, 1), "float64")), ivy.zeros(2, dtype="int64")

    with ivy.use_backend("numpy"):
        g = ivy.trace_graph(f, args=(np.ones(2, "float32"), np.arange(2, dtype="int64")), passes=())
    narrowed = narrow_dtypes(g, {"bool", "int32", "float32"})
    dtypes = {v.dtype for n in narrowed.nodes for v in n.output_values()} | {v.dtype for v in narrowed.inputs}
    assert dtypes <= {"int32", "float32"}, dtypes
    out, zeros = narrowed(np.ones(2, "float32"), np.arange(2, dtype="int32"))
    assert out.dtype == np.float32 and zeros.dtype == np.int32
    np.testing.assert_allclose(out, [2.0, 3.0])
    assert {v.dtype for n in g.nodes for v in n.output_values()} >= {"float64"}  # the original is unchanged
    assert narrow_dtypes(g, {"bool", "int32", "int64", "float32", "float64"}) is g


def test_no_warnings_on_the_plain_path() -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        out = ivy.transpile(lambda x: ivy.exp(x), source="ivy", to="numpy", args=(_x(2),))
    np.testing.assert_allclose(out(_x(2)), np.exp(_x(2)), rtol=1e-6)
