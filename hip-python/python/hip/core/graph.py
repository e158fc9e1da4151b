"""cuda.core's `graph`: graphs recorded from stream work."""

from ._graph import Graph, GraphBuilder, GraphCompleteOptions, GraphDebugPrintOptions

__all__ = ["Graph", "GraphBuilder", "GraphCompleteOptions", "GraphDebugPrintOptions"]
