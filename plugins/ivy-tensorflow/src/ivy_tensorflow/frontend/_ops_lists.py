"""TF tensor lists (``TensorList*``: what ``tf.TensorArray`` and Keras' RNN loops use) as Python
lists of Ivy arrays: an unrolled loop reads and writes them at indices known at transpile time."""

from __future__ import annotations

from typing import Any

import ivy

from ._table import Ctx, rule

__all__ = ["TensorList"]


class TensorList:
    """A tensor list's elements (None where nothing is written yet)."""

    __slots__ = ("items",)

    def __init__(self, items: list[Any]):
        self.items = items

    def get(self, i: int, where: str) -> Any:
        item = self.items[i]
        if item is None:
            raise ivy.errors.TranspileError(f"{where} reads element {i} of a tensor list before it is written")
        return item


@rule("TensorListReserve", doc="a list of n empty elements", const_inputs=(0, 1))
def _reserve(ctx: Ctx, *_: Any) -> Any:
    return TensorList([None] * int(ctx.const(1)))


@rule("TensorListFromTensor", doc="ivy.unstack along axis 0", const_inputs=(1,))
def _from_tensor(ctx: Ctx, x: Any, _shape: Any) -> Any:
    return TensorList(list(ivy.unstack(x, axis=0)))


@rule("TensorListGetItem", doc="the element at a known index", const_inputs=(1, 2))
def _get_item(ctx: Ctx, tl: TensorList, *_: Any) -> Any:
    return tl.get(int(ctx.const(1)), ctx.op.name)


@rule("TensorListSetItem", doc="a new list with the element at a known index replaced", const_inputs=(1,))
def _set_item(ctx: Ctx, tl: TensorList, _index: Any, item: Any) -> Any:
    items = list(tl.items)
    items[int(ctx.const(1))] = item
    return TensorList(items)


@rule("TensorListPushBack", doc="a new list with the element appended")
def _push_back(ctx: Ctx, tl: TensorList, item: Any) -> Any:
    return TensorList([*tl.items, item])


@rule("TensorListStack", doc="ivy.stack of the elements", const_inputs=(1,))
def _stack(ctx: Ctx, tl: TensorList, _shape: Any) -> Any:
    return ivy.stack([tl.get(i, ctx.op.name) for i in range(len(tl.items))], axis=0)
