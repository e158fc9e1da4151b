"""Helpers of `hip.core` (cuda.core's `_utils`): errors, result checks, option records."""
