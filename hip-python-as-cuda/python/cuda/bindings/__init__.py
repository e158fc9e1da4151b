"""cuda-python's newer layout (`cuda.bindings.driver`, `.runtime`, `.nvrtc`) on HIP."""

HIP_PYTHON = True

from cuda._layer import import_present  # noqa: E402

__all__ = ["HIP_PYTHON"] + import_present(__name__, ("driver", "runtime", "nvrtc"))
