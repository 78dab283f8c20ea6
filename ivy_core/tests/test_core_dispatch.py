"""Dispatch: which backend runs an ``ivy.<op>`` call, and the public functions themselves.

In-process tests use the NumPy backend and the third-party fixture backend ``toy`` (pure-Python
``ToyArray``); the default rule (``IVY_BACKEND``, preference order) is tested in fresh interpreters.
"""

from __future__ import annotations

import asyncio
import inspect
import sys
import threading
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from ivy_core_tests_support import make_fake_dist, run_json

import ivy
from ivy import _context, _dispatch, _registry
from ivy._spec import SPECS
from ivy.errors import BackendNotInstalledError, IvyError, MixedBackendsError

pytestmark = pytest.mark.usefixtures("toy")


def T(values: list[float], shape: tuple[int, ...] | None = None) -> Any:
    from ivy_toy import ToyArray

    return ToyArray(values, (len(values),) if shape is None else shape)


def is_toy(x: Any) -> bool:
    return type(x).__name__ == "ToyArray" and type(x).__module__.startswith("ivy_toy")


# --------------------------------------------------------------------------- inference


def test_inference_from_numpy_arrays() -> None:
    r = ivy.add(np.array([1.0, 2.0]), np.array([3.0, 4.0]))
    assert isinstance(r, np.ndarray)
    np.testing.assert_array_equal(r, [4.0, 6.0])


def test_inference_from_toy_arrays() -> None:
    r = ivy.add(T([1.0, 2.0]), T([3.0, 4.0]))
    assert is_toy(r) and r.data == [4.0, 6.0]
    r = ivy.multiply(T([1.0, 2.0]), T([3.0, 4.0]))
    assert is_toy(r) and r.data == [3.0, 8.0]


@pytest.mark.parametrize("scalar", [2, 2.0, True])
def test_python_scalars_never_decide(scalar: Any) -> None:
    assert is_toy(ivy.add(scalar, T([1.0])))
    assert is_toy(ivy.add(T([1.0]), scalar))
    assert isinstance(ivy.add(scalar, np.ones(1)), np.ndarray)
    with ivy.use_backend("toy"):
        # The array decides, not the context...
        assert isinstance(ivy.add(np.ones(1), scalar), np.ndarray)
        # ...and with scalars only, the context decides.
        assert is_toy(ivy.add(scalar, scalar))
    with ivy.use_backend("numpy"):
        assert is_toy(ivy.multiply(scalar, T([1.0])))
        r = ivy.add(scalar, scalar)
        assert type(r).__module__ == "numpy"


def test_numpy_scalars_are_numpy_arrays() -> None:
    with ivy.use_backend("toy"):
        assert type(ivy.add(np.float64(1.0), 1.0)).__module__ == "numpy"


def test_arrays_in_sequences_decide() -> None:
    with pytest.raises(NotImplementedError, match="'toy' backend does not implement ivy.concat"):
        ivy.concat([T([1.0]), T([2.0])])
    with pytest.raises(NotImplementedError, match="'toy'"):
        ivy.broadcast_arrays(T([1.0]), T([2.0]))
    with ivy.use_backend("toy"):
        r = ivy.concat([np.ones(1), np.zeros(2)])
    assert isinstance(r, np.ndarray) and r.tolist() == [1.0, 0.0, 0.0]


def test_fast_path_tables_are_filled_per_type() -> None:
    from ivy_toy import ToyArray

    ivy.add(np.ones(1), np.ones(1))
    ivy.add(T([1.0]), T([1.0]))
    table = _dispatch.TABLES["add"]
    assert table[np.ndarray] is _registry.get_backend("numpy").ops["add"]
    assert table[ToyArray] is _registry.get_backend("toy").ops["add"]


# --------------------------------------------------------------------------- mixed frameworks

MIXED_CALLS = {
    "add-toy-first": lambda t, n: ivy.add(t, n),
    "add-numpy-first": lambda t, n: ivy.add(n, t),
    "where-scalar-first": lambda t, n: ivy.where(np.array([True]), 1.0, t),
    "where-last": lambda t, n: ivy.where(np.array([True]), n, t),
    "concat-seq": lambda t, n: ivy.concat([n, t]),
    "concat-seq-toy-first": lambda t, n: ivy.concat((t, n)),
    "meshgrid-varargs": lambda t, n: ivy.meshgrid(t, n),
    "vecdot": lambda t, n: ivy.vecdot(t, n),
}


@pytest.mark.parametrize("call", sorted(MIXED_CALLS))
def test_mixed_frameworks_raise_naming_both(call: str) -> None:
    t, n = T([1.0]), np.ones(1)
    # Warm the fast paths with both types first: the check must not depend on a table miss.
    ivy.add(t, t), ivy.add(n, n), ivy.where(np.array([True]), n, n), ivy.vecdot(t, t)
    with pytest.raises(MixedBackendsError) as info:
        MIXED_CALLS[call](t, n)
    msg = str(info.value)
    assert "toy" in msg and "numpy" in msg, msg
    assert "ivy_toy._array.ToyArray" in msg and "numpy.ndarray" in msg, msg
    assert isinstance(info.value, TypeError) and isinstance(info.value, IvyError)


def test_namespace_of_mixed_arrays_raises() -> None:
    with pytest.raises(MixedBackendsError, match="numpy.*toy|toy.*numpy"):
        ivy.namespace(np.ones(1), T([1.0]))


# --------------------------------------------------------------------------- explicit backend=


def test_explicit_backend_by_name_and_namespace() -> None:
    for b in ("toy", ivy.toy, _registry.get_backend("toy")):
        r = ivy.add(1.0, 2.0, backend=b)
        assert is_toy(r) and r.data == [3.0]
        assert is_toy(ivy.zeros(2, backend=b))
    for b in ("numpy", ivy.numpy, np):  # np: the paper's form, a framework module
        r = ivy.add(1.0, 2.0, backend=b)
        assert type(r).__module__ == "numpy" and r == 3.0
        assert isinstance(ivy.zeros(2, backend=b), np.ndarray)


def test_explicit_backend_beats_context() -> None:
    with ivy.use_backend("numpy"):
        assert is_toy(ivy.zeros(2, backend="toy"))
        assert is_toy(ivy.asarray([1.0], backend="toy"))


def test_explicit_backend_invalid() -> None:
    with pytest.raises(IvyError, match="cannot use 42 as a backend"):
        ivy.add(1.0, 2.0, backend=42)
    with pytest.raises(IvyError, match="cannot use"):
        ivy.set_backend(types.ModuleType("notaframework"))
    with pytest.raises(BackendNotInstalledError, match="'nosuchbackend'"):
        ivy.add(1.0, 2.0, backend="nosuchbackend")


# --------------------------------------------------------------------------- the backend stack


def test_set_and_unset_backend_as_a_stack() -> None:
    default = _registry.default_backend().namespace
    assert ivy.current_backend() is default
    assert ivy.set_backend("toy") is ivy.toy
    assert ivy.current_backend() is ivy.toy
    assert is_toy(ivy.zeros(2))
    assert ivy.set_backend(ivy.numpy) is ivy.numpy
    assert ivy.current_backend() is ivy.numpy
    assert isinstance(ivy.zeros(2), np.ndarray)
    assert ivy.set_backend("toy") is ivy.toy
    assert ivy.unset_backend() is ivy.numpy
    assert ivy.unset_backend() is ivy.toy
    assert ivy.current_backend() is ivy.toy
    assert ivy.unset_backend() is None
    assert ivy.current_backend() is default
    # Popping an empty stack does nothing.
    assert ivy.unset_backend() is None
    assert ivy.unset_backend() is None
    assert ivy.current_backend() is default
    assert not _context.is_set()


def test_use_backend_context_manager() -> None:
    with ivy.use_backend("toy") as xp:
        assert xp is ivy.toy and ivy.current_backend() is ivy.toy
        with ivy.use_backend(ivy.numpy) as xp2:
            assert xp2 is ivy.numpy and ivy.current_backend() is ivy.numpy
        assert ivy.current_backend() is ivy.toy
    assert not _context.is_set()
    with pytest.raises(ZeroDivisionError):
        with ivy.use_backend("toy"):
            raise ZeroDivisionError
    assert not _context.is_set()


def test_namespace_use_attribute() -> None:
    with ivy.numpy.use as xp:
        assert xp is ivy.numpy and ivy.current_backend() is ivy.numpy
        with ivy.toy.use:
            assert ivy.current_backend() is ivy.toy
            assert is_toy(ivy.zeros(1))
            with ivy.toy.use:  # re-entrant
                assert ivy.current_backend() is ivy.toy
            assert ivy.current_backend() is ivy.toy
        assert ivy.current_backend() is ivy.numpy
    assert not _context.is_set()
    assert "toy" in repr(ivy.toy.use)


def test_namespace_use_restores_the_stack() -> None:
    with ivy.numpy.use:
        ivy.set_backend("toy")  # never unset
    assert not _context.is_set()


def test_current_backend_without_setting_is_the_default() -> None:
    assert ivy.current_backend() is _registry.default_backend().namespace
    assert ivy.get_framework() is ivy.current_backend()


def test_backend_namespace_identity() -> None:
    assert ivy.backend_namespace("toy") is ivy.toy
    assert ivy.backend_namespace(ivy.toy) is ivy.toy
    assert ivy.backend_namespace("numpy") is ivy.numpy is sys.modules["ivy.numpy"]
    assert "toy" in dir(ivy)


# --------------------------------------------------------------------------- threads and tasks


def test_threads_have_independent_backends() -> None:
    barrier = threading.Barrier(2, timeout=30)
    seen: dict[str, Any] = {}
    errors: list[BaseException] = []

    def worker(name: str) -> None:
        try:
            assert not _context.is_set()  # a new thread starts with no backend set
            ivy.set_backend(name)
            barrier.wait()  # both threads have set their backend now
            for _ in range(50):
                assert ivy.current_backend().name == name
                r = ivy.add(1.0, 2.0)
            seen[name] = (ivy.current_backend().name, type(r).__module__.partition(".")[0])
            barrier.wait()
            ivy.unset_backend()
        except BaseException as e:  # reported below
            errors.append(e)
            barrier.abort()

    threads = [threading.Thread(target=worker, args=(n,)) for n in ("numpy", "toy")]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    assert seen == {"numpy": ("numpy", "numpy"), "toy": ("toy", "ivy_toy")}
    assert not _context.is_set()  # nothing leaked into this thread


def test_asyncio_tasks_have_independent_backends() -> None:
    async def task(name: str, started: asyncio.Event, other: asyncio.Event) -> tuple[str, str]:
        with ivy.use_backend(name):
            started.set()
            await other.wait()  # the other task has entered its own block
            for _ in range(5):
                await asyncio.sleep(0)
                assert ivy.current_backend().name == name
            r = ivy.add(1.0, 2.0)
        return ivy.current_backend().name, type(r).__module__.partition(".")[0]

    async def main() -> list[tuple[str, str]]:
        a, b = asyncio.Event(), asyncio.Event()
        ivy.set_backend("numpy")  # the main task's choice: copied into the tasks, not changed by them
        res = await asyncio.gather(task("toy", a, b), task("numpy", b, a))
        assert ivy.current_backend().name == "numpy"
        return res

    res = asyncio.run(main())
    assert res == [("numpy", "ivy_toy"), ("numpy", "numpy")]
    assert not _context.is_set()


# --------------------------------------------------------------------------- default rule


def test_ivy_backend_env_selects_default(toy_site: Path) -> None:
    out = run_json(
        """
        import sys, ivy
        z = ivy.zeros(3)
        emit({"current": ivy.current_backend().name, "type": type(z).__name__,
              "numpy_imported": "numpy" in sys.modules})
        """,
        [toy_site],
        env={"IVY_BACKEND": "toy"},
    )
    assert out == {"current": "toy", "type": "ToyArray", "numpy_imported": False}


def test_ivy_backend_env_does_not_override_arrays(toy_site: Path) -> None:
    out = run_json(
        """
        import ivy, numpy as np
        emit([type(ivy.add(np.ones(1), np.ones(1))).__module__, type(ivy.add(1.0, 1.0)).__name__])
        """,
        [toy_site],
        env={"IVY_BACKEND": "toy"},
    )
    assert out == ["numpy", "ToyArray"]


def test_ivy_backend_env_unknown_name(toy_site: Path) -> None:
    out = run_json(
        """
        import ivy
        try:
            ivy.zeros(2)
        except ivy.errors.BackendNotInstalledError as e:
            emit(str(e))
        """,
        [toy_site],
        env={"IVY_BACKEND": "nosuchbackend"},
    )
    assert "'nosuchbackend'" in out and "toy" in out


def test_default_without_env_is_first_preferred(toy_site: Path) -> None:
    out = run_json(
        """
        import ivy
        emit([ivy.backends(), ivy.current_backend().name])
        """,
        [toy_site],
    )
    names, current = out
    assert current == names[0] == "numpy"  # numpy is installed and first in preference order


def test_default_falls_back_in_preference_order(tmp_path: Path, toy_site: Path) -> None:
    # Only a broken backend "aaa" and "toy" visible: the default skips "aaa" with a warning.
    make_fake_dist(
        tmp_path,
        "ivy-aaa",
        {"aaa": "aaa_plugin"},
        {
            "aaa_plugin": """
        from ivy.plugin import BackendSpec, hookimpl
        @hookimpl
        def ivy_register_backends(register):
            register(BackendSpec(name="aaa", array_modules=("aaa_plugin",), load="aaa_plugin:load"))
        def load():
            raise RuntimeError("aaa cannot start")
        """
        },
    )
    out = run_json(
        """
        import warnings, ivy
        from ivy import _registry
        _registry._eps = {k: v for k, v in _registry._entry_points().items() if k in ("aaa", "toy")}
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            name = ivy.current_backend().name
        emit([ivy.backends(), name, [str(x.message) for x in w]])
        """,
        [tmp_path, toy_site],
    )
    names, current, warned = out
    assert names == ["aaa", "toy"]
    assert current == "toy"
    assert len(warned) == 1 and "'aaa'" in warned[0] and "aaa cannot start" in warned[0]


def test_refresh_finds_a_plugin_installed_while_running(toy_site: Path) -> None:
    out = run_json(
        f"SITE = {str(toy_site)!r}\n"
        + """
import sys, ivy
from ivy import _registry
before = ivy.backends()
sys.path.insert(0, SITE)
_registry.refresh()
from ivy_toy import ToyArray
emit([before, ivy.backends(), type(ivy.add(ToyArray([1.0], (1,)), 1.0)).__name__])
"""
    )
    before, after, result = out
    assert "toy" not in before and "toy" in after
    assert result == "ToyArray"


def test_refresh_forgets_unowned_modules(toy_site: Path) -> None:
    out = run_json(
        f"SITE = {str(toy_site)!r}\n"
        + """
import sys, ivy
from ivy import _registry
Early = type("ToyArray", (), {"__module__": "ivy_toy._array"})
ivy.is_native_array(Early())  # looked up while no plugin owns ivy_toy
sys.path.insert(0, SITE)
_registry.refresh()
from ivy_toy import ToyArray
x = ToyArray([1.0], (1,))
try:
    emit([ivy.is_native_array(x), type(ivy.add(x, x)).__name__])
except Exception as e:
    emit([ivy.is_native_array(x), type(e).__name__])
"""
    )
    assert out == [True, "ToyArray"]


def test_backends_order(monkeypatch: pytest.MonkeyPatch) -> None:
    fake = dict.fromkeys(["zeta", "paddle", "alpha", "jax", "numpy", "tensorflow", "torch"])
    monkeypatch.setattr(_registry, "_eps", fake)
    assert ivy.backends() == ["numpy", "torch", "jax", "tensorflow", "paddle", "alpha", "zeta"]
    assert _registry.PREFERENCE == ("numpy", "torch", "jax", "tensorflow", "paddle")


def test_no_backend_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(_registry, "_eps", {})
    monkeypatch.setattr(_registry, "_default", None)
    monkeypatch.delenv("IVY_BACKEND", raising=False)
    with pytest.raises(BackendNotInstalledError, match="pip install ivy-numpy"):
        _registry.default_backend()


# --------------------------------------------------------------------------- not installed


@pytest.mark.parametrize("name", ["torch", "paddle"])
def test_backend_not_installed_known_framework(name: str) -> None:
    out = run_json(
        f"NAME = {name!r}\n"
        + """
import sys, ivy
from ivy import _registry
# As if the plugin were not installed, whatever is installed here.
_registry._eps = {k: v for k, v in _registry._entry_points().items() if k != NAME}
try:
    ivy.set_backend(NAME)
except ivy.errors.BackendNotInstalledError as e:
    emit([str(e), isinstance(e, ImportError), ivy._context.is_set(), NAME in sys.modules])
"""
    )
    msg, is_import_error, is_set, imported = out
    assert f"pip install ivy-{name}" in msg and f"'{name}'" in msg and "numpy" in msg, msg
    assert is_import_error is True and is_set is False and imported is False


def test_backend_not_installed_messages() -> None:
    for name in ("torch", "jax", "tensorflow", "paddle", "numpy", "mxnet"):
        assert f"pip install ivy-{name}" in str(_registry._not_installed(name))
    msg = str(_registry._not_installed("nosuchbackend"))
    assert "'nosuchbackend'" in msg and "install the Ivy plugin distribution" in msg
    with pytest.raises(BackendNotInstalledError, match="installed backends: .*numpy"):
        ivy.backend_namespace("nosuchbackend")
    with pytest.raises(AttributeError):
        ivy.nosuchbackend  # noqa: B018


FOREIGN = """
import ivy
from ivy import _registry
# Make sure no plugin for the framework is visible, whatever is installed.
_registry._eps = {k: v for k, v in _registry._entry_points().items() if k != FW}
Fake = type("Tensor", (), {"__module__": MOD})
"""


@pytest.mark.parametrize(("mod", "fw"), [("tensorflow.fake", "tensorflow"), ("jaxlib.xla", "jax"), ("torch", "torch")])
def test_foreign_array_without_plugin(mod: str, fw: str) -> None:
    out = run_json(
        f"FW, MOD = {fw!r}, {mod!r}\n"
        + FOREIGN
        + """
import sys
try:
    ivy.add(Fake(), Fake())
except ivy.errors.BackendNotInstalledError as e:
    emit([str(e), FW in sys.modules])
"""
    )
    msg, imported = out
    assert f"got a {fw} object ({mod}.Tensor)" in msg and f"pip install ivy-{fw}" in msg, msg
    assert imported is False


def test_foreign_type_message_through_backend_for_type() -> None:
    fake = type("Tensor", (), {"__module__": "tensorflow.python.framework.ops"})
    # Only the message path: no plugin claims a module of that name in this fake registry.
    saved = dict(_registry._module_owners)
    _registry._module_owners["tensorflow"] = None
    try:
        with pytest.raises(BackendNotInstalledError, match="pip install ivy-tensorflow"):
            _registry.backend_for_type(fake)
    finally:
        _registry._module_owners.clear()
        _registry._module_owners.update(saved)
    plain = type("Thing", (), {"__module__": "somelib.core"})
    assert _registry.backend_for_type(plain) is None
    assert _registry.backend_for_type(list) is None


def test_is_native_array_of_foreign_framework_is_false() -> None:
    out = run_json(
        "FW, MOD = 'tensorflow', 'tensorflow.fake'\n"
        + FOREIGN
        + """
try:
    emit(ivy.is_native_array(Fake()))
except Exception as e:
    emit(type(e).__name__)
"""
    )
    assert out is False


# --------------------------------------------------------------------------- public functions

_BACKEND = inspect.Parameter("backend", inspect.Parameter.KEYWORD_ONLY, default=None)


def _public(name: str) -> Any:
    ns, _, short = name.rpartition(".")
    return getattr(getattr(ivy, ns) if ns else ivy, short)


_ARRAY_API_CATEGORIES = (
    "elementwise",
    "creation",
    "data_type",
    "indexing",
    "linear_algebra",
    "manipulation",
    "searching",
    "set",
    "sorting",
    "statistical",
    "utility",
    "linalg",
    "fft",
    "conversion",
)


def test_there_are_173_array_api_and_conversion_specs() -> None:
    # 133 main-namespace functions + 23 linalg + 14 fft (Array API 2024.12) + 3 conversion helpers
    assert sum(s.category in _ARRAY_API_CATEGORIES for s in SPECS.values()) == 173


@pytest.mark.parametrize("name", list(SPECS))
def test_public_function_carries_the_spec(name: str) -> None:
    spec = SPECS[name]
    fn = _public(name)
    assert fn.__ivy_spec__ is spec
    assert fn.__doc__ == spec.doc and fn.__doc__.strip()
    assert fn.__name__ == fn.__qualname__ == spec.short_name
    assert fn.__module__ == ("ivy." + name.rpartition(".")[0] if "." in name else "ivy")
    sig = inspect.signature(fn)
    *params, last = sig.parameters.values()
    assert params == list(spec.signature.parameters.values())
    assert (last.name, last.kind, last.default) == ("backend", _BACKEND.kind, None)
    assert sig.return_annotation == spec.signature.return_annotation
    # The generated code really has that signature (not only the __signature__ it advertises).
    py = getattr(fn, "__ivy_python__", fn)  # the C dispatcher wraps the generated Python function
    raw = types.FunctionType(py.__code__, py.__globals__, py.__name__, py.__defaults__, py.__closure__)
    raw.__kwdefaults__ = py.__kwdefaults__
    real = [(p.name, p.kind, p.default) for p in inspect.signature(raw).parameters.values()]
    want = [(p.name, p.kind, p.default) for p in (*params, _BACKEND)]
    assert real == want


def test_extension_namespaces() -> None:
    import ivy.fft
    import ivy.linalg
    from ivy.linalg import inv  # noqa: F401

    for ext in ("linalg", "fft"):
        mod = getattr(ivy, ext)
        assert sys.modules[f"ivy.{ext}"] is mod
        want = sorted(n.partition(".")[2] for n in SPECS if n.startswith(ext + "."))
        assert mod.__all__ == want and want
        for short in want:
            assert getattr(mod, short).__ivy_spec__ is SPECS[f"{ext}.{short}"]
    assert {"inv", "det", "svd", "cholesky", "solve", "vector_norm"} <= set(ivy.linalg.__all__)
    assert {"fft", "ifft", "rfft", "fftfreq", "fftshift"} <= set(ivy.fft.__all__)
    # Extension ops are not in the main namespace (except the standard's own main-namespace names).
    assert not hasattr(ivy, "inv") and not hasattr(ivy, "fftshift")
    assert callable(ivy.matmul) and callable(ivy.linalg.matmul)


def test_extension_ops_dispatch() -> None:
    r = ivy.linalg.inv(np.array([[2.0, 0.0], [0.0, 4.0]]))
    np.testing.assert_allclose(r, [[0.5, 0.0], [0.0, 0.25]])
    r = ivy.fft.fft(np.array([1.0, 0.0, 0.0, 0.0]))
    np.testing.assert_allclose(r, np.ones(4))
    with pytest.raises(NotImplementedError, match="'toy' backend does not implement ivy.linalg.inv"):
        ivy.linalg.inv(T([1.0, 0.0, 0.0, 1.0], (2, 2)))
    with pytest.raises(AttributeError, match="'toy' backend does not implement ivy.linalg.inv"):
        ivy.toy.linalg.inv  # noqa: B018


# --------------------------------------------------------------------------- namespace, is_native_array


def test_namespace_of_arrays() -> None:
    assert ivy.namespace(np.ones(1)) is ivy.numpy
    assert ivy.namespace(np.float32(1)) is ivy.numpy
    assert ivy.namespace(T([1.0])) is ivy.toy
    assert ivy.namespace(1.0, T([1.0]), None) is ivy.toy
    assert ivy.namespace() is ivy.current_backend()
    with ivy.use_backend("toy"):
        assert ivy.namespace() is ivy.toy
        assert ivy.namespace(2.0) is ivy.toy
        assert ivy.namespace(np.ones(1)) is ivy.numpy
    assert ivy.get_framework(T([1.0])) is ivy.toy


def test_is_native_array() -> None:
    assert ivy.is_native_array(np.ones(2))
    assert ivy.is_native_array(np.float64(1.0))
    assert ivy.is_native_array(T([1.0]))
    for x in ([1.0], (1.0,), 1.0, 1, True, None, "float32", object(), np.dtype("float32")):
        assert not ivy.is_native_array(x), x
    assert ivy.numpy.is_native_array(np.ones(1)) and not ivy.numpy.is_native_array(T([1.0]))
    assert ivy.toy.is_native_array(T([1.0])) and not ivy.toy.is_native_array(np.ones(1))


def test_subclass_of_native_array_is_native() -> None:
    class Sub(np.ndarray):
        pass

    s = np.ones(2).view(Sub)
    assert ivy.is_native_array(s)
    with ivy.use_backend("toy"):
        assert ivy.namespace(s) is ivy.numpy


def test_namespace_info_from_ivy() -> None:
    with ivy.use_backend("toy"):
        info = ivy.__array_namespace_info__()
        assert info.dtypes() == {"float64": ivy.float64}
        assert type(info.dtypes()["float64"]) is ivy.DType
        assert info.default_dtypes() == {"real floating": "float64"}
        assert info.devices() == ["cpu"] and info.default_device() == "cpu"
    with ivy.use_backend("numpy"):
        info = ivy.__array_namespace_info__()
        assert set(info.dtypes(kind="real floating")) == {"float32", "float64"}
        assert info.dtypes(kind="bool") == {"bool": ivy.bool}
        assert set(info.dtypes(kind=("bool", "complex floating"))) == {"bool", "complex64", "complex128"}
        with pytest.raises(ValueError, match="unknown dtype kind"):
            info.dtypes(kind="nosuchkind")


# --------------------------------------------------------------------------- dtypes


@pytest.mark.parametrize("dtype", ["float32", ivy.float32, np.float32, np.dtype("float32")])
def test_dtype_names_accepted(dtype: Any) -> None:
    assert ivy.zeros(2, dtype=dtype, backend="numpy").dtype == np.float32
    assert ivy.asarray([1, 2], dtype=dtype, backend="numpy").dtype == np.float32


def test_toy_refuses_other_dtypes() -> None:
    assert ivy.zeros(2, dtype="float64", backend="toy").dtype == ivy.float64
    with pytest.raises(ivy.errors.UnsupportedDTypeError, match="float64 only"):
        ivy.zeros(2, dtype="float32", backend="toy")


def test_dtype_equality() -> None:
    assert isinstance(ivy.float32, ivy.DType) and isinstance(ivy.float32, str)
    assert ivy.float32 == np.float32 and ivy.float32 == np.dtype("float32")
    assert np.dtype("float32") == ivy.float32
    assert ivy.float32 == "float32" and "float32" == ivy.float32
    assert ivy.float32 != "float64" and ivy.float32 != np.float64 and ivy.float32 != np.dtype("int32")
    assert not (ivy.float32 != np.float32)
    assert ivy.float64 == "float" and ivy.int64 == "int" and ivy.bool == "bool_" and ivy.complex128 == "complex"
    assert ivy.bool == np.bool_ and ivy.bool == np.dtype(bool) and ivy.int16 == np.int16
    assert np.ones(1, dtype=np.int8).dtype == ivy.int8
    assert ivy.float32 != 3 and ivy.float32 != object() and ivy.float32 != None  # noqa: E711
    assert repr(ivy.float32) == "ivy.float32" and str(ivy.float32) == "float32"
    assert hash(ivy.float32) == hash("float32") and {ivy.float32: 1}["float32"] == 1
    assert ivy.DType("uint8") == ivy.uint8
    for n in (
        "bool",
        "int8",
        "int16",
        "int32",
        "int64",
        "uint8",
        "uint16",
        "uint32",
        "uint64",
        "float32",
        "float64",
        "complex64",
        "complex128",
    ):
        assert getattr(ivy, n) == n == np.dtype(n)


class _TorchLikeDType:
    def __str__(self) -> str:
        return "torch.float32"


class _PaddleLikeDType:
    def __str__(self) -> str:
        return "paddle.FLOAT32"


@pytest.mark.parametrize(
    ("dtype", "name"),
    [
        (np.dtype("int16"), "int16"),
        (np.float32, "float32"),
        (np.bool_, "bool"),
        (np.dtype(bool), "bool"),
        (np.complex64, "complex64"),
        ("float32", "float32"),
        (ivy.uint64, "uint64"),
        ("bool_", "bool"),
        ("float", "float64"),
        ("int", "int64"),
        (bool, "bool"),
        (float, "float64"),
        (int, "int64"),
        ("float16", "float16"),
        ("bfloat16", "bfloat16"),
        (_TorchLikeDType(), "float32"),
        (_PaddleLikeDType(), "float32"),
    ],
)
def test_dtype_name(dtype: Any, name: str) -> None:
    assert ivy.dtype_name(dtype) == name


@pytest.mark.parametrize("dtype", ["float8", "datetime64", np.dtype("datetime64[s]"), object(), 3])
def test_dtype_name_rejects(dtype: Any) -> None:
    with pytest.raises(TypeError, match="not a dtype of the Array API standard"):
        ivy.dtype_name(dtype)


# --------------------------------------------------------------------------- the paper's aliases

X = np.arange(1.0, 7.0).reshape(2, 3)


def test_paper_set_unset_get_framework() -> None:
    assert ivy.set_framework("toy") is ivy.toy
    assert ivy.get_framework() is ivy.toy
    assert ivy.set_framework(np) is ivy.numpy  # the framework module itself
    assert ivy.get_framework() is ivy.numpy
    assert ivy.get_framework(T([1.0])) is ivy.toy
    assert ivy.unset_framework() is ivy.toy
    assert ivy.unset_framework() is None
    assert ivy.unset_framework() is None


def test_paper_array() -> None:
    a = ivy.array([1, 2], "float32", backend="numpy")
    assert isinstance(a, np.ndarray) and a.dtype == np.float32 and a.tolist() == [1.0, 2.0]
    ivy.set_framework(np)
    b = ivy.array([[1, 2]], ivy.int16)
    assert b.dtype == np.int16 and b.shape == (1, 2)
    ivy.unset_framework()
    t = ivy.array([1.0, 2.0], backend="toy")
    assert is_toy(t) and t.data == [1.0, 2.0]


@pytest.mark.parametrize(
    ("alias", "ref"),
    [
        ("reduce_sum", np.sum),
        ("reduce_mean", np.mean),
        ("reduce_min", np.min),
        ("reduce_max", np.max),
        ("reduce_prod", np.prod),
    ],
)
@pytest.mark.parametrize("axis", [None, 0, 1, -1, [0], (1,), [0, 1], (0, 1)])
def test_paper_reductions_positional_axis(alias: str, ref: Any, axis: Any) -> None:
    f = getattr(ivy, alias)
    want_axis = tuple(axis) if isinstance(axis, list) else axis
    np.testing.assert_allclose(f(X, axis), ref(X, axis=want_axis))
    got = f(X, axis, True)  # keepdims positional too
    np.testing.assert_allclose(got, ref(X, axis=want_axis, keepdims=True))
    assert np.shape(got) == np.shape(ref(X, axis=want_axis, keepdims=True))


def test_paper_reduce_sum_on_toy() -> None:
    t = T([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], (2, 3))
    assert ivy.reduce_sum(t, [0]).data == [5.0, 7.0, 9.0]
    assert ivy.reduce_sum(t, (0, 1)).data == [21.0]
    assert ivy.reduce_sum(t, 1, True).shape == (2, 1)


def test_paper_concatenate_default_last_axis() -> None:
    a, b = np.ones((2, 2)), np.zeros((2, 3))
    r = ivy.concatenate([a, b])
    assert r.shape == (2, 5)
    np.testing.assert_array_equal(r, np.concatenate([a, b], axis=-1))
    r = ivy.concatenate((np.ones((1, 2)), np.zeros((2, 2))), 0)
    np.testing.assert_array_equal(r, [[1.0, 1.0], [0.0, 0.0], [0.0, 0.0]])
    # A generator of arrays works too: concatenate takes any sequence.
    r = ivy.concatenate(x for x in (np.ones(1), np.zeros(1)))
    assert r.tolist() == [1.0, 0.0]
