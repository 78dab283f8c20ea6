"""The disk cache of transpiled graphs: a second process transpiling the same object on inputs of
the same signature loads the graph instead of reading the source program again.

An entry is a graph written by :meth:`ivy.Graph.save` (``<key>.json`` and ``<key>.safetensors``)
WITHOUT its parameter values: weights always come from the object being transpiled, so a cached
entry never holds stale ones. The key hashes the frontend's fingerprint of the object (its
program, not its weights), the call signature, the mode, and the versions of Ivy, the frontend's
plugin and the source framework (and a stamp of the Ivy and plugin code, so that editing either
invalidates the entries). A corrupt entry is ignored with a warning and written again.

The folder is ``$IVY_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/ivy/transpile`` (default
``~/.cache/ivy/transpile``).
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import uuid
import warnings
from pathlib import Path
from typing import Any

from ..plugin import Frontend

__all__ = ["cache_dir", "cache_key", "load", "store", "weight_map", "with_weights", "clear"]

#: the layout of entries; bumped when it changes
FORMAT = 2


def cache_dir() -> Path:
    """Where transpiled graphs are cached (see the module docstring)."""
    env = os.environ.get("IVY_CACHE_DIR")
    if env:
        return Path(env).expanduser()
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "ivy" / "transpile"


_stamps: dict[str, str] = {}


def _code_stamp(package: str) -> str:
    """A stamp of a package's Python files (names, sizes, modification times): editing the code
    of Ivy or of a frontend invalidates the entries it made. Computed once per process."""
    got = _stamps.get(package)
    if got is not None:
        return got
    mod = sys.modules.get(package)
    h = hashlib.sha256()
    for root in list(getattr(mod, "__path__", []) or []):
        for dirpath, dirnames, filenames in os.walk(root):
            dirnames[:] = sorted(d for d in dirnames if not d.startswith((".", "__pycache__")))
            for name in sorted(f for f in filenames if f.endswith(".py")):
                st = os.stat(os.path.join(dirpath, name))
                h.update(
                    f"{os.path.relpath(os.path.join(dirpath, name), root)}:{st.st_size}:{st.st_mtime_ns};".encode()
                )
    _stamps[package] = got = h.hexdigest()[:16]
    return got


def versions(frontend: Frontend, label: str, impl_module: str | None) -> dict[str, Any]:
    """The versions a cached graph depends on."""
    import ivy

    frameworks = {}
    for m in frontend.modules:
        mod = sys.modules.get(m)
        if mod is not None:
            frameworks[m] = str(getattr(mod, "__version__", "?"))
    code = {"ivy": _code_stamp("ivy")}
    top = (impl_module or "").partition(".")[0]
    if top and top != "ivy":
        code[top] = _code_stamp(top)
    return {
        "format": FORMAT,
        "ivy": ivy.__version__,
        "python": list(sys.version_info[:3]),
        "frontend": [frontend.name, label],
        "frameworks": frameworks,
        "code": code,
    }


def cache_key(*, fingerprint: str, signature: Any, training: Any, versions: dict[str, Any]) -> str:
    doc = json.dumps(
        {"fingerprint": fingerprint, "signature": repr(signature), "training": training, "versions": versions},
        sort_keys=True,
    )
    return hashlib.sha256(doc.encode()).hexdigest()[:40]


def _path(key: str) -> Path:
    return cache_dir() / f"{key}.json"


def load(key: str) -> Any:
    """The cached graph of ``key`` (without parameter values), or None."""
    path = _path(key)
    if not path.exists():
        return None
    from ..graph import Graph

    try:
        return Graph.load(path)
    except Exception as e:  # noqa: BLE001 - any damage: transpile again and overwrite it
        warnings.warn(
            f"ignoring the corrupt transpile cache entry {path} ({type(e).__name__}: {e}); it is written again",
            stacklevel=3,
        )
        return None


def store(key: str, graph: Any) -> None:
    """Write ``graph`` (without its parameter values) under ``key``; a failure to write (a
    read-only folder, a full disk) only warns: the cache is an optimisation."""
    folder = cache_dir()
    tmp = folder / f".tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    try:
        folder.mkdir(parents=True, exist_ok=True)
        graph.replace(param_values={}).save(f"{tmp}.json")
        # the data first, the document last: an entry is complete once its document exists
        os.replace(f"{tmp}.safetensors", folder / f"{key}.safetensors")
        os.replace(f"{tmp}.json", folder / f"{key}.json")
    except Exception as e:  # noqa: BLE001
        warnings.warn(f"could not write the transpile cache entry in {folder}: {type(e).__name__}: {e}", stacklevel=3)
        for suffix in (".json", ".safetensors"):
            try:
                os.remove(f"{tmp}{suffix}")
            except OSError:
                pass


def _host(x: Any) -> Any:
    """A weight as a NumPy array (a native array, or a framework variable such as Keras')."""
    import numpy as np

    from .. import _api
    from ._inputs import is_array

    # (not np.ascontiguousarray: it makes a 0-d array 1-d, and BatchNorm's counter is 0-d)
    return np.asarray(_api.to_numpy(x) if is_array(x) else x, order="C")


def _value_key(dtype: str, shape: Any, data: bytes) -> tuple[str, tuple[int, ...], str]:
    return dtype, tuple(int(d) for d in shape), hashlib.sha256(data).hexdigest()


def weight_map(graph: Any, weights: dict[str, Any]) -> dict[str, str] | None:
    """Which of the object's weights (core's reading of them, :func:`weights`) each parameter of
    ``graph`` holds: the one with the same value, dtype and shape (equal values: in the order of
    both). A frontend names parameters its own way (Haiku's scopes, Flax's collections), so the
    cache matches them by value once, when the entry is written; None where some parameter is
    none of the object's weights (the entry is then not written)."""
    import numpy as np

    by_value: dict[tuple[str, tuple[int, ...], str], list[str]] = {}
    for k, x in weights.items():
        a = _host(x)
        data = a.astype(a.dtype.newbyteorder("<"), copy=False).tobytes()
        by_value.setdefault(_value_key(np.dtype(a.dtype).name, a.shape, data), []).append(k)
    out: dict[str, str] = {}
    for k in graph.params:
        c = graph.param_values.get(k)
        found = None if c is None else by_value.get(_value_key(c.dtype, c.shape, c.data))
        if not found:
            return None
        out[k] = found.pop(0)
    return out


def with_weights(graph: Any, weights: dict[str, Any]) -> Any:
    """``graph`` (a cache entry) with the object's current weights as its parameter values, through
    the entry's ``meta["weight_map"]``; None where they do not fit it (a missing weight, another
    shape or dtype: the entry is then not used)."""
    import numpy as np

    from ..graph import ConstArray

    mapping = graph.meta.get("weight_map")
    if not isinstance(mapping, dict) or set(mapping) != set(graph.params):
        return None
    values = {}
    for k, v in graph.params.items():
        x = weights.get(mapping[k])
        if x is None:
            return None
        a = _host(x)
        if tuple(a.shape) != tuple(v.shape or ()) or np.dtype(a.dtype).name != v.dtype:
            return None
        values[k] = ConstArray.from_native(a)
    return graph.replace(param_values=values)


def clear() -> int:
    """Delete every cached graph; returns how many entries were removed."""
    folder = cache_dir()
    n = 0
    if folder.is_dir():
        for p in folder.iterdir():
            # only the entries' own files: the folder may be shared ($IVY_CACHE_DIR)
            ours = p.suffix in (".json", ".safetensors") and _is_key(p.stem)
            if ours or (p.name.startswith(".tmp-") and p.suffix in (".json", ".safetensors")):
                n += p.suffix == ".json"
                p.unlink(missing_ok=True)
    return n


def _is_key(stem: str) -> bool:
    return len(stem) == 40 and all(c in "0123456789abcdef" for c in stem)
