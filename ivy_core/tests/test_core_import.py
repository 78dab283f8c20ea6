"""What importing and using Ivy imports, checked in fresh interpreters through ``sys.modules``."""

from __future__ import annotations

import importlib.util
from importlib.metadata import entry_points
from pathlib import Path

import pytest
from ivy_core_tests_support import make_fake_dist, run_json, run_python

FRAMEWORKS = ("numpy", "torch", "jax", "jaxlib", "tensorflow", "paddle")
PLUGINS = ("ivy_numpy", "ivy_torch", "ivy_jax", "ivy_tensorflow", "ivy_paddle", "ivy_toy")

_LOADED = f"""
import sys
FRAMEWORKS, PLUGINS = {FRAMEWORKS!r}, {PLUGINS!r}
def loaded(names):
    return sorted(n for n in names if n in sys.modules)
"""


def test_import_ivy_imports_no_framework() -> None:
    out = run_json(
        _LOADED
        + """
import ivy
ivy.float32, ivy.add, ivy.linalg.inv, ivy.fft.fft, ivy.e, ivy.__array_api_version__
emit({"frameworks": loaded(FRAMEWORKS), "plugins": loaded(PLUGINS),
      "metadata": "importlib.metadata" in sys.modules, "pluggy": "pluggy" in sys.modules})
"""
    )
    assert out == {"frameworks": [], "plugins": [], "metadata": False, "pluggy": False}


#: Modules ``import ivy`` leaves to the first use that needs them: the standard library's costly
#: ones and core's own machinery (specs, registry, dispatch, the functional and stateful API).
DEFERRED = (
    "typing",
    "inspect",
    "dataclasses",
    "importlib.metadata",
    "json",
    "hashlib",
    "re",
    "ast",
    "threading",
    "contextvars",
    "collections",
    "pluggy",
    "ivy._spec",
    "ivy._registry",
    "ivy._dispatch",
    "ivy._cdispatch",
    "ivy._context",
    "ivy._api",
    "ivy._functional",
    "ivy._stateful",
    "ivy.nest",
    "ivy.linalg",
    "ivy.container",
    "ivy.graph",
    "ivy.transpile",
    "ivy.plugin",
)


def test_import_ivy_loads_only_names_constants_and_errors() -> None:
    """What a bare ``import ivy`` adds to ``sys.modules`` (whatever the interpreter's start-up
    loaded already does not count): the dtype names, the constants and the exceptions, which it
    exports, and nothing else of core; no framework, plugin or deferred module."""
    out = run_json(
        _LOADED
        + f"""
DEFERRED = {DEFERRED!r}
before = set(sys.modules)
import ivy
ivy.float32, ivy.e, ivy.pi, ivy.__array_api_version__, ivy.__version__, ivy.IvyError, ivy.DType
new = set(sys.modules) - before
emit({{"ivy": sorted(n for n in new if n.partition(".")[0] == "ivy"),
      "deferred": sorted(n for n in DEFERRED if n in new),
      "frameworks": loaded(FRAMEWORKS), "plugins": loaded(PLUGINS)}})
"""
    )
    assert out == {
        "ivy": ["ivy", "ivy._constants", "ivy._dtypes", "ivy._stateful_names", "ivy.errors"],
        "deferred": [],
        "frameworks": [],
        "plugins": [],
    }


def test_lazy_names_load_on_first_access() -> None:
    """Each public name ``import ivy`` defers is there on first access: the same object as in its
    module; ``import ivy.linalg`` works first thing; private modules are reachable as before."""
    out = run_json(
        """
import sys
import ivy.linalg
from ivy.fft import fft
import ivy
from ivy._stateful import Linear
from ivy._functional.compile import compile
from ivy import nest
emit({"linalg": sys.modules["ivy.linalg"] is ivy.linalg and "inv" in ivy.linalg.__all__,
      "fft": fft is ivy.fft.fft, "Linear": ivy.Linear is Linear, "compile": ivy.compile is compile,
      "nest": ivy.nest is nest, "registry": ivy._registry is sys.modules["ivy._registry"],
      "missing": [hasattr(ivy, n) for n in ("no_such_name", "_no_such_module", "__no_such__")]})
"""
    )
    assert out == {
        "linalg": True,
        "fft": True,
        "Linear": True,
        "compile": True,
        "nest": True,
        "registry": True,
        "missing": [False, False, False],
    }


def test_backends_imports_no_framework(toy_site: Path) -> None:
    out = run_json(
        _LOADED
        + """
import ivy
names = ivy.backends()
dir(ivy)
emit({"names": names, "frameworks": loaded(FRAMEWORKS), "plugins": loaded(PLUGINS)})
""",
        [toy_site],
    )
    assert "numpy" in out["names"] and "toy" in out["names"]
    assert out["frameworks"] == [] and out["plugins"] == []


def test_numpy_backend_imports_numpy_only() -> None:
    out = run_json(
        _LOADED
        + """
import ivy
r = ivy.add(1.0, 2.0, backend="numpy")
ivy.numpy.asarray([1.0])
emit({"frameworks": loaded(FRAMEWORKS), "plugins": loaded(PLUGINS), "r": float(r)})
"""
    )
    assert out == {"frameworks": ["numpy"], "plugins": ["ivy_numpy"], "r": 3.0}


def test_toy_backend_imports_no_framework(toy_site: Path) -> None:
    out = run_json(
        _LOADED
        + """
import ivy
x = ivy.toy.zeros(2)
ivy.add(x, x)
with ivy.use_backend("toy"):
    ivy.zeros(3)
emit({"frameworks": loaded(FRAMEWORKS), "plugins": loaded(PLUGINS)})
""",
        [toy_site],
    )
    # Finding the owner of ToyArray may import other plugins' lightweight hook modules, never a
    # framework.
    assert out["frameworks"] == [] and "ivy_toy" in out["plugins"]


def test_default_backend_imports_only_its_framework() -> None:
    out = run_json(
        _LOADED
        + """
import ivy
ivy.zeros(2)
emit({"backend": ivy.current_backend().name, "frameworks": loaded(FRAMEWORKS)})
"""
    )
    assert out == {"backend": "numpy", "frameworks": ["numpy"]}


# --------------------------------------------------------------------------- import-order guard

_FAKE_GUARDED = """
from ivy.plugin import BackendImpl, BackendSpec, hookimpl

@hookimpl
def ivy_register_backends(register):
    register(BackendSpec(name="guarded", array_modules=("guarded_fw",), load="guarded_plugin:load",
                         unsafe_after=("fakeflow",)))

def load():
    import guarded_fw
    return BackendImpl(ops={}, array_types=(guarded_fw.Array,), dtypes={}, default_dtypes={},
                       devices=lambda: ["cpu"], default_device=lambda: "cpu")
"""


def test_import_order_guard_mechanism(tmp_path: Path) -> None:
    """``unsafe_after`` refuses to load a framework after the module it cannot follow."""
    make_fake_dist(
        tmp_path,
        "ivy-guarded",
        {"guarded": "guarded_plugin"},
        {"guarded_plugin": _FAKE_GUARDED, "guarded_fw": "class Array:\n    pass\n", "fakeflow": "\n"},
    )
    out = run_json(
        """
import sys, ivy
import fakeflow
res = {}
try:
    ivy.backend_namespace("guarded")
except ivy.errors.BackendConflictError as e:
    res["error"] = str(e)
    res["is_import_error"] = isinstance(e, ImportError)
res["fw_imported"] = "guarded_fw" in sys.modules
# The refusal is not remembered: once the framework is imported first, the backend loads.
import guarded_fw
res["after"] = ivy.backend_namespace("guarded").name
emit(res)
""",
        [tmp_path],
    )
    msg = out["error"]
    assert "'guarded'" in msg and "guarded_fw must be imported before fakeflow" in msg, msg
    assert "separate process" in msg
    assert out["is_import_error"] is True
    assert out["fw_imported"] is False
    assert out["after"] == "guarded"


def test_import_order_guard_allows_the_safe_order(tmp_path: Path) -> None:
    make_fake_dist(
        tmp_path,
        "ivy-guarded",
        {"guarded": "guarded_plugin"},
        {"guarded_plugin": _FAKE_GUARDED, "guarded_fw": "class Array:\n    pass\n", "fakeflow": "\n"},
    )
    out = run_json(
        """
import ivy
ns = ivy.backend_namespace("guarded")
import fakeflow
emit(ns.name)
""",
        [tmp_path],
    )
    assert out == "guarded"


def _paddle_plugin_installed() -> bool:
    return any(ep.name == "paddle" for ep in entry_points(group="ivy.backends"))


@pytest.mark.skipif(importlib.util.find_spec("tensorflow") is None, reason="tensorflow is not installed")
@pytest.mark.skipif(not _paddle_plugin_installed(), reason="ivy-paddle is not installed")
def test_tensorflow_then_paddle_is_refused_not_a_segfault() -> None:
    proc = run_python(
        """
        import sys
        import tensorflow
        import ivy
        try:
            ivy.backend_namespace("paddle")
        except ivy.errors.BackendConflictError as e:
            msg = str(e)
            assert "paddle" in msg and "tensorflow" in msg and "separate process" in msg, msg
            assert "paddle" not in sys.modules, "paddle must not have been imported"
            print("REFUSED")
        else:
            raise AssertionError("loading paddle after tensorflow was not refused")
        """,
        timeout=900,
    )
    assert proc.returncode == 0 and "REFUSED" in proc.stdout
