"""``ivy.distributed``: data-parallel training through each framework's own distributed engine,
as strategies of :class:`ivy.Trainer` (``Trainer(..., strategy=ivy.distributed.TorchDDP())``).

* :class:`TorchDDP`: ``torch.nn.parallel.DistributedDataParallel`` over the model's native torch
  module (:func:`ivy.to_native_module`), one process per replica (``torchrun``; ``gloo`` on CPU).
* :class:`PaddleDataParallel`: ``paddle.DataParallel``, one process per replica
  (``python -m paddle.distributed.launch``; gloo on CPU).
* :class:`JaxSharding`: one process, the batch sharded across devices with ``jax.sharding``
  (a ``Mesh`` and ``NamedSharding``), the variables replicated; ``jax.jit`` (``ivy.compile``)
  partitions the step and inserts the gradient all-reduce.
* :class:`TFMirrored`: ``tf.distribute.MirroredStrategy``: one process, one replica per device,
  ``strategy.run`` computing each replica's gradients and ``strategy.reduce`` averaging them.

Every strategy trains on the same global batches as one process would: each replica takes an
equal slice of every batch (multi-process strategies slice it themselves, unless
``shard_batches=False`` says the data is already split per process, e.g. by a
``DistributedSampler``), the replicas' gradients are averaged, and every replica applies the same
update, so the result equals the single-process run on the global batch (batch statistics, such
as BatchNorm's, stay per replica, as with DDP). Logged losses and metrics are over the global
batch. The frameworks are imported when a strategy is first used (``import ivy`` imports none).
"""

from __future__ import annotations

from typing import Any

from .. import _api as ivy
from .. import nest
from .._functional.gradients import execute_with_gradients
from ..container import Container
from .interop import to_native_module

__all__ = ["Strategy", "TorchDDP", "PaddleDataParallel", "JaxSharding", "TFMirrored", "shard", "logical_cpus"]


def shard(x: Any, rank: int, world_size: int) -> Any:
    """Rows ``[rank * n / world_size, (rank + 1) * n / world_size)`` of ``x`` (``n`` rows).

    Raises:
        ValueError: ``world_size`` does not divide the batch (replicas must see equal shares for
            the averaged gradients to equal the global batch's).
    """
    n = int(x.shape[0])
    if n % world_size:
        raise ValueError(
            f"a batch of {n} samples does not split into {world_size} equal shards: use a batch size "
            f"divisible by {world_size} (drop_remainder=True for the last batch)"
        )
    k = n // world_size
    return x[rank * k : (rank + 1) * k]


class Strategy:
    """One process, one device (what :class:`ivy.Trainer` does without a strategy); the base of
    the others. A strategy may override :meth:`setup`, :meth:`place`, :meth:`train_step` and
    :meth:`reduce_state`."""

    #: whether the Trainer may compile the training step with ivy.compile
    compiles = True
    rank = 0
    world_size = 1

    @property
    def is_main(self) -> bool:
        """Whether this is the process that reports (rank 0)."""
        return self.rank == 0

    def setup(self, trainer: Any) -> None:
        """Called once by the Trainer."""

    def place(self, trainer: Any, x: Any, y: Any) -> tuple[Any, Any]:
        """The batch this replica (or, for single-process strategies, the devices) computes on."""
        return x, y

    def train_step(self, trainer: Any, x: Any, y: Any) -> Any:
        """One training step; returns the loss."""
        return trainer._local_train_step(x, y)

    def reduce_state(self, state: dict[str, Any]) -> dict[str, Any]:
        """A metric's state summed over the replicas (its sums and counts)."""
        return state

    def __repr__(self) -> str:
        return f"{type(self).__name__}(rank={self.rank}, world_size={self.world_size})"


def _built(trainer: Any, x: Any) -> None:
    """Build the model from a batch (in evaluation mode: no buffer changes) if it is not built."""
    m = trainer.model
    if all(sub.built for _, sub in m.modules()):
        return
    modes = [(sub, sub.training) for _, sub in m.modules()]
    m.eval()
    try:
        m(x)
    finally:
        for sub, mode in modes:
            sub.training = mode


class _NativeParallel(Strategy):
    """Shared by the multi-process strategies: the model's native module wrapped by the
    framework's data-parallel module, whose backward pass averages the gradients."""

    compiles = False
    _BACKEND = "torch"

    def __init__(self, *, shard_batches: bool = True) -> None:
        self.shard_batches = shard_batches
        self.native: Any = None
        self.wrapped: Any = None

    def place(self, trainer: Any, x: Any, y: Any) -> tuple[Any, Any]:
        if not self.shard_batches:
            return x, y
        return shard(x, self.rank, self.world_size), (None if y is None else shard(y, self.rank, self.world_size))

    def _wrap(self, native: Any) -> Any:
        raise NotImplementedError(f"{type(self).__name__} must implement _wrap")  # a subclass hook

    def _grads(self) -> Container:
        raise NotImplementedError(f"{type(self).__name__} must implement _grads")  # a subclass hook

    def _write(self, chain: str, value: Any) -> None:
        raise NotImplementedError(f"{type(self).__name__} must implement _write")  # a subclass hook

    def train_step(self, trainer: Any, x: Any, y: Any) -> Any:
        model, opt = trainer.model, trainer.optimizer
        if self.wrapped is None:
            _built(trainer, x)
            if model.backend != self._BACKEND:
                raise ValueError(
                    f"{type(self).__name__} trains {self._BACKEND} modules; the model is built on {model.backend!r}"
                )
            self.native = to_native_module(model)
            self.wrapped = self._wrap(self.native)  # also makes every replica start from rank 0's weights
        if model.training:  # (paddle's Layer.train takes no mode)
            self.native.train()
        else:
            self.native.eval()
        pred = self.wrapped(x)
        loss = trainer.loss(y, pred)
        loss.backward()
        grads = self._grads()
        new = opt.step(model.v, grads)
        for chain, value in new.to_flat_dict().items():  # the parameters stay the module's variables
            self._write(chain, value)
        loss, pred = ivy.stop_gradient(loss), ivy.stop_gradient(pred)
        trainer._track(loss, x, y, pred)
        return loss


class TorchDDP(_NativeParallel):
    """Data parallelism with ``torch.nn.parallel.DistributedDataParallel``, one process per
    replica. Start the script with ``torchrun --nproc_per_node N script.py`` (the process group
    is initialised from torchrun's environment if it is not yet: ``backend="gloo"`` on CPU,
    ``"nccl"`` for GPUs). The training step runs eagerly.

    Args:
        backend: the process group's backend, if this strategy initialises it.
        shard_batches: each process takes its slice of every (global) batch; ``False`` when the
            data is already split per process.
        **ddp_kwargs: passed to ``DistributedDataParallel``.
    """

    _BACKEND = "torch"

    def __init__(self, backend: str = "gloo", *, shard_batches: bool = True, **ddp_kwargs: Any) -> None:
        super().__init__(shard_batches=shard_batches)
        self.backend, self.ddp_kwargs = backend, ddp_kwargs

    def setup(self, trainer: Any) -> None:
        import torch.distributed as dist

        if not dist.is_initialized():
            dist.init_process_group(self.backend)
        self.rank, self.world_size = dist.get_rank(), dist.get_world_size()

    def _wrap(self, native: Any) -> Any:
        from torch.nn.parallel import DistributedDataParallel

        return DistributedDataParallel(native, **self.ddp_kwargs)

    def _grads(self) -> Container:
        out = {}
        for name, p in self.native.named_parameters():
            out[self.native.key_chain(name)] = p.grad
            p.grad = None
        return Container.from_flat_dict(out)

    def _write(self, chain: str, value: Any) -> None:
        import torch

        owner, leaf = self.native._ivy_params[chain]
        with torch.no_grad():
            owner._parameters[leaf].copy_(value)

    def reduce_state(self, state: dict[str, Any]) -> dict[str, Any]:
        import torch.distributed as dist

        out = {}
        for k, x in state.items():
            y = x.clone()
            dist.all_reduce(y)
            out[k] = y
        return out


class PaddleDataParallel(_NativeParallel):
    """Data parallelism with ``paddle.DataParallel``, one process per replica. Start the script
    with ``python -m paddle.distributed.launch --nproc_per_node N script.py`` (gloo on CPU); the
    parallel environment is initialised if it is not yet. The training step runs eagerly.

    Args:
        shard_batches: each process takes its slice of every (global) batch; ``False`` when the
            data is already split per process.
        **dp_kwargs: passed to ``paddle.DataParallel``.
    """

    _BACKEND = "paddle"

    def __init__(self, *, shard_batches: bool = True, **dp_kwargs: Any) -> None:
        super().__init__(shard_batches=shard_batches)
        self.dp_kwargs = dp_kwargs

    def setup(self, trainer: Any) -> None:
        import paddle.distributed as dist

        if not dist.is_initialized():
            dist.init_parallel_env()
        self.rank, self.world_size = dist.get_rank(), dist.get_world_size()

    def _wrap(self, native: Any) -> Any:
        import paddle

        return paddle.DataParallel(native, **self.dp_kwargs)

    def _grads(self) -> Container:
        out = {}
        for name, p in self.native.named_parameters():
            out[self.native.key_chain(name)] = p.grad.clone()  # clearing zeroes (or frees) p.grad itself
        self.native.clear_gradients()
        return Container.from_flat_dict(out)

    def _write(self, chain: str, value: Any) -> None:
        owner, leaf = self.native._ivy_params[chain]
        owner._parameters[leaf].set_value(value)

    def reduce_state(self, state: dict[str, Any]) -> dict[str, Any]:
        import paddle.distributed as dist

        out = {}
        for k, x in state.items():
            y = x.clone()
            dist.all_reduce(y)
            out[k] = y
        return out


class JaxSharding(Strategy):
    """Data parallelism with ``jax.sharding`` in one process: a one-axis ``Mesh`` over
    ``devices``, every batch placed with ``NamedSharding(mesh, P("data"))`` (split along the batch
    axis) and the variables replicated; the compiled step (``jax.jit`` through ``ivy.compile``) is
    partitioned by XLA, which averages the gradients across devices. On CPU, test it with
    ``XLA_FLAGS=--xla_force_host_platform_device_count=2`` (set before JAX starts).

    Args:
        devices: the devices; default ``jax.devices()``.
        axis_name: the mesh axis.
    """

    def __init__(self, devices: Any = None, *, axis_name: str = "data") -> None:
        self.devices, self.axis_name = devices, axis_name
        self.mesh: Any = None
        self._replicated = False

    def setup(self, trainer: Any) -> None:
        import jax
        import numpy as np
        from jax.sharding import Mesh

        devices = list(self.devices if self.devices is not None else jax.devices())
        self.mesh = Mesh(np.array(devices), (self.axis_name,))
        self.n_devices = len(devices)

    def _sharding(self, spec: Any) -> Any:
        from jax.sharding import NamedSharding, PartitionSpec

        return NamedSharding(self.mesh, PartitionSpec(*spec))

    def place(self, trainer: Any, x: Any, y: Any) -> tuple[Any, Any]:
        import jax

        for a in (x, y):
            if a is not None and int(a.shape[0]) % self.n_devices:
                raise ValueError(
                    f"a batch of {int(a.shape[0])} samples does not split over {self.n_devices} "
                    f"devices: use a batch size divisible by {self.n_devices}"
                )
        data = self._sharding((self.axis_name,))
        x = jax.device_put(x, data)
        y = None if y is None else jax.device_put(y, data)
        if not self._replicated:
            _built(trainer, x)
            self.replicate(trainer.model)
            self._replicated = True
        return x, y

    def replicate(self, model: Any) -> None:
        """Place every variable and buffer of ``model`` on every device of the mesh."""
        import jax

        rep = self._sharding(())
        model.v = nest.map(lambda a: jax.device_put(a, rep), model.v)
        if model.state:
            model.state = nest.map(lambda a: jax.device_put(a, rep), model.state)


class TFMirrored(Strategy):
    """Data parallelism with ``tf.distribute.MirroredStrategy`` in one process: every batch
    split into one equal share per replica (``experimental_distribute_values_from_function``),
    each replica's loss and gradients computed by ``strategy.run`` on its device (inside a
    ``tf.function``), and averaged with ``strategy.reduce``; the optimizer update is then applied
    once, eagerly. Several CPU devices need ``tf.config.set_logical_device_configuration`` before
    TensorFlow starts (see :func:`logical_cpus`). Buffers that modules update in training mode
    (BatchNorm's running statistics) take the mean of the replicas' updates, as Keras' moving
    statistics do under ``MirroredStrategy``: each replica normalises its share with the share's
    batch statistics, and each update of the running mean is then one device's on the global
    batch, of the running variance the mean of the shares' variances.

    Args:
        strategy: a ``tf.distribute.MirroredStrategy`` (or another strategy with ``run`` and
            ``reduce``); default ``MirroredStrategy(devices)``.
        devices: the devices of the default strategy; default all (GPUs, else CPUs).
    """

    compiles = False

    def __init__(self, strategy: Any = None, *, devices: Any = None) -> None:
        self.strategy, self.devices = strategy, devices
        self._run: Any = None

    def setup(self, trainer: Any) -> None:
        import tensorflow as tf

        if self.strategy is None:
            devices = self.devices
            if devices is None and not tf.config.list_logical_devices("GPU"):
                devices = [d.name for d in tf.config.list_logical_devices("CPU")]
            self.strategy = tf.distribute.MirroredStrategy(devices)
        self.replicas = self.strategy.num_replicas_in_sync

    def train_step(self, trainer: Any, x: Any, y: Any) -> Any:
        import tensorflow as tf

        model, opt, n = trainer.model, trainer.optimizer, self.replicas
        _built(trainer, x)
        xs = self.strategy.experimental_distribute_values_from_function(
            lambda ctx: shard(x, ctx.replica_id_in_sync_group, n)
        )
        ys = self.strategy.experimental_distribute_values_from_function(
            lambda ctx: shard(y, ctx.replica_id_in_sync_group, n)
        )

        if self._run is None:

            def replica(xr: Any, yr: Any, v: Any, state: Any) -> Any:
                # the replicas are traced one after the other, each writing its buffer updates
                # (BatchNorm's running statistics) into the one model: each starts from the
                # step's buffers and returns its updates as outputs of the step
                if state:
                    model.state = state
                loss, grads, pred = execute_with_gradients(lambda vv: trainer._loss_and_pred(vv, xr, yr), v)
                return loss, grads, pred, model.state

            # traced once per batch shape: strategy.run eagerly costs a thread per replica per step
            self._run = tf.function(
                lambda xs, ys, v, s: self.strategy.run(replica, args=(xs, ys, v, s)), autograph=False
            )
        state = model.state
        loss, grads, pred, new_state = self._run(xs, ys, model.v, state)
        mean = tf.distribute.ReduceOp.MEAN
        if state:  # (also replaces the tensors of the trace that the replicas left in the model)
            model.state = nest.map(lambda b: self.strategy.reduce(mean, b, axis=None), new_state)
        loss = self.strategy.reduce(mean, loss, axis=None)
        grads = nest.map(lambda g: self.strategy.reduce(mean, g, axis=None), grads)
        pred = ivy.concat(list(self.strategy.experimental_local_results(pred)), axis=0)
        model.v = opt.step(model.v, grads)
        trainer._track(loss, x, y, pred)
        return loss


def logical_cpus(n: int) -> None:
    """Split TensorFlow's CPU into ``n`` logical devices (for :class:`TFMirrored` on one CPU);
    call it before TensorFlow runs anything."""
    import tensorflow as tf

    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * n)
