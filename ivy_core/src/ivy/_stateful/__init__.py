"""Ivy's stateful API: :class:`Module`, layers, losses, metrics, optimizers, schedules,
initializers and the training loop, written once with ``ivy.*`` ops (no framework import)."""

from .._stateful_names import NAMES as __all__  # one list, shared with ivy/__init__
from . import (
    callbacks,
    distributed,  # after the training loop it extends
    losses,
    metrics,
    schedules,
)
from .attention import (
    MultiHeadAttention,
    TransformerDecoder,
    TransformerDecoderLayer,
    TransformerEncoder,
    TransformerEncoderLayer,
)
from .basic import (
    AlphaDropout,
    Dropout,
    Dropout1D,
    Dropout2D,
    Dropout3D,
    Flatten,
    GaussianDropout,
    GaussianNoise,
    Identity,
    Lambda,
    Reshape,
)
from .checkpoint import load_checkpoint, save_checkpoint
from .embeddings import Embedding, LearnedPositionalEmbedding, RotaryEmbedding, SinusoidalPositionalEmbedding
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
    Conv1D,
    Conv1DTranspose,
    Conv2D,
    Conv2DTranspose,
    Conv3D,
    Conv3DTranspose,
    DepthwiseConv1D,
    DepthwiseConv2D,
    Linear,
    SeparableConv1D,
    SeparableConv2D,
)
from .losses import (
    BinaryCrossEntropyLoss,
    CategoricalFocalLoss,
    CategoricalHingeLoss,
    CosineEmbeddingLoss,
    CosineSimilarityLoss,
    CrossEntropyLoss,
    CTCLoss,
    FocalLoss,
    HingeLoss,
    HuberLoss,
    KLDivLoss,
    L1Loss,
    Loss,
    MSELoss,
    MultiMarginLoss,
    NLLLoss,
    SquaredHingeLoss,
)
from .module import Module, ModuleNotBuiltError
from .normalization import BatchNorm1D, BatchNorm2D, BatchNorm3D, GroupNorm, LayerNorm, RMSNorm
from .optimizers import LAMB, LARS, SGD, Adam, AdamW, Optimizer, clip_grad_norm, clip_grad_value
from .pooling import (
    AdaptiveAvgPool1D,
    AdaptiveAvgPool2D,
    AdaptiveAvgPool3D,
    AdaptiveMaxPool1D,
    AdaptiveMaxPool2D,
    AdaptiveMaxPool3D,
    AvgPool1D,
    AvgPool2D,
    AvgPool3D,
    GlobalAvgPool1D,
    GlobalAvgPool2D,
    GlobalAvgPool3D,
    GlobalMaxPool1D,
    GlobalMaxPool2D,
    GlobalMaxPool3D,
    MaxPool1D,
    MaxPool2D,
    MaxPool3D,
    Upsample,
)
from .recurrent import GRU, LSTM, SimpleRNN
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
from .training import Trainer, fit
