"""`ObjectCode` (compiled device code, loaded on first use) and `Kernel` (cuda.core's), over
HIP modules: on AMD a code object ("cubin" in cuda.core's words) or a clang offload bundle
("fatbin"); on NVIDIA cubin, PTX or fatbin, as the CUDA driver loads them."""

from __future__ import annotations

import collections
import os
import weakref

from hip import _native, hip

from . import _ordinal
from ._utils.cuda_utils import CUDAError, check

#: Code types `get_kernel` loads; "ltoir" (LLVM bitcode on AMD) and the rest only link.
_LOADABLE = ("cubin", "ptx", "fatbin")


class ObjectCode:
    """Device code: `ObjectCode.from_cubin(data_or_path)` and the like, or `Program.compile`'s."""

    __slots__ = ("_code", "_code_type", "_name", "_symbols", "_module", "_finalizer", "__weakref__")

    def __new__(cls, *args, **kwargs):
        raise RuntimeError(
            "ObjectCode objects cannot be instantiated directly. Please use ObjectCode APIs (from_cubin, "
            "from_ptx) or Program APIs (compile)."
        )

    @classmethod
    def _init(
        cls, module, code_type: str, *, name: str = "", symbol_mapping: dict | None = None
    ) -> ObjectCode:
        self = object.__new__(cls)
        if isinstance(module, os.PathLike):
            module = os.fspath(module)
        if not isinstance(module, (bytes, bytearray, str)):
            raise TypeError(f"module must be bytes or a path, got {type(module).__name__}")
        self._code = bytes(module) if isinstance(module, bytearray) else module
        self._code_type, self._name = code_type, name
        self._symbols = dict(symbol_mapping or {})
        self._module, self._finalizer = None, None
        return self

    @staticmethod
    def from_cubin(module, *, name: str = "", symbol_mapping: dict | None = None) -> ObjectCode:
        """The GPU's own code: a cubin on NVIDIA, a code object on AMD."""
        return ObjectCode._init(module, "cubin", name=name, symbol_mapping=symbol_mapping)

    @staticmethod
    def from_ptx(module, *, name: str = "", symbol_mapping: dict | None = None) -> ObjectCode:
        """PTX (NVIDIA's; an AMD GPU cannot load it)."""
        return ObjectCode._init(module, "ptx", name=name, symbol_mapping=symbol_mapping)

    @staticmethod
    def from_ltoir(module, *, name: str = "", symbol_mapping: dict | None = None) -> ObjectCode:
        """Code for link-time optimization: LLVM bitcode on AMD, LTO-IR on NVIDIA (linked only)."""
        return ObjectCode._init(module, "ltoir", name=name, symbol_mapping=symbol_mapping)

    @staticmethod
    def from_fatbin(module, *, name: str = "", symbol_mapping: dict | None = None) -> ObjectCode:
        """Code for several GPUs: a fatbin on NVIDIA, a clang offload bundle on AMD."""
        return ObjectCode._init(module, "fatbin", name=name, symbol_mapping=symbol_mapping)

    @staticmethod
    def from_object(module, *, name: str = "", symbol_mapping: dict | None = None) -> ObjectCode:
        return ObjectCode._init(module, "object", name=name, symbol_mapping=symbol_mapping)

    @staticmethod
    def from_library(module, *, name: str = "", symbol_mapping: dict | None = None) -> ObjectCode:
        return ObjectCode._init(module, "library", name=name, symbol_mapping=symbol_mapping)

    @property
    def code(self):
        return self._code

    @property
    def name(self) -> str:
        return self._name

    @property
    def code_type(self) -> str:
        return self._code_type

    @property
    def symbol_mapping(self) -> dict:
        return dict(self._symbols)

    @property
    def handle(self):
        """The loaded `hipModule_t` (loaded onto the current device on first use)."""
        if self._module is None:
            self._load()
        return self._module

    def _load(self) -> None:
        if self._code_type not in _LOADABLE:
            raise RuntimeError(
                f'Unsupported code type "{self._code_type}" ({", ".join(_LOADABLE)} can be loaded)'
            )
        if self._code_type == "ptx" and _native.platform() != "nvidia":
            raise CUDAError("PTX is NVIDIA's intermediate code; an AMD GPU loads code objects (from_cubin)")
        if isinstance(self._code, str):
            module = check("hipModuleLoad", hip.hipModuleLoad(self._code.encode()))
        else:
            module = check("hipModuleLoadData", hip.hipModuleLoadData(self._code))
        self._module = module
        self._finalizer = weakref.finalize(self, hip.hipModuleUnload, module)
        self._finalizer.atexit = False

    def get_kernel(self, name) -> Kernel:
        """Kernel `name`: a name expression given to `compile`, or the symbol itself."""
        if isinstance(name, bytes):
            name = name.decode()
        symbol = self._symbols.get(name, name)
        if isinstance(symbol, bytes):
            symbol = symbol.decode()
        function = check("hipModuleGetFunction", hip.hipModuleGetFunction(self.handle, symbol.encode()))
        return Kernel._init(function, self)

    def __eq__(self, other):
        return isinstance(other, ObjectCode) and int(other.handle) == int(self.handle)

    def __hash__(self):
        return hash(int(self.handle))

    def __reduce__(self):
        return _rebuild, (self._code, self._code_type, self._name, self._symbols)

    def __repr__(self):
        return f"<ObjectCode code_type={self._code_type!r} name={self._name!r}>"


def _rebuild(code, code_type, name, symbols):
    return ObjectCode._init(code, code_type, name=name, symbol_mapping=symbols)


#: `Kernel.occupancy.max_potential_block_size`'s answer.
MaxPotential = collections.namedtuple("MaxPotential", ("min_grid_size", "max_block_size"))

_FUNCTION_ATTRIBUTES = {
    "max_threads_per_block": "HIP_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK",
    "shared_size_bytes": "HIP_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES",
    "const_size_bytes": "HIP_FUNC_ATTRIBUTE_CONST_SIZE_BYTES",
    "local_size_bytes": "HIP_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES",
    "num_regs": "HIP_FUNC_ATTRIBUTE_NUM_REGS",
    "ptx_version": "HIP_FUNC_ATTRIBUTE_PTX_VERSION",
    "binary_version": "HIP_FUNC_ATTRIBUTE_BINARY_VERSION",
    "cache_mode_ca": "HIP_FUNC_ATTRIBUTE_CACHE_MODE_CA",
    "max_dynamic_shared_size_bytes": "HIP_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES",
    "preferred_shared_memory_carveout": "HIP_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT",
}


#: Kernel attributes of thread-block clusters: HIP has none, so a kernel requires none (0).
_CLUSTER_ATTRIBUTES = {
    "cluster_size_must_be_set": bool,
    "required_cluster_width": int,
    "required_cluster_height": int,
    "required_cluster_depth": int,
    "non_portable_cluster_size_allowed": bool,
    "cluster_scheduling_policy_preference": int,
}


class KernelAttributes:
    """A kernel's attributes (`hipFuncGetAttribute`), by cuda.core's names; `attributes[dev]`
    is the same view checked against a device (HIP's attributes are the module's own)."""

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("KernelAttributes cannot be instantiated directly. Please use Kernel APIs.")

    @classmethod
    def _init(cls, kernel: Kernel) -> KernelAttributes:
        self = object.__new__(cls)
        self._kernel = kernel
        return self

    def __getitem__(self, device) -> KernelAttributes:
        if not isinstance(device, int) and not hasattr(device, "device_id"):
            raise TypeError(f"a device is a Device or an ordinal, got {type(device).__name__}")
        _ordinal.device_ordinal(device)
        return self

    def __getattr__(self, name: str):
        if name in _CLUSTER_ATTRIBUTES:
            return _CLUSTER_ATTRIBUTES[name](0)
        member = _FUNCTION_ATTRIBUTES.get(name)
        if member is None or name.startswith("_"):
            raise AttributeError(name)
        attr = getattr(hip.hipFunction_attribute, member)
        value = check("hipFuncGetAttribute", hip.hipFuncGetAttribute(attr, self._kernel.handle))
        return bool(value) if name == "cache_mode_ca" else value


class KernelOccupancy:
    """How many blocks of a kernel fit on a multiprocessor, and the block size that fills one."""

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("KernelOccupancy cannot be instantiated directly. Please use Kernel APIs.")

    @classmethod
    def _init(cls, kernel: Kernel) -> KernelOccupancy:
        self = object.__new__(cls)
        self._kernel = kernel
        return self

    def max_active_blocks_per_multiprocessor(self, block_size: int, dynamic_shared_memory_size: int) -> int:
        call = hip.hipModuleOccupancyMaxActiveBlocksPerMultiprocessor
        return check(call.__name__, call(self._kernel.handle, block_size, dynamic_shared_memory_size))

    def max_potential_block_size(
        self, dynamic_shared_memory_needed: int, block_size_limit: int
    ) -> MaxPotential:
        """The block size with the most threads resident per multiprocessor (the largest such,
        at most `block_size_limit`; 0: the kernel's limit), and the smallest grid filling the
        GPU with it. Searched over warp multiples with HIP's occupancy, as CUDA's calculator."""
        if isinstance(dynamic_shared_memory_needed, bool) or not isinstance(
            dynamic_shared_memory_needed, int
        ):
            raise TypeError(
                "dynamic_shared_memory_needed must be an int (HIP takes no block-size callback), "
                f"got {type(dynamic_shared_memory_needed).__name__}"
            )
        device = _ordinal.device(_ordinal.device_ordinal())
        kernel_limit = KernelAttributes._init(self._kernel).max_threads_per_block
        limit = min(block_size_limit or kernel_limit, kernel_limit)
        warp, per_sm = device.properties.warp_size, device.properties.max_threads_per_multiprocessor
        best = (0, 0, 0)  # threads resident, block size, blocks per multiprocessor
        for block in range(limit - limit % warp or limit, 0, -warp):
            blocks = self.max_active_blocks_per_multiprocessor(block, dynamic_shared_memory_needed)
            if blocks * block > best[0]:
                best = (blocks * block, block, blocks)
            if best[0] >= per_sm:
                break
        _, block, blocks = best
        return MaxPotential(blocks * device.properties.multiprocessor_count, block)

    def available_dynamic_shared_memory_per_block(
        self, num_blocks_per_multiprocessor: int, block_size: int
    ) -> int:
        """Dynamic shared memory each of `num_blocks_per_multiprocessor` blocks of `block_size`
        threads can have (`hipOccupancyAvailableDynamicSMemPerBlock`)."""
        call = hip.hipOccupancyAvailableDynamicSMemPerBlock
        return check(call.__name__, call(self._kernel.handle, num_blocks_per_multiprocessor, block_size))

    def max_potential_cluster_size(self, config, *, stream=None):
        raise CUDAError("HIP has no thread-block clusters")

    def max_active_clusters(self, config, *, stream=None):
        raise CUDAError("HIP has no thread-block clusters")


class Kernel:
    """A kernel function of an `ObjectCode`, launched with `launch`."""

    __slots__ = ("_handle", "_module", "__weakref__")

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("Kernel objects cannot be instantiated directly. Please use ObjectCode APIs.")

    @classmethod
    def _init(cls, handle, module) -> Kernel:
        self = object.__new__(cls)
        self._handle, self._module = handle, module
        return self

    @staticmethod
    def from_handle(handle: int, mod: ObjectCode | None = None) -> Kernel:
        if not isinstance(handle, int):
            raise TypeError(f"handle must be an int, got {type(handle).__name__}")
        if mod is not None and not isinstance(mod, ObjectCode):
            raise TypeError(f"mod must be an ObjectCode, got {type(mod).__name__}")
        return Kernel._init(hip.hipFunction_t.fromObj(handle), mod)

    @property
    def handle(self):
        return self._handle

    @property
    def attributes(self) -> KernelAttributes:
        return KernelAttributes._init(self)

    @property
    def occupancy(self) -> KernelOccupancy:
        return KernelOccupancy._init(self)

    @property
    def num_arguments(self) -> int:
        raise NotImplementedError("HIP does not report a kernel's parameters (no cuKernelGetParamInfo)")

    @property
    def arguments_info(self):
        raise NotImplementedError("HIP does not report a kernel's parameters (no cuKernelGetParamInfo)")

    def __eq__(self, other):
        return isinstance(other, Kernel) and int(other._handle) == int(self._handle)

    def __hash__(self):
        return hash(int(self._handle))

    def __repr__(self):
        return f"<Kernel handle={int(self._handle):#x}>"
