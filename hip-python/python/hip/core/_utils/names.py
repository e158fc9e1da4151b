"""One thing under cuda.core's, HIP's and CUDA's spellings: a snake_case property against
HIP's CamelCase member (`max_block_dim_x`, `hipDeviceAttributeMaxBlockDimX`), HIP's CamelCase
member against CUDA's UPPER_SNAKE one (`hipGraphNodeTypeWaitEvent`,
`CU_GRAPH_NODE_TYPE_WAIT_EVENT`)."""

from __future__ import annotations

import re


def camel(snake: str) -> str:
    """`max_block_dim_x` → `MaxBlockDimX`."""
    return "".join(p[:1].upper() + p[1:] for p in snake.split("_"))


def words(camel_name: str) -> list[str]:
    """`ErrorTopologyChanged` → `["Error", "Topology", "Changed"]`."""
    return re.findall(r"[A-Z][a-z0-9]*", camel_name)


def cuda_member(cuda_prefix: str, hip_member: str, hip_prefix: str) -> str:
    """HIP's member under CUDA's name: `cuda_member("CU_GRAPH_NODE_TYPE_",
    "hipGraphNodeTypeWaitEvent", "hipGraphNodeType")` → `CU_GRAPH_NODE_TYPE_WAIT_EVENT`."""
    return cuda_prefix + "_".join(w.upper() for w in words(hip_member.removeprefix(hip_prefix)))
