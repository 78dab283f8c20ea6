"""Third-party device kinds: a distribution that implements only ``ivy_register_devices`` adds a
device kind to an installed backend (here numpy), through the ``ivy.plugins`` entry-point group.

Each plugin is a real installed distribution written by ``make_fake_dist`` into a temporary folder
that a subprocess puts on sys.path.
"""

from __future__ import annotations

import pytest
from ivy_core_tests_support import make_fake_dist, run_json

pytest.importorskip("ivy_numpy")

_VDEV = """
from ivy.plugin import DeviceKind, hookimpl

@hookimpl
def ivy_register_devices(register):
    register(DeviceKind(backend="numpy", kind="vdev", list_devices=lambda: ["vdev:0"],
                        to_native=lambda s: "cpu", from_native=lambda n: None))
"""

_BAD = """
from ivy.plugin import hookimpl

@hookimpl
def ivy_register_devices(register):
    register(("numpy", "vdev"))  # not a DeviceKind
"""


def test_core_device_kind_from_plugin_group(tmp_path):
    make_fake_dist(tmp_path, "ivy-vdev", {"vdev": "ivy_vdev"}, {"ivy_vdev": _VDEV}, group="ivy.plugins")
    got = run_json(
        """
        import numpy as np
        import ivy, ivy.plugin_kit
        kinds = ivy.plugin_kit.device_kinds("numpy")
        x = np.ones(3)
        y = ivy.to_device(x, "vdev:0")
        try:
            ivy.to_device(x, "foo:0")
            foo = None
        except ValueError as e:
            foo = str(e)
        emit({
            "kinds": sorted(kinds), "type": type(kinds.get("vdev")).__name__,
            "devices": ivy.numpy.devices(), "ivy_devices": ivy.devices(backend="numpy"),
            "same": y is x, "dev": ivy.dev(y), "foo": foo,
            "backends": ivy.backends(), "errors": {k: str(v) for k, v in ivy._registry._extra_errors.items()},
        })
        """,
        [tmp_path],
    )
    assert got["kinds"] == ["vdev"] and got["type"] == "DeviceKind"
    assert got["devices"] == ["cpu", "vdev:0"] and got["ivy_devices"] == ["cpu", "vdev:0"]
    assert got["same"] and got["dev"] == "cpu"  # numpy maps vdev:0 to its CPU
    assert got["foo"] is not None and "'foo:0'" in got["foo"]  # unregistered: still a ValueError
    assert "vdev" not in got["backends"]  # a plugin without a backend is no backend
    assert got["errors"] == {}


def test_core_device_kind_must_be_devicekind(tmp_path):
    make_fake_dist(tmp_path, "ivy-badkind", {"badkind": "ivy_badkind"}, {"ivy_badkind": _BAD}, group="ivy.plugins")
    got = run_json(
        """
        import ivy, ivy.plugin_kit
        from ivy.errors import PluginValidationError
        try:
            ivy.plugin_kit.device_kinds("numpy")
            err = None
        except PluginValidationError as e:
            err = str(e)
        emit({"err": err, "numpy_ok": ivy.to_device(ivy.numpy.asarray([1.0]), "cpu").shape == (1,)})
        """,
        [tmp_path],
    )
    assert got["err"] is not None and "DeviceKind" in got["err"]
    assert got["numpy_ok"]


def test_core_broken_plugin_group_module_is_reported(tmp_path):
    make_fake_dist(tmp_path, "ivy-vdev", {"vdev": "ivy_vdev"}, {"ivy_vdev": _VDEV}, group="ivy.plugins")
    other = tmp_path / "other"
    make_fake_dist(
        other, "ivy-broken", {"broken": "ivy_broken"}, {"ivy_broken": "raise ImportError('boom')"}, group="ivy.plugins"
    )
    got = run_json(
        """
        import warnings
        import ivy, ivy.plugin_kit
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            kinds = sorted(ivy.plugin_kit.device_kinds("numpy"))
        emit({"kinds": kinds, "warnings": [str(m.message) for m in w],
              "errors": {k: str(v) for k, v in ivy._registry._extra_errors.items()}})
        """,
        [tmp_path, other],
    )
    assert got["kinds"] == ["vdev"]  # the good plugin is unaffected
    assert list(got["errors"]) == ["broken"] and "ivy-broken 0.1" in got["errors"]["broken"]
    assert any("boom" in m for m in got["warnings"])


def test_core_hook_only_module_in_backends_group_is_refused(tmp_path):
    """Why ``ivy.plugins`` exists: under ``ivy.backends`` a hook-only module is taken for a backend,
    listed by ``ivy.backends()`` and refused when used (it registers no BackendSpec)."""
    make_fake_dist(tmp_path, "ivy-vdev", {"vdev": "ivy_vdev"}, {"ivy_vdev": _VDEV})
    got = run_json(
        """
        import ivy
        from ivy.errors import PluginValidationError
        try:
            ivy._registry._spec_for("vdev")
            err = None
        except PluginValidationError as e:
            err = str(e)
        ivy._registry.plugin_manager()  # does not raise: the error is kept for when it is used
        emit({"listed": "vdev" in ivy.backends(), "err": err})
        """,
        [tmp_path],
    )
    assert got["listed"]
    assert got["err"] is not None and "registers no backend" in got["err"]
