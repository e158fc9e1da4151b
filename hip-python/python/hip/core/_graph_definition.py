"""Explicit graphs (cuda.core's `GraphDefinition` and its nodes) over HIP's graph API: each
builder call adds one node (`hipGraphAdd*Node`) that depends on the node it is called on (on
nothing, called on the graph). The bindings' calls that list a graph's nodes and edges answer
one node at a time, so the topology is kept here as nodes are added, destroyed and linked (all
of which goes through these objects); a node's parameters are kept as they were given.
HIP has no conditional nodes: `create_condition` raises `CUDAError` naming that."""

from __future__ import annotations

import collections.abc
import enum
import functools
import sys
import weakref

from hip import hip

from . import _graph, _memory, _ordinal
from ._event import Event
from ._launch_config import LaunchConfig
from ._module import Kernel
from ._utils import names
from ._utils.cuda_utils import CUDAError, Exit, check

#: Every node object alive, by its HIP handle: one object per node.
_node_registry: weakref.WeakValueDictionary[int, GraphNode] = weakref.WeakValueDictionary()


@functools.cache
def node_type_enum() -> type[enum.IntEnum]:
    """HIP's node types under CUDA's names (`CU_GRAPH_NODE_TYPE_KERNEL`), as cuda.core's
    `node.type` answers: each `hipGraphNodeType<Name>` as `CU_GRAPH_NODE_TYPE_<NAME>`."""
    members = {
        names.cuda_member("CU_GRAPH_NODE_TYPE_", name, "hipGraphNodeType"): int(member)
        for name, member in hip.hipGraphNodeType.__members__.items()
    }
    return enum.IntEnum("CUgraphNodeType", members)


def _addresses(nodes) -> bytearray | None:
    """The `hipGraphNode_t[]` of `nodes` (None for none), as HIP's add calls take them."""
    handles = [int(n._handle) for n in nodes if n._handle is not None]
    if not handles:
        return None
    return bytearray(b"".join(h.to_bytes(8, sys.byteorder) for h in handles))


class GraphDefinition:
    """A graph built node by node: `g.allocate(n)`, `node.launch(config, kernel, *args)`,
    `g.join(a, b)`, ..., then `g.instantiate()` gives a `Graph` to launch."""

    def __init__(self):
        self._handle = check("hipGraphCreate", hip.hipGraphCreate(0))
        self._owned = True
        #: Each node's handle -> (class, attributes); the edges as successor sets.
        self._nodes: dict[int, tuple[type, dict]] = {}
        self._succ: dict[int, set[int]] = {}

    @classmethod
    def _view(cls, handle, nodes: dict, succ: dict) -> GraphDefinition:
        """A graph HIP owns (a child graph's copy), with the topology it was copied from."""
        self = object.__new__(cls)
        self._handle, self._owned = handle, False
        self._nodes, self._succ = nodes, succ
        return self

    def __del__(self, _exit=Exit):  # `Exit` bound now: module globals are cleared at exit
        if getattr(self, "_owned", False) and not _exit.started:
            hip.hipGraphDestroy(self._handle)

    @property
    def handle(self):
        return self._handle

    def __eq__(self, other):
        return isinstance(other, GraphDefinition) and int(other._handle) == int(self._handle)

    def __hash__(self):
        return hash(int(self._handle))

    @property
    def _entry(self) -> GraphNode:
        """The virtual node before every other: what the graph's builder calls start from."""
        return GraphNode._make(self, None, {})

    def empty(self) -> EmptyNode:
        return self._entry.join()

    def nodes(self) -> set[GraphNode]:
        return {self._node(h) for h in self._nodes}

    def edges(self) -> set[tuple[GraphNode, GraphNode]]:
        return {(self._node(a), self._node(b)) for a, succ in self._succ.items() for b in succ}

    def _node(self, key: int) -> GraphNode:
        node = _node_registry.get(key)
        if node is None:
            cls, attrs = self._nodes[key]
            node = cls._make(self, hip.hipGraphNode.fromObj(key), attrs)
        return node

    def instantiate(self, options=None) -> _graph.Graph:
        """An executable `Graph` of the graph as it is now; it keeps the kernels (their
        modules) and events its nodes use alive."""
        graph = _graph.instantiate(self._handle, options)
        graph._keep = self._parameters()
        return graph

    def _parameters(self) -> list[dict]:
        """What the nodes use (kernels, events, copies): an executable graph keeps it."""
        return [attrs for _, attrs in self._nodes.values()]

    def debug_dot_print(self, path, options=None) -> None:
        if options is not None and not isinstance(options, _graph.GraphDebugPrintOptions):
            raise TypeError("options must be a GraphDebugPrintOptions instance")
        flags = options._flags() if options is not None else 0
        path = path.encode() if isinstance(path, str) else bytes(path)
        check("hipGraphDebugDotPrint", hip.hipGraphDebugDotPrint(self._handle, path, flags))

    def __repr__(self):
        return f"<GraphDefinition handle={int(self._handle):#x} nodes={len(self._nodes)}>"


class GraphCondition:
    """Not made on HIP: it has no conditional nodes."""

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("GraphCondition objects cannot be instantiated directly.")


class GraphNode:
    """One node of a `GraphDefinition` (its `graph`); builder calls on it add a node after it."""

    __slots__ = ("_graph", "_handle", "_attrs", "__weakref__")

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("GraphNode objects cannot be instantiated directly.")

    @classmethod
    def _make(cls, graph: GraphDefinition, handle, attrs: dict) -> GraphNode:
        self = object.__new__(cls)
        self._graph, self._handle, self._attrs = graph, handle, attrs
        if handle is not None:
            _node_registry[int(handle)] = self
        return self

    @property
    def graph(self) -> GraphDefinition:
        return self._graph

    @property
    def handle(self):
        return self._handle

    @property
    def is_valid(self) -> bool:
        return self._handle is not None

    @property
    def type(self):
        if self._handle is None:
            return None
        kind = check("hipGraphNodeGetType", hip.hipGraphNodeGetType(self._handle))
        return node_type_enum()(int(kind))

    def __eq__(self, other):
        if not isinstance(other, GraphNode):
            return NotImplemented
        return (other._key(), int(other._graph._handle)) == (self._key(), int(self._graph._handle))

    def __hash__(self):
        return hash((self._key(), int(self._graph._handle)))

    def _key(self) -> int:
        return 0 if self._handle is None else int(self._handle)

    def __repr__(self):
        return f"<{type(self).__name__} handle={self._key():#x}>"

    def destroy(self) -> None:
        """Removes the node (and its edges) from the graph; a second call does nothing."""
        if self._handle is None:
            return
        key = self._key()
        check("hipGraphDestroyNode", hip.hipGraphDestroyNode(self._handle))
        graph = self._graph
        graph._nodes.pop(key, None)
        graph._succ.pop(key, None)
        for succ in graph._succ.values():
            succ.discard(key)
        _node_registry.pop(key, None)
        self._handle = None

    @property
    def pred(self) -> AdjacencySetProxy:
        return AdjacencySetProxy(self, successors=False)

    @pred.setter
    def pred(self, nodes) -> None:
        proxy = self.pred
        proxy.clear()
        proxy.update(nodes)

    @property
    def succ(self) -> AdjacencySetProxy:
        return AdjacencySetProxy(self, successors=True)

    @succ.setter
    def succ(self, nodes) -> None:
        proxy = self.succ
        proxy.clear()
        proxy.update(nodes)

    # -- builders: each adds one node depending on this one --------------------------------

    def _add(self, call: str, cls: type, attrs: dict, *args, after=()) -> GraphNode:
        # Each dependency once (HIP would keep a repeated edge twice).
        deps = list({n._key(): n for n in (self, *after) if n._handle is not None}.values())
        graph = self._graph
        for dep in deps:
            if dep._graph != graph:
                raise CUDAError("a node depends only on nodes of its own graph")
        addresses = _addresses(deps)
        handle = check(call, getattr(hip, call)(graph._handle, addresses, len(deps), *args))
        key = int(handle)
        graph._nodes[key] = (cls, attrs)
        graph._succ[key] = set()
        for dep in deps:
            graph._succ[dep._key()].add(key)
        return cls._make(graph, handle, attrs)

    def join(self, *nodes: GraphNode) -> EmptyNode:
        """An empty node after this one and `nodes`."""
        for n in nodes:
            if not isinstance(n, GraphNode):
                raise TypeError(f"expected GraphNode, got {type(n).__name__}")
        return self._add("hipGraphAddEmptyNode", EmptyNode, {}, after=nodes)

    def allocate(self, size: int, *, device=None, memory_type="device", peer_access=None) -> AllocNode:
        """Memory allocated when the graph runs (`hipGraphAddMemAllocNode`)."""
        memory_type = str(memory_type)
        if memory_type not in ("device", "host", "managed"):
            raise ValueError(f"Invalid memory_type: {memory_type!r}. Must be 'device', 'host', or 'managed'.")
        if memory_type != "device":
            raise CUDAError(
                f"HIP's graph allocations are device memory: memory_type={memory_type!r} is not available"
            )
        if size <= 0:
            raise CUDAError(f"hipGraphAddMemAllocNode: cannot allocate {size} bytes")
        device_id = _ordinal.device_ordinal(device)
        peers = tuple(int(getattr(p, "device_id", p)) for p in (peer_access or ()))
        params = _alloc_params(device_id, size, peers)
        node = self._add("hipGraphAddMemAllocNode", AllocNode, {}, params)
        node._attrs.update(dptr=int(params.dptr), bytesize=size, device_id=device_id, peer_access=peers)
        node._attrs["memory_type"] = memory_type
        return node

    def deallocate(self, dptr: int) -> FreeNode:
        """Frees memory an allocation node of the graph made (`hipGraphAddMemFreeNode`)."""
        if not int(dptr):
            raise CUDAError("hipGraphAddMemFreeNode: a null pointer is not a graph allocation")
        return self._add("hipGraphAddMemFreeNode", FreeNode, {"dptr": int(dptr)}, int(dptr))

    def memset(self, dst: int, value, width: int, height: int = 1, pitch: int = 0) -> MemsetNode:
        """Sets `width` elements (× `height` rows `pitch` bytes apart) to `value`: an int (one
        byte) or 1, 2 or 4 bytes (`hipGraphAddMemsetNode`)."""
        element_size, pattern = _memset_value(value)
        params = hip.hipMemsetParams()
        params.dst, params.value, params.elementSize = int(dst), pattern, element_size
        params.width, params.height, params.pitch = width, height, pitch
        attrs = {"dptr": int(dst), "value": pattern, "element_size": element_size}
        attrs.update(width=width, height=height, pitch=pitch)
        return self._add("hipGraphAddMemsetNode", MemsetNode, attrs, params)

    def memcpy(self, dst: int, src: int, size: int) -> MemcpyNode:
        """Copies `size` bytes (`hipGraphAddMemcpyNode1D`; the runtime tells the kinds)."""
        attrs = {"dst": int(dst), "src": int(src), "size": size}
        kind = hip.hipMemcpyKind.hipMemcpyDefault
        return self._add("hipGraphAddMemcpyNode1D", MemcpyNode, attrs, int(dst), int(src), size, kind)

    def launch(self, config: LaunchConfig, kernel: Kernel, *args) -> KernelNode:
        """A kernel launch (`hipGraphAddKernelNode`): the arguments are packed now, as
        `launch` packs them, and copied by HIP."""
        if not isinstance(config, LaunchConfig):
            raise TypeError(f"config must be a LaunchConfig, got {type(config).__name__}")
        if not isinstance(kernel, Kernel):
            raise TypeError(f"kernel must be a Kernel, got {type(kernel).__name__}")
        from hip import _native

        packed = _native.KernelArgs(*args)
        params = hip.hipKernelNodeParams()
        params.func = kernel.handle
        params.gridDim, params.blockDim = _dim3(config.grid), _dim3(config.block)
        params.sharedMemBytes, params.kernelParams = config.shmem_size, packed.address
        attrs = {
            "grid": config.grid,
            "block": config.block,
            "shmem_size": config.shmem_size,
            "kernel": kernel,
        }
        return self._add("hipGraphAddKernelNode", KernelNode, attrs, params)

    def embed(self, child: GraphDefinition) -> ChildGraphNode:
        """A copy of graph `child` as one node (`hipGraphAddChildGraphNode`)."""
        if not isinstance(child, GraphDefinition):
            raise TypeError(f"embed takes a GraphDefinition, got {type(child).__name__}")
        node = self._add("hipGraphAddChildGraphNode", ChildGraphNode, {}, child._handle)
        copy = check("hipGraphChildGraphNodeGetGraph", hip.hipGraphChildGraphNodeGetGraph(node._handle))
        node._attrs["copy"] = (copy, _cloned_topology(child, copy))
        return node

    def record(self, event: Event) -> EventRecordNode:
        if not isinstance(event, Event):
            raise TypeError(f"record takes an Event, got {type(event).__name__}")
        return self._add("hipGraphAddEventRecordNode", EventRecordNode, {"event": event}, event.handle)

    def wait(self, event: Event) -> EventWaitNode:
        if not isinstance(event, Event):
            raise TypeError(f"wait takes an Event, got {type(event).__name__}")
        return self._add("hipGraphAddEventWaitNode", EventWaitNode, {"event": event}, event.handle)

    def callback(self, fn, *, user_data=None):
        if user_data is not None and not hasattr(fn, "argtypes"):
            raise ValueError("user_data is only supported with ctypes function pointers")
        raise CUDAError(
            "hip.core's graphs take no host callbacks yet (hipGraphAddHostNode needs a C function)"
        )

    def create_condition(self, default_value=None):
        raise CUDAError("HIP has no conditional graph nodes (no hipGraphConditionalHandleCreate)")

    def if_then(self, condition):
        return self._conditional(condition)

    def if_else(self, condition):
        return self._conditional(condition)

    def while_loop(self, condition):
        return self._conditional(condition)

    def switch(self, condition, count: int):
        return self._conditional(condition)

    def _conditional(self, condition):
        if not isinstance(condition, GraphCondition):
            raise TypeError(f"expected a GraphCondition, got {type(condition).__name__}")
        raise CUDAError("HIP has no conditional graph nodes")


#: The builder calls a graph forwards to its entry node.
_BUILDERS = frozenset(
    "join allocate deallocate memset memcpy launch embed record wait callback create_condition "
    "if_then if_else while_loop switch".split()
)


def _forward(name: str):
    """Graph method `name`: the entry node's (a node with no dependency)."""

    def method(self, *args, **kwargs):
        return getattr(self._entry, name)(*args, **kwargs)

    method.__name__ = name
    method.__doc__ = getattr(GraphNode, name).__doc__
    return method


for _name in _BUILDERS:
    setattr(GraphDefinition, _name, _forward(_name))
_graph.definition_class = GraphDefinition


def _alloc_params(device_id: int, size: int, peers: tuple[int, ...]):
    params = hip.hipMemAllocNodeParams()
    params.poolProps.allocType = hip.hipMemAllocationType.hipMemAllocationTypePinned
    params.poolProps.location.type = hip.hipMemLocationType.hipMemLocationTypeDevice
    params.poolProps.location.id = device_id
    params.bytesize = size
    if peers:
        raise CUDAError("peer access of graph allocations is not built into hip.core yet")
    return params


def _dim3(sizes: tuple[int, int, int]):
    dims = hip.dim3()
    dims.x, dims.y, dims.z = sizes
    return dims


def _memset_value(value) -> tuple[int, int]:
    """(element size, value) of a memset's value, as `Buffer.fill` reads its value."""
    return _memory.fill_pattern(value, "memset")


def _cloned_topology(child: GraphDefinition, copy) -> tuple[dict, dict]:
    """The nodes and edges of `copy`, HIP's clone of `child`: each of the child's nodes found
    in it (`hipGraphNodeFindInClone`), with its class and parameters."""
    clone_of = {}
    for key in child._nodes:
        found = hip.hipGraphNodeFindInClone(hip.hipGraphNode.fromObj(key), copy)
        clone_of[key] = int(check("hipGraphNodeFindInClone", found))
    nodes = {clone_of[k]: entry for k, entry in child._nodes.items()}
    succ = {clone_of[k]: {clone_of[b] for b in v} for k, v in child._succ.items()}
    return nodes, succ


class AdjacencySetProxy(collections.abc.MutableSet):
    """A node's predecessors or successors, as a live set: adding or discarding a node adds
    or removes the edge (`hipGraphAddDependencies`, `hipGraphRemoveDependencies`)."""

    def __init__(self, node: GraphNode, successors: bool):
        self._node, self._successors = node, successors

    @classmethod
    def _from_iterable(cls, it):
        return set(it)

    def _keys(self) -> set[int]:
        node = self._node
        if node._handle is None:
            return set()
        graph, key = node._graph, node._key()
        if self._successors:
            return set(graph._succ.get(key, ()))
        return {a for a, succ in graph._succ.items() if key in succ}

    def __contains__(self, other) -> bool:
        return (
            isinstance(other, GraphNode)
            and other._graph == self._node._graph
            and other._key() in self._keys()
        )

    def __iter__(self):
        graph = self._node._graph
        return iter([graph._node(k) for k in self._keys()])

    def __len__(self) -> int:
        return len(self._keys())

    def _edge(self, other: GraphNode) -> tuple[GraphNode, GraphNode]:
        if not isinstance(other, GraphNode):
            raise TypeError(f"expected GraphNode, got {type(other).__name__}")
        node = self._node
        if node._handle is None or other._handle is None:
            raise CUDAError("an edge needs two nodes of the graph (one was destroyed or is the entry)")
        if other._graph != node._graph:
            raise CUDAError("an edge joins nodes of one graph")
        if other._key() == node._key():
            raise CUDAError("a node cannot depend on itself")
        return (node, other) if self._successors else (other, node)

    def add(self, other: GraphNode) -> None:
        a, b = self._edge(other)
        graph = a._graph
        if b._key() in graph._succ[a._key()]:
            return
        check("hipGraphAddDependencies", hip.hipGraphAddDependencies(graph._handle, a._handle, b._handle, 1))
        graph._succ[a._key()].add(b._key())

    def discard(self, other) -> None:
        if other not in self:
            return
        a, b = self._edge(other)
        graph = a._graph
        check(
            "hipGraphRemoveDependencies",
            hip.hipGraphRemoveDependencies(graph._handle, a._handle, b._handle, 1),
        )
        graph._succ[a._key()].discard(b._key())

    def update(self, *iterables) -> None:
        for it in iterables:
            for other in it:
                self.add(other)

    def __repr__(self):
        kind = "succ" if self._successors else "pred"
        return f"{kind}({set(self)!r})"


def _property(name: str):
    return property(lambda self: self._attrs.get(name))


class EmptyNode(GraphNode):
    __slots__ = ()


class KernelNode(GraphNode):
    __slots__ = ()
    grid = _property("grid")
    block = _property("block")
    shmem_size = _property("shmem_size")
    kernel = _property("kernel")

    @property
    def config(self) -> LaunchConfig:
        return LaunchConfig(grid=self.grid, block=self.block, shmem_size=self.shmem_size)


class AllocNode(GraphNode):
    __slots__ = ()
    dptr = _property("dptr")
    bytesize = _property("bytesize")
    device_id = _property("device_id")
    memory_type = _property("memory_type")
    peer_access = _property("peer_access")


class FreeNode(GraphNode):
    __slots__ = ()
    dptr = _property("dptr")


class MemsetNode(GraphNode):
    __slots__ = ()
    dptr = _property("dptr")
    value = _property("value")
    element_size = _property("element_size")
    width = _property("width")
    height = _property("height")
    pitch = _property("pitch")


class MemcpyNode(GraphNode):
    __slots__ = ()
    dst = _property("dst")
    src = _property("src")
    size = _property("size")


class ChildGraphNode(GraphNode):
    __slots__ = ()

    @property
    def child_graph(self) -> GraphDefinition:
        """HIP's copy of the embedded graph (owned by this node's graph, kept alive by it)."""
        copy, (nodes, succ) = self._attrs["copy"]
        view = GraphDefinition._view(copy, nodes, succ)
        view._parent = self
        return view


class EventRecordNode(GraphNode):
    __slots__ = ()
    event = _property("event")


class EventWaitNode(GraphNode):
    __slots__ = ()
    event = _property("event")


class HostCallbackNode(GraphNode):
    __slots__ = ()
    callback = _property("callback")


class ConditionalNode(GraphNode):
    """Not made on HIP (no conditional nodes); named so programs that test for it import."""

    __slots__ = ()
    condition = None
    cond_type = None
    branches = ()


class IfNode(ConditionalNode):
    __slots__ = ()


class IfElseNode(ConditionalNode):
    __slots__ = ()


class WhileNode(ConditionalNode):
    __slots__ = ()


class SwitchNode(ConditionalNode):
    __slots__ = ()
