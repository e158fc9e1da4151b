"""libclang's Python API: `from rocm.clang import cindex` (as in rocm-llvm-python)."""

__all__ = ["cindex"]
