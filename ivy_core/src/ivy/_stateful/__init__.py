"""Ivy's stateful API: :class:`Module`, layers, optimizers and initializers, written once with
``ivy.*`` ops (no framework import)."""

from .initializers import (
    Constant,
    GlorotNormal,
    GlorotUniform,
    Initializer,
    KaimingNormal,
    KaimingUniform,
    Ones,
    RandomNormal,
    Uniform,
    Zeros,
)
from .layers import (
    AvgPool1D,
    AvgPool2D,
    AvgPool3D,
    BatchNorm2D,
    Conv1D,
    Conv1DTranspose,
    Conv2D,
    Conv2DTranspose,
    Conv3D,
    Conv3DTranspose,
    DepthwiseConv2D,
    Dropout,
    Embedding,
    LayerNorm,
    Linear,
    MaxPool1D,
    MaxPool2D,
    MaxPool3D,
)
from .module import Module, ModuleNotBuiltError
from .optimizers import LAMB, LARS, SGD, Adam, AdamW, Optimizer
from .recurrent import LSTM, MultiHeadAttention
from .sequential import (
    ELU,
    GELU,
    SELU,
    Hardswish,
    LeakyReLU,
    LogSoftmax,
    Mish,
    ReLU,
    Sequential,
    Sigmoid,
    SiLU,
    Softmax,
    Softplus,
    Tanh,
)

from .._stateful_names import NAMES as __all__  # noqa: E402 - one list, shared with ivy/__init__
