"""The disk cache of transpiled graphs: a second process transpiling the same object on inputs of
the same signature loads the graph instead of reading the source program again.

An entry is a graph written by :meth:`ivy.Graph.save` (``<key>.json`` and ``<key>.safetensors``)
WITHOUT its parameter values: weights always come from the object being transpiled, so a cached
entry never holds stale ones. The key hashes the frontend's fingerprint of the object (its
program, not its weights), the call signature, the mode, and the versions of Ivy, the frontend's
plugin and the source framework (and a stamp of the Ivy and plugin code, so that editing either
invalidates the entries).

``<key>.sha256`` holds the SHA-256 of the two files, written last: an entry is read only whole
(the bytes read are those hashed, then checked against the graph schema before anything is built
from them). A damaged or edited entry is discarded with a warning and written again, never used.

The folder is ``$IVY_CACHE_DIR`` if set, else ``$XDG_CACHE_HOME/ivy/transpile`` (default
``~/.cache/ivy/transpile``). It is created private (0700); one that another user owns or that
group or others may write is refused (:class:`ivy.errors.UnsafeCacheError`): whoever can write
there could choose the programs this process runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
import sys
import uuid
import warnings
from pathlib import Path
from typing import Any

from ..errors import UnsafeCacheError
from ..plugin import Frontend

__all__ = ["cache_dir", "cache_key", "check_folder", "digest", "load", "store", "weight_map", "with_weights", "clear"]

#: the layout of entries; bumped when it changes
FORMAT = 3
_SUFFIXES = (".json", ".safetensors", ".sha256")


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


def _unsafe(folder: Path, why: str) -> UnsafeCacheError:
    return UnsafeCacheError(
        f"the transpile cache folder {folder} {why}, so whoever can write there could choose the programs "
        f"this process runs; Ivy neither reads nor writes it. Make it private (chmod 700 {folder}, owned by "
        "you), or set IVY_CACHE_DIR to a folder of your own (Ivy creates it with mode 0700), or transpile "
        "with cache=False"
    )


def check_folder(folder: Path) -> bool:
    """Whether ``folder`` exists; raises :class:`ivy.errors.UnsafeCacheError` where it is not
    private: not a folder, owned by another user, or writable by group or others (the folder and,
    where it is a symbolic link, the link)."""
    try:
        link = os.lstat(folder)
    except (FileNotFoundError, NotADirectoryError):
        return False
    try:
        st = os.stat(folder)
    except FileNotFoundError:
        raise _unsafe(folder, "is a symbolic link to nothing") from None
    if not stat.S_ISDIR(st.st_mode):
        raise _unsafe(folder, "is not a folder")
    getuid = getattr(os, "getuid", None)
    if getuid is None:  # (Windows: no POSIX owners or mode bits; the user profile's ACLs decide)
        return True
    me = getuid()
    for what, s in (("", st), (" (a symbolic link)", link)):
        if s.st_uid != me:
            raise _unsafe(folder, f"{what} is owned by another user (uid {s.st_uid}, you are {me})".lstrip())
    writers = [who for who, bit in (("its group", stat.S_IWGRP), ("other users", stat.S_IWOTH)) if st.st_mode & bit]
    if writers:
        raise _unsafe(folder, f"may be written by {' and '.join(writers)} (mode {stat.S_IMODE(st.st_mode):o})")
    return True


def _make_folder(folder: Path) -> None:
    """Create the cache folder private (0700) where it is missing; check it otherwise."""
    if check_folder(folder):
        return
    folder.parent.mkdir(parents=True, exist_ok=True)
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:  # (made by another process meanwhile)
        pass
    else:
        os.chmod(folder, 0o700)  # (the umask may have taken bits away; none is added beyond 0700)
    check_folder(folder)


def digest(doc: bytes, data: bytes) -> str:
    """The content hash of an entry: its JSON document and its safetensors bytes."""
    h = hashlib.sha256()
    h.update(len(doc).to_bytes(8, "little"))
    h.update(doc)
    h.update(data)
    return h.hexdigest()


def _discard(folder: Path, key: str, why: str) -> None:
    warnings.warn(
        f"discarding the transpile cache entry {folder / key}.json ({why}); the object is read again and the "
        "entry written anew",
        stacklevel=4,
    )
    for suffix in _SUFFIXES:
        try:
            os.remove(folder / f"{key}{suffix}")
        except OSError:
            pass


def load(key: str) -> Any:
    """The cached graph of ``key`` (without parameter values), or None: a missing or incomplete
    entry is a miss; a damaged or edited one (its hash, or the graph schema, says so) is
    discarded with a warning.

    Raises:
        ivy.errors.UnsafeCacheError: the folder is not private.
    """
    folder = cache_dir()
    if not check_folder(folder):
        return None
    base = folder / key
    try:
        want = (folder / f"{key}.sha256").read_text(encoding="ascii").strip()
    except FileNotFoundError:
        return None  # (no entry, or one being written: its hash comes last)
    except (OSError, UnicodeDecodeError) as e:
        _discard(folder, key, f"its hash cannot be read: {type(e).__name__}")
        return None
    try:
        doc = Path(f"{base}.json").read_bytes()
        data = Path(f"{base}.safetensors").read_bytes()
    except OSError as e:
        _discard(folder, key, f"{type(e).__name__}: {e}")
        return None
    if digest(doc, data) != want:
        _discard(folder, key, "its content does not match its hash: damaged or edited")
        return None
    from ..graph import Graph
    from ..graph._serialize import loads

    try:
        return loads(Graph, doc, data, json_origin=f"{base}.json", st_origin=f"{base}.safetensors")
    except Exception as e:  # any damage: transpile again and overwrite it
        _discard(folder, key, f"{type(e).__name__}: {e}")
        return None


def _fsync(path: str | Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def store(key: str, graph: Any) -> None:
    """Write ``graph`` (without its parameter values) under ``key``, atomically: temporary files
    in the folder, flushed to disk, then renamed over the entry's names, its hash last. A
    failure to write (a read-only folder, a full disk) only warns: the cache is an optimisation.

    Raises:
        ivy.errors.UnsafeCacheError: the folder is not private.
    """
    folder = cache_dir()
    tmp = folder / f".tmp-{os.getpid()}-{uuid.uuid4().hex[:8]}"
    try:
        _make_folder(folder)
        graph.replace(param_values={}).save(f"{tmp}.json")
        with open(f"{tmp}.sha256", "w", encoding="ascii") as f:
            f.write(digest(Path(f"{tmp}.json").read_bytes(), Path(f"{tmp}.safetensors").read_bytes()) + "\n")
        for suffix in _SUFFIXES:
            _fsync(f"{tmp}{suffix}")
        # the data first, the hash last: an entry is complete (and read) once its hash exists;
        # an old entry's hash goes first, so that a reader meanwhile misses instead of mixing
        try:
            os.remove(folder / f"{key}.sha256")
        except FileNotFoundError:
            pass
        for suffix in _SUFFIXES:
            os.replace(f"{tmp}{suffix}", folder / f"{key}{suffix}")
        if hasattr(os, "O_DIRECTORY"):
            _fsync(folder)  # (the renames themselves reach the disk)
    except UnsafeCacheError:
        _cleanup(tmp)
        raise
    except Exception as e:
        warnings.warn(f"could not write the transpile cache entry in {folder}: {type(e).__name__}: {e}", stacklevel=3)
        _cleanup(tmp)


def _cleanup(tmp: Path) -> None:
    for suffix in _SUFFIXES:
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
    if check_folder(folder):
        for p in folder.iterdir():
            # only the entries' own files: the folder may be shared ($IVY_CACHE_DIR)
            ours = p.suffix in _SUFFIXES and _is_key(p.stem)
            if ours or (p.name.startswith(".tmp-") and p.suffix in _SUFFIXES):
                n += p.suffix == ".json" and ours
                p.unlink(missing_ok=True)
    return n


def _is_key(stem: str) -> bool:
    return len(stem) == 40 and all(c in "0123456789abcdef" for c in stem)
