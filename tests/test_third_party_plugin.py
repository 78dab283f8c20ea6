"""A third party adds a backend without touching ivy-core.

The fixture distribution ``tests/fixtures/ivy-toy`` (entry point ``toy`` in the group
``ivy.backends``) is installed with pip into a temporary folder, and every check runs in a fresh
interpreter with that folder on ``PYTHONPATH``: exactly what a user who pip-installs a plugin gets.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "ivy-toy"


@pytest.fixture(scope="module")
def toy_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    target = tmp_path_factory.mktemp("ivy-toy-site")
    # Build from a copy: an in-tree build would leave build/ and *.egg-info in the repository.
    src = tmp_path_factory.mktemp("ivy-toy-src") / "ivy-toy"
    shutil.copytree(FIXTURE, src, ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
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
        timeout=300,
    )
    assert proc.returncode == 0, f"pip install of ivy-toy failed:\n{proc.stdout}\n{proc.stderr}"
    assert (target / "ivy_toy" / "__init__.py").is_file()
    assert list(target.glob("ivy_toy-0.1.0.dist-info"))
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
        timeout=120,
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
