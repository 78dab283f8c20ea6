"""The package: imports no framework, exports what it documents, documents what it exports."""

from __future__ import annotations

import inspect
import json
import subprocess
import sys
from pathlib import Path

import ivy_robot
from ivy.testing.imports import import_cycles, import_graph

FRAMEWORKS = ("numpy", "torch", "jax", "tensorflow", "paddle")


def test_robot_imports_no_framework():
    code = f"import sys, json, ivy_robot\nprint(json.dumps([m for m in {FRAMEWORKS!r} if m in sys.modules]))\n"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert json.loads(out.stdout.strip().splitlines()[-1]) == []


def test_robot_all_is_complete_and_documented():
    names = ivy_robot.__all__
    assert len(set(names)) == len(names)
    for module in (ivy_robot.planning, ivy_robot.rigid_mobile, ivy_robot.manipulator):
        assert set(module.__all__) <= set(names)
    for name in names:
        obj = getattr(ivy_robot, name)
        if inspect.ismodule(obj):
            continue
        assert obj.__doc__ and len(obj.__doc__.strip()) > 30, name
        assert obj.__module__.startswith("ivy_robot."), name
        if inspect.isclass(obj):
            for attr, member in vars(obj).items():
                if not attr.startswith("_") and callable(member):
                    assert member.__doc__, f"{name}.{attr}"
    # the original library's public names are all present
    assert {"sample_spline_path", "RigidMobile", "Manipulator", "MicoManipulator", "PandaManipulator"} <= set(names)


def test_robot_has_no_import_cycle():
    # no module imports, directly or through others, one that imports it back
    edges = import_graph(Path(ivy_robot.__file__).parent)
    assert len(edges) > 3 and import_cycles(edges) == []
