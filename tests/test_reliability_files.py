"""Files that Ivy reads: a corpus of malformed safetensors files decided as the reference
implementation (the ``safetensors`` package) decides them, round trips with that package, and
loads that fail without changing anything (``load_checkpoint``, ``Module.load_weights``,
``Optimizer.load_state_dict`` / ``load``): model weights, optimizer state and the global random
state are compared before and after every refused load."""

from __future__ import annotations

import json
import struct
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import ivy
from ivy.testing.convert import native_to_numpy

st_numpy = pytest.importorskip("safetensors.numpy")
from safetensors import safe_open

# ---------------------------------------------------------------------------------------- corpus


def _file(header: Any = None, data: bytes = b"", *, raw: bytes | None = None, length: int | None = None) -> bytes:
    """A safetensors file: ``header`` as JSON (padded to 8 bytes), or the header bytes ``raw``;
    ``length`` overrides the 8-byte header length."""
    text = raw if raw is not None else json.dumps(header, separators=(",", ":")).encode()
    if raw is None:
        text += b" " * (-len(text) % 8)
    return struct.pack("<Q", len(text) if length is None else length) + text + data


def _t(dtype: Any, shape: Any, offsets: Any) -> dict[str, Any]:
    return {"dtype": dtype, "shape": shape, "data_offsets": offsets}


D8, D16 = bytes(range(8)), bytes(range(16))
A = b'{"dtype":"F32","shape":[2],"data_offsets":[0,8]}'
UNKNOWN = b'{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8],"x":%s}}'

#: name -> (file bytes, the field our error names when the file is refused). Whether a file is
#: refused is the reference's decision, found when the test runs (nothing here says it).
CORPUS: dict[str, tuple[bytes, str]] = {
    # accepted by the reference: valid files, including its lenient corners
    "one_tensor": (_file({"a": _t("F32", [2], [0, 8])}, D8), ""),
    "header_order_is_not_offset_order": (_file({"b": _t("I32", [2], [8, 16]), "a": _t("F32", [2], [0, 8])}, D16), ""),
    "unaligned_data": (_file({"a": _t("U8", [1], [0, 1]), "b": _t("F32", [1], [1, 5])}, D8[:5]), ""),
    "zero_size_tensors_anywhere": (
        _file({"z": _t("F32", [0, 3], [0, 0]), "a": _t("I16", [4], [0, 8]), "e": _t("U8", [0], [8, 8])}, D8),
        "",
    ),
    "scalar": (_file({"a": _t("F32", [], [0, 4])}, D8[:4]), ""),
    "empty_header": (_file({}), ""),
    "metadata_null": (_file({"__metadata__": None, "a": _t("U8", [2], [0, 2])}, b"\x01\x02"), ""),
    "metadata_strings": (_file({"__metadata__": {"k": "v", "é": "\\"}}), ""),
    "json_whitespace_around": (_file(raw=b'\n\t {"a":' + A + b"}\r\n ", data=D8), ""),
    "unknown_fields_ignored": (_file(raw=UNKNOWN % b'[-5, 1e5, 123456789012345678901234, {"y": null}]', data=D8), ""),
    "repeated_name_last_counts": (
        _file(raw=b'{"a":{"dtype":"F32","shape":[4],"data_offsets":[0,16]},"a":' + A + b"}", data=D8),
        "",
    ),
    "entry_as_array": (_file(raw=b'{"a":["F32",[2],[0,8]]}', data=D8), ""),
    "dtype_as_unit_variant": (_file(raw=b'{"a":{"dtype":{"F32":null},"shape":[2],"data_offsets":[0,8]}}', data=D8), ""),
    "escapes_in_names": (_file(raw=b'{"\\u0061":{"dtype":"F\\u00332","shape":[2],"data_offsets":[0,8]}}', data=D8), ""),
    "empty_name": (_file({"": _t("F32", [2], [0, 8])}, D8), ""),
    "header_not_padded": (_file(raw=b'{"a":' + A + b"}", data=D8), ""),
    "bool_f16_c64_i64": (
        _file(
            {
                "b": _t("BOOL", [2], [0, 2]),
                "h": _t("F16", [3], [2, 8]),
                "c": _t("C64", [1], [8, 16]),
                "i": _t("I64", [1], [16, 24]),
            },
            b"\x00\x01"
            + struct.pack("<3e", 1.5, -2.0, 65504.0)
            + struct.pack("<2f", 1.0, -2.5)
            + struct.pack("<q", -7),
        ),
        "",
    ),
    "nesting_127_deep": (_file(raw=UNKNOWN % (b"[" * 125 + b"]" * 125), data=D8), ""),
    # refused by the reference
    "overlapping_offsets": (
        _file({"a": _t("F32", [2], [0, 8]), "b": _t("F32", [2], [4, 12])}, D16[:12]),
        "data_offsets",
    ),
    "the_same_offsets_twice": (_file({"a": _t("F32", [2], [0, 8]), "b": _t("F32", [2], [0, 8])}, D8), "data_offsets"),
    "gap_between_tensors": (
        _file({"a": _t("F32", [1], [0, 4]), "b": _t("F32", [1], [8, 12])}, D16[:12]),
        "data_offsets",
    ),
    "gap_at_the_start": (_file({"a": _t("F32", [1], [4, 8])}, D8), "data_offsets"),
    "reversed_offsets": (_file({"a": _t("F32", [0], [8, 0])}, D8), "data_offsets"),
    "negative_offset_reads_the_header": (_file({"a": _t("F32", [2], [-8, 0])}, D8), "data_offsets"),
    "negative_offsets": (_file({"a": _t("F32", [2], [-16, -8])}, D8), "data_offsets"),
    "offsets_past_the_file": (_file({"a": _t("F32", [4], [0, 16])}, D8), "data_offsets"),
    "trailing_bytes": (_file({"a": _t("F32", [2], [0, 8])}, D8 + b"\0"), "data_offsets"),
    "data_after_an_empty_header": (_file({}, D8), "data_offsets"),
    "float_offsets": (_file({"a": _t("F32", [2], [0.0, 8.0])}, D8), "data_offsets"),
    "minus_zero_offset": (
        _file(raw=b'{"a":{"dtype":"F32","shape":[2],"data_offsets":[-0,8]}}', data=D8),
        "data_offsets",
    ),
    "exponent_offset": (
        _file(raw=b'{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8e0]}}', data=D8),
        "data_offsets",
    ),
    "string_offsets": (_file({"a": _t("F32", [2], ["0", "8"])}, D8), "data_offsets"),
    "boolean_offset": (_file({"a": _t("F32", [2], [False, 8])}, D8), "data_offsets"),
    "three_offsets": (_file({"a": _t("F32", [2], [0, 8, 8])}, D8), "data_offsets"),
    "offsets_as_object": (_file({"a": _t("F32", [2], {"0": 0, "1": 8})}, D8), "data_offsets"),
    "offset_past_2_64": (_file({"a": _t("F32", [2], [2**64, 2**64 + 8])}, D8), "data_offsets"),
    "float_dimension": (_file({"a": _t("F32", [2.0], [0, 8])}, D8), "shape"),
    "negative_dimension": (_file({"a": _t("F32", [-2], [0, 8])}, D8), "shape"),
    "boolean_dimension": (_file({"a": _t("U8", [True], [0, 1])}, D8[:1]), "shape"),
    "shape_null": (_file({"a": _t("F32", None, [0, 8])}, D8), "shape"),
    "shape_not_a_list": (_file({"a": _t("F32", 2, [0, 8])}, D8), "shape"),
    "element_count_overflows": (_file({"a": _t("F32", [2**62, 8], [0, 8])}, D8), "shape"),
    "byte_count_overflows": (_file({"a": _t("F64", [2**61], [0, 0])}), "shape"),
    "dimension_past_2_63": (_file({"a": _t("U8", [0, 2**63], [0, 0])}), "shape"),
    "size_differs_from_shape": (_file({"a": _t("F32", [3], [0, 8])}, D8), "data_offsets"),
    "unknown_dtype": (_file({"a": _t("F31", [2], [0, 8])}, D8), "dtype"),
    "lower_case_dtype": (_file({"a": _t("f32", [2], [0, 8])}, D8), "dtype"),
    "dtype_number": (_file({"a": _t(4, [2], [0, 8])}, D8), "dtype"),
    "dtype_object_of_two": (_file({"a": _t({"F32": None, "F64": None}, [2], [0, 8])}, D8), "dtype"),
    "float8_no_backend_has": (_file({"a": _t("F8_E4M3", [8], [0, 8])}, D8), "dtype"),
    "float4_off_a_byte_boundary": (_file({"a": _t("F4", [3], [0, 2])}, D8[:2]), "shape"),
    "missing_dtype": (_file({"a": {"shape": [2], "data_offsets": [0, 8]}}, D8), "'dtype'"),
    "missing_offsets": (_file({"a": {"dtype": "F32", "shape": [2]}}, D8), "'data_offsets'"),
    "field_given_twice": (
        _file(raw=b'{"a":{"dtype":"F32","dtype":"F32","shape":[2],"data_offsets":[0,8]}}', data=D8),
        "'dtype'",
    ),
    "entry_null": (_file({"a": None}), "tensor 'a'"),
    "entry_array_of_two": (_file(raw=b'{"a":["F32",[2]]}', data=D8), "tensor 'a'"),
    "repeated_name_last_is_bad": (
        _file(raw=b'{"a":' + A + b',"a":{"dtype":"F32","shape":[2],"data_offsets":[8,16]}}', data=D16),
        "data_offsets",
    ),
    "header_length_past_the_file": (_file({"a": _t("F32", [2], [0, 8])}, D8, length=10_000), "header length"),
    "header_length_over_the_limit": (_file({}, length=100_000_001), "header length"),
    "header_length_2_63": (_file({}, length=2**63), "header length"),
    "shorter_than_8_bytes": (b"\x05\x00", "header length"),
    "empty_file": (b"", "header length"),
    "header_length_zero": (struct.pack("<Q", 0), "header"),
    "not_json": (_file(raw=b"{not json}      "), "header"),
    "json_array": (_file(raw=b"[1,2,3]         "), "header"),
    "json_string": (_file(raw=b'"abc"   '), "header"),
    "json_null": (_file(raw=b"null    "), "header"),
    "garbage_after_the_object": (_file(raw=b"{}x     "), "header"),
    "nul_padding": (_file(raw=b"{}\0\0\0\0\0\0"), "header"),
    "byte_order_mark": (_file(raw=b"\xef\xbb\xbf{}   "), "header"),
    "no_break_space_before": (_file(raw="\u00a0{}".encode() + b"    "), "header"),
    "not_utf8": (_file(raw=b'{"\xff":1}       '[:16]), "header"),
    "nan": (_file(raw=b'{"a":{"dtype":"F32","shape":[NaN],"data_offsets":[0,8]}}', data=D8), "header"),
    "infinity_in_an_unknown_field": (_file(raw=UNKNOWN % b"Infinity", data=D8), "header"),
    "number_out_of_range": (_file(raw=UNKNOWN % b"1e999", data=D8), "header"),
    "lone_surrogate_name": (_file(raw=b'{"\\ud800":' + A + b"}", data=D8), "header"),
    "lone_surrogate_in_an_unknown_field": (_file(raw=UNKNOWN % b'"\\udc00"', data=D8), "header"),
    "control_character": (_file(raw=b'{"a\x01":' + A + b"}", data=D8), "header"),
    "trailing_comma": (_file(raw=b'{"a":{"dtype":"F32","shape":[2],"data_offsets":[0,8],}}', data=D8), "header"),
    "nesting_128_deep": (_file(raw=UNKNOWN % (b"[" * 126 + b"]" * 126), data=D8), "header"),
    "metadata_twice": (_file(raw=b'{"__metadata__":{"a":"b"},"__metadata__":{"c":"d"}}'), "__metadata__"),
    "metadata_number": (_file({"__metadata__": {"x": 1}}), "__metadata__"),
    "metadata_nested": (_file({"__metadata__": {"x": {"y": "z"}}}), "__metadata__"),
    "metadata_list": (_file({"__metadata__": ["x"]}), "__metadata__"),
    "metadata_string": (_file({"__metadata__": "x"}), "__metadata__"),
}


@pytest.fixture(scope="module")
def corpus(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("safetensors-corpus")
    out = {}
    for name, (blob, _) in CORPUS.items():
        out[name] = folder / f"{name}.safetensors"
        out[name].write_bytes(blob)
    return out


def _reference(path: Path) -> dict[str, np.ndarray] | None:
    """The reference's reading of ``path``; None where it refuses the file."""
    try:
        return dict(st_numpy.load_file(str(path)))
    except Exception:  # SafetensorError, and numpy lacking a float8 dtype
        return None


@pytest.fixture(params=["numpy", "python"])
def decoder(request, monkeypatch):
    """How Ivy decodes the tensors' bytes: through NumPy (where it is installed), or in pure
    Python (an ivy-core installed without NumPy)."""
    if request.param == "python":
        monkeypatch.setattr(ivy.safetensors, "_numpy", lambda: None)
    return request.param


def test_reliability_safetensors_corpus_decided_as_the_reference(backend, corpus, decoder):
    assert len(corpus) >= 30
    accepted = 0
    for name, path in corpus.items():
        want = _reference(path)
        if want is None:
            with pytest.raises(ValueError) as err:
                ivy.safetensors.load_file(path, backend=backend)
            message = str(err.value)
            assert str(path) in message and CORPUS[name][1] in message, (name, message)
            continue
        accepted += 1
        got = ivy.safetensors.load_file(path, backend=backend)
        assert list(got) == list(dict.fromkeys(want_names(path))), name
        for k, ref in want.items():
            mine = native_to_numpy(backend, got[k])
            ref = ref.astype("float32") if ref.dtype == np.float16 else ref
            assert mine.dtype == ref.dtype and mine.shape == ref.shape, (name, k, mine.dtype, ref.dtype)
            assert mine.tobytes() == ref.tobytes(), (name, k)
        with safe_open(str(path), "np") as f:
            assert ivy.safetensors.read_header(path)[1] == (f.metadata() or {}), name
    assert accepted >= 15


def want_names(path: Path) -> list[str]:
    """The tensor names of a file in the order of its header (the last entry of a repeated name
    counting at the place of its first), read independently of Ivy."""
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    return [k for k in json.loads(raw[8 : 8 + n]) if k != "__metadata__"]


def test_reliability_safetensors_bfloat16_read_as_float32(backend, tmp_path, decoder):
    # NumPy has no bfloat16 (the reference's numpy reader refuses it): its format check, and the
    # definition of bfloat16 (the upper half of a float32), are the reference here
    bits = np.array([0x3FC0, 0xC020, 0x7F80, 0x0001], "<u2")
    path = tmp_path / "bf16.safetensors"
    path.write_bytes(_file({"a": _t("BF16", [2, 2], [0, 8])}, bits.tobytes()))
    with safe_open(str(path), "np") as f:
        assert list(f.keys()) == ["a"]
    got = native_to_numpy(backend, ivy.safetensors.load_file(path, backend=backend)["a"])
    want = (bits.astype("<u4") << 16).view("<f4").reshape(2, 2)
    assert got.dtype == np.float32 and got.tobytes() == want.tobytes()


def test_reliability_safetensors_loads_onto_the_current_backend_by_default(backend, tmp_path, decoder, monkeypatch):
    # the current backend both as one set in the thread and as the default (IVY_BACKEND's, or the
    # first installed), which the NumPy arrays read must not override as arguments of asarray
    path = tmp_path / "a.safetensors"
    want = np.arange(6, dtype="float32").reshape(2, 3)
    st_numpy.save_file({"a": want}, str(path))
    with ivy.use_backend(backend):
        got = ivy.safetensors.load_file(path)["a"]
    monkeypatch.setattr(ivy._registry, "_default", ivy._registry.get_backend(backend))
    assert not ivy._context.is_set()
    for x in (got, ivy.safetensors.load_file(path)["a"]):
        assert ivy.namespace(x) is ivy.backend_namespace(backend)
        np.testing.assert_array_equal(native_to_numpy(backend, x), want)


def test_reliability_safetensors_round_trips_with_the_reference(backend, to_native, tmp_path, decoder):
    arrays = {
        "f32": np.arange(6, dtype="float32").reshape(2, 3) / 7,
        "f64": np.array([np.pi, -0.0, np.inf]),
        "i64": np.array([-(2**40), 3], "int64"),
        "i32": np.array([[7]], "int32"),
        "u8": np.array([0, 255], "uint8"),
        "bool": np.array([True, False, True]),
        "scalar": np.array(2.5, "float32"),
        "empty": np.zeros((0, 4), "float32"),
        "layer/0/w": np.ones((3, 1), "float32"),
    }
    ours = tmp_path / "ours.safetensors"
    ivy.safetensors.save_file({k: to_native(a) for k, a in arrays.items()}, ours, metadata={"who": "ivy", "ü": "é"})
    ref = st_numpy.load_file(str(ours))
    assert sorted(ref) == sorted(arrays)
    for k, a in arrays.items():
        assert ref[k].dtype == a.dtype and ref[k].shape == a.shape and ref[k].tobytes() == a.tobytes(), k
    with safe_open(str(ours), "np") as f:
        assert f.metadata() == {"who": "ivy", "ü": "é"}
    theirs = tmp_path / "theirs.safetensors"
    st_numpy.save_file(arrays, str(theirs), metadata={"who": "reference"})
    back = ivy.safetensors.load_file(theirs, backend=backend)
    for k, a in arrays.items():
        got = native_to_numpy(backend, back[k])
        assert got.dtype == a.dtype and got.shape == a.shape and got.tobytes() == a.tobytes(), k
    assert ivy.safetensors.read_header(theirs)[1] == {"who": "reference"}


def test_reliability_safetensors_writer_refuses_what_it_cannot_store(backend, to_native, tmp_path):
    path = tmp_path / "w.safetensors"
    x = to_native(np.ones(2, "float32"))
    with pytest.raises(ValueError, match="'__metadata__' cannot name a tensor"):
        ivy.safetensors.save_file({"__metadata__": x}, path)
    with pytest.raises(ValueError, match="lone surrogate"):
        ivy.safetensors.save_file({"\ud800": x}, path)
    with pytest.raises(TypeError, match="metadata must map strings to strings"):
        ivy.safetensors.save_file({"x": x}, path, metadata={"n": 1})  # type: ignore[dict-item]
    assert not path.exists() and not list(tmp_path.iterdir())  # (no file, no temporary file left)


# ------------------------------------------------------------------------ loads that change nothing


def _model(backend: str, width: int = 4, layers: int = 2, dtype: str = "float32") -> Any:
    mods = []
    for i in range(layers):
        mods += [ivy.Linear(3 if i == 0 else width, width, dtype=dtype), ivy.ReLU()]
    return ivy.Sequential(*mods, ivy.BatchNorm1D(width), backend=backend)


def _adam_state(backend: str, model: Any, scale: float = 0.1, steps: int = 3) -> dict[str, Any]:
    """An Adam state for ``model`` (moments like its variables), as load_state_dict takes it."""
    v = model.v
    return {
        "step_count": steps,
        "state": {"mw": v.map(lambda x, _: x * scale), "vw": v.map(lambda x, _: x * x * scale)},
    }


def _numpy(tree: Any) -> dict[str, np.ndarray]:
    return {k: np.array(ivy.to_numpy(x)) for k, x in ivy.Container(tree).to_flat_dict().items()}


class _Before:
    """What a refused load must leave as it was: the model's variables and buffers, the
    optimizer's state, counts and rate, and the backend's global random state."""

    def __init__(self, backend: str, model: Any, opt: Any = None):
        self.backend, self.model, self.opt = backend, model, opt
        self.v, self.state = _numpy(model.v), _numpy(model.state)
        if opt is not None:
            self.opt_state, self.counts = _numpy(opt.state), (opt.step_count, opt.micro_step, opt.lr)
        ivy.seed(11, backend=backend)
        self.draw = self._draw()
        ivy.seed(11, backend=backend)

    def _draw(self) -> np.ndarray:
        return np.array(ivy.to_numpy(ivy.random_uniform(shape=(4,), backend=self.backend)))

    def check(self) -> None:
        for name, old, new in (("v", self.v, _numpy(self.model.v)), ("state", self.state, _numpy(self.model.state))):
            assert sorted(old) == sorted(new), name
            for k in old:
                np.testing.assert_array_equal(new[k], old[k], err_msg=f"{name}/{k}")
        if self.opt is not None:
            now = _numpy(self.opt.state)
            assert sorted(now) == sorted(self.opt_state)
            for k in now:
                np.testing.assert_array_equal(now[k], self.opt_state[k], err_msg=f"optimizer {k}")
            assert (self.opt.step_count, self.opt.micro_step, self.opt.lr) == self.counts
        np.testing.assert_array_equal(self._draw(), self.draw, err_msg="the global random state changed")
        ivy.seed(11, backend=self.backend)  # (for the next check)


def _refused(before: _Before, error: Any, *parts: str, call: Any) -> None:
    with pytest.raises(error) as err:
        call()
    for part in parts:
        assert part in str(err.value), (part, str(err.value))
    before.check()


def _checkpoint(backend: str, path: Path, model: Any, opt: Any = None, **kw: Any) -> Path:
    ivy.seed(99, backend=backend)  # (a random state unlike the one the checks draw from)
    ivy.save_checkpoint(path, model, opt, **kw)
    return path


def _fresh(backend: str) -> tuple[Any, Any]:
    """The model and optimizer a refused checkpoint is loaded into, with state of their own."""
    ivy.seed(3, backend=backend)
    model = _model(backend)
    opt = ivy.Adam(1e-2)
    opt.load_state_dict(_adam_state(backend, model, 0.5, 7))
    return model, opt


def test_reliability_load_checkpoint_of_another_optimizer_changes_nothing(backend, tmp_path):
    ivy.seed(1, backend=backend)
    saved = _model(backend)
    sgd = ivy.SGD(0.1, momentum=0.9)
    sgd.load_state_dict({"step_count": 2, "state": {"momentum": saved.v}})
    path = _checkpoint(backend, tmp_path / "sgd.safetensors", saved, sgd)
    model, opt = _fresh(backend)
    before = _Before(backend, model, opt)
    _refused(
        before,
        ValueError,
        str(path),
        "holds the state of SGD, not of Adam",
        call=lambda: ivy.load_checkpoint(path, model, opt),
    )
    # the file's own model loads (the refusal was the optimizer's)
    info = ivy.load_checkpoint(path, _model(backend), ivy.SGD(0.1, momentum=0.9))
    assert info["step"] == 2


def test_reliability_load_checkpoint_of_another_models_adam_state_changes_nothing(backend, tmp_path):
    # the moments of a model whose variables broadcast against these ((1, 4) against (4, 4)...)
    ivy.seed(1, backend=backend)
    saved, other = _model(backend), _model(backend, width=1)
    other_opt = ivy.Adam(1e-2)
    other_opt.load_state_dict(_adam_state(backend, other))
    path = _checkpoint(backend, tmp_path / "mixed.safetensors", saved, other_opt)
    model, opt = _fresh(backend)
    before = _Before(backend, model, opt)
    _refused(
        before,
        (KeyError, ValueError),
        str(path),
        "optimizer state 'mw'",
        call=lambda: ivy.load_checkpoint(path, model, opt),
    )


@pytest.mark.parametrize(
    "case",
    ["missing key chains", "unknown key chains", "integer weights", "shapes", "float64 weights"],
)
def test_reliability_load_checkpoint_of_another_model_changes_nothing(backend, tmp_path, case):
    ivy.seed(1, backend=backend)
    saved = {
        "missing key chains": lambda: _model(backend, layers=1),
        "unknown key chains": lambda: _model(backend, layers=3),
        "integer weights": lambda: _model(backend),  # (its files rewritten with int32 arrays below)
        "shapes": lambda: _model(backend, width=5),
        "float64 weights": lambda: _model(backend, dtype="float64"),
    }[case]()
    path = _checkpoint(backend, tmp_path / "m.safetensors", saved)
    weights = tmp_path / "w.safetensors"
    saved.save_weights(weights)
    if case == "integer weights":  # (torch has no integer variables: the files are edited)
        for p in (path, weights):
            meta = ivy.safetensors.read_header(p)[1]
            st_numpy.save_file({k: a.astype("int32") for k, a in st_numpy.load_file(str(p)).items()}, str(p), meta)
    model, opt = _fresh(backend)
    before = _Before(backend, model, opt)
    if case == "float64 weights":  # the same kind: read, and cast to the model's float32
        ivy.load_checkpoint(path, model, random_state=False)
        got = _numpy(model.v)
        for k, want in _numpy(saved.v).items():
            assert got[k].dtype == np.float32
            np.testing.assert_array_equal(got[k], want.astype("float32"))
        return
    error, part = {
        # (one Linear fewer: the BatchNorm is layers/2, where the model has a Linear; one more: 6)
        "missing key chains": (
            KeyError,
            "missing key chains ['layers/4/b', 'layers/4/running_mean', 'layers/4/running_var', 'layers/4/w']; "
            "unknown key chains ['layers/2/running_mean', 'layers/2/running_var']",
        ),
        "unknown key chains": (
            KeyError,
            "unknown key chains ['layers/6/b', 'layers/6/running_mean', 'layers/6/running_var', 'layers/6/w']",
        ),
        "integer weights": (ValueError, "is int32 in the file, float32 in the module"),
        "shapes": (ValueError, "'layers/0/w' has shape (5, 3) in the file, (4, 3) in the module"),
    }[case]
    _refused(before, error, str(path), part, call=lambda: ivy.load_checkpoint(path, model, opt))
    _refused(before, error, str(weights), part, call=lambda: model.load_weights(weights))


def _rewrite(backend: str, path: Path, **meta: str) -> Path:
    """``path`` with metadata fields replaced (the arrays kept)."""
    arrays = ivy.safetensors.load_file(path, backend=backend)
    _, old = ivy.safetensors.read_header(path)
    out = path.with_name("edited-" + path.name)
    ivy.safetensors.save_file(arrays, out, metadata={**old, **meta})
    return out


@pytest.mark.parametrize(
    "field, value, part",
    [
        ("optimizer_step_count", "three", "optimizer_step_count must be a non-negative integer"),
        ("optimizer_micro_step", "-1", "optimizer_micro_step must be a non-negative integer"),
        ("optimizer_keys", "{not json", "'optimizer_keys' is not a JSON list"),
        ("random_state", "[1]", "'random_state' is not a JSON dict"),
        ("extra", "nan-json", "'extra' is not a JSON dict"),
    ],
)
def test_reliability_load_checkpoint_with_bad_metadata_changes_nothing(backend, tmp_path, field, value, part):
    ivy.seed(1, backend=backend)
    saved = _model(backend)
    adam = ivy.Adam(1e-2)
    adam.load_state_dict(_adam_state(backend, saved))
    path = _rewrite(backend, _checkpoint(backend, tmp_path / "c.safetensors", saved, adam), **{field: value})
    model, opt = _fresh(backend)
    before = _Before(backend, model, opt)
    _refused(before, ValueError, str(path), part, call=lambda: ivy.load_checkpoint(path, model, opt))


def test_reliability_load_checkpoint_undoes_assignments_when_the_last_step_fails(backend, tmp_path):
    # a random state the backend refuses is restored last: the weights and the optimizer state
    # assigned before it are put back
    ivy.seed(1, backend=backend)
    saved = _model(backend)
    adam = ivy.Adam(1e-2)
    adam.load_state_dict(_adam_state(backend, saved))
    bogus = json.dumps({"backend": backend, "state": {"bogus": [1, 2]}})
    path = _rewrite(backend, _checkpoint(backend, tmp_path / "c.safetensors", saved, adam), random_state=bogus)
    model, opt = _fresh(backend)
    before = _Before(backend, model, opt)
    _refused(before, Exception, call=lambda: ivy.load_checkpoint(path, model, opt))
    ivy.load_checkpoint(path, model, opt, random_state=False)  # the rest of the file is sound
    assert opt.step_count == 3


def test_reliability_load_weights_of_a_damaged_file_changes_nothing(backend, tmp_path):
    ivy.seed(1, backend=backend)
    path = tmp_path / "w.safetensors"
    _model(backend).save_weights(path)
    raw = path.read_bytes()
    (n,) = struct.unpack("<Q", raw[:8])
    header = json.loads(raw[8 : 8 + n])
    header["layers/0/w"]["data_offsets"][0] -= 4  # overlaps the tensor before it
    text = json.dumps(header).encode()
    path.write_bytes(struct.pack("<Q", len(text)) + text + raw[8 + n :])
    model = _model(backend)
    before = _Before(backend, model)
    _refused(before, ValueError, str(path), "tensor 'layers/0/w' data_offsets", call=lambda: model.load_weights(path))
    _refused(
        before,
        ValueError,
        str(path),
        "not a valid safetensors file",
        call=lambda: ivy.Container.load(path, backend=backend),
    )


def test_reliability_optimizer_load_state_dict_that_does_not_fit_changes_nothing(backend, tmp_path):
    model, opt = _fresh(backend)
    good = _adam_state(backend, model)
    narrow = _adam_state(backend, _model(backend, width=1))
    ints = {**good, "state": {n: t.map(lambda x, _: ivy.astype(x, "int32")) for n, t in good["state"].items()}}
    before = _Before(backend, model, opt)
    cases = [
        ({**good, "state": {"momentum": model.v}}, ValueError, "does not keep"),  # SGD's state
        ({**good, "state": {"mw": model.v}}, ValueError, "['vw'] missing"),
        (narrow, ValueError, "optimizer state mw: 'layers/0/w' has shape (1, 3) loaded, (4, 3) held"),
        (ints, ValueError, "optimizer state mw: 'layers/0/w' is int32 loaded, float32 held"),
        ({**good, "step_count": -1}, ValueError, "step_count must be a non-negative integer"),
        ({**good, "step_count": 2.5}, ValueError, "step_count must be a non-negative integer"),
        ({**good, "micro_step": 1}, ValueError, "micro_step 1 is not below"),
        ({"state": good["state"]}, KeyError, "step_count"),
    ]
    for state, error, part in cases:
        _refused(before, error, part, call=lambda state=state: opt.load_state_dict(state))
    # an Optimizer.load of another kind's file, and of another model's moments
    sgd = ivy.SGD(0.1, momentum=0.9)
    sgd.load_state_dict({"step_count": 1, "state": {"momentum": model.v}})
    sgd.save(tmp_path / "sgd.safetensors")
    _refused(
        before, ValueError, "holds the state of SGD, not of Adam", call=lambda: opt.load(tmp_path / "sgd.safetensors")
    )
    other = ivy.Adam(1e-2)
    other.load_state_dict(narrow)
    other.save(tmp_path / "narrow.safetensors")
    _refused(
        before,
        ValueError,
        "narrow.safetensors",
        "has shape (1, 3) loaded, (4, 3) held",
        call=lambda: opt.load(tmp_path / "narrow.safetensors"),
    )


def test_reliability_first_step_after_loading_another_models_state_refuses(backend, to_native):
    # a fresh optimizer holds nothing to compare a loaded state with: its first step compares it
    # with the variables, before updating anything
    model = _model(backend)
    opt = ivy.Adam(1e-2).load_state_dict(_adam_state(backend, _model(backend, width=1)))
    before = _Before(backend, model, opt)
    grads = model.v.map(lambda x, _: x * 0 + 1)
    _refused(before, ValueError, "has shape (1, 3), the variable (4, 3)", call=lambda: opt.step(model.v, grads))
    # the right model's state loads, and its first step runs with it
    opt = ivy.Adam(1e-2).load_state_dict(_adam_state(backend, model))
    new = opt.step(model.v, grads)
    assert opt.step_count == 4 and ivy.Container(new).shapes == model.v.shapes
