"""The Ivy paper's example, as printed there: kornia's Canny edge detector and a morphological
dilation, from torch to TensorFlow (with an image made here, not read from a file).

    python examples/transpile_kornia_paper.py

``canny`` ends in hysteresis, a loop that runs until no edge pixel changes: a number of steps that
depends on the image. torch.export captures it as ``torch.while_loop``; Ivy's graph holds it as one
``while_loop`` node whose condition and body are subgraphs, and the TensorFlow program runs it as
``tf.while_loop`` (inside the ``tf.function`` the lazy proxy compiles). The script then checks both
results against kornia itself in torch on the same image, and prints the CPU time of the first run
(imports and transpiles) and the time of a later run.
"""

# isort: skip_file
# --- the paper's example (README.md shows the same lines) ---
import ivy
import kornia
import tensorflow as tf

kornia = ivy.transpile(kornia, to="tensorflow")
img = tf.random.uniform((1, 3, 32, 32), seed=0)  # an RGB image in [0, 1], NCHW
edges = kornia.filters.canny(img)[1]
dilated = kornia.morphology.dilation(edges, tf.ones((7, 7)))
# --- end of the paper's example ---

import time  # noqa: E402

first = time.process_time()  # CPU seconds: the imports and the transpiles

import numpy as np  # noqa: E402
import torch  # noqa: E402

import kornia as torch_kornia  # noqa: E402  (kornia itself, on torch: the reference)

x = torch.from_numpy(img.numpy())
ref_edges = torch_kornia.filters.canny(x)[1]
ref_dilated = torch_kornia.morphology.dilation(ref_edges, torch.ones(7, 7))
np.testing.assert_allclose(edges.numpy(), ref_edges.numpy(), atol=1e-6)
np.testing.assert_allclose(dilated.numpy(), ref_dilated.numpy(), atol=1e-6)

again = time.perf_counter()
kornia.morphology.dilation(kornia.filters.canny(img)[1], tf.ones((7, 7)))
later = time.perf_counter() - again
print(f"edge pixels: {int(edges.numpy().sum())} of {edges.numpy().size}; after dilation: {int(dilated.numpy().sum())}")
print("TensorFlow's results equal kornia's in torch on the same image")
print(f"CPU time of the imports and the first calls (transpiling): {first:.1f} s; a later run: {later * 1e3:.1f} ms")
