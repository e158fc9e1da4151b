"""cuda.core's `DeviceProperties`: its property names, which it answers as `bool`, and the
HIP attribute (`hipDeviceAttribute<Name>`) of each whose name is not the camel-cased property."""

from __future__ import annotations

#: Properties cuda.core answers as `bool`.
BOOLS = frozenset(
    """
    gpu_overlap kernel_exec_timeout integrated can_map_host_memory concurrent_kernels
    ecc_enabled tcc_driver unified_addressing global_l1_cache_supported
    local_l1_cache_supported managed_memory multi_gpu_board host_native_atomic_supported
    pageable_memory_access concurrent_managed_access compute_preemption_supported
    can_use_host_pointer_for_registered_mem cooperative_launch
    pageable_memory_access_uses_host_page_tables direct_managed_mem_access_from_host
    virtual_memory_management_supported handle_type_posix_file_descriptor_supported
    handle_type_win32_handle_supported handle_type_win32_kmt_handle_supported
    generic_compression_supported gpu_direct_rdma_with_cuda_vmm_supported
    sparse_cuda_array_supported read_only_host_register_supported memory_pools_supported
    gpu_direct_rdma_supported deferred_mapping_cuda_array_supported can_tex2d_gather
    stream_priorities_supported can_flush_remote_writes host_register_supported
    timeline_semaphore_interop_supported cluster_launch can_use_64_bit_stream_mem_ops
    can_use_stream_wait_value_nor dma_buf_supported ipc_event_supported
    tensor_map_access_supported handle_type_fabric_supported unified_function_pointers
    multicast_supported mps_enabled d3d12_cig_supported vulkan_cig_supported
    host_numa_virtual_memory_management_supported host_numa_memory_pools_supported
    host_numa_multinode_ipc_supported host_memory_pools_supported
    host_virtual_memory_management_supported host_alloc_dma_buf_supported
    only_partial_host_native_atomic_supported
    """.split()
)

#: Properties cuda.core answers as `int`.
INTS = frozenset(
    """
    max_threads_per_block max_block_dim_x max_block_dim_y max_block_dim_z max_grid_dim_x
    max_grid_dim_y max_grid_dim_z max_shared_memory_per_block total_constant_memory
    warp_size max_pitch maximum_texture1d_width maximum_texture1d_linear_width
    maximum_texture1d_mipmapped_width maximum_texture2d_width maximum_texture2d_height
    maximum_texture2d_linear_width maximum_texture2d_linear_height
    maximum_texture2d_linear_pitch maximum_texture2d_mipmapped_width
    maximum_texture2d_mipmapped_height maximum_texture3d_width maximum_texture3d_height
    maximum_texture3d_depth maximum_texture3d_width_alternate
    maximum_texture3d_height_alternate maximum_texture3d_depth_alternate
    maximum_texturecubemap_width maximum_texture1d_layered_width
    maximum_texture1d_layered_layers maximum_texture2d_layered_width
    maximum_texture2d_layered_height maximum_texture2d_layered_layers
    maximum_texturecubemap_layered_width maximum_texturecubemap_layered_layers
    maximum_surface1d_width maximum_surface2d_width maximum_surface2d_height
    maximum_surface3d_width maximum_surface3d_height maximum_surface3d_depth
    maximum_surface1d_layered_width maximum_surface1d_layered_layers
    maximum_surface2d_layered_width maximum_surface2d_layered_height
    maximum_surface2d_layered_layers maximum_surfacecubemap_width
    maximum_surfacecubemap_layered_width maximum_surfacecubemap_layered_layers
    max_registers_per_block clock_rate texture_alignment texture_pitch_alignment
    multiprocessor_count compute_mode pci_bus_id pci_device_id pci_domain_id
    memory_clock_rate global_memory_bus_width l2_cache_size max_threads_per_multiprocessor
    compute_capability_major compute_capability_minor max_shared_memory_per_multiprocessor
    max_registers_per_multiprocessor multi_gpu_board_group_id
    single_to_double_precision_perf_ratio max_shared_memory_per_block_optin
    max_blocks_per_multiprocessor max_persisting_l2_cache_size max_access_policy_window_size
    reserved_shared_memory_per_block gpu_direct_rdma_flush_writes_options
    gpu_direct_rdma_writes_ordering mempool_supported_handle_types surface_alignment
    async_engine_count maximum_texture2d_gather_width maximum_texture2d_gather_height
    mem_sync_domain_count numa_config numa_id host_numa_id mem_decompress_algorithm_mask
    mem_decompress_maximum_length gpu_pci_device_id gpu_pci_subsystem_id
    """.split()
)

#: Properties cuda.core has only with CUDA 13's bindings.
CUDA_13 = frozenset(
    """
    host_memory_pools_supported host_virtual_memory_management_supported
    host_alloc_dma_buf_supported only_partial_host_native_atomic_supported
    """.split()
)

#: HIP attribute names that are not the property's name camel-cased.
RENAMED = {
    "async_engine_count": "AsyncEngineCount",
    "can_map_host_memory": "CanMapHostMemory",
    "can_use_host_pointer_for_registered_mem": "CanUseHostPointerForRegisteredMem",
    "clock_rate": "ClockRate",
    "compute_capability_major": "ComputeCapabilityMajor",
    "compute_capability_minor": "ComputeCapabilityMinor",
    "compute_mode": "ComputeMode",
    "compute_preemption_supported": "ComputePreemptionSupported",
    "concurrent_kernels": "ConcurrentKernels",
    "concurrent_managed_access": "ConcurrentManagedAccess",
    "cooperative_launch": "CooperativeLaunch",
    "direct_managed_mem_access_from_host": "DirectManagedMemAccessFromHost",
    "ecc_enabled": "EccEnabled",
    "global_l1_cache_supported": "GlobalL1CacheSupported",
    "global_memory_bus_width": "MemoryBusWidth",
    "gpu_overlap": "DeviceOverlap",
    "host_native_atomic_supported": "HostNativeAtomicSupported",
    "host_numa_id": "HostNumaId",
    "host_register_supported": "HostRegisterSupported",
    "integrated": "Integrated",
    "kernel_exec_timeout": "KernelExecTimeout",
    "l2_cache_size": "L2CacheSize",
    "local_l1_cache_supported": "LocalL1CacheSupported",
    "managed_memory": "ManagedMemory",
    "max_access_policy_window_size": "AccessPolicyMaxWindowSize",
    "max_block_dim_x": "MaxBlockDimX",
    "max_block_dim_y": "MaxBlockDimY",
    "max_block_dim_z": "MaxBlockDimZ",
    "max_blocks_per_multiprocessor": "MaxBlocksPerMultiProcessor",
    "max_grid_dim_x": "MaxGridDimX",
    "max_grid_dim_y": "MaxGridDimY",
    "max_grid_dim_z": "MaxGridDimZ",
    "max_persisting_l2_cache_size": "PersistingL2CacheMaxSize",
    "max_pitch": "MaxPitch",
    "max_registers_per_block": "MaxRegistersPerBlock",
    "max_registers_per_multiprocessor": "MaxRegistersPerMultiprocessor",
    "max_shared_memory_per_block": "MaxSharedMemoryPerBlock",
    "max_shared_memory_per_block_optin": "SharedMemPerBlockOptin",
    "max_shared_memory_per_multiprocessor": "MaxSharedMemoryPerMultiprocessor",
    "max_threads_per_block": "MaxThreadsPerBlock",
    "max_threads_per_multiprocessor": "MaxThreadsPerMultiProcessor",
    "maximum_surface1d_width": "MaxSurface1D",
    "maximum_texture1d_linear_width": "MaxTexture1DLinear",
    "maximum_texture1d_mipmapped_width": "MaxTexture1DMipmap",
    "maximum_texture1d_width": "MaxTexture1DWidth",
    "maximum_texture2d_height": "MaxTexture2DHeight",
    "maximum_texture2d_width": "MaxTexture2DWidth",
    "maximum_texture3d_depth": "MaxTexture3DDepth",
    "maximum_texture3d_height": "MaxTexture3DHeight",
    "maximum_texture3d_width": "MaxTexture3DWidth",
    "maximum_texturecubemap_width": "MaxTextureCubemap",
    "memory_clock_rate": "MemoryClockRate",
    "memory_pools_supported": "MemoryPoolsSupported",
    "mempool_supported_handle_types": "MemoryPoolSupportedHandleTypes",
    "multi_gpu_board": "IsMultiGpuBoard",
    "multi_gpu_board_group_id": "MultiGpuBoardGroupID",
    "multiprocessor_count": "MultiprocessorCount",
    "pageable_memory_access": "PageableMemoryAccess",
    "pageable_memory_access_uses_host_page_tables": "PageableMemoryAccessUsesHostPageTables",
    "pci_bus_id": "PciBusId",
    "pci_device_id": "PciDeviceId",
    "pci_domain_id": "PciDomainID",
    "reserved_shared_memory_per_block": "ReservedSharedMemPerBlock",
    "single_to_double_precision_perf_ratio": "SingleToDoublePrecisionPerfRatio",
    "stream_priorities_supported": "StreamPrioritiesSupported",
    "tcc_driver": "TccDriver",
    "texture_alignment": "TextureAlignment",
    "texture_pitch_alignment": "TexturePitchAlignment",
    "total_constant_memory": "TotalConstantMemory",
    "unified_addressing": "UnifiedAddressing",
    "virtual_memory_management_supported": "VirtualMemoryManagementSupported",
    "warp_size": "WarpSize",
}
