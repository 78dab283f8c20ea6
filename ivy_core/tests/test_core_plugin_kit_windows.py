"""The toolkit's convolution and pool families keep each signature's normalised window arguments:
a repeated call must get what a first call would (another input size, another argument type, an
unhashable argument), and ``no_cache`` must keep them from being stored. The N-d functions here
record what they receive; the expected padding is worked out by hand from the spec's formulas."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import numpy as np
import pytest

from ivy.plugin_kit import conv_family, conv_transpose_family, pool_family


def _recorder(filters: bool = True) -> tuple[list[tuple[Any, ...]], Any]:
    """An N-d function that records its arguments but the input (and the filters)."""
    seen: list[tuple[Any, ...]] = []

    def nd(x: Any, *args: Any) -> Any:
        seen.append(args[1:] if filters else args)
        return x

    return seen, nd


def test_same_padding_follows_the_input_size_on_every_call() -> None:
    seen, nd = _recorder()
    conv2d = conv_family(nd, (2,), fused_bias=True)["conv2d"]
    w = np.zeros((3, 3, 1, 1))
    for size in (5, 6, 5, 6):
        conv2d(np.zeros((1, size, size, 1)), w, 2, "SAME")
    # out = ceil(size / 2) = 3; total = (3 - 1) * 2 + 3 - size: 2 -> (1, 1), 1 -> (0, 1)
    pads = [args[1] for args in seen]
    assert pads == [[(1, 1)] * 2, [(0, 1)] * 2, [(1, 1)] * 2, [(0, 1)] * 2]
    assert seen[0] == ((2, 2), [(1, 1)] * 2, (1, 1), True, None)


def test_an_argument_equal_to_a_stored_one_but_invalid_still_raises() -> None:
    _, nd = _recorder(filters=False)
    max_pool1d = pool_family(nd, None, (1,))["max_pool1d"]
    x = np.zeros((1, 8, 2))
    max_pool1d(x, 2, 1, "VALID")  # stored under kernel 2 (an int)
    with pytest.raises(TypeError):
        max_pool1d(x, 2.0, 1, "VALID")  # 2.0 == 2, but a window size is an integer
    with pytest.raises(ValueError, match="data_format"):
        max_pool1d(x, 2, 1, "VALID", data_format="NHWC")


def test_unhashable_arguments_and_no_cache_give_the_same_arguments() -> None:
    seen, nd = _recorder()
    stored = conv_family(nd, (2,), fused_bias=True)["conv2d"]
    calls = [0]

    def tracing() -> bool:
        calls[0] += 1
        return True

    fresh = conv_family(nd, (2,), fused_bias=True, no_cache=tracing)["conv2d"]
    x, w = np.zeros((1, 3, 7, 7)), np.zeros((2, 3, 3, 1))
    listed = SimpleNamespace(shape=[1, 3, 7, 7])  # paddle's shapes are lists
    for op in (stored, fresh):
        op(x, w, [1, 2], [[1, 0], [2, 2]], data_format="NCHW", dilations=[2, 1])
        for _ in range(2):  # stored by the first of these, found by the second
            op(x, w, (1, 2), ((1, 0), (2, 2)), data_format="NCHW", dilations=(2, 1))
            op(listed, w, (1, 2), ((1, 0), (2, 2)), data_format="NCHW", dilations=(2, 1))
    assert calls[0] == 5
    want = ((1, 2), [(1, 0), (2, 2)], (2, 1), False, None)
    assert seen == [want] * 10


def test_transpose_output_shape_as_spatial_sizes_or_the_whole_shape() -> None:
    seen, nd = _recorder()
    conv1d_transpose = conv_transpose_family(nd, (1,), fused_bias=True)["conv1d_transpose"]
    x, w = np.zeros((1, 4, 3)), np.zeros((3, 2, 3))
    conv1d_transpose(x, w, 2, "SAME")  # in * stride = 8
    conv1d_transpose(x, w, 2, "SAME", output_shape=[7])
    conv1d_transpose(x, w, 2, "SAME", output_shape=(1, 7, 2))
    # the forward SAME padding mapping 8 (7) positions to 4: total (4 - 1) * 2 + 3 - 8 = 1 (2)
    assert [(args[1], args[4]) for args in seen] == [([(0, 1)], (8,)), ([(1, 1)], (7,)), ([(1, 1)], (7,))]
    with pytest.raises(ValueError, match="inconsistent"):
        conv1d_transpose(x, w, 2, "VALID", output_shape=[5])  # VALID gives 9 or 10
