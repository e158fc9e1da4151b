//! Snapshot tests of the CUDA adapters over `generator/tests/adapters` (to be written).
