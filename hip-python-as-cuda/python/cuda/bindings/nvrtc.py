"""cuda-python's `cuda.bindings.nvrtc` on hiprtc.

Every name is the HIP object it stands for (see `cuda._layer`), resolved on first use.
"""

from cuda._layer import install

install(__name__)
