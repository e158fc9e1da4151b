"""cuda-python's `cuda.cuda` (CUDA driver API) on HIP: `cuda.cuda.cuMemAlloc is hip.hip.hipMalloc`.

Every name is the HIP object it stands for (see `cuda._layer`), resolved on first use.
"""

from cuda._layer import install

install(__name__)
