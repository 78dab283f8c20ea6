"""A third party adds a backend without touching ivy-core.

The fixture distribution ``tests/fixtures/ivy-toy`` (entry point ``toy`` in the group
``ivy.backends``) is installed with pip into a temporary folder, and every check runs in a fresh
interpreter with that folder on ``PYTHONPATH``: exactly what a user who pip-installs a plugin gets.
So is ``tests/fixtures/ivy-cnames``, a backend whose framework names its dtypes as C does (float32
is ``float``): Ivy names them by the plugin's declaration, and the backend passes the conformance
kit.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parent / "fixtures"
FIXTURE = FIXTURES / "ivy-toy"


def _install(tmp_path_factory: pytest.TempPathFactory, name: str) -> Path:
    """``pip install`` the fixture distribution ``tests/fixtures/<name>`` into a new folder."""
    target = tmp_path_factory.mktemp(f"{name}-site")
    # Build from a copy: an in-tree build would leave build/ and *.egg-info in the repository.
    src = tmp_path_factory.mktemp(f"{name}-src") / name
    shutil.copytree(FIXTURES / name, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    proc = subprocess.run(
        [
            sys.executable,
            "-m",
            "pip",
            "install",
            "--no-deps",
            "--no-build-isolation",
            "--disable-pip-version-check",
            "--quiet",
            "--target",
            str(target),
            str(src),
        ],
        capture_output=True,
        text=True,
        timeout=900,
    )
    assert proc.returncode == 0, f"pip install of {name} failed:\n{proc.stdout}\n{proc.stderr}"
    return target


@pytest.fixture(scope="module")
def toy_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = _install(tmp_path_factory, "ivy-toy")
    assert (target / "ivy_toy" / "__init__.py").is_file()
    assert list(target.glob("ivy_toy-0.1.0.dist-info"))
    return target


@pytest.fixture(scope="module")
def cnames_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = _install(tmp_path_factory, "ivy-cnames")
    assert (target / "ivy_cnames" / "conformance-xfails.txt").is_file()
    return target


def run(code: str, site: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    full_env = dict(os.environ)
    full_env.pop("IVY_BACKEND", None)
    full_env.update(env or {})
    full_env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")]))
    proc = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        capture_output=True,
        text=True,
        env=full_env,
        timeout=900,
        cwd=str(site),
    )
    assert proc.returncode == 0, f"exit {proc.returncode}\n--- stdout\n{proc.stdout}\n--- stderr\n{proc.stderr}"
    return proc


def test_installed_distribution_metadata(toy_site: Path) -> None:
    run(
        """
        from importlib.metadata import distribution
        d = distribution("ivy-toy")
        assert d.version == "0.1.0", d.version
        eps = [ep for ep in d.entry_points if ep.group == "ivy.backends"]
        assert [(ep.name, ep.value) for ep in eps] == [("toy", "ivy_toy")], eps
        """,
        toy_site,
    )


def test_backends_lists_toy_without_importing_it(toy_site: Path) -> None:
    run(
        """
        import sys, ivy
        names = ivy.backends()
        assert "toy" in names, names
        assert "numpy" in names, names
        # Known frameworks come first, in the preference order; other backends after them.
        assert names.index("numpy") < names.index("toy"), names
        assert "ivy_toy" not in sys.modules, "listing backends must not import plugins"
        assert "toy" in dir(ivy)
        """,
        toy_site,
    )


def test_add_dispatches_on_toy_arrays(toy_site: Path) -> None:
    run(
        """
        import sys, ivy
        from ivy_toy import ToyArray
        a = ToyArray([1.0, 2.0, 3.0], (3,))
        b = ToyArray([10.0, 20.0, 30.0], (3,))
        c = ivy.add(a, b)
        assert type(c) is ToyArray, type(c)
        assert c.shape == (3,) and c.data == [11.0, 22.0, 33.0], c
        # Python scalars never decide the backend: the ToyArray does.
        d = ivy.multiply(2, a)
        assert type(d) is ToyArray and d.data == [2.0, 4.0, 6.0], d
        s = ivy.sum(ToyArray([1.0, 2.0, 3.0, 4.0], (2, 2)), axis=0)
        assert s.shape == (2,) and s.data == [4.0, 6.0], s
        v = ivy.vecdot(a, b)
        assert v.shape == () and v.data == [140.0], v
        r = ivy.sqrt(ToyArray([4.0, 9.0], (2,)))
        assert r.data == [2.0, 3.0], r
        assert ivy.to_list(ToyArray([1.0, 2.0, 3.0, 4.0], (2, 2))) == [[1.0, 2.0], [3.0, 4.0]]
        assert ivy.is_native_array(a) and ivy.namespace(a) is ivy.toy
        assert a.dtype == ivy.float64 and ivy.dtype_name(a.dtype) == "float64"
        # Only the toy backend was needed: no NumPy (and no other plugin's hook imported its framework).
        assert "numpy" not in sys.modules, "using the toy backend imported numpy"
        import numpy as np
        n = ivy.to_numpy(ToyArray([1.0, 2.0, 3.0, 4.0], (2, 2)))
        assert isinstance(n, np.ndarray) and n.dtype == np.float64
        np.testing.assert_array_equal(n, [[1.0, 2.0], [3.0, 4.0]])
        """,
        toy_site,
    )


def test_backend_namespace_and_attribute(toy_site: Path) -> None:
    run(
        """
        import ivy
        from ivy_toy import ToyArray
        ns = ivy.toy
        assert ns is ivy.backend_namespace("toy")
        assert ns.name == "toy" and ns.__array_api_version__ == "2024.12"
        x = ns.asarray([[1.0, 2.0], [3.0, 4.0]])
        assert type(x) is ToyArray and x.shape == (2, 2)
        # The namespace holds the plugin's own functions: no dispatch layer in between.
        import ivy_toy.elementwise
        assert ns.add is ivy_toy.elementwise.add
        assert ns.add(x, x).data == [2.0, 4.0, 6.0, 8.0]
        assert ns.float64 == ivy.float64
        assert ns.is_native_array(x) and not ns.is_native_array([1.0])
        assert x.__array_namespace__() is ns
        info = ns.__array_namespace_info__()
        assert list(info.dtypes()) == ["float64"] and info.devices() == ["cpu"]
        import sys
        assert sys.modules["ivy.toy"] is ns
        """,
        toy_site,
    )


def test_set_backend_toy_then_zeros(toy_site: Path) -> None:
    run(
        """
        import ivy
        from ivy_toy import ToyArray
        ns = ivy.set_backend("toy")
        assert ns is ivy.toy and ivy.current_backend() is ivy.toy
        z = ivy.zeros(3)
        assert type(z) is ToyArray and z.shape == (3,) and z.data == [0.0, 0.0, 0.0], z
        z2 = ivy.zeros((2, 2), dtype="float64")
        assert z2.shape == (2, 2)
        ivy.unset_backend()
        with ivy.toy.use:
            assert type(ivy.asarray([1.0, 2.0])) is ToyArray
        """,
        toy_site,
    )


def test_missing_op_raises_not_implemented_naming_toy(toy_site: Path) -> None:
    run(
        """
        import ivy
        from ivy_toy import ToyArray
        x = ToyArray([1.0, 2.0], (2,))
        for call in (lambda: ivy.mean(x), lambda: ivy.linalg.inv(x), lambda: ivy.ones(2, backend="toy")):
            try:
                call()
            except NotImplementedError as e:
                assert "'toy'" in str(e), e
            else:
                raise AssertionError("expected NotImplementedError")
        try:
            ivy.toy.mean
        except AttributeError as e:
            assert "'toy'" in str(e) and "mean" in str(e), e
        else:
            raise AssertionError("expected AttributeError")
        """,
        toy_site,
    )


def test_mixing_toy_and_numpy_raises_naming_both(toy_site: Path) -> None:
    run(
        """
        import ivy, numpy as np
        from ivy_toy import ToyArray
        t = ToyArray([1.0, 2.0], (2,))
        n = np.ones(2)
        ivy.add(n, n)  # warm the numpy entry of the fast path
        ivy.add(t, t)  # and the toy one
        for args in ((t, n), (n, t)):
            try:
                ivy.add(*args)
            except ivy.errors.MixedBackendsError as e:
                msg = str(e)
                assert "toy" in msg and "numpy" in msg and "ToyArray" in msg and "ndarray" in msg, msg
                assert isinstance(e, TypeError)
            else:
                raise AssertionError(f"mixing {args} did not raise")
        """,
        toy_site,
    )


# --------------------------------------------------------------------------- foreign dtype names


def test_foreign_dtype_names_come_from_the_plugins_declaration(cnames_site: Path) -> None:
    run(
        """
        import sys, ivy
        from ivy_cnames._framework import DTYPES, HALF
        # the framework's own names: the traps of reading them (float is not float64, int not int64)
        assert DTYPES["float32"].name == "float" and DTYPES["int32"].name == "int", DTYPES
        assert DTYPES["float64"].name == "double" and str(DTYPES["float32"]) == "cnames.float"
        # named by the declaration, also before the backend was used (naming loads it)
        assert "cnames" not in ivy._registry.loaded_backends()
        for name, native in DTYPES.items():
            got = ivy.dtype_name(native)
            assert got == name, (native, got, name)
        assert "cnames" in ivy._registry.loaded_backends()
        x = ivy.cnames.asarray([1.0, 2.0], dtype="float32")
        assert type(x).__name__ == "CArray" and x.dtype is DTYPES["float32"], x
        assert ivy.dtype_name(x.dtype) == "float32"
        assert ivy.float32 == x.dtype and x.dtype == ivy.float32 and ivy.float64 != x.dtype
        assert ivy.isdtype(x.dtype, "real floating") and ivy.dtype_equal(x.dtype, "float32")
        i = ivy.astype(x, "int32")
        assert i.dtype is DTYPES["int32"] and ivy.dtype_name(i.dtype) == "int32", i.dtype
        assert ivy.dtype_name(ivy.result_type(x, i)) == "float32"
        # the kit names them the same way
        from ivy.testing.convert import dtype_name as kit_dtype_name
        assert kit_dtype_name(x.dtype) == "float32" and kit_dtype_name(i.dtype) == "int32"
        # the graph tracer, and a program emitted for the backend
        g = ivy.trace_graph(lambda a: ivy.astype(ivy.add(a, a), "float64"), args=(x,))
        assert [v.dtype for v in g.inputs] == ["float32"], g.inputs
        y = g.to("cnames")(x)
        assert y.dtype is DTYPES["float64"] and ivy.to_list(y) == [2.0, 4.0], y
        # a dtype of the framework its plugin does not declare: a clear error, never a guess
        try:
            ivy.dtype_name(HALF)
        except TypeError as e:
            msg = str(e)
            assert "cnames.half" in msg and "'cnames' backend (ivy-cnames 0.1.0)" in msg, msg
            assert "BackendImpl.dtypes" in msg, msg
        else:
            raise AssertionError("an undeclared dtype got a name")
        assert not (ivy.float32 == HALF) and ivy.float32 != HALF  # no name: equal to no dtype constant
        """,
        cnames_site,
    )


def test_foreign_dtype_names_pass_the_conformance_kit(cnames_site: Path, request: pytest.FixtureRequest) -> None:
    if request.config.getoption("ivy_backend"):
        pytest.skip("runs once, in the run without --backend (scripts/test's core run): the kit takes a minute")
    env = {k: v for k, v in os.environ.items() if k not in ("IVY_BACKEND", "HYPOTHESIS_PROFILE", "CI")}
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(cnames_site), os.environ.get("PYTHONPATH")]))
    # the documented command of a plugin's author, outside the repository (no pytest.ini of ours)
    cmd = [sys.executable, "-m", "pytest", "-p", "ivy.testing", "--ivy-backend", "cnames", "--ivy-profile", "quick"]
    cmd += ["--pyargs", "ivy.testing.suite", "-q", "-p", "no:cacheprovider", "-W", "ignore::RuntimeWarning"]
    proc = subprocess.run(cmd, capture_output=True, text=True, env=env, timeout=900, cwd=str(cnames_site))
    tail = proc.stdout[-6000:] + proc.stderr[-2000:]
    assert proc.returncode == 0, tail
    summary = proc.stdout.strip().splitlines()[-1]
    assert " passed" in summary, summary
    assert not re.search(r"\d+ (failed|errors?)\b", summary), summary
    assert "match no collected test" not in proc.stdout, tail  # every expected failure is real
