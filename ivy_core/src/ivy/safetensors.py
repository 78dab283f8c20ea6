"""The safetensors file format, in pure Python (no framework, no ``safetensors`` package).

A file is: 8 bytes (little-endian unsigned) giving the length ``n`` of a JSON header; the ``n``
bytes of the header; then the raw data. The header maps each tensor name to
``{"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}`` (offsets into the data, which
the tensors cover contiguously), plus an optional ``"__metadata__"`` mapping of strings. The data
are the tensors' C-order bytes, little-endian. See https://github.com/huggingface/safetensors.

Reading accepts exactly the files that the reference implementation (the ``safetensors``
package) accepts, and rejects every other one with a ``ValueError`` naming the file and the
field at fault (see :func:`read_header`), before any array is made. Writing replaces the file
atomically: a reader, or a crash during the save, sees the old file or the new one, never a mix.

Arrays are written through :func:`ivy.to_numpy` and read into any backend with
:func:`ivy.asarray` (``backend=``, ``device=``), through NumPy arrays where NumPy is installed
(else through Python lists: slower, the same arrays). Names are Ivy key chains joined with ``"/"``
(``"linear0/w"``).
"""

from __future__ import annotations

import json
import math
import os
import struct
import sys
from array import array as _array
from collections.abc import Mapping
from typing import Any

from . import _api as ivy
from . import _atomic

__all__ = ["save_file", "load_file", "read_header", "DTYPES"]

#: safetensors dtype code -> (Ivy dtype name, item size in bytes): the dtypes Ivy reads and writes.
DTYPES: dict[str, tuple[str, int]] = {
    "BOOL": ("bool", 1),
    "U8": ("uint8", 1),
    "I8": ("int8", 1),
    "I16": ("int16", 2),
    "U16": ("uint16", 2),
    "I32": ("int32", 4),
    "U32": ("uint32", 4),
    "I64": ("int64", 8),
    "U64": ("uint64", 8),
    "F16": ("float16", 2),
    "BF16": ("bfloat16", 2),
    "F32": ("float32", 4),
    "F64": ("float64", 8),
    "C64": ("complex64", 8),
}
# Every code of the format, with its size in bits: the 8-bit and narrower floats are valid in a
# file, but no Ivy backend has them (load_file refuses them, naming the tensor).
_FORMAT_BITS: dict[str, int] = {code: 8 * size for code, (_, size) in DTYPES.items()}
_FORMAT_BITS.update(F8_E5M2=8, F8_E4M3=8, F8_E8M0=8, F8_E4M3FNUZ=8, F8_E5M2FNUZ=8, F4=4, F6_E2M3=6, F6_E3M2=6)
_CODE = {name: code for code, (name, _) in DTYPES.items()}
# array-module typecodes of each fixed size (checked at import: C types vary by platform)
_TYPECODES: dict[tuple[str, int], str] = {}
for _tc in "bBhHiIlLqQfd":
    _kind = "f" if _tc in "fd" else ("u" if _tc.isupper() else "i")
    _TYPECODES.setdefault((_kind, _array(_tc).itemsize), _tc)
_MAX_HEADER = 100_000_000  # the reference's limit on the header length
_U64 = 2**64 - 1  # offsets, dimensions and sizes are unsigned 64-bit in the reference
_MAX_DIM = 2**63 - 1  # the largest dimension an array can have (NumPy's, torch's)
_MAX_DEPTH = 127  # nesting of JSON arrays and objects, the header object included
_FIELDS = ("dtype", "shape", "data_offsets")


# ---------------------------------------------------------------------------------- writing


def save_file(
    tensors: Mapping[str, Any], path: str | os.PathLike[str], metadata: Mapping[str, str] | None = None
) -> None:
    """Write native arrays of any backend to a safetensors file, atomically.

    The file is written to a temporary file beside ``path`` and renamed over it once complete
    (flushed to disk): an interrupted save leaves the previous file as it was.

    Args:
        tensors: name -> native array (any backend; converted with :func:`ivy.to_numpy`).
        path: the file to write.
        metadata: optional string -> string metadata, stored as ``"__metadata__"``.

    Raises:
        TypeError: a value is not an array, a name is not a string, or a metadata key or value
            is not a string.
        ValueError: an array has a dtype that safetensors cannot store (complex128), or a name
            is ``"__metadata__"`` or not valid Unicode.
    """
    header: dict[str, Any] = {}
    if metadata:
        for k, v in metadata.items():
            if not (isinstance(k, str) and isinstance(v, str)):
                raise TypeError(f"safetensors metadata must map strings to strings, got {k!r}: {v!r}")
            _check_text(k, "a metadata key")
            _check_text(v, f"metadata {k!r}")
        header["__metadata__"] = dict(metadata)
    arrays: list[tuple[str, Any]] = []
    for name, x in tensors.items():
        if not isinstance(name, str):
            raise TypeError(f"tensor names must be strings, got {name!r}")
        if name == "__metadata__":
            raise ValueError("'__metadata__' cannot name a tensor: the format keeps it for the metadata")
        _check_text(name, "a tensor name")
        a = ivy.to_numpy(x)
        if a.dtype.name not in _CODE:
            raise ValueError(f"{name!r}: safetensors cannot store dtype {a.dtype.name}")
        arrays.append((name, a))
    # The data go largest item size first (as the reference writer places them): each tensor then
    # starts at a multiple of its item size, which zero-copy readers need.
    order = sorted(range(len(arrays)), key=lambda i: -arrays[i][1].dtype.itemsize)
    blobs: list[bytes] = []
    offset = 0
    for i in order:
        name, a = arrays[i]
        if sys.byteorder == "big" and a.dtype.itemsize > 1:
            a = a.byteswap()
        data = a.tobytes(order="C")
        header[name] = {
            "dtype": _CODE[a.dtype.name],
            "shape": list(a.shape),
            "data_offsets": [offset, offset + len(data)],
        }
        blobs.append(data)
        offset += len(data)
    if "__metadata__" in header:  # (first, where readers look for it)
        header = {"__metadata__": header.pop("__metadata__"), **{n: header[n] for n, _ in arrays}}
    else:
        header = {n: header[n] for n, _ in arrays}
    raw = json.dumps(header, separators=(",", ":")).encode("utf-8")
    raw += b" " * (-len(raw) % 8)  # the data start 8-byte aligned, as the reference writer does
    _atomic.write_bytes(path, [struct.pack("<Q", len(raw)), raw, *blobs])


def _check_text(s: str, what: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate: the reference rejects the file it would make
        raise ValueError(f"{what} is not valid Unicode (it holds a lone surrogate): {s!r}") from None


# ---------------------------------------------------------------------------------- reading


class _Pairs(list[Any]):
    """A JSON object as its ``(key, value)`` pairs, in order, duplicates kept."""


class _Reject(ValueError):
    """A header the reference implementation refuses: ``field`` and ``problem``."""

    def __init__(self, field: str, problem: str):
        super().__init__(f"{field}: {problem}")


def _bad_constant(name: str) -> Any:
    raise _Reject("header", f"{name} is not JSON")


def _parse_int(text: str) -> Any:
    # "-0" is a float to the reference's JSON parser (and so no offset or dimension)
    return -0.0 if text == "-0" else int(text)


def _parse_float(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        raise _Reject("header", f"the number {text} is out of range")
    return value


_DECODER = json.JSONDecoder(
    object_pairs_hook=_Pairs, parse_constant=_bad_constant, parse_int=_parse_int, parse_float=_parse_float
)


def _json(text: str) -> Any:
    try:
        doc = _DECODER.decode(text)
    except _Reject:
        raise
    except RecursionError:
        raise _Reject("header", f"JSON nested deeper than {_MAX_DEPTH} levels") from None
    except ValueError as e:  # (JSONDecodeError, and int() of a number with too many digits)
        raise _Reject("header", f"not valid JSON ({e})") from None
    stack: list[tuple[Any, int]] = [(doc, 1)]
    while stack:  # the limits of the reference's parser: nesting depth, and valid Unicode strings
        x, depth = stack.pop()
        if isinstance(x, str):
            _check_string(x)
        elif isinstance(x, list):
            if depth > _MAX_DEPTH:
                raise _Reject("header", f"JSON nested deeper than {_MAX_DEPTH} levels")
            for item in x:
                if isinstance(x, _Pairs):
                    _check_string(item[0])
                    stack.append((item[1], depth + 1))
                else:
                    stack.append((item, depth + 1))
    return doc


def _check_string(s: str) -> None:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        raise _Reject("header", f"the string {s!r} holds a lone surrogate escape (not valid Unicode)") from None


def _usize(x: Any) -> bool:
    return type(x) is int and 0 <= x <= _U64


def _entry(name: str, value: Any) -> dict[str, Any]:
    """A tensor's header entry, checked as the reference reads it (an object with the three
    fields, unknown fields ignored; or the array ``[dtype, shape, data_offsets]``)."""
    where = f"tensor {name!r}"
    if isinstance(value, _Pairs):
        fields: dict[str, Any] = {}
        for k, v in value:
            if k in _FIELDS:
                if k in fields:
                    raise _Reject(where, f"the field {k!r} appears twice")
                fields[k] = v
        missing = [k for k in _FIELDS if k not in fields]
        if missing:
            raise _Reject(where, f"the field {missing[0]!r} is missing")
    elif isinstance(value, list):
        if len(value) != 3:
            raise _Reject(where, f"an entry given as an array must hold [dtype, shape, data_offsets], got {value!r}")
        fields = dict(zip(_FIELDS, value))
    else:
        raise _Reject(where, f"the entry must be an object with dtype, shape and data_offsets, got {value!r}")
    code = fields["dtype"]
    # the reference also reads an enum variant written as {"F32": null}
    if isinstance(code, _Pairs) and len(code) == 1 and code[0][1] is None:
        code = code[0][0]
    if not isinstance(code, str) or code not in _FORMAT_BITS:
        raise _Reject(f"{where} dtype", f"{_show(code)} is not a safetensors dtype (one of {', '.join(_FORMAT_BITS)})")
    shape = fields["shape"]
    if not isinstance(shape, list) or isinstance(shape, _Pairs) or not all(_usize(d) for d in shape):
        raise _Reject(f"{where} shape", f"{_show(shape)} is not a list of non-negative integers")
    offsets = fields["data_offsets"]
    if isinstance(offsets, _Pairs) or not isinstance(offsets, list) or len(offsets) != 2:
        raise _Reject(f"{where} data_offsets", f"{_show(offsets)} is not a pair [begin, end]")
    if not all(_usize(o) for o in offsets):
        raise _Reject(f"{where} data_offsets", f"{_show(offsets)} are not non-negative integers")
    return {"dtype": code, "shape": list(shape), "data_offsets": list(offsets)}


def _show(x: Any) -> str:
    if isinstance(x, _Pairs):
        return "{" + ", ".join(f"{json.dumps(k)}: {_show(v)}" for k, v in x) + "}"
    if isinstance(x, list):
        return "[" + ", ".join(_show(v) for v in x) + "]"
    return json.dumps(x) if isinstance(x, (str, bool)) or x is None else repr(x)


def _metadata(value: Any) -> dict[str, str]:
    if value is None:
        return {}
    if not isinstance(value, _Pairs):
        raise _Reject("__metadata__", f"must be an object mapping strings to strings, got {_show(value)}")
    out: dict[str, str] = {}
    for k, v in value:
        if not isinstance(v, str):
            raise _Reject("__metadata__", f"the value of {k!r} is {_show(v)}, not a string")
        out[k] = v
    return out


def _layout(entries: dict[str, dict[str, Any]], data_size: int) -> None:
    """Check the data offsets as the reference does: sorted by offsets, the tensors cover the
    data from its first byte to its last, contiguously, each with exactly its size."""
    end, prev = 0, None
    for name, e in sorted(entries.items(), key=lambda item: tuple(item[1]["data_offsets"])):
        b, stop = e["data_offsets"]
        field = f"tensor {name!r} data_offsets"
        if stop < b:
            raise _Reject(field, f"[{b}, {stop}] end before they begin")
        if b < end:
            raise _Reject(field, f"[{b}, {stop}] overlap the data of tensor {prev!r}, which end at byte {end}")
        if b > end:
            raise _Reject(field, f"[{b}, {stop}] leave the bytes [{end}, {b}) of the data to no tensor")
        count = 1
        for d in e["shape"]:  # (in order, as the reference multiplies: an overflow is an error)
            count *= d
            if count > _U64:
                raise _Reject(f"tensor {name!r} shape", f"{e['shape']} has more elements than 2**64")
        bits = count * _FORMAT_BITS[e["dtype"]]
        if bits // 8 > _U64:
            raise _Reject(f"tensor {name!r} shape", f"{e['shape']} of {e['dtype']} is larger than 2**64 bytes")
        if bits % 8:
            raise _Reject(f"tensor {name!r} shape", f"{e['shape']} of {e['dtype']} does not end at a byte boundary")
        if stop - b != bits // 8:
            raise _Reject(
                field, f"[{b}, {stop}] hold {stop - b} bytes, but shape {e['shape']} of {e['dtype']} needs {bits // 8}"
            )
        if any(d > _MAX_DIM for d in e["shape"]):
            raise _Reject(f"tensor {name!r} shape", f"{e['shape']} has a dimension larger than 2**63 - 1")
        end, prev = stop, name
    if end != data_size:
        raise _Reject(
            "data_offsets",
            f"the tensors' data end at byte {end} of the data, but the file holds {data_size} bytes of data "
            f"after the header ({'a truncated file' if end > data_size else 'bytes that belong to no tensor'})",
        )


def _read_header(f: Any, path: Any, size: int | None = None) -> tuple[dict[str, dict[str, Any]], dict[str, str], int]:
    """``(entries, metadata, start of the data)``, every field checked; ValueError otherwise.
    ``size``: the file's length (default: the open file's, from the system)."""
    try:
        if size is None:
            size = os.fstat(f.fileno()).st_size
        head = f.read(8)
        if len(head) != 8:
            raise _Reject("header length", f"the file is {len(head)} bytes long, shorter than the 8 bytes giving it")
        (n,) = struct.unpack("<Q", head)
        if n > _MAX_HEADER:
            raise _Reject("header length", f"{n} bytes is over the format's limit of {_MAX_HEADER}")
        if 8 + n > size:
            raise _Reject("header length", f"{n} bytes run past the end of the file ({size} bytes)")
        try:
            text = f.read(n).decode("utf-8")
        except UnicodeDecodeError as e:
            raise _Reject("header", f"not UTF-8 text ({e})") from None
        doc = _json(text)
        if not isinstance(doc, _Pairs):
            raise _Reject("header", f"must be a JSON object, got {type(doc).__name__}")
        entries: dict[str, dict[str, Any]] = {}
        metadata: dict[str, str] = {}
        seen_metadata = False
        for name, value in doc:
            if name == "__metadata__":
                if seen_metadata:
                    raise _Reject("__metadata__", "appears twice")
                seen_metadata = True
                metadata = _metadata(value)
            else:  # a repeated name: the last entry counts, as in the reference
                entries[name] = _entry(name, value)
        _layout(entries, size - 8 - n)
    except _Reject as e:
        raise ValueError(f"{os.fspath(path)}: not a valid safetensors file: {e}") from None
    return entries, metadata, 8 + n


def read_header(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """The tensor entries (``{name: {"dtype", "shape", "data_offsets"}}``) and the metadata of
    a safetensors file, without reading the data.

    The whole header is checked as the reference implementation checks it: the header length
    (within the file and the format's 100 MB limit), UTF-8 JSON (no ``NaN``, no lone surrogate,
    at most 127 levels deep), an object whose ``"__metadata__"`` (once at most) maps strings to
    strings and whose tensors have a known ``dtype``, a ``shape`` of non-negative integers and
    integer ``data_offsets`` that, sorted, cover the data contiguously (no overlap, gap or
    reversed pair) each with exactly its tensor's size, up to the end of the file. A name given
    twice counts once, with its last entry, as in the reference.

    Raises:
        ValueError: the file breaks the format (the message names the file and the field).
        OSError: the file cannot be read.
    """
    with open(path, "rb") as f:
        header, metadata, _ = _read_header(f, path)
    return header, metadata


def _numpy() -> Any:
    """NumPy where it is installed (every in-tree backend needs it), else None."""
    try:
        import numpy
    except ImportError:
        return None
    return numpy


def _host_array(np: Any, code: str, data: bytearray, shape: tuple[int, ...]) -> Any:
    """Little-endian bytes -> a writable NumPy array of the tensor's Ivy dtype (F16 and BF16 as
    float32) in native byte order, over ``data`` where no conversion is needed: read by NumPy in
    C, where :func:`_decode` makes a Python number of each element (a 20 MB file: 0.3-1.4 s)."""
    if code == "BOOL":
        a = np.frombuffer(data, np.uint8) != 0
    elif code == "BF16":  # the upper half of a float32
        a = (np.frombuffer(data, "<u2").astype("<u4") << 16).view("<f4")
    elif code == "F16":
        a = np.frombuffer(data, "<f2").astype("<f4")
    else:
        a = np.frombuffer(data, f"<{code[0].lower()}{DTYPES[code][1]}")
    if not a.dtype.isnative:  # (a big-endian machine)
        a = a.astype(a.dtype.newbyteorder("="))
    return a.reshape(shape)


def _decode(code: str, data: bytearray, count: int) -> list[Any]:
    """Little-endian bytes -> a flat list of Python numbers (where NumPy is not installed)."""
    if code == "BOOL":
        return [b != 0 for b in data]
    if code == "F16":
        return list(struct.unpack(f"<{count}e", data))
    if code == "BF16":  # the upper half of a float32
        halves = _array(_TYPECODES[("u", 2)], data)
        if sys.byteorder == "big":
            halves.byteswap()
        return list(_array("f", _array(_TYPECODES[("u", 4)], (h << 16 for h in halves)).tobytes()))
    if code == "C64":  # (real, imaginary) float32 pairs
        parts = _decode("F32", data, 2 * count)
        return [complex(re, im) for re, im in zip(parts[::2], parts[1::2])]
    kind = "f" if code.startswith("F") else ("u" if code.startswith("U") else "i")
    arr = _array(_TYPECODES[(kind, DTYPES[code][1])], data)
    if sys.byteorder == "big":
        arr.byteswap()
    return arr.tolist()


def load_file(path: str | os.PathLike[str], *, backend: Any = None, device: Any = None) -> dict[str, Any]:
    """Read a safetensors file into native arrays of one backend.

    Args:
        path: the file.
        backend: the Ivy backend to create the arrays with; ``None``: the current backend.
        device: the device to place them on; ``None``: the backend's default device.

    Returns:
        name -> native array, in the order of the file's header. ``F16`` and ``BF16`` tensors are read
        as ``float32`` (Ivy has no 16-bit float dtypes); every other dtype is kept.

    Raises:
        ValueError: the file is not a valid safetensors file (see :func:`read_header`), or holds
            a dtype no Ivy backend has (the 8-bit and narrower floats); nothing is read then.
    """
    out: dict[str, Any] = {}
    np = _numpy()
    with open(path, "rb") as f:
        header, _, start = _read_header(f, path)
        for name, entry in header.items():
            if entry["dtype"] not in DTYPES:
                raise ValueError(
                    f"{os.fspath(path)}: tensor {name!r} dtype: {entry['dtype']} is valid in safetensors, but no Ivy "
                    f"backend has it (Ivy reads {', '.join(DTYPES)})"
                )
        if backend is None and np is not None:  # (NumPy arrays would choose the numpy backend)
            backend = ivy.current_backend()
        for name, entry in header.items():
            code, shape, (b, e) = entry["dtype"], entry["shape"], entry["data_offsets"]
            f.seek(start + b)
            data = bytearray(e - b)  # (writable: arrays over it may be handed to a backend as they are)
            if f.readinto(data) != e - b:  # (the file shrank since its size was checked)
                raise ValueError(f"{os.fspath(path)}: the file ends inside tensor {name!r}")
            dname = DTYPES[code][0]
            dtype = "float32" if dname in ("bfloat16", "float16") else dname
            if np is not None:
                out[name] = ivy.asarray(
                    _host_array(np, code, data, tuple(shape)), dtype=dtype, backend=backend, device=device
                )
                continue
            flat = ivy.asarray(_decode(code, data, math.prod(shape)), dtype=dtype, backend=backend, device=device)
            out[name] = ivy.reshape(flat, tuple(shape))
    return out
