"""The public names of the stateful API, importable without importing it (``import ivy`` loads
the stateful modules on first use of one of these names)."""

NAMES = [
    "Module", "ModuleNotBuiltError",
    "Linear", "Conv1D", "Conv2D", "Conv3D", "Conv1DTranspose", "Conv2DTranspose", "Conv3DTranspose",
    "DepthwiseConv2D", "MaxPool1D", "MaxPool2D", "MaxPool3D", "AvgPool1D", "AvgPool2D", "AvgPool3D",
    "Dropout", "LayerNorm", "BatchNorm2D", "Embedding", "LSTM", "MultiHeadAttention", "Sequential",
    "ReLU", "LeakyReLU", "GELU", "SiLU", "Sigmoid", "Tanh", "Softmax", "LogSoftmax", "Softplus", "ELU",
    "SELU", "Hardswish", "Mish",
    "Optimizer", "SGD", "Adam", "AdamW", "LAMB", "LARS",
    "Initializer", "Zeros", "Ones", "Constant", "Uniform", "RandomNormal", "GlorotUniform", "GlorotNormal",
    "KaimingUniform", "KaimingNormal",
]
