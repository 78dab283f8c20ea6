"""The transpile cache never runs what is on disk, and never serves a stale program (core's own
frontend on core's test backend, numpy): the folder is private or refused, each entry carries a
content hash checked on load, an edited entry (hash recomputed or not: the schema refuses it
then) is discarded with a warning and rebuilt, and core's fingerprint follows the values of the
globals every method and helper reads."""

from __future__ import annotations

import json
import os
import stat
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ivy
from ivy.errors import UnsafeCacheError
from ivy.transpile import _cache
from ivy.transpile._fingerprint import code_fingerprint, fingerprint

_POSIX = hasattr(os, "getuid")


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    d = tmp_path / "cache"
    monkeypatch.setenv("IVY_CACHE_DIR", str(d))
    return d


def _x() -> Any:
    return np.random.default_rng(0).standard_normal((4, 3)).astype("float32")


class Net(ivy.Module):
    def __init__(self) -> None:
        self.fc = ivy.Linear(3, 2)
        ivy.Module.__init__(self)

    def _forward(self, x: Any) -> Any:
        return ivy.tanh(ivy.sum(self.fc(x), axis=-1, keepdims=True))


@pytest.fixture
def net() -> Net:
    with ivy.use_backend("numpy"):
        m = Net()
        m(_x())
    return m


def _entry(cache_dir: Path) -> tuple[Path, Path, Path]:
    (doc,) = cache_dir.glob("*.json")
    return doc, doc.with_suffix(".safetensors"), doc.with_suffix(".sha256")


# --------------------------------------------------------------------------- the folder


@pytest.mark.skipif(not _POSIX, reason="POSIX owners and modes")
def test_the_folder_is_created_private(cache_dir: Path, net: Net) -> None:
    old = os.umask(0o002)  # (a permissive umask must not leak into the folder's mode)
    try:
        ivy.transpile(net, to="ivy", args=(_x(),))
    finally:
        os.umask(old)
    assert stat.S_IMODE(os.stat(cache_dir).st_mode) == 0o700
    doc, data, digest = _entry(cache_dir)
    assert digest.read_text().strip() == _cache.digest(doc.read_bytes(), data.read_bytes())
    assert not [p for p in cache_dir.iterdir() if p.name.startswith(".tmp-")]  # (the temporary files renamed)


@pytest.mark.skipif(not _POSIX, reason="POSIX owners and modes")
@pytest.mark.parametrize("mode", [0o770, 0o707, 0o777])
def test_a_folder_others_can_write_is_refused(cache_dir: Path, net: Net, mode: int) -> None:
    ivy.transpile(net, to="ivy", args=(_x(),))  # (an entry there)
    os.chmod(cache_dir, mode)
    with pytest.raises(UnsafeCacheError, match=r"may be written by .*IVY_CACHE_DIR") as e:
        ivy.transpile(net, to="ivy", args=(_x(),))
    assert str(cache_dir) in str(e.value) and "chmod 700" in str(e.value)
    with pytest.raises(UnsafeCacheError):
        _cache.store("0" * 40, ivy.trace_graph(net, args=(_x(),)))  # nor written
    out = ivy.transpile(net, to="ivy", args=(_x(),), cache=False)  # the way around it that the error names
    np.testing.assert_allclose(out(_x()), net(_x()), rtol=1e-6)


@pytest.mark.skipif(not _POSIX or os.geteuid() != 0, reason="giving a folder to another user needs root")
def test_a_folder_another_user_owns_is_refused(
    cache_dir: Path, tmp_path: Path, net: Net, monkeypatch: pytest.MonkeyPatch
) -> None:
    cache_dir.mkdir(mode=0o700)
    os.chown(cache_dir, 65534, -1)  # (nobody)
    with pytest.raises(UnsafeCacheError, match=r"owned by another user \(uid 65534"):
        ivy.transpile(net, to="ivy", args=(_x(),))
    # a link the user owns to a folder another user owns is refused too
    link = tmp_path / "link"
    link.symlink_to(cache_dir)
    monkeypatch.setenv("IVY_CACHE_DIR", str(link))
    with pytest.raises(UnsafeCacheError, match="owned by another user"):
        ivy.transpile(net, to="ivy", args=(_x(),))


@pytest.mark.skipif(not _POSIX, reason="POSIX owners and modes")
def test_a_file_in_place_of_the_folder_is_refused(cache_dir: Path, net: Net) -> None:
    cache_dir.write_text("")
    with pytest.raises(UnsafeCacheError, match="is not a folder"):
        ivy.transpile(net, to="ivy", args=(_x(),))


# --------------------------------------------------------------------------- entries


def _warned(run: Any) -> tuple[Any, list[str]]:
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        out = run()
    return out, [str(w.message) for w in got if issubclass(w.category, UserWarning)]


def test_an_edited_entry_is_discarded_rebuilt_and_never_used(cache_dir: Path, net: Net, tmp_path: Path) -> None:
    """Edits of an entry's document, with its hash left as it was (damage, a careless edit) and
    with the hash recomputed (a deliberate one, which the schema then refuses): every time a
    warning, the program read again from the object, the right answer, no marker file."""
    x = _x()
    want = np.asarray(net(x))
    ivy.transpile(net, to="ivy", args=(x,))
    doc_path, data_path, digest_path = _entry(cache_dir)
    original = json.loads(doc_path.read_text())
    marker = tmp_path / "MARKER"
    cmd = f"__import__('os').system('touch {marker}')"
    node = next(i for i, n in enumerate(original["graph"]["nodes"]) if n["kwargs"]["$dict"])
    edits = {
        "keyword name": ("graph", "nodes", node, "kwargs", "$dict", 0, 0),
        "shape entry": ("values", 0, "shape", 0),
        "op name": ("graph", "nodes", 0, "op"),
        "dtype": ("values", 0, "dtype"),
    }
    tried = 0
    for what, path in edits.items():
        for rehash in (False, True):
            doc = json.loads(json.dumps(original))
            parent = doc
            for p in path[:-1]:
                parent = parent[p]
            parent[path[-1]] = cmd
            text = json.dumps(doc).encode()
            doc_path.write_bytes(text)
            if rehash:
                digest_path.write_text(_cache.digest(text, data_path.read_bytes()))
            out, warned = _warned(lambda: ivy.transpile(net, to="ivy", args=(x,)))
            assert any("discarding the transpile cache entry" in w for w in warned), (what, rehash, warned)
            reason = "schema" if rehash else "hash"
            assert ("does not match its hash" in " ".join(warned)) == (reason == "hash"), warned
            np.testing.assert_allclose(np.asarray(out(x)), want, rtol=1e-6)
            assert json.loads(doc_path.read_text()) == original  # written anew
            assert not marker.exists()
            tried += 1
    assert tried == 8


def test_damaged_data_and_a_missing_hash(cache_dir: Path, net: Net) -> None:
    x = _x()
    ivy.transpile(net, to="ivy", args=(x,))
    doc_path, data_path, digest_path = _entry(cache_dir)
    data_path.write_bytes(data_path.read_bytes()[:-3])  # (a truncated copy)
    out, warned = _warned(lambda: ivy.transpile(net, to="ivy", args=(x,)))
    assert any("does not match its hash" in w for w in warned)
    np.testing.assert_allclose(np.asarray(out(x)), np.asarray(net(x)), rtol=1e-6)
    digest_path.unlink()  # an entry whose hash is missing is not an entry (one being written): a miss
    out, warned = _warned(lambda: ivy.transpile(net, to="ivy", args=(x,)))
    assert not warned and digest_path.exists()


def test_clear_removes_the_hashes_too(cache_dir: Path, net: Net) -> None:
    ivy.transpile(net, to="ivy", args=(_x(),))
    assert ivy.transpile.clear_cache() == 1
    assert list(cache_dir.iterdir()) == []


# --------------------------------------------------------------------------- stale programs

_MODULE = """
import ivy

SCALE = {scale}
MODE = {mode!r}


def shift(x):
    return ivy.add(x, OFFSET)


OFFSET = {offset}


class Base(ivy.Module):
    def act(self, x):
        return ivy.tanh(x) if MODE == "tanh" else ivy.relu(x)


class Net(Base):
    def __init__(self):
        self.fc = ivy.Linear(3, 2)
        ivy.Module.__init__(self)

    def _forward(self, x):
        return shift(self.scaled(self.act(self.fc(x))))

    def scaled(self, y):
        return ivy.multiply(y, SCALE)
"""


def _module(tmp_path: Path, name: str, **values: Any) -> Any:
    settings = {"scale": 2.0, "mode": "relu", "offset": 0.0, **values}
    tmp_path.mkdir()
    (tmp_path / f"{name}.py").write_text(textwrap.dedent(_MODULE.format(**settings)))
    sys.path.insert(0, str(tmp_path))
    try:
        __import__(name)
    finally:
        sys.path.remove(str(tmp_path))
    return sys.modules.pop(name)


@pytest.mark.parametrize(
    ("name", "change"),
    [("scale", {"scale": 3.0}), ("mode", {"mode": "tanh"}), ("offset", {"offset": 1.0})],
    ids=["a global a helper method reads", "a global a base class's method reads", "a global a helper function reads"],
)
def test_a_global_any_method_reads_is_in_the_fingerprint(tmp_path: Path, name: str, change: dict[str, Any]) -> None:
    """Two modules of the same source, one global set otherwise (as another process would):
    another fingerprint, and a transpile of each gives its own answer through the one cache."""
    a = _module(tmp_path / "a", f"stale_{name}_a")
    b = _module(tmp_path / "b", f"stale_{name}_b", **change)
    with ivy.use_backend("numpy"):
        na, nb = a.Net(), b.Net()
        na(_x())
        nb(_x())
    nb.v = na.v  # (the same weights: only the global differs)
    assert fingerprint(na) != fingerprint(nb)
    x = _x()
    for n in (na, nb):
        got = ivy.transpile(n, to="ivy", args=(x,))(x)
        np.testing.assert_allclose(np.asarray(got), np.asarray(n(x)), rtol=1e-6)


def test_installed_code_is_followed_by_its_plain_values_only() -> None:
    """A function of user code calling into an installed library (here the standard library's
    ``textwrap``, whose globals hold compiled regular expressions): the library's objects are
    named, not walked, so the function is fingerprinted; the user's globals still count."""

    def user(s: str) -> str:
        return textwrap.dedent(s)

    assert code_fingerprint(user) is not None
    assert code_fingerprint(user) == code_fingerprint(user)


def test_a_user_function_inside_a_library_decorator_is_followed() -> None:
    """A library's wrapper (here ``contextlib.contextmanager``'s) holds the user's function in
    its closure: the globals that function reads count."""
    import contextlib
    import types

    mod = types.ModuleType("user_code_for_test")
    exec("G = 1\ndef user():\n    yield G\n", mod.__dict__)  # a module of user code
    wrapped = contextlib.contextmanager(mod.user)
    before = code_fingerprint(wrapped)
    mod.G = 2
    assert before is not None and code_fingerprint(wrapped) != before
