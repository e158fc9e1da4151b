"""cuda-python's `cuda.nvrtc` on hiprtc: `cuda.nvrtc.nvrtcCreateProgram is hip.hiprtc.hiprtcCreateProgram`.

Every name is the HIP object it stands for (see `cuda._layer`), resolved on first use.
"""

from cuda._layer import install

install(__name__)
