//! Snapshot tests of the per-library backends over `generator/tests/headers` (to be written).
