"""The transpile cache never serves a stale program, for each framework's frontend (run in the
process of the backend of the same name, the source framework): a model whose code reads
module-level globals (a scale its helper method reads, a mode string a submodule's helper
method reads, an offset a module-level function reads) gets another fingerprint whenever one of
them holds another value, and a second process where the mode differs gets the source's own
answer (the first process's entry is not used), while the same object in the same state hits
the cache. An edited entry of a real frontend's graph is discarded and rebuilt.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ivy

# each source program: globals set from the environment (a second process sets them otherwise),
# build() -> (object, example args, transpile keywords), reference(obj, args, kw) -> the source's
# answer, and run(transpiled, args) where the transpiled module takes other arrays than the source
_HEAD = """
import os
SCALE = float(os.environ.get("STALE_SCALE", "2.0"))
MODE = os.environ.get("STALE_MODE", "relu")
OFFSET = float(os.environ.get("STALE_OFFSET", "0.0"))
"""
SOURCES = {
    "torch": """
import numpy as np, torch

def shift(x):
    return x + OFFSET

class Act(torch.nn.Module):
    def forward(self, x):
        return self.act(x)

    def act(self, x):
        return torch.tanh(x) if MODE == "tanh" else torch.relu(x)

class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = torch.nn.Linear(3, 4)
        self.act = Act()

    def forward(self, x):
        return shift(self.scaled(self.act(self.fc(x))))

    def scaled(self, y):
        return y * SCALE

def build():
    torch.manual_seed(0)
    x = torch.from_numpy(np.random.default_rng(0).standard_normal((2, 3)).astype("float32"))
    return Net().eval(), (x,), {}

def reference(obj, args, kw):
    return obj(*args).detach().numpy()
""",
    "jax": """
import numpy as np, jax, jax.numpy as jnp
import flax.linen as nn

def shift(x):
    return x + OFFSET

class Act(nn.Module):
    def __call__(self, x):
        return self.act(x)

    def act(self, x):
        return jnp.tanh(x) if MODE == "tanh" else nn.relu(x)

class Net(nn.Module):
    @nn.compact
    def __call__(self, x):
        return shift(self.scaled(Act()(nn.Dense(4)(x))))

    def scaled(self, y):
        return y * SCALE

def build():
    x = jnp.asarray(np.random.default_rng(0).standard_normal((2, 3)).astype("float32"))
    net = Net()
    return net, (x,), {"params_v": net.init(jax.random.PRNGKey(0), x)}

def reference(obj, args, kw):
    return np.asarray(obj.apply(kw["params_v"], *args))

def run(out, args):
    return out(*[np.asarray(a) for a in args])  # (the module's variables are NumPy's: params_v)
""",
    "tensorflow": """
import numpy as np, keras, tensorflow as tf

def shift(x):
    return x + OFFSET

class Act(keras.layers.Layer):
    def call(self, x):
        return self.act(x)

    def act(self, x):
        return tf.tanh(x) if MODE == "tanh" else tf.nn.relu(x)

class Net(keras.Model):
    def __init__(self):
        super().__init__()
        self.fc = keras.layers.Dense(4)
        self.act_layer = Act()

    def call(self, x):
        return shift(self.scaled(self.act_layer(self.fc(x))))

    def scaled(self, y):
        return y * SCALE

def build():
    keras.utils.set_random_seed(0)
    x = tf.constant(np.random.default_rng(0).standard_normal((2, 3)).astype("float32"))
    net = Net()
    net(x)
    return net, (x,), {}

def reference(obj, args, kw):
    return obj(*args).numpy()
""",
    "paddle": """
import numpy as np, paddle

def shift(x):
    return x + OFFSET

class Act(paddle.nn.Layer):
    def forward(self, x):
        return self.act(x)

    def act(self, x):
        return paddle.tanh(x) if MODE == "tanh" else paddle.nn.functional.relu(x)

class Net(paddle.nn.Layer):
    def __init__(self):
        super().__init__()
        self.fc = paddle.nn.Linear(3, 4)
        self.act = Act()

    def forward(self, x):
        return shift(self.scaled(self.act(self.fc(x))))

    def scaled(self, y):
        return y * SCALE

def build():
    paddle.seed(0)
    x = paddle.to_tensor(np.random.default_rng(0).standard_normal((2, 3)).astype("float32"))
    net = Net()
    net.eval()
    return net, (x,), {}

def reference(obj, args, kw):
    return obj(*args).numpy()
""",
    "numpy": """
import numpy as np

def shift(x):
    return x + OFFSET

def act(x):
    return np.tanh(x) if MODE == "tanh" else np.maximum(x, 0.0)

def net(x):
    return shift(act(x @ np.arange(12.0, dtype="float32").reshape(3, 4) / 10.0) * SCALE)

def build():
    return net, (np.random.default_rng(0).standard_normal((2, 3)).astype("float32"),), {}

def reference(obj, args, kw):
    return obj(*args)
""",
}

_DRIVER = """
import logging, sys
import numpy as np
sys.path.insert(0, {folder!r})
import ivy
import stale_source as src
logging.basicConfig(level=logging.DEBUG, format="%(message)s", stream=sys.stdout, force=True)
logging.getLogger("ivy.transpile").setLevel(logging.DEBUG)
obj, args, kw = src.build()
want = src.reference(obj, args, kw)
for _ in range({repeat}):
    out = ivy.transpile(obj, source={source!r}, to="ivy", args=args, **kw)
    got = ivy.to_numpy(src.run(out, args) if hasattr(src, "run") else out(*args))
    print("MAXDIFF", float(np.max(np.abs(np.asarray(got) - np.asarray(want)))))
"""


@pytest.fixture
def source(backend: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Any:
    """The backend's framework as the source: its program module written to a folder and
    imported (a fresh module per test), with a cache of the test's own."""
    if backend not in SOURCES:
        pytest.skip(f"no source program written for {backend}")
    folder = tmp_path / "src"
    folder.mkdir()
    (folder / "stale_source.py").write_text(textwrap.dedent(_HEAD) + textwrap.dedent(SOURCES[backend]))
    monkeypatch.setenv("IVY_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.syspath_prepend(str(folder))
    sys.modules.pop("stale_source", None)
    import stale_source

    yield stale_source
    sys.modules.pop("stale_source", None)


def test_every_global_the_program_reads_is_in_the_frontends_fingerprint(backend: str, source: Any) -> None:
    impl = ivy.transpile._frontends.frontend_impl(backend)
    assert impl.fingerprint is not None
    obj = source.build()[0]
    base = impl.fingerprint(obj)
    assert base, "the program must be cacheable for the test to mean anything"
    for name, other in (("SCALE", 3.0), ("MODE", "tanh"), ("OFFSET", 1.0)):
        was = getattr(source, name)
        setattr(source, name, other)
        try:
            assert impl.fingerprint(obj) != base, f"the fingerprint misses the global {name}"
        finally:
            setattr(source, name, was)
        assert impl.fingerprint(obj) == base


def _run(source_name: str, folder: Path, cache: Path, repeat: int, **env: str) -> str:
    code = _DRIVER.format(folder=str(folder), repeat=repeat, source=source_name)
    full = {**os.environ, "IVY_CACHE_DIR": str(cache), **env}
    full.pop("IVY_BACKEND", None)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=full, timeout=600)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-3000:]
    diffs = [float(line.split()[1]) for line in r.stdout.splitlines() if line.startswith("MAXDIFF")]
    assert len(diffs) == repeat and max(diffs) < 1e-5, r.stdout[-3000:]
    return r.stdout


def test_a_second_process_with_another_global_gets_its_own_answer(backend: str, source: Any, tmp_path: Path) -> None:
    """The first process caches the program (its second transpile hits); the second, whose
    submodule's helper method reads another MODE, must not get that program."""
    folder, cache = Path(source.__file__).parent, tmp_path / "shared-cache"
    first = _run(backend, folder, cache, repeat=2)
    assert first.count("transpile cache hit") == 1, first[-3000:]
    second = _run(backend, folder, cache, repeat=1, STALE_MODE="tanh")
    assert "transpile cache hit" not in second


def test_an_edited_entry_of_a_frontends_graph_is_rebuilt(backend: str, source: Any, tmp_path: Path) -> None:
    obj, args, kw = source.build()
    want = source.reference(obj, args, kw)
    ivy.transpile(obj, source=backend, to="ivy", args=args, **kw)
    cache = Path(os.environ["IVY_CACHE_DIR"])
    (entry,) = cache.glob("*.json")
    marker = tmp_path / "MARKER"
    doc = json.loads(entry.read_text())
    doc["graph"]["nodes"][-1]["op"] = f"__import__('os').system('touch {marker}')"
    entry.write_text(json.dumps(doc))
    with warnings.catch_warnings(record=True) as got:
        warnings.simplefilter("always")
        out = ivy.transpile(obj, source=backend, to="ivy", args=args, **kw)
    assert any("discarding the transpile cache entry" in str(w.message) for w in got)
    got = source.run(out, args) if hasattr(source, "run") else out(*args)
    np.testing.assert_allclose(np.asarray(ivy.to_numpy(got)), np.asarray(want), rtol=1e-5, atol=1e-6)
    assert not marker.exists()


def test_a_generated_corpus_of_edited_entries_is_never_run(backend: str, tmp_path: Path, monkeypatch: Any) -> None:
    """Edits generated from a real entry (``_helpers/corpus.py``: every field by strings that
    would be code, by bad numbers), each with the entry's hash recomputed as a deliberate editor
    would, then ``ivy.transpile`` again (an ``ivy.Module`` of the backend, quick to read again):
    the entry is discarded with a warning and rebuilt, or (an edit the schema accepts: a name, a
    note) used; the answer is the model's, and the marker never appears."""
    from _helpers.corpus import mutants

    from ivy.transpile import _cache

    monkeypatch.setenv("IVY_CACHE_DIR", str(tmp_path / "cache"))
    x = np.random.default_rng(1).standard_normal((4, 3)).astype("float32")
    with ivy.use_backend(backend):
        model = ivy.Sequential(ivy.Linear(3, 4), ivy.Linear(4, 2))
        xb = ivy.asarray(x)
        want = ivy.to_numpy(model(xb))
    ivy.transpile(model, to="ivy", args=(xb,))
    (doc_path,) = (tmp_path / "cache").glob("*.json")
    data = doc_path.with_suffix(".safetensors").read_bytes()
    original = json.loads(doc_path.read_text())
    marker = tmp_path / "MARKER"
    outcomes: dict[str, int] = {}
    for i, m in enumerate(mutants(original, marker)):
        if i % 9:  # (a sample: each one reads the model again; the whole corpus runs in the graph tests)
            continue
        text = json.dumps(m.doc).encode()
        doc_path.write_bytes(text)
        doc_path.with_suffix(".safetensors").write_bytes(data)
        doc_path.with_suffix(".sha256").write_text(_cache.digest(text, data))
        with warnings.catch_warnings(record=True) as got:
            warnings.simplefilter("always")
            out = ivy.transpile(model, to="ivy", args=(xb,))
            answer = ivy.to_numpy(out(xb))
        discarded = any("discarding the transpile cache entry" in str(w.message) for w in got)
        kind = "discarded and rebuilt" if discarded else "used (an edit the schema accepts)"
        outcomes[kind] = outcomes.get(kind, 0) + 1
        np.testing.assert_allclose(answer, want, rtol=1e-5, atol=1e-6, err_msg=repr(m))
        assert not marker.exists(), f"{m} ran code"
    assert outcomes.get("discarded and rebuilt", 0) > 50, outcomes
    print(f"{sum(outcomes.values())} edited entries: {outcomes}")
