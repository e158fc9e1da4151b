"""cuda-python's `cuda.cudart` (CUDA runtime API) on HIP: `cuda.cudart.cudaMalloc is hip.hip.hipMalloc`.

Every name is the HIP object it stands for (see `cuda._layer`), resolved on first use.
"""

from cuda._layer import install

install(__name__)
