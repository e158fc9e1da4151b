"""Graphs (cuda.core's `cuda.core.graph`): `GraphBuilder` records work queued on a stream
(HIP's stream capture) into a graph, `Graph` is the graph made executable."""

from __future__ import annotations

import dataclasses
import weakref

from hip import hip

from . import _stream
from ._event import EventOptions
from ._utils import names
from ._utils.cuda_utils import CUDAError, check, check_or_create_options

_MODES = {"global": 0, "thread_local": 1, "relaxed": 2}


@dataclasses.dataclass
class GraphCompleteOptions:
    auto_free_on_launch: bool = False
    upload_stream: object = None
    device_launch: bool = False
    use_node_priority: bool = False


@dataclasses.dataclass
class GraphDebugPrintOptions:
    verbose: bool = False
    runtime_types: bool = False
    kernel_node_params: bool = False
    memcpy_node_params: bool = False
    memset_node_params: bool = False
    host_node_params: bool = False
    event_node_params: bool = False
    handles: bool = False

    def _flags(self) -> int:
        bits = [
            self.verbose,
            self.runtime_types,
            self.kernel_node_params,
            self.memcpy_node_params,
            self.memset_node_params,
            self.host_node_params,
            self.event_node_params,
        ]
        flags = sum(1 << i for i, on in enumerate(bits) if on)
        return flags | (1 << 10 if self.handles else 0)


class GraphBuilder:
    """Captures work queued on its stream: `begin_building()`, launches and copies with
    `stream=builder`, `end_building()`, then `complete()` makes a `Graph`."""

    def __new__(cls, *args, **kwargs):
        raise NotImplementedError(
            "directly creating a GraphBuilder is ambiguous; use Device.create_graph_builder() or "
            "Stream.create_graph_builder()"
        )

    @classmethod
    def _init(cls, stream, owns_stream: bool) -> GraphBuilder:
        self = object.__new__(cls)
        self._stream, self._owns_stream = stream, owns_stream
        self._graph, self._state, self.is_join_required = None, "new", False
        return self

    def _owning(self, stream) -> GraphBuilder:
        self._owns_stream = True
        return self

    @property
    def stream(self):
        return self._stream

    @property
    def _graph_builder_stream(self):
        return self._stream

    def __cuda_stream__(self):
        return self._stream.__cuda_stream__()

    @property
    def is_building(self) -> bool:
        status = check("hipStreamIsCapturing", hip.hipStreamIsCapturing(self._stream.handle))
        return int(status) == 1

    def begin_building(self, mode: str = "relaxed") -> GraphBuilder:
        if mode not in _MODES:
            raise ValueError(f"Unsupported build mode: {mode}")
        if self._state == "ended":
            raise RuntimeError("Cannot resume building after building has ended.")
        check("hipStreamBeginCapture", hip.hipStreamBeginCapture(self._stream.handle, _MODES[mode]))
        self._state = "building"
        return self

    def end_building(self) -> GraphBuilder:
        if self._state != "building":
            raise RuntimeError("Graph builder is not building.")
        self._graph = check("hipStreamEndCapture", hip.hipStreamEndCapture(self._stream.handle))
        self._state = "ended"
        return self

    def complete(self, options: GraphCompleteOptions | None = None) -> Graph:
        if self._state != "ended":
            raise RuntimeError("Graph has not finished building.")
        return instantiate(self._graph, options)

    def debug_dot_print(self, path, options: GraphDebugPrintOptions | None = None) -> None:
        options = check_or_create_options(GraphDebugPrintOptions, options, "Graph debug print options")
        path = path.encode() if isinstance(path, str) else bytes(path)
        check("hipGraphDebugDotPrint", hip.hipGraphDebugDotPrint(self._graph, path, options._flags()))

    def split(self, count: int) -> tuple[GraphBuilder, ...]:
        """This builder and `count - 1` more on new streams, each starting after the work so far."""
        if count < 2:
            raise ValueError(f"Invalid split count: expecting >= 2, got {count}")
        event = self._stream.record(options=EventOptions(timing_enabled=False))
        out = [self]
        for _ in range(count - 1):
            stream = _stream.Stream._init(device_id=self._stream._device_id)
            stream.wait(event)
            builder = GraphBuilder._init(stream, owns_stream=True)
            builder._state, builder.is_join_required = self._state, True
            out.append(builder)
        return tuple(out)

    @staticmethod
    def join(*builders: GraphBuilder) -> GraphBuilder:
        """The first builder that needs no join, after the others' work."""
        if any(not isinstance(b, GraphBuilder) for b in builders):
            raise TypeError("join takes GraphBuilders")
        if len(builders) < 2:
            raise ValueError("Must join with at least two graph builders")
        root = next((b for b in builders if not b.is_join_required), builders[0])
        for b in builders:
            if b is not root:
                root._stream.wait(b._stream)
        return root

    def create_condition(self, default_value=None):
        raise CUDAError("HIP has no conditional graph nodes (no hipGraphConditionalHandleCreate)")

    def if_then(self, condition):
        raise CUDAError("HIP has no conditional graph nodes")

    if_else = while_loop = if_then

    def switch(self, condition, count: int):
        raise CUDAError("HIP has no conditional graph nodes")

    def embed(self, child):
        raise CUDAError("hip.core's GraphBuilder does not embed graphs yet (use a GraphDefinition's embed)")

    def callback(self, fn, *, user_data=None):
        raise CUDAError("hip.core's graphs take no host callbacks yet (hipLaunchHostFunc needs a C function)")

    def close(self) -> None:
        if self._graph is not None:
            hip.hipGraphDestroy(self._graph)
            self._graph = None
        if self._owns_stream:
            self._stream.close()


class Graph:
    """An executable graph: `launch(stream)` queues all of its work at once."""

    def __new__(cls, *args, **kwargs):
        raise RuntimeError("Graph objects cannot be instantiated directly. Please use GraphBuilder APIs.")

    @classmethod
    def _init(cls, graph_exec) -> Graph:
        self = object.__new__(cls)
        self._exec = graph_exec
        self._finalizer = weakref.finalize(self, hip.hipGraphExecDestroy, graph_exec)
        self._finalizer.atexit = False
        return self

    @property
    def handle(self):
        return self._exec

    def upload(self, stream) -> None:
        check("hipGraphUpload", hip.hipGraphUpload(self._exec, _stream.Stream_accept(stream).handle))

    def launch(self, stream) -> None:
        check("hipGraphLaunch", hip.hipGraphLaunch(self._exec, _stream.Stream_accept(stream).handle))

    def update(self, source) -> None:
        """Gives the executable graph the parameters of `source` (a built `GraphBuilder` or
        a `GraphDefinition`) of the same topology (`hipGraphExecUpdate`)."""
        if isinstance(source, GraphBuilder):
            if source._state != "ended":
                raise ValueError("Graph has not finished building.")
            graph = source._graph
        elif definition_class is not None and isinstance(source, definition_class):
            graph = source.handle
            self._keep = source._parameters()
        else:
            raise TypeError(f"expected GraphBuilder or GraphDefinition, got {type(source).__name__}")
        status, _, result = hip.hipGraphExecUpdate(self._exec, graph)
        if status != 0:
            cuda_name = names.cuda_member("CU_GRAPH_EXEC_UPDATE_", result.name, "hipGraphExecUpdate")
            what = " ".join(names.words(result.name.removeprefix("hipGraphExecUpdate"))).lower()
            raise CUDAError(f"Graph update failed: {what} ({cuda_name})", status)

    def close(self) -> None:
        self._finalizer()


def instantiate(graph, options: GraphCompleteOptions | None = None) -> Graph:
    """An executable `Graph` of HIP graph `graph` (`hipGraphInstantiateWithFlags` with the
    options' flags; uploaded to `upload_stream` where given)."""
    options = check_or_create_options(GraphCompleteOptions, options, "Graph complete options")
    flags = hip.hipGraphInstantiateFlags
    bits = 0
    for on, flag in (
        (options.auto_free_on_launch, flags.hipGraphInstantiateFlagAutoFreeOnLaunch),
        (options.device_launch, flags.hipGraphInstantiateFlagDeviceLaunch),
        (options.use_node_priority, flags.hipGraphInstantiateFlagUseNodePriority),
    ):
        bits |= int(flag) if on else 0
    graph_exec = check("hipGraphInstantiateWithFlags", hip.hipGraphInstantiateWithFlags(graph, bits))
    result = Graph._init(graph_exec)
    if options.upload_stream is not None:
        result.upload(options.upload_stream)
    return result


#: The `GraphDefinition` class (set by `_graph_definition`, which builds on this module).
definition_class = None

_stream.graph_builder_class = GraphBuilder
