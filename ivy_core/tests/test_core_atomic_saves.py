"""Saves are atomic: a file Ivy writes is replaced whole or not at all.

The kill test: a child process saves in a loop, alternating two versions (``save_file``,
``save_checkpoint``, ``Module.save_weights``, ``Container.save``, ``Graph.save``), and is killed
with SIGKILL at random moments; every file at its path must then be, byte for byte, one of the
versions written, and load as that version. A graph's two files may be caught between their two
renames: that pair must be refused, never loaded. The children are forked from one ``python -c``
process (the numpy backend), so that a trial costs a fork, not an interpreter start.
"""

from __future__ import annotations

import json
import os
import random
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

import ivy
from ivy import _atomic

# ------------------------------------------------------------------------- the atomic writer


def _entries(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


def test_core_atomic_write_replaces_whole_and_keeps_the_permissions(tmp_path: Path) -> None:
    target = tmp_path / "f.bin"
    target.write_bytes(b"old")
    os.chmod(target, 0o640)
    _atomic.write_bytes(target, [b"new ", b"content"])
    assert target.read_bytes() == b"new content"
    assert stat.S_IMODE(target.stat().st_mode) == 0o640
    assert _entries(tmp_path) == ["f.bin"]
    # a new file gets the permissions open() gives it (the umask's)
    plain = tmp_path / "plain"
    plain.write_text("x")
    _atomic.write_text(tmp_path / "new.txt", "héllo\n")
    assert (tmp_path / "new.txt").read_text(encoding="utf-8") == "héllo\n"
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == stat.S_IMODE(plain.stat().st_mode)


@pytest.mark.parametrize("error", [RuntimeError, KeyboardInterrupt])
def test_core_atomic_write_interrupted_leaves_the_old_file(tmp_path: Path, error: type[BaseException]) -> None:
    target = tmp_path / "f.bin"
    target.write_bytes(b"old")

    def chunks() -> Any:
        yield b"partly written"
        raise error("stop")

    with pytest.raises(error):
        _atomic.write_bytes(target, chunks())
    assert target.read_bytes() == b"old"
    assert _entries(tmp_path) == ["f.bin"]  # (the temporary file is gone too)


@pytest.mark.skipif(not hasattr(os, "symlink") or sys.platform == "win32", reason="POSIX symbolic links")
def test_core_atomic_write_goes_through_a_symbolic_link(tmp_path: Path) -> None:
    real = tmp_path / "real.bin"
    real.write_bytes(b"old")
    (tmp_path / "link.bin").symlink_to(real)
    _atomic.write_bytes(tmp_path / "link.bin", b"new")
    assert (tmp_path / "link.bin").is_symlink() and real.read_bytes() == b"new"


def test_core_atomic_write_errors_name_the_target(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "f.bin"
    with pytest.raises(FileNotFoundError) as err:
        _atomic.write_bytes(missing, b"x")
    assert err.value.filename == str(missing)
    (tmp_path / "folder").mkdir()
    with pytest.raises(OSError):
        _atomic.write_bytes(tmp_path / "folder", b"x")
    assert _entries(tmp_path) == ["folder"] and _entries(tmp_path / "folder") == []


@pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() == 0, reason="root writes read-only files")
def test_core_atomic_write_keeps_a_read_only_file(tmp_path: Path) -> None:
    target = tmp_path / "f.bin"
    target.write_bytes(b"old")
    os.chmod(target, 0o444)
    with pytest.raises(PermissionError):  # (as open(target, "wb") raises)
        _atomic.write_bytes(target, b"new")
    assert target.read_bytes() == b"old" and _entries(tmp_path) == ["f.bin"]


def test_core_graph_save_pairs_its_two_files(tmp_path: Path) -> None:
    import numpy as np

    x = np.arange(6, dtype="float32")
    ga = ivy.trace_graph(lambda t: t + ivy.asarray(np.ones(6, "float32")), args=(x,))
    gb = ivy.trace_graph(lambda t: t * ivy.asarray(np.full(6, 2, "float32")), args=(x,))
    ga.save(tmp_path / "a")
    gb.save(tmp_path / "b")
    np.testing.assert_array_equal(ivy.Graph.load(tmp_path / "a.json")(x), x + 1)
    # the document of one save beside the data of another (a crash between the two renames)
    (tmp_path / "a.safetensors").write_bytes((tmp_path / "b.safetensors").read_bytes())
    with pytest.raises(ValueError, match="a.safetensors"):
        ivy.Graph.load(tmp_path / "a.json")


# ------------------------------------------------------------------------------- the kill test

N = 1 << 17  # float32 elements of each large array: 512 KiB, writes that take a while

# The child: builds the objects, writes both versions of every file once (the references), puts
# version A at the live paths, prints the time one round of saves takes, then forks a saver
# on every "go" line it reads (printing its pid); the saver alternates B and A until killed.
CHILD = r"""
import os, signal, sys, time
import numpy as np
import ivy

root, N = sys.argv[1], int(sys.argv[2])
x = np.linspace(-1, 1, N, dtype="float32")
const = {"A": np.arange(N, dtype="float32"), "B": np.arange(N, dtype="float32") * -2}
model = ivy.Sequential(ivy.Linear(256, N // 256), backend="numpy")
weights = {s: model.v.map(lambda w, _, s=s: np.full(w.shape, 1.0 if s == "A" else -3.0, "float32")) for s in "AB"}
opt = ivy.Adam(1e-2)
opt.load_state_dict({"step_count": 5, "state": {"mw": weights["A"], "vw": weights["A"]}})
graphs = {
    "A": ivy.trace_graph(lambda t: t + ivy.asarray(const["A"]), args=(x,)),
    "B": ivy.trace_graph(lambda t: t * ivy.asarray(const["B"]), args=(x,)),
}

def save(folder, s):
    os.makedirs(folder, exist_ok=True)
    ivy.safetensors.save_file({"x": const[s]}, os.path.join(folder, "file.safetensors"), {"v": s})
    model.v = weights[s]
    ivy.save_checkpoint(os.path.join(folder, "ckpt.safetensors"), model, opt, step=1 if s == "A" else 2)
    model.save_weights(os.path.join(folder, "weights.safetensors"))
    ivy.Container(c={"d": const[s]}).save(os.path.join(folder, "cont.safetensors"))
    graphs[s].save(os.path.join(folder, "graph.json"))

save(os.path.join(root, "A"), "A")
start = time.perf_counter()
save(os.path.join(root, "B"), "B")
took = time.perf_counter() - start
save(os.path.join(root, "live"), "A")
signal.signal(signal.SIGCHLD, signal.SIG_IGN)  # (killed savers are reaped by the kernel)
print(took, flush=True)
for line in sys.stdin:
    pid = os.fork()
    if pid == 0:
        try:
            i = 0
            while True:
                save(os.path.join(root, "live"), "BA"[i % 2])
                i += 1
        finally:
            os._exit(1)
    print(pid, flush=True)
"""

FILES = ("file.safetensors", "ckpt.safetensors", "weights.safetensors", "cont.safetensors")


def _loads_as(name: str, path: Path, version: str) -> None:
    """Load ``path`` with the loader of what wrote it, and compare with the version's values."""
    import numpy as np

    ar = np.arange(N, dtype="float32")
    const = ar if version == "A" else ar * -2
    fill = 1.0 if version == "A" else -3.0
    if name == "file.safetensors":
        got = ivy.safetensors.load_file(path, backend="numpy")
        np.testing.assert_array_equal(got["x"], const)
        assert ivy.safetensors.read_header(path)[1] == {"v": version}
    elif name == "cont.safetensors":
        np.testing.assert_array_equal(ivy.Container.load(path, backend="numpy")["c/d"], const)
    else:
        model = ivy.Sequential(ivy.Linear(256, N // 256), backend="numpy")
        if name == "weights.safetensors":
            model.load_weights(path)
        else:
            opt = ivy.Adam(1e-2)
            assert ivy.load_checkpoint(path, model, opt)["step"] == (1 if version == "A" else 2)
            assert opt.step_count == 5
        for k, w in model.v.to_flat_dict().items():
            np.testing.assert_array_equal(w, np.full(w.shape, fill, "float32"), err_msg=k)


def _graph_loads_as(path: Path, version: str) -> None:
    import numpy as np

    x = np.linspace(-1, 1, N, dtype="float32")
    ar = np.arange(N, dtype="float32")
    want = x + ar if version == "A" else x * (ar * -2)
    np.testing.assert_array_equal(ivy.Graph.load(path)(x), want)


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "win32", reason="SIGKILL and fork: POSIX")
def test_core_saves_killed_at_random_moments_leave_a_whole_earlier_version(tmp_path: Path) -> None:
    trials, rng = 10, random.Random(20251202)
    log = (tmp_path / "child.log").open("w")
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    env.pop("IVY_BACKEND", None)
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(tmp_path), str(N)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=log,
        text=True,
        env=env,
    )
    assert child.stdin is not None and child.stdout is not None
    savers: list[int] = []
    try:
        first = child.stdout.readline()
        if not first:
            child.wait(timeout=600)
            pytest.fail(f"the saving process failed:\n{(tmp_path / 'child.log').read_text()}")
        round_s = float(first)
        refs = {
            s: {n: (tmp_path / s / n).read_bytes() for n in (*FILES, "graph.json", "graph.safetensors")} for s in "AB"
        }
        live = tmp_path / "live"
        verified: set[tuple[str, str]] = set()
        mismatched_pairs = 0
        for trial in range(trials):
            child.stdin.write("go\n")
            child.stdin.flush()
            pid = int(child.stdout.readline())
            savers.append(pid)
            time.sleep(rng.uniform(0.0, 2.0 * round_s))
            os.kill(pid, signal.SIGKILL)
            deadline = time.monotonic() + 30
            while not _gone(pid):
                assert time.monotonic() < deadline, f"the saver {pid} outlived SIGKILL"
                time.sleep(0.001)
            for name in FILES:
                raw = (live / name).read_bytes()
                version = next((s for s in "AB" if raw == refs[s][name]), None)
                assert version is not None, f"trial {trial}: {name} is no version written ({len(raw)} bytes)"
                if (name, version) not in verified:
                    _loads_as(name, live / name, version)
                    verified.add((name, version))
            doc, data = (live / "graph.json").read_bytes(), (live / "graph.safetensors").read_bytes()
            docs = [s for s in "AB" if doc == refs[s]["graph.json"]]
            datas = [s for s in "AB" if data == refs[s]["graph.safetensors"]]
            assert docs and datas, f"trial {trial}: a graph file is no version written"
            if docs == datas:
                if ("graph", docs[0]) not in verified:
                    _graph_loads_as(live / "graph.json", docs[0])
                    verified.add(("graph", docs[0]))
            else:  # killed between the two renames: the pair must be refused
                mismatched_pairs += 1
                with pytest.raises(ValueError, match="graph.safetensors"):
                    ivy.Graph.load(live / "graph.json")
        assert {v for _, v in verified} <= {"A", "B"} and verified  # (every file was checked)
    finally:
        child.stdin.close()
        for pid in savers:
            if not _gone(pid):
                os.kill(pid, signal.SIGKILL)
        child.wait(timeout=600)
        log.close()
    # (how many kills fell inside a write: each leaves a temporary file behind)
    stray = [p.name for p in live.iterdir() if p.name.endswith(".tmp")]
    assert all(p.startswith(".") for p in stray)
    print(json.dumps({"trials": trials, "killed_mid_write": len(stray), "mismatched_pairs": mismatched_pairs}))
