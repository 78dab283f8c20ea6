"""The safetensors file format, in pure Python (no framework, no ``safetensors`` package).

A file is: 8 bytes (little-endian unsigned) giving the length ``n`` of a JSON header; the ``n``
bytes of the header; then the raw data. The header maps each tensor name to
``{"dtype": "F32", "shape": [2, 3], "data_offsets": [begin, end]}`` (offsets into the data, which
the tensors cover contiguously), plus an optional ``"__metadata__"`` mapping of strings. The data
are the tensors' C-order bytes, little-endian. See https://github.com/huggingface/safetensors.

Arrays are written through :func:`ivy.to_numpy` and read into any backend with
:func:`ivy.asarray` (``backend=``, ``device=``). Names are Ivy key chains joined with ``"/"``
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

from . import _api

__all__ = ["save_file", "load_file", "read_header", "DTYPES"]

#: safetensors dtype code -> (Ivy dtype name, item size in bytes).
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
}
_CODE = {name: code for code, (name, _) in DTYPES.items()}
# array-module typecodes of each fixed size (checked at import: C types vary by platform)
_TYPECODES: dict[tuple[str, int], str] = {}
for _tc in "bBhHiIlLqQfd":
    _kind = "f" if _tc in "fd" else ("u" if _tc.isupper() else "i")
    _TYPECODES.setdefault((_kind, _array(_tc).itemsize), _tc)
_MAX_HEADER = 100 * 1024 * 1024


def _ivy() -> Any:
    return _api


def save_file(
    tensors: Mapping[str, Any], path: str | os.PathLike[str], metadata: Mapping[str, str] | None = None
) -> None:
    """Write native arrays of any backend to a safetensors file.

    Args:
        tensors: name -> native array (any backend; converted with :func:`ivy.to_numpy`).
        path: the file to write.
        metadata: optional string -> string metadata, stored as ``"__metadata__"``.

    Raises:
        TypeError: a value is not an array, or a metadata value is not a string.
        ValueError: an array has a dtype that safetensors cannot store (complex).
    """
    ivy = _ivy()
    header: dict[str, Any] = {}
    if metadata:
        if not all(isinstance(k, str) and isinstance(v, str) for k, v in metadata.items()):
            raise TypeError("safetensors metadata must map strings to strings")
        header["__metadata__"] = dict(metadata)
    blobs: list[bytes] = []
    offset = 0
    for name, x in tensors.items():
        if not isinstance(name, str):
            raise TypeError(f"tensor names must be strings, got {name!r}")
        a = ivy.to_numpy(x)
        dname = a.dtype.name
        if dname not in _CODE:
            raise ValueError(f"{name!r}: safetensors cannot store dtype {dname}")
        if sys.byteorder == "big" and a.dtype.itemsize > 1:
            a = a.byteswap()
        data = a.tobytes(order="C")
        header[name] = {"dtype": _CODE[dname], "shape": list(a.shape), "data_offsets": [offset, offset + len(data)]}
        blobs.append(data)
        offset += len(data)
    raw = json.dumps(header, separators=(",", ":")).encode("utf-8")
    raw += b" " * (-len(raw) % 8)  # the data start 8-byte aligned, as the reference writer does
    with open(path, "wb") as f:
        f.write(struct.pack("<Q", len(raw)))
        f.write(raw)
        for b in blobs:
            f.write(b)


def read_header(path: str | os.PathLike[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """The tensor entries and the metadata of a safetensors file, without reading the data."""
    with open(path, "rb") as f:
        header, metadata, _ = _read_header(f, path)
    return header, metadata


def _read_header(f: Any, path: Any) -> tuple[dict[str, Any], dict[str, str], int]:
    head = f.read(8)
    if len(head) != 8:
        raise ValueError(f"{path}: not a safetensors file (shorter than 8 bytes)")
    (n,) = struct.unpack("<Q", head)
    if n > _MAX_HEADER:
        raise ValueError(f"{path}: not a safetensors file (header length {n})")
    try:
        header = json.loads(f.read(n).decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{path}: not a safetensors file (bad JSON header)") from e
    metadata = header.pop("__metadata__", None) or {}
    return header, metadata, 8 + n


def _decode(code: str, data: bytes, count: int) -> list[Any]:
    """Little-endian bytes -> a flat list of Python numbers."""
    if code == "BOOL":
        return [b != 0 for b in data]
    if code == "F16":
        return list(struct.unpack(f"<{count}e", data))
    if code == "BF16":  # the upper half of a float32
        halves = _array(_TYPECODES[("u", 2)], data)
        if sys.byteorder == "big":
            halves.byteswap()
        return list(_array("f", _array(_TYPECODES[("u", 4)], (h << 16 for h in halves)).tobytes()))
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
        ValueError: the file is not a valid safetensors file.
    """
    ivy = _ivy()
    out: dict[str, Any] = {}
    with open(path, "rb") as f:
        header, _, start = _read_header(f, path)
        for name, entry in header.items():
            try:
                code, shape, (b, e) = entry["dtype"], list(entry["shape"]), entry["data_offsets"]
                dname, size = DTYPES[code]
            except (KeyError, TypeError, ValueError) as err:
                raise ValueError(f"{path}: bad header entry for {name!r}: {entry!r}") from err
            count = math.prod(shape)
            if e - b != count * size:
                raise ValueError(f"{path}: {name!r} has {e - b} bytes for shape {shape} of {code}")
            f.seek(start + b)
            data = f.read(e - b)
            if len(data) != e - b:
                raise ValueError(f"{path}: the file ends inside {name!r}")
            dtype = "float32" if dname in ("bfloat16", "float16") else dname
            flat = ivy.asarray(_decode(code, data, count), dtype=dtype, backend=backend, device=device)
            out[name] = ivy.reshape(flat, tuple(shape))
    return out
