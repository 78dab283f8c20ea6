"""The API reference (docs/api.md) is generated from the specs and must be up to date."""

from __future__ import annotations

import os
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def test_core_api_reference_is_generated_from_the_current_specs() -> None:
    script = os.path.join(ROOT, "docs", "gen_api.py")
    p = subprocess.run([sys.executable, script, "--check"], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_plugin_contract_reference_is_generated_from_the_docstrings() -> None:
    script = os.path.join(ROOT, "docs", "gen_contract.py")
    p = subprocess.run([sys.executable, script, "--check"], capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr


def test_contract_fields_are_documented_for_help() -> None:
    import dataclasses

    from ivy import plugin

    for cls in (plugin.BackendSpec, plugin.BackendImpl, plugin.DeviceKind):
        doc = cls.__doc__ or ""
        missing = [f.name for f in dataclasses.fields(cls) if f"    {f.name}:" not in doc]
        assert not missing, f"{cls.__name__} does not document {missing} in its docstring"
